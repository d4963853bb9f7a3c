"""Ways of asking that the reader once read wrong (session 70, from the seventy-third set's misses, each tested with
other words): time qualified as "wall-clock" / "wallclock" is the elapsed time, not the clock rate (which a trace
"holds no" of, and which no scaling series is stored for); two machines as one subject of "does ... give" (the plural
verb as a speech model writes it) are compared, as "do ... give" is; who makes a part and a vendor's delivery time are
refused. Real model, real built database."""


def test_wall_clock_time_is_elapsed_time(asker):
    res = asker.ask("does the wall-clock deepbench all-reduce time of the dgx2 grow with gpu count")
    assert res.intent == "scaling" and res.slots.get("metric") == "time", (res.intent, res.slots)
    assert res.rows and all(r.get("metric") == "time" for r in res.rows), res.answer
    res = asker.ask("what is the wallclock qtc time on yme with 4 gpus")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "time", (res.intent, res.slots)


def test_wall_clock_share_of_a_trace(asker):
    res = asker.ask("what fraction of wall-clock time is idle on rank 0 of the h200 pair trace")
    assert res.intent == "trace_breakdown", (res.intent, res.answer)
    assert res.slots.get("metric") != "clock", res.slots


def test_two_machines_as_the_subject_of_does(asker):
    res = asker.ask("what h2d bandwidth does the dgx2 and yme reach at 64 MB")
    assert res.intent == "compare_systems", (res.intent, res.slots)
    assert {r.get("system_id") for r in res.rows} >= {"dgx2", "ac922_yme"}, res.rows[:3]


def test_suppliers_and_delivery_times_are_refused(asker):
    for q in ("who manufactures the memory chips on the gpus of the dgx-1 v100",
              "what is the lead time on a new ipu system", "how long is delivery of another h200 node"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)
