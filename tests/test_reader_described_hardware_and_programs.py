"""Ways of asking that the reader once read wrong (session 62, from the forty-sixth set's misses, each tested with
other words): machines described by their hardware ("the 16-GPU V100 box", "the Pascal cube-mesh machine", "the
desktop with the Turing card", "the IBM server with a pair of V100s", "the machine with twelve hundred sixteen tiles
per chip"); "within one NUMA node" the same-NUMA runs, and a program's name that also names its operation (QTC)
answered from the program's rows; SHOC's program said by its own name ("busspeedreadback") kept beside the copy it
measures; "<machine> <program>" a lookup, not the graph; a scheduler's queue and renting time refused; "reduce" as
a verb no collective; "between the GPUs of Yme" the grid; one GPU on each of two machines compared. Real model, real
built database."""
from conftest import stored_values as _values

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_machines_described_by_their_hardware(asker):
    for q, sid in (("Which NVSwitches is GPU7 of the 16-GPU V100 box wired to?", "dgx2"),
                   ("the Pascal cube-mesh machine p2p bw gpu0 to gpu1", "dgx1_p100"),
                   ("the desktop with the turing card pinned h2d bandwidth", "titan_rtx"),
                   ("What FP32 MaxFlops does GPU1 of the IBM server with a pair of V100s reach?", "ac922_minisummit")):
        res = asker.ask(q)
        assert res.slots.get("system") == sid and res.intent != "out_of_scope", (q, res.intent, res.slots)


def test_a_machine_by_a_number_its_description_states(asker):
    res = asker.ask("how are the chips linked in the machine with twelve hundred sixteen tiles per chip")
    assert res.intent == "topology" and res.slots.get("system") == "ipu16" and "count" not in res.slots, res.slots


def test_one_numa_node_and_a_program_read_as_its_operation(asker, built_con):
    res = asker.ask("what is the qtc time on 2 gpus of yme within one numa node")
    assert res.slots.get("condition") == "same_numa", res.slots
    want = _values(built_con, _ROWS + "m.app = ? AND m.metric = ? AND m.condition = ? AND m.count = ?",
                   ["ac922_yme", "QTC", "time", "same_numa", 2])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_a_shoc_program_named_keeps_its_rows(asker, built_con):
    res = asker.ask("yme busspeedreadback gpu1")
    assert res.slots.get("app") == "BusSpeedReadback", res.slots
    want = _values(built_con, _ROWS + "m.app = ? AND m.src = ?", ["ac922_yme", "BusSpeedReadback", "gpu1"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_a_machine_and_a_program_is_a_lookup(asker):
    res = asker.ask("titan rtx bfs")
    assert res.intent == "metric_lookup" and res.slots.get("operation") == "bfs", (res.intent, res.slots)


def test_queues_and_rented_time_are_refused(asker):
    for q in ("Which Slurm queue runs jobs on Yme?", "Who rents out time on the DGX-2?"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_reduce_as_a_verb(asker):
    res = asker.ask("How much does congestion control reduce the congestion impact on LAMMPS on Azure?")
    assert res.intent == "congestion" and "operation" not in res.slots, (res.intent, res.slots)


def test_between_the_gpus_of_a_machine_is_the_grid(asker):
    res = asker.ask("give me the unified memory bandwidth between the g p us of yme")
    assert res.intent == "pair_matrix", (res.intent, res.slots)
    # (the two GPUs of a pair are one pair: a value)
    res = asker.ask("what is the worst p2p-disabled latency between the two h200 gpus?")
    assert res.intent == "metric_lookup", (res.intent, res.slots)


def test_one_gpu_on_each_machine_compared(asker):
    res = asker.ask("Compare the FP64 MaxFlops of Yme's GPU1 and Mini Summit's GPU1.")
    assert res.intent == "compare_systems" and "dst" not in res.slots, (res.intent, res.slots)
