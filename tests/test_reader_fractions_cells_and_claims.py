"""Ways of asking that the reader once read wrong (session 53, from the twenty-third set's misses, each tested with
other words): a fraction of a unit is a size ("a quarter meg", "half of a megabyte"); "1-gpu" counts one GPU; one
cell of a printed matrix ("the entry in row GPU0, column GPU1", "what's in the ... matrix for GPU1 to GPU0") is one
value, while a two-GPU machine's "GPU0/GPU1 matrix" stays the matrix; "NVIDIA's own claim" is the vendor's claim; "the P100
one" after the V100 DGX-1 is the P100 DGX-1; "more fast" is "faster", and "double-precision FFT" keeps the code's name
beside its precision; "the lowest and highest bandwidth between any two GPUs" is the pair matrix's spread; "the MacBook
client", "the Surface Pro client" and "the Turing desktop" name their machines. Real model, real built database; numbers are
checked with separate SQL."""
import pytest


def _value(con, sql, params):
    rows = con.execute(sql, params).fetchall()
    assert rows, (sql, params)
    return rows[0][0]


@pytest.mark.parametrize("text, size", [("a quarter meg", 1 << 18), ("quarter meg", 1 << 18),
                                        ("half of a megabyte", 1 << 19), ("half a gig", 1 << 29)])
def test_a_fraction_of_a_unit_is_a_size(asker, text, size):
    assert asker.nlu.norm.size_bytes(text) == size


def test_a_quarter_meg_in_a_question(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                  "AND msg_bytes = ? AND condition = ? AND count = ?",
                  ["h200x2", "allgather", "busbw", 1 << 18, "out_of_place", 2])
    res = asker.ask("h200 all-gather busbw out-of-place, a quarter meg")
    assert res.slots.get("msg_bytes") == 1 << 18, res.slots
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_one_hyphen_gpu_counts_one(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                  "AND msg_bytes = ? AND condition = ? AND count = ?",
                  ["h200x2", "allreduce", "time", 1 << 30, "out_of_place", 1])
    res = asker.ask("h200 1-gpu allreduce time out-of-place 1GiB")
    assert res.slots.get("count") == 1, res.slots
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


@pytest.mark.parametrize("question, src, dst", [
    ("In the H200's 'Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)', what's the entry in row GPU0, column GPU1?",
     "gpu0", "gpu1"),
    ("What's in the 'P2P=Enabled Latency (P2P Writes) Matrix (us)' for GPU1 to GPU0 on the H200 box?", "gpu1", "gpu0"),
])
def test_one_cell_of_a_printed_matrix_is_one_value(asker, question, src, dst):
    res = asker.ask(question)
    assert res.intent == "metric_lookup" and (res.slots.get("src"), res.slots.get("dst")) == (src, dst), \
        (question, res.intent, res.slots)
    assert res.rows and res.rows[0]["src"] == src and res.rows[0]["dst"] == dst, res.answer


def test_a_two_gpu_machines_pair_matrix_stays_the_matrix(asker):
    res = asker.ask("as a table, the H200 GPU0/GPU1 bandwidth matrix with P2P enabled")
    assert res.intent == "pair_matrix", (res.intent, res.slots)


def test_the_vendors_own_claim(asker, built_con):
    want = _value(built_con, "SELECT max(value) FROM measurements WHERE system_id = ? AND metric = ? AND condition = ?",
                  ["dgx2", "speedup", "vendor_claim"])
    res = asker.ask("what speedup is nvidia's own claim for the dgx-2")
    assert res.slots.get("condition") == "vendor_claim", res.slots
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


@pytest.mark.parametrize("question, first, second", [
    ("is the p100 dgx-1 slower than the v100 one at host to device copies", "dgx1_p100", "dgx1_v100"),
    ("does the v100 dgx-1 really beat the p100 one on nvlink bandwidth", "dgx1_v100", "dgx1_p100"),
])
def test_the_same_machine_named_by_its_other_gpu_model(asker, question, first, second):
    res = asker.ask(question)
    assert res.slots.get("system") == first and res.slots.get("compare_with") == [second], (question, res.slots)
    assert res.intent == "compare_systems", (res.intent, res.answer)


def test_more_fast_is_faster_and_a_precision_leaves_the_codes_name(asker):
    res = asker.ask("which box is more fast at single-precision FFT, Yme or the Titan RTX desktop")
    assert res.intent == "compare_systems", (res.intent, res.slots)
    assert res.slots.get("app") == "FFT" and res.slots.get("precision") == "fp32", res.slots
    assert any("faster" in n for n in res.notes), res.notes


@pytest.mark.parametrize("question", [
    "whats the lowest and highest bandwidth between any two g p us on yme in n v link mode",
    "lowest and highest nvlink bandwidth between any two gpus on the mini summit",
    "what are the lowest and highest latencies between any two gpus on yme",
])
def test_both_extremes_over_the_pairs_are_the_pair_matrix(asker, question):
    res = asker.ask(question)
    assert res.intent == "pair_matrix", (question, res.intent, res.slots)


@pytest.mark.parametrize("question, system", [
    ("how long does a speech query take on the macbook client", "heycai_client3"),
    ("text query latency of the surface pro client", "heycai_client1"),
    ("what single-precision MaxFlops does the Turing desktop reach", "titan_rtx"),
])
def test_machines_named_by_their_hardware(asker, question, system):
    res = asker.ask(question)
    assert res.slots.get("system") == system and res.intent == "metric_lookup" and res.rows, \
        (question, res.intent, res.slots, res.answer)
