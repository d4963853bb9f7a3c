"""Ways of asking that the reader once read wrong (session 62, from the forty-eighth set's misses, each tested with
other words): a size said as a fraction of a unit ("half a gibibyte", "a quarter of a megabyte"); a GPU said with a
numbering word ("g p u number three"); a mode's bandwidth between a pair ("Tartan NVLink-mode bandwidth ... from GPU
#5 to GPU #11") a measurement, no link efficiency; a count written as a compound ("the 8-GPU single-process
all-reduce"); power outages and compiling from source refused; "broadcasting ... with the tile count" the broadcast
curve over tiles, no count of tiles. Real model, real built database."""
from conftest import stored_values as _values

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_a_size_as_a_fraction_of_a_unit(asker, built_con):
    res = asker.ask("What in-place all-gather busbw does the H200 pair reach at half a gibibyte?")
    assert res.slots.get("msg_bytes") == 512 * 2**20, res.slots
    want = _values(built_con, _ROWS + "m.operation = ? AND m.metric = ? AND m.condition = ? AND m.msg_bytes = ?",
                   ["h200x2", "allgather", "busbw", "in_place", 512 * 2**20])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("What out-of-place reduce-scatter busbw does the H200 pair reach at a quarter of a megabyte?")
    assert res.slots.get("msg_bytes") == 256 * 2**10, res.slots


def test_a_gpu_with_a_numbering_word(asker):
    res = asker.ask("what is the f p sixty four max flops of g p u number three on yme")
    assert res.slots.get("src") == "gpu3", res.slots


def test_a_modes_bandwidth_between_a_pair_is_a_measurement(asker):
    res = asker.ask("What unidirectional Tartan NVLink-mode bandwidth does the DGX-2 reach from GPU #5 to GPU #11?")
    assert res.intent == "metric_lookup" and res.slots.get("condition") == "nvlink", (res.intent, res.slots)


def test_a_count_written_as_a_compound(asker, built_con):
    res = asker.ask("whats the 8-GPU single-process all-reduce time on the DGX-2 at 400000 bytes")
    assert res.slots.get("count") == 8 and res.slots.get("count_kind") == "gpus", res.slots
    want = _values(built_con, _ROWS + "m.app = ? AND m.count = ? AND m.msg_bytes = ?",
                   ["dgx2", "nccl_single_all_reduce", 8, 400000])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_outages_and_builds_are_refused(asker):
    for q in ("during a power outage does Yme shut down cleanly", "how long does compiling PyTorch from source take on yme"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_broadcasting_over_the_tile_count_is_a_curve(asker):
    res = asker.ask("how does broadcasting on the graphcore system change with the tile count")
    assert res.intent == "scaling" and res.slots.get("operation") == "broadcast", (res.intent, res.slots)
