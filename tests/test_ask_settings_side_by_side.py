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
                             "'gmem_readbw' AND metric = 'bandwidth' AND count = ?",
                             [res.rows[0]["count"]]).fetchone()[0]
    assert res.rows[0]["value"] == pytest.approx(want)


@pytest.mark.parametrize("q", ["what is the peak tensor tflops of the dgx-1 v100",
                               "peak tensor tflops of the dgx-1 v100"])
def test_peak_tensor_tflops_is_the_mixed_precision_spec(asker, built_con, q):
    res = asker.ask(q)
    assert res.intent == "metric_lookup" and res.slots.get("precision") == "mixed"
    want = built_con.execute("SELECT value FROM measurements WHERE system_id = 'dgx1_v100' AND metric = 'flops' "
                             "AND precision = 'mixed' AND condition = 'spec'").fetchone()[0]
    assert res.rows[0]["value"] == pytest.approx(want)


def test_pinned_vs_pageable_sweeps_both_and_pinned_reads_the_stored_pinned_wc(asker):
    res = asker.ask("dgx-2 host to device bandwidth, pinned vs pageable memory")
    assert res.intent == "size_sweep"
    assert {"pageable", "pinned_wc"} <= {r["series"] for r in res.rows}
    assert not res.answer.startswith("Nothing matches")
    one = asker.ask("dgx2 pinned h2d bandwidth gpu0")
    assert one.rows[0]["condition"] == "pinned_wc" and one.slots["condition"] == "pinned"   # the user's word kept


def test_in_place_vs_out_of_place_is_two_lookups_not_congestion(asker, built_con):
    res = asker.ask("h200 allreduce busbw in place vs out of place at 1GB")
    assert res.intent == "metric_lookup" and res.chart.get("conditions") == ["in_place", "out_of_place"]
    want = dict(built_con.execute("SELECT condition, value FROM measurements WHERE system_id = 'h200x2' AND "
                                  "operation = 'allreduce' AND metric = 'busbw' AND msg_bytes = 1073741824 AND "
                                  "count = 2").fetchall())
    assert {r["condition"]: r["value"] for r in res.rows} == pytest.approx(want)
    assert "% higher than the other" in res.answer      # 0.4% apart: no "1x"


def test_the_slowest_pair_is_ranked_over_every_pair_measured(asker, built_con):
    """Scope measured 11 DGX-2 pairs up to 8 GiB, Tartan all 240 up to 256 MiB: the largest size alone had
    ranked Scope's 11."""
    res = asker.ask("which GPU pair on the DGX-2 has the lowest peer-to-peer bandwidth?")
    want = built_con.execute(
        "SELECT m.src, m.dst, m.value FROM measurements m JOIN runs r USING (run_id) WHERE m.system_id = 'dgx2' "
        "AND m.operation = 'p2p' AND m.metric = 'bandwidth' AND r.tool = 'Tartan' AND m.condition = 'p2p_on' "
        "AND m.direction = 'uni' AND m.src <> m.dst AND m.msg_bytes = (SELECT max(msg_bytes) FROM measurements "
        "m2 JOIN runs r2 USING (run_id) WHERE m2.system_id = 'dgx2' AND m2.operation = 'p2p' AND r2.tool = "
        "'Tartan') ORDER BY m.value").fetchall()
    top = res.rows[0]
    assert top["value"] == pytest.approx(want[0][2])            # ties (144.23 twice) in either order
    assert (top["src"], top["dst"]) in {(a, b) for a, b, v in want if v == want[0][2]}


def test_an_ambiguous_gpu_name_is_the_system_that_stores_what_is_asked(asker):
    res = asker.ask("GEMM TFLOPS on the Graphcore IPU versus the V100")
    assert res.intent == "compare_systems"
    assert "nvidia_v100_ref" in {r["system_id"] for r in res.rows}


def test_a_multi_link_connection_is_counted_in_links(asker):
    res = asker.ask("show me how the two H200s are wired together")
    assert "1 NVLink connection of 18 links in all" in res.answer and "1 link between" in res.answer


def test_a_bidirectional_copy_is_set_against_the_nominal_of_both_directions(asker):
    res = asker.ask("nvlink efficiency on dgx2 - measured vs nominal")
    assert res.intent == "link_efficiency" and "condition" not in res.slots
    top = res.rows[0]
    assert top.get("direction") == "bi"           # the lead is a bidirectional test (Scope's duplex copy)
    assert f"of the {2 * top['nominal']:g} GB/s nominal in both directions" in res.answer


def test_a_ranking_of_systems_by_a_setting_stored_under_a_longer_name(asker, built_con):
    res = asker.ask("rank all the gpu systems by pinned host to device bandwidth")
    assert res.intent == "compare_systems" and len(res.rows) > 2
    assert {r.get("condition") for r in res.rows} == {"pinned_wc"}
    assert [r["value"] for r in res.rows] == sorted((r["value"] for r in res.rows), reverse=True)


def test_how_one_gpu_reaches_another_is_the_path(asker):
    res = asker.ask("how does g p u three reach g p u twelve on the d g x two")
    assert res.intent == "topology" and res.slots["src"] == "gpu3" and res.slots["dst"] == "gpu12"
    assert "hops (GPU3 -> " in res.answer


def test_a_nearest_size_is_found_among_the_asked_gpu_counts(asker, built_con):
    """DeepBench's 16-GPU all-reduce runs stop at 64 MiB + 4 B; 64 MiB itself was measured on up to 6 GPUs."""
    res = asker.ask("dgx2 allreduce time on sixteen g p us at sixty four megabytes")
    assert res.slots["count"] == 16 and res.rows[0]["count"] == 16
    near = built_con.execute("SELECT msg_bytes FROM measurements WHERE system_id = 'dgx2' AND operation = "
                             "'allreduce' AND count = 16 ORDER BY abs(ln(msg_bytes / 67108864)) LIMIT 1").fetchone()[0]
    assert res.rows[0]["msg_bytes"] == near and f"{near:,} bytes" in res.answer


def test_a_latency_timed_on_the_gpu_and_on_the_cpu_is_the_gpus(asker, built_con):
    """p2pBandwidthLatencyTest prints each latency matrix twice: timed on the GPU and on the CPU."""
    res = asker.ask("what's the latency from g p u zero to g p u one on the h two hundred box with peer access off")
    want = built_con.execute("SELECT value FROM measurements WHERE system_id = 'h200x2' AND metric = 'latency' AND "
                             "src = 'gpu0' AND dst = 'gpu1' AND condition = 'p2p_off' AND params->>'timer' = 'gpu'"
                             ).fetchone()[0]
    assert res.rows[0]["value"] == pytest.approx(want)
    assert all("_timer" not in r for r in res.rows)


def test_which_systems_have_congestion_measurements_lists_those(asker, built_con):
    res = asker.ask("which systems have congestion measurements")
    assert res.intent == "list_data"
    want = {r[0] for r in built_con.execute(
        "SELECT DISTINCT system_id FROM measurements WHERE metric = 'congestion_impact' OR condition IN "
        "('under_load', 'congestion_free', 'cc_on', 'cc_off')").fetchall()}
    assert {r["system_id"] for r in res.rows} == want
    assert res.answer.startswith("Measurements of congestion experiments exist for ")
