import json

from conftest import FIXTURES, rejected as _rejected

D = FIXTURES / "osu"


def test_cuda_bw_two_blocks_device_and_host_buffers(ingest, db):
    rep = ingest(D / "osu_bw_cuda_v7.2.txt", system="h100_pair")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "osu" and rep.runs == 2 and rep.measurements == 2 * 23
    rows = db.execute("""SELECT condition, value, unit, orig_value, orig_unit, operation, direction, app, library,
                                params FROM measurements WHERE msg_bytes = 1 ORDER BY condition""").fetchall()
    dd = rows[0]
    assert dd[0] == "device_to_device" and dd[1:5] == (0.00101, "GB/s", "1.01", "MB/s")
    assert dd[5:9] == ("p2p", "uni", "osu_bw", "mpi")
    p = json.loads(dd[9])
    assert p == {"accel": "cuda", "dtype": "MPI_CHAR", "send_buffer": "device", "recv_buffer": "device"}
    assert rows[1][0] == "host_to_host"
    big = next(l for l in (D / "osu_bw_cuda_v7.2.txt").read_text().splitlines() if l.startswith("4194304 "))
    v = db.execute("""SELECT value FROM measurements WHERE msg_bytes = 4194304 AND condition = 'device_to_device'""").fetchone()
    assert abs(v[0] - float(big.split()[1]) / 1000) < 1e-12
    assert db.execute("SELECT DISTINCT tool, tool_version FROM runs").fetchall() == [("osu", "7.2")]


def test_v2_latency_collapsed_header(ingest, db):
    rep = ingest(D / "osu_latency_v2.txt", system="qlogic_pair")
    assert rep.status == "loaded", rep.message
    assert rep.measurements == 24
    assert db.execute("""SELECT value, unit, statistic, operation, app FROM measurements WHERE msg_bytes = 0""").fetchone() \
        == (1.06, "us", "mean", "p2p", "osu_latency")
    assert db.execute("SELECT tool_version FROM runs").fetchone()[0] == "2.0"


def test_collective_full_format_min_max_iterations(ingest, db):
    rep = ingest(D / "osu_reduce_cuda_v7.3.txt", system="c")
    assert rep.status == "loaded", rep.message
    rows = dict(db.execute("""SELECT statistic, value FROM measurements WHERE msg_bytes = 1""").fetchall())
    assert rows == {"mean": 53.34, "min": 24.80, "max": 158.96}
    m = db.execute("""SELECT operation, app, condition, params FROM measurements WHERE msg_bytes = 2 AND statistic = 'mean'""").fetchone()
    assert m[:3] == ("reduce", "osu_reduce", "device_buffers")
    assert json.loads(m[3])["iterations"] == 1000
    assert json.loads(db.execute("SELECT params FROM measurements WHERE msg_bytes = 1048576 LIMIT 1").fetchone()[0])[
        "iterations"] == 100


def test_mbw_mr_pairs_and_message_rate(ingest, db):
    rep = ingest(D / "osu_mbw_mr_v5.7.1.txt", system="c")
    assert rep.status == "loaded", rep.message
    rows = {r[0]: r[1:] for r in db.execute("""SELECT metric, value, unit, count, count_kind FROM measurements
                                              WHERE msg_bytes = 1""").fetchall()}
    assert rows["bandwidth"] == (0.05809, "GB/s", 96, "ranks")
    assert rows["message_rate"] == (58086503.51, "msg/s", 96, "ranks")
    p = json.loads(db.execute("SELECT params FROM runs").fetchone()[0])
    assert p["pairs"] == 48 and p["window_size"] == 64


def test_allreduce_noise_and_prompt_host(ingest, db):
    rep = ingest(D / "osu_allreduce_v5.6.2.txt")
    assert rep.status == "loaded", rep.message
    assert rep.systems == ["host_cn042"] and rep.measurements == 19
    assert db.execute("SELECT DISTINCT operation, app FROM measurements").fetchall() == [("allreduce", "osu_allreduce")]
    assert db.execute("SELECT min(msg_bytes), max(msg_bytes) FROM measurements").fetchone() == (4, 1048576)


def test_unknown_system_warning(ingest, tmp_path):
    f = tmp_path / "lat.txt"
    f.write_text((D / "osu_latency_v2.txt").read_text())
    rep = ingest(f)
    assert rep.status == "loaded" and rep.systems == ["unknown_system"] and "--system" in rep.message




def test_rejects_truncated_empty_foreign(ingest, db, tmp_path):
    assert "truncated" in _rejected(ingest, db, D / "osu_bw_truncated.txt").message
    short = tmp_path / "short.txt"
    short.write_text((D / "osu_reduce_cuda_v7.3.txt").read_text().replace("        1000\n", "\n", 1))
    assert "values" in _rejected(ingest, db, short).message
    norows = tmp_path / "norows.txt"
    norows.write_text("# OSU MPI Latency Test v7.1\n# Datatype: MPI_CHAR.\n# Size          Latency (us)\n")
    assert "no result rows" in _rejected(ingest, db, norows).message
    empty = tmp_path / "e.txt"
    empty.write_text("")
    _rejected(ingest, db, empty, fmt="osu")
    _rejected(ingest, db, FIXTURES / "nccl_tests" / "run3.log", fmt="osu")


def test_detection():
    from ingest import registry
    for p in sorted(D.glob("*.txt")):
        if "truncated" not in p.name:
            assert registry.detect(registry.make_context(p)).name == "osu", p.name
