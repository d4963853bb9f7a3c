"""Ways of asking that the reader once read wrong (session 58, from the thirty-sixth set's misses, each tested with
other words): an unknown machine that would "beat" a known one refused; "N variant" a kernel's variant, no machine;
"what d2h bandwidth was measured on X" a value (while "is there anything besides ..." and a yes/no about how the
numbers were taken stay the inventory); a GPU count said around the machine's name ("on 8 DGX-2 GPUs"); a GPU model's
number spelled ("p one hundred") no count; "in its specification" the spec sheet's figure; "how efficiently does X use
its NVLink2 bandwidth" and "how close ... to the rate of their NVLinks" a link's share; a size range ending a sentence
("... up to 8 GiB."); "the IPU paper" a document, not a second machine, unless the machine is named too; other GPUs
"hammering" the links a load; "which pairs have latency numbers, and what are they" the grid. Real model, real built
database; numbers are checked with separate SQL."""
import pytest

from conftest import stored_values as _values


def test_an_unknown_machine_that_would_beat_a_known_one(asker):
    assert asker.ask("Would a Gaudi3 node outperform the H200 pair on all-gather?").intent == "out_of_scope"
    res = asker.ask("I wonder if an MI325X node would beat the H200 pair on broadcast.")
    assert res.intent == "out_of_scope" and "MI325X" in res.answer, (res.intent, res.answer)


def test_a_kernels_variant_is_no_machine(asker, built_con):
    res = asker.ask("yme sgemm gflops, 1 gpu, T variant")
    assert res.intent == "metric_lookup" and res.slots.get("operation") == "sgemm_t", (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND count = ?",
                   ["ac922_yme", "sgemm_t", 1])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_what_was_measured_is_a_value(asker, built_con):
    res = asker.ask("What host-to-device bandwidth was measured on the TUM AC922?")
    assert res.intent == "metric_lookup", (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ?",
                   ["ac922_tum", "h2d", "bandwidth"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    assert asker.ask("Is there anything for the Titan RTX besides SHOC flops?").intent == "list_data"


@pytest.mark.parametrize("q, n", [("On 4 DGX-2 GPUs, how long does DeepBench's single-process all-reduce of 400000 "
                                   "bytes take?", 4),
                                  ("how long does the deepbench single process all reduce of four hundred thousand "
                                   "bytes take on two d g x two g p us", 2)])
def test_a_count_around_the_machines_name(asker, built_con, q, n):
    res = asker.ask(q)
    assert res.slots.get("count") == n and res.slots.get("count_kind") == "gpus", res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND app = ? AND msg_bytes = ? "
                   "AND count = ? AND metric = ?", ["dgx2", "nccl_single_all_reduce", 400000, n, "time"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_a_spelled_model_number_is_no_count(asker, built_con):
    res = asker.ask("what single precision spec does a d g x one v one hundred gpu have in teraflops")
    assert "count" not in res.slots and res.slots.get("condition") == "spec", res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND condition = ? "
                   "AND precision = ?", ["dgx1_v100", "flops", "spec", "fp32"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    # an article before a small count is no model letter
    assert asker.ask("ipu host-to-ipu latency to a single tile on ipu4").slots.get("count") == 1


def test_the_specification(asker, built_con):
    res = asker.ask("Which FP32 rate does the DGX-2's specification quote?")
    assert res.slots.get("condition") == "spec" and res.slots.get("metric") == "flops", res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND condition = ? "
                   "AND precision = ?", ["dgx2", "flops", "spec", "fp32"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


@pytest.mark.parametrize("q", ["How efficiently does Mini Summit use its NVLink2 bandwidth?",
                               "How close do Yme's GPU pairs get to the rate of their NVLinks?"])
def test_a_links_share_asked_in_words(asker, q):
    res = asker.ask(q)
    assert res.intent == "link_efficiency" and "condition" not in res.slots, (res.intent, res.slots)


def test_a_size_range_ending_a_sentence(asker):
    res = asker.ask("Please show how Yme's pageable device-to-host bandwidth changes from 1 KiB up to 1 GiB.")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [1024, 2 ** 30], (res.intent, res.slots)


def test_a_paper_named_by_a_machine(asker, built_con):
    res = asker.ask("What nominal power does the V100 the IPU paper compares with draw?")
    assert res.intent == "metric_lookup" and res.slots.get("system") == "nvidia_v100_ref", (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND condition = ?",
                   ["nvidia_v100_ref", "power", "nominal"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    # the machine named as itself too stays a side of the comparison
    res = asker.ask("how does the ipu's prng rate compare with the v100 in the graphcore paper")
    assert res.intent == "compare_systems", (res.intent, res.slots)


def test_hammering_is_a_load(asker):
    res = asker.ask("How far does Yme's p2p bandwidth drop when the other GPUs are hammering the NVLinks?")
    assert res.slots.get("condition") == "under_load" and res.intent == "out_of_scope", (res.intent, res.slots)


def test_pairs_with_their_values(asker):
    res = asker.ask("Which IPU pairs have bandwidth numbers, and what are they?")
    assert res.intent == "pair_matrix", (res.intent, res.slots)
