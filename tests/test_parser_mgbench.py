import json

from conftest import FIXTURES, rejected as _rejected

D = FIXTURES / "mgbench"
V = D / "DGX1-V100"
MIB = 1048576


def test_halfduplex_values_and_folder_system(ingest, db):
    rep = ingest(V / "l1-halfduplex.log")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "mgbench" and rep.systems == ["dgx1_v100"]  # folder DGX1-V100
    assert rep.measurements == 2 * 9 * 8
    rows = {r[0]: r[1:] for r in db.execute(
        """SELECT metric, value, unit, orig_value, orig_unit, operation, direction, msg_bytes, condition, statistic
           FROM measurements WHERE src = 'host' AND dst = 'gpu0'""").fetchall()}
    assert rows["bandwidth"][:4] == (11778.94 * MIB / 1e9, "GB/s", "11778.94", "MB/s")
    assert rows["bandwidth"][4:] == ("h2d", "uni", 104857600, "p2p_on", "mean")
    assert rows["time"][:4] == (8489.73, "us", "8.489730", "ms")
    assert db.execute("SELECT operation FROM measurements WHERE src = 'gpu2' AND dst = 'host' LIMIT 1").fetchone() == ("d2h",)
    run = db.execute("SELECT tool, experiment, params FROM runs").fetchone()
    assert run[:2] == ("mgbench", "mgbench_halfduplex_memcpy")
    assert json.loads(run[2])["repetitions"] == 100


def test_fullduplex_p2p_disabled_and_exact_small_size(ingest, db):
    rep = ingest(V / "l1-fullduplex.log")
    assert rep.status == "loaded", rep.message
    assert rep.measurements == 2 * 28
    m = db.execute("""SELECT msg_bytes, condition, direction, params, value FROM measurements
                      WHERE src = 'gpu0' AND dst = 'gpu1' AND metric = 'bandwidth'""").fetchone()
    assert m[:3] == (104857, "p2p_off", "bi")  # "0.10 MB" = uint64(0.1*1024*1024)
    assert json.loads(m[3])["bw_basis"] == "per_direction"
    assert m[4] == 3565.04 * MIB / 1e9


def test_uva_read_no_dma_and_write_from_file_name(ingest, db):
    rep = ingest(V / "l1-uvahalf.log")
    assert rep.status == "loaded", rep.message
    run = json.loads(db.execute("SELECT params FROM runs WHERE experiment = 'mgbench_uva_dma_read_uni'").fetchone()[0])
    assert run["access"] == "read" and len(run["no_dma"]) == 24 and "gpu0-gpu5" in run["no_dma"]
    assert run["block_size"] == 32 and run["type_size"] == 4 and run["access_pattern"] == "coalesced"
    assert db.execute("SELECT count(*) FROM measurements WHERE src = 'gpu0' AND dst = 'gpu5'").fetchone()[0] == 0
    assert db.execute("""SELECT value FROM measurements WHERE src = 'gpu0' AND dst = 'gpu3' AND metric = 'time'""").fetchone()[0] \
        == 2311.89
    rep = ingest(V / "l1-uvawfull.log")
    assert rep.status == "loaded", rep.message
    assert db.execute("SELECT count(*) FROM runs WHERE experiment = 'mgbench_uva_dma_write_bi'").fetchone()[0] == 1


def test_scatter_gather(ingest, db):
    rep = ingest(V / "l1-scatter.log")
    assert rep.status == "loaded", rep.message
    rows = {(r[0], r[1], r[2]): r[3] for r in db.execute(
        """SELECT operation, metric, statistic, value FROM measurements WHERE NOT coalesce(
               json_extract(params, '$.per_gpu')::BOOLEAN, false)""").fetchall()}
    assert rows[("scatter", "bandwidth", "mean")] == 5772.05 * MIB / 1e9
    assert rows[("scatter", "bandwidth", "max")] == 6561.75 * MIB / 1e9
    assert rows[("gather", "time", "min")] == 14599.67
    per_gpu = db.execute("""SELECT src, dst, value FROM measurements WHERE operation = 'scatter'
                            AND json_extract(params, '$.per_gpu')::BOOLEAN ORDER BY dst""").fetchall()
    assert len(per_gpu) == 8 and per_gpu[0] == ("host", "gpu0", 18836.07)


def test_system_fallback_without_folder(ingest, tmp_path):
    f = tmp_path / "l1-halfduplex.log"
    f.write_text((V / "l1-halfduplex.log").read_text())
    rep = ingest(f)
    assert rep.systems == ["node_8x_gpu"] and "--system" in rep.message




def test_rejects_truncated_empty_foreign(ingest, db, tmp_path):
    assert "truncated" in _rejected(ingest, db, D / "l1-halfduplex-truncated.log").message
    text = (V / "l1-halfduplex.log").read_text()
    mid = tmp_path / "mid.log"
    mid.write_text(text[: text.rindex(" MB/s")])  # value without its time
    _rejected(ingest, db, mid)
    head_only = tmp_path / "head.log"
    head_only.write_text("".join(text.splitlines(keepends=True)[:6]))
    assert "without any result" in _rejected(ingest, db, head_only).message
    empty = tmp_path / "e.log"
    empty.write_text("")
    _rejected(ingest, db, empty, fmt="mgbench")
    _rejected(ingest, db, FIXTURES / "osu" / "osu_latency_v2.txt", fmt="mgbench")


def test_detection():
    from ingest import registry
    for p in sorted(V.glob("*.log")):
        assert registry.detect(registry.make_context(p)).name == "mgbench", p.name
