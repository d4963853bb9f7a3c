"""Ways of asking that the reader once read wrong (session 59, from the thirty-eighth set's misses, each tested with
other words): a statement confirmed with a tag ("..., right?") is context, and what is asked after it decides
between a value and a curve; "(the longer one)" a pronoun, no size; a fan "spinning" its speed; peer access named and
then switched off; a copy "into GPU2" ends there; "which pairs ..., and what are they" the grid; "per GPU count" a
curve; a benchmark run asked for, a vendor's plans and the asker's own CSV refused; "CC off vs on" the congestion
question whatever the model guessed; "one GPU against 2 GPUs" two points of a curve; "X has two GPUs" a fact, no
count; "runs + sources" a list. Real model, real built database; numbers are checked with separate SQL."""
from conftest import stored_values as _values


def test_a_tagged_statement_is_context_for_a_value(asker, built_con):
    res = asker.ask("The popops reduction was run up to 19456 tiles, wasn't it? What efficiency did it reach on 1216 "
                    "tiles?")
    assert res.intent == "metric_lookup" and res.slots.get("count") == 1216, (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                   "AND count = ?", ["ipu16", "reduce", "efficiency", 1216])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("Scope's broadcast on the DGX-2 went up to 6 GPUs, right? What bandwidth did it get at 16 MiB "
                    "with 4 GPUs?")
    assert res.intent == "metric_lookup" and res.slots.get("count") == 4, (res.intent, res.slots)
    # without the tag, the curve words stand
    assert asker.ask("How does Scope's broadcast bandwidth on the DGX-2 go up from 1 to 6 GPUs at 16 MiB?").intent \
        == "scaling"


def test_the_longer_one_is_no_size(asker):
    res = asker.ask("Which kernels dominate the H200 trace (the shorter one)?")
    assert res.intent == "trace_breakdown" and "msg_bytes" not in res.slots, (res.intent, res.slots)


def test_a_fan_spinning(asker, built_con):
    res = asker.ask("how fast is the titan rtx fan spinning")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "fan_speed", (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ?",
                   ["titan_rtx", "fan_speed"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_peer_access_named_then_switched_off(asker):
    res = asker.ask("You can turn peer access off on the H200 node, yes? With it switched off, what latency does GPU0 "
                    "see to GPU1?")
    assert res.slots.get("condition") == "p2p_off", res.slots
    assert asker.ask("h200 gpu0 to gpu1 latency with peer access enabled").slots.get("condition") == "p2p_on"


def test_a_copy_into_a_gpu_ends_there(asker, built_con):
    res = asker.ask("My guess is the pinned path into GPU3 on Yme is the slow one. What bandwidth does it get?")
    assert res.slots.get("dst") == "gpu3" and "src" not in res.slots, res.slots


def test_which_pairs_and_what_are_they_is_the_grid(asker):
    res = asker.ask("Which Yme GPU pairs have P2P-off latencies stored, and what are they?")
    assert res.intent == "pair_matrix", (res.intent, res.slots)


def test_per_gpu_count_is_a_curve(asker):
    res = asker.ask("dgx2 md5hash throughput per gpu count")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)
    assert asker.ask("supermuc-ng stream triad bandwidth per node").intent == "metric_lookup"


def test_requests_the_tool_cannot_carry_out(asker):
    for q in ("Could you rerun the nccl-tests on the H200 pair tomorrow?",
              "Will AMD stop supporting the MI50 before NVIDIA drops the V100?",
              "Turn this spreadsheet of my own results into a bar chart, please."):
        assert asker.ask(q).intent == "out_of_scope", q


def test_cc_off_vs_on_in_a_few_words(asker):
    res = asker.ask("azure vasp cc off vs on")
    assert res.intent == "congestion" and res.slots.get("system") == "azure_hpc", (res.intent, res.slots)


def test_one_count_against_another(asker):
    res = asker.ask("DGX-2 Scope broadcast bandwidth at 64 MiB: two GPUs against 4 GPUs?")
    assert res.intent == "scaling" and "count" not in res.slots, (res.intent, res.slots)


def test_a_machines_device_count_said_as_a_fact(asker):
    res = asker.ask("yme has four gpus, so what nvlink-mode bandwidth does gpu0 get to gpu3 with tartan")
    assert "count" not in res.slots and res.slots.get("src") == "gpu0", res.slots
    assert asker.ask("yme scope allreduce bandwidth with 2 gpus at 64 MiB").slots.get("count") == 2


def test_a_plus_between_words_lists_them(asker):
    res = asker.ask("h200x2 tools + runs")
    assert res.intent == "list_data" and res.slots.get("system") == "h200x2", (res.intent, res.slots)
