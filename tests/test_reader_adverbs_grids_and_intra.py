"""Ways of asking that the reader once read wrong (session 69, from the seventy-second set's misses, each tested with
other words): the direction said as an adverb ("bidirectionally", "unidirectionally"); a grid asked of the loaded
condition at a tile count is the grid at that count, not the congestion experiment run at another; a measure that
"shrinks / drops with GPU count" is the curve over counts ("GPU count" names the axis, no count measured); "intra-GPU"
bandwidth is a device's copy to itself; coolant pumps and chillers are refused. Real model, real built database."""


def test_a_direction_said_as_an_adverb(asker):
    res = asker.ask("what p2p bandwidth does the dgx2 give bidirectionally from gpu1 to gpu5 at 64 MiB in scope")
    assert res.slots.get("direction") == "bi", res.slots
    assert res.rows and all(r.get("direction") == "bi" for r in res.rows), res.answer
    res = asker.ask("yme p2p bandwidth gpu0 to gpu2 unidirectionally in tartan nvlink mode")
    assert res.slots.get("direction") == "uni", res.slots


def test_a_loaded_grid_at_a_tile_count(asker):
    res = asker.ask("ipu system unidirectional bandwidth matrix under load at 4864 tiles")
    assert res.intent == "pair_matrix", (res.intent, res.answer)
    assert res.rows and all(r.get("condition") == "under_load" for r in res.rows), res.rows[:2]


def test_a_measure_that_shrinks_with_the_count_is_the_curve(asker):
    res = asker.ask("how does the s3d kernel time of the dgx2 shrink with gpu count")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)
    assert res.slots.get("metric") != "count", res.slots


def test_intra_gpu_bandwidth_is_a_copy_to_itself(asker):
    res = asker.ask("intra-gpu bandwidth of gpu0 on the h200 pair with p2p enabled")
    assert (res.slots.get("src"), res.slots.get("dst")) == ("gpu0", "gpu0"), res.slots
    assert res.rows and all(r.get("src") == r.get("dst") == "gpu0" for r in res.rows), res.answer


def test_cooling_hardware_is_refused(asker):
    for q in ("which coolant pump does frontera liquid use", "what chiller model cools the dgx2 room"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)
