"""Ways of asking that the reader once read wrong (session 67, from the sixty-fourth set's misses, each tested with
other words): values listed and left open ("at 8 KiB, 16 KiB, 32 KiB and so on", "1 gpu 2 gpus etc") read as the
curve over sizes or counts; two question words in one clause ("which GPU pair shows what latency", "which GPU count
gives what flops") read as every pair or count with its value; a fee, a video call and a machine's compilers
refused, while a stored "compiler instrumentation" condition is still read. Real model, real built database."""
from nlu.framing import without_open_list
from nlu.tokens import tokenize


def _said(text: str) -> str:
    return " ".join(without_open_list([t.text for t in tokenize(text)]))


def test_a_list_left_open_is_the_whole_run():
    assert _said("busbw at 1 MiB , 2 MiB , 4 MiB etc on 2 GPUs") == "busbw across message sizes on 2 GPUs"
    assert _said("flops 1 gpu 2 gpus and so on") == "flops across gpu counts"
    for text in ("gcc , clang and so on",       # no numbers listed
                 "busbw at 1 MiB etc",          # one value: nothing to run over
                 "1 MiB on 2 gpus and so on"):  # a size and a count: no one axis
        assert _said(text) == " ".join(t.text for t in tokenize(text)), text


def test_open_lists_of_sizes_and_counts(asker):
    res = asker.ask("what algbw does the h200 pair give for out of place all-gather at 8 KiB, 16 KiB, 32 KiB and so "
                    "on with 2 gpus")
    assert res.intent == "size_sweep" and not res.slots.get("msg_bytes"), (res.intent, res.slots)
    assert res.rows, res.answer
    res = asker.ask("mini summit stencil2d fp64 flops 1 gpu 2 gpus etc")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)


def test_which_pair_with_what_value_is_the_grid(asker):
    res = asker.ask("Which GPU pair shows what Tartan P2P-disabled latency on the DGX-2?")
    assert res.intent == "pair_matrix" and not res.slots.get("aggregate"), (res.intent, res.slots)
    assert res.rows, res.answer


def test_which_count_with_what_value_is_the_curve(asker):
    res = asker.ask("which gpu count gives what stencil2d fp32 flops on yme")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)
    assert res.slots.get("metric") == "flops" and res.rows, (res.slots, res.answer)


def test_fees_calls_and_compilers_are_refused(asker):
    for text in ("What yearly fee does LLNL charge for a Lassen node?",
                 "what latency does the DGX-2 add to a video call",
                 "which compilers does the DGX-2 ship with"):
        res = asker.ask(text)
        assert res.intent == "out_of_scope", (text, res.intent, res.answer)
    res = asker.ask("what compiler instrumentation slowdown does lulesh show on the call-graph profiler cluster")
    assert res.intent == "metric_lookup", (res.intent, res.answer)
