"""pair_matrix against the real database; expected numbers read independently from the raw outputs."""
import pytest
from conftest import RAW, run_intent, HOSTILE

from app import catalog
from app.intents import OutOfScope, get, rows_of

M = get("pair_matrix")


def _run(con, slots):
    return run_intent(con, M, slots)


def _tartan_matrix(path, size, title):
    """The 16x16 matrix `title` under '===== size =====' (row = destination, column = source)."""
    lines = path.read_text().splitlines()
    i = lines.index(f"===== {size} =====")
    i = lines.index(title, i)
    return [[float(x) for x in lines[i + 2 + r].split()[1:]] for r in range(16)]


def test_dgx2_bandwidth_defaults_match_raw_tartan(built_con):
    plan, rows, text = _run(built_con, {"system": "dgx2"})
    assert plan.chart["kind"] == "heatmap" and (plan.chart["x"], plan.chart["y"], plan.chart["z"]) == (
        "dst", "src", "value")
    assert plan.params == {"system": "dgx2", "metric": "bandwidth", "operation": "p2p"}
    # defaults: p2p_on, unidirectional, the largest size (256 MiB, only in the second packet run), one tool
    assert {(r["tool"], r["condition"], r["direction"], r["msg_bytes"]) for r in rows} == {
        ("Tartan", "p2p_on", "uni", 268435456)}
    assert len(rows) == 240 and all(r["src"] != r["dst"] for r in rows)
    m = _tartan_matrix(RAW / "sp19-benchmark-results/Tartan/DGX-2/scale_up_p2p_packet_2", 268435456,
                       "Uni-NVLink-Bandwidth")
    raw = {(f"gpu{j}", f"gpu{i}"): m[i][j] for i in range(16) for j in range(16) if i != j}
    got = {(r["src"], r["dst"]): r["value"] for r in rows}
    assert got == pytest.approx(raw)
    lo = min(rows, key=lambda r: r["value"])
    hi = max(rows, key=lambda r: r["value"])
    assert (lo["src"], lo["dst"], lo["value"]) == ("gpu11", "gpu15", 144.23)   # row 15, column 11
    assert (hi["src"], hi["dst"], hi["value"]) == ("gpu1", "gpu2", 144.46)     # row 2, column 1
    assert "144.2 GB/s (GPU11 -> GPU15)" in text and "144.5 GB/s (GPU1 -> GPU2)" in text
    assert "scale_up_p2p_packet_2 line" in text
    assert any("256 MiB" in n for n in plan.notes)


def test_dgx2_latency_smallest_size_averages_two_runs(built_con):
    plan, rows, text = _run(built_con, {"system": "dgx2", "metric": "latency"})
    # latency defaults to the smallest size: 1 byte, from the p2pBandwidthLatencyTest output run twice
    assert {r["msg_bytes"] for r in rows} == {1} and len(rows) == 240
    r = next(r for r in rows if (r["src"], r["dst"]) == ("gpu0", "gpu1"))
    # independent: the two 'P2P=Enabled Latency' blocks of scale_up_p2p_test (legacy CUDA sample: the row is
    # the destination), row 1 column 0 = copy 0 -> 1
    lines = (RAW / "sp19-benchmark-results/Tartan/DGX-2/scale_up_p2p_test").read_text().splitlines()
    vals = [float(lines[i + 3].split()[1]) for i, ln in enumerate(lines) if ln.startswith("P2P=Enabled Latency")]
    assert len(vals) == 2
    assert r["n"] == 2 and r["value"] == pytest.approx(sum(vals) / 2)
    assert "lower is better" in text


def test_h200_pair_matrix(built_con):
    plan, rows, text = _run(built_con, {"system": "h200x2", "metric": "bandwidth"})
    # p2pBandwidthLatencyTest.txt, "Unidirectional P2P=Enabled Bandwidth (P2P Writes)": 0->1 362.41, 1->0 391.41
    assert [(r["src"], r["dst"], r["value"]) for r in rows] == [("gpu0", "gpu1", 362.41), ("gpu1", "gpu0", 391.41)]
    assert "362.4 GB/s (GPU0 -> GPU1)" in text and "391.4 GB/s (GPU1 -> GPU0)" in text
    assert "p2pBandwidthLatencyTest.txt" in text
    plan, rows, _ = _run(built_con, {"system": "h200x2", "metric": "bandwidth", "condition": "p2p_off"})
    assert [(r["src"], r["dst"], r["value"]) for r in rows] == [("gpu0", "gpu1", 37.97), ("gpu1", "gpu0", 37.60)]
    assert plan.params["condition"] == "p2p_off"


def test_user_values_are_parameters(built_con):
    plan, rows, _ = _run(built_con, {"system": "ac922_yme", "src": "gpu1", "metric": "bandwidth"})
    assert plan.params["system"] == "ac922_yme" and plan.params["src"] == "gpu1"
    assert "ac922_yme" not in plan.sql and "gpu1" not in plan.sql
    assert {r["src"] for r in rows} == {"gpu1"} and len(rows) == 3


def test_hostile_slot_is_harmless(built_con):
    before = built_con.execute("SELECT count(*) FROM measurements").fetchone()
    cat = catalog.load(built_con)
    plan = M.plan({"system": "dgx2", "src": HOSTILE}, cat)
    assert plan.params["src"] == HOSTILE and HOSTILE not in plan.sql
    rows = rows_of(built_con, plan)
    assert rows == []
    with pytest.raises(OutOfScope):
        M.answer(rows, plan, cat)
    with pytest.raises(OutOfScope):
        M.plan({"system": HOSTILE}, cat)
    assert built_con.execute("SELECT count(*) FROM measurements").fetchone() == before


def test_out_of_scope(built_con):
    cat = catalog.load(built_con)
    with pytest.raises(OutOfScope, match="Which system"):
        M.plan({}, cat)
    # XMP-64 core-to-core latencies have no endpoints in the data: say so, and name systems that have pairs
    plan = M.plan({"system": "xmp64", "metric": "latency"}, cat)
    with pytest.raises(OutOfScope, match="DGX-2"):
        M.answer(rows_of(built_con, plan), plan, cat)
    with pytest.raises(OutOfScope, match="busbw"):
        M.plan({"system": "dgx2", "metric": "busbw"}, cat)
