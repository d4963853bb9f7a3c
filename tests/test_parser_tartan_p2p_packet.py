from conftest import FIXTURES, RAW, table_counts

from ingest import registry

TARTAN = RAW / "sp19-benchmark-results" / "Tartan"
FIX = FIXTURES / "tartan_p2p_packet"
MIB32 = 33554432


def _one(db, sql, *args):
    rows = db.execute(sql, list(args)).fetchall()
    assert len(rows) == 1, rows
    return rows[0]


def test_dgx2_32mib_matrices(ingest, db):
    rep = ingest(TARTAN / "DGX-2" / "scale_up_p2p_packet_2")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "tartan_p2p_packet"
    assert rep.systems == ["dgx2"]  # from the folder name: the file prints no device list
    # size 33554432 (line 2726), Uni-PCIe-Bandwidth row 0 (line 2729): 806.04 8.38 9.53 ...
    # Tartan copies GPU j -> GPU i into cell [row i][col j]: row 0 col 1 is GPU1 -> GPU0.
    assert _one(db, """SELECT value, condition, source FROM measurements WHERE msg_bytes=? AND metric='bandwidth'
                       AND direction='uni' AND condition='p2p_off' AND src='gpu1' AND dst='gpu0'""", MIB32) \
        == (8.38, "p2p_off", "scale_up_p2p_packet_2 line 2729")
    assert _one(db, """SELECT value, operation FROM measurements WHERE msg_bytes=? AND metric='bandwidth'
                       AND direction='uni' AND condition='p2p_off' AND src='gpu0' AND dst='gpu0'""", MIB32) \
        == (806.04, "d2d")
    # Uni-NVLink-Bandwidth row 1 col 0 = 136.39 (line 2748): GPU0 -> GPU1 with peer access
    assert _one(db, """SELECT value FROM measurements WHERE msg_bytes=? AND metric='bandwidth' AND direction='uni'
                       AND condition='p2p_on' AND src='gpu0' AND dst='gpu1'""", MIB32)[0] == 136.39
    # NVLink-Latency row 0 col 1 = 246.53 us per 32 MiB copy (GPU1 -> GPU0)
    assert _one(db, """SELECT value, unit FROM measurements WHERE msg_bytes=? AND metric='latency'
                       AND condition='p2p_on' AND src='gpu1' AND dst='gpu0'""", MIB32) == (246.53, "us")
    # 0.00 bandwidth cells (tiny messages) are not stored
    assert db.execute("SELECT count(*) FROM measurements WHERE metric='bandwidth' AND value=0").fetchone()[0] == 0
    assert "0.00" in rep.message


def test_cut_off_copy_keeps_complete_blocks(ingest, db):
    # The real DGX-2 packet_1 file stops in the middle of a Bi-PCIe-Bandwidth row of size 134217728.
    rep = ingest(TARTAN / "DGX-2" / "scale_up_p2p_packet_1")
    assert rep.status == "loaded", rep.message
    assert "dropped" in rep.message and "27 complete blocks" in rep.message
    assert db.execute("SELECT max(msg_bytes), count(DISTINCT msg_bytes) FROM measurements").fetchone() == (67108864, 27)
    assert db.execute("SELECT json_extract(params, '$.truncated') FROM runs").fetchone()[0] == "true"


def test_small_messages_and_two_sweeps(ingest, db):
    rep = ingest(TARTAN / "Yme" / "scale_up_p2p_packet_1")
    assert rep.systems == ["ac922_yme"]
    # size 1, PCIe-Latency row 1 col 0 = 12.85 us (line 29): GPU0 -> GPU1, 1-byte message
    assert _one(db, """SELECT value, source FROM measurements WHERE msg_bytes=1 AND metric='latency'
                       AND condition='p2p_off' AND src='gpu0' AND dst='gpu1'""") == (12.85, "scale_up_p2p_packet_1 line 29")
    rep = ingest(TARTAN / "GTX" / "scale_up_p2p_packet")
    assert rep.runs == 2 and rep.systems == ["gtx980"]


def test_truncated_and_garbled_inputs_are_rejected(ingest, db):
    before = table_counts(db)
    rep = ingest(FIX / "minisummit_cut_in_first_block.txt")
    assert rep.status == "failed", rep.message
    rep = ingest(FIX / "minisummit_garbled_row.txt")  # a row missing a value, in the middle of the file
    assert rep.status == "failed" and "line 45" in rep.message, rep.message
    assert table_counts(db) == before


def test_foreign_inputs_are_rejected(ingest, db):
    before = table_counts(db)
    p2p = TARTAN / "Yme" / "scale_up_p2p_test"
    assert not registry.get("tartan_p2p_packet").sniff(registry.make_context(p2p))
    assert ingest(p2p, fmt="tartan_p2p_packet").status == "failed"
    assert table_counts(db) == before
