"""Ways of asking that the reader once read wrong (session 66, from the sixtieth set's misses, each tested with other
words): a value held fixed ("with the GPU count fixed at 2", "keeping the message size at 1 GiB") read as if said
plainly, not as a measure called "count" or a size of 2 bytes; where a data set's files come from (the inventory);
a curve over sizes named by an adjective ("grow for big transfers"); a stored figure named by one trailing word
("... bandwidth theoretical"), never where a measurement is set against it; a power bill refused. Real model, real
built database."""
from nlu.framing import without_held_fixed
from nlu.tokens import tokenize


def _held(text: str) -> tuple[str, str]:
    words, held = without_held_fixed([t.text for t in tokenize(text)])
    return " ".join(words), " ".join(held)


def test_the_held_phrase_is_said_plainly_at_the_end():
    assert _held("With the GPU count held at 4, how does X change with message size?") == (
        "how does X change with message size on 4 gpus ?", "With the GPU count held at 4 ,")
    assert _held("keeping the buffer size at 8 MiB how does X scale with the number of gpus")[0] == \
        "how does X scale with the number of gpus at 8 MiB"
    assert _held("holding the number of tiles at six hundred how does load change X")[0] == \
        "how does load change X on six hundred tiles"


def test_axes_and_unheld_settings_are_left_as_said():
    for text in ("How does the time grow with buffer size at 8 GPUs?",       # the axis, then a count
                 "dgx2 reduce time scaling with gpu count at one megabyte",    # the axis, then a size
                 "How does the bandwidth vary with message size at 1216 tiles?",
                 "keeping the rack fixed, what does the DGX-2 draw?",          # held with no value
                 "with 2 gpus what is the busbw"):
        assert _held(text) == (" ".join(t.text for t in tokenize(text)), ""), text


def test_a_held_value_is_a_slot_not_a_measure(asker, built_con):
    res = asker.ask("With the GPU count fixed at 2, how does the out-of-place reduce-scatter busbw of the H200 pair "
                    "change with message size?")
    assert res.intent == "size_sweep", (res.intent, res.slots)
    assert (res.slots.get("count"), res.slots.get("count_kind"), res.slots.get("metric")) == (2, "gpus", "busbw")
    res = asker.ask("with the message size held at 4 MiB and the gpu count at 2 what in-place all-gather busbw does "
                    "the h200 pair reach")
    assert res.intent == "metric_lookup" and res.rows, (res.intent, res.answer)
    assert (res.slots.get("msg_bytes"), res.slots.get("count")) == (4 * 2 ** 20, 2), res.slots
    (want,) = built_con.execute(
        "SELECT DISTINCT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? AND condition = ?"
        " AND msg_bytes = ? AND count = ?", ["h200x2", "allgather", "busbw", "in_place", 4 * 2 ** 20, 2]).fetchall()
    assert abs(res.rows[0]["value"] - want[0]) < 0.01


def test_where_a_data_sets_files_come_from(asker):
    res = asker.ask("What is the origin of the H200 pair's profiler trace files?")
    assert res.intent == "list_data", (res.intent, res.answer)


def test_a_curve_over_sizes_named_by_an_adjective(asker):
    res = asker.ask("How does the pinned host-to-device bandwidth of the GTX 980 desktop change for large transfers?")
    assert res.intent == "size_sweep" and "msg_bytes" not in res.slots, (res.intent, res.slots)


def test_a_stored_figure_named_by_a_trailing_word(asker):
    res = asker.ask("ipu local memory write bandwidth theoretical")
    assert res.intent == "metric_lookup" and res.slots.get("condition") == "theoretical", (res.intent, res.slots)
    res = asker.ask("How close does the DGX-2's NVLink P2P bandwidth get to nominal?")
    assert res.slots.get("condition") != "nominal", res.slots      # the figure it is set against


def test_a_power_bill_is_refused(asker):
    res = asker.ask("What is the weekly power bill of the Titan RTX desktop?")
    assert res.intent == "out_of_scope", (res.intent, res.answer)
    res = asker.ask("What power does the DGX-2 draw?")
    assert res.intent == "metric_lookup", (res.intent, res.answer)
