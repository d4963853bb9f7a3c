"""Ways of asking that the reader once read wrong (session 68, from the sixty-ninth set's misses and the sixty-eighth
set's spoken misses, each tested with other words): two machines as the subject of one measurement, the first
spelled out ("do the d g x two and yme require"), are compared; a measure that "reacts" or "responds" to load is the
quiet and the loaded case set side by side; fan models and a machine room ("what tracks spaces available and the
lassen machine room", as the speech model heard "rack space") refused (a fan's speed is still a
stored measure); "what if I sincerely does X give", as the speech model writes "efficiency". Real model, real
built database."""


def test_two_machines_as_one_spelled_subject_are_compared(asker):
    res = asker.ask("what time do the d g x two and mini summit need for a scope all reduce of one gigabyte on two "
                    "g p us")
    named = {res.slots.get("system"), *(res.slots.get("compare_with") or [])}
    assert res.intent == "compare_systems" and named == {"dgx2", "ac922_minisummit"}, (res.intent, res.slots)
    assert res.rows, res.answer


def test_a_measure_that_reacts_to_load_is_the_load_pair(asker):
    res = asker.ask("how does the ipu5 to ipu6 latency react to background traffic")
    assert res.intent == "congestion" and not res.slots.get("condition"), (res.intent, res.slots)
    assert res.rows, res.answer


def test_fan_models_and_machine_rooms_are_refused(asker):
    for q in ("what fan brand cools yme", "what tracks spaces available and the lassen machine room"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)
    res = asker.ask("what fan speed does the titan rtx desktop reach")
    assert res.slots.get("metric") == "fan_speed" and res.rows, (res.slots, res.answer)


def test_efficiency_heard_as_if_i_sincerely(asker):
    # as the speech model writes "efficiency" before "does" / "do"
    res = asker.ask("what if I sincerely does gemini give for tarantella on 12 GPUs")
    assert res.slots.get("metric") == "efficiency" and res.intent == "metric_lookup", (res.intent, res.slots)
