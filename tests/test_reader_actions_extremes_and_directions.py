"""Ways of asking that the reader once read wrong (session 60, from the fortieth set's misses, each tested with other
words): a machine's setting to be changed ("please lower the power limit") refused as an action; "how much of the
link rate" the link's efficiency; "from which message size does compressed all-to-all win" the stored crossover;
"deepbench single" / "deepbench mpi" DeepBench's two all-reduce programs; "at which message size does it peak" the
one extreme and its size; a speedup over counts where the only series has one count refused; "how many kilowatt-hours
does the IPU system use" no count of IPUs; a GPU model the named machine does not have ("100 A100s ... Lassen's")
other hardware; "when every tile sends at once" load; "Leave out the chart." no part of the question; "nominal"
picks the member of an operation family that has the stated figure; a size range said roughly ("from about a
kilobyte up to about a gigabyte"); "how the GPUs connect to the CPUs" the graph; "both directions" on a two-GPU
machine its two cells. Real model, real built database; numbers are checked with separate SQL."""
from conftest import stored_values as _values


def test_a_setting_to_change_is_refused(asker):
    res = asker.ask("could you raise the clock limit of the d g x two")
    assert res.intent == "out_of_scope", (res.intent, res.slots)
    assert asker.ask("what gpu clock does the dgx-2 report").intent == "metric_lookup"


def test_how_much_of_the_link_rate(asker):
    res = asker.ask("how much of the link rate do the yme gpu2 to gpu3 copies reach")
    assert res.intent == "link_efficiency", (res.intent, res.slots)
    assert "%" in res.answer, res.answer


def test_the_size_compression_wins_from(asker, built_con):
    res = asker.ask("from which message size does compressed all to all win on longhorn with four nodes")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "crossover_msg_size", (res.intent, res.slots)
    want = _values(built_con, "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                   "r.system_id = ? AND m.metric = ?", ["longhorn", "crossover_msg_size"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_deepbench_single_and_mpi(asker):
    res = asker.ask("yme deepbench single allreduce time 4 gpus")
    assert res.slots.get("app") == "nccl_single_all_reduce", res.slots
    assert res.rows and all(r.get("app") in (None, "nccl_single_all_reduce") for r in res.rows), res.answer
    res = asker.ask("yme deepbench mpi allreduce time 4 gpus")
    assert res.slots.get("app") == "nccl_mpi_all_reduce", res.slots


def test_the_size_at_the_peak_is_one_value(asker, built_con):
    res = asker.ask("At which message size does the H200 pair's out-of-place broadcast busbw peak on 2 GPUs?")
    assert res.intent == "metric_lookup" and res.slots.get("aggregate") == "max", (res.intent, res.slots)
    top = built_con.execute("SELECT max(m.value) FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                            "r.system_id = ? AND m.operation = ? AND m.metric = ? AND m.condition = ? AND m.count = ?",
                            ["h200x2", "broadcast", "busbw", "out_of_place", 2]).fetchone()[0]
    assert res.rows and res.rows[0]["value"] == top, res.answer


def test_no_speedup_from_one_count(asker):
    res = asker.ask("how does the speedup of Summit grow as GPUs are added?")
    assert res.intent == "out_of_scope" and "one count" in res.answer, (res.intent, res.answer)


def test_energy_units_count_no_parts(asker):
    res = asker.ask("How many kilowatt-hours does the IPU system burn per month?")
    assert res.intent != "topology", (res.intent, res.answer)


def test_a_gpu_model_the_machine_does_not_have(asker):
    res = asker.ask("Would 200 A100 GPUs beat Lassen's Hy-Fi training speedup?")
    assert res.intent == "out_of_scope", (res.intent, res.slots)
    # the machine's own model counted stays a count on it
    res = asker.ask("what memcpy bandwidth does one V100 on Summit reach")
    assert res.intent == "metric_lookup" and res.slots.get("system") == "summit", (res.intent, res.slots)


def test_every_tile_sending_at_once_is_load(asker):
    res = asker.ask("what happens to the IPU's per-message latency when each tile sends at once?")
    assert res.intent == "congestion", (res.intent, res.slots)


def test_what_the_answer_need_not_hold(asker):
    res = asker.ask("What inference latency does the Hey CAI Surface Pro client see for text queries? No chart needed.")
    assert res.intent == "metric_lookup", (res.intent, res.slots)
    assert any("how to answer" in n for n in res.notes), res.notes


def test_nominal_picks_the_family_member_that_states_it(asker, built_con):
    res = asker.ask("What nominal local-memory bandwidth does the IPU system have?")
    assert res.slots.get("operation") == "local_memory_access", res.slots
    want = _values(built_con, "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                   "r.system_id = ? AND m.operation = ? AND m.condition = ?", ["ipu16", "local_memory_access", "nominal"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_a_size_range_said_roughly(asker):
    res = asker.ask("how does the g t x nine eighty pinned host to device bandwidth change from about a kilobyte up to "
                    "about a gigabyte")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [1024, 1073741824], (res.intent, res.slots)


def test_how_parts_connect_is_the_graph(asker):
    res = asker.ask("my supervisor asked how the four g p us of longhorn connect to its power nine c p u")
    assert res.intent == "topology", (res.intent, res.slots)


def test_both_directions_on_a_two_gpu_machine(asker):
    res = asker.ask("h two hundred p two p latency in each direction between its two g p us with peer access on")
    assert res.intent == "pair_matrix" and "direction" not in res.slots, (res.intent, res.slots)
    assert len(res.rows) == 2, res.answer
