import pytest
from conftest import FIXTURES, RAW, table_counts

from ingest import registry

SCOPE = RAW / "sp19-benchmark-results" / "Scope"
FIX = FIXTURES / "scope"
GIB = 1 << 30


def _one(db, sql, *args):
    rows = db.execute(sql, list(args)).fetchall()
    assert len(rows) == 1, rows
    return rows[0]


def test_memcpy_json_host_device(ingest, db):
    rep = ingest(SCOPE / "COMM" / "Yme" / "Memcpy" / "json files" / "comm-memcpy-0-1.json")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "scope" and rep.systems == ["ac922_yme"]
    # Comm_Memcpy_GPUToHost/log2(N):30: bytes_per_second 1.3479630606242205e+10, real_time 7.9656620820363358e+07 ns
    bw = _one(db, """SELECT value, unit, src, dst, condition, orig_value, orig_unit, source FROM measurements
                     WHERE metric='bandwidth' AND operation='d2h' AND condition='pageable' AND msg_bytes=?""", GIB)
    assert bw == (pytest.approx(13.479630606242205), "GB/s", "gpu0", "host", "pageable",
                  "1.3479630606242205e+10", "B/s", "comm-memcpy-0-1.json line 258")
    t = _one(db, """SELECT value, unit, orig_unit, statistic FROM measurements WHERE metric='time'
                    AND operation='d2h' AND condition='pageable' AND msg_bytes=?""", GIB)
    assert t == (pytest.approx(79656.620820363358), "us", "ns", "mean")
    # write-combined pinned host memory -> GPU
    assert _one(db, """SELECT value FROM measurements WHERE metric='bandwidth' AND operation='h2d'
                       AND condition='pinned_wc' AND msg_bytes=?""", GIB)[0] == pytest.approx(72.61263273955136)
    # sweep log2(N) = 8 .. 33
    assert db.execute("SELECT min(msg_bytes), max(msg_bytes) FROM measurements").fetchone() == (256, 1 << 33)


def test_duplex_peer_json(ingest, db):
    rep = ingest(SCOPE / "COMM" / "DGX-2" / "Memcpy" / "json files" / "comm-memcpy-0-15-duplex.json")
    assert rep.status == "loaded" and rep.systems == ["dgx2"]
    # Comm_Duplex_Memcpy_GPUGPUPeer/0/15/log2(N):30: 290495898623.7502 B/s counted over both directions
    r = _one(db, """SELECT value, src, dst, direction, operation, condition,
                    json_extract_string(params, '$.gpus_from') FROM measurements
                    WHERE metric='bandwidth' AND msg_bytes=?""", GIB)
    assert r == (pytest.approx(290.4958986237502), "gpu0", "gpu15", "bi", "p2p", "p2p_on", "counters")


def test_um_latency_json(ingest, db):
    rep = ingest(SCOPE / "COMM" / "DGX-2" / "Latency" / "json files" / "comm-latency-0-1.json")
    assert rep.status == "loaded"
    # Comm_UM_Latency_GPUToGPU/0/1/log2(N):8 (line 38): real_time 3.7839140899824066e+05 ns for 8 strides
    rows = db.execute("""SELECT metric, value, src, dst, condition, msg_bytes, source FROM measurements
                         WHERE json_extract_string(params, '$.name') = 'Comm_UM_Latency_GPUToGPU/0/1/log2(N):8/manual_time'
                         ORDER BY metric""").fetchall()
    assert rows == [("latency", pytest.approx(378.39140899824066 / 8), "gpu0", "gpu1", "unified_memory", None,
                     "comm-latency-0-1.json line 38"),
                    ("time", pytest.approx(378.39140899824066), "gpu0", "gpu1", "unified_memory", None,
                     "comm-latency-0-1.json line 38")]
    assert db.execute("""SELECT DISTINCT operation, src, dst FROM measurements WHERE
                         json_extract_string(params, '$.benchmark') = 'Comm_UM_Latency_GPUToHost'
                         ORDER BY src""").fetchall() == [("d2h", "gpu0", "host"), ("d2h", "gpu1", "host")]


def test_nccl_json_and_console_agree(ingest, db):
    rep = ingest(SCOPE / "NCCL" / "DGX-2" / "6GPU" / "nccl-broadcast-6.json")
    assert rep.status == "loaded", rep.message
    j = _one(db, """SELECT value, count, count_kind, operation, library, json_extract_string(params, '$.gpus_from')
                    FROM measurements WHERE metric='bandwidth' AND msg_bytes=?""", GIB)
    # bytes_per_second 3.0370267601791630e+10; the JSON does not say how many GPUs: the folder "6GPU" does
    assert j == (pytest.approx(30.37026760179163), 6, "gpus", "broadcast", "nccl", "path")
    rep = ingest(SCOPE / "NCCL" / "DGX-2" / "6GPU" / "broadcast-6")
    assert rep.status == "loaded", rep.message
    # console line 35: "... 35355033 ns ... 28.2845GB/s" (binary GB: 2^30 B/s), --ngpu=6 on the command line
    c = _one(db, """SELECT m.value, m.count, json_extract_string(m.params, '$.gpus_from'), m.orig_value, m.source
                    FROM measurements m JOIN runs r USING (run_id) WHERE json_extract_string(r.params, '$.format')
                    = 'google-benchmark-console' AND m.metric='bandwidth' AND m.msg_bytes=?""", GIB)
    assert c == (pytest.approx(28.2845 * 2**30 / 1e9), 6, "--ngpu", "28.2845", "broadcast-6 line 35")
    assert c[0] == pytest.approx(j[0], rel=1e-5)
    t = _one(db, """SELECT m.value FROM measurements m JOIN runs r USING (run_id) WHERE
                    json_extract_string(r.params, '$.format') = 'google-benchmark-console'
                    AND m.metric='time' AND m.msg_bytes=?""", GIB)
    assert t[0] == 35355.033


def test_console_multiple_runs_and_failures(ingest, db):
    rep = ingest(SCOPE / "COMM" / "DGX-2" / "Memcpy" / "0-15-dual")  # peer run, then duplex run
    assert rep.status == "loaded" and rep.runs == 2
    assert db.execute("SELECT DISTINCT direction FROM measurements ORDER BY 1").fetchall() == [("bi",), ("uni",)]
    assert db.execute("SELECT DISTINCT src, dst FROM measurements WHERE direction='uni'").fetchall() == [("gpu0", "gpu15")]
    rep = ingest(SCOPE / "COMM" / "GTX" / "Latency" / "comm-latency")  # every benchmark failed on the GTX 980
    assert rep.status == "loaded" and rep.measurements == 0
    assert "reported an error" in rep.message
    rep = ingest(SCOPE / "NCCL" / "GTX" / "1GPU" / "allReduce")  # out of memory at 2^29 and 2^30
    assert rep.status == "loaded" and rep.measurements == 2 * 21 and "2 benchmark(s)" in rep.message


def test_truncated_inputs_are_rejected(ingest, db):
    before = table_counts(db)
    rep = ingest(FIX / "comm_memcpy_cut.json")
    assert rep.status == "failed" and "truncated JSON" in rep.message
    rep = ingest(FIX / "console_cut_mid_line.txt")
    assert rep.status == "failed" and "line 17" in rep.message
    assert table_counts(db) == before


def test_foreign_json_is_not_taken(ingest, db):
    before = table_counts(db)
    scope = registry.get("scope")
    for name in ("chrome_trace_with_scope_names.json", "not_scope_google_benchmark.json"):
        path = FIX / name
        assert not scope.sniff(registry.make_context(path)), name
        rep = ingest(path, fmt="scope")
        assert rep.status == "failed", name
    assert table_counts(db) == before
