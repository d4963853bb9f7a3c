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
HOSTILE = "gpu0'; DROP TABLE measurements; --"  # an injection attempt as a slot value


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


@pytest.fixture(scope="session")
def built_db(tmp_path_factory):
    """The default database, built from datasets/ once per test session (real build, real data)."""
    from ingest.build import build
    path = tmp_path_factory.mktemp("built") / "hpcask.duckdb"
    rep = build(path, REPO / "datasets", force=True)
    assert not rep.failures, [f.line() for f in rep.failures]
    return path


@pytest.fixture(scope="module")
def asker(built_db):
    """The ask() facade over the built database and the trained question model (the real ones)."""
    from app.ask import Asker
    model = REPO / "models" / "nlu" / "build" / "current"
    if not (model / "labels.json").exists():
        pytest.fail("no trained NLU model: run `make setup` (it trains one) before the tests")
    a = Asker(built_db, model)
    yield a
    a.close()


@pytest.fixture
def built_con(built_db):
    import duckdb
    con = duckdb.connect(str(built_db), read_only=True)
    yield con
    con.close()


def rejected(ingest, db, path, fmt=None):
    """Ingest a file that must fail; assert nothing changed in the database; return the report."""
    before = table_counts(db)
    rep = ingest(path, fmt=fmt)
    assert rep.status == "failed", rep.line()
    assert table_counts(db) == before
    return rep


def run_intent(con, module, slots):
    """plan -> rows -> answer for one intent module against a real connection."""
    from app import catalog
    from app.intents import rows_of
    cat = catalog.load(con)
    plan = module.plan(slots, cat)
    rows = rows_of(con, plan)
    return plan, rows, module.answer(rows, plan, cat)


def stored_values(con, sql, params):
    """The first column of a checking query's rows, which must find some: the reader tests compare an answer's
    number with what the database stores, read by SQL of their own."""
    rows = con.execute(sql, params).fetchall()
    assert rows, (sql, params)
    return [r[0] for r in rows]
