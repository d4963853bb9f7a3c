"""Ways of asking that the reader once read wrong (session 64, from the fifty-sixth set's misses, each tested with
other words): the unit of a stored value asked for ("what unit does the database use for ...") answered with the
value and its unit; "the p two p efficiency of the d g x one v one hundred" (spoken) the links' efficiency; a terse
"xmp64 msg size" the size the document states it used, not a curve over sizes; a machine described by its site ("the
OSU cluster") compared with a named one; other tiles that "load" or "saturate" the links between two IPUs the
congestion experiment; "with congestion control off" the switch off (it had been read on). Real model, real
built database."""
from conftest import stored_values as _values

from nlu.framing import without_unit_asked

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_the_unit_of_a_stored_value(asker):
    res = asker.ask("What unit does the database use for the P2P efficiency of the DGX-1 V100?")
    assert res.intent == "link_efficiency" and "%" in res.answer, (res.intent, res.answer)
    q, frame = without_unit_asked("which unit does hpcask report for the gtx 980 fan speed".split())
    assert q == "what is the gtx 980 fan speed".split() and frame[:2] == ["which", "unit"], q
    words = "what unit is the dgx2 fan speed".split()
    assert without_unit_asked(words) == (words, [])      # no verb of the database's: asked as said


def test_p2p_efficiency_is_the_links(asker):
    res = asker.ask("what is the p two p efficiency of the d g x one v one hundred")
    assert res.intent == "link_efficiency" and "nominal" in res.answer, (res.intent, res.answer)


def test_a_stated_message_size(asker, built_con):
    res = asker.ask("xmp-64 msg size")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "msg_size", (res.intent, res.slots)
    want = _values(built_con, _ROWS + "m.metric = ?", ["xmp64", "msg_size"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_a_described_machine_compared_with_a_named_one(asker):
    res = asker.ask("compare the JointBERT text-query latency of Client-2 and the OSU cluster")
    assert res.intent == "compare_systems", (res.intent, res.answer)
    assert {res.slots.get("system"), *res.slots.get("compare_with", [])} == {"ri2", "heycai_client2"}, res.slots


def test_other_tiles_loading_the_links(asker):
    res = asker.ask("how does the bandwidth from i p u five to i p u four change when the other tiles saturate the "
                    "links")
    assert res.intent == "congestion" and res.slots.get("condition") == "under_load", (res.intent, res.slots)


def test_a_switch_said_off_after_its_name(asker):
    res = asker.ask("with congestion control off how bad is the lammps slowdown on the in house cluster")
    assert res.intent == "congestion" and res.slots.get("condition") == "cc_off", (res.intent, res.slots)
