"""A metric over every endpoint pair of a system: "show the GPU-to-GPU bandwidth matrix of the DGX-2".

One slice of the data is shown: one tool, condition, direction, message size and statistic, chosen
(app/intents/_narrow.py, matrix) when the user named none (preferred condition such as p2p_on, most pairs,
unidirectional, the largest size for bandwidth or the smallest for latency). Repeated measurements of a pair in that
slice (several runs, raw and JSON copies of one run) are averaged. The diagonal (a device copying to itself) is left
out.
"""
from __future__ import annotations

from typing import Any, Optional

from app.catalog import Catalog
from app.intents import OutOfScope, Plan, _pairs
from app.intents._common import (MANY_ROWS, better_words, cap, cite, condition_words, direction_words, endpoint,
                                 fmt_bytes, fmt_value, lower_is_better, past_the_line, quals, require_ints,
                                 require_metric_on, require_system, systems_with, what_words, where_plus)

NAME = "pair_matrix"
COLUMNS = ("system_id", "metric", "operation", "src", "dst", "value", "unit", "n", "source", "tool", "condition",
           "direction", "msg_bytes", "statistic", "npairs")
FILTERS = ("system", "metric", "operation", "src", "dst", "direction", "msg_bytes", "condition", "precision",
           "app", "library", "statistic")

# The matching rows in table order (repeated pairs are averaged in that order, as SQL's avg() summed them); the
# slice with the most pairs and its mean per pair are computed in Python (_narrow.matrix), and the class rows of a
# document that measured per path class are read only when no pair is left (_pairs.fallback).
_SQL = """SELECT m.system_id, m.metric, m.operation, m.src, m.dst, m.direction, m.msg_bytes, m.condition,
       m.statistic, m.value, m.unit, m.source, m.run_id, m.rowid AS _row, {quantity} AS quantity
FROM measurements m{join}{where}"""
# a table's quantity (the IPU's aggregate bandwidth beside each transfer's): never averaged together in one cell
QUANTITY = "coalesce(m.params->>'quantity', '')"
# Over many stored rows (the DGX-2's Tartan sweeps match 23,000, 60-90 ms to fetch) one query counts each slice's
# pairs and rows (a slice: tool, condition, direction, size, statistic, unit) and a second reads the chosen one's.
# Over few rows the single query is quicker: the second costs more than the rows it saves.
_GROUPS = """SELECT r.tool, m.condition, m.direction, m.msg_bytes, m.statistic, m.unit, {quantity} AS quantity,
       count(DISTINCT (m.src, m.dst)) AS npairs, count(*) AS n
FROM measurements m JOIN runs r USING (run_id){where}
GROUP BY ALL"""
_SLICE = """ AND r.tool = $slice_tool
  AND m.condition IS NOT DISTINCT FROM $slice_condition AND m.direction IS NOT DISTINCT FROM $slice_direction
  AND m.msg_bytes IS NOT DISTINCT FROM $slice_msg_bytes AND m.statistic IS NOT DISTINCT FROM $slice_statistic
  AND m.unit = $slice_unit AND {quantity} = $slice_quantity"""


def plan(slots: dict[str, Any], cat: Catalog) -> Plan:
    s = dict(slots)
    require_ints(s)
    sid = require_system(s, cat)
    notes = []
    if not s.get("metric"):
        have = cat.metrics.get(sid, set())
        s["metric"] = "bandwidth" if "bandwidth" in have or "latency" not in have else "latency"
        notes.append(f"no metric given: {s['metric']}")
    if not s.get("operation"):
        s["operation"] = "p2p"
        notes.append("no operation given: p2p (device-to-device transfers between different endpoints)")
    if s["operation"] not in cat.operations.get(sid, set()) or s["metric"] not in cat.metrics.get(sid, set()):
        others = [cat.name(x) for x in systems_with(cat, s["operation"], s["metric"]) if x != sid]
        hint = f" {s['operation']} {s['metric']} was measured on: {', '.join(others[:8])}." if others else ""
        try:
            require_metric_on(sid, s["metric"], s["operation"], cat)
        except OutOfScope as e:
            raise OutOfScope(str(e) + hint) from None
    cond, params = where_plus(s, FILTERS, fixed=("m.src IS NOT NULL", "m.dst IS NOT NULL", "m.src <> m.dst"))
    # a named size pins the slice to one point of each sweep: few rows whatever the system holds
    grouped = s.get("msg_bytes") is None and \
        cat.rows_at_most(sid, s["metric"], s["operation"], s.get("condition")) > MANY_ROWS
    join = " JOIN runs r USING (run_id)" if "r.tool" in cond else ""
    sql = _GROUPS.format(where=cond, quantity=QUANTITY) if grouped \
        else _SQL.format(join=join, where=cond, quantity=QUANTITY)
    chart = {"kind": "heatmap", "x": "dst", "y": "src", "z": "value",
             "title": f"{s['operation']} {s['metric']} per pair on {cat.name(sid)}"}
    return Plan(sql=sql, params=params, chart=chart, slots=s, notes=notes,
                extra={"defaulted": [k for k in ("condition", "direction", "msg_bytes") if s.get(k) is None],
                       "run_tools": cat.run_tools,
                       "slice_sql": _SQL.format(join=" JOIN runs r USING (run_id)", where=cond, quantity=QUANTITY)
                       + _SLICE.format(quantity=QUANTITY)},
                narrow={"kind": "matrix", "smallest_size": s["metric"] == "latency", "grouped": grouped})


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    s = plan.slots
    direct, classes, links = _pairs.split(rows, COLUMNS)
    rows[:] = direct
    if not rows and classes:
        return _class_answer(rows, classes, links, plan, cat)
    if not rows:
        others = [cat.name(x) for x in systems_with(cat, s.get("operation"), s.get("metric"))
                  if x != s["system"]]
        raise OutOfScope(f"No per-pair {s.get('operation')} {s.get('metric')} measurements on "
                         f"{cat.name(s['system'])} match that (pairs need a source and a destination)."
                         + (f" Systems with {s.get('operation')} {s.get('metric')} data: "
                            f"{', '.join(others[:8])}." if others else ""))
    r0 = rows[0]
    plan.chart["unit"] = r0["unit"]
    low = min(rows, key=lambda r: r["value"])
    high = max(rows, key=lambda r: r["value"])
    mean = sum(r["value"] for r in rows) / len(rows)
    defaulted = plan.extra.get("defaulted", [])
    if "msg_bytes" in defaulted and r0.get("msg_bytes"):
        which = "smallest" if s.get("metric") == "latency" else "largest"
        plan.notes.append(f"no size given: {fmt_bytes(r0['msg_bytes'])}, the {which} measured for these pairs")
    if "condition" in defaulted and r0.get("condition"):
        plan.notes.append(f"no condition given: {condition_words(r0['condition'])}")
    if "direction" in defaulted and r0.get("direction"):
        plan.notes.append(f"no direction given: {direction_words(r0['direction'])}")
    plan.notes.append(f"one tool: {r0['tool']}; the diagonal (a device to itself) is left out")
    if any(r["n"] > 1 for r in rows):
        plan.notes.append(f"repeated measurements of a pair (up to {max(r['n'] for r in rows)}, several runs "
                          "or copies of one run) are averaged")
    kinds = {"".join(c for c in r["src"] if not c.isdigit()) for r in rows}
    n_end = len({c for c in cat.components.get(s["system"], set())
                 if "".join(ch for ch in c if not ch.isdigit()) in kinds})
    if n_end > 1 and len(rows) < n_end * (n_end - 1):
        plan.notes.append(f"only {len(rows)} of {n_end * (n_end - 1)} ordered pairs were measured")
    judged = better_words(r0["metric"])
    q = quals(r0)
    return cap(
        f"{what_words(r0['operation'], r0['metric'])} on {cat.name(r0['system_id'])} over {len(rows)} pairs"
        f"{' (' + q + ')' if q else ''} ranges from {fmt_value(low['value'], r0['unit'])} "
        f"({endpoint(low['src'])} -> {endpoint(low['dst'])}) to {fmt_value(high['value'], r0['unit'])} "
        f"({endpoint(high['src'])} -> {endpoint(high['dst'])}), mean {fmt_value(mean, r0['unit'])} "
        f"{' (' + judged + ')' if judged else ''}{cite([low, high])}.") + _beyond(rows, s.get("threshold"), plan) \
        + _asked_pairs(rows, s.get("pairs")) + _ranked_pairs(rows, s)


def _ranked_pairs(rows: list[dict[str, Any]], s: dict[str, Any]) -> str:
    """"the five lowest-latency pairs", "which two pairs are slowest": that many pairs from the end asked (the
    aggregate's; else the better end of the measure), each with its value."""
    n = s.get("top_n")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1 or len(rows) < 2:
        return ""
    agg = s.get("aggregate")
    low_first = agg == "min" if agg in ("min", "max") else lower_is_better(rows[0]["metric"])
    ranked = sorted(rows, key=lambda r: (r["value"], r["src"], r["dst"]), reverse=not low_first)[:min(n, 20)]
    word = "lowest" if low_first else "highest"
    return (f" The {len(ranked)} {word}: "
            + "; ".join(f"{endpoint(r['src'])} -> {endpoint(r['dst'])} {fmt_value(r['value'], r['unit'])}"
                        for r in ranked) + ".")


def _asked_pairs(rows: list[dict[str, Any]], pairs: Optional[list[list[str]]]) -> str:
    """"does GPU0 -> GPU1 get more than GPU0 -> GPU2": the pairs the question set against each other, with their
    values and the ratio of the first to the second (where both were measured)."""
    if not pairs:
        return ""
    by_pair = {(r["src"], r["dst"]): r for r in rows}
    got = [(p, by_pair.get((p[0], p[1]))) for p in pairs]
    parts = [f"{endpoint(p[0])} -> {endpoint(p[1])}: " + (fmt_value(r["value"], r["unit"]) if r else "not measured")
             for p, r in got]
    ratio = ""
    if len(got) == 2 and got[0][1] and got[1][1] and got[1][1]["value"]:
        ratio = f" ({got[0][1]['value'] / got[1][1]['value']:.2f}x the second)"
    return " The pairs asked about: " + "; ".join(parts) + ratio + "."


def _beyond(rows: list[dict[str, Any]], line: Optional[dict[str, Any]], plan: Plan) -> str:
    """"pairs above 100 GB/s": how many of the pairs are past the line (only in the line's own unit)."""
    judged = past_the_line(rows, line)
    if judged is None:
        return ""
    past, word = judged
    plan.chart["threshold"] = line["value"]
    return f" {len(past)} of the {len(rows)} pairs are {word} {fmt_value(line['value'], line['unit'])}."


def _class_answer(rows: list[dict[str, Any]], classes: list[dict[str, Any]], links: list[dict[str, Any]],
                  plan: Plan, cat: Catalog) -> str:
    """No per-pair measurements, but per path class (see _pairs.py): each pair gets its class's value."""
    s = plan.slots
    name = cat.name(s["system"])
    g = _pairs.gpu_graph(links)
    got, missing, used = _pairs.matrix(classes, g, s.get("src"), s.get("dst"))
    if not got:
        raise OutOfScope(f"{s['operation']} {s['metric']} on {name} was measured only per path class "
                         f"({', '.join(sorted({r['path_class'] for r in classes}))}), and no GPU pair of its "
                         "stored graph is in one of those classes.")
    rows[:] = got
    r0 = got[0]
    plan.chart["unit"] = r0["unit"]
    by_class: dict[str, list[dict]] = {}
    for r in got:
        by_class.setdefault(r["path_class"], []).append(r)
    plan.notes.append(f"no per-pair measurements on {name}: the document measured per path class; each pair "
                      f"shows the value of its class ({_pairs.test_name(r0)}), with that row's source")
    if "msg_bytes" in plan.extra.get("defaulted", []) and r0.get("msg_bytes"):
        plan.notes.append(f"no size given: {fmt_bytes(r0['msg_bytes'])}, the largest measured")
    if "condition" in plan.extra.get("defaulted", []) and r0.get("condition"):
        plan.notes.append(f"no condition given: {condition_words(r0['condition'])}")
    gap = ""
    if missing:
        n = sum(missing.values())
        gap = (f"; {n} pair{'s' if n > 1 else ''} in class{'es' if len(missing) > 1 else ''} "
               f"{', '.join(sorted(missing))} ha{'ve' if n > 1 else 's'} no measurement and no value")
        plan.notes.append("pairs without a value: " + ", ".join(f"{k}: {v}" for k, v in sorted(missing.items())))
    parts = [f"{k} {fmt_value(v[0]['value'], v[0]['unit'])} ({len(v)} pairs)"
             for k, v in sorted(by_class.items(), key=lambda x: -x[1][0]["value"])]
    q = quals(dict(r0, tool=_pairs.test_name(r0)))
    return cap(f"{what_words(r0['operation'], r0['metric'])} on {name} over {len(got)} GPU pairs"
               f"{' (' + q + ')' if q else ''}, from the measurement of each pair's path class: "
               f"{', '.join(parts)}{gap}{cite([v[0] for v in by_class.values()])}.")
