import json

from conftest import FIXTURES, rejected as _rejected

D = FIXTURES / "bandwidth_test"


def test_quick_mode_h100(ingest, db):
    rep = ingest(D / "bandwidthTest_quick_h100.txt")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "cuda-bandwidthTest" and rep.systems == ["host_dgx_h100_01"]
    rows = {r[0]: r[1:] for r in db.execute(
        """SELECT operation, value, unit, src, dst, msg_bytes, condition, orig_unit, source FROM measurements""").fetchall()}
    assert rows["h2d"][:6] == (55.3, "GB/s", "host", "gpu0", 32000000, "pinned")
    assert rows["d2h"][:5] == (55.1, "GB/s", "gpu0", "host", 32000000)
    assert rows["d2d"][:6] == (1604.2, "GB/s", "gpu0", "gpu0", 32000000, None)
    assert rows["h2d"][7] == "bandwidthTest_quick_h100.txt line 11"
    run = db.execute("SELECT tool, experiment, params FROM runs").fetchone()
    assert run[:2] == ("bandwidthTest", "bandwidthtest_quick") and json.loads(run[2])["result"] == "PASS"
    assert db.execute("SELECT label FROM components WHERE component_id = 'gpu0'").fetchone()[0] == "NVIDIA H100 80GB HBM3"


def test_old_mbs_units_with_spaces(ingest, db):
    rep = ingest(D / "bandwidthTest_quick_p100_mbs.txt", system="p100_box")
    assert rep.status == "loaded", rep.message
    v = db.execute("SELECT value, orig_value, orig_unit, msg_bytes, note FROM measurements WHERE operation = 'h2d'").fetchone()
    assert abs(v[0] - 12150.7 * 1.024e-3) < 1e-9 and v[1:4] == ("12150.7", "MB/s", 33554432)
    assert "1,024,000" in v[4]


def test_range_pageable_tabs(ingest, db):
    rep = ingest(D / "bandwidthTest_range_pageable.txt", system="rtx")
    assert rep.status == "loaded", rep.message
    assert rep.measurements == 18
    assert db.execute("SELECT DISTINCT condition FROM measurements WHERE operation <> 'd2d'").fetchall() == [("pageable",)]
    # sizes below 10000 get an extra tab in the row
    assert db.execute("SELECT value FROM measurements WHERE operation = 'h2d' AND msg_bytes = 2000").fetchone()[0] == 0.1
    assert db.execute("SELECT value FROM measurements WHERE operation = 'd2h' AND msg_bytes = 20002000").fetchone()[0] == 11.9
    assert json.loads(db.execute("SELECT params FROM measurements LIMIT 1").fetchone()[0])["mode"] == "range"


def test_shmoo_write_combined_and_csv(ingest, db):
    rep = ingest(D / "bandwidthTest_shmoo_dtoh_wc.txt", system="h200")
    assert rep.status == "loaded", rep.message
    assert rep.measurements == 80
    p = json.loads(db.execute("SELECT params FROM measurements WHERE msg_bytes = 64000000").fetchone()[0])
    assert p == {"mode": "shmoo", "write_combined": True}
    rep = ingest(D / "bandwidthTest_csv.txt", system="h100")
    assert rep.status == "loaded" and rep.measurements == 3
    assert db.execute("""SELECT value, condition, src, dst FROM measurements WHERE system_id = 'h100'
                         AND operation = 'h2d'""").fetchone() == (55.3, "pinned", "host", "gpu0")




def test_rejects_truncated_empty_foreign(ingest, db, tmp_path):
    assert "truncated" in _rejected(ingest, db, D / "bandwidthTest_truncated.txt").message
    text = (D / "bandwidthTest_range_pageable.txt").read_text()
    cut = tmp_path / "cut.txt"
    cut.write_text(text[: text.index("   12002000", text.index("Device to Host")) ])  # whole rows, no Result
    assert "cut off" in _rejected(ingest, db, cut).message
    empty = tmp_path / "e.txt"
    empty.write_text("")
    _rejected(ingest, db, empty, fmt="cuda-bandwidthTest")
    _rejected(ingest, db, FIXTURES / "mgbench" / "DGX1-V100" / "l1-halfduplex.log", fmt="cuda-bandwidthTest")


def test_detection():
    from ingest import registry
    for p in sorted(D.glob("*.txt")):
        if "truncated" not in p.name:
            assert registry.detect(registry.make_context(p)).name == "cuda-bandwidthTest", p.name
