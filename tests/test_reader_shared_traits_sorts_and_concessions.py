"""Ways of asking that the reader once read wrong (session 61, from the forty-third set's misses, each tested with
other words): machines called by a trait they share ("the NTNU desktops", "the NTNU POWER9 servers", "the TACC
clusters") are the machines it fits that store what is asked; "change with the number of GPUs" is the axis, no count
of parts; an unknown model said with a vendor ("an NVIDIA B300 node") is no loaded machine of that vendor; "winning
message size" and "peak size" are the extreme over every size; an order to change a setting ("Turn tensor cores on
...") is refused; "sort ... by" is an order, not SHOC's Sort; a link granted in a concessive clause ("Although ... has
NVLink connectors, what links ...") is not the one asked; "what parts make up a Gemini node" lists its parts, each
model once with its count; a host-to-device copy into one GPU is set against its link; "hwo" is "how". Real model,
real built database."""
from conftest import stored_values as _values


def _systems(res) -> set:
    return {res.slots.get("system"), *(res.slots.get("compare_with") or [])}


def test_machines_called_by_a_shared_trait(asker):
    res = asker.ask("How do the NTNU desktops stack up on pageable host-to-device bandwidth at 256 MiB?")
    assert res.intent == "compare_systems" and _systems(res) == {"titan_rtx", "gtx980"}, (res.intent, res.slots)
    res = asker.ask("ntnu power9 servers maxflops fp32 compared")
    assert res.intent == "compare_systems" and _systems(res) == {"ac922_yme", "ac922_minisummit"}, \
        (res.intent, res.slots)
    res = asker.ask("Set the TACC clusters side by side on compressed all-to-all crossover size.")
    assert res.intent == "compare_systems" and _systems(res) == {"longhorn", "frontera_liquid"}, \
        (res.intent, res.slots)


def test_the_number_of_gpus_as_the_axis(asker):
    res = asker.ask("how does single precision g e m m performance on the d g x two change with the number of g p us")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)


def test_an_unknown_model_of_a_known_vendor(asker):
    res = asker.ask("What all-gather bus bandwidth would an NVIDIA GB300 node reach?")
    assert res.intent == "out_of_scope" and "no data" in res.answer, (res.intent, res.answer)


def test_the_winning_size(asker, built_con):
    res = asker.ask("h200 out-of-place alltoall busbw 2 gpus: winning message size")
    assert res.intent == "metric_lookup" and res.slots.get("aggregate") == "max", (res.intent, res.slots)
    best = max(_values(built_con, "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                       "r.system_id = ? AND m.metric = ? AND m.operation = ? AND m.condition = ? AND m.count = ?",
                       ["h200x2", "busbw", "alltoall", "out_of_place", 2]))
    assert res.rows and res.rows[0]["value"] == best, res.answer


def test_an_order_to_change_a_setting_is_refused(asker):
    res = asker.ask("Switch peer access off for the Yme copies.")
    assert res.intent == "out_of_scope", (res.intent, res.slots)
    res = asker.ask("yme p2p off bandwidth gpu0 to gpu1")
    assert res.intent != "out_of_scope", (res.intent, res.slots)


def test_sort_by_is_an_order(asker):
    res = asker.ask("sort yme, mini summit and the dgx2 by fp32 max flops from highest to lowest")
    assert res.intent == "compare_systems" and res.slots.get("operation") != "sort", (res.intent, res.slots)
    assert _systems(res) == {"dgx2", "ac922_yme", "ac922_minisummit"}, res.slots
    res = asker.ask("dgx2 shoc sort rate on 2 gpus")
    assert res.slots.get("operation") == "sort", res.slots


def test_a_link_granted_before_the_question(asker):
    res = asker.ask("Although the Titan RTX has an NVLink bridge connector, what kind of link joins its GPU to the CPU?")
    assert res.intent == "topology" and "link_type" not in res.slots, (res.intent, res.slots)


def test_parts_that_make_up_a_node(asker):
    res = asker.ask("What components make up a Chifflet node?")
    assert res.intent == "topology" and res.slots.get("view") == "parts", (res.intent, res.slots)
    assert "2x " in res.answer, res.answer


def test_a_copy_into_one_gpu_set_against_its_link(asker):
    res = asker.ask("What share of the NVLink2 rate does Yme's pinned host-to-device copy into GPU2 reach?")
    assert res.intent == "link_efficiency" and res.slots.get("dst") == "gpu2", (res.intent, res.slots)
    assert res.rows and all(r.get("dst") in (None, "gpu2") for r in res.rows if "dst" in r), res.rows[:3]


def test_short_words_typed_with_two_letters_swapped(asker):
    res = asker.ask("hwo long does the h200 pair take for an in-place all-reduce of 256 MiB on 2 GPUs?")
    assert res.slots.get("metric") == "time", res.slots
