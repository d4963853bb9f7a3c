"""Raw benchmark outputs and traces -> one DuckDB database (see ingest.loader)."""
