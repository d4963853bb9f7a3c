"""Ways of asking that the reader once read wrong (session 57, from the thirty-third set's misses, each tested with
other words): a question written as code (a call, key=value pairs, SQL, "GROUP BY"), never run; a statement that
would change the data refused; "what's on file for X"; "what message size was used"; a speedup "across cores"; a short
typo beside its phrase ("under lod"); a pair "hit hardest" under load; "how much of the envy link bandwidth do the
pairs use"; one machine's copy "slower than" another's; a measure's word in another language ("latencia", "bande
passante"); a value asked for someone else with no word of listing; "wasn't X the slowest pair". Real model, real
built database; numbers are checked with separate SQL."""
import pytest

from nlu.other_languages import in_english
from nlu.pseudo_code import plain_query
from conftest import stored_values as _values


def test_code_read_as_words():
    assert plain_query("lookup(system='dgx2', metric='temperature')") == "dgx2 temperature"
    assert plain_query("heatmap(system='yme', p2p='on')") == "heatmap yme p2p on"
    assert plain_query("SELECT algbw FROM h200 WHERE op = 'all_gather' AND bytes = 1MiB") == "algbw h200 all gather 1 MiB"
    assert plain_query("GROUP BY nodes: lassen speedup") == "lassen speedup over node counts"
    assert plain_query("gpus=4 system=yme") == "4 gpus yme"
    for words in ("what is the h200 busbw?", "is a = b here?", "How does f(x) scale?"):
        assert plain_query(words) is None, words


def test_a_question_written_as_a_call(asker, built_con):
    res = asker.ask("lookup(system='titan_rtx', metric='temperature')")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "temperature", (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ?",
                   ["titan_rtx", "temperature"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    assert any("lookup(" in n for n in res.notes), res.notes
    res = asker.ask("heatmap(system='dgx2', metric='latency', p2p='on')")
    assert res.intent == "pair_matrix" and res.slots.get("condition") == "p2p_on", (res.intent, res.slots)


def test_a_question_written_as_sql(asker, built_con):
    res = asker.ask("SELECT algbw FROM h200 WHERE op = 'all_gather' AND bytes = 1MiB AND out_of_place")
    assert res.intent == "metric_lookup" and res.slots.get("msg_bytes") == 2 ** 20, (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                   "AND msg_bytes = ? AND condition = ?", ["h200x2", "allgather", "algbw", 2 ** 20, "out_of_place"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("GROUP BY gpu_count: yme maxdpflops")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)


@pytest.mark.parametrize("q", ["DELETE FROM runs WHERE system_id = 'dgx2';", "drop table systems"])
def test_a_statement_that_would_change_the_data(asker, q):
    assert asker.ask(q).intent == "out_of_scope", q


def test_what_is_on_file(asker):
    res = asker.ask("Whenever you have a minute: what's on file for the Titan RTX?")
    assert res.intent == "list_data" and res.slots.get("system") == "titan_rtx", (res.intent, res.slots)


def test_the_message_size_used(asker, built_con):
    res = asker.ask("Which message size was used for the XMP-64 runs on 64 cores?")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "msg_size", (res.intent, res.slots)


def test_a_speedup_across_cores(asker):
    res = asker.ask("piuma su3_bench speedup across cores")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "cores", (res.intent, res.slots)


def test_a_short_typo_beside_its_phrase(asker):
    assert asker.nlu.speller.correct("lod", "under") == "load"
    assert asker.nlu.speller.correct("lod", "the") is None
    res = asker.ask("ipu5 to ipu4 latency rise under lod")
    assert res.slots.get("condition") == "under_load", res.slots


def test_the_pair_hit_hardest_under_load(asker):
    res = asker.ask("which IPU pair is hit hardest when the whole system is busy")
    assert res.intent == "congestion", (res.intent, res.slots)


def test_how_much_of_a_link_said_as_a_mode(asker):
    res = asker.ask("how much of the envy link bandwidth do the gpu pairs on mini summit use")
    assert res.intent == "link_efficiency", (res.intent, res.slots)


def test_one_machines_copy_slower_than_anothers(asker):
    res = asker.ask("Isn't the DGX-2's NVLink-mode GPU0-to-GPU1 copy slower than the same copy on Yme?")
    assert res.intent == "compare_systems", (res.intent, res.slots)


def test_a_measure_in_another_language(asker):
    assert in_english(["bande", "passante", "h2d"]) == ["bandwidth", "h2d"]
    assert in_english(["the", "latency"]) == ["the", "latency"]
    res = asker.ask("latencia p2p del dgx-2 con p2p off")
    assert res.slots.get("metric") == "latency" and res.slots.get("system") == "dgx2", res.slots
    assert any("latencia" in n for n in res.notes), res.notes
    res = asker.ask("bande passante h2d du titan rtx")
    assert res.slots.get("metric") == "bandwidth" and res.slots.get("operation") == "h2d", res.slots


def test_a_value_asked_for_someone_else(asker, built_con):
    res = asker.ask("My manager wants the DGX-1 P100's host-to-device bandwidth with P2P enabled. What do I say?")
    assert res.intent == "metric_lookup", (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ?",
                   ["dgx1_p100", "h2d", "bandwidth"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_a_pair_checked_against_the_extreme(asker):
    res = asker.ask("wasn't GPU3 to GPU12 the fastest pair for bandwidth on the DGX-2 with p2p on")
    assert res.intent == "pair_matrix" and res.slots.get("pairs") == [["gpu3", "gpu12"]], (res.intent, res.slots)
    assert "The pairs asked about: GPU3 -> GPU12" in res.answer, res.answer


def test_a_program_a_suite_ran_is_that_programs_measurement(asker, built_con):
    # Tartan runs the CUDA sample p2pBandwidthLatencyTest: its rows are the sample's, named by the project too
    res = asker.ask("titan rtx d2d one-way bandwidth with p2p on, from the cuda samples")
    assert not any("answered from" in n for n in res.notes), res.notes
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND app = ? "
                   "AND condition = ? AND metric = ?", ["titan_rtx", "d2d", "p2pBandwidthLatencyTest", "p2p_on",
                                                        "bandwidth"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("Yme GPU1 to GPU2 one-way bandwidth with P2P on in p2pBandwidthLatencyTest")
    assert not any("no p2pBandwidthLatencyTest measurement" in n for n in res.notes), res.notes
