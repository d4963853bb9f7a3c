"""Ways of asking that the reader once read wrong (session 68, from the sixty-eighth set's misses, each tested with
other words): two spelled devices joined by a verb and "to" ("i p u six see to i p u seven") are the copy's ends;
"which gpu pair of X gives the peak ... bandwidth" is the highest value (the words between "of" and "peak" were read
as "of the peak", a link's efficiency) and "the gpu pair with the highest bandwidth" the one pair at that end, not the
grid; a crossover message size is a value, not a curve over sizes, and two machines "vs" each other on it are
compared; UPS units refused; "acount for" repaired to "account for", a share, not the measure "count". Real model,
real built database."""


def test_two_spelled_devices_joined_by_a_verb_and_to(asker):
    res = asker.ask("what bandwidth does i p u six see to i p u seven")
    assert (res.slots.get("src"), res.slots.get("dst")) == ("ipu6", "ipu7"), res.slots
    assert res.rows, res.answer


def test_one_pair_at_an_end_is_looked_up(asker):
    res = asker.ask("which gpu pair of the dgx2 gives the peak tartan pcie-mode bidirectional bandwidth")
    assert res.intent == "metric_lookup" and res.slots.get("aggregate") == "max", (res.intent, res.slots)
    assert res.slots.get("metric") == "bandwidth", res.slots
    res = asker.ask("dgx2 gpu pair with the highest tartan nvlink-mode bandwidth")
    assert res.intent == "metric_lookup" and res.slots.get("aggregate") == "max", (res.intent, res.slots)
    assert res.rows and res.rows[0].get("src") and res.rows[0].get("dst"), res.answer


def test_a_crossover_size_is_a_value(asker):
    res = asker.ask("longhorn vs lassen crossover message size for all-to-all")
    assert res.intent == "compare_systems", (res.intent, res.slots)
    assert res.slots.get("metric") == "crossover_msg_size" and res.rows, (res.slots, res.answer)


def test_ups_units_are_refused(asker):
    res = asker.ask("what ups model sits in the dgx-2 rack")
    assert res.intent == "out_of_scope", (res.intent, res.slots)


def test_account_for_is_a_share(asker):
    res = asker.ask("what share do p2p calls acount for in lammps on the in-house cluster")
    assert res.slots.get("metric") == "share" and res.rows, (res.slots, res.answer)
