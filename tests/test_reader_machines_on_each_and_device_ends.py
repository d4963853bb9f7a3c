"""Ways of asking that the reader once read wrong (session 68, from the sixty-sixth set's misses, each tested with
other words): one measure asked "on X and on Y" compared across the machines; machines "compared" as a count grows
compared on the measure, not drawn as one machine's curve; a GPU that "sees" or "gets" bandwidth "from the host" the
destination of the host-to-device copy, also for the sweep over sizes (which was refused with the GPU as source);
memory errors, power supplies and network cables refused; "which GPUs does GPU3 ... linked over NVLink 1" and
"ri2text" as the speech model writes them. Real model, real built database."""


def test_one_measure_on_each_of_two_machines_is_compared(asker):
    res = asker.ask("what scope pinned h2d bandwidth does gpu0 get at 1 mib on yme and on mini summit")
    named = {res.slots.get("system"), *(res.slots.get("compare_with") or [])}
    assert res.intent == "compare_systems" and named == {"ac922_yme", "ac922_minisummit"}, (res.intent, res.slots)
    assert res.rows, res.answer
    res = asker.ask("what p2p disabled latency does gpu1 see to gpu0 in yme and in mini summit")
    assert res.intent == "compare_systems", (res.intent, res.slots)


def test_machines_compared_as_the_count_grows(asker):
    res = asker.ask("how do mini summit and yme compare on fp64 maxflops as the gpu count grows")
    assert res.intent == "compare_systems", (res.intent, res.slots)
    assert res.slots.get("metric") == "flops" and not res.slots.get("count_kind"), res.slots
    assert res.rows, res.answer
    # no comparison asked: each machine's curve, as before
    res = asker.ask("how do the stencil2d flops of both yme and the dgx-2 grow with more gpus")
    assert res.intent == "scaling", (res.intent, res.slots)


def test_a_gpu_that_sees_bandwidth_from_the_host_receives_it(asker):
    res = asker.ask("what pageable bandwidth does gpu0 of the dgx-2 see from the host across message sizes")
    assert res.intent == "size_sweep" and res.slots.get("operation") == "h2d", (res.intent, res.slots)
    assert res.slots.get("dst") == "gpu0" and res.slots.get("src") in (None, "host"), res.slots
    assert res.rows and not any("no endpoints given" in n for n in res.notes), (res.answer, res.notes)
    res = asker.ask("what pinned bandwidth does gpu1 of yme get from the host at 1 mib")
    assert (res.slots.get("operation"), res.slots.get("dst")) == ("h2d", "gpu1"), res.slots
    assert res.rows, res.answer


def test_faults_power_supplies_and_cables_are_refused(asker):
    for q in ("what ecc errors does gpu3 of yme report", "which power supply feeds the dgx-2",
              "who makes the ethernet cables of the h200 pair"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)
    # a stored prediction error is still read as the measure
    res = asker.ask("mapredict prediction error on sk")
    assert res.slots.get("metric") == "error", res.slots


def test_heard_forms_of_neighbours_and_glued_names(asker):
    # as the speech model writes them: "link to" heard "linked over", the link's number apart; a name run into
    # the next word
    res = asker.ask("which GPUs does gpu 3 of the DGX-1 P100 linked over NVLink 1?")
    assert res.intent == "topology" and res.slots.get("src") == "gpu3", (res.intent, res.slots)
    res = asker.ask("ri2text query latency on gpu0")
    assert res.intent == "metric_lookup" and res.slots.get("system") == "ri2", (res.intent, res.slots)
    assert res.rows, res.answer
