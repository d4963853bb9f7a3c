"""Ways of asking that the reader once read wrong (session 69, from the seventieth set's misses, each tested with
other words): a load named "amid" ("amid load") is the loaded condition; a value asked of the loaded
condition at a tile count ("what latency does the ipu system show under load at 9728 tiles") is looked up at that
count, not set against a congestion experiment run at another; "bandwidth share" is the share kept; congestion impact
"with background traffic" on a machine that stores congestion control on and off, not a load, carries no load; a
trace's "memory time" is the time of its memory operations, not a memory size it never holds; power distribution
units are refused. A run's settings are listed in one order, and an answer says a stored condition in words
("P2P enabled", not p2p_on). Real model, real built database."""


def test_amid_load_is_the_loaded_condition(asker):
    res = asker.ask("ipu5 to ipu4 bandwidth amid load")
    assert res.slots.get("condition") == "under_load", res.slots
    assert res.rows and all(r.get("condition") == "under_load" for r in res.rows), res.answer


def test_a_loaded_value_at_a_tile_count_is_looked_up_there(asker):
    res = asker.ask("what latency does the ipu system show under load at 9728 tiles")
    assert res.intent == "metric_lookup", (res.intent, res.answer)
    assert res.rows and all(r.get("count") == 9728 and r.get("condition") == "under_load" for r in res.rows), res.rows
    # the terse form names the congestion experiment, as the sets label it
    res = asker.ask("ipu p2p latency under load 9728 tiles")
    assert res.intent == "congestion", (res.intent, res.answer)


def test_a_bandwidth_share_under_load_is_the_share_kept(asker):
    res = asker.ask("ipu p2p bandwidth share under load at 19456 tiles")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "share", (res.intent, res.slots)
    assert res.rows and {r.get("unit") for r in res.rows} == {"%"}, res.rows


def test_congestion_impact_amid_traffic_carries_no_load(asker):
    res = asker.ask("congestion impact of lammps on the in house cluster with background traffic")
    assert res.intent == "congestion" and "condition" not in res.slots, (res.intent, res.slots)
    assert "no congestion-free vs under-load" not in res.answer, res.answer


def test_memory_time_in_a_trace_is_the_memory_part(asker):
    res = asker.ask("memory time on rank 1 of the h200 pair trace")
    assert res.intent == "trace_breakdown", (res.intent, res.answer)
    assert "memory copies" in res.answer, res.answer


def test_power_distribution_units_are_refused(asker):
    for q in ("who makes the power distribution units of the dgx2", "which pdu feeds yme"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_settings_are_listed_in_one_order(asker):
    # the measurements' settings of a run come back from an aggregate whose order DuckDB does not fix; the answer
    # lists them sorted, so the same question reads the same every time
    res = asker.ask("which shoc settings were used on the dgx2")
    assert "numa_node 0, 1 (per measurement)" in res.answer, res.answer
    res = asker.ask("ipu16 tools and versions")
    assert "precision_as_printed Mixed (FP16.32), Single (FP32)" in res.answer, res.answer


def test_answers_say_conditions_in_words(asker):
    # the stored ids (p2p_on, in_place, under_load) are for filters and tables; a sentence says them in words
    res = asker.ask("dgx-1 v100 p2p bandwidth from gpu0 to gpu1 with p2p enabled")
    assert res.rows and res.rows[0].get("condition") == "p2p_on" and "P2P enabled" in res.answer, res.answer
    assert "p2p_on" not in res.answer, res.answer
    res = asker.ask("h200 allreduce busbw at 1GB in place")
    assert "in-place" in res.answer and "in_place" not in res.answer, res.answer
