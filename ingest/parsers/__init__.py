"""One module per raw format; each registers itself with ingest.registry on import."""
