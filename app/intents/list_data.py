"""What is loaded: "which systems do you know?", "what was measured on the DGX-2?", "which systems have
all-reduce bus bandwidth?", "which benchmarks ran on Yme?".

Three shapes, chosen by the slots:
  - no system, no metric/operation/library: one row per system (runs, tools, measurements, metrics, links,
    trace events);
  - a system: one row per (tool, metric) on it (runs, measurements, operations, size range, trace events);
  - a metric and/or operation (and/or library) without a system: one row per system that has it;
  - a link type alone: one row per system whose connection graph has links of that type (or a generation of it);
  - traces asked for ("which systems have PyTorch traces?"): one row per system and trace tool (runs, events),
    a library narrowing it to the tools named after it (pytorch -> pytorch_profiler), a system to its own.
A source collection named in the question ("the ISC 2022 papers", "the NTNU systems", "the TUM thesis")
narrows the first and the last shape to the systems of that collection (Catalog.groups).
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional

from app.catalog import Catalog
from app.intents import OutOfScope, Plan
from app.intents._common import cite, require_system, written_name
from nlu.cues import TRACE_WORD, asks_setup
from nlu.vocab import join_spelled, read_years

NAME = "list_data"
WANTS_QUESTION = True     # app.ask passes the question text: group words reach no slot

# words of collection names that say what was measured, not which collection ("gpu_features_ntnu2020")
_GENERIC = {"gpu", "gpus", "ipu", "features", "interconnects", "papers", "paper", "network", "benchmark",
            "results", "data", "raw", "curated", "datasets", "systems"}

# Counts come from the per-run summaries the loader writes (ingest/summaries.py): counting the 127,000
# measurements and 430,000 trace events themselves took 10-25 ms per question. `n` there is a number of
# measurements, so sums of it are the counts of rows the questions used to take.
ALL_SYSTEMS = """WITH r AS (
  SELECT system_id, count(*) AS n_runs, string_agg(DISTINCT tool, ', ' ORDER BY tool) AS tools
  FROM runs GROUP BY system_id
), m AS (
  SELECT system_id, sum(n) AS n_measurements, string_agg(DISTINCT metric, ', ' ORDER BY metric) AS metrics
  FROM run_measurement_stats GROUP BY system_id
), l AS (
  SELECT system_id, count(*) AS n_links FROM links GROUP BY system_id
), e AS (
  SELECT r.system_id, sum(t.n_events) AS n_events FROM trace_run_stats t JOIN runs r USING (run_id){e_where}
  GROUP BY r.system_id
)
SELECT s.system_id, s.name, s.kind, coalesce(r.n_runs, 0) AS n_runs, r.tools,
       coalesce(m.n_measurements, 0) AS n_measurements, m.metrics, coalesce(l.n_links, 0) AS n_links,
       coalesce(e.n_events, 0) AS n_events, s.source
FROM systems s LEFT JOIN r USING (system_id) LEFT JOIN m USING (system_id) LEFT JOIN l USING (system_id)
LEFT JOIN e USING (system_id){where}
ORDER BY n_measurements DESC, n_links + n_events DESC, s.system_id"""

# a run without measurements shows as one row with no metric, carrying its trace events
ONE_SYSTEM = """WITH ev AS (SELECT run_id, n_events AS n FROM trace_run_stats
            WHERE run_id IN (SELECT run_id FROM runs WHERE system_id = $system))
SELECT r.system_id, r.tool, m.metric, count(DISTINCT r.run_id) AS n_runs, coalesce(sum(m.n), 0) AS n_measurements,
       string_agg(DISTINCT m.operation, ', ' ORDER BY m.operation) AS operations,
       string_agg(DISTINCT m.unit, ', ' ORDER BY m.unit) AS units,
       min(m.min_bytes) AS min_bytes, max(m.max_bytes) AS max_bytes,
       coalesce(sum(ev.n) FILTER (WHERE m.run_id IS NULL), 0) AS n_events,
       min(coalesce(m.source, r.source)) AS source
FROM runs r LEFT JOIN run_measurement_stats m USING (run_id) LEFT JOIN ev USING (run_id)
WHERE r.system_id = $system{filters}
GROUP BY r.system_id, r.tool, m.metric
ORDER BY r.tool, n_measurements DESC, m.metric"""

BY_METRIC = """SELECT m.system_id, s.name, sum(m.n) AS n_measurements, count(DISTINCT m.run_id) AS n_runs,
       string_agg(DISTINCT r.tool, ', ' ORDER BY r.tool) AS tools,
       string_agg(DISTINCT m.metric, ', ' ORDER BY m.metric) AS metrics,
       string_agg(DISTINCT m.operation, ', ' ORDER BY m.operation) AS operations,
       min(m.source) AS source
FROM run_measurement_stats m JOIN runs r ON r.run_id = m.run_id JOIN systems s ON s.system_id = m.system_id
WHERE true{filters}{group}
GROUP BY m.system_id, s.name
ORDER BY n_measurements DESC, m.system_id"""

BY_APP = """SELECT r.system_id, s.name, count(*) AS n_measurements, count(DISTINCT m.run_id) AS n_runs,
       string_agg(DISTINCT r.tool, ', ' ORDER BY r.tool) AS tools,
       string_agg(DISTINCT m.metric, ', ' ORDER BY m.metric) AS metrics,
       string_agg(DISTINCT m.operation, ', ' ORDER BY m.operation) AS operations,
       min(m.source) AS source
FROM measurements m JOIN runs r ON r.run_id = m.run_id JOIN systems s ON s.system_id = r.system_id
WHERE lower(m.app) = lower($app){filters}{group}
GROUP BY r.system_id, s.name
ORDER BY n_measurements DESC, r.system_id"""

BY_LINK = """SELECT l.system_id, s.name, count(*) AS n_links, sum(coalesce(l.count, 1)) AS n_lanes,
       string_agg(DISTINCT l.link_type, ', ' ORDER BY l.link_type) AS link_types,
       max(l.bw_gbps_per_dir) AS max_gbps_per_dir, min(l.source) AS source
FROM links l JOIN systems s ON s.system_id = l.system_id
WHERE list_contains($link_types, lower(l.link_type)){switch_end}
GROUP BY l.system_id, s.name
ORDER BY n_links DESC, l.system_id"""
# "which systems have NVSwitch": an NVSwitch is a component, the links into it are NVLinks; a link with an NVSwitch
# end counts (the end's kind decides, as _narrow.py widens the topology's selection)
_SWITCH_END = """ OR EXISTS (SELECT 1 FROM components c WHERE c.system_id = l.system_id AND c.kind = 'nvswitch'
                    AND (c.component_id = l.a OR c.component_id = l.b))"""

# systems whose connection graph has no link of a family ("which systems have no NVLink at all")
WITHOUT_LINK = """SELECT l.system_id, s.name, count(*) AS n_links,
       string_agg(DISTINCT l.link_type, ', ' ORDER BY l.link_type) AS link_types, min(l.source) AS source
FROM links l JOIN systems s ON s.system_id = l.system_id
GROUP BY l.system_id, s.name
HAVING NOT bool_or(list_contains($link_types, lower(l.link_type)){switch_end})
ORDER BY l.system_id"""
# "list what you have on the H200 node, benchmarks and traces both": a machine's whole inventory, not its traces alone
# ("nccl-tests logs, scope json or pytorch traces": the benchmarks' logs offered beside the traces)
_BOTH_KINDS = re.compile(r"\b(benchmarks?|measurements?|data|results|numbers|logs?|outputs?)\b.{0,30}\btraces?\b|"
                         r"\btraces?\b.{0,30}\b(benchmarks?|measurements?|results|numbers|logs?|outputs?)\b", re.I)
# "have no NVLink", "without NVLink", "lack NVLink": the systems that do not have it are asked for
_LACKING = re.compile(r"\b(ha(ve|s|d)|with) no\b|\bwithout\b|\black(s|ing)?\b|\b(do|does|did)(n't| not) (have|use)\b")

TRACES = """SELECT r.system_id, s.name, r.tool, count(DISTINCT r.run_id) AS n_runs, sum(t.n_events) AS n_events,
       min(r.source) AS source
FROM trace_run_stats t JOIN runs r USING (run_id) JOIN systems s ON s.system_id = r.system_id
WHERE true{filters}
GROUP BY r.system_id, s.name, r.tool
ORDER BY n_events DESC, r.system_id, r.tool"""

FILTERS = {"metric": " AND m.metric = $metric", "operation": " AND m.operation = $operation",
           "library": " AND m.library = $library"}

# how a system's numbers were made ("which nccl version", "how many repetitions", "which timer"): each matching run
# with its tool, version and settings, and the settings its measurements carry (mgbench's repetitions, a test's name)
SETUP = """SELECT r.run_id, any_value(r.tool) AS tool, any_value(r.tool_version) AS tool_version,
       any_value(r.experiment) AS experiment, any_value(CAST(r.params AS VARCHAR)) AS run_params,
       list(DISTINCT CAST(m.params AS VARCHAR) ORDER BY CAST(m.params AS VARCHAR)) FILTER (WHERE m.params IS NOT NULL)
           AS measurement_params,
       count(m.run_id) AS n_measurements, coalesce(min(m.source), any_value(r.source)) AS source
FROM runs r LEFT JOIN measurements m ON m.run_id = r.run_id
WHERE r.system_id = $system{filters}
GROUP BY r.run_id
ORDER BY tool, r.run_id"""
TRACE_RUNS = " AND r.run_id IN (SELECT run_id FROM trace_run_stats)"
# settings longer than this are descriptions (a matrix's orientation, a command line), not values to list
_SETTING_CHARS = 60

# the systems a tool ran on ("which systems were benchmarked with SHOC?", "did anyone run mgbench on the DGX-2?")
BY_TOOL = """SELECT r.system_id, s.name, r.tool, count(DISTINCT r.run_id) AS n_runs,
       coalesce(sum(m.n), 0) AS n_measurements, min(r.source) AS source
FROM runs r JOIN systems s ON s.system_id = r.system_id LEFT JOIN run_measurement_stats m USING (run_id)
WHERE lower(r.tool) = lower($tool){group}
GROUP BY r.system_id, s.name, r.tool
ORDER BY n_runs DESC, r.system_id"""

_APPS_WORD = re.compile(r"\b(applications?|apps?|benchmarks?|codes?|workloads?|programs?|kernels?|"
                        r"(dnn|cnn|ml|neural|deep learning|training) (models?|networks?))\b", re.I)
_SIMULATED = re.compile(r"\bsimulat\w*\b|\bnot real hardware\b", re.I)


def _words(name: str) -> set[str]:
    """'isc2022_papers' -> {isc, 2022, papers}: a collection's name split at separators and before a year."""
    out = set()
    for w in re.split(r"[_\-\s]+", name.lower()):
        m = re.fullmatch(r"([a-z]+)((?:19|20)\d\d)", w)
        out.update(m.groups() if m else (w,))
    return {w for w in out if w}


def group_in(question: str, cat: Catalog) -> Optional[tuple[list[str], list[str]]]:
    """(collections, systems) the question names by a collection's distinctive words ("ISC 2022", "TUM",
    "NTNU"); the collections matching the most of those words win. None when it names none."""
    said = _words(read_years(join_spelled(question)))    # "the i s c twenty twenty two papers" as typed
    score = {g: len((_words(g) - _GENERIC) & said) for g in cat.groups}
    best = max(score.values(), default=0)
    if not best:
        return _paper_in(question, cat)
    names = sorted(g for g, n in score.items() if n == best)
    systems = sorted({x for g in names for x in cat.groups[g]
                      if x in cat.systems and cat.systems[x].kind != "document"})
    return (names, systems) if systems else None


def _paper_in(question: str, cat: Catalog) -> Optional[tuple[list[str], list[str]]]:
    """([paper], its systems) where the question says a proceedings paper's whole short name ("the Hey CAI client
    machines", "m-Cubes"); a name of one short word ("CC", "LLM") counts only said with "paper", since "cc off" and
    "an LLM" say other things."""
    said = " " + " ".join(re.findall(r"[a-z0-9]+", question.lower())) + " "
    for title, sids in sorted(cat.papers.items()):
        core = " ".join(w for w in re.findall(r"[a-z0-9]+", title.lower()) if w != "paper")
        short = " " not in core and len(core) < 5
        if core and f" {core} {'paper ' if short else ''}" in said:
            systems = sorted(x for x in sids if x in cat.systems and cat.systems[x].kind != "document")
            if systems:
                return [title if title.endswith(" paper") else f"{title} paper"], systems
    return None


def _group_title(names: list[str], sep: str = ", ") -> str:
    """"the source collection isc2022_papers", "the Hey CAI paper": what a group of systems was named by."""
    if all(n.endswith(" paper") for n in names):
        return "the " + sep.join(names)
    return "the source collection " + sep.join(names)


_CONGESTION_WORD = re.compile(r"\bcongest\w*|\bunder load\b", re.I)
# the papers themselves asked for ("which ISC 2022 papers are covered", "list the documents loaded"), not the systems
_PAPERS_ASKED = re.compile(r"\b(which|what|list|name|show)( me)?( the| all( the)?)?( [\w-]+){0,3}? (papers|documents|"
                           r"publications|articles|sources)\b", re.I)
# where a source string names a paper inside a proceedings volume: "002_....txt pp. 87-108 (Hey CAI) Table 5"
_PAPER_IN_SOURCE = re.compile(r"^(?P<doc>\S+)\s+pp\. (?P<pages>\d+-\d+) \((?P<title>[^)]+)\)")
PAPERS = """SELECT r.source, r.system_id, count(*) AS n_runs
FROM runs r WHERE r.source IS NOT NULL{group}
GROUP BY r.source, r.system_id ORDER BY r.source, r.system_id"""
CONGESTION_ROWS = (" AND (m.metric = 'congestion_impact' OR m.run_id IN (SELECT DISTINCT run_id FROM "
                   "measurements WHERE condition IN ('under_load', 'congestion_free', 'cc_on', 'cc_off')))")


def plan(slots: dict[str, Any], cat: Catalog, question: str = "") -> Plan:
    s = dict(slots)     # an "exclude" slot ("every system apart from Yme") drops that system's rows in answer()
    filters, params = "", {}
    for k, frag in FILTERS.items():
        v = s.get(k)
        if v is None:
            continue
        if not isinstance(v, str):
            raise OutOfScope(f"{k} must be a single value.")
        filters += frag
        params[k] = v
    group = None if s.get("system") else group_in(question, cat)
    notes = []
    if group:
        params["group"] = group[1]
        notes.append(f"systems of {_group_title(group[0])} ({len(group[1])} systems)")
    if not filters and not s.get("system") and _CONGESTION_WORD.search(question or ""):
        # "which systems have congestion measurements": rows under load or with congestion control on/off, and the
        # effects measured as such (a fixed fragment: no value from the question)
        filters = CONGESTION_ROWS
        s["_what"] = "congestion experiments"
    if _PAPERS_ASKED.search(question or "") and not filters and not TRACE_WORD.search(question or "") \
            and not any(s.get(k) for k in ("system", "metric", "operation", "library")):
        # "For a literature review, which ISC 2022 papers are covered?": the papers and documents the rows cite,
        # each with the systems it describes (the collection's, where one is named); a measurement filter said with
        # it ("papers with pinned transfers") is the listing by filter below, which the papers query cannot apply
        sql = PAPERS.format(group=" AND list_contains($group, r.system_id)" if group else "")
        return Plan(sql=sql, params={"group": group[1]} if group else {}, chart={"kind": "table"}, slots=s,
                    notes=notes, extra={"mode": "papers", "group": group})
    tools = cat.tools_named(question)
    # "shoc, scope or nccl-tests?": tools offered as options narrow nothing
    tool = tools[0] if len(tools) == 1 else None
    if isinstance(s.get("system"), str) and asks_setup((question or "").lower()):
        return _setup_plan(s, cat, question, tool, notes)
    if tool and isinstance(s.get("system"), str) \
            and tool.lower() in {a.lower() for a in cat.app_ops.get(s["system"], {})}:
        # "which of the SU3_Bench reference devices have data": the system's rows name the benchmark as their
        # application, from a paper's tables rather than a run of the tool; its own inventory answers
        tool = None
    named = [s.get("system"), *(s.get("compare_with") or []), *(s.pop("_named", None) or [])]
    if tool and any(isinstance(x, str) and x in cat.systems and tool.lower() in cat.name(x).lower() for x in named):
        tool = None   # "mapredict skylake vs broadwell": the tool's name is part of the machines' ("MAPredict test
        #               machine SK"), so the machines are asked about, not where the tool ran
    if tool and not (s.get("metric") or s.get("operation")) and not _traces_asked(question, s, cat):
        # "which systems were benchmarked with SHOC?", "did anyone run mgbench on the DGX-2?": where the tool ran
        params = {"tool": tool}
        if group:
            params["group"] = group[1]
        sql = BY_TOOL.format(group=" AND list_contains($group, r.system_id)" if group else "")
        asked = require_system(s, cat) if s.get("system") else None
        s.pop("library", None)     # "nccl-tests" names the tool, not NCCL measured by any tool
        return Plan(sql=sql, params=params, chart={"kind": "table"}, slots=s, notes=notes,
                    extra={"mode": "tool", "tool": tool, "asked": asked, "group": group,
                           "yes_no": bool(_YES_NO_ASKED.match(question or ""))})
    if _traces_asked(question, s, cat) and not (s.get("metric") or s.get("operation")) \
            and not (s.get("system") and _BOTH_KINDS.search(question or "")):
        # "which systems have PyTorch traces?": trace runs, which hold events, not measurements
        params, tfilters = {}, ""
        if s.get("library"):
            params["library"] = str(s["library"]).lower()
            tfilters = " AND starts_with(lower(r.tool), $library)"
        if s.get("system"):
            params["system"] = require_system(s, cat)
            tfilters += " AND r.system_id = $system"
        elif group:
            params["group"] = group[1]
            tfilters += " AND list_contains($group, r.system_id)"
        sql, mode = TRACES.format(filters=tfilters), "traces"
    elif s.get("system"):
        sid = require_system(s, cat)
        params["system"] = sid
        sql, mode = ONE_SYSTEM.format(filters=filters), "system"
    elif s.get("link_type") and not filters and not group:
        # "which systems have NVLink": the systems whose connection graph has links of that family
        params["link_types"] = cat.link_family(str(s["link_type"]))
        sql, mode = (WITHOUT_LINK, "no_link") if _LACKING.search(question or "") else (BY_LINK, "link")
        sql = sql.format(switch_end=_SWITCH_END if str(s["link_type"]).lower() == "nvswitch" else "")
    elif isinstance(s.get("app"), str):
        # "which systems have MaxFlops results": the systems whose rows name that benchmark, counted row by row (a
        # run of SHOC holds every SHOC program's rows)
        params["app"] = s["app"]
        sql, mode = BY_APP.format(filters=filters, group=" AND list_contains($group, r.system_id)" if group else ""), \
            "filter"
    elif filters:
        sql, mode = BY_METRIC.format(filters=filters,
                                     group=" AND list_contains($group, m.system_id)" if group else ""), "filter"
    else:
        sql, mode = ALL_SYSTEMS.format(where=" WHERE list_contains($group, s.system_id)" if group else "",
                                       e_where=" WHERE list_contains($group, r.system_id)" if group else ""), "all"
    return Plan(sql=sql, params=params, chart={"kind": "table"}, slots=s, notes=notes,
                extra={"mode": mode, "group": group, "apps": bool(_APPS_WORD.search(question or "")),
                       "simulated": bool(_SIMULATED.search(question or "")),
                       "whether": bool(_WHETHER_ANY.search(question or ""))})


# "did anyone run mgbench on the DGX-2?" is answered yes or no; "what runs come from nccl-tests on ..." is not
_YES_NO_ASKED = re.compile(r"\W*(did|does|do|has|have|had|was|were|is|are|can|could)\b", re.I)
# "is there any bandwidth data for thetagpu at all", "do you have any latency numbers for ...": whether, not what
_WHETHER_ANY = re.compile(r"\b(is|are) (there|ther) any\b|\bdo (you|we) have any\b|\bany\b.{0,40}\bat all\b", re.I)


def _traces_asked(question: Optional[str], s: dict[str, Any], cat: Catalog) -> bool:
    """Whether the question asks about traces: a trace word that is not a word of the named machine's name ("the
    call-graph profiler study cluster" asks about a cluster, not its profiles)."""
    sid = s.get("system")
    own = set(re.findall(r"[a-z]+", cat.name(sid).lower())) if isinstance(sid, str) and sid in cat.systems else set()
    return any(m.group(0).lower() not in own for m in TRACE_WORD.finditer(question or ""))


def _setup_plan(s: dict[str, Any], cat: Catalog, question: str, tool: Optional[str], notes: list[str]) -> Plan:
    """"which version of nccl-tests produced the H200 collective numbers": the runs' own settings, narrowed to the
    tool, operation, library and metric named (a metric the system does not store, "iterations", names a
    setting, not rows)."""
    sid = require_system(s, cat)
    traced = bool(TRACE_WORD.search(question or "")) and not (s.get("metric") or s.get("operation"))
    filters, params = "", {"system": sid}
    if traced:
        filters = TRACE_RUNS
    else:
        for k, frag in FILTERS.items():
            v = s.get(k)
            if isinstance(v, str) and (k != "metric" or v in cat.metrics.get(sid, set())):
                filters += frag
                params[k] = v
            elif k == "metric":
                s.pop("metric", None)
    if tool:
        by_tool = "lower(r.tool) = lower($tool)"
        # "which NCCL version did the nccl-tests runs use, and was the PyTorch trace on the same one": both kinds
        filters = f" AND ({by_tool} OR r.run_id IN (SELECT run_id FROM trace_run_stats))" if traced \
            else filters + f" AND {by_tool}"
        params["tool"] = tool
        s.pop("library", None)     # "nccl-tests" names the tool
    return Plan(sql=SETUP.format(filters=filters), params=params, chart={"kind": "table"}, slots=s, notes=notes,
                extra={"mode": "setup", "group": None, "traced": traced, "tool": tool})


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    mode, s = plan.extra["mode"], plan.slots
    left_out = set(s.get("exclude") or ())
    if left_out:    # in place: the answer's rows are the caller's list, as below
        only = [r for r in rows if r.get("system_id") in left_out]
        rows[:] = [r for r in rows if r.get("system_id") not in left_out]
        if only and not rows and mode != "no_link":
            # "apart from the h200 which systems have traces": none; the system left out is the only one
            rows[:] = only
            names = sorted({cat.name(r["system_id"]) for r in only})
            many = len(names) > 1
            return (f"None apart from {' and '.join(names)}, the only {'ones' if many else 'one'} that "
                    f"{'have' if many else 'has'} them{cite(only)}.")
    what = " ".join(x for x in (s.get("library"), s.get("app") if not s.get("system") else None, s.get("operation"),
                                s.get("metric")) if x) or s.get("_what", "")
    if mode == "tool":
        return _tool_answer(rows, plan, cat)
    if mode == "papers":
        return _papers_answer(rows, plan, cat)
    if mode == "setup":
        return _setup_answer(rows, plan, cat, what)
    if mode == "all" and plan.extra.get("simulated") and rows:
        # "which systems are simulated rather than real hardware": the systems table says which are
        sim = [r for r in rows if r.get("kind") == "simulated"]
        rows[:] = sim
        if not sim:
            raise OutOfScope("No loaded system is a simulation: every one is measured hardware or a document.")
        return (f"{_plural(len(sim), 'system')} {'is' if len(sim) == 1 else 'are'} simulated, not measured "
                f"hardware: " + "; ".join(f"{r['name']} ({_plural(r['n_measurements'], 'measurement')})" for r in sim)
                + f"{cite(sim)}.")
    if mode == "all":
        if not rows:
            raise OutOfScope("The database is empty: build it with `hpcask db build`.")
        tools = sorted({t for r in rows for t in (r["tools"] or "").split(", ") if t})
        meas = sum(r["n_measurements"] for r in rows)
        runs = sum(r["n_runs"] for r in rows)
        top = ", ".join(f"{r['name']} ({r['n_measurements']:,})" for r in rows[:3])
        if plan.extra.get("group"):
            names = "; ".join(r["name"] for r in rows[:20]) + (f" and {len(rows) - 20} more" if len(rows) > 20 else "")
            title = _group_title(plan.extra["group"][0], " / ")
            return (f"{title[0].upper()}{title[1:]} covers {_plural(len(rows), 'system')}: "
                    f"{names}. Together {_plural(meas, 'measurement')} from {_plural(runs, 'run')}, "
                    f"{_plural(sum(r['n_links'] for r in rows), 'link')} and "
                    f"{_plural(sum(r['n_events'] for r in rows), 'trace event')}{cite(rows)}.")
        return (f"{_plural(len(rows), 'system')} are loaded with {_plural(meas, 'measurement')} from "
                f"{_plural(runs, 'run')} of {_plural(len(tools), 'tool')} ({', '.join(tools[:8])}"
                f"{', ...' if len(tools) > 8 else ''}), {_plural(sum(r['n_links'] for r in rows), 'link')} and "
                f"{_plural(sum(r['n_events'] for r in rows), 'trace event')}; the most measured: {top}.")
    if mode == "link":
        if not rows:
            have = sorted({v for (slot, v) in cat.owners if slot == "link_type"})
            raise OutOfScope(f"No connection graph has {s['link_type']} links; link types stored: {', '.join(have)}.")
        names = "; ".join(f"{r['name']} ({_plural(r['n_links'], r['link_types'] + ' link')})" for r in rows[:8])
        more = f" and {len(rows) - 8} more" if len(rows) > 8 else ""
        return f"{s['link_type']} links are in the connection graphs of {_plural(len(rows), 'system')}: {names}{more}{cite(rows)}."
    if mode == "no_link":
        if not rows:
            return f"Every stored connection graph has {s['link_type']} links{cite(rows)}."
        names = "; ".join(f"{r['name']} ({r['link_types']})" for r in rows[:12])
        more = f" and {len(rows) - 12} more" if len(rows) > 12 else ""
        return (f"{_plural(len(rows), 'system')} with a stored connection graph have no {s['link_type']} links: "
                f"{names}{more}{cite(rows)}. Systems without a stored graph are not counted.")
    if mode == "traces":
        if not rows:
            have = {v: sids for (slot, v), sids in cat.owners.items() if slot == "trace_tool"}
            where = f" for {cat.name(s['system'])}" if s.get("system") else ""
            loaded = "; ".join(f"{t} on {', '.join(sorted(cat.name(x) for x in have[t]))}" for t in sorted(have))
            lib = written_name("library", s["library"]) + " " if s.get("library") else ""
            text = f"No {lib}traces are loaded{where}; traces loaded: {loaded or 'none'}."
            if not where or not have:
                raise OutOfScope(text)
            # "does the database hold any trace for the DGX-2?": the inventory answers it, with the machines that
            # have traces
            return text
        names = "; ".join(f"{r['name']} ({_plural(r['n_runs'], r['tool'] + ' run')}, "
                          f"{_plural(r['n_events'], 'event')})" for r in rows[:8])
        systems = len({r["system_id"] for r in rows})
        return f"{written_name('library', s['library']) + ' t' if s.get('library') else 'T'}races are loaded for " \
               f"{_plural(systems, 'system')}: {names}{cite(rows)}."
    if mode == "filter":
        if not rows:
            metrics = sorted({m for ms in cat.metrics.values() for m in ms})
            ops = sorted({o for os_ in cat.operations.values() for o in os_})
            raise OutOfScope(f"No system has {what} measurements; metrics loaded: {', '.join(metrics[:20])}; "
                             f"operations: {', '.join(ops[:25])}.")
        names = ", ".join(f"{r['name']} ({r['n_measurements']:,})" for r in rows[:6])
        more = f" and {len(rows) - 6} more" if len(rows) > 6 else ""
        return (f"Measurements of {what} exist for {_plural(len(rows), 'system')}: {names}{more}"
                f"{cite(rows)}.")
    sid = s["system"]
    info = cat.systems[sid]
    if not rows:
        have = ", ".join(sorted(cat.metrics.get(sid, set()))[:15]) or "no measurements"
        if what and plan.extra.get("whether"):
            # "is there any bandwidth data for ThetaGPU at all": "no" is the answer to that question
            return f"No: no {what} measurements are stored for {cat.name(sid)}; measured there: {have}."
        if what:
            raise OutOfScope(f"No {what} measurements on {cat.name(sid)}; measured there: {have}.")
        # "is anything stored for the Minsky": "nothing but its description" is the answer to that question,
        # not a refusal of it
        parts = f"{_plural(info.n_links, 'link')}, {_plural(info.n_components, 'component')}"
        return (f"Nothing but the description of {cat.name(sid)} is loaded ({parts}): no measurements, runs or "
                f"traces.")
    tools = list(dict.fromkeys(r["tool"] for r in rows))
    metrics = list(dict.fromkeys(r["metric"] for r in rows if r["metric"]))
    meas = sum(r["n_measurements"] for r in rows)
    events = sum(r["n_events"] for r in rows)
    extra = []
    if not what:
        extra.append(_plural(info.n_links, "link") + " in its connection graph" if info.n_links else "no link graph")
        extra.append(_plural(events, "trace event") if events else "no traces")
    runs = f" in {_plural(info.n_runs, 'run')}" if info.n_runs and not what else ""
    apps = ""
    if plan.extra.get("apps") and not what:
        # "which applications were run on the DGX-2": the applications and benchmarks its rows name
        names = {a.lower(): a for a in cat.apps}
        have = sorted({names.get(a, a) for a in cat.app_ops.get(sid, {})}, key=str.lower)
        apps = (f". Applications and benchmarks ({len(have)}): {', '.join(have[:40])}"
                + (" ..." if len(have) > 40 else "")) if have else ". No application is named in its rows"
    return (f"{cat.name(sid)}: {_plural(meas, (what + ' ' if what else '') + 'measurement')}{runs} "
            f"(metrics: {', '.join(metrics) or 'none'}) from {_plural(len(tools), 'tool')} ({', '.join(tools)})"
            f"{'; ' + ', '.join(extra) if extra else ''}{apps}{cite(rows)}.")


def _tool_answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    tool, asked = plan.extra["tool"], plan.extra.get("asked")
    if not rows:
        raise OutOfScope(f"No {tool} runs are loaded.")
    where = "; ".join(f"{r['name']} ({_plural(r['n_runs'], 'run')}, {_plural(r['n_measurements'], 'measurement')})"
                      for r in rows[:10]) + (f" and {len(rows) - 10} more" if len(rows) > 10 else "")
    if asked:
        mine = [r for r in rows if r["system_id"] == asked]
        if not mine:
            # "did anyone run mgbench on the DGX-2?": no, and where it did run
            return f"No: {tool} did not run on {cat.name(asked)}. It ran on {_plural(len(rows), 'system')}: " \
                   f"{where}{cite(rows)}."
        r = mine[0]
        rows[:] = mine
        return (f"{'Yes: ' if plan.extra.get('yes_no') else ''}{tool} ran on {cat.name(asked)} "
                f"({_plural(r['n_runs'], 'run')}, "
                f"{_plural(r['n_measurements'], 'measurement')}){cite(mine)}.")
    total = sum(r["n_runs"] for r in rows)
    return f"{tool} ran on {_plural(len(rows), 'system')} ({_plural(total, 'run')} in all): {where}{cite(rows)}."


def _papers_answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    """One entry per paper (a proceedings volume's pages and title) or per document, with the systems it covers,
    in the order of the documents; the rows become one per paper for the table."""
    papers: dict[tuple[str, str], set[str]] = {}
    for r in rows:
        m = _PAPER_IN_SOURCE.match(r["source"])
        first = r["source"].split()[0]
        key = (m["doc"], f"{m['title']} (pp. {m['pages']})") if m else \
            ("/".join(first.split("/")[:3]), "raw outputs") if first.startswith("datasets/") else (first, "")
        papers.setdefault(key, set()).add(r["system_id"])
    if not papers:
        raise OutOfScope("No loaded measurement cites a paper or document"
                         + (f" of {', '.join(plan.extra['group'][0])}" if plan.extra.get("group") else "") + ".")
    rows[:] = [{"document": doc, "paper": title or doc, "systems": ", ".join(sorted(cat.name(x) for x in sids)),
                "n_systems": len(sids)} for (doc, title), sids in sorted(papers.items())]
    group = plan.extra.get("group")
    head = (f"The {' / '.join(group[0])} collection" if group else "The loaded data") + \
        f" comes from {_plural(len(rows), 'source')} (papers, documents, raw output folders)"
    listed = "; ".join((f"raw outputs in {r['document']}" if r["paper"] == "raw outputs" else r["paper"]
                        + (f" in {r['document']}" if r["paper"] != r["document"] else ""))
                       + f" ({_plural(r['n_systems'], 'system')})" for r in rows)
    return f"{head}: {listed}."



def _settings(dicts: list[dict[str, Any]], max_values: int) -> list[str]:
    """'key value' for each setting of the dicts, its distinct values joined where the runs differ; a setting
    with more than max_values values, or a value too long to read in a sentence, is left to the table."""
    values: dict[str, list[str]] = {}
    for d in dicts:
        for k, v in d.items():
            text = v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))
            seen = values.setdefault(k, [])
            if text not in seen:
                seen.append(text)
    return [f"{k} {', '.join(vs)}" for k, vs in values.items()
            if len(vs) <= max_values and all(len(v) <= _SETTING_CHARS for v in vs) and not k.endswith("id")]


def _setup_answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog, what: str) -> str:
    """Per tool: its versions, run and measurement counts, and the settings its runs and measurements record;
    the rows become one per run with its settings for the table."""
    sid = plan.params["system"]
    if not rows:
        raise OutOfScope(f"No run on {cat.name(sid)} matches {what or 'that'}, so there are no settings to show.")
    tools: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        r["_params"] = json.loads(r["run_params"]) if r.get("run_params") else None   # read once, used twice
        tools.setdefault(r["tool"], []).append(r)
    parts = []
    for tool, rs in tools.items():
        versions = sorted({r["tool_version"] for r in rs if r.get("tool_version")})
        n = sum(r["n_measurements"] for r in rs)
        head = f"{tool}{' ' + ', '.join(versions) if versions else ''} ({_plural(len(rs), 'run')}" + \
            (f", {_plural(n, 'measurement')})" if n else ")")
        run_set = _settings([r["_params"] for r in rs if r["_params"] is not None], 8)
        per_m = _settings([json.loads(p) for r in rs for p in (r.get("measurement_params") or [])], 4)
        said = run_set + [f"{x} (per measurement)" for x in per_m]
        if not said:
            exps = list(dict.fromkeys(r["experiment"] for r in rs if r.get("experiment")))
            said = [f"experiments {', '.join(exps[:4])}{' ...' if len(exps) > 4 else ''}"] if exps else \
                ["no settings recorded beyond the source"]
        parts.append(f"{head}: {'; '.join(said)}")
    rows[:] = [{"tool": r["tool"], "tool_version": r.get("tool_version"), "experiment": r.get("experiment"),
                "settings": "; ".join(_settings([r["_params"]], 99)) if r["_params"] is not None else "",
                "n_measurements": r["n_measurements"], "source": r.get("source")} for r in rows]
    scope = f"the {plan.extra['tool']} runs and the traces" if plan.extra.get("traced") and plan.extra.get("tool") \
        else "the traces" if plan.extra.get("traced") else f"the {what} measurements" if what else \
        f"the {plan.extra['tool']} runs" if plan.extra.get("tool") else "the runs"
    return f"How {scope} on {cat.name(sid)} were made: " + " | ".join(parts) + f"{cite(rows)}."
