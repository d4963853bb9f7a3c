"""Ways of asking that the reader once read wrong (session 63, from the fifty-fourth set's misses, each tested with
other words): a GPU written with its number and taken back ("GPU0, sorry, GPU1"), and a pair said again whole
("gpu1 to gpu2 sorry gpu1 to gpu3"); "which GPUs does GPU0 reach over NVLink1" the graph around it; a chip's links
those of its cores; "both A and B", "keep up with" the comparison; a machine's weight refused; "big enough ... to
peak" the curve over sizes, "enough GPUs to flatten" the curve over counts, "enough to fill NVLink2" the link's
efficiency; a fact the asker knows said first ("I know ...; what ...") left out, its machine kept; two lists paired
"respectively" no copy between the GPUs named. Real model, real built database."""
from conftest import stored_values as _values

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_a_gpu_taken_back(asker, built_con):
    res = asker.ask("What FP32 MaxFlops does GPU1, sorry, GPU0 of Yme reach?")
    assert res.slots.get("src") == "gpu0" and "dst" not in res.slots, res.slots
    want = _values(built_con, _ROWS + "m.operation = ? AND m.src = ?", ["ac922_yme", "maxspflops", "gpu0"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("yme tartan nvlink uni bandwidth gpu1 to gpu2 sorry gpu1 to gpu3")
    assert (res.slots.get("src"), res.slots.get("dst")) == ("gpu1", "gpu3"), res.slots


def test_which_gpus_one_gpu_reaches_over_a_link(asker):
    res = asker.ask("Which GPUs does GPU3 of the DGX-1 V100 reach over NVLink2?")
    assert res.intent == "topology" and res.slots.get("src") == "gpu3", (res.intent, res.slots)


def test_a_chips_links_are_its_cores(asker):
    res = asker.ask("xmp-64 xlinks from chip3")
    assert res.intent == "topology" and "XLink" in res.answer, (res.intent, res.answer)


def test_both_machines_and_keeping_up(asker):
    for q in ("What FP32 MaxFlops do both Yme and the DGX-2 reach on GPU0?",
              "Does Mini Summit reach enough FP64 MaxFlops on GPU0 to keep up with Yme?"):
        res = asker.ask(q)
        assert res.intent == "compare_systems", (q, res.intent, res.slots)
    assert asker.ask("how much does the titan rtx desktop weigh").intent == "out_of_scope"


def test_enough_to_peak_flatten_or_fill(asker):
    res = asker.ask("is one gigabyte a big enough message for the yme scope allreduce bandwidth on two g p us to peak")
    assert res.intent == "size_sweep", (res.intent, res.slots)
    res = asker.ask("lassen resnet218v2 speedup enough gpus to flatten")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)
    res = asker.ask("yme tartan nvlink p2p bandwidth enough to fill nvlink2")
    assert res.intent == "link_efficiency", (res.intent, res.slots)


def test_a_known_fact_said_first(asker):
    res = asker.ask("I know the DGX-2 links GPU2 and GPU5 through NVSwitches; what unidirectional bandwidth does GPU1 "
                    "reach to GPU0 with P2P enabled in the cuda-samples test?")
    assert res.slots.get("system") == "dgx2" and (res.slots.get("src"), res.slots.get("dst")) == ("gpu1", "gpu0"), \
        res.slots


def test_pairs_said_respectively(asker):
    res = asker.ask("What FP32 MaxFlops do Yme and the DGX-2 reach on GPU2 and GPU7, respectively?")
    assert res.intent == "compare_systems" and not res.slots.get("dst"), (res.intent, res.slots)


def test_what_the_speech_model_mishears_is_not_refused(asker):
    # "wait for each other" heard as "weight for each other", "Tartan" heard as "Titan" beside the DGX-2
    res = asker.ask("how long do rank 0 and rank 1 of the short H200 trace weight for each other")
    assert res.intent == "trace_breakdown", (res.intent, res.slots)
    res = asker.ask("what one-way Titan NVLink mode bandwidth does the DGX-2 reach from GPU 1 to GPU 4?")
    assert res.intent == "metric_lookup" and res.rows and res.rows[0]["system_id"] == "dgx2", (res.intent, res.answer)


def test_gpus_reached_over_bonded_links(asker):
    res = asker.ask("which GPUs does GPU5 of the DGX-1 V100 reach over bonded NVLink2 links?")
    assert res.intent == "topology" and res.slots.get("src") == "gpu5", (res.intent, res.slots)
