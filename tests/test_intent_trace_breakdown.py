"""trace_breakdown intent: numbers checked against the raw Kineto JSON."""
import gzip
import json

import pytest

from conftest import RAW, table_counts, HOSTILE, run_intent

from app import catalog
from app.intents import OutOfScope, rows_of
from app.intents import trace_breakdown as tb



def run(con, **slots):
    return run_intent(con, tb, slots)


def raw(trace_dir, rank):
    with gzip.open(RAW / "h200x2" / trace_dir / f"trace_rank{rank}.json.gz") as f:
        return [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X"]


def union(intervals):
    total, cur = 0.0, None
    for s, e in sorted(intervals):
        if cur is None or s > cur[1]:
            total += (cur[1] - cur[0]) if cur else 0.0
            cur = [s, e]
        else:
            cur[1] = max(cur[1], e)
    return total + ((cur[1] - cur[0]) if cur else 0.0)


def expected(trace_dir, rank):
    ev = raw(trace_dir, rank)
    nccl = [e for e in ev if e.get("cat") == "kernel" and e["name"].startswith("nccl")]
    gpu = [(e["ts"], e["ts"] + e["dur"]) for e in ev
           if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") and e["dur"] > 0]
    window = next(e["dur"] for e in ev if e.get("cat") == "Trace")
    return {"nccl_kernels": len(nccl), "comm": union([(e["ts"], e["ts"] + e["dur"]) for e in nccl]),
            "busy": union(gpu), "window": window, "nccl_dur": sum(e["dur"] for e in nccl)}


def test_default_is_the_short_trace_per_rank(built_con):
    plan, rows, text = run(built_con, system="h200x2")
    brk = [r for r in rows if r["kind"] == "breakdown"]
    assert {r["trace_set"] for r in rows} == {"datasets/raw/h200x2/pytorch_trace"}
    assert sorted({r["rank"] for r in brk}) == [0, 1]
    for rank in (0, 1):
        exp = expected("pytorch_trace", rank)
        rr = {r["category"]: r for r in brk if r["rank"] == rank}
        assert set(rr) == {"compute", "communication", "memory", "idle"}
        assert rr["idle"]["nccl_kernels"] == exp["nccl_kernels"] == 9
        assert rr["idle"]["window_us"] == pytest.approx(exp["window"], abs=1e-3)
        assert rr["idle"]["busy_us"] == pytest.approx(exp["busy"], abs=0.01)       # interval union, not a sum
        assert rr["idle"]["comm_total_us"] == pytest.approx(exp["comm"], abs=0.01)
        # the four categories make the whole window
        assert sum(r["value"] for r in rr.values()) == pytest.approx(exp["window"], abs=0.01)
    assert plan.chart["kind"] == "stacked_bar"
    assert any("pytorch_trace_long" in n for n in plan.notes)   # says which trace and what else exists
    assert "1.5% on rank 0 and 20.8% on rank 1" in text
    assert "trace_rank0.json.gz" in text


def test_top_kernels(built_con):
    plan, rows, text = run(built_con, top_n=3)
    top = [r for r in rows if r["kind"] == "top"]
    assert len(top) == 3
    nccl = top[0]
    exp = sum(expected("pytorch_trace", rk)["nccl_dur"] for rk in (0, 1))
    assert nccl["name"].startswith("ncclDevKernel_AllReduce") and nccl["calls"] == 18
    assert nccl["value"] == pytest.approx(exp, abs=1e-3) == 15630.288
    assert "top kernel: ncclDevKernel_AllReduce_Sum_f32_RING_LL (15.6 ms over 18 calls" in text
    assert [r["value"] for r in top] == sorted((r["value"] for r in top), reverse=True)


def test_long_trace_and_single_run(built_con):
    plan, rows, text = run(built_con, run="long")
    brk = [r for r in rows if r["kind"] == "breakdown" and r["category"] == "idle"]
    assert {r["trace_set"] for r in brk} == {"datasets/raw/h200x2/pytorch_trace_long"}
    want = [expected("pytorch_trace_long", rank)["nccl_kernels"] for rank in (0, 1)]
    assert [r["nccl_kernels"] for r in sorted(brk, key=lambda r: r["rank"])] == want == [120, 121]
    run_id = brk[0]["run_id"]
    plan, rows, text = run(built_con, run=run_id)
    assert {r["rank"] for r in rows if r["kind"] == "breakdown"} == {brk[0]["rank"]}


def test_cpu_ops(built_con):
    plan, rows, text = run(built_con, run="pytorch_trace", trace_cat="cpu_op", top_n=1)
    top = [r for r in rows if r["kind"] == "top"]
    ev = raw("pytorch_trace", 0) + raw("pytorch_trace", 1)
    linear = [e["dur"] for e in ev if e.get("cat") == "cpu_op" and e["name"] == "aten::linear"]
    assert top[0]["name"] == "aten::linear" and top[0]["calls"] == len(linear) == 204
    assert top[0]["value"] == pytest.approx(sum(linear), abs=1e-3)
    assert "top op: aten::linear" in text


def test_hostile_and_out_of_scope(built_con):
    before = table_counts(built_con)
    with pytest.raises(OutOfScope, match="trace sets loaded: datasets/raw/h200x2/pytorch_trace "):
        run(built_con, run=HOSTILE)
    with pytest.raises(OutOfScope, match="no trace event category"):
        run(built_con, trace_cat=HOSTILE)
    rows = rows_of(built_con, tb.plan({"app": HOSTILE}, catalog.load(built_con)))
    assert not [r for r in rows if r["kind"] == "top"]
    assert table_counts(built_con) == before
    with pytest.raises(OutOfScope, match="traces exist for: 2x NVIDIA H200"):
        run(built_con, system="dgx2")
    with pytest.raises(OutOfScope, match="top_n"):
        run(built_con, top_n=0)


def test_a_kernel_name_written_in_a_trace_question_filters_the_top_list(asker):
    """"ncclDevKernel_AllReduce" names kernels, not an unknown system: the answer lists the kernels so named, with
    the calls and time the raw traces give."""
    r = asker.ask("pytorch trace: what % of gpu time is ncclDevKernel_AllReduce")
    assert r.intent == "trace_breakdown" and r.slots["app"] == "ncclDevKernel_AllReduce"
    tops = [x for x in r.rows if x["kind"] == "top"]
    assert tops and all("ncclDevKernel_AllReduce" in x["name"] for x in tops)
    name = "at::native::vectorized_elementwise_kernel"
    r = asker.ask(f"time spent in {name} in the h200 trace")
    assert r.intent == "trace_breakdown" and r.slots["app"] == name
    tops = [x for x in r.rows if x["kind"] == "top"]
    ev = [e for rank in (0, 1) for e in raw("pytorch_trace", rank) if e.get("cat") == "kernel" and name in e["name"]]
    assert sum(x["calls"] for x in tops) == len(ev) > 0
    assert sum(x["value"] for x in tops) == pytest.approx(sum(e["dur"] for e in ev), abs=0.01)


def test_plain_words_are_not_taken_for_kernel_names():
    from app.ask import trace_name_in
    names = {"ncclDevKernel_AllReduce_Sum_f32_RING_LL": {"kernel"},
             "void at::native::vectorized_elementwise_kernel<4>": {"kernel"},
             "ProfilerStep#3": {"user_annotation", "gpu_user_annotation"}}
    assert trace_name_in("how long do the allreduce kernels take in the h200 trace", names) is None
    assert trace_name_in("share of ncclDevKernel_AllReduce kernels", names) == ("ncclDevKernel_AllReduce", "kernel")
    assert trace_name_in("time in at::native::vectorized_elementwise_kernel", names) == \
        ("at::native::vectorized_elementwise_kernel", "kernel")
    assert trace_name_in("the time per ProfilerStep", names) == ("ProfilerStep", "user_annotation")
    assert trace_name_in("time in some_unknown_kernel on the H200", names) is None
    assert trace_name_in("Where does the time go in the H200 PyTorch trace?", names) is None


def test_the_time_per_profiler_step_lists_the_steps(asker):
    r = asker.ask("Show me the time per ProfilerStep in the H200 run.")
    tops = [x for x in r.rows if x["kind"] == "top"]
    assert r.intent == "trace_breakdown" and r.slots["trace_cat"] == "user_annotation"
    assert tops and all(x["name"].startswith("ProfilerStep#") and x["category"] == "user_annotation" for x in tops)


# ---- what a trace question asks about leads the answer (HTA's analyses), numbers from the raw Kineto files ----

def _intersection(a, b):
    """Length of the intersection of two sets of intervals, each unioned first."""
    def merged(iv):
        out = []
        for s, e in sorted(iv):
            if out and s <= out[-1][1]:
                out[-1][1] = max(out[-1][1], e)
            else:
                out.append([s, e])
        return out
    total, B = 0.0, merged(b)
    for s, e in merged(a):
        for bs, be in B:
            total += max(0.0, min(e, be) - max(s, bs))
    return total


def test_an_overlap_question_leads_with_the_overlap_per_rank(asker):
    res = asker.ask("whats the comm/compute overlap in the h200 ddp trace")
    assert res.intent == "trace_breakdown"
    shares = []
    for rank in (0, 1):
        ev = [e for e in raw("pytorch_trace", rank) if e.get("cat") == "kernel" and e["dur"] > 0]
        nccl = [(e["ts"], e["ts"] + e["dur"]) for e in ev if e["name"].startswith("nccl")]
        comp = [(e["ts"], e["ts"] + e["dur"]) for e in ev if not e["name"].startswith("nccl")]
        shares.append(100.0 * _intersection(nccl, comp) / union(nccl))
    assert res.answer.startswith(f"Compute overlaps {shares[0]:.0f}% of the NCCL kernels' time on rank 0 (")
    assert f" and {shares[1]:.0f}% on rank 1 (" in res.answer.split(". ")[0]


def test_an_idle_question_names_the_idlest_rank(asker):
    res = asker.ask("Is rank 0 or rank 1 idle more often in the H200 trace?")
    idle = {rk: 1 - expected("pytorch_trace", rk)["busy"] / expected("pytorch_trace", rk)["window"] for rk in (0, 1)}
    most = max(idle, key=idle.get)
    assert res.answer.startswith(f"Rank {most} is idle the most: the GPU does nothing for {100 * idle[most]:.0f}% ")


def test_a_top_question_lists_the_kernels_in_order(asker):
    res = asker.ask("top 3 ops short h200 trace")
    totals = {}
    for rank in (0, 1):
        for e in raw("pytorch_trace", rank):
            if e.get("cat") == "kernel":
                totals[e["name"]] = totals.get(e["name"], 0.0) + e["dur"]
    first3 = [tb.short_name(n, 48) for n, _ in sorted(totals.items(), key=lambda kv: -kv[1])[:3]]
    lead = res.answer.split(". ")[0]
    assert lead.startswith("Top 3 kernels by total time, summed over 2 ranks: ")
    assert [lead.index(n) for n in first3] == sorted(lead.index(n) for n in first3)


def test_a_launch_question_matches_launch_calls_to_kernels(asker):
    res = asker.ask("how much time goes into cuda launch calls on the cpu side in the h two hundred profile")
    ev = raw("pytorch_trace", 0)
    kern = {e["args"]["correlation"]: e for e in ev if e.get("cat") == "kernel"}
    # the runtime's cudaLaunchKernel and the driver's cuLaunchKernelEx (cuBLAS's nvjet, cuDNN, NCCL launch by it)
    calls = [e for e in ev if (e.get("cat"), e["name"]) in (("cuda_runtime", "cudaLaunchKernel"),
                                                          ("cuda_driver", "cuLaunchKernelEx"))
             and e["args"]["correlation"] in kern]
    delays = sorted(kern[e["args"]["correlation"]]["ts"] - e["ts"] for e in calls)
    cpu_ms = sum(e["dur"] for e in calls) / 1000
    assert f"rank 0: {len(calls)} launches taking {cpu_ms:.3g} ms on the CPU" in res.answer
    launch = [r for r in res.rows if r["kind"] == "launch" and r["rank"] == 0]
    mid = len(delays) // 2
    median = delays[mid] if len(delays) % 2 else (delays[mid - 1] + delays[mid]) / 2
    assert launch and launch[0]["value"] == pytest.approx(median, abs=1e-3)


def test_a_split_question_gives_every_share_and_the_long_trace_when_said(asker):
    res = asker.ask("compute vs communication vs idle in the long h200 trace")
    assert "pytorch_trace_long" in res.answer
    lead = res.answer.split(". ")[0]
    exp = expected("pytorch_trace_long", 0)
    assert lead.startswith("Share of the trace window per rank: rank 0: compute ")
    assert f"idle {100 * (1 - exp['busy'] / exp['window']):.1f}%" in lead.split("; rank 1")[0]


def test_a_question_about_one_rank_is_answered_for_that_rank(asker):
    res = asker.ask("top 10 gpu kernels rank1 h200")
    assert {r["rank"] for r in res.rows if r["kind"] == "breakdown"} == {1}
    totals = {}
    for e in raw("pytorch_trace", 1):
        if e.get("cat") == "kernel":
            totals[e["name"]] = totals.get(e["name"], 0.0) + e["dur"]
    top = [r for r in res.rows if r["kind"] == "top"]
    assert top[0]["value"] == pytest.approx(max(totals.values()), abs=1e-3)   # rank 1's own, not both ranks' sum
    assert res.answer.startswith("Top 10 kernels by total time on rank 1: ")   # as many as asked
    both = asker.ask("Is rank 0 or rank 1 idle more often in the H200 trace?")   # two ranks named: both shown
    assert {r["rank"] for r in both.rows if r["kind"] == "breakdown"} == {0, 1}


def test_the_longest_single_kernel_is_one_call_not_a_sum(asker):
    res = asker.ask("longest single kernel in the h200 long trace")
    longest = max(((e["dur"], rank, e["name"]) for rank in (0, 1) for e in raw("pytorch_trace_long", rank)
                   if e.get("cat") == "kernel"), key=lambda x: x[0])
    assert res.answer.startswith(f"The longest single kernel is {tb.short_name(longest[2], 60)} on rank {longest[1]}: "
                                 f"{tb.ms(longest[0])} in one call")


def test_the_straggler_is_the_rank_that_computes_longest_outside_nccl(asker):
    res = asker.ask("which rank is the straggler in the long h200 pytorch trace")
    assert "pytorch_trace_long" in res.answer
    outside = {rk: expected("pytorch_trace_long", rk)["busy"] - expected("pytorch_trace_long", rk)["comm"]
               for rk in (0, 1)}
    assert res.answer.startswith(f"Rank {max(outside, key=outside.get)} looks like the straggler")


def test_the_share_of_busy_time_is_of_busy_time_not_the_window(asker):
    res = asker.ask("what share of rank one busy time is nccl in the short trace")
    exp = expected("pytorch_trace", 1)
    assert res.intent == "trace_breakdown" and "msg_bytes" not in res.slots     # "rank one" is no size
    assert res.answer.startswith(f"Share of the GPU's busy time in NCCL kernels (overlapped or not): rank 1: "
                                 f"{100 * exp['comm'] / exp['busy']:.0f}% ")


def test_a_long_trace_named_with_words_between(asker):
    res = asker.ask("top five kernels in the long pie torch trace on rank zero")
    assert "pytorch_trace_long" in res.notes[0] or any("pytorch_trace_long: the longest" in n for n in res.notes)


def test_ranks_the_trace_lacks_are_said_first(asker):
    res = asker.ask("kernel time rank 2 vs rank 3 h200 trace")
    assert res.intent == "trace_breakdown"
    assert res.answer.startswith("This trace has no rank 2 or 3 (its ranks: 0, 1)")
    assert any("no rank 2 or 3 in this trace" in n for n in res.notes)
    # a rank that exists is still answered alone, with no such sentence
    res = asker.ask("top kernels on rank 1 of the h200 trace")
    assert not res.answer.startswith("This trace has no") and any("rank 1 only" in n for n in res.notes)
