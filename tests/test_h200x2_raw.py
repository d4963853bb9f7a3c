"""Our own real outputs from the 2x H200 node (datasets/raw/h200x2), one parser each."""
from conftest import RAW

H = RAW / "h200x2"


def test_nccl_tests_all_reduce_real(ingest, db):
    rep = ingest(H / "all_reduce_perf_g2.txt")
    assert rep.status == "loaded" and rep.systems == ["h200x2"], rep.message
    q = """SELECT value FROM measurements WHERE operation = 'allreduce' AND metric = ? AND msg_bytes = ?
           AND condition = ?"""
    # "1073741824 ... 3274.74  327.89  327.89" (in-place half of the 1 GiB row)
    assert db.execute(q, ["busbw", 1073741824, "in_place"]).fetchone()[0] == 327.89
    assert db.execute(q, ["time", 1073741824, "in_place"]).fetchone()[0] == 3274.74
    # "4294967296 ... 12379.0  346.96  346.96" (out-of-place, 4 GiB)
    assert db.execute(q, ["algbw", 4294967296, "out_of_place"]).fetchone()[0] == 346.96
    # "# Avg bus bandwidth    : 103.486"
    avg = db.execute("""SELECT value FROM measurements WHERE metric = 'busbw'
                        AND json_extract(params, '$.summary')::BOOLEAN""").fetchone()
    assert avg == (103.486,)
    assert db.execute("SELECT DISTINCT count FROM measurements WHERE count IS NOT NULL").fetchall() == [(2,)]


def test_nccl_tests_every_collective_loads(ingest, db):
    ops = set()
    for f in sorted(H.glob("*_perf_g*.txt")):
        rep = ingest(f)
        assert rep.status == "loaded", (f.name, rep.message)
    ops = {r[0] for r in db.execute("SELECT DISTINCT operation FROM measurements").fetchall()}
    assert {"allreduce", "allgather", "reduce_scatter", "broadcast", "reduce", "alltoall", "sendrecv"} <= ops


def test_p2p_bandwidth_latency_real(ingest, db):
    rep = ingest(H / "p2pBandwidthLatencyTest.txt")
    assert rep.status == "loaded" and rep.systems == ["h200x2"], rep.message
    # newer sample ("P2P Writes"): rows are the source device
    # "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)  0 3943.53 362.41"
    v = db.execute("""SELECT value FROM measurements WHERE metric = 'bandwidth' AND condition = 'p2p_on'
                      AND direction = 'uni' AND src = 'gpu0' AND dst = 'gpu1'""").fetchone()
    assert v == (362.41,)
    # "P2P=Enabled Latency (P2P Writes) Matrix (us)  GPU 0 1.91 2.26"
    lat = db.execute("""SELECT value FROM measurements WHERE metric = 'latency' AND condition = 'p2p_on'
                        AND src = 'gpu0' AND dst = 'gpu1' AND json_extract_string(params, '$.timer') = 'gpu'""").fetchone()
    assert lat == (2.26,)


def test_topology_from_nvidia_smi(ingest, db):
    assert ingest(H / "nvidia-smi_topo_m.txt").status == "loaded"
    assert ingest(H / "nvidia-smi_nvlink_s.txt").status == "loaded"
    link = db.execute("SELECT a, b, link_type, count FROM links WHERE system_id = 'h200x2'").fetchall()
    assert link == [("gpu0", "gpu1", "NVLink", 18)]
    attrs = db.execute("""SELECT attrs FROM components WHERE system_id = 'h200x2' AND component_id = 'gpu1'""").fetchone()[0]
    assert "26.562" in attrs  # per-link speed merged in from `nvidia-smi nvlink -s`
