"""Ways of asking that the reader once read wrong (session 63, from the fifty-second set's misses, each tested with
other words): a size said as an amount of data ("a megabyte's worth of data", "two gigabytes of data"); a spelled
name's possessive without its apostrophe ("the d g x twos"); "what has <machine> run" its inventory; a mode over a
link the machine lacks ("NVLink-mode bandwidth" on the GTX 980 desktop) refused with the links it has, not answered
with its other copies; the clock of a part said with the memory it drives ("tile-local memory clock") the clock
stored; "best ... message size" asked tersely the one extreme over every size. Real model, real built database."""
from conftest import stored_values as _values

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_a_size_as_an_amount_of_data(asker, built_con):
    res = asker.ask("what pinned h2d bandwidth does yme's gpu0 get with a megabyte's worth of data in scope")
    assert res.slots.get("msg_bytes") == 2**20, res.slots
    res = asker.ask("How does the GTX 980's Scope pageable h2d bandwidth change from a kilobyte's worth of data to "
                    "two gigabytes of data?")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [1024, 2 * 2**30], (res.intent, res.slots)


def test_a_spelled_names_possessive(asker):
    res = asker.ask("show me the d g x twos nvlink topology")
    assert res.intent == "topology" and res.slots.get("system") == "dgx2", (res.intent, res.slots)


def test_what_a_machine_has_run(asker):
    res = asker.ask("what has the titan rtx desktop run")
    assert res.intent == "list_data" and res.slots.get("system") == "titan_rtx", (res.intent, res.slots)


def test_a_mode_over_a_missing_link_is_refused(asker):
    res = asker.ask("What NVLink-mode latency does the GTX 980 desktop show?")
    assert res.intent == "out_of_scope" and "NVLink" in res.answer, (res.intent, res.answer)


def test_a_parts_clock_named_by_its_memory(asker, built_con):
    res = asker.ask("how fast is the clock of the ipu's tile-local memory")
    assert res.slots.get("metric") == "clock", res.slots
    want = _values(built_con, _ROWS + "m.metric = ?", ["ipu16", "clock"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_the_best_size_asked_tersely(asker, built_con):
    res = asker.ask("titan rtx best scope pinned h2d bandwidth message size")
    assert res.intent == "metric_lookup" and res.slots.get("aggregate") == "max", (res.intent, res.slots)
    want = _values(built_con, "SELECT max(m.value) FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                   "r.system_id = ? AND m.operation = ? AND starts_with(m.condition, ?) AND m.app = ? AND m.metric = ?",
                   ["titan_rtx", "h2d", "pinned", "Scope", "bandwidth"])
    assert res.rows and res.rows[0]["value"] == want[0], res.answer
