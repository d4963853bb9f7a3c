"""Ways of asking that the reader once read wrong (session 54, from the twenty-fourth set's misses, each tested with
other words): the tool a number came from ("in nvidia-smi") beside the machine is no unknown machine; "how warm",
"fan %" and "on a quiet machine" name a temperature, a fan's speed and the congestion-free case; a Hey CAI pipeline
by its two stages ("wav2vec plus JointBERT"); the host end alone of a link's efficiency says the copy's direction;
GPU pairs "not joined by NVLink" are the pairs the graph leaves unjoined; a paper named anywhere narrows a described
machine, and its name is no condition; a change said with a verb ("cut the ... time", "points apart") is the stored
change; a word of the machine's name ("the piuma simulation") is no operation; "is there any ... at all" is answered
"no" rather than refused; "which version and flags" asks how a run was made; "latency matrix" asks for the matrix;
"which is quicker in nvlink mode" ranks machines; "when all the tiles are sending" is load; how a GPU "hangs off"
its host is the graph. Real model, real built database; numbers are checked with separate SQL."""
import pytest


def _value(con, sql, params):
    rows = con.execute(sql, params).fetchall()
    assert rows, (sql, params)
    return rows[0][0]


def _one(con, system, metric, **cols):
    where = " AND ".join(f"{k} = ?" for k in cols)
    return _value(con, f"SELECT value FROM measurements WHERE system_id = ? AND metric = ?"
                  + (f" AND {where}" if where else ""), [system, metric, *cols.values()])


@pytest.mark.parametrize("text, system, metric, cols", [
    ("which temperature did yme report in nvidia-smi", "ac922_yme", "temperature", {"src": "gpu0"}),
    ("how warm did the titan rtx get", "titan_rtx", "temperature", {"src": "gpu0"}),
    ("titan rtx fan %", "titan_rtx", "fan_speed", {}),
    ("ipu5 to ipu4 bandwidth on a quiet machine", "ipu16", "bandwidth",
     {"src": "ipu5", "dst": "ipu4", "condition": "congestion_free"}),
    ("wav2vec plus JointBERT F1 on RI2", "ri2", "f1_score", {"app": "wav2vec+jointbert"}),
    ("from the hanging node paper, give me the STREAM triad number of the AMD EPYC node",
     "hangingnodes_epyc7742_node", "bandwidth", {"operation": "triad"}),
    ("by how much does compression cut the all-to-all time for PSDNS on 64 Lassen GPUs", "lassen", "time_reduction",
     {"app": "psdns", "count": 64}),
    ("On Hamilton 8, how much do the improved kernels cut the FV update time for CCZ4?", "hamilton8",
     "time_reduction", {"operation": "fv_update"}),
    ("what ipc does the piuma simulation reach", "piuma", "ipc", {}),
])
def test_one_stored_value(asker, built_con, text, system, metric, cols):
    want = _one(built_con, system, metric, **cols)
    res = asker.ask(text)
    assert res.intent == "metric_lookup", (res.intent, res.answer)
    assert res.slots.get("system") == system and res.slots.get("metric") == metric, res.slots
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_points_apart_is_the_stored_difference(asker, built_con):
    want = _one(built_con, "gemini", "efficiency_difference")
    res = asker.ask("how many points apart are the Horovod and Tarantella efficiencies on Gemini")
    assert res.slots.get("metric") == "efficiency_difference", res.slots
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_the_host_end_alone_gives_the_copy_direction(asker):
    res = asker.ask("how much of its PCIe does the DGX-1 V100 use when copying from the host")
    assert res.intent == "link_efficiency", res.answer
    assert res.slots.get("operation") == "h2d" and "src" not in res.slots, res.slots


def test_pairs_not_joined_by_nvlink(asker, built_con):
    gpus = [r[0] for r in built_con.execute("SELECT component_id FROM components WHERE system_id = ? AND kind = ?",
                                            ["dgx1_p100", "gpu"]).fetchall()]
    joined = {frozenset(r) for r in built_con.execute(
        "SELECT a, b FROM links WHERE system_id = ? AND link_type LIKE ?", ["dgx1_p100", "NVLink%"]).fetchall()}
    unjoined = len(gpus) * (len(gpus) - 1) // 2 - len({p for p in joined if p <= set(gpus)})
    res = asker.ask("which GPU pairs in the DGX-1 P100 are not joined by NVLink?")
    assert res.intent == "topology" and res.slots.get("link_count") == 0, (res.intent, res.slots)
    assert res.answer.startswith(f"{unjoined} of the {len(gpus) * (len(gpus) - 1) // 2} GPU pairs"), res.answer


def test_is_there_any_at_all_is_answered_no(asker):
    res = asker.ask("is there any bandwidth data at all for hamilton 8")
    assert res.intent == "list_data" and res.answer.startswith("No:"), res.answer


def test_which_version_and_flags_is_the_setup(asker):
    res = asker.ask("which nccl-tests version and flags made the H200 numbers")
    assert res.intent == "list_data" and "nccl_version" in res.answer, res.answer


def test_a_latency_matrix_is_the_pair_matrix(asker):
    res = asker.ask("ipu latency matrix under load")
    assert res.intent == "pair_matrix", res.answer


def test_which_is_quicker_in_nvlink_mode_ranks_machines(asker):
    res = asker.ask("which is quicker in nvlink mode, the mini summit or yme")
    assert res.intent == "compare_systems", res.answer
    assert res.slots.get("condition") == "nvlink" and "link_type" not in res.slots, res.slots


def test_a_paper_named_is_no_condition(asker):
    res = asker.ask("in the hanging node paper what triad bandwidth does the amd epyc node reach")
    assert res.slots.get("system") == "hangingnodes_epyc7742_node" and "condition" not in res.slots, res.slots


def test_load_said_as_all_the_tiles_sending_is_congestion(asker):
    res = asker.ask("how much does ipu p2p latency grow when all the tiles are sending")
    assert res.intent == "congestion" and res.slots.get("condition") == "under_load", (res.intent, res.slots)


def test_how_a_gpu_hangs_off_its_host_is_the_graph(asker):
    res = asker.ask("If you don't mind, walk me through how the GTX 980 desktop's GPU hangs off its host")
    assert res.intent == "topology" and res.slots.get("system") == "gtx980", (res.intent, res.answer)
