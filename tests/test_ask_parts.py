"""What the parts of a system are (memory per GPU, the host's RAM, cores, models, link interfaces, how many GPUs):
stated in the components table, answered from it, never as a mean of different memories. Real model, real built
database; expected numbers from separate SQL over the same database."""
import json

import pytest

from nlu.cues import spec_question


def _attr(con, system, kind, key):
    rows = con.execute("SELECT CAST(attrs AS VARCHAR) FROM components WHERE system_id = ? AND kind = ?",
                       [system, kind]).fetchall()
    vals = {json.loads(a).get(key) for (a,) in rows if a}
    vals.discard(None)
    assert len(vals) == 1, vals
    return vals.pop(), len(rows)


def _count(con, system, kind):
    return con.execute("SELECT count(*) FROM components WHERE system_id = ? AND kind = ?", [system, kind]).fetchone()[0]


@pytest.mark.parametrize("question, expected", [
    ("How much memory does each GPU in the DGX-2 have?", {"spec": "memory", "part": "gpu"}),
    ("how much memory does one i p u have", {"spec": "memory", "part": "ipu"}),
    ("How much host RAM does the DGX-2 have?", {"spec": "memory", "part": "host"}),
    ("Total GPU memory: DGX-2 versus DGX-1 V100", {"spec": "memory", "part": "gpu", "spec_total": True}),
    ("CUDA cores: GTX 980 vs Titan RTX", {"spec": "cuda_cores", "part": "gpu"}),
    ("how many tensor cores does the titan rtx have", {"spec": "tensor_cores", "part": "gpu"}),
    ("number of IPUs in the Graphcore test system", {"spec": "count", "part": "ipu"}),
    ("Which system has the most GPUs?", {"spec": "count", "part": "gpu"}),
    ("How many NVLinks does each GPU in the DGX-1 V100 have?", {"spec": "links", "part": "gpu"}),
    ("cpu model ac922 yme", {"spec": "model", "part": "cpu"}),
    ("What OS, driver and CUDA version does Yme run?", {"spec": "software", "part": "host"}),
])
def test_a_question_about_a_part_is_read_as_its_property(question, expected):
    assert spec_question(question.lower()) == expected


@pytest.mark.parametrize("question", [
    "what is the memory bandwidth on the dgx2",          # a measurement of the memory, not its size
    "Which GPUs in the DGX-1 P100 have no direct NVLink to GPU0?",   # the graph
    "how many gpus did hy-fi scale to on lassen",        # a run's count
    "gemm time with tensor cores on the titan rtx",      # a setting, not a count of cores
    "how many hops from core0 to core63 on the xmp64",
])
def test_measurements_and_graph_questions_are_not_read_as_parts(question):
    assert spec_question(question.lower()) is None


def test_memory_per_gpu_is_the_gpus_own(asker, built_con):
    per_gpu, n = _attr(built_con, "dgx2", "gpu", "memory_gb")
    res = asker.ask("How much memory does each GPU in the DGX-2 have?")
    assert res.intent == "metric_lookup" and res.rows[0]["value"] == per_gpu and res.rows[0]["unit"] == "GB"
    assert res.rows[0]["n_parts"] == n and f"{per_gpu:.0f} GB" in res.answer


def test_comparing_memory_per_gpu_never_takes_the_hosts_ddr4(asker, built_con):
    """The DGX-1 V100 states 512 GB of DDR4 system memory beside 16 GB of HBM2 per GPU; a comparison of memory per
    GPU had ranked the 512 GB against the DGX-2's 32 GB."""
    res = asker.ask("Compare the memory per GPU of the DGX-2 and the DGX-1 V100.")
    assert res.intent == "compare_systems"
    got = {r["system_id"]: r["value"] for r in res.rows}
    assert got == {"dgx2": _attr(built_con, "dgx2", "gpu", "memory_gb")[0],
                   "dgx1_v100": _attr(built_con, "dgx1_v100", "gpu", "memory_gb")[0]}
    assert res.rows[0]["system_id"] == "dgx2" and "2.00x" in res.answer


def test_total_gpu_memory_multiplies_by_the_gpus(asker, built_con):
    res = asker.ask("Total GPU memory: DGX-2 versus DGX-1 V100")
    for r in res.rows:
        per, n = _attr(built_con, r["system_id"], "gpu", "memory_gb")
        assert r["value"] == per * n


@pytest.mark.parametrize("question, system, kind, key, intent", [
    ("how much memory does one i p u have", "ipu16", "ipu", "memory_mib", "metric_lookup"),
    ("tiles per IPU", "ipu16", "ipu", "tiles", "metric_lookup"),
    ("How much host RAM does the DGX-2 have?", "dgx2", "host", "ram_gb", "metric_lookup"),
    ("how many tensor cores does the titan rtx have", "titan_rtx", "gpu", "tensor_cores", "metric_lookup"),
    ("How many NVLinks does each GPU in the DGX-1 V100 have?", "dgx1_v100", "gpu", "nvlink_ports", "topology"),
])
def test_a_stated_property_is_read_from_its_part(asker, built_con, question, system, kind, key, intent):
    value, _ = _attr(built_con, system, kind, key)
    res = asker.ask(question)
    assert res.intent == intent and res.slots["system"] == system
    assert res.rows[0]["value"] == float(value)


@pytest.mark.parametrize("question, system, kind, intent", [
    ("How many GPUs are in the DGX-2?", "dgx2", "gpu", "topology"),
    ("number of IPUs in the Graphcore test system", "ipu16", "ipu", "topology"),
    # no CPU states its cores: the cores listed as parts of their own are counted
    ("How many cores does the XMOS XMP-64 board have?", "xmp64", "core", "metric_lookup"),
    ("How many cores does the simulated PIUMA system have?", "piuma", "core", "metric_lookup"),
])
def test_how_many_parts_counts_them(asker, built_con, question, system, kind, intent):
    res = asker.ask(question)
    assert res.intent == intent and res.rows[0]["value"] == _count(built_con, system, kind)


def test_the_system_with_the_most_gpus_leads(asker, built_con):
    most = built_con.execute("SELECT system_id, count(*) AS n FROM components WHERE kind = 'gpu' GROUP BY ALL "
                             "ORDER BY n DESC, system_id LIMIT 1").fetchone()
    res = asker.ask("Which system has the most GPUs?")
    assert res.intent == "compare_systems" and (res.rows[0]["system_id"], res.rows[0]["value"]) == most


def test_software_versions_are_the_hosts(asker, built_con):
    (attrs,) = built_con.execute("SELECT CAST(attrs AS VARCHAR) FROM components WHERE system_id = 'ac922_yme' "
                                 "AND kind = 'host'").fetchone()
    host = json.loads(attrs)
    res = asker.ask("What OS, driver and CUDA version does Yme run?")
    for key in ("os", "nvidia_driver", "cuda_version"):
        assert str(host[key]) in res.answer


def test_a_property_no_document_states_is_refused(asker):
    res = asker.ask("How much memory does each A100 in ThetaGPU have?")
    assert res.intent == "out_of_scope" and "ThetaGPU" in res.answer and not res.rows


def test_cpu_cores_asked_plainly_are_the_cpus(asker, built_con):
    cores, n = _attr(built_con, "titan_rtx", "cpu", "cores")
    res = asker.ask("which cpu does the titan rtx box use and how many cores")
    assert res.slots["spec"] == "cores" and res.rows[0]["value"] == cores


def test_a_clusters_parts_are_one_nodes(asker):
    res = asker.ask("how many gpus per node on thetagpu")
    assert "per node" in res.answer


def test_a_count_said_after_the_part_asks_how_many(asker):
    """"dgx2 nvswitch count", as typed into a search box, asks how many NVSwitches; a count beside a measured
    quantity stays the axis of a curve."""
    from nlu.cues import spec_question
    assert spec_question("dgx2 nvswitch count") == {"spec": "count", "part": "nvswitch"}
    assert spec_question("ipu count of the graphcore system") == {"spec": "count", "part": "ipu"}
    assert spec_question("allreduce time by gpu count on the dgx-2") is None
    assert spec_question("speedup vs gpu count on lassen") is None
    res = asker.ask("dgx2 nvswitch count")
    assert res.intent == "topology" and "has 12 NVSwitches" in res.answer
