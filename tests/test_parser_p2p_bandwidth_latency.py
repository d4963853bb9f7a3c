from conftest import FIXTURES, RAW, table_counts

from ingest import registry

TARTAN = RAW / "sp19-benchmark-results" / "Tartan"
FIX = FIXTURES / "p2p_bandwidth_latency"


def _one(db, sql, *args):
    rows = db.execute(sql, list(args)).fetchall()
    assert len(rows) == 1, rows
    return rows[0]


def test_dgx2_two_runs_and_orientation(ingest, db):
    rep = ingest(TARTAN / "DGX-2" / "scale_up_p2p_test")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "p2p_bandwidth_latency"
    assert rep.systems == ["dgx2"]  # 16x Tesla V100-SXM3-32GB in the device list
    assert rep.runs == 2  # the second run was pasted without its banner and device list
    assert rep.measurements == 2 * 6 * 16 * 16
    assert "no device list" in rep.message
    # Legacy sample: cell [row i][col j] copies GPU j -> GPU i (row = destination).
    # Run 1 (banner at line 2), "Unidirectional P2P=Enabled", line 302: row 1 col 0 = 138.10 -> GPU0 -> GPU1.
    v = _one(db, """SELECT value, orig_value, m.source FROM measurements m JOIN runs r USING (run_id)
                    WHERE r.source LIKE '% line 2' AND metric='bandwidth' AND condition='p2p_on'
                      AND direction='uni' AND src='gpu0' AND dst='gpu1'""")
    assert v == (138.10, "138.10", "scale_up_p2p_test line 302")
    # and the reverse direction is row 0 col 1 (137.86, line 301)
    assert _one(db, """SELECT value FROM measurements m JOIN runs r USING (run_id) WHERE r.source LIKE '% line 2'
                       AND metric='bandwidth' AND condition='p2p_on' AND direction='uni'
                       AND src='gpu1' AND dst='gpu0'""")[0] == 137.86
    # run 2 (from line 412): row 1 col 0 = 137.56 (line 451)
    assert _one(db, """SELECT value, m.source FROM measurements m JOIN runs r USING (run_id)
                       WHERE r.source LIKE '% line 412' AND metric='bandwidth' AND condition='p2p_on'
                       AND direction='uni' AND src='gpu0' AND dst='gpu1'""") == (137.56, "scale_up_p2p_test line 451")
    # diagonal = copy inside one GPU
    assert _one(db, """SELECT operation, value FROM measurements m JOIN runs r USING (run_id) WHERE r.source LIKE '% line 2'
                       AND metric='bandwidth' AND condition='p2p_on' AND direction='uni' AND src='gpu0' AND dst='gpu0'""") \
        == ("d2d", 789.64)
    # device list -> components
    assert db.execute("SELECT count(*), min(label), max(label) FROM components WHERE system_id='dgx2'").fetchone() \
        == (16, "Tesla V100-SXM3-32GB", "Tesla V100-SXM3-32GB")
    assert db.execute("SELECT DISTINCT tool FROM runs").fetchall() == [("Tartan",)]


def test_yme_bidirectional_and_latency_units(ingest, db):
    rep = ingest(TARTAN / "Yme" / "scale_up_p2p_test")
    assert rep.status == "loaded" and rep.systems == ["ac922_yme"]
    assert rep.measurements == 6 * 16
    # Bidirectional P2P=Enabled row 0: 751.99 130.02 38.63 38.09 -> row 0 col 1 = GPU1 -> GPU0
    assert _one(db, """SELECT value, unit, direction FROM measurements WHERE metric='bandwidth' AND direction='bi'
                       AND condition='p2p_on' AND src='gpu1' AND dst='gpu0'""") == (130.02, "GB/s", "bi")
    # P2P=Disabled latency, row 2 col 3 = 15.88 us: GPU3 -> GPU2, a 1-byte copy in the legacy sample
    lat = _one(db, """SELECT value, unit, msg_bytes, json_extract_string(params, '$.timer') FROM measurements
                      WHERE metric='latency' AND condition='p2p_off' AND src='gpu3' AND dst='gpu2'""")
    assert lat == (15.88, "us", 1, "gpu")
    assert db.execute("SELECT DISTINCT msg_bytes FROM measurements WHERE metric='bandwidth'").fetchall() == [(40000000,)]


def test_single_gpu_desktops(ingest, db):
    assert ingest(TARTAN / "RTX" / "scale_up_p2p_test").systems == ["titan_rtx"]
    rep = ingest(TARTAN / "GTX" / "scale_up_p2p_test")
    assert rep.systems == ["gtx980"] and rep.runs == 2  # two runs pasted into one file
    assert db.execute("""SELECT value FROM measurements WHERE system_id='titan_rtx' AND metric='latency'
                         AND condition='p2p_on'""").fetchall() == [(2.33,)]


def test_current_layout_writes_and_cpu_latency(ingest, db):
    rep = ingest(FIX / "current_layout_2gpu.txt")
    assert rep.status == "loaded", rep.message
    assert rep.systems == ["ac922_minisummit"]  # 2x Tesla V100-SXM2-16GB
    # "(P2P Writes)": cell [row i][col j] copies GPU i -> GPU j (row = source): row 0 col 1 = 40.78
    assert _one(db, """SELECT value, json_extract_string(params, '$.p2p_method') FROM measurements
                       WHERE metric='bandwidth' AND direction='uni' AND condition='p2p_on'
                       AND src='gpu0' AND dst='gpu1'""") == (40.78, "write")
    # both latency timers are stored
    timers = db.execute("""SELECT json_extract_string(params, '$.timer') t, count(*) FROM measurements
                           WHERE metric='latency' GROUP BY t ORDER BY t""").fetchall()
    assert timers == [("cpu", 8), ("gpu", 8)]
    assert _one(db, """SELECT value FROM measurements WHERE metric='latency' AND condition='p2p_off'
                       AND json_extract_string(params, '$.timer')='cpu' AND src='gpu0' AND dst='gpu1'""")[0] == 16.44
    # sizes are not printed and depend on --numElems: not guessed
    assert db.execute("SELECT count(*) FROM measurements WHERE msg_bytes IS NOT NULL").fetchone()[0] == 0


def test_truncated_inputs_are_rejected(ingest, db, tmp_path):
    before = table_counts(db)
    for name in ("yme_cut_mid_matrix.txt", "yme_missing_sections.txt"):
        rep = ingest(FIX / name)
        assert rep.status == "failed", name
        assert "truncated" in rep.message or "incomplete" in rep.message, rep.message
    # the current layout without the CPU-timed table of the last latency section
    text = (FIX / "current_layout_2gpu.txt").read_text().splitlines()
    cut = text[: max(i for i, ln in enumerate(text) if ln.strip().startswith("CPU"))]
    p = tmp_path / "cut_cpu_table.txt"
    p.write_text("\n".join(cut) + "\n")
    rep = ingest(p)
    assert rep.status == "failed" and "CPU" in rep.message
    assert table_counts(db) == before


def test_foreign_inputs_are_rejected(ingest, db):
    before = table_counts(db)
    packet = TARTAN / "Yme" / "scale_up_p2p_packet_1"
    assert not registry.get("p2p_bandwidth_latency").sniff(registry.make_context(packet))
    rep = ingest(packet, fmt="p2p_bandwidth_latency")
    assert rep.status == "failed"
    deepbench = RAW / "sp19-benchmark-results" / "DeepBench" / "DGX-2" / "Tensor-Cores" / "gemm_tc_train_float"
    assert ingest(deepbench, fmt="p2p_bandwidth_latency").status == "failed"
    assert table_counts(db) == before
