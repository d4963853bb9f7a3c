"""The `hpcask ingest` and `hpcask db build/stats` commands, end to end on real files."""
import json
import shutil

import pytest

from app.cli import main
from conftest import RAW, table_counts


def test_ingest_prints_per_file_and_exit_status(tmp_path, capsys):
    db = tmp_path / "u.duckdb"
    good = RAW / "h200x2" / "all_reduce_perf_g2.txt"
    bad = tmp_path / "cut_perf.txt"
    bad.write_text(good.read_text()[:1500])  # cut in the middle of the table
    assert main(["ingest", str(good), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "loaded" in out and "all_reduce_perf_g2.txt" in out and "[nccl-tests]" in out
    # the same content again adds nothing
    assert main(["ingest", str(good), "--db", str(db)]) == 0
    assert "already loaded" in capsys.readouterr().out
    import duckdb
    con = duckdb.connect(str(db))
    before = table_counts(con)
    con.close()
    # a truncated file: named with its reason, nothing loaded, exit status 1
    assert main(["ingest", str(bad), str(tmp_path / "missing.txt"), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "cut_perf.txt" in err and "missing.txt" in err
    con = duckdb.connect(str(db))
    assert table_counts(con) == before
    con.close()


def test_ingest_folder_with_system_override(tmp_path, capsys):
    db = tmp_path / "u.duckdb"
    folder = tmp_path / "results"
    folder.mkdir()
    shutil.copy(RAW / "h200x2" / "nvidia-smi_topo_m.txt", folder)
    shutil.copy(RAW / "h200x2" / "p2pBandwidthLatencyTest.txt", folder)
    assert main(["ingest", str(folder), "--system", "my_node", "--db", str(db)]) == 0
    capsys.readouterr()
    import duckdb
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT DISTINCT system_id FROM runs").fetchall() == [("my_node",)]
    assert con.execute("SELECT count(*) FROM links WHERE system_id = 'my_node'").fetchone()[0] == 1


def test_db_stats_json_lists_systems_with_counts(built_db, capsys):
    assert main(["db", "stats", "--json", "--db", str(built_db)]) == 0
    stats = json.loads(capsys.readouterr().out)
    by_id = {s["system_id"]: s for s in stats["systems"]}
    assert by_id["dgx2"]["links"] > 100 and by_id["dgx2"]["measurements"] > 1000
    assert by_id["h200x2"]["trace_events"] > 100_000
    assert by_id["ipu16"]["components"] >= 16
    assert stats["totals"]["trace_events"] == sum(s["trace_events"] for s in stats["systems"])


def test_build_is_idempotent_and_a_broken_curated_file_changes_nothing(tmp_path, capsys):
    from ingest.build import build
    from ingest.curated import CuratedError
    datasets = tmp_path / "datasets"
    (datasets / "curated").mkdir(parents=True)
    shutil.copytree(RAW.parents[0] / "curated" / "xmp64_xmos2010", datasets / "curated" / "xmp64_xmos2010")
    (datasets / "raw").mkdir()
    shutil.copy(RAW / "h200x2" / "all_reduce_perf_g1.txt", datasets / "raw")
    db = tmp_path / "d.duckdb"
    first = build(db, datasets)
    assert first.built and not first.failures
    assert not build(db, datasets).built  # nothing changed: skipped
    mtime = db.stat().st_mtime_ns
    meas = datasets / "curated" / "xmp64_xmos2010" / "measurements.csv"
    meas.write_text(meas.read_text() + "xmp64,paper,x,latency,p2p,,,,,,,,,,not-a-number,us,,,,,,,004_cf8b46c8fd922a6d.txt Table 1\n")
    with pytest.raises(CuratedError, match="not a number"):
        build(db, datasets)
    assert db.stat().st_mtime_ns == mtime  # the old database is untouched
    import app.paths
    old = app.paths.DATASETS
    app.paths.DATASETS = datasets
    try:
        assert main(["db", "build", "--db", str(db)]) == 1  # the CLI reports it, no traceback
    finally:
        app.paths.DATASETS = old
    assert "curated data error" in capsys.readouterr().err
