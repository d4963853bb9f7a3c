"""Where the time goes in a PyTorch profiler (Kineto) trace: "what are the top kernels in the H200 trace?",
"how much time goes to NCCL communication per rank?", "how idle is the GPU?".

A trace set is picked (the files of one directory, one run per rank); the GPU intervals of each rank are
unioned by a sweep over interval boundaries (so overlapping kernels, streams and copies are not counted twice;
done once per run when it is loaded, ingest/summaries.py), and two kinds of rows come back: kind='breakdown'
(per rank: compute, exposed communication, memory, idle; together they make the trace window) and kind='top'
(the top_n kernels or ops by total duration, summed over the ranks of the set).

Categories (GPU events only, ph='X'): communication = kernels named nccl*, compute = the other kernels,
memory = gpu_memcpy and gpu_memset. A moment where a compute kernel runs counts as compute even if an NCCL
kernel runs beside it (that overlap is reported in comm_total_us / overlap_us); communication is NCCL time
with no compute kernel beside it; idle = trace window - GPU busy time. The window is the profiler's
'Trace' span when the trace has one, else the first to the last event.
"""
from __future__ import annotations

import re
from typing import Any

from app.catalog import Catalog
from app.intents import OutOfScope, Plan
from app.intents._common import cite, require_system

NAME = "trace_breakdown"
TRACE_CATS = ("kernel", "cpu_op", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_driver", "user_annotation",
              "gpu_user_annotation")
CATEGORIES = ("compute", "communication", "memory", "idle")

# Each trace run's window and GPU time split, computed once when it was loaded (trace_run_stats, ingest/summaries.py,
# by the interval sweep the docstring describes: sweeping 430,000 events per question took most of its 40-50 ms).
# The set is picked and the breakdown rows are made from these rows in Python (_narrow.trace); TOP_SQL then sums
# the picked runs' events by name. One query with the set list, the breakdown and the top kernels as CTEs took
# DuckDB 11 ms to plan and run; the two plain ones take 3-4.
RUNS_SQL = """SELECT s.run_id, r.system_id, r.source_file, s.trace_set, s.rank, s.t0, s.t1, s.compute, s.communication,
       s.memory, s.comm_total_us, s.overlap_us, s.busy_us, s.nccl_kernels, s.kernels
FROM trace_run_stats s JOIN runs r USING (run_id)
WHERE s.t0 IS NOT NULL{system}"""

TOP_SQL = """SELECT e.name, e.cat AS category, count(*) AS calls, round(sum(e.dur_us), 3) AS value,
       count(DISTINCT e.run_id) AS n_ranks
FROM trace_events e
WHERE list_contains($runs, e.run_id) AND e.ph = 'X' AND e.cat = $trace_cat AND e.dur_us IS NOT NULL{name_filter}
GROUP BY e.name, e.cat
ORDER BY value DESC, e.name
LIMIT $top_n"""

LONG = ("long", "longer", "longest", "largest", "big", "bigger")
SHORT = ("short", "shorter", "shortest", "small", "smaller", "default", "latest", "recent", "most recent")


# What a profiler trace can tell: when each kernel, op and copy ran and for how long, so times, shares of the
# window, counts and overheads. A temperature, power or clock asked "during the trace" is not in it, and the
# breakdown of times would be a confident answer to another question.
TRACE_MEASURES = {"time", "latency", "share", "utilization", "overhead", "count", "duration"}


def plan(slots: dict[str, Any], cat: Catalog) -> Plan:
    s = dict(slots)
    traced = sorted(x.system_id for x in cat.systems.values() if x.n_events)
    if not traced:
        raise OutOfScope("No profiler traces are loaded.")
    if s.get("metric") and s["metric"] not in TRACE_MEASURES:
        raise OutOfScope(f"A profiler trace records when kernels, ops and copies ran and for how long; it holds no "
                         f"{str(s['metric']).replace('_', ' ')}. Ask where the time goes, the top kernels or the "
                         f"compute, communication and idle split.")
    params: dict[str, Any] = {}
    system = ""
    if s.get("system"):
        sid = require_system(s, cat)
        if sid not in traced:
            raise OutOfScope(f"No profiler trace is loaded for {cat.name(sid)}; traces exist for: "
                             + ", ".join(cat.name(x) for x in traced) + ".")
        system = " AND r.system_id = $system"
        params["system"] = sid
    run = s.get("run")
    pick = "named by the run slot"
    if run is None or (isinstance(run, str) and run.strip().lower() in SHORT):
        by, run = "shortest", None
        pick = "by default the shortest loaded; ask for run 'long' or a directory name for another"
    elif isinstance(run, str) and run.strip().lower() in LONG:
        by, run = "longest", None
        pick = "the longest loaded"
    elif isinstance(run, int) and not isinstance(run, bool):
        by = "run_id"
    elif isinstance(run, str) and run.strip():
        by, run = "name", run.strip()
    else:
        raise OutOfScope("run must be a run id, a trace directory name, or 'long' / 'short'.")
    top_n = s.get("top_n", 10)
    if isinstance(top_n, bool) or not isinstance(top_n, int) or not 1 <= top_n <= 200:
        raise OutOfScope("top_n must be a whole number from 1 to 200.")
    tc = s.get("trace_cat") or "kernel"
    if tc not in TRACE_CATS:
        raise OutOfScope(f"{tc!r} is no trace event category; categories: {', '.join(TRACE_CATS)}.")
    top = {"trace_cat": tc, "top_n": top_n}
    name_filter = ""
    if s.get("library") == "nccl":
        name_filter = top["names"] = " AND e.name ILIKE 'nccl%'"
    elif s.get("app"):
        if not isinstance(s["app"], str):
            raise OutOfScope("app must be a (part of a) kernel or op name.")
        name_filter = top["names"] = " AND e.name ILIKE '%' || $app || '%'"
        top["app"] = s["app"]
    s.setdefault("top_n", top_n)
    return Plan(sql=RUNS_SQL.format(system=system), params=params,
                chart={"kind": "stacked_bar", "x": "rank", "stack": "category", "y": "value", "unit": "us",
                       "series": list(CATEGORIES), "rows": "kind = 'breakdown'"},
                slots=s, extra={"trace_cat": tc, "pick": pick, "top_sql": TOP_SQL.format(name_filter=name_filter)},
                narrow={"kind": "trace", "by": by, "run": run, "top": top})   # top: TOP_SQL's filter and values


def short_name(name: str, limit: int = 60) -> str:
    """'void at::native::foo<...>(...)' -> 'at::native::foo'; 'ncclDevKernel_AllReduce_...(args)' -> itself."""
    n = re.sub(r"^void ", "", name or "")
    n = re.split(r"[<(]", n, maxsplit=1)[0].strip() or name
    return n if len(n) <= limit else n[:limit - 3] + "..."


def ms(us: float) -> str:
    return f"{us / 1000:.3g} ms" if us >= 100 else f"{us:.3g} us"


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    brk = [r for r in rows if r["kind"] == "breakdown"]
    top = [r for r in rows if r["kind"] == "top"]
    if not brk:
        run = plan.slots.get("run")
        sets = next((r["trace_sets"] for r in rows if r.get("trace_sets")), None) or "none"
        raise OutOfScope(f"No loaded trace matches {run!r}; trace sets loaded: {sets}." if run is not None
                         else f"No trace matches; trace sets loaded: {sets}.")
    for r in brk:
        r["share"] = round(100.0 * r["value"] / r["window_us"], 1) if r["window_us"] else None
    for r in top:
        r["share"] = round(100.0 * r["value"] / r["window_us"], 1) if r["window_us"] else None
    first = brk[0]
    tset, sid = first["trace_set"], first["system_id"]
    ranks = sorted({r["rank"] for r in brk}, key=lambda x: (x is None, x))
    windows = {r["rank"]: r["window_us"] for r in brk}
    others = [x for x in (first.get("trace_sets") or "").split("; ") if x and not x.startswith(tset + " ")]
    plan.notes.append(f"trace set {tset}: {plan.extra['pick']}"
                      + (f"; other trace sets: {'; '.join(others)}" if others else ""))
    plan.notes.append("communication = NCCL kernels with no compute kernel beside them; NCCL time overlapped "
                      "by compute is in comm_total_us and overlap_us")
    plan.extra.update(trace_set=tset, ranks=ranks)
    comm, kern, idle = [], [], []
    for rk in ranks:
        rr = {r["category"]: r for r in brk if r["rank"] == rk}
        c = rr["communication"]
        comm.append(f"{100.0 * (c['comm_total_us'] or 0) / c['window_us']:.1f}%" if c["window_us"] else "n/a")
        kern.append(str(c["nccl_kernels"] or 0))
        idle.append(f"{rr['idle']['share']:.0f}%")
    on = " and ".join(f"{x} on rank {rk}" for x, rk in zip(comm, ranks))
    detail = f"{' and '.join(kern)} NCCL kernels; GPU idle {' and '.join(idle)}"
    win = ", ".join(ms(windows[rk]) for rk in ranks)
    what = {"kernel": "kernel", "cpu_op": "op", "user_annotation": "annotation",
            "gpu_user_annotation": "GPU annotation"}.get(plan.extra["trace_cat"], plan.extra["trace_cat"] + " event")
    if top:
        t = top[0]
        head = (f"top {what}: {short_name(t['name'])} ({ms(t['value'])} over {t['calls']} calls"
                f"{', summed over ' + str(t['n_ranks']) + ' ranks' if t['n_ranks'] > 1 else ''})")
    else:
        head = f"no {what} matches the filter"
    return (f"In the {cat.name(sid)} trace {tset} ({len(ranks)} rank{'s' if len(ranks) > 1 else ''}, "
            f"window {win}), {head}; NCCL communication kernels occupy {on} of the window ({detail})"
            f"{cite(brk)}.")
