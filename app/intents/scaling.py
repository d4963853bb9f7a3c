"""A metric across counts of GPUs, IPUs, nodes, ranks, tiles or cores, with speedup and parallel efficiency
against the smallest count: "how does DeepBench all-reduce scale over ranks on the DGX-2?".

One series is shown. Where the user did not pin it, one is picked (app/intents/_narrow.py, scaling): one tool, experiment family (runs named
`..._8gpu` belong together), count kind, variant (app / SHOC result / the table's `quantity`), statistic
and message size: the series with the most distinct counts first, then mean, totals / aggregates, the
largest size. At each count the rows left (several runs, GPU sets or NUMA placements) are collapsed to one
value: the best (max for throughput, min for time) unless the `aggregate` slot says max/min/mean.

speedup = t(base)/t(n) for time and latency, v(n)/v(base) for throughput-like metrics; efficiency =
speedup / (n / base), a fraction. Metrics that are already ratios (speedup, efficiency, ...) are shown as
reported, without derived columns. Asked for a speedup or efficiency that is not stored as a series over
counts, the time (else throughput) series is taken and the speedup derived from it, with a note.
"""
from __future__ import annotations

from typing import Any, Optional

from app.catalog import Catalog
from app.intents import OutOfScope, Plan
from app.intents._common import (HIGHER_BETTER, VARIANT_SQL, agg_choice, cap, cite, crossing, fmt_bytes,
                                 fmt_ratio, fmt_value, quals, require_ints, require_metric_on, require_system,
                                 systems_with, uncap, what_words, where_plus)

NAME = "scaling"
FILTERS = ("system", "metric", "operation", "src", "dst", "direction", "msg_bytes", "count_kind", "condition",
           "precision", "app", "library", "statistic")
TIME_LIKE = {"time", "latency"}
DERIVABLE = {"speedup", "efficiency"}     # computed here from a time or throughput series when none is stored
# a collective over more participants with the same message: the ideal is constant time (weak scaling)
COLLECTIVES = {"allreduce", "allgather", "alltoall", "broadcast", "reduce", "reduce_scatter", "gather", "scatter",
               "barrier", "sendrecv"}
# the matching rows in table order with what picks a series: the variant (app, SHOC result, the table's quantity
# ...) and the run (its tool and experiment come from the catalog); the series and its values per count are
# computed in Python (_narrow.scaling)
_SQL = """SELECT m.system_id, m.metric, m.operation, m.msg_bytes, m.count, m.count_kind, m.condition, m.statistic,
       m.value, m.unit, m.source, m.run_id, m.rowid AS _row,
       TRY_CAST(m.params->>'ideal_speedup' AS DOUBLE) AS stated_ideal,
       {variant} AS variant{asked}
FROM measurements m{join}{where}"""


def per_device(r: dict[str, Any], flat: bool = False) -> Optional[str]:
    """Why a series is of each device rather than of the whole run, or None: "rate" for nccl-tests' bus and
    algorithm bandwidth (normalised so that ideal scaling keeps them flat) and a GPU collective's bandwidth; "flat"
    for SHOC's results where they barely change with the GPU count (SHOC reports MaxFlops or Triad per device, a
    multi-GPU Stencil2D in all); "load" where the devices counted make the load on a transfer rather than share
    the work (the IPU's latency under load as more tiles send at once)."""
    if "under_load" in str(r.get("conditions") or r.get("condition") or ""):
        return "load"
    if r["metric"] in ("busbw", "algbw") \
            or (r["metric"] == "bandwidth" and r.get("operation") in COLLECTIVES and r.get("count_kind") == "gpus"):
        return "rate"
    return "flat" if flat and r.get("tool") == "SHOC" and r["metric"] in HIGHER_BETTER else None


def plan(slots: dict[str, Any], cat: Catalog) -> Plan:
    s = dict(slots)
    require_ints(s)
    sid = require_system(s, cat)
    # speedup / efficiency not stored as a series: derived from the time or throughput series over counts
    derive = s.get("metric") in DERIVABLE
    require_metric_on(sid, None if derive else s.get("metric"), s.get("operation"), cat)
    notes = []
    ops = sorted(cat.operations.get(sid, set()))
    if not s.get("metric") and not s.get("operation") and not s.get("app") and len(ops) == 1:
        # "how well does the GaspiLS solver scale on the Xeon 6148 cluster": one operation is all it measured
        s["operation"] = ops[0]
        notes.append(f"no metric or operation given: {ops[0]}, the only operation measured on {cat.name(sid)}")
    lib_ops = sorted(cat.lib_ops.get(sid, {}).get(str(s.get("library") or "").lower(), set()))
    if not s.get("metric") and not s.get("operation") and not s.get("app") and len(lib_ops) == 1:
        # "how well does hy-fi scale on lassen": everything the library was measured with there is one operation
        s["operation"] = lib_ops[0]
        notes.append(f"no metric or operation given: {lib_ops[0]}, the only operation measured with "
                     f"{s['library']} on {cat.name(sid)}")
    if not s.get("metric") and s.get("operation") and "speedup" in cat.op_metrics(sid, s["operation"]):
        # how something scales, with no measure named: the speedup the source states, not a count it also tracked
        s["metric"] = "speedup"
        notes.append("no metric given: speedup, as stored for it")
    if not s.get("metric") and not s.get("operation") and not s.get("app"):
        raise OutOfScope(f"Which metric, operation or application should I follow over counts on {cat.name(sid)}? "
                         "Measured there: " + ", ".join(ops[:15]) + ".")
    if derive:
        cond, params = where_plus(s, [k for k in FILTERS if k != "metric"],
                                  fixed=("m.count IS NOT NULL", "list_contains($metrics, m.metric)"))
        params["metrics"] = [s["metric"], *sorted(TIME_LIKE | HIGHER_BETTER)]
        params["metric"] = s["metric"]
    else:
        cond, params = where_plus(s, FILTERS, fixed=("m.count IS NOT NULL",))
    if s.get("count") is not None:      # a count names the end of the range to show
        cond += " AND m.count <= $count"
        params["count"] = s["count"]
    metric = s.get("metric")
    agg, agg_words = agg_choice(s, metric)
    # a derived speedup or efficiency prefers a series of the asked metric itself where one is stored
    asked = ", m.metric = $metric AS _asked" if derive else ""
    sql = _SQL.format(variant=VARIANT_SQL, join=" JOIN runs r USING (run_id)" if "r.tool" in cond else "", where=cond,
                      asked=asked)
    chart = {"kind": "line", "x": "count", "y": "value", "ideal": True, "y2": "speedup", "ideal_y": "ideal_speedup"}
    return Plan(sql=sql, params=params, chart=chart, slots=s, notes=notes,
                extra={"agg_words": agg_words, "derive": derive, "run_tools": cat.run_tools,
                       "run_experiments": cat.run_experiments},
                narrow={"kind": "scaling", "agg": agg, "derive": derive, "aggregate": s.get("aggregate")})


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    s = plan.slots
    if not rows:
        what = what_words(s.get("operation"), s.get("metric"))
        others = [cat.name(x) for x in systems_with(cat, s.get("operation"), s.get("metric"))] if what else []
        raise OutOfScope(f"No scaling series (values at several {s.get('count_kind') or 'counts'}) of "
                         f"{what or s.get('app') or 'any measurement'} on {cat.name(s['system'])} matches that."
                         + (f" Systems with {what} data: {', '.join(others[:8])}." if others else ""))
    first, last = rows[0], rows[-1]
    unit, kind = first["unit"], first["count_kind"] or ""
    derived = plan.extra.get("derive") and first["metric"] != s.get("metric")
    if derived and len(rows) == 1:
        # "how does Summit's speedup grow with the number of GPUs": no speedup is stored, and the only other series
        # has one count, so there is nothing to derive one from
        raise OutOfScope(f"No {s['metric']} is stored on {cat.name(first['system_id'])}, and its "
                         f"{what_words(first.get('operation'), first.get('metric'))} was measured at one count only "
                         f"({first['count']} {first['count_kind'] or ''}), so none can be derived.")
    if derived:
        plan.extra["agg_words"] = "best (min for time, max for a rate)"
        how = "t(base)/t(n)" if first["metric"] in TIME_LIKE else "x(n)/x(base)"
        plan.notes.append(f"no {s['metric']} series is stored for this: derived from the {first['metric']} series, "
                          f"speedup = {how}, efficiency = speedup / (n/base)")
    plan.chart["unit"] = unit
    what = what_words(first.get("operation"), first.get("metric"))
    series = quals(first, ("tool",)) + (f", {first['family']}" if first.get("family") else "")
    if first.get("variant"):
        series += f", {first['variant']}"
    if first.get("msg_bytes"):
        series += f", {fmt_bytes(first['msg_bytes'])}"
        if s.get("msg_bytes") is None:
            plan.notes.append(f"no size given: {fmt_bytes(first['msg_bytes'])}, the largest with the most counts")
    plan.notes.append(f"series: {series}; {len(rows)} counts from {first['count']} to {last['count']} {kind}")
    if any(r["n"] > 1 for r in rows):
        plan.notes.append(f"several measurements at one count (runs, GPU sets, placements): the "
                          f"{plan.extra['agg_words']} is shown")
    span = f"from {first['count']} to {last['count']}" if len(rows) > 1 else f"at {first['count']}"
    head = f"{cap(what)} on {cat.name(first['system_id'])} {span} {kind} ({series})"
    if s.get("threshold") and len(rows) > 1:
        said = _crossing(rows, s["threshold"], kind, plan)
        if said:
            head += f"; {said}"
    if derived:
        head = f"No {s['metric']} is stored; derived from the {what}: {uncap(head)}"
    if len(rows) == 1:
        ideal = first.get("stated_ideal")
        against = (f", against an ideal {fmt_ratio(ideal)} the source states: {first['value'] / ideal:.0%} of it"
                   if first["metric"] == "speedup" and ideal else "")
        # "how well does hy-fi scale on lassen": Fig. 13 gives one speedup at 2048 GPUs with its ideal beside it
        return (f"{head}: only one count was measured, {fmt_value(first['value'], unit)}{against}{cite([first])}.")
    vals = (f"{fmt_value(first['value'], unit)} at {first['count']} -> "
            f"{fmt_value(last['value'], unit)} at {last['count']}")
    if last.get("base_count") is not None and last["base_count"] != first["count"]:
        plan.notes.append(f"the value at {first['count']} {first['count_kind'] or ''} is 0 (nccl-tests reports no "
                          f"bus traffic for one GPU): speedup and efficiency are measured from "
                          f"{last['base_count']} {first['count_kind'] or ''}")
        if last["base_count"] == last["count"]:
            return f"{head}: {vals}{cite([first, last])}."
    if last.get("speedup") is None:
        change = (f"; {last['value'] / first['value'] - 1:+.0%} from {first['count']} to {last['count']} {kind}"
                  if first["value"] else "")
        why = {"rate": f"{first['metric']} is a rate each device sees, so no speedup against linear scaling is "
                       "derived",
               "flat": "the values barely change with the count, as SHOC's per-device results do, so no speedup "
                       "against linear scaling is derived",
               "load": f"the {kind or 'devices'} counted make the load, not the work, so no speedup is derived"}.get(
            last.get("per_device") or "", f"values as reported, no speedup derived for {first['metric']}")
        return f"{head}: {vals} ({why}{change}){cite([first, last])}."
    if last["scaling_kind"] == "weak":
        plan.notes.append("weak scaling (a collective with a fixed message per participant, or a weak-scaling "
                          "experiment): ideal is constant time, so efficiency = time at the smallest count / time")
        return (f"{head}: {vals}, the time grows {fmt_ratio(1 / last['speedup'])} (weak scaling, ideal: "
                f"constant time), efficiency {_pct(last['efficiency'])}{cite([first, last])}.")
    return (f"{head}: {vals}, a speedup of {fmt_ratio(last['speedup'])} for {fmt_ratio(last['ideal_speedup'])} the "
            f"{kind or 'count'}, parallel efficiency {_pct(last['efficiency'])}{cite([first, last])}.")


def _crossing(rows: list[dict[str, Any]], line: dict[str, Any], kind: str, plan: Plan) -> Optional[str]:
    """Where the series meets the asked line ("efficiency below 80%", "a speedup over 10x", "time under 5 us"),
    in the column the line's unit names: the values themselves, the parallel efficiency (%) or the speedup (x).
    None (with a note) when the series has no such column."""
    unit = rows[0]["unit"]
    if line["unit"] == unit:
        col, scale, what = "value", 1.0, what_words(rows[0].get("operation"), rows[0].get("metric"))
    elif line["unit"] == "%" and rows[0]["metric"] == "efficiency" and unit in ("", "x", "fraction"):
        col, scale, what = "value", 100.0, "parallel efficiency"
    elif line["unit"] == "%" and all(r.get("efficiency") is not None for r in rows):
        col, scale, what = "efficiency", 100.0, "parallel efficiency"
    elif line["unit"] == "x" and all(r.get("speedup") is not None for r in rows):
        col, scale, what = "speedup", 1.0, "speedup"
    else:
        plan.notes.append(f"the line asked for is in {line['unit']}, and this series has nothing in that unit "
                          f"({unit}{', speedup, efficiency' if rows[0].get('speedup') is not None else ''})")
        return None
    plan.chart["threshold"] = line["value"] if col == "value" and scale == 1.0 else None
    vals = [r[col] * scale for r in rows]
    lim = f"{line['value']:g}" + {"%": "%", "x": "x"}.get(line["unit"], f" {line['unit']}")

    def show(v: float) -> str:
        return f"{v:.1f}%" if line["unit"] == "%" else (fmt_ratio(v) if line["unit"] == "x" else fmt_value(v, unit))
    how, i = crossing(vals, line["op"], line["value"])
    at = f"{rows[i]['count']} {kind}".strip()
    if how == "never":
        return (f"{what} never {'exceeds' if line['op'] == '>' else 'goes below'} {lim} "
                f"({'at most' if line['op'] == '>' else 'at least'} {show(vals[i])}, at {at})")
    if how.startswith("first"):
        verb = "first exceeds" if how == "first_above" else "first falls below"
        return f"{what} {verb} {lim} at {at} ({show(vals[i])}, after {show(vals[i - 1])} at {rows[i - 1]['count']})"
    side = "above" if how == "stays_above" else "below"
    nxt = f"; {show(vals[i + 1])} at {rows[i + 1]['count']} after it" if i + 1 < len(rows) else \
        ", the largest count measured"
    return f"{what} stays {side} {lim} up to {at} ({show(vals[i])}{nxt})"


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%" if x >= 0.001 else f"{x * 100:.2g}%"
