"""Ways of asking that the reader once read wrong (session 63, from the fifty-first set's misses, each tested with
other words): a stored measure asked "at the moment" answered (a machine's live state still refused); "how much
does Hy-Fi improve ..." the improvement stored, not the speedup; a machine's admins refused; an unknown accelerator
named as an example ("an AMD GPU, say an MI250X") set beside a known machine refused; "GPUs that reach one another
over ... NVLink2 links" the graph; "the NVLink2 mesh" no operation named mesh; "all sender and receiver GPUs" the grid;
"idle bandwidth" the congestion-free figure; "across the whole GPU range" the curve; "how wel do ... NVLink2
bricks use their 75 GB/s on GPU-to-GPU copies" the link's efficiency. Real model, real built database."""
from conftest import stored_values as _values

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_a_stored_measure_asked_at_the_moment(asker, built_con):
    res = asker.ask("What MD5Hash throughput does the GTX 980 desktop reach at the moment?")
    assert res.intent == "metric_lookup" and res.slots.get("operation") == "md5hash", (res.intent, res.slots)
    want = _values(built_con, _ROWS + "m.operation = ?", ["gtx980", "md5hash"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    assert asker.ask("is the h200 pair busy at the moment").intent == "out_of_scope"


def test_how_much_a_library_improves_a_run(asker, built_con):
    res = asker.ask("how much did Hy-Fi improve the 8-GPU ResNet-218v2 training run on Lassen")
    assert res.slots.get("metric") == "improvement", res.slots
    want = _values(built_con, _ROWS + "m.metric = ? AND m.count = ?", ["lassen", "improvement", 8])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_admins_and_unknown_accelerators_are_refused(asker):
    for q in ("do the admins of the dgx-2 and the h200 pair talk to each other",
              "How does an AMD GPU, say an MI250X, do on p2p bandwidth next to the DGX-2?"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_gpus_that_reach_each_other_over_links(asker):
    res = asker.ask("Which GPUs of the DGX-1 V100 reach one another over double NVLink2 links?")
    assert res.intent == "topology", (res.intent, res.slots)


def test_a_links_mesh_is_no_operation(asker):
    res = asker.ask("How close does the whole NVLink1 mesh of the DGX-1 P100 get to its nominal rate?")
    assert res.intent == "link_efficiency" and res.slots.get("operation") != "mesh", (res.intent, res.slots)


def test_every_sender_against_every_receiver_is_the_grid(asker):
    res = asker.ask("yme tartan nvlink latency all sender and receiver gpus")
    assert res.intent == "pair_matrix", (res.intent, res.slots)


def test_idle_bandwidth_is_the_congestion_free_figure(asker, built_con):
    res = asker.ask("What idle latency does the IPU system show from IPU5 to IPU4?")
    assert res.slots.get("condition") == "congestion_free", res.slots
    want = _values(built_con, _ROWS + "m.metric = ? AND m.condition = ? AND m.src = ? AND m.dst = ?",
                   ["ipu16", "latency", "congestion_free", "ipu5", "ipu4"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_across_the_whole_gpu_range_is_a_curve(asker):
    res = asker.ask("yme qtc time across the entire gpu range")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)


def test_how_well_links_use_their_rate_on_one_kind_of_copy(asker):
    res = asker.ask("How wel do the DGX-1 V100's NVLink2 links use their 25 GB/s on GPU-to-GPU copies?")
    assert res.intent == "link_efficiency", (res.intent, res.slots)
