"""What the reader adds to or drops from a question's slots once it knows what the data stores: MaxFlops' unsaid
precision, the systems a "which systems" question asks for, a route asked "over PCIe or NVLink", a breakdown's
ranking, the fabric in a cluster's name, a congestor that is no measured operation, things counted per second, a
terse question opening with the extreme it wants. Real trained model and built database; expected values read
with separate SQL."""
import pytest


def test_maxflops_without_a_precision_is_single_precision_and_says_so(asker, built_con):
    res = asker.ask("SHOC MaxFlops on the DGX-2 with 1, 2, 4, 8 and 16 GPUs")
    assert res.intent == "scaling"
    assert res.slots.get("operation") == "maxspflops" and res.slots.get("metric") == "flops"
    assert "app" not in res.slots
    assert any("no precision given" in n and "maxdpflops" in n for n in res.notes)
    sp = {r[0] for r in built_con.execute("SELECT DISTINCT value FROM measurements WHERE system_id = 'dgx2' "
                                          "AND operation = 'maxspflops'").fetchall()}
    assert res.rows and {r["value"] for r in res.rows} <= sp
    # a precision said is kept
    s = asker.nlu.understand("maxflops double precision titan rtx").slots
    assert s.get("operation") == "maxdpflops"


def test_which_systems_is_answered_with_systems_even_when_one_has_it(asker):
    res = asker.ask("Which systems have PyTorch traces?")
    assert res.intent == "list_data" and "system" not in res.slots
    assert "1 system" in res.answer
    # a system named stays
    s = asker.nlu.understand("what pytorch traces are there for the h200 node").slots
    assert s.get("system") == "h200x2"


def test_a_route_asked_over_one_link_or_another_is_not_narrowed(asker):
    res = asker.ask("does traffic from g p u zero to g p u seven on the d g x one v one hundred go over p c i e or "
                    "envy link")
    assert res.intent == "topology"
    assert "link_type" not in res.slots and "condition" not in res.slots
    assert res.slots.get("src") == "gpu0" and res.slots.get("dst") == "gpu7"
    assert "NVLink" in res.answer


def test_a_lone_device_in_a_topology_question_is_where_links_start(asker):
    s = asker.nlu.understand("Which GPUs in the DGX-1 P100 have no direct NVLink to GPU0?").slots
    assert s.get("src") == "gpu0" and "dst" not in s


def test_a_breakdown_carries_no_aggregate(asker):
    res = asker.ask("Which GEMM kernels (the nvjet ones) take the most time in the H200 trace?")
    assert res.intent == "trace_breakdown" and "aggregate" not in res.slots
    assert "nvjet" in res.answer


def test_cross_board_is_no_misspelt_xmos_board(asker):
    assert asker.nlu.norm.value("system", "cross board") is None
    assert asker.nlu.norm.value("system", "xmos board") == "xmp64"
    res = asker.ask("congestion degradation ipu same board vs cross board")
    assert res.slots.get("system") == "ipu16" and "compare_with" not in res.slots


def test_a_fabric_inside_a_cluster_name_is_no_link_filter(asker):
    s = asker.nlu.understand("Does congestion control actually help Incompact3D on the in-house InfiniBand "
                             "cluster?").slots
    assert s.get("system") == "nvidia_inhouse" and "link_type" not in s
    # said on its own it still is one
    s = asker.nlu.understand("infiniband bandwidth on the in-house cluster").slots
    assert s.get("link_type") == "InfiniBand"


def test_a_congestor_pattern_does_not_pick_a_metric_measured_without_congestion(asker, built_con):
    res = asker.ask("On the NVIDIA bare-metal IB cluster, how much is LAMMPS slowed by an all-to-all congestor "
                    "when congestion control is enabled?")
    assert res.intent == "congestion" and res.slots.get("metric") != "share"
    assert "share" in {r[0] for r in built_con.execute(
        "SELECT DISTINCT metric FROM measurements WHERE system_id = 'nvidia_inhouse' AND operation = 'alltoall'"
    ).fetchall()}
    assert "alltoall" in res.answer and "with congestion control" in res.answer


def test_things_counted_per_second_are_a_throughput(asker, built_con):
    res = asker.ask("How many random numbers per second can the IPU's PRNG produce?")
    assert res.slots.get("metric") == "throughput"
    want = built_con.execute("SELECT value FROM measurements WHERE system_id = 'ipu16' AND operation = 'prng' "
                             "AND metric = 'throughput'").fetchall()
    assert len(want) == 1 and res.rows[0]["value"] == want[0][0]
    # bytes per second are a bandwidth, not a throughput
    assert asker.nlu.understand("how many gigabytes per second does the ipu prng make").slots.get("metric") \
        != "throughput"


@pytest.mark.parametrize("q, agg", [("best h2d bw titan rtx", "max"), ("fastest p2p latency dgx2", "min")])
def test_a_terse_question_opening_with_an_extreme(asker, q, agg):
    s = asker.nlu.understand(q).slots
    assert s.get("aggregate") == agg
