"""Ways of asking that the reader once read wrong (session 69, from the seventy-first set's misses, each tested with
other words): "pairwise" after an extreme ("the lowest pairwise latency") is the one pair at that end, looked up;
"pairwise" said of two machines with no grid asked for sets them side by side; "which links join the GPUs" is the
graph, "pairwise" or not; "toward" names the end a copy goes to, as "to" does; a load pair asked of a machine whose
only conditions are of another kind (RI2's text and speech queries) is refused as no congestion pair there, not
answered with the plain value. Heard forms from its spoken misses: "to word" (toward), "thirteen" (Tartan) before its
P2P setting or further from its copy mode, "crit" (grid), "could the samples" (cuda-samples). Real model, real built
database."""
from nlu.pipeline import misheard


def test_an_extreme_pairwise_value_is_the_pair_at_that_end(asker):
    res = asker.ask("what lowest pairwise p2p latency does the dgx2 give with p2p enabled")
    assert res.intent == "metric_lookup" and res.slots.get("aggregate") == "min", (res.intent, res.slots)
    assert res.rows and res.rows[0].get("src") and res.rows[0].get("dst"), res.rows[:1]
    # a grid asked for in so many words stays the grid
    res = asker.ask("highest pairwise p2p bandwidth matrix of yme")
    assert res.intent == "pair_matrix", (res.intent, res.slots)


def test_pairwise_on_two_machines_is_compared(asker):
    res = asker.ask("what pairwise p2p bandwidth do yme and the dgx2 give with p2p enabled")
    named = {res.slots.get("system"), *(res.slots.get("compare_with") or [])}
    assert res.intent == "compare_systems" and named == {"ac922_yme", "dgx2"}, (res.intent, res.slots)


def test_links_that_join_parts_are_the_graph(asker):
    for q in ("which pairwise nvlink2 links join the gpus of the dgx-1 v100", "what links connect the gpus of yme"):
        res = asker.ask(q)
        assert res.intent == "topology", (q, res.intent, res.slots)


def test_toward_names_the_destination(asker):
    res = asker.ask("yme p2p latency from gpu0 toward gpu3 with p2p enabled")
    assert (res.slots.get("src"), res.slots.get("dst")) == ("gpu0", "gpu3"), res.slots
    res = asker.ask("what bandwidth does the dgx-1 v100 give from the host towards the gpus with p2p enabled")
    assert res.slots.get("operation") == "h2d", res.slots
    assert res.rows and all(r.get("operation") == "h2d" for r in res.rows), res.answer


def test_a_load_pair_on_a_machine_without_one_is_refused(asker):
    res = asker.ask("ri2 jointbert speech query latency idle vs under load")
    assert res.intent == "out_of_scope", (res.intent, res.answer)
    assert "no measurements under two congestion conditions" in res.answer, res.answer


def test_heard_forms_of_toward_tartan_and_grid(asker):
    # as the speech model writes them: "toward" heard as "to word", Tartan as "thirteen" before its P2P setting or
    # further from its copy mode, "grid" as "crit", cuda-samples as "could the samples"
    res = asker.ask("which bandwidth does the dgx-1 v100 give from the host to word the gpus with p2p enabled")
    assert res.slots.get("operation") == "h2d", res.slots
    res = asker.ask("what pairwise latency does yme give in thirteen, with p2p disabled at 32 megabytes")
    assert res.rows and {r.get("tool") for r in res.rows} == {"Tartan"}, res.answer
    res = asker.ask("what thirteen bandwidth crit does mini summit give in nvlink mode")
    assert res.intent == "pair_matrix" and res.slots.get("condition") == "nvlink", (res.intent, res.slots)
    res = asker.ask("ipu system latency crit under load on 4864 tiles")
    assert res.intent == "pair_matrix", (res.intent, res.slots)
    heard = "what could the samples p2p latency does yme give from gpu0 to gpu1".split()
    assert misheard(heard, lambda words: True)[1:3] == ["cuda", "samples"]
