"""Where things live. The product runs from its checkout (editable install), so data sits beside code."""
from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DATASETS = REPO_ROOT / "datasets"
CURATED = DATASETS / "curated"
RAW = DATASETS / "raw"
VAR = REPO_ROOT / "var"
MODELS = REPO_ROOT / "models"


def default_db() -> Path:
    """HPCASK_DB overrides the embedded default database file."""
    return Path(os.environ.get("HPCASK_DB", VAR / "hpcask.duckdb"))
