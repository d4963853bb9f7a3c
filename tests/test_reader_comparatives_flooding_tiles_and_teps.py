"""Ways of asking that the reader once read wrong (session 62, from the forty-fifth set's misses, each tested with
other words): a comparative with the measure between it and "than" sets two machines side by side; GPUs that "talk
to each other over NVLink2 links" are the graph; "traces in the db" the inventory; tiles that send at once, or
flood the links, are the load on a pair (congestion, or the value under load); "when messages grow" the curve over
sizes; links set against "the link peak" the link's efficiency; a driver "at the next upgrade" and an ssh session
refused; a time that "drops as the GPU count rises" the time's curve, no stored cut; "all-reduce time" no time
reduction; "TEPS" and "traversed edges per second" BFS's rate in edges, no temperature. Real model, real built
database."""
from conftest import stored_values as _values


def test_a_comparative_with_the_measure_before_than(asker):
    res = asker.ask("Does the DGX-2 have a lower Tartan P2P-enabled latency from GPU0 to GPU1 than Yme?")
    assert res.intent == "compare_systems" and res.slots.get("compare_with") == ["ac922_yme"], (res.intent, res.slots)


def test_gpus_that_talk_over_links_are_the_graph(asker):
    res = asker.ask("The GPUs of the DGX-1 V100 talk to each other over NVLink2 links?")
    assert res.intent == "topology" and res.slots.get("link_type") == "NVLink2", (res.intent, res.slots)


def test_traces_in_the_database_are_the_inventory(asker):
    res = asker.ask("The H200 pair has PyTorch traces in the db?")
    assert res.intent == "list_data", (res.intent, res.slots)


def test_tiles_sending_at_once_are_the_load(asker):
    for q in ("is it true that the more tiles transmit together the longer the i p u five to i p u six latency",
              "While the other tiles flood the links, how much does the IPU5-to-IPU4 bandwidth drop?"):
        res = asker.ask(q)
        assert res.intent == "congestion" and res.slots.get("src") == "ipu5", (q, res.intent, res.slots)


def test_a_value_while_the_tiles_flood_is_under_load(asker, built_con):
    res = asker.ask("What is the IPU5-to-IPU4 latency while the other tiles flood the links?")
    assert res.intent == "metric_lookup" and res.slots.get("condition") == "under_load", (res.intent, res.slots)
    want = _values(built_con, "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                   "r.system_id = ? AND m.metric = ? AND m.src = ? AND m.dst = ? AND m.condition = ?",
                   ["ipu16", "latency", "ipu5", "ipu4", "under_load"])
    assert want and res.rows and res.rows[0]["value"] in want, res.answer


def test_when_messages_grow_is_the_curve_over_sizes(asker):
    res = asker.ask("when messages grow: yme scope pinned h2d time")
    assert res.intent == "size_sweep" and res.slots.get("system") == "ac922_yme", (res.intent, res.slots)


def test_links_against_the_link_peak_are_the_efficiency(asker):
    res = asker.ask("Is it the case that the more NVLink2 links join a GPU pair of Yme, the closer its P2P "
                    "bandwidth comes to the link peak?")
    assert res.intent == "link_efficiency", (res.intent, res.slots)


def test_a_future_upgrade_and_a_shell_are_refused(asker):
    for q in ("What CUDA version will Yme run at the next upgrade?", "ssh session to the dgx2 host"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_a_time_that_drops_along_the_curve(asker):
    res = asker.ask("How does Yme's QTC kernel time drop as the GPU count rises?")
    assert res.intent == "scaling" and res.slots.get("metric") == "time", (res.intent, res.slots)
    res = asker.ask("How does all-reduce time on Lassen scale with the GPU count?")
    assert res.slots.get("metric") != "time_reduction", res.slots


def test_teps_is_bfs_rate_in_edges(asker, built_con):
    want = _values(built_con, "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                   "r.system_id = ? AND m.operation = ? AND m.metric = ?", ["dgx2", "bfs_teps", "throughput"])
    res = asker.ask("dgx2 bfs teps")
    assert res.slots.get("operation") == "bfs_teps" and res.slots.get("metric") == "throughput", res.slots
    assert want and res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("How many traversed edges per second does BFS reach on Yme?")
    assert res.slots.get("operation") == "bfs_teps", res.slots
