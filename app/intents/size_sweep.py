"""A metric across message or transfer sizes: "how does all-reduce bus bandwidth grow with message size on
the H200 pair?", "what is the host-to-device bandwidth at 1 MB on the DGX-2?".

One sweep is shown, one series per condition (in-place / out-of-place, p2p_on / p2p_off, pinned /
pageable ...). Where the user named none, one tool, endpoint pair, GPU count, direction and statistic are
picked (app/intents/_narrow.py, sweep): the longest sweep first, then unidirectional, mean, the largest
count. Repeated measurements of one size (several runs, raw and JSON copies of one run) are averaged.
"""
from __future__ import annotations

import re

from typing import Any, Optional

from app.catalog import Catalog
from app.intents import OutOfScope, Plan
from app.intents._common import (VARIANT_SQL, cap, cite, crossing, endpoint, fmt_bytes, fmt_value, lower_is_better,
                                 quals, require_ints, require_metric_on, require_system, systems_with,
                                 what_words, where_plus)

NAME = "size_sweep"
FILTERS = ("system", "metric", "operation", "src", "dst", "direction", "count", "count_kind", "condition",
           "precision", "app", "library", "statistic")

# the matching rows in table order (repeated sizes are averaged in that order, as SQL's avg() summed them)
_SQL = """SELECT m.system_id, m.metric, m.operation, m.src, m.dst, m.direction, m.msg_bytes, m.count, m.count_kind,
       m.condition, m.precision, m.statistic, m.app, {variant} AS variant, m.value, m.unit, m.source, m.run_id,
       m.rowid AS _row{at}
FROM measurements m{join}{where}"""


WANTS_QUESTION = True   # app.ask passes the question text: "where does it saturate" reaches no slot
# a question about where a curve levels off; answered with the first size within SATURATED of the curve's peak
_SATURATES = re.compile(r"\bsaturat\w*|\bplateau\w*|\blevel(s|ed)? off\b|\bflattens?( out)?\b|\bknee\b")
SATURATED = 0.9


def size_ends(rng: Any) -> tuple[Optional[int], Optional[int]]:
    """The ends of a `size_range` slot, lower first; None for an open end ("past 1 MB": [1048576, null]) and for
    anything that is no range."""
    def whole(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)
    if not (isinstance(rng, (list, tuple)) and len(rng) == 2 and all(x is None or whole(x) for x in rng)):
        return None, None
    a, b = rng
    if a is not None and b is not None:
        return min(a, b), max(a, b)
    return a, b


def plan(slots: dict[str, Any], cat: Catalog, question: str = "") -> Plan:
    s = dict(slots)
    require_ints(s)
    sid = require_system(s, cat)
    require_metric_on(sid, s.get("metric"), s.get("operation"), cat)
    if not s.get("metric") and not s.get("operation"):
        raise OutOfScope(f"Which metric or operation should I sweep over sizes on {cat.name(sid)}? Measured there: "
                         + ", ".join(sorted(cat.operations.get(sid, set()))[:15]) + ".")
    fixed = ["m.msg_bytes IS NOT NULL"]
    lo, hi = size_ends(s.get("size_range"))
    if lo is not None or hi is not None:
        # "256B-1GB": the curve between the range's ends; its first end is no point asked for ("past 1 MB": the
        # range has no upper end)
        fixed += (["m.msg_bytes >= $size_lo"] if lo is not None else []) + \
            (["m.msg_bytes <= $size_hi"] if hi is not None else [])
        s.pop("msg_bytes", None)
    cond, params = where_plus(s, FILTERS, fixed=fixed)
    if lo is not None:
        params["size_lo"] = lo
    if hi is not None:
        params["size_hi"] = hi
    # one curve and its points are picked in Python over the matching rows (_narrow.sweep): DuckDB spent twice
    # the time of the whole Python step binding, optimising and running the windows that picked it in SQL
    at = ""
    if s.get("msg_bytes") is not None:   # the asked size: each row says whether it is a point at that size
        at = ", m.msg_bytes = $msg_bytes AS _at"
        params["msg_bytes"] = s["msg_bytes"]
    sql = _SQL.format(variant=VARIANT_SQL, join=" JOIN runs r USING (run_id)" if "r.tool" in cond else "", where=cond,
                      at=at)
    chart = {"kind": "line", "x": "msg_bytes", "y": "value", "log2_x": True, "series": "series"}
    defaulted = [k for k in ("src", "dst", "count", "direction") if s.get(k) is None]
    return Plan(sql=sql, params=params, chart=chart, slots=s, extra={"defaulted": defaulted,
                                                                      "run_tools": cat.run_tools,
                                                                      "saturation": bool(_SATURATES.search(
                                                                          (question or "").lower()))},
                narrow={"kind": "sweep"})


def _series_sentence(name: str, rs: list[dict[str, Any]], plan: Plan) -> str:
    unit = rs[0]["unit"]
    label = "" if name == "default" else f"{name}: "
    want = plan.slots.get("msg_bytes")
    points = {r["msg_bytes"] for r in rs}
    if len(points) == 1:              # no sweep: the one stored point
        r = rs[0]
        off = f"; {fmt_bytes(want)} was not measured" if want is not None and not r["at_size"] else ""
        return (f"{label}{fmt_value(r['value'], unit)} at {fmt_bytes(r['msg_bytes'])}, the only point stored{off}"
                f"{cite([r])}")
    line = plan.slots.get("threshold")
    if line and line.get("unit") == unit and want is None:
        text, row = _crossing(rs, line, unit)
        plan.extra.setdefault("crossings", []).append(row)
        return label + text
    if want is not None:
        hit = [r for r in rs if r["at_size"]]
        if hit:
            return f"{label}{fmt_value(hit[0]['value'], unit)} at {fmt_bytes(want)}{cite(hit)}"
        lo = max((r for r in rs if r["msg_bytes"] < want), key=lambda r: r["msg_bytes"], default=None)
        hi = min((r for r in rs if r["msg_bytes"] > want), key=lambda r: r["msg_bytes"], default=None)
        near = [r for r in (lo, hi) if r]
        return (f"{label}{fmt_bytes(want)} was not measured; nearest: "
                + ", ".join(f"{fmt_value(r['value'], unit)} at {fmt_bytes(r['msg_bytes'])}" for r in near)
                + cite(near))
    if lower_is_better(rs[0]["metric"]):
        best = min(rs, key=lambda r: r["value"])
        last = rs[-1]
        return (f"{label}lowest {fmt_value(best['value'], unit)} at {fmt_bytes(best['msg_bytes'])}, "
                f"{fmt_value(last['value'], unit)} at the largest size {fmt_bytes(last['msg_bytes'])}"
                f"{cite([best, last])}")
    peak = max(rs, key=lambda r: r["value"])
    if plan.extra.get("saturation"):
        # "what message size saturates all_gather": the first size within 90% of the curve's peak
        rs = sorted(rs, key=lambda r: r["msg_bytes"])
        knee = next(r for r in rs if r["value"] >= SATURATED * peak["value"])
        plan.extra.setdefault("crossings", []).append(knee)
        return (f"{label}saturates at about {fmt_bytes(knee['msg_bytes'])}, the first size within "
                f"{100 * (1 - SATURATED):.0f}% of its peak: {fmt_value(knee['value'], unit)} there, peak "
                f"{fmt_value(peak['value'], unit)} at {fmt_bytes(peak['msg_bytes'])}{cite([knee, peak])}")
    return f"{label}peak {fmt_value(peak['value'], unit)} at {fmt_bytes(peak['msg_bytes'])}{cite([peak])}"


def _crossing(rs: list[dict[str, Any]], line: dict[str, Any], unit: str) -> tuple[str, dict[str, Any]]:
    """The sentence for where a sweep meets the asked line (see _common.crossing) and the row it names: the
    smallest size above it ("exceeds 100 GB/s"), the largest size still below it ("stays under 20 us")."""
    lim = f"{line['value']:g} {unit}"
    rs = sorted(rs, key=lambda r: r["msg_bytes"])
    how, i = crossing([r["value"] for r in rs], line["op"], line["value"])
    hit = rs[i]
    at = f"{fmt_value(hit['value'], unit)}"
    if how == "never":
        word = "exceeds" if line["op"] == ">" else "goes below"
        most = "the most" if line["op"] == ">" else "the least"
        return f"never {word} {lim}: {most} is {at} at {fmt_bytes(hit['msg_bytes'])}{cite([hit])}", hit
    if how.startswith("first"):
        prev = rs[i - 1]
        verb = "first exceeds" if how == "first_above" else "first falls below"
        return (f"{verb} {lim} at {fmt_bytes(hit['msg_bytes'])}: {at} ({fmt_value(prev['value'], unit)} at "
                f"{fmt_bytes(prev['msg_bytes'])} before it){cite([hit])}"), hit
    side = "above" if how == "stays_above" else "below"
    after = f" ({fmt_value(rs[i + 1]['value'], unit)} at {fmt_bytes(rs[i + 1]['msg_bytes'])} after it)" \
        if i + 1 < len(rs) else " (up to the largest size measured)"
    back = [r for r in rs[i + 2:] if (r["value"] > line["value"]) == (line["op"] == ">")]
    again = (f"; {side} it again at {', '.join(fmt_bytes(r['msg_bytes']) for r in back[:3])}"
             f"{' and more' if len(back) > 3 else ''}") if back else ""
    return (f"stays {side} {lim} up to {fmt_bytes(hit['msg_bytes'])}: {at}{after}{again}{cite([hit])}"), hit


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    s = plan.slots
    if not rows:
        others = [cat.name(x) for x in systems_with(cat, s.get("operation"), s.get("metric"))]
        what = " ".join(str(x) for x in (s.get("operation"), s.get("metric")) if x)
        raise OutOfScope(f"No size sweep of {what} on {cat.name(s['system'])} matches that (it needs measurements "
                         "at several message sizes)."
                         + (f" Systems with {what} data: {', '.join(others[:8])}." if others else ""))
    r0 = rows[0]
    series: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        series.setdefault(r["series"], []).append(r)
    defaulted = plan.extra.get("defaulted", [])
    what = what_words(r0.get("operation"), r0.get("metric"))
    where = []
    if r0.get("src") or r0.get("dst"):
        where.append(f"{endpoint(r0.get('src')) or '?'} -> {endpoint(r0.get('dst')) or '?'}")
        gone = [k for k in ("src", "dst") if k in defaulted]
        if len(gone) == 2:
            plan.notes.append(f"no endpoints given: {where[-1]} (the pair with the longest sweep)")
        elif gone and r0.get(gone[0]) != "host":
            # (the host end of a host copy to or from a GPU that was named goes without saying)
            which = "source" if gone[0] == "src" else "destination"
            plan.notes.append(f"no {which} given: {where[-1]} (the one with the longest sweep)")
    counts = sorted({r["count"] for r in rows if r.get("count")})
    if len(counts) > 1:
        # one curve across a table's experiments that change the count with the size (_narrow.sweep)
        where.append(f"{counts[0]} to {counts[-1]} {r0['count_kind']}")
        plan.notes.append(f"the count changes with the size in this table: "
                          + ", ".join(f"{r['count']} {r['count_kind']} at {fmt_bytes(r['msg_bytes'])}"
                                      for r in sorted(rows, key=lambda r: r["msg_bytes"])[:6]))
    elif r0.get("count") and r0.get("count_kind"):
        where.append(f"{r0['count']} {r0['count_kind']}")
        if "count" in defaulted:
            plan.notes.append(f"no count given: {r0['count']} {r0['count_kind']} (the largest measured)")
    q = quals(r0, ("direction", "precision", "statistic", "tool"))
    sizes = sorted({r["msg_bytes"] for r in rows})
    plan.chart["unit"] = r0["unit"]
    if len(sizes) == 1:
        plan.notes.append(f"only one size is stored ({fmt_bytes(sizes[0])}), so there is no sweep: the single "
                          "point is shown")
    else:
        lo, hi = size_ends(s.get("size_range"))
        within = (f" (the range asked: {fmt_bytes(lo)} to {fmt_bytes(hi)})" if lo is not None and hi is not None
                  else f" (the range asked: from {fmt_bytes(lo)} on)" if lo is not None
                  else f" (the range asked: up to {fmt_bytes(hi)})" if hi is not None else "")
        plan.notes.append(f"{len(sizes)} sizes from {fmt_bytes(sizes[0])} to {fmt_bytes(sizes[-1])}{within}; "
                          f"sizes are bytes as the tool prints them (powers of two are binary KiB/MiB/GiB)")
    if any(r["n"] > 1 for r in rows):
        plan.notes.append("repeated measurements of one size (several runs or copies of one run) are averaged")
    line = s.get("threshold")
    if line:
        plan.chart["threshold"] = line["value"]
        if line.get("unit") != r0["unit"]:
            plan.notes.append(f"the line asked for is in {line['unit']} but {what} is in {r0['unit']}: "
                              "the sweep is shown without it")
    parts = "; ".join(_series_sentence(k, v, plan) for k, v in series.items())
    crossed = [id(r) for r in plan.extra.get("crossings", [])]
    if crossed:   # the sizes that answer the question lead the rows (the headline); the curve follows
        rows[:] = [r for r in rows if id(r) in crossed] + [r for r in rows if id(r) not in crossed]
    head = (f"{cap(what)} on {cat.name(r0['system_id'])}"
            f"{' (' + ', '.join(where + ([q] if q else [])) + ')' if where or q else ''}")
    best = _best_sizes(rows, s.get("top_n"))
    return f"{head}: {parts}.{best}"


def _best_sizes(rows: list[dict[str, Any]], top_n: Any) -> str:
    """"the top 3 allreduce busbw sizes": the sizes of the best values over every series, best first."""
    if isinstance(top_n, bool) or not isinstance(top_n, int) or top_n < 1 or len(rows) < 2:
        return ""
    low = lower_is_better(rows[0]["metric"])
    ranked = sorted(rows, key=lambda r: r["value"], reverse=not low)[:min(top_n, 10)]
    many = len({r["series"] for r in rows}) > 1
    listed = ", ".join(f"{fmt_bytes(r['msg_bytes'])} {fmt_value(r['value'], r['unit'])}"
                       + (f" ({r['series']})" if many else "") for r in ranked)
    return f" The {len(ranked)} best: {listed}."
