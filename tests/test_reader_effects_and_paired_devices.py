"""Ways of asking that the reader once read wrong (session 67, from the sixty-second set's misses, each tested with
other words): two devices under one plural noun ("GPUs 1 and 3", spoken "g p us four and seven") read as the two
ends of a path, not a count; the GPU or tile count named as what changes a measure ("what impact does the GPU count
have on ...", "how many tile counts does ... span") read as the scaling curve; "idle P2P latency" as the quiet case;
load that raises a measure as both sides of the load pair; a VPN's latency and a cable's length refused; a kind of
link's efficiency read as the link efficiency; a trace the speech model writes as "traffic". Real model, real built
database."""
from nlu.tokens import tokenize
from nlu.written_forms import paired_devices


def _said(text: str) -> str:
    return " ".join(paired_devices([t.text for t in tokenize(text)]))


def test_two_devices_under_one_plural_noun_are_two_ends():
    assert _said("latency between GPUs 1 and 3 on Yme") == "latency between GPU1 and GPU3 on Yme"
    assert _said("path between g p us four and seven") == "path between GPU4 and GPU7"
    assert _said("ipus 2 and 9 bandwidth") == "IPU2 and IPU9 bandwidth"
    for text in ("all-reduce on gpus 1 and 2 MiB",      # a size after the second number: no devices
                 "speedup on 2 and 4 gpus",              # counts said before the noun
                 "which gpus and links"):
        assert _said(text) == " ".join(t.text for t in tokenize(text)), text


def test_a_pair_of_devices_under_one_noun_is_looked_up(asker):
    res = asker.ask("What Tartan bandwidth in NVLink mode runs between GPUs 1 and 3 on Yme?")
    assert res.intent == "metric_lookup" and res.rows, (res.intent, res.answer)
    assert (res.slots.get("src"), res.slots.get("dst")) == ("gpu1", "gpu3"), res.slots
    assert not res.slots.get("count"), res.slots
    res = asker.ask("tartan nvlink mode latency between g p us one and two on the d g x two")
    assert (res.slots.get("src"), res.slots.get("dst")) == ("gpu1", "gpu2"), res.slots


def test_the_count_named_as_what_changes_a_measure(asker):
    res = asker.ask("What impact does the GPU count have on the DGX-2's QTC kernel time?")
    assert res.intent == "scaling" and res.rows, (res.intent, res.answer)
    assert (res.slots.get("count_kind"), res.slots.get("metric")) == ("gpus", "time"), res.slots
    res = asker.ask("how does the tile count affect the broadcast bandwidth of the ipu system")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "tiles", (res.intent, res.slots)
    assert res.slots.get("metric") == "bandwidth", res.slots
    res = asker.ask("how many tile counts does the ipu system's gather bandwidth cover")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "tiles", (res.intent, res.slots)


def test_idle_p2p_is_the_quiet_case(asker):
    res = asker.ask("what idle p2p latency does the ipu system show from ipu5 to ipu6")
    assert res.intent == "metric_lookup" and res.slots.get("condition") == "congestion_free", (res.intent, res.slots)
    assert res.rows, res.answer


def test_load_that_raises_a_measure_sets_both_sides(asker):
    res = asker.ask("by how much does background traffic increase the p2p latency from ipu5 to ipu6 on the ipu system")
    assert res.intent == "congestion" and not res.slots.get("condition"), (res.intent, res.slots)
    assert res.rows, res.answer


def test_a_vpn_and_a_cable_are_refused(asker):
    for text in ("How much latency does the VPN add when I reach the DGX-2?",
                 "how long are the cables between the dgx2 gpus"):
        res = asker.ask(text)
        assert res.intent == "out_of_scope", (text, res.intent, res.answer)


def test_a_kind_of_links_efficiency_is_the_link_efficiency(asker):
    res = asker.ask("what efficiencies does the NVLink 1 of the DGX-1 P100 reach for P2P with P2P enabled")
    assert res.intent == "link_efficiency" and res.rows, (res.intent, res.answer)


def test_a_trace_heard_as_traffic(asker):
    res = asker.ask("how much time does the short h200 traffic spend in compute on rank 1")
    assert res.intent == "trace_breakdown", (res.intent, res.answer)
