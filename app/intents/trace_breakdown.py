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
from nlu.cues import TRACE_MEASURES

NAME = "trace_breakdown"
WANTS_QUESTION = True   # app.ask passes the question text: what it asks about (overlap, idle, launches) is no slot
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

# Kernel launches (HTA's "kernel launch statistics"): each cudaLaunchKernel call on the CPU joined to the kernel it
# launched by the correlation id Kineto gives both; the delay is from the call's start to the kernel's start.
LAUNCH_SQL = """SELECT l.run_id, count(*) AS launches, round(avg(l.dur_us), 3) AS cpu_us,
       round(sum(l.dur_us), 3) AS cpu_total_us,
       round(median(k.ts_us - l.ts_us), 3) AS delay_p50, round(quantile_cont(k.ts_us - l.ts_us, 0.95), 3) AS delay_p95
FROM trace_events l JOIN trace_events k ON k.run_id = l.run_id AND k.correlation = l.correlation AND k.cat = 'kernel'
WHERE list_contains($runs, l.run_id) AND l.cat = 'cuda_runtime' AND l.name = 'cudaLaunchKernel'
GROUP BY l.run_id
ORDER BY l.run_id"""

# The single longest event of each rank (Perfetto's "longest slice"): "the longest single kernel" is one call, not a
# kernel's summed time
LONGEST_SQL = """SELECT e.run_id, e.name, round(e.dur_us, 3) AS value
FROM trace_events e
WHERE list_contains($runs, e.run_id) AND e.ph = 'X' AND e.cat = $trace_cat AND e.dur_us IS NOT NULL
QUALIFY row_number() OVER (PARTITION BY e.run_id ORDER BY e.dur_us DESC, e.name) = 1
ORDER BY e.run_id"""

# What a trace question asks about beyond the whole split, first match wins; each has a lead sentence of its own
# (the analyses users of HTA and Perfetto ask for: overlap of communication with compute, idle time per rank,
# kernel launch statistics, the top kernels). The split follows the lead.
FOCUS = (("overlap", re.compile(r"\boverlap\w*|\bhid(den|e|es|ing)\b|\bconcurren\w*|\bat the same time\b")),
         ("launch", re.compile(r"\blaunch\w*")),
         ("longest", re.compile(r"\b(longest|slowest) (single|individual|one) (kernel|op|call|event)\b|"
                                r"\blongest (kernel |op )?(call|instance|invocation)\b")),
         ("straggler", re.compile(r"\bstraggl\w*|\b(slowest|lagging) rank\b|\bwho (do|does) (the )?(others?|"
                                  r"ranks?) wait (for|on)\b")),
         ("comm_busy", re.compile(r"\b(share|fraction|percent\w*|part|much) of (rank \w+'?s? )?(the |its )?"
                                  r"(gpu )?busy( time)?\b|\bbusy time\b.*\b(nccl|comm\w*)\b")),
         ("idle", re.compile(r"\bidle\w*|\bstall\w*|\bbubbles?\b|\bgaps?\b|\bwait(s|ing)?\b|\bbusy\b|"
                             r"\butili[sz]\w*")),
         ("top", re.compile(r"\btop\b|\bheaviest\b|\bmost expensive\b|\b(which|what) (kernels?|ops?)\b|"
                            r"\b(longest|slowest)( running)? (kernels?|ops?)\b")))


# the split's own words: a question naming two of them ("compute vs communication vs idle") asks for the split
_SPLIT_WORDS = (re.compile(r"\bcompute\b|\bcomputation\b"), re.compile(r"\bcomm\w*|\bnccl\b"),
                re.compile(r"\bidle\b"), re.compile(r"\bmem(ory|cpy|set)\b"))


_RANK = re.compile(r"\brank ?(\d+|zero|one|two|three|four|five|six|seven)\b")
_RANK_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


def rank_named(question: str) -> int | None:
    """"top 10 gpu kernels rank1", "on rank zero": the one rank a question is about (None for none, or for two:
    "is rank 0 or rank 1 idle more" compares them)."""
    named = {int(m) if m.isdigit() else _RANK_WORDS[m] for m in _RANK.findall((question or "").lower())}
    return named.pop() if len(named) == 1 else None


def focus_of(question: str, slots: dict[str, Any]) -> str | None:
    said = (question or "").lower()
    if sum(bool(rx.search(said)) for rx in _SPLIT_WORDS) >= 2 and not FOCUS[0][1].search(said):
        return "split"
    hit = next((name for name, rx in FOCUS if rx.search(said)), None)
    return hit or ("top" if slots.get("top_n") is not None else None)


_SAID_LENGTH = re.compile(r"\b(long|longer|longest|short|shorter|shortest)(?: \w+){0,3}?(?: |-)"
                          r"(?:traces?|profiles?|runs?|captures?)\b")

LONG = ("long", "longer", "longest", "largest", "big", "bigger")
SHORT = ("short", "shorter", "shortest", "small", "smaller", "default", "latest", "recent", "most recent")


# What a profiler trace can tell (nlu.cues.TRACE_MEASURES). A temperature, power or clock asked "during the trace"
# is not in it, and the breakdown of times would be a confident answer to another question.


def plan(slots: dict[str, Any], cat: Catalog, question: str = "") -> Plan:
    s = dict(slots)
    focus = focus_of(question, s)
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
    if run is None and (said := _SAID_LENGTH.search((question or "").lower())):
        run = said.group(1)   # "the long h200 trace": the slot model holds no run word, the planner reads it
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
                slots=s, extra={"trace_cat": tc, "pick": pick, "top_sql": TOP_SQL.format(name_filter=name_filter),
                                "launch_sql": LAUNCH_SQL, "longest_sql": LONGEST_SQL, "focus": focus},
                # top: TOP_SQL's filter and values; launches: LAUNCH_SQL runs too; rank: the one rank named
                narrow={"kind": "trace", "by": by, "run": run, "top": top, "launches": focus == "launch",
                        "longest": focus == "longest",
                        "rank": rank_named(question)})


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
    if plan.narrow.get("rank") is not None:
        plan.notes.append(f"rank {plan.narrow['rank']} only, as the question names it" if ranks == [plan.narrow["rank"]]
                          else f"no rank {plan.narrow['rank']} in this trace: every rank is shown")
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
    split = (f"In the {cat.name(sid)} trace {tset} ({len(ranks)} rank{'s' if len(ranks) > 1 else ''}, "
             f"window {win}), {head}; NCCL communication kernels occupy {on} of the window ({detail})"
             f"{cite(brk)}.")
    lead = _lead(plan.extra.get("focus"), brk, top, [r for r in rows if r["kind"] == "launch"], ranks, what,
                 [r for r in rows if r["kind"] == "longest"])
    if lead:
        plan.notes.append(f"read as a question about {plan.extra['focus']}: answered first, then the whole split")
    return f"{lead} {split}" if lead else split


def _lead(focus: str | None, brk: list[dict], top: list[dict], launches: list[dict], ranks: list,
          what: str, longest: list[dict] = ()) -> str:
    """The sentence that answers what the question asked about, before the whole split ('' for none)."""
    by_rank = {rk: {r["category"]: r for r in brk if r["rank"] == rk} for rk in ranks}
    if focus == "longest" and longest:
        top1 = max(longest, key=lambda r: r["value"])
        rest = "; ".join(f"rank {r['rank']}: {short_name(r['name'], 48)} {ms(r['value'])}"
                         for r in longest if r is not top1)
        return (f"The longest single {what} is {short_name(top1['name'], 60)} on rank {top1['rank']}: "
                f"{ms(top1['value'])} in one call" + (f" ({rest})." if rest else "."))
    if focus == "straggler" and len(ranks) > 1:
        # the rank the others wait for: the busiest GPU, while the others sit in NCCL kernels or idle
        busy = {rk: by_rank[rk]["communication"]["busy_us"] or 0 for rk in ranks}
        late = max(ranks, key=lambda rk: (busy[rk] - (by_rank[rk]["communication"]["comm_total_us"] or 0)))
        waits = "; ".join(f"rank {rk} spends {ms(by_rank[rk]['communication']['comm_total_us'] or 0)} in NCCL "
                          f"kernels and idles {by_rank[rk]['idle']['share']:.0f}% of its window"
                          for rk in ranks if rk != late)
        c = by_rank[late]["communication"]
        return (f"Rank {late} looks like the straggler: it computes the longest outside NCCL kernels "
                f"({ms(busy[late] - (c['comm_total_us'] or 0))}; {ms(c['comm_total_us'] or 0)} in NCCL), while {waits} "
                "(NCCL time on a rank that computes less is mostly waiting for the others).")
    if focus == "comm_busy":
        parts = []
        for rk in ranks:
            c = by_rank[rk]["communication"]
            if c["busy_us"]:
                parts.append(f"rank {rk}: {100.0 * (c['comm_total_us'] or 0) / c['busy_us']:.0f}% "
                             f"({ms(c['comm_total_us'] or 0)} of {ms(c['busy_us'])} busy)")
        if parts:
            return ("Share of the GPU's busy time in NCCL kernels (overlapped or not): " + "; ".join(parts) + ".")
    if focus == "overlap":
        parts = []
        for rk in ranks:
            c = by_rank[rk]["communication"]
            total, lapped = c["comm_total_us"] or 0, c["overlap_us"] or 0
            if total:
                parts.append(f"{100.0 * lapped / total:.0f}% on rank {rk} ({ms(lapped)} of {ms(total)})")
        if parts:
            first = parts[0].replace("%", "% of the NCCL kernels' time", 1)
            rest = "".join((" and " if i == len(parts) - 1 else ", ") + p for i, p in enumerate(parts[1:], 1))
            return f"Compute overlaps {first}{rest}; the rest is exposed communication."
    if focus == "split":
        parts = []
        for rk in ranks:
            rr = by_rank[rk]
            parts.append(f"rank {rk}: " + ", ".join(f"{name} {rr[c]['share']:.1f}%" for c, name in (
                ("compute", "compute"), ("communication", "exposed communication"), ("memory", "memory copies"),
                ("idle", "idle")) if c in rr and rr[c]["share"] is not None))
        return "Share of the trace window per rank: " + "; ".join(parts) + "."
    if focus == "idle":
        order = sorted(ranks, key=lambda rk: -(by_rank[rk]["idle"]["share"] or 0))
        first = by_rank[order[0]]["idle"]
        rest = "; ".join(f"rank {rk}: {by_rank[rk]['idle']['share']:.0f}% ({ms(by_rank[rk]['idle']['value'])})"
                         for rk in order[1:])
        most = "the most" if len(order) > 1 else ""
        return (f"Rank {order[0]} is idle {most}: the GPU does nothing for {first['share']:.0f}% of its "
                f"{ms(first['window_us'])} window ({ms(first['value'])})".replace("idle :", "idle:")
                + (f"; {rest}." if rest else "."))
    if focus == "top" and top:
        listed = ", ".join(f"{short_name(t['name'], 48)} {ms(t['value'])} ({t['calls']} calls)" for t in top[:5])
        summed = (f", summed over {top[0]['n_ranks']} ranks" if top[0]["n_ranks"] > 1
                  else f" on rank {ranks[0]}" if len(ranks) == 1 else "")
        more = f" (all {len(top)} in the chart)" if len(top) > 5 else ""
        return f"Top {min(len(top), 5)} {what}s by total time{summed}: {listed}{more}."
    if focus == "launch":
        if not launches:
            return "No kernel launch (cudaLaunchKernel) in this trace can be matched to its kernel."
        parts = [f"rank {r['rank']}: {r['launches']} launches taking {ms(r['cpu_total_us'])} on the CPU "
                 f"({r['cpu_us']:.3g} us each, mean), the "
                 f"kernel starting {r['value']:.3g} us after the call began (median; p95 {r['delay_p95']:.3g} us)"
                 for r in launches]
        return "Kernel launches (each cudaLaunchKernel call matched to its kernel by correlation id): " \
            + "; ".join(parts) + "."
    return ""
