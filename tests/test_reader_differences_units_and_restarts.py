"""Ways of asking that the reader once read wrong (session 52, from the twenty-first set's misses, each tested with
other words): a paper named by its short name ("the Hey CAI paper") is no unknown machine; a difference between two
machines' numbers ("by how many GB/s ... exceed", "minus", "how much longer ... than") is their comparison; "as the
message grows" and "smallest to biggest message" are the curve over sizes; a unit of time said alone names the
measure; energy "saved, in percent" is the stated reduction; a machine nobody measured yet ("its next chip") and
music are no data question; load described in words ("when the other tiles are sending") is the load pair; "IBM
Power" is a name, no measure of power; a speaker who restarts ("the reduce no the broadcast", "yme no the mini
summit") means the second; a number after "Listing" or "Table" is where a value is printed, no ranking. Real model,
real built database; numbers are checked with separate SQL."""
import pytest


def _value(con, sql, params):
    rows = con.execute(sql, params).fetchall()
    assert rows, (sql, params)
    return rows[0][0]


def test_a_paper_named_by_its_short_name_is_no_machine(asker):
    res = asker.ask("which intent accuracy does the Hey CAI paper report for JointBERT")
    assert not res.answer.startswith("I have no data"), res.answer
    assert res.intent == "metric_lookup", (res.intent, res.slots)


@pytest.mark.parametrize("question", [
    "by how much does the dgx-2's pinned host-to-device bandwidth exceed the titan rtx's",
    "titan rtx minus gtx980 device to host bw",
    "how much longer does an image query take on Client-2 than on Client-1",
])
def test_a_difference_between_two_machines_is_their_comparison(asker, question):
    res = asker.ask(question)
    assert res.intent == "compare_systems" and res.slots.get("compare_with"), (question, res.intent, res.slots)
    assert res.slots.get("metric") not in ("slowdown", "speedup"), res.slots


@pytest.mark.parametrize("question", [
    "how does out-of-place reduce-scatter busbw on the h200 pair change as the message grows",
    "allgather algbw on the h200 node from the smallest to the largest message",
])
def test_the_message_growing_is_the_curve_over_sizes(asker, question):
    res = asker.ask(question)
    assert res.intent == "size_sweep", (question, res.intent, res.slots)


def test_a_unit_of_time_alone_names_the_measure(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                  "AND msg_bytes = ? AND condition = ? AND count = ?", ["h200x2", "broadcast", "time", 1024,
                                                                       "out_of_place", 2])
    res = asker.ask("h200 broadcast 1 KB out of place, in microseconds")
    assert res.slots.get("metric") == "time" and res.rows, (res.slots, res.answer)
    assert res.rows[0]["value"] == pytest.approx(want), res.answer


def test_energy_saved_in_percent_is_the_stated_reduction(asker, built_con):
    want = _value(built_con, "SELECT max(value) FROM measurements WHERE system_id = ? AND metric = ?",
                  ["llm_sim", "energy_reduction"])
    res = asker.ask("what percentage of energy does the low latency memory design save")
    assert res.rows and res.rows[0]["value"] == pytest.approx(want) and res.rows[0]["unit"] == "%", res.answer


@pytest.mark.parametrize("question", ["will nvidia's next gpu beat the dgx-2 on all-reduce",
                                      "play some music while I wait"])
def test_no_data_question(asker, question):
    assert asker.ask(question).intent == "out_of_scope"


def test_load_described_in_words_is_the_load_pair(asker):
    res = asker.ask("on the graphcore system what happens to the ipu5 to ipu4 bandwidth while the other ipus are "
                    "busy sending")
    assert res.intent == "congestion" and res.slots.get("condition") == "under_load", (res.intent, res.slots)


def test_ibm_power_is_a_name_not_a_measure(asker):
    res = asker.ask("between the IBM Power box Mini Summit and the DGX-2, which copies 1 GB of pinned memory to a "
                    "GPU faster")
    assert res.slots.get("metric") != "power" and res.intent == "compare_systems", (res.intent, res.slots)


def test_a_restarted_phrase_means_the_second_value(asker):
    res = asker.ask("the allgather no the alltoall on the h two hundred at one megabyte out of place bus bandwidth")
    assert res.slots.get("operation") == "alltoall", res.slots
    sys = asker.ask("the dgx two no the yme device to host bandwidth")
    assert sys.slots.get("system") == "ac922_yme" and not sys.slots.get("compare_with"), sys.slots
    kept = asker.ask("ipu latency with no congestion")
    assert kept.slots.get("condition") == "congestion_free", kept.slots


def test_a_number_after_listing_or_table_is_no_ranking(asker):
    res = asker.ask("Table 12 of the DGX-2 report: pinned host to GPU0 bandwidth on the DGX-2")
    assert "top_n" not in res.slots and res.slots.get("msg_bytes") != 12, res.slots
