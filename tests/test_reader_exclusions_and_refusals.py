"""Ways of asking that the reader once read wrong (session 65, from the fifty-eighth set's misses, each tested with
other words): an item taken out ("other than GPU0", "except 4 gpus", "besides single-GPU runs") is no value of the
question, and the answer says it is not narrowed by it (a setting with one other side is turned over: "other than
out-of-place" is in-place); a pair's stored slowdown for its own "traffic" is a lookup; a
copy's bandwidth from host to device is measured, not the graph; "what runs come from <tool> on <machine>" lists the
runs with no "Yes:"; "the H200 pair" is a machine, no pair of GPUs; which compiler built the binaries, where a board
physically sits and which software licences a machine holds are refused, typed right or wrong; what the speech model
writes wrong ("Titan NVLink mode" beside another machine: Tartan; "red bandwidth": read; "AMD 5 hash": MD5Hash;
"matrix" of a machine with no pairs stored: its metrics). Real model, real built database."""
from conftest import stored_values as _values

from nlu.framing import without_excluded

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_an_item_taken_out_is_no_value_of_the_question(asker):
    res = asker.ask("what fp32 max flops do the dgx2 gpus other than gpu three reach")
    assert res.intent == "metric_lookup" and "src" not in res.slots, (res.intent, res.slots)
    assert any("not narrowed" in n for n in res.notes) and not any(n.endswith("“”") for n in res.notes), res.notes
    res = asker.ask("dgx2 fft dp flops over gpu counts except 4 gpus")
    assert res.intent == "scaling" and "count" not in res.slots, (res.intent, res.slots)
    res = asker.ask("dgx1 v100 nvlink2 efficiency besides p2p-disabled runs")
    assert res.intent == "link_efficiency" and res.slots.get("condition") != "p2p_off", res.slots
    # a setting with one other side is turned over, not dropped
    res = asker.ask("Other than out-of-place, what all-reduce busbw does the H200 pair reach at 64 MiB?")
    assert res.slots.get("condition") == "in_place", res.slots
    res = asker.ask("Apart from sizes under 1 MiB, how does the Titan RTX desktop's pinned Scope host-to-device "
                    "bandwidth grow with message size?")
    assert res.intent == "size_sweep" and "msg_bytes" not in res.slots, (res.intent, res.slots)


def test_an_excluded_machine_is_left_to_the_system_reader():
    words = "which systems other than the DGX-2 have sort rows".split()

    def cands(ws):
        return [(3, 5, {"system": "dgx2"})] if ws[3:5] == ["the", "DGX-2"] else []
    assert without_excluded(words, cands) == (words, [])


def test_a_pairs_slowdown_for_its_own_traffic_is_looked_up(asker, built_con):
    res = asker.ask("How much slowdown does bidirectional traffic from GPU0 to GPU1 suffer on the DGX-1 V100 at "
                    "10 MiB with P2P disabled?")
    assert res.intent == "metric_lookup", (res.intent, res.slots)
    want = _values(built_con, _ROWS + "m.metric = ? AND m.src = ? AND m.dst = ? AND m.msg_bytes = ?",
                   ["dgx1_v100", "slowdown", "gpu0", "gpu1", 10485760])
    assert want and res.rows and res.rows[0]["value"] in want, res.answer


def test_a_copy_from_host_to_device_is_measured(asker, built_con):
    res = asker.ask("dgx1 p100 bandwidth host to device")
    assert res.intent == "metric_lookup" and res.slots.get("operation") == "h2d", (res.intent, res.slots)
    want = _values(built_con, _ROWS + "m.metric = ? AND m.operation = ?", ["dgx1_p100", "bandwidth", "h2d"])
    assert want and res.rows and res.rows[0]["value"] in want, res.answer


def test_runs_of_a_tool_on_a_machine(asker):
    res = asker.ask("which runs come from nccl-tests on the h200 pair")
    assert res.intent == "list_data" and res.answer.startswith("nccl-tests ran on"), (res.intent, res.answer)


def test_the_h200_pair_is_a_machine(asker):
    res = asker.ask("which timer was used for the nccl tests on the h200 pair")
    assert res.intent == "list_data" and res.slots.get("operation") != "p2p", (res.intent, res.slots)
    res = asker.ask("show the bandwidth grid for both gpus of the h200 pair with p2p disabled")
    assert res.intent == "pair_matrix" and "count" not in res.slots, (res.intent, res.slots)


def test_compilers_places_and_licences_refused(asker):
    for q in ("What compiler was used to build SHOC on Yme?", "where does the ipu system physically sit",
              "which software licences does the dgx2 hold", "where does the titan rtx desktop phisically sit",
              "what software licneses does mini summit have"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.answer)


def test_words_the_speech_model_writes_wrong(asker):
    res = asker.ask("what titan nvlink mode latency does the dgx2 show from gpu three to gpu four")
    assert res.slots.get("system") == "dgx2" and not res.slots.get("compare_with"), res.slots
    res = asker.ask("titan pcie mode bandwidth")     # no other machine named: the Titan RTX desktop
    assert res.slots.get("system") == "titan_rtx", res.slots
    res = asker.ask("what global memory red bandwidth does gpu two of yme reach")
    assert res.slots.get("operation") == "gmem_readbw", res.slots
    res = asker.ask("which systems have amd five hash throughput rows")
    assert res.intent == "list_data" and res.slots.get("operation") == "md5hash", (res.intent, res.slots)


def test_matrix_of_a_machine_with_no_pairs_is_its_metrics(asker):
    res = asker.ask("matrix for the call graph cluster")
    assert res.intent == "list_data" and res.slots.get("system") == "callgraph_cluster", (res.intent, res.slots)
    res = asker.ask("ipu system matrix")      # pairs of IPUs are stored: the grid
    assert res.intent == "pair_matrix", (res.intent, res.slots)
