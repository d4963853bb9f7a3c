"""Ways of asking that the reader once read wrong (session 62, from the forty-seventh set's misses, each tested with
other words): a curve over GPU counts on a machine with one GPU refused with how many it has; "which GPUs are
neighbouring GPU3" the graph around that GPU (no GPU model); "BFS traversal rate" BFS's rate in edges; the Linux
kernel a machine runs refused (no GPU kernel of a trace); "init time share" Horovod's start-up share; "how much does
congestion slow down X on A compared to B" the congestion experiment on both. Real model, real built database."""
from conftest import stored_values as _values


def test_a_curve_on_a_one_gpu_machine_is_refused(asker):
    res = asker.ask("How does the GTX 980's SGEMM rate scale from 1 to 8 GPUs?")
    assert res.intent == "out_of_scope" and "1 GPU" in res.answer, (res.intent, res.answer)
    # (a machine with several GPUs still draws the ones it has)
    res = asker.ask("How does Yme's MD5Hash rate scale from 1 to 8 GPUs?")
    assert res.intent == "scaling", (res.intent, res.answer)
    # (Summit's stored parts are one node's GPU: it is not said to have one, only to have been measured on one)
    res = asker.ask("How does Summit's memcpy bandwidth scale from 1 to 8 GPUs?")
    assert res.intent == "out_of_scope" and "has 1 GPU" not in res.answer and "1 GPU only" in res.answer, res.answer


def test_neighbouring_gpus_are_the_graph(asker):
    res = asker.ask("Which GPUs are neighbouring GPU3 over NVLink on the DGX-1 V100?")
    assert res.intent == "topology" and res.slots.get("src") == "gpu3", (res.intent, res.slots)


def test_a_traversal_rate_is_in_edges(asker, built_con):
    res = asker.ask("What BFS traversal rate does the DGX-2 reach on GPU0?")
    assert res.slots.get("operation") == "bfs_teps", res.slots
    want = _values(built_con, "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                   "r.system_id = ? AND m.operation = ? AND m.src = ?", ["dgx2", "bfs_teps", "gpu0"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_the_linux_kernel_is_refused(asker):
    res = asker.ask("Which Linux kernel runs on the H200 pair?")
    assert res.intent == "out_of_scope", (res.intent, res.slots)


def test_an_init_time_share(asker, built_con):
    res = asker.ask("what init time share does horovod have on gemini at 12 gpus")
    assert res.slots.get("operation") == "initialization" and res.slots.get("metric") == "share", res.slots
    want = _values(built_con, "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                   "r.system_id = ? AND m.operation = ? AND m.metric = ? AND m.count = ?",
                   ["gemini", "initialization", "share", 12])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_congestion_slowing_a_code_on_two_machines(asker):
    res = asker.ask("How much does congestion slow down LAMMPS on Azure compared to the in-house cluster?")
    assert res.intent == "congestion" and res.slots.get("compare_with") == ["nvidia_inhouse"], (res.intent, res.slots)
