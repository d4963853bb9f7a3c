"""Ways of asking that the reader once read wrong (session 58, from the thirty-fifth set's misses, each tested with
other words): one point of a chart the asker describes ("what value sits at that point") looked up; the extreme "at
any transfer size" one value; two machines named for one measure set side by side (a factor one states over the
other still looked up; a document's name holding a machine's name no second machine); "two bars" no count; a
machine's "components" or network its graph; "percentage of the link rate" a link's share; both congestion-control
settings the congestion experiment, quiet and loaded across tile counts too; a rank's number in a trace no size;
"a few hundred GPUs" no count; "measured" no condition where none is keyed so; a GPU count said across the machine's
name; "its GPUs" none counted; "across both NUMA nodes" cross-NUMA; "temps" the temperature; "an A100 pair" a machine
the data lacks (not the H200 pair), "the Hopper pair" the H200s; next-generation hardware and deleting rows refused.
Real model, real built database; numbers are checked with separate SQL."""
import pytest

from conftest import stored_values as _values


def test_one_point_of_a_described_chart(asker, built_con):
    res = asker.ask("My plot of Yme's pageable host-to-device bandwidth flattens near 64 MiB. What number sits at "
                    "that point?")
    assert res.intent == "metric_lookup" and res.slots.get("msg_bytes") == 64 * 2 ** 20, (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND condition = ? "
                   "AND msg_bytes = ? AND metric = ?", ["ac922_yme", "h2d", "pageable", 64 * 2 ** 20, "bandwidth"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_the_extreme_at_any_size(asker, built_con):
    res = asker.ask("Lowest pageable D2H bandwidth Mini Summit shows at any message size?")
    assert res.intent == "metric_lookup" and res.slots.get("aggregate") == "min", (res.intent, res.slots)
    low = min(_values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND "
                      "condition = ? AND metric = ?", ["ac922_minisummit", "d2h", "pageable", "bandwidth"]))
    assert res.rows and res.rows[0]["value"] == pytest.approx(low, rel=0.05), res.answer


def test_two_machines_for_one_measure_side_by_side(asker):
    res = asker.ask("My slide has Titan RTX and GTX 980 pinned D2H at 1 GiB as two bars; what are the two values?")
    assert res.intent == "compare_systems" and "count" not in res.slots, (res.intent, res.slots)
    # a factor one machine states over the other stays a lookup
    assert asker.ask("what prng speedup does the ipu system have over the v100 reference gpu").intent \
        == "metric_lookup"
    # a machine's name inside a document's name is no second machine
    res = asker.ask("Listing 31 of the DGX-2/AC922 report has Mini Summit's NVLink-mode copies: what unidirectional "
                    "bandwidth from GPU 1 to GPU 0?")
    assert res.intent == "metric_lookup", (res.intent, res.slots)


@pytest.mark.parametrize("q, system", [("longhorn node components", "longhorn"),
                                       ("the in-house cluster's infiniband network, what do you have?",
                                        "nvidia_inhouse")])
def test_parts_and_networks_are_the_graph(asker, q, system):
    res = asker.ask(q)
    assert res.intent == "topology" and res.slots.get("system") == system, (res.intent, res.slots)


def test_a_share_of_the_link_rate(asker):
    res = asker.ask("what fraction of the link rate do gpu to gpu copies on the dgx one p one hundred reach")
    assert res.intent == "link_efficiency", (res.intent, res.slots)


def test_both_congestion_control_settings(asker):
    res = asker.ask("a bar chart puts LAMMPS on the in-house cluster with CC on beside CC off; what impacts are "
                    "stored?")
    assert res.intent == "congestion", (res.intent, res.slots)
    res = asker.ask("ipu p2p latency idle and loaded, over tile counts")
    assert res.intent == "congestion", (res.intent, res.slots)
    # loaded alone over counts stays the curve
    assert asker.ask("ipu p2p latency under load vs tile count").intent == "scaling"


def test_a_ranks_number_in_a_trace_is_no_size(asker):
    res = asker.ask("In the H200 trace rank 0's bar looks mostly idle; what is the real split?")
    assert res.intent == "trace_breakdown" and "msg_bytes" not in res.slots, (res.intent, res.slots)


def test_vague_counts_and_the_measured_line(asker):
    res = asker.ask("The Hy-Fi plot for Lassen: the measured curve drops below ideal past several hundred GPUs. Show "
                    "that curve.")
    assert res.intent == "scaling" and "count" not in res.slots and "condition" not in res.slots, \
        (res.intent, res.slots)


def test_a_count_across_the_machines_name(asker, built_con):
    res = asker.ask("deepbench single process all reduce of 258000000 bytes on four dgx2 gpus, how long?")
    assert res.slots.get("count") == 4 and res.slots.get("count_kind") == "gpus", res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND app = ? AND msg_bytes = ? "
                   "AND count = ? AND metric = ?", ["dgx2", "nccl_single_all_reduce", 258000000, 4, "time"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_its_gpus_across_both_numa_nodes(asker, built_con):
    res = asker.ask("what fp32 stencil2d rate did the dgx2 get with its gpus spread across both numa nodes?")
    assert res.intent == "metric_lookup" and res.slots.get("condition") == "cross_numa", (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND app = ? AND condition = ? "
                   "AND precision = ?", ["dgx2", "Stencil2D", "cross_numa", "fp32"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_temps(asker):
    res = asker.ask("nvidia-smi temps titan rtx vs gtx 980")
    assert res.intent == "compare_systems" and res.slots.get("metric") == "temperature", (res.intent, res.slots)


def test_a_pair_of_another_model(asker):
    res = asker.ask("What broadcast busbw would an H100 pair reach?")
    assert res.intent == "out_of_scope" and "H100" in res.answer, (res.intent, res.slots, res.answer)
    res = asker.ask("broadcast busbw on the Hopper pair at 1 GiB")
    assert res.slots.get("system") == "h200x2", res.slots


@pytest.mark.parametrize("q", ["What all-gather busbw would the next AMD generation get?",
                               "please remove the yme measurements from the database"])
def test_refused(asker, q):
    assert asker.ask(q).intent == "out_of_scope", q
