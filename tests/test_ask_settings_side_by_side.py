"""Both settings of one switch, two operations of one system, and peaks read as the spec sheets state them: real
model, real built database; expected numbers from separate SQL over the same database."""
import pytest


def test_peer_access_enabled_vs_disabled_gives_both_and_their_ratio(asker, built_con):
    res = asker.ask("h200 p2p bandwidth gpu0 to gpu1 with peer access enabled vs disabled")
    assert res.intent == "metric_lookup" and res.chart.get("conditions") == ["p2p_on", "p2p_off"]
    want = dict(built_con.execute(
        "SELECT condition, max(value) FROM measurements WHERE system_id = 'h200x2' AND operation = 'p2p' AND "
        "metric = 'bandwidth' AND src = 'gpu0' AND dst = 'gpu1' AND direction = 'uni' GROUP BY condition").fetchall())
    got = {r["condition"]: r["value"] for r in res.rows}
    assert got["p2p_on"] == pytest.approx(want["p2p_on"]) and got["p2p_off"] == pytest.approx(want["p2p_off"])
    assert f"{want['p2p_on'] / want['p2p_off']:,.3g}x the other" in res.answer


def test_settings_measured_on_different_problems_get_no_ratio(asker):
    res = asker.ask("cuDNN convolution time with tensor cores on vs off on the DGX-2")
    assert {r["condition"] for r in res.rows} >= {"tensor_cores_on", "tensor_cores_off"}
    assert "x the other" not in res.answer
    assert any("not like for like" in n for n in res.notes)


def test_two_operations_compared_on_one_system_are_each_looked_up(asker, built_con):
    res = asker.ask("compare alltoall and allgather bus bandwidth on the H200 node at 64MB")
    assert res.intent == "metric_lookup" and res.chart.get("operations") == ["alltoall", "allgather"]
    for op in ("alltoall", "allgather"):
        want = built_con.execute("SELECT max(value) FROM measurements WHERE system_id = 'h200x2' AND operation = ? "
                                 "AND metric = 'busbw' AND msg_bytes = 67108864 AND count = 2", [op]).fetchone()[0]
        assert max(r["value"] for r in res.rows if r["operation"] == op) == pytest.approx(want)


def test_a_measured_memory_read_bandwidth_is_shocs_not_the_spec_sheet(asker, built_con):
    res = asker.ask("global memory read bandwidth dgx2 shoc")
    assert res.rows[0]["operation"] == "gmem_readbw"
    want = built_con.execute("SELECT max(value) FROM measurements WHERE system_id = 'dgx2' AND operation = "
                             "'gmem_readbw' AND metric = 'bandwidth' AND count = ?", [res.rows[0]["count"]]).fetchone()[0]
    assert res.rows[0]["value"] == pytest.approx(want)


@pytest.mark.parametrize("q", ["what is the peak tensor tflops of the dgx-1 v100",
                               "peak tensor tflops of the dgx-1 v100"])
def test_peak_tensor_tflops_is_the_mixed_precision_spec(asker, built_con, q):
    res = asker.ask(q)
    assert res.intent == "metric_lookup" and res.slots.get("precision") == "mixed"
    want = built_con.execute("SELECT value FROM measurements WHERE system_id = 'dgx1_v100' AND metric = 'flops' "
                             "AND precision = 'mixed' AND condition = 'spec'").fetchone()[0]
    assert res.rows[0]["value"] == pytest.approx(want)
