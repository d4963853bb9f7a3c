"""scaling against the real database; expected numbers from the curated CSV lines and the raw SHOC output."""
import csv

import pytest
from conftest import REPO, RAW, run_intent, HOSTILE

from app import catalog
from app.intents import OutOfScope, get, rows_of

M = get("scaling")
CURATED = REPO / "datasets" / "curated"


def _run(con, slots):
    return run_intent(con, M, slots)


def _csv(group):
    with open(CURATED / group / "measurements.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_deepbench_allreduce_over_ranks_dgx2(built_con):
    plan, rows, text = _run(built_con, {"system": "dgx2", "operation": "allreduce", "metric": "time",
                                        "count_kind": "ranks"})
    assert plan.chart["kind"] == "line" and plan.chart["x"] == "count" and plan.chart["ideal"] is True
    assert plan.params == {"system": "dgx2", "operation": "allreduce", "metric": "time", "count_kind": "ranks"}
    # datasets/curated/gpu_features_ntnu2020/measurements.csv, Listing 51: mean time at 258,000,000 B
    want = {int(r["count"]): float(r["value"]) for r in _csv("gpu_features_ntnu2020")
            if r["system_id"] == "dgx2" and r["experiment"] == "nccl_mpi_allreduce" and r["statistic"] == "mean"
            and r["msg_bytes"] == "258000000"}
    assert want == {2: 2778.63, 3: 3249.47, 4: 3491.85, 8: 3911.83, 12: 3978.33, 16: 4042.5}
    assert {r["count"]: r["value"] for r in rows} == want
    assert {r["msg_bytes"] for r in rows} == {258000000}     # the largest size, measured at every count
    last = rows[-1]
    # a collective with a fixed message: weak scaling, efficiency = t(2) / t(16)
    assert last["scaling_kind"] == "weak" and last["ideal_speedup"] == 1.0
    assert last["speedup"] == pytest.approx(2778.63 / 4042.5) and last["efficiency"] == pytest.approx(2778.63 / 4042.5)
    assert "time grows 1.45x" in text and "efficiency 68.7%" in text and "Listing 51" in text


def test_shoc_stencil_multi_gpu_dgx2_best_per_count(built_con):
    plan, rows, text = _run(built_con, {"system": "dgx2", "operation": "compute", "metric": "flops"})
    sten = [r for r in _csv("gpu_features_ntnu2020") if r["system_id"] == "dgx2"
            and r["experiment"] == "shoc_multi_gpu" and '"result": "stencil"' in r["params"]]
    best = {}
    for r in sten:   # same-NUMA and cross-NUMA placements at one count: the best is shown
        best[int(r["count"])] = max(best.get(int(r["count"]), 0.0), float(r["value"]))
    assert {r["count"]: r["value"] for r in rows} == best
    assert best[1] == 646.524 and best[2] == 1035.02 and best[16] == 2230.61
    last = rows[-1]
    assert last["scaling_kind"] == "strong" and last["ideal_speedup"] == 16
    assert last["speedup"] == pytest.approx(2230.61 / 646.524)
    assert last["efficiency"] == pytest.approx(2230.61 / 646.524 / 16)
    assert "speedup of 3.45x for 16.00x the gpus" in text and "efficiency 21.6%" in text
    assert any("best (highest)" in n for n in plan.notes)
    # asking for the mean instead collapses placements by averaging
    _, rows, _ = _run(built_con, {"system": "dgx2", "operation": "compute", "metric": "flops", "aggregate": "mean"})
    assert next(r for r in rows if r["count"] == 2)["value"] == pytest.approx((1005.61 + 1035.02) / 2)


def test_shoc_per_device_values_are_flagged(built_con):
    plan, rows, text = _run(built_con, {"system": "dgx2", "operation": "maxspflops"})
    # SHOC/DGX-2/all: "result for maxspflops: 16166.1000 GFLOPS" (run twice in the file: 16166.1 and 16174.7)
    lines = (RAW / "sp19-benchmark-results/SHOC/DGX-2/all").read_text().splitlines()
    vals = [float(ln.split()[3]) for ln in lines if "result for maxspflops:" in ln]
    assert sorted(vals) == [16166.1, 16174.7]
    # no metric named: duplicates are averaged (no "best" direction is known before the rows are read)
    assert rows[-1]["count"] == 16 and rows[-1]["value"] == pytest.approx(sum(vals) / 2)
    # about the same at 16 GPUs as at one: each GPU's result, so no speedup against linear scaling is derived
    assert rows[-1]["per_device"] == "flat" and rows[-1]["speedup"] is None
    assert "as SHOC's per-device results do" in text and any("the mean is shown" in n for n in plan.notes)


def test_count_bounds_the_range_and_is_a_parameter(built_con):
    plan, rows, _ = _run(built_con, {"system": "dgx2", "operation": "allreduce", "metric": "time",
                                     "count_kind": "ranks", "count": 8})
    assert plan.params["count"] == 8
    assert [r["count"] for r in rows] == [2, 3, 4, 8]


def test_hostile_slot_is_harmless(built_con):
    before = built_con.execute("SELECT count(*) FROM measurements").fetchone()
    cat = catalog.load(built_con)
    plan = M.plan({"system": "dgx2", "operation": "allreduce", "app": HOSTILE}, cat)
    assert plan.params["app"] == HOSTILE and HOSTILE not in plan.sql
    rows = rows_of(built_con, plan)
    assert rows == []
    with pytest.raises(OutOfScope):
        M.answer(rows, plan, cat)
    with pytest.raises(OutOfScope):
        M.plan({"system": "dgx2", "operation": "allreduce", "count": HOSTILE}, cat)
    assert built_con.execute("SELECT count(*) FROM measurements").fetchone() == before


def test_out_of_scope(built_con):
    cat = catalog.load(built_con)
    with pytest.raises(OutOfScope, match="Which metric"):
        M.plan({"system": "dgx2"}, cat)
    with pytest.raises(OutOfScope, match="No gemm"):
        M.plan({"system": "h200x2", "operation": "gemm"}, cat)
    # the H200 p2pBandwidthLatencyTest rows have no GPU counts
    plan = M.plan({"system": "h200x2", "operation": "p2p", "metric": "bandwidth"}, cat)
    with pytest.raises(OutOfScope, match="No scaling series"):
        M.answer(rows_of(built_con, plan), plan, cat)


def test_zero_value_at_one_gpu_is_not_a_speedup_base(built_con):
    """nccl-tests prints busbw 0 for one GPU: no infinite speedup, the base is the first usable count."""
    plan, rows, text = run_intent(built_con, M, {"system": "h200x2", "operation": "allreduce", "metric": "busbw",
                                                 "count_kind": "gpus"})
    assert [r["count"] for r in rows] == [1, 2] and rows[0]["value"] == 0
    assert all(r["base_count"] == 2 for r in rows)
    assert rows[0]["speedup"] is None or rows[0]["speedup"] == 0
    assert "inf" not in text and any("measured from 2" in n for n in plan.notes)


def test_a_derived_speedup_keeps_an_acronym_after_the_colon(built_con):
    """The derived-speedup lead lowers its sentence's first letter after a colon, but not an acronym's."""
    from app.intents._common import cap, uncap, what_words
    assert cap(what_words("prng", "throughput")) == "PRNG throughput"          # not "Prng throughput"
    assert (uncap("Training time"), uncap("GEMM time"), uncap("MD5Hash throughput")) == \
        ("training time", "GEMM time", "MD5Hash throughput")
    plan, rows, text = _run(built_con, {"system": "dgx2", "metric": "speedup", "operation": "md5hash"})
    assert "derived from the MD5Hash throughput: MD5Hash throughput on" in text
