"""Ways of asking that the reader once read wrong (session 53, from the twenty-second set's misses, each tested with
other words): how numbers were made (a tool's version, its iterations, the repetitions averaged, the programs that
produced them) is answered from the runs' own settings, while a machine's firmware version stays out of scope and a
second question joined on leaves the first one asked; "DGX-II" and "the V100 DGX" name machines; "wattage" is power
and "on paper" the nominal figure; a per-link speed is the link speed nvidia-smi prints; a keyword query's last word
"time" names its measure, and a size's span that runs on into "4 ranks" leaves the count; "single g p u" counts one.
Real model, real built database; numbers are checked with separate SQL."""
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


def test_a_setting_asked_second_leaves_the_first_question(asker):
    res = asker.ask("how does all-gather busbw on the h200 node change with size, and which nccl version was used")
    assert res.intent == "size_sweep", (res.intent, res.slots)


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
