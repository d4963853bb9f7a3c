"""Ways of asking that the reader once read wrong (session 61, from the forty-fourth set's misses, each tested with
other words): "stay low for small transfers" is the curve over sizes ("the latency for small messages" a value);
"between which GPUs ... lowest" the one pair at the extreme; "runtime reduction" the stored cut of the time, no
reduction collective; "how many times higher" a multiple, no time; "the lowdown on how the GPUs reach the
NVSwitches" the graph, no slowdown; "azure apps in db" the machine's inventory; "delete every run of ..." refused;
"what percent of the p c i e three rate" the link's efficiency. Real model, real built database."""
from conftest import stored_values as _values


def test_small_transfers_are_a_curve(asker):
    for q in ("Does the GTX 980's pinned device-to-host bandwidth stay awfully low for small transfers?",
              "Does Yme's pageable host-to-device bandwidth remain pretty weak for small copies?"):
        res = asker.ask(q)
        assert res.intent == "size_sweep", (q, res.intent, res.slots)
    # (a value at the small end is looked up, no curve)
    res = asker.ask("What is the Yme GPU-to-GPU latency for small messages?")
    assert res.intent == "metric_lookup", (res.intent, res.slots)


def test_between_which_gpus_is_a_pair_at_the_extreme(asker, built_con):
    res = asker.ask("Between which GPUs of Yme is the Tartan PCIe-mode unidirectional P2P bandwidth highest?")
    assert res.intent == "metric_lookup" and res.slots.get("aggregate") == "max", (res.intent, res.slots)
    assert res.rows and res.rows[0].get("src") != res.rows[0].get("dst"), res.answer


def test_a_runtime_reduction_is_the_stored_cut(asker, built_con):
    res = asker.ask("How big a runtime reduction does ExaHyPE 2 bring to CCZ4 on Hamilton 8?")
    assert res.slots.get("metric") == "time_reduction" and res.slots.get("operation") != "reduction", res.slots
    want = _values(built_con, "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                   "r.system_id = ? AND m.metric = ?", ["hamilton8", "time_reduction"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_how_many_times_is_a_multiple(asker):
    res = asker.ask("How many times greater is the pinned host-to-device bandwidth of Yme than of the GTX 980 at 1 GiB?")
    assert res.intent == "compare_systems" and res.slots.get("metric") == "bandwidth", (res.intent, res.slots)


def test_the_lowdown_is_no_slowdown(asker):
    res = asker.ask("Give me the lowdown on how the GPUs of the DGX-1 V100 reach the PCIe switches.")
    assert res.intent == "topology" and res.slots.get("metric") != "slowdown", (res.intent, res.slots)


def test_apps_in_the_database(asker):
    res = asker.ask("lassen apps in db")
    assert res.intent == "list_data" and res.slots.get("system") == "lassen", (res.intent, res.slots)


def test_deleting_a_run_is_refused(asker):
    res = asker.ask("delete every run of the titan rtx from the database")
    assert res.intent == "out_of_scope", (res.intent, res.slots)


def test_a_share_of_a_spelled_link(asker):
    res = asker.ask("what percent of the p c i e three rate does the g t x nine eighty reach for device to host copies")
    assert res.intent == "link_efficiency" and res.slots.get("link_type") == "PCIe3", (res.intent, res.slots)
