"""Shared test fixtures: real DuckDB files, real fixture outputs, no mocks."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
RAW = REPO / "datasets" / "raw"


@pytest.fixture
def db(tmp_path):
    """A fresh, empty database file with the schema."""
    from ingest import loader
    con = loader.connect(tmp_path / "t.duckdb")
    yield con
    con.close()


@pytest.fixture
def ingest(db):
    """ingest(path, system=None) -> LoadReport, loading into the fresh `db`."""
    from ingest import loader

    def _ingest(path, system=None, fmt=None):
        return loader.ingest_file(db, Path(path), system_id=system, parser_name=fmt)
    return _ingest


def table_counts(con) -> dict[str, int]:
    from ingest.schema import TABLES
    return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
