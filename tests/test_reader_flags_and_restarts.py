"""Ways of asking that the reader once read wrong (session 56, from the thirtieth set's misses, each tested with other
words): nccl-tests' and OSU's flags said as the tools take them ("-g 1 vs -g 2", "-b 8 -e 1G", "-c 1", "-m 8K:1M");
a range with an en dash; a question asked again after "no sorry"; a delivery or a use no benchmark measured ("email
me", "for gaming"); every GPU-to-GPU link and "which GPU pairs have the highest" as the grid; "tools + versions"; the
XMP-64 barrier with "clocks not synchronised"; "in place time"; an IPU's local-memory write on paper; "reading global
memory"; "xlink count"; "what unit is that in"; two machines' links "which is faster"; "the link loaded by other
traffic"; "the DGX-1 with Tesla P100"; a host-memory kind and a GPU joined by an arrow ("wc->gpu1"). Real model, real
built database; numbers are checked with separate SQL."""
import pytest

from nlu.written_forms import tool_flags


def _value(con, sql, params):
    rows = con.execute(sql, params).fetchall()
    assert rows, (sql, params)
    return rows[0][0]


def test_nccl_tests_flags_read_as_words():
    assert tool_flags("reduce_scatter_perf -b 1 K -e 64 M -g 2 -n 50".split()) == \
        ["reduce_scatter_perf", "from", "1", "KB", "to", "64", "MB", "2", "GPUs"]
    assert tool_flags("-g 1 vs -g 2".split()) == ["1", "GPUs", "vs", "2", "GPUs"]
    assert tool_flags("the -g flag".split()) == ["the", "-g", "flag"]     # no number after it: a word
    # one size: -b and -e equal; a size the question names itself: the flags' range is only the run's
    assert tool_flags("-b 4 M -e 4 M busbw".split()) == ["at", "4", "MB", "busbw"]
    assert tool_flags("-b 8 -e 1 G -g 2 : time at 64 KB ?".split()) == ["2", "GPUs", ":", "time", "at", "64", "KB", "?"]
    # the OSU micro-benchmarks' sizes (-m MIN:MAX, as the tokenizer splits "8K:1M") and settings (-i, -x)
    assert tool_flags("osu_bw -m 8 K:1 M -i 100 -x 10".split()) == ["osu_bw", "from", "8", "KB", "to", "1", "MB"]
    assert tool_flags("osu_latency -m 1:4096".split()) == ["osu_latency", "from", "1", "bytes", "to", "4096", "bytes"]


def test_osu_flags_beside_a_size_of_the_questions_own(asker, built_con):
    res = asker.ask("osu_alltoall -m 1:16M -i 500 on longhorn: compressed latency reduction at 16 MB?")
    assert res.intent == "metric_lookup" and res.slots.get("msg_bytes") == 16 * 2 ** 20, (res.intent, res.slots)
    assert res.slots.get("metric") == "latency_reduction", res.slots


def test_a_point_asked_of_a_run_given_by_its_flags(asker, built_con):
    res = asker.ask("all_gather_perf -b 8 -e 4G -g 2 on the H200 node: which out-of-place algbw did the 64M point hit?")
    assert res.intent == "metric_lookup" and res.slots.get("msg_bytes") == 64 * 2 ** 20, (res.intent, res.slots)
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                  "AND msg_bytes = ? AND condition = ? AND count = ?",
                  ["h200x2", "allgather", "algbw", 64 * 2 ** 20, "out_of_place", 2])
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_a_gpu_count_given_as_a_flag(asker, built_con):
    res = asker.ask("reduce_scatter_perf -g 2 -w 5 on the H200 pair: in-place time at 1 MB?")
    assert (res.slots.get("count"), res.slots.get("metric")) == (2, "time"), res.slots
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                  "AND msg_bytes = ? AND condition = ? AND count = ?",
                  ["h200x2", "reduce_scatter", "time", 1048576, "in_place", 2])
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_flags_that_set_a_range_of_sizes(asker):
    res = asker.ask("alltoall_perf -b 64 -e 16M -g 2 algbw on the h200 node")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [64, 16 * 2 ** 20], (res.intent, res.slots)


def test_flags_that_set_two_gpu_counts(asker):
    res = asker.ask("all_reduce_perf -g 1 vs -g 2 on the H200 node: does the out-of-place busbw scale?")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)


def test_a_range_of_counts_with_an_en_dash(asker):
    res = asker.ask("Lassen DeepSpeed all-to-all sizes across 16\u201364 GPUs")
    assert res.intent == "scaling" and not res.slots.get("count"), (res.intent, res.slots)


def test_a_question_asked_again(asker):
    res = asker.ask("Yme latency of the IPUs? no sorry, what IPU-Link bandwidth is stored for the Graphcore system?")
    assert res.slots.get("system") == "ipu16" and not res.slots.get("compare_with"), res.slots
    assert any("taken back" in n for n in res.notes), res.notes


@pytest.mark.parametrize("text", ["Could you mail me the DGX-2 numbers?",
                                  "Is the Titan RTX or the GTX 980 the better card for video editing?"])
def test_no_data_question(asker, text):
    res = asker.ask(text)
    assert res.intent == "out_of_scope", (res.intent, res.answer)


@pytest.mark.parametrize("text", ["what bandwidth does each gpu-to-gpu link of yme reach with p2p on",
                                  "Which Yme GPU pairs have the lowest bidirectional bandwidth for 1 MB through 1 GB?"])
def test_every_pair_is_the_grid(asker, text):
    res = asker.ask(text)
    assert res.intent == "pair_matrix", (res.intent, res.slots)


def test_tools_and_versions(asker):
    res = asker.ask("dgx2 tools & versions")
    assert res.intent == "list_data" and "made" in res.answer, (res.intent, res.answer)


def test_the_xmp64_barrier_with_clocks_not_synchronised(asker, built_con):
    res = asker.ask("xmp-64 barrier on 64 cores with clocks not synchronized at entry: how long?")
    assert res.slots.get("condition") == "unsynchronised_entry", res.slots
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND condition = ? "
                  "AND metric = ?", ["xmp64", "barrier", "unsynchronised_entry", "time"])
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_the_measure_after_the_placement(asker):
    res = asker.ask("all gather out of place time at one megabyte on the h two hundred pair")
    assert res.slots.get("metric") == "time", res.slots


def test_an_ipus_local_memory_write_on_paper(asker, built_con):
    res = asker.ask("How quickly can one IPU write to its local memory, according to the paper?")
    assert res.slots.get("operation") == "local_memory_write" and res.slots.get("metric") == "bandwidth", res.slots
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ?",
                  ["ipu16", "local_memory_write"])
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_writing_global_memory(asker):
    res = asker.ask("SHOC bandwidth of the DGX-2's GPU0 alone, writing global memory")
    assert res.slots.get("operation") == "gmem_writebw", res.slots


def test_a_link_count(asker):
    res = asker.ask("ipu16 ipu-link count")
    assert res.intent == "topology", (res.intent, res.slots)


def test_what_unit_a_value_is_in(asker):
    res = asker.ask("titan rtx memory spec: which unit, and how much?")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "memory", (res.intent, res.slots)


def test_two_machines_links_which_is_faster(asker):
    res = asker.ask("Yme vs DGX-2: X-Bus vs QPI, which socket link is quicker?")
    assert res.intent == "compare_systems", (res.intent, res.slots)


def test_a_link_loaded_by_other_traffic(asker):
    res = asker.ask("graphcore box: ipu5 to ipu6 latency with the link busy with other traffic, what's the slowdown")
    assert res.intent == "congestion" and res.slots.get("condition") == "under_load", (res.intent, res.slots)


def test_a_shared_name_told_apart_by_its_gpus(asker):
    res = asker.ask("peak NVLink bandwidth of the DGX-1 with Tesla P100")
    assert res.slots.get("system") == "dgx1_p100" and not res.slots.get("compare_with"), res.slots


def test_a_host_memory_kind_and_a_gpu_joined_by_an_arrow(asker, built_con):
    res = asker.ask("dgx2 gpu0->wc bw 1G")
    assert (res.slots.get("operation"), res.slots.get("src")) == ("d2h", "gpu0"), res.slots
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND src = ? "
                  "AND condition = ? AND msg_bytes = ?", ["dgx2", "d2h", "gpu0", "write_combined", 1073741824])
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer
