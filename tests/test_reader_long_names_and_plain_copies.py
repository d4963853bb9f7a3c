"""Ways of asking that the reader once read wrong (session 57, from the thirty-second set's misses, each tested with
other words): names spelled out in full ("Intelligence Processing Unit", "message digest 5", "fast Fourier
transform"); a year before a paper's name, which is no size; a translation, a price and an export refused; "no load"
alone as the quiet case; sizes said as "the number of bytes"; one IPU's whole memory; "the DGX-1 with P100s or the
one with V100s"; a GPU's memory rate "on paper" as its spec; a copy between the host and a GPU in plain words; the kind
said with a count ("a whole IPU, all 1216 tiles"); "how slow does X get"; "every GPU combination" as the grid; one
cell "in the ... matrix"; links "per link type"; "when the whole system is busy"; a blank before "the slowest"; a
collective said as a verb ("all-gathering"); one size and no curve; "the two IPUs on one board"; "what percent of
<a link> does X reach"; the largest GEMM that fits; an efficiency "reached" over a range of counts; "4 T4 GPUs";
throughput per GPU over counts where only the efficiency is stored. Real model, real built database; numbers are
checked with separate SQL."""
import pytest

from nlu.spelled_out import short_forms
from conftest import stored_values as _values


def test_long_forms_become_short_ones():
    assert short_forms("how are the Intelligence Processing Units wired".split()) == \
        ["how", "are", "the", "IPUs", "wired"]
    assert short_forms(["spread", "over", "Non", "-", "Uniform", "Memory", "Access", "nodes"]) == \
        ["spread", "over", "NUMA", "nodes"]
    assert short_forms("md5 throughput".split()) == ["MD5Hash", "throughput"]
    assert short_forms("md5 hashing".split()) == ["md5", "hashing"]        # the benchmark's own words stay
    assert short_forms("the access time".split()) == ["the", "access", "time"]   # one common word alone: as said


def test_spelled_out_names_are_read(asker, built_con):
    res = asker.ask("how are the intelligence processing units of the graphcore box connected")
    assert res.intent == "topology" and res.slots.get("system") == "ipu16", (res.intent, res.slots)
    res = asker.ask("message digest 5 throughput on the Titan RTX")
    assert res.slots.get("operation") == "md5hash", res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ?",
                   ["titan_rtx", "md5hash", "throughput"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("Which systems ran the Scalable Heterogeneous Computing benchmarks?")
    assert res.intent == "list_data" and res.answer.startswith("SHOC ran on"), res.answer


def test_a_year_before_a_papers_name_is_no_size(asker):
    res = asker.ask("In the 2022 congestion paper, how much did LAMMPS suffer on the in-house cluster with CC off?")
    assert "msg_bytes" not in res.slots and res.intent == "congestion", (res.intent, res.slots)


@pytest.mark.parametrize("q", ["please translate the yme bandwidth summary into french",
                               "h2d bandwidth per dollar: titan rtx vs gtx 980",
                               "export the dgx2 latencies to an excel workbook"])
def test_services_no_measurement_gives(asker, q):
    assert asker.ask(q).intent == "out_of_scope", q


def test_no_load_alone_is_the_quiet_case(asker, built_con):
    res = asker.ask("ipu5 to ipu6 latency with zero load")
    assert res.intent == "metric_lookup" and res.slots.get("condition") == "congestion_free", (res.intent, res.slots)


def test_sizes_said_as_the_number_of_bytes(asker):
    res = asker.ask("How does the IPU's broadcast bandwidth change with the number of bytes sent?")
    assert res.intent == "size_sweep", (res.intent, res.slots)


def test_one_ipus_whole_memory(asker):
    res = asker.ask("how much memory does a single IPU have in total?")
    assert not res.slots.get("spec_total"), res.slots
    assert "304 MiB" in res.answer and "in all" not in res.answer, res.answer


def test_the_one_with_the_other_gpu_model(asker, built_con):
    res = asker.ask("Which has more GPU memory bandwidth on paper, the DGX-1 with V100s or the one with P100s?")
    assert res.intent == "compare_systems", (res.intent, res.slots)
    assert {res.slots.get("system"), *res.slots.get("compare_with", [])} == {"dgx1_v100", "dgx1_p100"}, res.slots
    assert res.slots.get("condition") == "spec", res.slots
    spec = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND condition = ?",
                   ["dgx1_v100", "bandwidth", "spec"])
    assert res.rows and max(r["value"] for r in res.rows) in spec, res.answer


@pytest.mark.parametrize("q, op", [("how quickly can the host copy data to a gpu on yme", "h2d"),
                                   ("how fast does a gpu on the dgx-2 send results back to the host", "d2h")])
def test_a_copy_with_the_host_in_plain_words(asker, q, op):
    res = asker.ask(q)
    assert res.intent == "metric_lookup" and res.slots.get("operation") == op, (q, res.intent, res.slots)
    assert res.slots.get("metric") == "bandwidth", res.slots


def test_the_kind_said_with_the_count(asker, built_con):
    res = asker.ask("What's the IPU host-to-device bandwidth when writing into a whole IPU, all 1216 tiles?")
    assert (res.slots.get("count"), res.slots.get("count_kind")) == (1216, "tiles"), res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                   "AND count = ? AND count_kind = ?", ["ipu16", "h2d", "bandwidth", 1216, "tiles"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_how_slow_something_gets(asker, built_con):
    res = asker.ask("how slow does lulesh get with sampling on the call-graph cluster")
    assert res.slots.get("metric") == "slowdown", res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND lower(app) = ? AND metric = ? "
                   "AND condition = ?", ["callgraph_cluster", "lulesh", "slowdown", "sampling"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_every_gpu_combination_is_the_grid(asker):
    res = asker.ask("Mini Summit, p2p latency for every GPU combination")
    assert res.intent == "pair_matrix", (res.intent, res.slots)


def test_one_cell_read_in_the_matrix(asker):
    res = asker.ask("DGX-2, GPU3 to GPU7, P2P-disabled bandwidth in the p2pBandwidthLatencyTest matrix?")
    assert res.intent == "metric_lookup" and (res.slots.get("src"), res.slots.get("dst")) == ("gpu3", "gpu7"), \
        (res.intent, res.slots)


def test_links_per_link_type(asker):
    res = asker.ask("yme links, grouped by link type")
    assert res.intent == "topology", (res.intent, res.slots)


def test_the_whole_system_busy_is_the_load(asker):
    res = asker.ask("how much worse is the ipu5 to ipu6 latency when the whole system is busy")
    assert res.intent == "congestion" and res.slots.get("condition") == "under_load", (res.intent, res.slots)


def test_a_blank_before_the_slowest(asker):
    res = asker.ask("_____ is the slowest GPU pair on the DGX-2 for P2P-enabled latency")
    assert res.slots.get("aggregate") == "max", res.slots     # the slowest latency is the highest


def test_a_collective_said_as_a_verb(asker, built_con):
    res = asker.ask("what busbw does the H200 pair reach all-gathering 64 MB in place")
    assert res.slots.get("operation") == "allgather" and res.slots.get("msg_bytes") == 64 * 2 ** 20, res.slots


def test_one_size_and_no_curve_is_one_value(asker):
    res = asker.ask("quick one, no rounding: h200 alltoall time for 1 KB messages, in place")
    assert res.intent == "metric_lookup", (res.intent, res.slots)


def test_the_devices_counted_not_the_board(asker, built_con):
    res = asker.ask("What fp32 GEMM flops do the two IPUs on a single C2 card reach together?")
    assert (res.slots.get("count"), res.slots.get("count_kind")) == (2, "ipus"), res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                   "AND precision = ? AND count = ?", ["ipu16", "gemm", "flops", "fp32", 2])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_a_share_of_a_link_not_stored_is_refused(asker):
    res = asker.ask("what percentage of its InfiniBand does Lassen reach across nodes")
    assert res.intent == "out_of_scope", (res.intent, res.answer)


def test_the_largest_gemm_that_fits(asker, built_con):
    res = asker.ask("biggest mixed-precision GEMM dimension that fits on a single IPU")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "count", (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                   "AND precision = ?", ["ipu16", "gemm", "count", "mixed"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_an_efficiency_reached_over_a_range(asker, built_con):
    res = asker.ask("What efficiency does the IPU broadcast reach going from 1 to 19456 tiles?")
    assert res.intent == "metric_lookup" and res.slots.get("count") == 19456, (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                   "AND count = ?", ["ipu16", "broadcast", "efficiency", 19456])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_a_number_of_t4s_is_no_size(asker):
    res = asker.ask("How does the XSBench offload speedup on Google Cloud change from 1 to 4 T4 GPUs?")
    assert res.intent == "scaling" and "msg_bytes" not in res.slots and not res.slots.get("compare_with"), \
        (res.intent, res.slots)


def test_throughput_per_gpu_over_counts_where_only_efficiency_is_stored(asker):
    res = asker.ask("does throughput per GPU hold up on Chifflot from 4 to 12 GPUs with Horovod?")
    assert res.intent == "scaling" and res.slots.get("metric") == "efficiency", (res.intent, res.slots)
    assert any("scaling efficiency" in n for n in res.notes), res.notes
