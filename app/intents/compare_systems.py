"""One metric across two or more systems: "host-to-device bandwidth on the DGX-2 vs Yme vs Mini Summit".

Comparable rows only: one slice (condition, precision, message size, count, direction, statistic, unit) that
covers the most of the named systems is picked (app/intents/_narrow.py, compare, over the query's counts per
slice); where the user named none it prefers a default condition (p2p_on, pinned ...), then mean values, the
largest common count and the largest common size. Within the slice only cases measured on every covered system
are compared (a "case" is a DeepBench kernel shape or an application; most tools have one). Per system and case
the rows (GPUs, runs, tools) collapse to one value: the best (max for throughput, min for time) unless the
`aggregate` slot says max/min/mean; several cases are then averaged.

What to compare may come loosely: no metric or operation (the only one measured on all the systems is taken),
a benchmark name ("stream_triad", "MaxFlops" at fp32) or an operation word stored under a longer name (triad ->
triad_bw), or one quantity stored under different names (a collective's `bandwidth` on one system, nccl-tests'
`busbw` on another): each system then keeps its own name, and the notes say which was used where.
"""
from __future__ import annotations

import difflib
import re
from typing import Any, Optional

from app.catalog import Catalog
from app.intents import OutOfScope, Plan
from app.intents._common import (AGG_SQL, PARAMETRISED, agg_choice, better_words, cap, cite, fmt_value,
                                 lower_is_better, mode_as_operation, params_sql, past_the_line, quals, require_ints,
                                 require_system, said_params, systems_with, what_words, where_plus)

NAME = "compare_systems"
WANTS_QUESTION = True   # app.ask passes the question text: a benchmark's parameters ("w=700 k=32") reach no slot
FILTERS = ("system", "metric", "operation", "src", "dst", "direction", "msg_bytes", "count", "count_kind",
           "condition", "precision", "app", "library", "statistic")

# what identifies one case inside a slice (DeepBench kernel shapes; app names elsewhere)
_CASE = ("concat_ws('/', m.app, " + ", ".join(f"m.params->>'{k}'" for k in (
    "kind", "mode", "phase", "type", "m", "n", "k", "a_t", "b_t", "c", "h", "w", "f_h", "f_w", "stride_h", "stride_w",
    "pad_h", "pad_w", "hidden", "timesteps", "N")) + ")")

# Each slice's rows per system and tool: how many, the extreme values and the first row in table order holding each
# (the (value, rowid) keys break ties by row, never by the order DuckDB's threads happen to meet the rows). The
# slice, the cases and the values are then chosen in Python (_narrow.compare): the window query that chose them in
# SQL took DuckDB 40-50 ms to bind, optimise and run per question, and a question naming two whole systems matched
# up to 45,000 rows, too many to fetch.
_GROUPS = """SELECT m.system_id, r.tool, m.metric, m.operation, m.condition, m.precision, m.msg_bytes, m.count,
       m.count_kind, m.direction, m.statistic, m.unit, count(*) AS n, max(m.value) AS hi, min(m.value) AS lo,
       arg_max(m.source, (m.value, -m.rowid)) AS hi_source, arg_min(m.source, (m.value, m.rowid)) AS lo_source,
       arg_max(m.rowid, (m.value, -m.rowid)) AS hi_row, arg_min(m.rowid, (m.value, m.rowid)) AS lo_row
FROM measurements m JOIN runs r USING (run_id){where}
GROUP BY ALL"""

# the chosen slice's rows, each with its case; the slice's columns come as $slice_<column>, NULL matching NULL
_SLICE_ROWS = """SELECT m.system_id, m.value, m.source, m.run_id, m.rowid AS _row, {case} AS case_key
FROM measurements m{join}{where}{slice}"""
SLICE = ("metric", "operation", "condition", "precision", "msg_bytes", "count", "count_kind", "direction", "statistic",
         "unit")


def plan(slots: dict[str, Any], cat: Catalog, question: str | None = None) -> Plan:
    s = dict(slots)
    require_ints(s)
    if s.get("operation"):
        s["operation"] = mode_as_operation(s["operation"], question or "")   # "the training GEMM"
    # "the fp32 conv training layer w=700 h=161 c=1 n=4 k=32": DeepBench's parameters pick its rows
    shape = said_params(question or "", s.get("operation")) if s.get("operation") in PARAMETRISED else {}
    shape_sql, shape_params = params_sql(shape)
    across = []
    if not s.get("system") and (s.get("metric") or s.get("operation")):
        # "which system has the highest host to device bandwidth?": every system that stores it, ranked
        across = systems_with(cat, s.get("operation"), s.get("metric"),
                              [s["condition"]] if s.get("condition") else ())
    if not s.get("system") and isinstance(s.get("app"), str) and across:
        # "SU3_Bench efficiency on every accelerator": the systems that ran the application, of those storing it
        ran = cat.owners.get(("app", s["app"].lower()), set())
        across = [x for x in across if x in ran] if ran else across
    elif not s.get("system") and isinstance(s.get("app"), str):
        # "which system gets the highest SU3_Bench performance?": every system that ran the application
        across = sorted(x for x in cat.owners.get(("app", s["app"].lower()), set())
                        if cat.systems.get(x) and cat.systems[x].kind != "document")
    left_out = s.pop("exclude", None) or []
    across = [x for x in across if x not in left_out]   # "every accelerator except the Arria 10"
    if len(across) >= 2:
        s["system"], s["compare_with"] = across[0], across[1:]
    first = require_system(s, cat)
    others = s.get("compare_with") or []
    if isinstance(others, str):
        others = [others]
    systems = list(dict.fromkeys([first, *others]))
    if len(systems) < 2:
        raise OutOfScope(f"Compare {cat.name(first)} with which system? " + cat.describe() + ".")
    for sid in systems[1:]:
        require_system({"system": sid}, cat)
    if s.get("metric") is None and s.get("aggregate") in ("max", "min"):
        # "which gpu has the fastest gemm": read with no metric, "fastest" could only be taken as the highest; the
        # metric the data gives may be a time, where the fastest is the lowest: each system's best is meant
        del s["aggregate"]
    notes = _resolve_what(s, systems, cat)
    if len(across) >= 2:
        notes.append(f"no system named: every system that stores it is compared ({len(across)})")
    per_metric = _metric_per_system(s, systems, cat)
    have = [x for x in systems if (not s.get("metric") or s["metric"] in cat.metrics.get(x, set())
                                   or x in per_metric)
            and (not s.get("operation") or s["operation"] in cat.operations.get(x, set()))]
    if len(have) < 2:
        wider = systems_with(cat, s.get("operation"), s.get("metric"))
        where = (f"on {', '.join(cat.name(x) for x in have)} only" if have
                 else f"on none of {', '.join(cat.name(x) for x in systems)}")
        raise OutOfScope(f"{cap(what_words(s.get('operation'), s.get('metric')))} was measured {where}, so there is "
                         f"nothing to compare. Systems with it: {', '.join(cat.name(x) for x in wider[:10]) or 'none'}.")
    s["system"], s["compare_with"] = first, systems[1:]
    if per_metric:      # each system's own name for the quantity; the slice compares them as one metric
        keys = [f"{x}|{per_metric.get(x, s['metric'])}" for x in systems]
        cond, params = where_plus({**s, "system": systems}, [k for k in FILTERS if k != "metric"],
                                  fixed=("list_contains($metric_keys, m.system_id || '|' || m.metric)", *shape_sql))
        params["metric_keys"] = keys
        used = "; ".join(f"{cat.name(x)}: {per_metric.get(x, s['metric'])}" for x in systems)
        notes.append(f"{s['metric']} is stored under different names: {used} (compared as one quantity, though "
                     f"the definitions differ: nccl-tests busbw scales algbw by the collective's traffic factor)")
    else:
        cond, params = where_plus({**s, "system": systems}, FILTERS, fixed=shape_sql)
    params.update(shape_params)
    if shape_params:
        notes.append("the rows with " + ", ".join(f"{k} {v}" for k, (_, v) in sorted(shape.items())))
    # the user's max / min / mean, else the best (min for time-like metrics, max otherwise: chosen per slice)
    how = AGG_SQL.get(s.get("aggregate"))
    metric_as = s["metric"] if per_metric else None
    slice_cond = "".join(f" AND m.{c} IS NOT DISTINCT FROM $slice_{c}" for c in SLICE
                         if not (c == "metric" and metric_as))
    chart = {"kind": "grouped_bar", "x": "system_id", "y": "value"}
    return Plan(sql=_GROUPS.format(where=cond), params=params, chart=chart, slots=s, notes=notes,
                extra={"systems": systems, "run_tools": cat.run_tools,
                       "slice_sql": _SLICE_ROWS.format(case=_CASE, where=cond, slice=slice_cond,
                                                       join=" JOIN runs r USING (run_id)" if "r.tool" in cond else "")},
                narrow={"kind": "compare", "how": how, "metric_as": metric_as})


# one quantity, several names: a system that lacks the asked one is compared under its own (first listed)
SAME_QUANTITY = {"bandwidth": ("busbw", "algbw"), "busbw": ("bandwidth", "algbw"), "algbw": ("bandwidth", "busbw"),
                 "time": ("latency",), "latency": ("time",), "flops": ("throughput",), "throughput": ("flops",)}


def _metric_per_system(s: dict[str, Any], systems: list[str], cat: Catalog) -> dict[str, str]:
    """{system: its metric} for the systems that store the asked quantity under another name only (for
    the asked operation); empty when every system has it under the asked name or the names do not help."""
    metric, op = s.get("metric"), s.get("operation")
    if metric not in SAME_QUANTITY:
        return {}
    out = {}
    for x in systems:
        stored = cat.op_metrics(x, op)
        if metric in stored:
            continue
        alt = next((m for m in SAME_QUANTITY[metric] if m in stored), None)
        if alt:
            out[x] = alt
    # worth it only if it brings a second system in
    with_asked = sum(1 for x in systems if metric in cat.op_metrics(x, op))
    return out if out and with_asked < len(systems) and with_asked + len(out) >= 2 else {}


def _on_all(systems: list[str], table: dict[str, set[str]]) -> set[str]:
    return set.intersection(*(set(table.get(x, set())) for x in systems))


def _match_ops(name: str, systems: list[str], cat: Catalog, precision: Any = None) -> list[str]:
    """Operations measured on all the systems that a benchmark or operation name stands for: an operation
    containing the name's words ("triad" -> triad_bw), or the operations of an application of that name
    ("stream_triad" -> app Triad -> triad_bw; "MaxFlops" -> maxspflops / maxdpflops)."""
    common = _on_all(systems, cat.operations)
    words = {w for w in re.split(r"[^a-z0-9]+", name.lower()) if len(w) > 2}
    found = {o for o in common if words & set(re.split(r"[^a-z0-9]+", o)) or o.startswith(name.lower())}
    app_ops = [{a: ops for a, ops in cat.app_ops.get(x, {}).items()} for x in systems]
    for app in set.intersection(*(set(d) for d in app_ops)) if app_ops else set():
        if app == name.lower().replace(" ", "") or app in words:
            found |= set.intersection(*(d[app] for d in app_ops)) & common
    if len(found) > 1 and precision in ("fp32", "fp64"):   # SHOC's maxspflops / maxdpflops
        tag = "sp" if precision == "fp32" else "dp"
        found = {o for o in found if tag in o} or found
    return sorted(found, key=lambda o: (-difflib.SequenceMatcher(None, o, name.lower()).ratio(), o))


def _app_metric(app: str, systems: list[str], cat: Catalog) -> Optional[str]:
    """The one metric an application's rows hold on every one of the systems, if exactly one."""
    shared = None
    for sid in systems:
        ops = cat.app_ops.get(sid, {}).get(app.lower())
        if not ops:
            return None
        held = {m for op in ops for m in cat.op_metrics(sid, op)}
        shared = held if shared is None else shared & held
    return next(iter(shared)) if shared and len(shared) == 1 else None


def _resolve_what(s: dict[str, Any], systems: list[str], cat: Catalog) -> list[str]:
    """Fill in what to compare when the question leaves it open or names it in another way; the notes say so."""
    notes = []
    op = s.get("operation")
    if op and op not in _on_all(systems, cat.operations):
        ops = _match_ops(op, systems, cat, s.get("precision"))
        if ops:
            s["operation"] = ops[0]
            notes.append(f"{op} is stored as {ops[0]} on all of these systems"
                         + (f" (also: {', '.join(ops[1:4])})" if len(ops) > 1 else ""))
    elif not op and s.get("app") and not s.get("metric"):
        ops = _match_ops(str(s["app"]), systems, cat, s.get("precision"))
        shared = ops and set.intersection(*(cat.op_metrics(x, ops[0]) for x in systems))
        if not shared and _app_metric(str(s["app"]), systems, cat):
            # "which finishes LULESH sooner, the KNL testbed or the estimator host": no operation of the benchmark
            # was measured as one quantity on all of them (an error here, a time there), but its rows share one
            # metric (time) whatever each calls the operation (a run, an estimate)
            s["metric"] = _app_metric(str(s["app"]), systems, cat)
            notes.append(f"no metric given: {s['metric']}, the only one {s['app']} was measured as on all of them")
        elif ops:
            notes.append(f"benchmark {s['app']}: compared its operation {ops[0]}"
                         + (f" (also measured: {', '.join(ops[1:4])})" if len(ops) > 1 else ""))
            # "stream_triad": a name for the benchmark, not the app value stored on these systems
            if s["app"] not in cat.apps or not all(str(s["app"]).lower() in cat.app_ops.get(x, {}) for x in systems):
                s.pop("app")
            s["operation"] = ops[0]
    if s.get("metric") or s.get("operation"):
        return notes
    metrics, ops = _on_all(systems, cat.metrics), _on_all(systems, cat.operations)
    if len(metrics) == 1:
        s["metric"] = next(iter(metrics))
        notes.append(f"no metric given: {s['metric']}, the only metric measured on all of them")
    elif not metrics:
        # "mapredict skylake vs broadwell, what's stored for each": no measure was taken on all of them (an operation
        # in common, memory_access, measured by other metrics is no comparison), so say what each one holds
        raise OutOfScope("No metric was measured on all of " + ", ".join(cat.name(x) for x in systems) + ": "
                         + "; ".join(f"{cat.name(x)} holds {', '.join(sorted(cat.metrics.get(x, ()))) or 'nothing'}"
                                     for x in systems) + ".")
    elif len(ops) == 1:
        s["operation"] = next(iter(ops))
        notes.append(f"no operation given: {s['operation']}, the only operation measured on all of them")
    else:
        raise OutOfScope("Which metric or operation should I compare? Measured on all of them: "
                         + (", ".join(sorted(ops)[:15]) or "no common operation")
                         + (f"; metrics: {', '.join(sorted(metrics)[:10])}" if metrics else "") + ".")
    return notes


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    s = plan.slots
    systems = plan.extra["systems"]
    what = what_words(s.get("operation"), s.get("metric"))
    if len(rows) == 1 and rows[0].get("unlike"):
        return _answer_unlike(rows, plan, cat)
    if len(rows) < 2:
        only = f" Only {cat.name(rows[0]['system_id'])} has matching rows." if rows else ""
        raise OutOfScope(f"No comparable {what or s.get('app') or 'matching'} measurements on "
                         f"{', '.join(cat.name(x) for x in systems)} "
                         f"(same condition, size and count).{only} Try fewer conditions.")
    r0 = rows[0]
    what, unit = what_words(r0["operation"], r0["metric"]), r0["unit"]
    if not s.get("metric"):
        plan.notes.append(f"no metric given: {r0['metric']}")
    agg_words = agg_choice(s, r0["metric"])[1]
    plan.chart["unit"] = unit
    missing = [x for x in systems if x not in {r["system_id"] for r in rows}]
    apart = [a for a in r0.get("apart") or [] if a["metric"] == r0["metric"] and a["unit"] == r0["unit"]]
    if missing:
        plan.notes.append("no comparable rows for " + ", ".join(cat.name(x) for x in missing))
    if r0.get("mode") == "each_best":
        return _answer_each_best(rows, plan, cat, agg_words)
    loose = r0.get("mode") == "loose"
    q = _quals(r0, settings=not loose)
    own = {r["system_id"]: quals(r, ("condition", "precision")) or "no setting stated" for r in rows} if loose else {}
    if loose:
        plan.notes.append("no one setting was measured on all of them: same size and count, each system at its own "
                          "setting (" + "; ".join(f"{cat.name(x)}: {v}" for x, v in own.items()) + ")")
    how = agg_words
    if r0["n_cases"] > 1:
        how += f" per case, averaged over {r0['n_cases']} cases measured on every system"
    plan.notes.append(f"compared at: {q or 'the only slice measured'}; one value per system = the {how} "
                      f"(tools: {', '.join(sorted({r['tool'] for r in rows}))})")
    better = "lower" if lower_is_better(r0.get("metric")) else "higher"
    judged = better_words(r0.get("metric"))
    ranked = "; ".join(
        f"{i + 1}. {cat.name(r['system_id'])} {fmt_value(r['value'], unit)}"
        + (f" ({own[r['system_id']]})" if loose else "")
        + ("" if i == 0 else f" ({_ratio(rows[0]['value'], r['value'], better)} of the "
                             f"{'best' if judged else 'highest'})")
        for i, r in enumerate(rows))
    lead, second = rows[0], rows[1]
    factor = (second["value"] / lead["value"] if better == "lower" else lead["value"] / second["value"]) \
        if lead["value"] and second["value"] else None
    if factor is None:
        lead_words = f"{cat.name(lead['system_id'])} ranks first"
    elif factor < 1.01:
        lead_words = f"{cat.name(lead['system_id'])} and {cat.name(second['system_id'])} are within 1%"
    elif not judged:   # a share or a crossover size: the larger one, no winner
        lead_words = f"{cat.name(lead['system_id'])} is {factor:.2f}x {cat.name(second['system_id'])}"
    else:
        lead_words = f"{cat.name(lead['system_id'])} leads by {factor:.2f}x over {cat.name(second['system_id'])}"
    per = (f"mean over {r0['n_cases']} cases measured on every system" if r0["n_cases"] > 1
           else f"{agg_words} per system")
    head = ", ".join(x for x in (q, per, judged or "highest first") if x)
    aside = ""
    if apart:
        # measured, but at no size, count or setting the others share: its best, said apart from the ranking
        aside = " Not measured alike, so not ranked: " + "; ".join(
            f"{cat.name(a['system_id'])} {agg_words} {fmt_value(a['value'], a['unit'])}"
            + (f" ({_quals(a)})" if _quals(a) else "") for a in apart) + f"{cite(apart, limit=len(apart))}."
    return f"{cap(what)} ({head}): {ranked}. {lead_words}{cite(rows, limit=len(rows))}.{aside}" \
        + _past_line(rows + apart, s.get("threshold"), plan, cat)


def _answer_unlike(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    """Each system measured what was asked by a metric of its own (RSBench offload: a time on ThetaGPU, a speedup
    on the Google Cloud T4s): each one's best of its own metric, said side by side, and nothing ranked, since no
    two values are of one quantity."""
    s = plan.slots
    every = [rows[0], *rows[0].pop("unlike")]
    rows[:] = every
    plan.chart["kind"] = "table"
    what = s.get("app") or what_words(s.get("operation"), None) or "it"
    parts = []
    for r in every:
        q = _quals(r)
        best = "lowest" if lower_is_better(r["metric"]) else "highest"
        parts.append(f"{cat.name(r['system_id'])} stores {r['metric'].replace('_', ' ')} "
                     f"({r['n']} value{'s' if r['n'] != 1 else ''}; {best} {fmt_value(r['value'], r['unit'])}"
                     f"{', ' + q if q else ''})")
    plan.notes.append("no metric is stored for all of them: each system's own is shown, none is ranked")
    return (f"Not measured alike, so not ranked: {what} on " + "; ".join(parts)
            + f"{cite(every, limit=len(every))}.")


def _past_line(rows: list[dict[str, Any]], line: Any, plan: Plan, cat: Catalog) -> str:
    """"which systems reach more than 20 GB/s": the systems past the line, said after the ranking (only in the
    line's own unit; a line in another unit is said to be left unjudged)."""
    if not isinstance(line, dict) or not rows:
        return ""
    judged = past_the_line(rows, line)
    if judged is None:
        return (f" (The line {line.get('value')} {line.get('unit')} is in another unit than {rows[0]['unit']}: "
                "not judged.)")
    past, word = judged
    plan.chart["threshold"] = line["value"]
    if not past:
        return f" None is {word} {fmt_value(line['value'], line['unit'])}."
    return (f" {len(past)} of the {len(rows)} {'is' if len(past) == 1 else 'are'} {word} "
            f"{fmt_value(line['value'], line['unit'])}: "
            + ", ".join(cat.name(r["system_id"]) for r in past) + ".")


def _quals(r: dict[str, Any], settings: bool = True) -> str:
    q = quals(r, ("direction", "condition", "precision", "msg_bytes", "statistic") if settings
              else ("direction", "msg_bytes", "statistic"))
    if r.get("count") and r.get("count_kind"):
        q = ", ".join(x for x in (q, f"{r['count']} {r['count_kind']}") if x)
    return q


def _answer_each_best(rows: list[dict[str, Any]], plan: Plan, cat: Catalog, agg_words: str) -> str:
    """No slice (size, count, condition) was measured on two of the systems: rank each system's own best
    value, say at what each was measured, and warn that it is not like for like."""
    r0 = rows[0]
    unit = r0["unit"]
    judged = better_words(r0.get("metric")) or "highest first"
    plan.notes.append("no size, count and condition was measured on more than one of these systems: each "
                      f"system's {agg_words} value at its own settings is compared (not like for like)")
    ranked = "; ".join(
        f"{i + 1}. {cat.name(r['system_id'])} {fmt_value(r['value'], unit)}"
        + (f" ({_quals(r)})" if _quals(r) else "")
        for i, r in enumerate(rows))
    what = what_words(r0.get("operation"), r0["metric"])
    return (f"{cap(what)}, each system's {agg_words} ({judged}; measured at different settings, so "
            f"not like for like): {ranked}{cite(rows, limit=len(rows))}."
            + _past_line(rows, plan.slots.get("threshold"), plan, cat))


def _ratio(best: float, v: float, better: str) -> str:
    if not best or not v:
        return "n/a"
    return f"{v / best:.2f}x" if better == "lower" else f"{v / best * 100:.0f}%"
