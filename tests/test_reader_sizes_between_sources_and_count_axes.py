"""Ways of asking that the reader and the planners once read wrong (session 51, from the seventeenth to nineteenth
sets' misses, each tested with other words): a message size between the measured ones (or beyond them) is refused
with the sizes that were measured, not answered at another size, while 1e6 bytes is 1 MiB in the other unit; a
rate said in words ("twenty five gigabytes per second") and a share of one ("783 of 900 GB/s") are no sizes, and a
bare number beside a size said with its unit is no second size; "what percent of the i p u link rate" is the
link's efficiency; counts said as a way "from one GPU to more", as a range ("2-4 gpus") or as "which gpu count
gives the best" are the axis of a curve; a size said as where a curve starts ("from 1e6 bytes upward") or levels
("stay flat up to 64 KB") is the curve over sizes; which papers or files the numbers come from, and what the
database holds on a machine, is the inventory; "cc on vs off" for one application is the congestion pair; "where
does compression start paying off" is the crossover size the source states; systems "above 100 GB/s" are ranked
against the line; one size and no word of a curve is a lookup when the model doubts. Real model, real built
database; numbers are checked with separate SQL."""
import pytest


def _sizes(con, system, operation):
    return sorted(r[0] for r in con.execute(
        "SELECT DISTINCT msg_bytes FROM measurements WHERE system_id = ? AND operation = ? AND msg_bytes > 0",
        [system, operation]).fetchall())


def test_a_size_between_the_measured_ones_is_refused_with_them(asker, built_con):
    sizes = _sizes(built_con, "h200x2", "allgather")
    assert 6 << 20 not in sizes and 4 << 20 in sizes and 8 << 20 in sizes
    res = asker.ask("h200 allgather busbw at 6 MB out of place")
    assert res.intent == "out_of_scope" and not res.rows, (res.intent, res.answer)
    assert "6 MiB" in res.answer and "4 MiB" in res.answer and "8 MiB" in res.answer, res.answer


def test_a_size_beyond_the_measured_ones_names_the_largest(asker, built_con):
    largest = _sizes(built_con, "h200x2", "broadcast")[-1]
    res = asker.ask("broadcast busbw on the h200 pair at 64 GB")
    assert res.intent == "out_of_scope" and not res.rows, (res.intent, res.answer)
    assert f"{largest >> 30} GiB" in res.answer, res.answer


def test_a_size_in_the_other_unit_is_the_size_measured(asker, built_con):
    want = built_con.execute(
        "SELECT value FROM measurements WHERE system_id = 'h200x2' AND operation = 'allreduce' AND metric = 'busbw' "
        "AND msg_bytes = 1048576 AND condition = 'in_place' AND count = 2").fetchall()
    res = asker.ask("allreduce busbw in place on the h200 pair at 1000000 bytes")
    assert res.intent == "metric_lookup" and res.rows, (res.intent, res.answer)
    assert res.rows[0]["value"] == pytest.approx(want[0][0]), res.answer


@pytest.mark.parametrize("question", [
    "how close do the dgx two envy links come to their fifty gigabytes per second",
    "only 140 of 150 GB/s on the dgx-2 nvlink p2p: how efficient is that",
])
def test_a_rate_or_a_share_of_one_is_no_size(asker, question):
    res = asker.ask(question)
    assert "msg_bytes" not in res.slots and res.intent == "link_efficiency", (question, res.intent, res.slots)


def test_a_bare_number_beside_a_size_with_its_unit_is_no_size(asker):
    res = asker.ask("just one thing: 16 KB broadcast time in place on the h200 node")
    assert res.slots.get("msg_bytes") == 16 << 10 and res.intent == "metric_lookup", (res.intent, res.slots)


def test_a_percent_of_a_links_rate_spelled_out(asker):
    res = asker.ask("what percent of the n v link rate do the dgx two gpus really get")
    assert res.intent == "link_efficiency", (res.intent, res.answer)


@pytest.mark.parametrize("question, kind", [
    ("ipu fp16 gemm flops going from one ipu to several", "ipus"),
    ("yme stencil2d gflops 1-4 gpus", "gpus"),
    ("which gpu count gives the highest qtc runtime on yme", "gpus"),
])
def test_counts_said_as_a_way_a_range_or_the_best_one_are_the_axis(asker, question, kind):
    res = asker.ask(question)
    assert res.intent == "scaling" and res.slots.get("count_kind") == kind and "count" not in res.slots, \
        (question, res.intent, res.slots)


def test_a_size_where_the_curve_starts_or_levels(asker):
    res = asker.ask("dgx2 deepbench allreduce time 8 gpus from 1e6 bytes onward")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [1000000, None], (res.intent, res.slots)
    res = asker.ask("does the mini summit p2p latency remain flat up to 32 KB")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [None, 32 << 10], (res.intent, res.slots)
    res = asker.ask("How fast is a pageable device-to-host copy of 64 KB from GPU1 on Yme?")   # "from GPU1 on": no size
    assert res.intent == "metric_lookup" and res.slots.get("msg_bytes") == 64 << 10, (res.intent, res.slots)


@pytest.mark.parametrize("question, system", [
    ("which paper are the lassen numbers taken from", "lassen"),
    ("what does the database hold on the xmp64", "xmp64"),
    ("which trace files does the h200 breakdown come from", "h200x2"),
])
def test_where_the_numbers_come_from_is_the_inventory(asker, question, system):
    res = asker.ask(question)
    assert res.intent == "list_data" and res.slots.get("system") == system, (question, res.intent, res.slots)


def test_both_congestion_control_settings_for_one_application(asker):
    res = asker.ask("in-house cluster lammps congestion control on versus off")
    assert res.intent == "congestion" and res.rows, (res.intent, res.answer)
    res = asker.ask("thetagpu cc on versus off time")     # never ran with congestion control: refused
    assert res.intent == "out_of_scope", (res.intent, res.answer)


def test_where_a_method_starts_paying_off_is_the_stated_crossover(asker, built_con):
    want = {r[0] for r in built_con.execute(
        "SELECT value FROM measurements WHERE system_id = 'frontera_liquid' AND metric = 'crossover_msg_size' "
        "AND count = 2").fetchall()}
    res = asker.ask("at what message size does compressed alltoall begin to pay off on frontera liquid with 2 nodes")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "crossover_msg_size", (res.intent, res.slots)
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_systems_above_a_line_are_ranked_against_it(asker):
    res = asker.ask("Which systems besides the DGX-2 have h2d bandwidth numbers above 20 GB/s?")
    assert res.intent == "compare_systems" and res.slots.get("threshold", {}).get("value") == 20.0, \
        (res.intent, res.slots)


def test_one_size_and_no_curve_word_is_a_lookup(asker):
    res = asker.ask("nccl-tests prints a busbw column; what does it show for reducescatter at 32 MB in place on "
                    "both H200 GPUs?")
    assert res.intent == "metric_lookup" and res.rows, (res.intent, res.answer)


def test_a_value_that_grows_with_message_size_is_the_curve_over_sizes(asker):
    # as heard, "bus bw" in two words: the size said as what the value grows with is the axis, on 2 GPUs
    res = asker.ask("how does the H200 allgather bus bw change with message size, out of place, 2 GPUs?")
    assert res.intent == "size_sweep" and res.slots.get("count") == 2, (res.intent, res.slots)



@pytest.mark.parametrize("question", [
    "kick off an n sys trace of the training job on the h200 pair",        # "nsys" as spoken, letter by letter
    "how big is the co2 footprint of the dgx2 benchmark runs",
    "will the ac922 still be under vendor support in three years",
])
def test_what_no_stored_measurement_answers(asker, question):
    assert asker.ask(question).intent == "out_of_scope", question


def test_a_memory_footprint_is_measured(asker):
    res = asker.ask("callgraph cluster sampling memory footprint of lulesh")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "memory", (res.intent, res.slots)


def test_an_applications_memory_is_measured_not_a_parts_size(asker):
    res = asker.ask("memory footprint of lulesh on the callgraph cluster with sampling")
    assert res.intent == "metric_lookup" and res.slots.get("app") == "lulesh" and res.rows, (res.intent, res.answer)


def test_the_papers_of_a_collection_are_listed_with_their_systems(asker, built_con):
    titles = {r[0] for r in built_con.execute(
        "SELECT regexp_extract(source, 'pp\\. [0-9]+-[0-9]+ \\(([^)]+)\\)', 1) FROM runs "
        "WHERE source LIKE '002_%' AND source LIKE '% pp. %'").fetchall()} - {""}
    res = asker.ask("for my related-work section, which ISC 2022 papers does the database cover?")
    assert res.intent == "list_data" and res.rows and all("paper" in r and "systems" in r for r in res.rows), \
        (res.intent, res.answer)
    listed = {r["paper"].rsplit(" (pp.", 1)[0] for r in res.rows}
    assert titles <= listed, titles - listed
    assert all(r["n_systems"] >= 1 for r in res.rows)
    res = asker.ask("which systems from the ISC 2022 papers are loaded")    # the systems, not the papers
    assert res.intent == "list_data" and not any("paper" in r for r in res.rows), res.answer


def test_where_one_number_is_printed_is_its_lookup(asker):
    res = asker.ask("Which file or table does the Mini Summit's 1 MiB all-reduce time on 2 GPUs come from?")
    assert res.intent == "metric_lookup" and res.rows and res.rows[0].get("source"), (res.intent, res.answer)
    assert "[" in res.answer, res.answer          # the answer cites it
