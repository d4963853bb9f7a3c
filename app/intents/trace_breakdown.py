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

import functools
import re
from typing import Any

from app.catalog import Catalog
from app.intents import OutOfScope, Plan
from app.intents._common import cite, require_system
from nlu.cues import MEMORY_TIME, TRACE_MEASURES
from nlu.vocab import join_spelled

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
       round(avg(e.dur_us), 3) AS mean_us,
       count(DISTINCT e.run_id) AS n_ranks
FROM trace_events e
WHERE list_contains($runs, e.run_id) AND e.ph = 'X' AND e.cat = $trace_cat AND e.dur_us IS NOT NULL{name_filter}
GROUP BY e.name, e.cat
ORDER BY {order}e.name
LIMIT $top_n"""

# Per rank, the events the question's filter keeps (a kernel family named, a category such as memcpy): how many, how
# long in all, and per call (mean, median, longest). "How much time do the nvjet kernels take" is a per-rank sum.
# The category's whole time comes along, so a share can be of all the rank's kernel time as well as of its window.
STATS_SQL = """SELECT e.run_id, count(*) FILTER (WHERE {match}) AS calls,
       round(sum(e.dur_us) FILTER (WHERE {match}), 3) AS total_us,
       round(avg(e.dur_us) FILTER (WHERE {match}), 3) AS mean_us,
       round(median(e.dur_us) FILTER (WHERE {match}), 3) AS median_us,
       round(max(e.dur_us) FILTER (WHERE {match}), 3) AS max_us, count(DISTINCT e.name) FILTER (WHERE {match}) AS names,
       round(sum(e.dur_us), 3) AS category_us
FROM trace_events e
WHERE list_contains($runs, e.run_id) AND e.ph = 'X' AND e.cat = $trace_cat AND e.dur_us IS NOT NULL
GROUP BY e.run_id
ORDER BY e.run_id"""

# "layernorm vs gelu backward time": the events of each word said, per rank, set side by side (the words and their
# event names as two lists of one length)
PARTS_SQL = """SELECT e.run_id, p.part, count(*) AS calls, round(sum(e.dur_us), 3) AS total_us,
       round(avg(e.dur_us), 3) AS mean_us
FROM trace_events e JOIN (SELECT unnest($part_words) AS part, unnest($part_names) AS name) p ON e.name = p.name
WHERE list_contains($runs, e.run_id) AND e.ph = 'X' AND e.cat = $trace_cat AND e.dur_us IS NOT NULL
GROUP BY e.run_id, p.part
ORDER BY e.run_id, p.part"""

# Kernel time per CUDA stream and rank (HTA's per-stream view): NCCL runs on a stream of its own
STREAM_SQL = """SELECT e.run_id, e.stream, count(*) AS calls, round(sum(e.dur_us), 3) AS total_us
FROM trace_events e
WHERE list_contains($runs, e.run_id) AND e.ph = 'X' AND e.cat = 'kernel' AND e.dur_us IS NOT NULL
  AND e.stream IS NOT NULL
GROUP BY e.run_id, e.stream
ORDER BY e.run_id, e.stream"""

# Kernel launches (HTA's "kernel launch statistics"): each cudaLaunchKernel call on the CPU joined to the kernel it
# launched by the correlation id Kineto gives both; the delay is from the call's start to the kernel's start.
LAUNCH_SQL = """SELECT l.run_id, count(*) AS launches, round(avg(l.dur_us), 3) AS cpu_us,
       round(sum(l.dur_us), 3) AS cpu_total_us,
       round(median(k.ts_us - l.ts_us), 3) AS delay_p50, round(quantile_cont(k.ts_us - l.ts_us, 0.95), 3) AS delay_p95,
       round(avg(k.ts_us - l.ts_us), 3) AS delay_mean
FROM trace_events l JOIN trace_events k ON k.run_id = l.run_id AND k.correlation = l.correlation AND k.cat = 'kernel'
WHERE list_contains($runs, l.run_id) AND l.cat IN ('cuda_runtime', 'cuda_driver')
  AND l.name IN ('cudaLaunchKernel', 'cuLaunchKernelEx')
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
         ("exposed", re.compile(r"\bexposed\b|\bnot (hidden|overlapped)\b")),
         ("count", re.compile(r"\bhow many (\w+ )?(kernels?|ops?|calls?|events?|memcpys?|memsets?|copies|"
                              r"launch(es)?)\b|\bnumber of (\w+ )?(kernels?|ops?|calls?|events?)\b|"
                              r"\bkernel count\b|\btotal (\w+ )?(kernel )?launches\b")),
         ("calls", re.compile(r"\bmost (often|frequent\w*|calls?)\b|\bcalled (the )?most\b|"
                              r"\bmost (called|invoked|launched)\b|\bby (number of )?(calls|launches)\b|"
                              r"\bcall counts?\b")),
         ("launch", re.compile(r"launch\w*")),   # "cudaLaunchKernel overhead": no word boundary inside the name
         ("longest", re.compile(r"\b(longest|slowest) (single|individual|one)( gpu| cuda| cpu)? (kernel|op|call|event)\b|"
                                r"\blongest (kernel |op )?(call|instance|invocation)\b|\blongest slices?\b|"
                                r"\b(longest|slowest) (kernel|op|call|event)\b(?! time)")),
         ("straggler", re.compile(r"\bstraggl\w*|\b(slowest|lagging) rank\b|\bwho (do|does) (the )?(others?|"
                                  r"ranks?) wait (for|on)\b")),
         ("comm_busy", re.compile(r"\b(share|fraction|percent\w*|part|much) of (rank \w+'?s? )?(the |its )?"
                                  r"(gpu )?busy( time)?\b|\bbusy time\b.*\b(nccl|comm\w*)\b")),
         ("idle", re.compile(r"\bidle\w*|\bstall\w*|\bbubbles?\b|\bgaps?\b|\bwait(s|ing)?\b|\bbusy\b(?! (with|doing))|"
                             r"\butili[sz]\w*")),
         ("stats", re.compile(r"\b(median|average|mean|typical)\b.{0,40}\b(duration|time|length|kernel|op|call|"
                              r"step|iteration)s?\b|\bper (call|iteration|step|launch|invocation)\b|"
                              r"\beach (call|iteration|step)\b|\bduration of (a|one|each)\b")),
         ("stream", re.compile(r"\bstreams?\b")),
         ("total", re.compile(r"\btotal (\w+ )?(kernel|gpu) time\b|\b(total|sum of)( the)? time of (all )?(the )?"
                              r"(gpu )?kernels\b")),
         ("by_mean", re.compile(r"\b(slowest|longest|fastest|quickest) on average\b|\bby (mean|average) "
                                r"(duration|time)\b|\b(highest|longest) (mean|average) (duration|time)\b")),
         ("top", re.compile(r"\btop\b|\bheaviest\b|\bmost expensive\b|\b(which|what) (\w+ )?(kernels?|ops?)\b|"
                            r"\bdominat\w*|"
                            r"\b(longest|slowest)( running)? (kernels?|ops?)\b")))


# the split's own words: a question naming two of them ("compute vs communication vs idle") asks for the split
_SPLIT_WORDS = (re.compile(r"\bcompute\b|\bcomputation\b"), re.compile(r"\bcomm\w*|\bnccl\b"),
                re.compile(r"\bidle\b"), re.compile(r"\bmem(ory|cpy|set)\b"))


# a rank by its number, or by its GPU's ("how long was GPU 1 idle": one GPU per rank, in order)
_RANK = re.compile(r"\b(?:rank|gpu) ?(\d+|zero|one|two|three|four|five|six|seven)\b")
_RANK_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


def ranks_named(question: str) -> list[int]:
    """Every rank the question names, in order ("kernel time rank 2 vs rank 3": [2, 3]; "on rank zero": [0])."""
    return sorted({int(m) if m.isdigit() else _RANK_WORDS[m] for m in _RANK.findall((question or "").lower())})


def focus_of(question: str, slots: dict[str, Any]) -> str | None:
    said = (question or "").lower()
    if sum(bool(rx.search(said)) for rx in _SPLIT_WORDS) >= 2 and not FOCUS[0][1].search(said):
        return "split"
    hit = next((name for name, rx in FOCUS if rx.search(said)), None)
    if hit is None and MEMORY_TIME.search(said) and not any(rx.search(said) for _, rx in CATEGORY_WORDS):
        return "split"   # "what memory time does rank 0 give": the memory part of the split, beside the others
    return hit or ("top" if slots.get("top_n") is not None else None)


# "the long h200 trace", "the longer of the two traces"; not "how long is the trace", "the longest slice in the trace"
_SAID_LENGTH = re.compile(r"(?<!how )\b(long|longer|longest|short|shorter|shortest)"
                          r"(?: (?!is\b|are\b|was\b|does\b|did\b|in\b|on\b|within\b|slices?\b|kernels?\b|ops?\b|"
                          r"events?\b|calls?\b)\w+){0,3}?(?: |-)(?:traces?|profiles?|runs?|captures?)\b")

# Event categories said in words, where no slot holds one: "top 10 cpu ops", "memset time on rank 0"
CATEGORY_WORDS = (("gpu_memcpy", re.compile(r"\bmemcpys?\b|\bmem ?cop(y|ies)\b|\bmemory cop(y|ies)\b")),
                  ("gpu_memset", re.compile(r"\bmemsets?\b")),
                  ("cpu_op", re.compile(r"\bcpu[- ]?(side )?(ops?|operators?|time)\b|\boperators?\b|\baten\b|"
                                        r"\bops? on the cpu\b")),
                  ("cuda_runtime", re.compile(r"\bcuda (runtime|api)( calls?)?\b|\bruntime (api )?calls?\b")),
                  ("user_annotation", re.compile(r"\bannotations?\b|\branges?\b")))

# the top list's order when the question ranks by something other than total time
_TOP_ORDER = {"calls": "calls DESC, value DESC, ", "by_mean": "mean_us DESC, value DESC, "}

# Names for kernel families that no kernel name spells out: cuBLAS's GEMMs on Hopper are nvjet_* kernels, and
# cuDNN's fused attention kernels say sdpa and flash
KERNEL_FAMILIES = {"gemm": ("gemm", "nvjet", "cutlass", "cublas", "s16816", "sgemm", "hgemm"),
                   "matmul": ("gemm", "nvjet", "cutlass", "cublas", "s16816", "sgemm", "hgemm"),
                   "attention": ("sdpa", "flash", "fmha", "attention"),
                   "sdpa": ("sdpa", "flash", "fmha", "attention"), "flash": ("sdpa", "flash", "fmha", "attention")}
for _w in list(KERNEL_FAMILIES):
    KERNEL_FAMILIES[_w + "s"] = KERNEL_FAMILIES[_w]

# Question words that never pick events by their name: the analysis' own words, and words inside many names
# ("compute_dot_do_o" is no answer to "time in compute"; "softmax_warp_forward" is not the forward pass)
_NOT_NAMES = set("""kernel kernels time times total spent spend spends trace traces traced profile profiles profiler
rank ranks gpu gpus cuda native void launch launches launched call calls called step steps event events slice slices
stream streams share percent much many long longer longest short shortest what which does take takes took show give
list most often frequent each every from with into over than that this there these those where goes went compute
computation computing communication comm comms nccl idle memory overlap overlapped busy window breakdown split
forward backward fwd bwd pass passes median mean average typical duration durations about first last top heaviest
expensive single other others their them both half whole h200 nvidia pytorch torch kineto hta perfetto nsys chart plot
table graph please want need know tell the and for per all any how are was its out via like would could should
percentage also just only some more less than then when while during run runs aten etc""".split())


@functools.lru_cache(maxsize=None)
def name_tokens(name: str) -> frozenset[str]:
    """The words of an event's name, lower-cased ("CUDAFunctor_add" -> cuda, functor, add), and two or three of
    them run together ("layer_norm" -> layernorm, "AllReduce" -> allreduce): what a question may call it by.
    Cached: the loaded traces' names are split once, not for every trace question."""
    parts = [t.lower() for chunk in re.split(r"[^A-Za-z0-9]+", name or "")
             for t in re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", chunk) or [chunk] if t]
    out = set(parts)
    for n in (2, 3):
        out.update("".join(parts[i:i + n]) for i in range(len(parts) - n + 1))
    return frozenset(out)


def names_said(question: str, names: dict[str, set[str]],
               category: str | None) -> tuple[dict[str, list[str]], str | None]:
    """{what the question called them: the event names} for the events its own words name ("nvjet kernels",
    "layer norm", "the add kernels", "flash attention"), and their category (the one asked for, else kernels);
    ({}, None) when no word names some events but not all of them. A word must be a word of a name (or two or
    three of them run together), so "names" is not "(anonymous namespace)"; a family's own parts (nvjet of a
    GEMM) may be inside one."""
    words = [w for w in re.findall(r"[a-z0-9]+", (question or "").lower())]
    for cat in ([category] if category else ["kernel", "user_annotation"]):
        # kernels, then the annotations a program names itself ("the optimizer step"); op names are everyday words
        # ("like" of aten::empty_like), so ops only where the question says ops
        said = _said_in(words, {n: name_tokens(n) for n, cs in names.items() if cat in cs})
        if said:
            return said, cat
    return {}, None


# words after which a number (spelled or not) says where in the trace, not which events
_PLACE_WORDS = {"rank", "ranks", "gpu", "stream", "streams", "device", "thread", "tid", "pid", "process"}


def _said_in(words: list[str], mine: dict[str, frozenset[str]]) -> dict[str, list[str]]:
    """names_said within one category's names (`mine`: name -> its words)."""
    said: dict[str, list[str]] = {}
    for i, w in enumerate(words):
        if i > 0 and words[i - 1] in _PLACE_WORDS:
            continue                                    # "rank zero" is a place in the trace, not "zero_grad"
        cands = []
        if i + 1 < len(words) and not {w, words[i + 1]} <= _NOT_NAMES:
            cands.append(w + words[i + 1])              # "layer norm", "all reduce", "gelu backward"
        if len(w) >= 3 and w not in _NOT_NAMES and not w.isdigit():
            cands.append(w)
        for c in cands:
            if c in KERNEL_FAMILIES:
                hit = sorted(n for n, toks in mine.items() if any(p in t for p in KERNEL_FAMILIES[c] for t in toks))
            else:
                hit = sorted(n for n, toks in mine.items() if c in toks)
            if hit:
                if hit not in said.values():            # "flash attention (sdpa)": one set of kernels, said thrice
                    said.setdefault(c, hit)
                break                                   # the pair, when it names something, before its words
    if not said or len({n for hit in said.values() for n in hit}) == len(mine):
        return {}                                       # a word inside every name picks nothing out
    # a word inside a pair said ("layer" of "layer norm") adds nothing the pair does not name
    return {c: hit for c, hit in said.items() if not any(c != d and c in d for d in said)}


# a question about how the whole trace splits ("break down the trace by category: kernels, memcpy, ..."): the words
# of its parts pick no events out
_SPLIT_ASKED = re.compile(r"\bsplit\w*|\bbreak ?down\b|\bbreak(s|ing)? down\b|\bby categor\w*|\bcategories\b")

# kernels set beside another category ("memcpy vs kernel time")
_KERNELS_BESIDE = re.compile(r"\b(vs\.?|versus|against|compared (to|with)|and)\b.*\bkernels?\b|"
                             r"\bkernels?\b.*\b(vs\.?|versus|against|compared (to|with)|and)\b")

# What a trace holds no record of: allocations (no memory events were profiled), occupancy and hardware counters
_NOT_TRACED = re.compile(r"\b(memory (allocated|allocations?|usage|used|footprint)|allocat\w*|occupancy|"
                         r"power|energy|temperature|counters?|flops|sm efficiency|(cache )?hit rates?|cache misses|"
                         r"tokens?( per second|/s)|samples? per second|line of (the )?(python|code|script)|"
                         r"source lines?|(call )?stacks?)\b")

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
    if s.get("metric") and s["metric"] not in TRACE_MEASURES and names_said(str(s["metric"]), cat.trace_names,
                                                                           None)[0]:
        s.pop("metric")    # "the loss (nll_loss) kernels": a word of kernels' names, not a measure
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
    said = join_spelled((question or "").lower())   # "top twenty c p u ops", "c u d a runtime calls": spelled out
    named_ranks = ranks_named(question)
    if _NOT_TRACED.search(said) and not s.get("app"):
        raise OutOfScope("A profiler trace records when kernels, ops and copies ran and for how long; these traces "
                         "hold no memory allocations, occupancy, power or hardware counters, no throughput of the "
                         "training and no call stacks. Ask where the time goes, the top kernels, a kernel's time per "
                         "rank or the compute, communication and idle split.")
    top_asked = s.get("top_n")
    top_n = s.get("top_n", 10)
    if isinstance(top_n, bool) or not isinstance(top_n, int) or not 1 <= top_n <= 200:
        raise OutOfScope("top_n must be a whole number from 1 to 200.")
    tc = s.get("trace_cat") or (None if _SPLIT_ASKED.search(said) else
                                next((c for c, rx in CATEGORY_WORDS if rx.search(said)), None))
    if tc and not s.get("trace_cat") and _KERNELS_BESIDE.search(said):
        tc, focus = None, "split"    # "memcpy vs kernel time": the categories side by side, as the split has them
    said_names: dict[str, list[str]] = {}
    app = s.get("app") if isinstance(s.get("app"), str) else None
    if app and app.lower() in KERNEL_FAMILIES:
        # "gemm kernels": the family's names (cuBLAS's nvjet_* on Hopper), not the letters g-e-m-m
        said_names, found = names_said(app, cat.trace_names, tc)
        tc, app = tc or found, None
    elif not app and s.get("library") != "nccl" and not _SPLIT_ASKED.search(said):
        # "total time in nvjet kernels", "layer norm", "the add kernels": the events the question's words name
        said_names, found = names_said(question, cat.trace_names, tc)
        tc = tc or found
    tc = tc or "kernel"
    if tc not in TRACE_CATS:
        raise OutOfScope(f"{tc!r} is no trace event category; categories: {', '.join(TRACE_CATS)}.")
    top = {"trace_cat": tc, "top_n": top_n}
    name_filter, named = "", None
    if s.get("library") == "nccl":
        name_filter = top["names"] = " AND e.name ILIKE 'nccl%'"
        named = "NCCL"
    elif said_names:
        name_filter = top["names"] = " AND list_contains($event_names, e.name)"
        top["event_names"] = sorted({n for hit in said_names.values() for n in hit})
        named = " or ".join(repr(w) for w in said_names)
    elif app:
        name_filter = top["names"] = " AND e.name ILIKE '%' || $app || '%'"
        top["app"] = app
        named = repr(app)
    elif s.get("app"):
        raise OutOfScope("app must be a (part of a) kernel or op name.")
    s.setdefault("top_n", top_n)
    # per-rank sums and per-call statistics of what the filter keeps, where the question is about some events
    stats = bool(name_filter) or tc != "kernel" or focus in ("stats", "count", "total")
    return Plan(sql=RUNS_SQL.format(system=system), params=params,
                chart={"kind": "stacked_bar", "x": "rank", "stack": "category", "y": "value", "unit": "us",
                       "series": list(CATEGORIES), "rows": "kind = 'breakdown'"},
                slots=s, extra={"trace_cat": tc, "pick": pick, "named": named, "streams_asked": _STREAM.findall(said),
                                "top_asked": top_asked,
                                "top_sql": TOP_SQL.format(name_filter=name_filter, order=_TOP_ORDER.get(
                                    focus, "value DESC, ")),
                                "stats_sql": STATS_SQL.format(match=name_filter[len(" AND "):] or "true"),
                                "stream_sql": STREAM_SQL,
                                "parts_sql": PARTS_SQL,
                                "launch_sql": LAUNCH_SQL, "longest_sql": LONGEST_SQL, "focus": focus},
                # top: TOP_SQL's filter and values; launches, longest, stats, streams: those queries run too; rank:
                # the one rank named
                narrow={"kind": "trace", "by": by, "run": run, "top": top, "launches": focus == "launch",
                        "longest": focus == "longest", "stats": stats, "streams": focus == "stream",
                        # several names said apart ("layernorm vs gelu"): each one's time too
                        "parts": {w: hit for w, hit in said_names.items()} if len(said_names) > 1 else None,
                        "order": focus if focus in _TOP_ORDER else "time",
                        # the one rank a question is about ("top 10 gpu kernels rank1"); two named ("is rank 0 or
                        # rank 1 idle more") compare them, so neither alone is kept
                        "rank": named_ranks[0] if len(named_ranks) == 1 else None, "ranks_named": named_ranks})


def short_name(name: str, limit: int = 60) -> str:
    """'void at::native::foo<...>(...)' -> 'at::native::foo'; 'ncclDevKernel_AllReduce_...(args)' -> itself."""
    n = re.sub(r"^void ", "", name or "").replace("(anonymous namespace)::", "")
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
    # ranks the question names that the trace lacks ("rank 2 vs rank 3" of a two-rank trace): said first, so the
    # numbers that follow are not read as theirs
    absent = [rk for rk in plan.narrow.get("ranks_named") or () if rk not in ranks]
    if plan.narrow.get("rank") is not None and not absent:
        plan.notes.append(f"rank {plan.narrow['rank']} only, as the question names it")
    elif absent:
        plan.notes.append(f"no rank {' or '.join(map(str, absent))} in this trace: every rank is shown")
    missing = (f"This trace has no rank {' or '.join(map(str, absent))} (its ranks: "
               f"{', '.join(str(rk) for rk in ranks)}); all of them are shown. ") if absent else ""
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
            "gpu_user_annotation": "GPU annotation", "gpu_memcpy": "memcpy", "gpu_memset": "memset",
            "cuda_runtime": "CUDA runtime call", "cuda_driver": "CUDA driver call"}.get(
        plan.extra["trace_cat"], plan.extra["trace_cat"] + " event")
    if top:
        t = top[0]
        head = (f"top {what}: {short_name(t['name'])} ({ms(t['value'])} over {t['calls']} calls"
                f"{', summed over ' + str(t['n_ranks']) + ' ranks' if t['n_ranks'] > 1 else ''})")
    else:
        head = f"no {what} matches the filter"
    split = (f"In the {cat.name(sid)} trace {tset} ({len(ranks)} rank{'s' if len(ranks) > 1 else ''}, "
             f"window {win}), {head}; NCCL communication kernels occupy {on} of the window ({detail})"
             f"{cite(brk)}.")
    focus, named = plan.extra.get("focus"), plan.extra.get("named")
    stats = [r for r in rows if r["kind"] == "stats"]
    for r in stats:
        r["share"] = round(100.0 * r["value"] / windows[r["rank"]], 1) if windows.get(r["rank"]) else None
    lead = _lead(focus, brk, top, [r for r in rows if r["kind"] == "launch"], ranks, what,
                 [r for r in rows if r["kind"] == "longest"], top_n=plan.extra.get("top_asked") or 5)
    each = [r for r in rows if r["kind"] == "part"]
    if each and focus in (None, "top"):
        lead = _parts_lead(each, what)
    elif focus in ("stats", "count", "total") or (not lead and (named or plan.extra["trace_cat"] != "kernel")):
        lead = _stats_lead(focus, stats, what, named, plan.extra["trace_cat"] in GPU_CATS)
    elif focus == "stream":
        lead = _stream_lead([r for r in rows if r["kind"] == "stream"], plan.extra.get("streams_asked") or [])
    if named:
        plan.notes.append(f"only {what}s matching {named}")
    if lead:
        plan.notes.append(f"read as a question about {focus or 'the ' + what + 's named'}: answered first, then the "
                          "whole split")
    return missing + (f"{lead} {split}" if lead else split)


_STREAM = re.compile(r"\bstreams? ?(\d+)\b")


# events on the GPU's timeline, whose time is a share of the trace window (CPU ops and annotations nest and overlap)
GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")


def _stats_lead(focus: str | None, stats: list[dict], what: str, named: str | None, on_gpu: bool = True) -> str:
    """Per rank, the events a filter keeps: their summed time and calls (named events), their count, or their
    time per call (mean, median, longest)."""
    if not stats:
        return f"No {what} matching {named} is in this trace." if named else ""
    which = f"{what}s matching {named}" if named else f"{what}s"
    if focus == "count":
        both = f"; {sum(r['calls'] for r in stats):,} in all" if len(stats) > 1 else ""
        return f"Number of {which}: " + "; ".join(
            f"rank {r['rank']}: {r['calls']:,} ({r['names']} distinct name{'s' if r['names'] != 1 else ''})"
            for r in stats) + both + "."
    if focus == "stats":
        return f"Time per call of the {which}: " + "; ".join(
            f"rank {r['rank']}: mean {ms(r['mean_us'])}, median {ms(r['median_us'])}, longest "
            f"{ms(r['max_us'])} over {r['calls']:,} calls" for r in stats) + "."
    return f"Time in {which}: " + "; ".join(
        f"rank {r['rank']}: {ms(r['value'])} over {r['calls']:,} calls ({ms(r['mean_us'])} each, mean"
        + (f"; {r['share']:.1f}% of the window" if r.get("share") is not None and on_gpu else "")
        + (f", {100.0 * r['value'] / r['category_us']:.1f}% of all {what} time"
           if named and on_gpu and r.get("category_us") else "") + ")"
        for r in stats) + "."


def _parts_lead(each: list[dict], what: str) -> str:
    """Each named part's time per rank, in the order the question named them."""
    order = list(dict.fromkeys(r["name"] for r in each))
    return f"Time in {what}s by name: " + "; ".join(
        f"{part!r}: " + ", ".join(f"rank {r['rank']} {ms(r['value'])} ({r['calls']:,} calls)"
                                  for r in each if r["name"] == part) for part in order) + "."


def _stream_lead(streams: list[dict], asked: list[str]) -> str:
    """Kernel time per CUDA stream and rank; only the streams the question names, when it names some."""
    want = {int(x) for x in asked}
    kept = [r for r in streams if not want or r["stream"] in want]
    if not kept:
        have = sorted({r["stream"] for r in streams})
        return f"No kernel ran on stream {', '.join(map(str, sorted(want)))}; streams with kernels: " \
               f"{', '.join(map(str, have)) or 'none'}."
    ranks = sorted({r["rank"] for r in kept}, key=lambda x: (x is None, x))
    return "Kernel time per stream: " + "; ".join(
        f"rank {rk}: " + ", ".join(f"stream {r['stream']} {ms(r['value'])} ({r['calls']:,} kernels)"
                                   for r in kept if r["rank"] == rk) for rk in ranks) + "."


def _lead(focus: str | None, brk: list[dict], top: list[dict], launches: list[dict], ranks: list,
          what: str, longest: list[dict] = (), top_n: int = 5) -> str:
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
                parts.append(f"{100.0 * lapped / total:.0f}% on rank {rk} ({ms(lapped)} of {ms(total)}; "
                             f"{ms(total - lapped)} exposed)")
        if parts:
            first = parts[0].replace("%", "% of the NCCL kernels' time", 1)
            rest = "".join((" and " if i == len(parts) - 1 else ", ") + p for i, p in enumerate(parts[1:], 1))
            return f"Compute overlaps {first}{rest} (what it does not overlap is exposed communication)."
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
        busy = by_rank[order[0]]["communication"]["busy_us"] or 0
        return (f"Rank {order[0]} is idle {most}: the GPU does nothing for {first['share']:.0f}% of its "
                f"{ms(first['window_us'])} window ({ms(first['value'])}) and is busy "
                f"{100.0 * busy / first['window_us']:.1f}% ({ms(busy)})".replace("idle :", "idle:")
                + (f"; {rest}." if rest else "."))
    shown = min(len(top), top_n, 10)   # as many as asked, up to ten in the sentence (the rest in the rows)
    if focus == "by_mean" and top:
        listed = ", ".join(f"{short_name(t['name'], 48)} {ms(t['mean_us'])} per call ({t['calls']} calls)"
                           for t in top[:shown])
        return f"{what.capitalize()}s by mean time per call: {listed}."
    if focus in ("top", "calls") and top:
        listed = ", ".join(f"{short_name(t['name'], 48)} {ms(t['value'])} ({t['calls']} calls)" for t in top[:shown])
        summed = (f", summed over {top[0]['n_ranks']} ranks" if top[0]["n_ranks"] > 1
                  else f" on rank {ranks[0]}" if len(ranks) == 1 else "")
        more = f" (all {len(top)} in the rows)" if len(top) > shown else ""
        by = "number of calls" if focus == "calls" else "total time"
        return f"Top {shown} {what}s by {by}{summed}: {listed}{more}."
    if focus == "exposed":
        parts = []
        for rk in ranks:
            c = by_rank[rk]["communication"]
            if c["share"] is not None:
                parts.append(f"rank {rk}: {ms(c['value'])} ({c['share']:.1f}% of its {ms(c['window_us'])} window; "
                             f"{ms(c['comm_total_us'] or 0)} in NCCL kernels in all)")
        if parts:
            return "Exposed communication (NCCL kernels with no compute kernel beside them): " + "; ".join(parts) + "."
    if focus == "launch":
        if not launches:
            return "No kernel launch (cudaLaunchKernel or cuLaunchKernelEx) in this trace can be matched to its kernel."
        parts = [f"rank {r['rank']}: {r['launches']} launches taking {ms(r['cpu_total_us'])} on the CPU "
                 f"({r['cpu_us']:.3g} us each, mean), the "
                 f"kernel starting {r['value']:.3g} us after the call began (median; mean {r['delay_mean']:.3g} us, "
                 f"p95 {r['delay_p95']:.3g} us)"
                 for r in launches]
        return "Kernel launches (each cudaLaunchKernel or cuLaunchKernelEx call matched to its kernel by correlation " \
            "id): " \
            + "; ".join(parts) + "."
    return ""
