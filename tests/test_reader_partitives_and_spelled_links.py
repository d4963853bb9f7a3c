"""Ways of asking that the reader once read wrong (session 67, from the sixty-third set's misses, each tested with
other words): one item picked out of a set with "which of the ..." ("which of the GPU pairs on the DGX-2 ...") read
as "which GPU pair" (the one at the extreme); the count picked that way keeps the measure named beside it; a link
spelled out letter by letter ("i p u link efficiency") kept as the link; "what time does X record" a measured time;
energy by the hour, firmware and desk hardware refused; a GPU the speech model writes as "PtoP" ("PtoP 1 of Yme",
"vs PtoP count"). Real model, real built database."""
from nlu.framing import without_partitive
from nlu.tokens import tokenize


def _said(text: str) -> str:
    return " ".join(without_partitive([t.text for t in tokenize(text)]))


def test_one_item_picked_out_of_a_set_is_said_plainly():
    assert _said("which of the GPU pairs of Yme shows the lowest latency") == "which GPU pair of Yme shows the lowest latency"
    assert _said("whcih of the message sizes gives the peak busbw") == "whcih message size gives the peak busbw"
    for text in ("which of the two is faster",          # machines named before: no set to pick from
                 "which of the DGX-2 and Yme has more GPUs",
                 "which of these is quicker"):
        assert _said(text) == " ".join(t.text for t in tokenize(text)), text


def test_the_pair_picked_out_is_the_one_at_the_extreme(asker):
    res = asker.ask("Which of the GPU pairs on the DGX-2 shows the lowest cuda-samples P2P-disabled latency?")
    assert res.intent == "metric_lookup" and res.rows, (res.intent, res.answer)
    assert res.slots.get("aggregate") == "min", res.slots


def test_the_count_picked_out_keeps_its_measure(asker):
    res = asker.ask("which of the tile counts gives the highest ipu system gather bandwidth")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "tiles", (res.intent, res.slots)
    assert res.slots.get("metric") == "bandwidth" and res.rows, (res.slots, res.answer)


def test_a_link_spelled_letter_by_letter_is_kept(asker):
    res = asker.ask("what i p u link efficiency does the ipu system reach for unidirectional p two p")
    assert res.intent == "link_efficiency" and res.slots.get("link_type") == "IPU-Link", (res.intent, res.slots)
    assert res.rows, res.answer


def test_what_time_a_run_records_is_a_time(asker):
    res = asker.ask("what time does the h two hundred pair record for an out of place all gather of one megabyte on "
                    "two g p us")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "time", (res.intent, res.slots)
    assert res.rows and res.rows[0]["unit"] == "us", res.answer


def test_energy_firmware_and_desk_hardware_are_refused(asker):
    for text in ("How much electricity does a day of NCCL traffic on the H200 pair use?",
                 "which firmware version runs on Yme's GPUs",
                 "what mouse comes with the titan rtx desktop",
                 "which keybaord does the gtx 980 desktop have"):      # sic
        res = asker.ask(text)
        assert res.intent == "out_of_scope", (text, res.intent, res.answer)


def test_a_gpu_heard_as_ptop(asker):
    res = asker.ask("what FP64 MaxFlops does PtoP 2 of Yme deliver")
    assert res.intent == "metric_lookup" and res.slots.get("src") == "gpu2", (res.intent, res.slots)
    res = asker.ask("mini summit fp32 maxflops vs PtoP count")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)
