"""Ways of asking that the reader and the planners once read wrong (session 48, from the twelfth set's misses, each
tested with other words): two machines compared with no measure named (the headline measures, one panel each); "how
do X and Y stack up"; a link or switch asked for that the machine lacks (refused, with the links it has, unless the
question asks whether it is there); a machine's congestion results; a curve whose axis is named as a count ("as the
gpu count goes from two to sixteen"); a model name that only looks like a stored one (GH200 is no H200); a plural
operation name ("annealing steps") and "how many" of it; the one measure a machine has; the inventory asked as
"list what you have" or "runs for"; "the loaded systems"; prefetching as the cause; "how's X looking"; a load never
measured; the speaker's "I mean" and a name the speaker corrects ("yme, sorry, mini summit"); sgemm and dgemm as the
stored operations they name. Real model, real built database; numbers are checked with separate SQL."""
import pytest

from app.charts import figure


def _one(con, sql, *params):
    return con.execute(sql, list(params)).fetchone()


def test_two_machines_compared_on_no_named_measure_get_the_headline_measures(asker, built_con):
    res = asker.ask("how does the DGX-1 V100 compare with the DGX-1 P100?")
    assert res.intent == "compare_systems", (res.intent, res.answer)
    measures = {r["series"] for r in res.rows}
    assert len(measures) >= 2 and {r["system_id"] for r in res.rows} == {"dgx1_v100", "dgx1_p100"}, res.rows
    assert any(n.startswith("no measure named") for n in res.notes), res.notes
    best = _one(built_con, "SELECT max(value) FROM measurements WHERE system_id = 'dgx1_v100' AND operation = 'p2p' "
                           "AND metric = 'bandwidth' AND direction = 'uni' AND condition = 'p2p_on'")[0]
    assert any(r["series"] == "peer-to-peer" and r["value"] == pytest.approx(best) for r in res.rows), res.rows
    fig = figure(res)
    assert fig is not None and len(fig.data) == len(measures)       # one panel per measure


def test_how_two_machines_stack_up_is_a_comparison(asker):
    res = asker.ask("how do the h200 pair and the dgx-2 stack up")
    assert res.intent == "compare_systems" and len({r["system_id"] for r in res.rows}) == 2, (res.intent, res.answer)


@pytest.mark.parametrize("question", ["draw the NVSwitch fabric of the Mini Summit",
                                      "show the InfiniBand links of the H200 pair"])
def test_a_link_the_machine_lacks_is_refused_with_what_it_has(asker, question):
    res = asker.ask(question)
    assert res.intent == "out_of_scope" and "its links are" in res.answer, (question, res.intent, res.answer)


def test_whether_a_link_is_there_shows_the_graph(asker):
    res = asker.ask("does the mini summit have any nvswitch at all?")
    assert res.intent == "topology" and "no NVSwitch" in res.answer, (res.intent, res.answer)


def test_a_machines_congestion_results(asker):
    res = asker.ask("pull up the congestion results of the in-house cluster")
    assert res.intent == "congestion" and res.rows, (res.intent, res.answer)


def test_a_curve_whose_axis_is_named_as_a_count(asker):
    res = asker.ask("how do the dgx-2 sgemm flops change as the gpu count goes from two to sixteen")
    assert res.intent == "scaling" and res.slots.get("metric") != "count", (res.intent, res.slots, res.answer)
    assert "msg_bytes" not in res.slots and res.slots.get("count_kind") == "gpus", res.slots


@pytest.mark.parametrize("name", ["gh200", "b200"])
def test_a_model_name_that_only_looks_stored_is_unknown(asker, name):
    res = asker.ask(f"{name} nvlink bandwidth")
    assert res.intent == "out_of_scope" and res.slots.get("system") != "h200x2", (res.intent, res.slots, res.answer)


def test_how_many_of_a_plural_operation(asker, built_con):
    want = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'sqa_v100_node' AND operation = "
                           "'annealing_step' AND metric = 'count' AND condition = 'tensor_cores_on'")[0]
    res = asker.ask("how many annealing steps does the V100 SQA node do with tensor cores enabled")
    assert res.slots.get("operation") == "annealing_step" and res.slots.get("metric") == "count", res.slots
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer
    assert asker.ask("How many ECC errors did the DGX-2 report?").intent == "out_of_scope"


def test_the_one_measure_a_machine_has(asker, built_con):
    want = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'heycai_client3' AND condition = "
                           "'speech_query'")[0]
    res = asker.ask("how quick is a speech query on client three")
    assert res.intent == "metric_lookup", (res.intent, res.answer)
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer
    assert any("the only one measured" in n for n in res.notes), res.notes


@pytest.mark.parametrize("question", ["can you list what you have on the DGX-2, data and traces both",
                                      "runs for the dgx-1 p100 and v100"])
def test_the_inventory_asked_plainly(asker, question):
    res = asker.ask(question)
    assert res.intent == "list_data" and "measurements in" in res.answer, (question, res.intent, res.answer)


def test_the_loaded_systems_are_no_load(asker):
    res = asker.ask("which of the loaded machines have QPI between their sockets?")
    assert res.intent == "list_data" and "condition" not in res.slots, (res.intent, res.slots)


def test_prefetching_as_the_cause(asker, built_con):
    want = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'mapredict_bw' AND metric = "
                           "'traffic_increase' AND condition = 'prefetch_on'")[0]
    res = asker.ask("what extra LLC-DRAM traffic is caused by prefetching on MAPredict BW?")
    assert res.intent == "metric_lookup" and res.rows[0]["value"] == pytest.approx(want), (res.intent, res.answer)


@pytest.mark.parametrize("question, intent", [("how's the allgather busbw looking on the h200 pair", "size_sweep"),
                                              ("what does d2h bandwidth look like on the mini summit", "size_sweep"),
                                              ("what does the yme topology look like", "topology")])
def test_how_a_measure_looks_is_its_curve(asker, question, intent):
    res = asker.ask(question)
    assert res.intent == intent, (question, res.intent, res.answer)


def test_a_load_never_measured_is_refused(asker):
    res = asker.ask("DGX-1 V100 gpu0 to gpu1 bandwidth under heavy concurrent traffic")
    assert res.intent == "out_of_scope", (res.intent, res.answer)


def test_i_mean_joins_no_words(asker):
    res = asker.ask("su three bench speedup on the xeon eighty two eighty as cores go up i mean double precision")
    assert "link_type" not in res.slots and res.intent == "scaling", (res.intent, res.slots)


@pytest.mark.parametrize("word, op", [("sgemm", "sgemm_n"), ("dgemm", "dgemm_n")])
def test_sgemm_and_dgemm_are_their_own_stored_operations(asker, built_con, word, op):
    """Not the machine's highest flops of any kind (MaxFlops), nor the other precision's GEMM."""
    res = asker.ask(f"what {word} flops does yme reach")
    assert res.slots.get("operation") == op and res.rows, (res.slots, res.answer)
    best = _one(built_con, "SELECT max(value) FROM measurements WHERE system_id = 'ac922_yme' AND operation = ? "
                           "AND metric = 'flops' AND count = ?", op, res.rows[0]["count"])[0]
    assert res.rows[0]["value"] == pytest.approx(best), res.answer


@pytest.mark.parametrize("question, meant, taken_back", [
    ("h2d bandwidth on yme i mean mini summit", "ac922_minisummit", "ac922_yme"),
    ("d2h bandwidth on the mini summit, sorry, on yme", "ac922_yme", "ac922_minisummit"),
    ("compare the dgx one v one hundred no wait the dgx one p one hundred with the dgx two on p2p bandwidth",
     "dgx1_p100", "dgx1_v100")])
def test_a_name_the_speaker_corrects_is_taken_back(asker, question, meant, taken_back):
    res = asker.ask(question)
    named = {res.slots.get("system"), *(res.slots.get("compare_with") or [])}
    assert meant in named and taken_back not in named, (question, res.slots)
    assert any(n.startswith("read as corrected") for n in res.notes), res.notes
    assert "dgx2" in named or "compare" not in question      # the third system named stays


def test_two_systems_set_side_by_side_are_no_correction(asker):
    res = asker.ask("compare yme and mini summit h2d bandwidth")
    assert res.intent == "compare_systems" and {res.slots["system"], *res.slots["compare_with"]} == {
        "ac922_yme", "ac922_minisummit"}, res.slots
