"""Ways of asking that the reader once read wrong (session 53, from the twenty-second set's misses, each tested with
other words): how numbers were made (a tool's version, its iterations, the repetitions averaged, the programs that
produced them) is answered from the runs' own settings, while a machine's firmware version stays out of scope and a
second question joined on leaves the first one asked; "DGX-II" and "the V100 DGX" name machines; "wattage" is power
and "on paper" the nominal figure; a per-link speed is the link speed nvidia-smi prints; a keyword query's last word
"time" names its measure, and a size's span that runs on into "4 ranks" leaves the count; "single g p u" counts one.
Later: GPUs "being added" is the curve over counts; "from one i p u to two" is a range of counts, no size; pairs by
their number of links are the graph's; a kind of memory compared against ("than from DDR4") is no machine; two
settings are answered in the order said unless one is taken back; what switching congestion control does is the
congestion pair (its "extra time" the congestion impact); a second place in a ranking ("runner-up", "second-highest")
is the next distinct value, while "the second-largest message size" is no ranking; a tensor-core peak is mixed-precision
flops; the message size a document "used" is its stated figure; a link named ("UPI", also spelled) picks the row its
label names (a link type is no column of a measurement); a count a document states is found by its own words
("runs of each permutation"). Some of these are guards that the
model already read right in other words. Real model, real built database; numbers are checked with separate SQL."""
import json

import pytest


def _value(con, sql, params):
    rows = con.execute(sql, params).fetchall()
    assert rows, (sql, params)
    return rows[0][0]


def test_a_tools_version_is_read_from_its_runs(asker, built_con):
    want = {json.loads(p)["nccl_version"] for (p,) in built_con.execute(
        "SELECT CAST(params AS VARCHAR) FROM runs WHERE system_id = ? AND tool = ?", ["h200x2", "nccl-tests"]).fetchall()}
    assert len(want) == 1
    res = asker.ask("what NCCL version did nccl-tests use on the H200 node")
    assert res.intent == "list_data", (res.intent, res.slots)
    assert f"nccl_version {want.pop()}" in res.answer, res.answer
    assert res.rows and all(r["tool"] == "nccl-tests" for r in res.rows), res.rows


def test_iterations_asked_are_a_setting_not_a_measure(asker, built_con):
    iters = {json.loads(p)["iters"] for (p,) in built_con.execute(
        "SELECT CAST(params AS VARCHAR) FROM runs WHERE system_id = ? AND tool = ?", ["h200x2", "nccl-tests"]).fetchall()}
    res = asker.ask("how many warmup iterations did the h200 all-reduce sweep run")
    assert res.intent == "list_data", (res.intent, res.slots, res.answer)
    assert f"iters {iters.pop()}" in res.answer, res.answer


def test_repetitions_averaged_come_from_the_measurements_settings(asker, built_con):
    reps = {json.loads(p).get("repetitions") for (p,) in built_con.execute(
        "SELECT CAST(m.params AS VARCHAR) FROM measurements m JOIN runs r USING (run_id) WHERE m.system_id = ? "
        "AND r.tool = ? AND m.params IS NOT NULL", ["dgx1_v100", "mgbench"]).fetchall()} - {None}
    assert len(reps) == 1
    res = asker.ask("what number of repetitions were the DGX-1 V100 mgbench bandwidths averaged over")
    assert res.intent == "list_data", (res.intent, res.slots)
    assert f"repetitions {reps.pop()} (per measurement)" in res.answer, res.answer


def test_a_trace_is_described_by_its_own_settings(asker):
    res = asker.ask("which nccl version were the h200 pytorch traces recorded with")
    assert res.intent == "list_data" and "pytorch_profiler" in res.answer and "nccl_version" in res.answer, res.answer


@pytest.mark.parametrize("question", [
    "what firmware version runs on the dgx-2",
    "which bios version does the titan rtx desktop have",
])
def test_a_machines_own_software_version_is_no_run_setting(asker, question):
    res = asker.ask(question)
    assert res.intent == "out_of_scope", (question, res.intent, res.answer)


@pytest.mark.parametrize("question", [
    "how does all-gather busbw on the h200 node change with size, and which nccl version was used",
    "how does reduce busbw on the h200 node change with message size and which nccl version was it run with",
])
def test_a_setting_asked_second_leaves_the_first_question(asker, question):
    res = asker.ask(question)
    assert res.intent == "size_sweep", (question, res.intent, res.slots)


@pytest.mark.parametrize("question, system", [
    ("peer-to-peer bandwidth from GPU 3 to GPU 5 on the DGX II", "dgx2"),
    ("spec memory bandwidth of the V100 DGX", "dgx1_v100"),
    ("memory bandwidth of the P100 DGX per spec", "dgx1_p100"),
])
def test_names_in_other_orders_and_numerals(asker, question, system):
    res = asker.ask(question)
    assert res.slots.get("system") == system and res.intent == "metric_lookup", (question, res.intent, res.slots)


def test_wattage_is_power(asker, built_con):
    want = _value(built_con, "SELECT max(value) FROM measurements WHERE system_id = ? AND metric = ?",
                  ["titan_rtx", "power"])
    res = asker.ask("titan rtx wattage")
    assert res.slots.get("metric") == "power" and res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_on_paper_is_the_nominal_figure(asker):
    res = asker.ask("on paper, how much NVLink bandwidth does the DGX-1 V100 have")
    assert res.slots.get("condition") == "nominal" and res.intent == "metric_lookup", (res.intent, res.slots)


def test_a_per_link_speed_is_the_link_speed(asker, built_con):
    want = _value(built_con, "SELECT max(value) FROM measurements WHERE system_id = ? AND operation = ?",
                  ["ac922_minisummit", "link_speed"])
    res = asker.ask("per-link NVLink speed of the Mini Summit as nvidia-smi shows it")
    assert res.slots.get("operation") == "link_speed", (res.intent, res.slots)
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_a_keyword_querys_last_word_time_names_the_measure(asker, built_con):
    want = _value(built_con, "SELECT min(value) FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                  "AND msg_bytes = ? AND count = ?", ["ac922_yme", "allreduce", "time", 1 << 20, 4])
    res = asker.ask("yme allreduce 1MB 4 ranks time")
    assert res.slots.get("metric") == "time" and res.slots.get("count") == 4, res.slots
    assert res.slots.get("msg_bytes") == 1 << 20, res.slots
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_a_single_spelled_gpu_counts_one(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                  "AND msg_bytes = ? AND count = ? AND condition = ?",
                  ["h200x2", "allreduce", "time", 1 << 20, 1, "out_of_place"])
    res = asker.ask("single g p u all reduce time on the h two hundred at one megabyte out of place")
    assert res.slots.get("count") == 1, res.slots
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


# ---- later in session 53: counts added, ranges of counts, links per pair, memories, order said, switches, places

@pytest.mark.parametrize("question", [
    "how does the ipu gemm throughput change as more ipus are added",
    "h200 all-reduce busbw as you add gpus",
])
def test_devices_being_added_is_the_curve_over_counts(asker, question):
    res = asker.ask(question)
    assert res.intent == "scaling", (question, res.intent, res.slots)


def test_the_far_end_of_a_spelled_range_of_counts_is_no_size(asker):
    res = asker.ask("h200 all reduce busbw from one g p u to two")
    assert res.intent == "scaling" and "msg_bytes" not in res.slots, (res.intent, res.slots)


def test_pairs_by_the_number_of_links_is_the_graph(asker):
    res = asker.ask("on the dgx-1 p100 which gpu pairs are joined by two nvlinks")
    assert res.intent == "topology", (res.intent, res.slots)


def test_a_kind_of_memory_compared_against_is_no_machine(asker, built_con):
    want = _value(built_con, "SELECT max(value) FROM measurements WHERE system_id = ? AND metric = ? AND condition = ?",
                  ["difftracing_knl", "speedup", "mcdram"])
    res = asker.ask("how much faster is the knl application phase from mcdram than from ddr4")
    assert res.intent == "metric_lookup" and res.rows, (res.intent, res.answer)
    assert res.rows[0]["value"] == pytest.approx(want), res.answer


def test_two_settings_are_answered_in_the_order_said(asker):
    res = asker.ask("what's the h200 in-place all-gather busbw at 1 GB on both gpus, and do out-of-place numbers look "
                    "different")
    assert res.slots.get("conditions") == ["in_place", "out_of_place"], res.slots
    res = asker.ask("not the pinned one but the pageable: yme host to device bandwidth at 1 GB")
    assert res.slots.get("condition") == "pageable", res.slots


@pytest.mark.parametrize("question", [
    "what happens to lammps on azure if we switch on cc",
    "how much of the extra run time does congestion control claw back for lammps on azure",
])
def test_what_switching_congestion_control_does_is_the_congestion_pair(asker, question):
    res = asker.ask(question)
    assert res.intent == "congestion" and res.rows, (question, res.intent, res.answer)


def test_a_second_place_is_the_next_distinct_value(asker, built_con):
    vals = [v for (v,) in built_con.execute(
        "SELECT DISTINCT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? AND condition = ? "
        "AND count = ? ORDER BY value DESC", ["h200x2", "allgather", "busbw", "out_of_place", 2]).fetchall()]
    res = asker.ask("which message size gives the h200 out-of-place all-gather its second-highest busbw")
    assert res.slots.get("place") == 2 and res.intent == "metric_lookup", (res.intent, res.slots)
    assert res.rows and res.rows[-1]["value"] == pytest.approx(vals[1]), res.answer
    assert "second highest" in res.answer.lower(), res.answer


def test_the_runner_up_pair(asker, built_con):
    res = asker.ask("runner-up gpu pair for p2p latency on yme")
    assert res.intent == "metric_lookup" and res.slots.get("place") == 2 and res.slots.get("aggregate") == "min", \
        (res.intent, res.slots)
    assert "second lowest" in res.answer.lower(), res.answer


def test_a_second_largest_size_is_no_place_in_a_ranking(asker):
    res = asker.ask("h200 in-place all-gather busbw with 2 gpus at the second-largest message size")
    assert "place" not in res.slots, res.slots


@pytest.mark.parametrize("question", [
    "mini summit tensor-core peak per the datasheet",
    "Mini Summit tensor core peak from the spec.",
])
def test_a_tensor_core_peak_is_mixed_precision_arithmetic(asker, built_con, question):
    want = _value(built_con, "SELECT max(value) FROM measurements WHERE system_id = ? AND metric = ? AND precision = ?",
                  ["ac922_minisummit", "flops", "mixed"])
    res = asker.ask(question)
    assert res.slots.get("metric") == "flops" and res.slots.get("precision") == "mixed", (res.intent, res.slots)
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_the_message_size_a_document_used_is_its_stated_figure(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ?", ["xmp64", "msg_size"])
    res = asker.ask("which message size was used for the xmp-64 latency figures")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "msg_size", (res.intent, res.slots)
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


@pytest.mark.parametrize("question", [
    "UPI bandwidth SU3_Bench used between the two sockets of the Xeon 8280",
    "u p i bandwidth s u three bench used across the sockets of the xeon eight two eighty",
])
def test_a_link_named_picks_the_row_labelled_with_it(asker, built_con, question):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND src = ? AND dst = ?",
                  ["xeon_8280", "bandwidth", "cpu0", "cpu1"])
    res = asker.ask(question)
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), (question, res.answer)


def test_by_what_factor_one_exceeds_the_other_is_the_stated_speedup(asker, built_con):
    want = _value(built_con, "SELECT max(value) FROM measurements WHERE system_id = ? AND metric = ? AND operation = ?",
                  ["dgx2", "speedup", "p2p"])
    res = asker.ask("by what factor does the dgx-2 nvlink p2p bandwidth exceed the yme one")
    assert res.slots.get("metric") == "speedup" and res.intent == "metric_lookup", (res.intent, res.slots)
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_a_stated_count_is_found_by_its_own_words(asker, built_con):
    rows = built_con.execute("SELECT value, CAST(params AS VARCHAR) FROM measurements WHERE system_id = ? AND metric = ?",
                             ["xmp64", "count"]).fetchall()
    want = [v for v, p in rows if "permutation" in p]
    assert len(want) == 1
    res = asker.ask("how many runs of every permutation did the xmp-64 latency experiments use")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "count", (res.intent, res.slots)
    assert res.rows and res.rows[0]["value"] == pytest.approx(want[0]), res.answer
    res = asker.ask("how many microseconds does a pcie-mode copy from gpu 0 to gpu 1 take on yme")
    assert res.slots.get("metric") != "count", res.slots


def test_pairs_by_their_number_of_links_are_named(asker, built_con):
    want = {(a, b) for a, b in built_con.execute(
        "SELECT a, b FROM links WHERE system_id = ? AND count = ? AND starts_with(link_type, ?)",
        ["dgx1_v100", 2, "NVLink"]).fetchall()}
    assert want
    res = asker.ask("on the dgx-1 v100, which gpu pairs are joined by two nvlinks")
    assert res.intent == "topology" and res.slots.get("link_count") == 2, (res.intent, res.slots)
    assert {(r["a"], r["b"]) for r in res.rows} == want, res.rows
    assert all(f"{a.upper()}-{b.upper()}" in res.answer for a, b in want), res.answer
    assert sorted(map(sorted, res.chart["highlight"])) == sorted(map(sorted, want)), res.chart.get("highlight")
