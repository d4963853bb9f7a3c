"""Slots read in the form the data stores them, and planners that refuse a quantity they cannot hold: PCIe as
the system's one generation, the transfer a congestion question means, MaxFlops for "the max single precision
flops", a metric under the name its tool stored, a count whose kind word the tagger read alone, a typo that
drops a letter, a trace asked for a temperature, a connection graph asked for a latency, a std that is no value.
Real vocabulary, real built database, real trained model."""
import pytest

from app import catalog
from app.intents import _narrow
from nlu.implied import infer_implicit


@pytest.fixture(scope="module")
def cat(built_db):
    import duckdb
    con = duckdb.connect(str(built_db), read_only=True)
    yield catalog.load(con)
    con.close()


def implied(cat, intent: str, **slots) -> dict:
    """The slots after the reader adds what the data implies (nlu.implied.infer_implicit)."""
    infer_implicit(intent, slots, cat)
    return slots


def test_pcie_on_a_one_generation_system_is_that_generation(cat):
    slots = implied(cat, "link_efficiency", system="gtx980", link_type="PCIe", metric="efficiency", operation="d2h")
    assert slots["link_type"] == "PCIe3"
    # a family name with no PCIe on the system stays as said (the planner reports what is there)
    other = implied(cat, "topology", system="xmp64", link_type="PCIe")
    assert other["link_type"] == "PCIe"
    # NVLink is a canonical family name itself (nlu/SLOTS.md) and is left alone
    nv = implied(cat, "link_efficiency", system="dgx2", link_type="NVLink", metric="efficiency")
    assert nv["link_type"] == "NVLink"


def test_a_link_read_beside_the_same_mode_is_dropped(cat):
    slots = implied(cat, "metric_lookup", system="ac922_yme", condition="nvlink", link_type="NVLink",
                    metric="bandwidth", operation="p2p")
    assert slots["condition"] == "nvlink" and "link_type" not in slots
    # a different mode keeps both: the words asked for two things
    mixed = implied(cat, "metric_lookup", system="ac922_yme", condition="pcie", link_type="NVLink",
                    metric="bandwidth")
    assert mixed["link_type"] == "NVLink"


def test_a_congestion_question_means_the_one_transfer_measured_under_load(cat):
    slots = implied(cat, "congestion", system="ipu16", metric="latency")
    assert slots["operation"] == "p2p"
    # only for congestion questions, and never over an operation the user named
    lookup = implied(cat, "metric_lookup", system="ipu16", metric="latency")
    assert "operation" not in lookup
    named = implied(cat, "congestion", system="ipu16", metric="bandwidth", operation="broadcast")
    assert named["operation"] == "broadcast"


def test_the_max_flops_at_one_precision_is_shocs_maxflops(cat):
    slots = implied(cat, "metric_lookup", system="ac922_yme", metric="flops", precision="fp32", aggregate="max")
    assert slots["operation"] == "maxspflops" and "aggregate" not in slots
    both = implied(cat, "compare_systems", system="dgx2", compare_with=["titan_rtx"], precision="fp64",
                   aggregate="max")
    assert both["operation"] == "maxdpflops" and both["metric"] == "flops"
    # a system without MaxFlops runs keeps the plain "highest"
    ipu = implied(cat, "metric_lookup", system="ipu16", metric="flops", precision="fp32", aggregate="max")
    assert ipu.get("aggregate") == "max" and ipu.get("operation") != "maxspflops"


def test_a_metric_takes_the_name_its_tool_stored(cat):
    ops = {o for (s, m, o, c) in cat.combos if s == "ipu16" and m == "flops" and o}
    op = sorted(o for o in ops if "throughput" not in cat.op_metrics("ipu16", o))[0]
    slots = implied(cat, "metric_lookup", system="ipu16", metric="throughput", operation=op)
    assert slots["metric"] == "flops"
    # a stored metric is never renamed
    kept = implied(cat, "metric_lookup", system="ipu16", metric="throughput", operation="prng")
    assert kept["metric"] == "throughput"


def test_a_count_takes_a_kind_word_the_tagger_read_alone(asker):
    res = asker.ask("minisumit triad bw gpu1 single gpu")
    assert res.slots.get("count") == 1 and res.slots.get("count_kind") == "gpus"
    # a number the tagger read as something else is not re-read as a count ("top 10 gpu kernels")
    top = asker.ask("top 10 gpu kernels rank1 h200")
    assert top.slots.get("count") is None


def test_a_dropped_letter_is_repaired_where_a_changed_one_ties(asker):
    sp = asker.nlu.speller
    assert sp.correct("enabld") == "enabled"      # "enable" is one changed letter away too
    assert sp.correct("undr") == "under"          # four letters: a dropped inner letter
    assert sp.correct("laod") == "load"


def test_a_trace_holds_no_temperature(asker):
    res = asker.ask("what temperature did the h two hundred g p us reach during the training trace")
    assert res.intent == "out_of_scope" and not res.rows
    assert "temperature" in res.answer
    time_q = asker.ask("Where does the time go in the H200 PyTorch trace?")
    assert time_q.intent == "trace_breakdown" and time_q.rows
    assert "metric" not in time_q.slots            # a breakdown is of time; the slot narrows nothing


def test_a_latency_is_measured_not_drawn(asker):
    res = asker.ask("xmp64 latency 2 off-chip hops")
    assert res.intent != "topology"
    graph = asker.ask("how are the xmp64 cores connected")
    assert graph.intent == "topology"


def test_a_std_is_no_value_of_its_metric(asker):
    res = asker.ask("lammps slowdown factor azure cc off")
    assert res.rows and all(r.get("statistic") != "std" for r in res.rows)
    assert res.rows[0]["unit"] == "x"


def test_spreads_are_kept_only_when_nothing_else_matches():
    rows = [{"statistic": "std", "value": 0.5}, {"statistic": "mean", "value": 4.6}, {"statistic": None, "value": 2}]
    assert [r["value"] for r in _narrow.values_not_spreads(rows)] == [4.6, 2]
    only = [{"statistic": "std", "value": 0.5}]
    assert _narrow.values_not_spreads(only) == only


def test_a_link_word_the_graph_lacks_names_a_congestion_case(asker):
    res = asker.ask("How bad does on-chip IPU latency get under load?")
    assert res.intent == "congestion" and res.rows
    assert "on-chip" in res.answer and "link_type" not in res.slots
    # outside congestion questions a missing link is still refused plainly
    other = asker.ask("infiniband bandwidth on the h200 node")
    assert other.intent == "out_of_scope" and "InfiniBand" in other.answer


def test_a_growing_count_is_the_axis_of_a_scaling_curve(asker):
    res = asker.ask("IPU point-to-point bandwidth under load with more threads per tile")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "threads"
    assert len({r["count"] for r in res.rows}) > 1


def test_a_p2p_sweep_without_copy_sizes_is_nccls_send_receive(asker, built_con):
    res = asker.ask("h200 p2p bw over message size")
    assert res.intent == "size_sweep" and "sendrecv" in res.answer
    assert {r["operation"] for r in res.rows} == {"sendrecv"} and len({r["msg_bytes"] for r in res.rows}) > 10
    assert res.slots["operation"] == "p2p"                 # what was asked stays; the answer says what is shown
    # a system with a copy-size sweep answers with it
    dgx2 = asker.ask("dgx2 p2p bw over message size")
    assert {r["operation"] for r in dgx2.rows} == {"p2p"}


def test_a_typo_between_two_words_is_the_one_its_neighbour_makes_a_phrase_with(asker):
    sp = asker.nlu.speller
    assert sp.correct("plase", "of", "") == "place"          # "out of plase"
    assert sp.correct("plase", "", "") != "place"            # no neighbour: not read as "place"
    res = asker.ask("sendrecv busbw over msg sizes h200, out of plase")
    assert res.slots.get("condition") == "out_of_place"


def test_a_spelled_device_tagged_as_a_system_keeps_its_number(asker):
    res = asker.ask("what connects i p u five to i p u six")
    assert res.intent == "topology" and (res.slots.get("src"), res.slots.get("dst")) == ("ipu5", "ipu6")


def test_both_gpus_of_a_named_pair_are_a_count_of_two(asker):
    res = asker.ask("how long does an eight byte all reduce take across both h two hundred g p us out of place")
    assert (res.slots.get("count"), res.slots.get("count_kind")) == (2, "gpus")
    # "between the two H200 GPUs" names the two ends of a transfer, not a count
    pair = asker.ask("Could you tell me the time for a 1 MB in-place sendrecv between the two H200 GPUs?")
    assert "count" not in pair.slots


def test_an_nccl_tests_binary_names_its_collective(asker):
    res = asker.ask("all_reduce_perf on just one of the H200s: out-of-place time at 1 GB?")
    assert res.slots.get("operation") == "allreduce"
    assert (res.slots.get("count"), res.slots.get("count_kind")) == (1, "gpus")
    assert asker.ask("reduce_scatter_perf busbw h200 1GB").slots.get("operation") == "reduce_scatter"


def test_typed_binary_names_leave_the_training_data_alone():
    from nlu.vocab import default_vocabulary
    v = default_vocabulary()
    assert "all_reduce_perf" not in v.surfaces("operation", "allreduce")      # what the generator draws from
    assert "all_reduce_perf" in v.surfaces("operation", "allreduce", kind="typed")


def test_a_sure_comparison_within_one_system_is_looked_up(asker):
    # one system and a library compared with another ("vs zmcintegral"): the model had no second reading, and
    # size_sweep, the leftover, found nothing; the lookup answers with the stored speedup
    res = asker.ask("m-cubes speedup integrand fA vs zmcintegral")
    assert res.intent == "metric_lookup" and res.slots.get("system") == "mcubes_node"
    assert res.rows and res.rows[0]["unit"] == "x"
    # a runner-up the model did hold is kept: a count compared with a count is scaling
    assert asker.ask("lenet5 training time chifflot 2 vs 12 gpus").intent == "scaling"


def test_no_grid_of_pairs_without_a_word_for_one(asker):
    res = asker.ask("Slowdown factors for all three apps on the in-house cluster and on Azure with congestion "
                    "control enabled, please.")
    assert res.intent != "pair_matrix" and res.slots.get("operation") != "p2p"
    grid = asker.ask("plot the sixteen by sixteen envy link latency grid for heid")
    assert grid.intent == "pair_matrix"


def test_which_system_names_the_few_that_fit(asker, built_con):
    res = asker.ask("um GPU0 GPU2 path does it go through the X-Bus?")
    assert res.intent == "out_of_scope" and res.answer.startswith("Which system?")
    fit = {r[0] for r in built_con.execute(
        "SELECT DISTINCT l.system_id FROM links l WHERE lower(l.link_type) LIKE 'x-bus%' AND l.system_id IN "
        "(SELECT system_id FROM components WHERE component_id = 'gpu2')").fetchall()}
    assert len(fit) >= 2
    for sid in fit:
        name = built_con.execute("SELECT name FROM systems WHERE system_id = ?", [sid]).fetchone()[0]
        assert name in res.answer


def test_a_refusal_without_a_metric_still_reads(asker):
    res = asker.ask("Mini Summit, 4 and 8 GEMM with tensor cores.")
    assert res.intent == "out_of_scope"
    assert "  " not in res.answer and " of  " not in res.answer


def test_a_range_is_no_value_of_its_metric(asker):
    # seed 004 §3.3.2: per-node barrier times "varied by a range of around 150ns": a spread, not a barrier time
    res = asker.ask("xmp64 barrier time")
    assert res.intent == "metric_lookup" and res.rows
    assert all(r.get("statistic") not in ("std", "range") for r in res.rows)
    assert res.rows[0]["value"] != pytest.approx(0.15)
    assert [r["value"] for r in _narrow.values_not_spreads([{"statistic": "range", "value": 0.15},
                                                           {"statistic": "mean", "value": 0.99}])] == [0.99]


def test_double_said_of_a_link_is_no_precision(asker):
    u = asker.nlu.understand("DGX-1 V100: percent of nominal for the double-NVLink pairs versus the single-NVLink pairs")
    assert "precision" not in u.slots and u.slots.get("link_type") == "NVLink"
    assert asker.nlu.understand("double precision nvlink bandwidth on the dgx1 v100").slots.get("precision") == "fp64"
    assert asker.nlu.understand("maxflops double on the dgx2").slots.get("precision") == "fp64"


def test_the_size_a_sweep_runs_over_is_no_metric(asker):
    # commas (a transcript's pauses) cost the tagger "bandwidth"; the vocabulary then read "message size" first
    u = asker.nlu.understand("at what message size, does reduce-scatter bus bandwidth, saturate on the H200 node")
    assert u.intent == "size_sweep" and u.slots.get("metric") == "busbw"
    plain = asker.nlu.understand("message size sweep of allreduce on the h200")
    assert plain.intent == "size_sweep" and "metric" not in plain.slots
    res = asker.ask("at what message size, does reduce-scatter bus bandwidth, saturate on the H200 node")
    assert res.intent == "size_sweep" and res.rows and res.rows[0]["unit"] == "GB/s"


def test_bytes_asked_for_are_no_connection_graph(asker):
    # seed 004 §4.2: "the buffering between nodes (16 Bytes)"; the model read the question as topology
    res = asker.ask("how many bytes of buffering are there between nodes on the x m p sixty four")
    assert res.intent == "metric_lookup" and (res.rows[0]["value"], res.rows[0]["unit"]) == (16.0, "bytes")
    assert asker.ask("how many links connect the xmp64 cores").intent == "topology"


def test_a_metric_word_inside_a_condition_name_is_not_the_metric(asker):
    """"unified memory latency": the tagger marks "memory" as a metric too; it is a word of the condition, and
    latency is what is asked (a metric outside a condition's name still counts: "unified memory bandwidth")."""
    res = asker.ask("yme unified memory latency d2h gpu3")
    assert res.slots["metric"] == "latency" and res.slots["condition"] == "unified_memory"
    assert res.intent == "metric_lookup" and res.rows and "latency" in res.answer
    res = asker.ask("yme versus mini summit unified memory latency host to device")
    assert res.intent == "compare_systems" and res.slots["metric"] == "latency"
    assert asker.ask("unified memory bandwidth on yme").slots["metric"] == "bandwidth"
