"""hpcask application layer: CLI, query execution, charts, UI and reports."""
__version__ = "0.1.0"
