"""A planner's defaults applied in Python to the rows of one plain query.

Why: for a question new to the connection, DuckDB spends most of a planner query's time binding and optimising
it, not reading rows. A metric_lookup query that chose its defaults as five QUALIFY stages took about 2 ms to
bind and 4 ms to optimise on the 2-core development machine, then well under 1 ms to run, and that is paid for
every question. The defaults are choices among the few rows that match the question's filters (the largest size
measured, one direction, one metric), so a planner can instead fetch the matching rows with one plain
parameterised SELECT, and make the same choices here over rows already in memory.

The topology planner, likewise, reads a system's links from one table and takes their ends' kinds and labels
from the catalog instead of joining the components table twice.

A plan says what to do in `Plan.narrow` (JSON, so that the row cache keys on it):

    {"kind": "measurements",
     "steps": ["metric", "per_unit", "count", "size", "direction"],  # in this order, each over what is left
     "order": "asc" | "desc",                                        # by value; fixed ties after it
     "limit": 50, "pairs": false}
    {"kind": "links", "switch_ends": false}
    {"kind": "sweep"}                                                # size_sweep: one curve, its points
    {"kind": "scaling", "agg": "max", "derive": false, "aggregate": null}  # scaling: one series over counts
    {"kind": "congestion"}                                           # baseline and stressed rows paired up
    {"kind": "link_efficiency", "largest_size": true}                # measurements, then the system's links
    {"kind": "matrix", "smallest_size": false}                       # pair_matrix: one slice, a value per pair
    {"kind": "compare", "how": "max" | "min" | "avg" | null,         # compare_systems: one value per system
     "metric_as": null}                                              # (the rows are a query's per-slice groups)
    {"kind": "trace", "by": "shortest" | "longest" | "run_id" | "name", "run": ..., "top": {...}}  # trace_breakdown

Each step keeps what SQL's `QUALIFY <rule> OVER ()` kept: the semantics, NULLs included, are those of the
window rules and joins they replace (see each function).
"""
from __future__ import annotations

import json
import math
import re
from typing import Any, Callable, Optional

from app.catalog import label_words
from app.intents._common import (HIGHER_BETTER, LOWER_BETTER, PREFERRED_CONDITIONS, RATE_SCALE, STATED_SQL,
                                 params_match, whole_quantity)
from app.intents import _specs
from nlu.vocab import join_spelled
from app.intents.scaling import COLLECTIVES, TIME_LIKE, per_device
from app.intents.trace_breakdown import CATEGORIES
from nlu.vocab import TEENS, UNITS

# a value per transfer, per tile or per operand where the document also gives the whole operation's
_PER_UNIT = re.compile(r"(avg .*)?per ")
# the metric people quote first when none is named; then the most often measured, then by name
_METRIC_RANK = {"bandwidth": 0, "busbw": 1, "flops": 2, "throughput": 3, "latency": 4, "time": 5}


def apply(con, plan, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return KINDS[plan.narrow["kind"]](con, plan, rows)


def _with_tools(plan, rows: list[dict[str, Any]]) -> None:
    """Each row's tool from its run (the catalog's map, which the plan carries), in place of the run id."""
    tools = plan.extra.get("run_tools", {})
    for r in rows:
        r["tool"] = tools.get(r.pop("run_id", None))


def _mean(rs: list[dict[str, Any]]) -> float:
    """The mean value, summed in the rows' order (as SQL's avg() over rows fed in table order)."""
    total = 0.0
    for r in rs:
        total += r["value"]
    return total / len(rs)


def _any_values(rs: list[dict[str, Any]], cols) -> dict[str, Any]:
    """SQL's any_value() per column: the first non-NULL value, else NULL."""
    return {c: next((r[c] for r in rs if r[c] is not None), None) for c in cols}


def _groups(rows: list[dict[str, Any]], cols: tuple, distinct: Callable[[dict[str, Any]], Any]
            ) -> dict[tuple, tuple[set, list]]:
    """Rows grouped by their values of `cols` (a slice, a series), each group with the set of `distinct` values
    its rows cover (sizes, counts, pairs, systems: what the ranking counts) and its rows in the order given."""
    out: dict[tuple, tuple[set, list]] = {}
    for r in rows:
        seen, members = out.setdefault(tuple(r.get(c) for c in cols), (set(), []))
        seen.add(distinct(r))
        members.append(r)
    return out


def links(con, plan, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each link with its ends' kind, label, parent and stated NVLink rate (NULLs for an end the components table
    lacks, as a LEFT JOIN gives), and `selected` widened to links with an NVSwitch end when NVSwitch is asked."""
    parts = plan.extra.get("parts", {})
    node = plan.params.get("node")
    out = []
    for r in rows:
        sel = r.pop("selected")
        with_ends(r, parts)
        if plan.narrow.get("switch_ends") and not sel:
            # SQL's three-valued `prefix OR 'nvswitch' IN (a_kind, b_kind)`, then AND the endpoint rule
            kinds = (r["a_kind"], r["b_kind"])
            switch = True if "nvswitch" in kinds else (None if None in kinds else False)
            if switch is not False and node is not None:
                switch = switch if node in (r["a"], r["b"]) else False
            sel = switch if sel is False or switch is True else sel
        r["selected"] = sel
        out.append(r)
    return out


def with_ends(r: dict[str, Any], parts: dict[str, dict[str, Any]]) -> None:
    """A link's ends' kind, label, parent and stated NVLink rate from the catalog (NULLs for an end the
    components table lacks, as a LEFT JOIN gives)."""
    a, b = parts.get(r["a"], {}), parts.get(r["b"], {})
    r.update({"a_kind": a.get("kind"), "b_kind": b.get("kind"), "a_label": a.get("label"), "b_label": b.get("label"),
              "a_parent": a.get("parent"), "b_parent": b.get("parent"),
              "a_nvlink_gbps_per_dir": a.get("nvlink_gbps_per_dir"),
              "b_nvlink_gbps_per_dir": b.get("nvlink_gbps_per_dir")})


def measurements(con, plan, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    spec = plan.narrow
    _with_tools(plan, rows)
    cpu_timed = set()
    for r in rows:
        q = r.pop("_quantity", None)
        r["_per_unit"] = bool(q is not None and _PER_UNIT.match(q))
        if r.pop("_timer", None) == "cpu":
            cpu_timed.add(id(r))
    # p2pBandwidthLatencyTest prints each latency matrix timed on the GPU and on the CPU: the GPU's is the
    # device latency people quote (H200, P2P off: 18.17 us; the CPU timer's 8.74 us had been "the lowest")
    rows = keep_if_any(rows, lambda r: id(r) not in cpu_timed)
    if (plan.slots or {}).get("statistic") != "std":
        rows = values_not_spreads(rows)
    if spec.get("device_memory"):
        # "memory bandwidth": the device memory's, stated (a spec row of no operation) or measured, by the first
        # of metric_lookup.DEVICE_MEMORY's operations stored
        for op in spec["device_memory"]:
            kept = [r for r in rows if r.get("operation") == op or (r.get("operation") is None
                                                                   and r.get("condition") == "spec")]
            if kept:
                rows = kept
                break
    if spec.get("params"):
        said = {k: (tuple(keys), v) for k, (keys, v) in spec["params"].items()}
        kept = [r for r in rows if params_match(json.loads(r.get("_params") or "{}"), said)]
        rows = kept if kept else rows
        for r in rows:
            r["_params_hit"] = bool(kept)
    for r in rows:
        params = r.pop("_params", None)
        if spec.get("cases") and params:
            r["_case"] = params      # a ranking says each row's case (metric_lookup._ranking)
    if spec.get("tool"):
        rows = keep_if_any(rows, lambda r: made_by(r, spec["tool"]))
    if spec.get("said"):
        rows = said_label(rows, spec["said"])
    if spec.get("aggregate") == "mean":
        rows = printed_average(rows)
    if spec.get("aggregate") == "mean" or (spec.get("aggregate") is None and not spec.get("said")):
        rows = stated_mean(rows, asked=spec.get("aggregate") == "mean")
    for step in spec.get("steps", ()):
        rows = STEPS[step](rows)
    order = spec.get("order", "desc")
    if spec.get("relative") and rows:
        # "fastest" with no measure named: the lowest of a time, the highest of a rate (one metric is left now)
        lower = rows[0]["metric"] in LOWER_BETTER
        order = "asc" if lower == (spec["relative"] == "better") else "desc"
    rows = ordered(rows, order)
    matched = len(rows)
    rows = rows[:spec.get("limit", 50)]
    for r in rows:
        r.pop("_per_unit", None)
        if not r.get("_said"):
            r.pop("_label", None)
        r.pop("_said", None)
        r["_matched"] = matched
    if spec.get("pairs") and not rows:
        from app.intents import _pairs
        return _pairs.fallback(con, plan.params)
    if spec.get("of_peak") and rows:
        peak = stated_peak(con, rows[0])
        rows[0].update(peak)
        share = stated_share(con, rows[0]) if not peak else None
        if share:
            # "what fraction of its theoretical FP32 rate does the GEMM reach", where no peak is stored to set
            # the measured rate against but the document states the share itself: that share heads the answer
            rows.insert(0, share)
    return rows


STATED_SHARE_SQL = """SELECT m.system_id, m.metric, m.operation, m.src, m.dst, m.direction, m.msg_bytes,
       m.count, m.count_kind, m.condition, m.precision, m.statistic, m.app, m.value, m.unit, m.source, m.run_id
FROM measurements m
WHERE m.system_id = $system AND m.metric = 'efficiency' AND m.operation = $operation
  AND m.precision IS NOT DISTINCT FROM $precision AND m.src IS NOT DISTINCT FROM $src AND m.dst IS NULL
ORDER BY m.value DESC"""


def stated_share(con, top: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The efficiency a document states for the measured row's operation and precision (its share of peak)."""
    from app.intents import fetch
    if not top.get("operation"):
        return None
    rows = fetch(con, STATED_SHARE_SQL, {"system": top["system_id"], "operation": top["operation"],
                                         "precision": top.get("precision"), "src": top.get("src")})
    return rows[0] if rows else None


# a stated peak of the whole machine is no peak of one GPU's measurement
_WHOLE = re.compile(r"whole|system|aggregate over|total", re.I)
STATED_PEAK_SQL = """SELECT m.operation, m.precision, m.value, m.unit, m.source, m.count,
       coalesce(m.params->>'spec', m.params->>'quantity', m.params->>'units') AS label,
       coalesce(m.params->>'scope', m.params->>'spec', '') AS scope
FROM measurements m
WHERE m.system_id = $system AND m.metric = $metric AND m.condition IN ({stated})
  AND m.src IS NULL AND m.dst IS NULL
ORDER BY m.rowid""".format(stated=STATED_SQL)


def stated_peak(con, top: dict[str, Any]) -> dict[str, Any]:
    """The peak a document states for the measured row's system, metric and precision: of the same operation
    first, else of none (a device's arithmetic or memory); of one device, not the whole machine, where the
    measurement is of one; the highest of what is left (the IPU's AMP peak over its vector units')."""
    from app.intents import fetch
    cands = fetch(con, STATED_PEAK_SQL, {"system": top["system_id"], "metric": top["metric"]})
    cands = [c for c in cands if c["precision"] == top.get("precision") or top.get("precision") is None]
    if (top.get("count") or 1) == 1:
        cands = [c for c in cands if not _WHOLE.search(c["scope"] or "")]
    same = [c for c in cands if c["operation"] == top.get("operation")]
    cands = same or [c for c in cands if c["operation"] in (None, "compute")]
    if not cands:
        return {}
    best = max(cands, key=lambda c: c["value"] * RATE_SCALE.get(c["unit"], 1.0))
    return {"peak_value": best["value"], "peak_unit": best["unit"], "peak_source": best["source"],
            "peak_label": best["label"]}



# statistics that are spreads of a quantity's values, not values of it
SPREADS = ("std", "range")


def values_not_spreads(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A standard deviation stored beside its mean (the ISC 2022 congestion tables give both) is the spread of
    the values, not one of them: "the lowest LAMMPS congestion impact" must not be a 0.53 std, nor the XMP-64's
    barrier time the 150 ns by which its nodes' times varied. Kept only when nothing else matches."""
    return keep_if_any(rows, lambda r: r.get("statistic") not in SPREADS)


# question words that name no row apart from its columns: they are what every row of the answer shares
_NOT_LABEL = set("""a an the of on in for to at and or with from by per how much many does do did is are was were be
what which whats show me give tell get gets reach reached its it this that their there vs versus between
bandwidth bw latency time throughput speed rate value number measured gb mb kb us ms ns gpu gpus ipu ipus cpu node
system peak max maximum min minimum highest lowest best worst mean average avg one single
byte kib mib gib kilobyte megabyte gigabyte message msg size""".split())


# a small number said in words, as the digits a label writes it with (the reader's own number words)
_SMALL_NUMBERS = {w: str(n) for w, n in {**UNITS, **TEENS}.items()}


def said_words(question: str, slots: dict[str, Any]) -> list[str]:
    """The question's words that could pick a row by its label (sorted: the plan's narrow is a cache key). Words
    of the slots' values are left out: every row already matches them ("prng" of "the IPU's PRNG" is in the
    label of its speedup over the V100 too, which is no reason to prefer it)."""
    used = set()
    # (a link type is no column of a measurement: its word can only pick a row by the label, "UPI bandwidth (maxed
    # out)" of SU3_Bench's socket-to-socket traffic)
    for k, v in slots.items():
        if k == "link_type":
            continue
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if isinstance(x, str):
                used |= label_words(x)   # "dgx1_p100" -> dgx1, p100: the split is at any non-alphanumeric
    # "four hops" picks the label "Off-chip (4 hops)" as "4 hops" does
    words = {_SMALL_NUMBERS.get(w, w) for w in label_words(join_spelled(question))}   # "u p i" is UPI
    return sorted(words - _NOT_LABEL - used)


def said_label(rows: list[dict[str, Any]], said: list[str]) -> list[dict[str, Any]]:
    """The rows whose label shares the most of the question's own words, when any does: "the HBM2 memory
    bandwidth of the P100" is the 732 GB/s the document states, not the largest copy measured; "xmp64 latency,
    2 off-chip hops" is that row of Table 1, not the lowest of its five latencies. A row keeps the words that
    picked it (`_said`), so the answer can say which label it quotes."""
    want = set(said)
    scored = []
    for r in rows:
        hit = want & label_words(r.get("_label"))
        # a number alone ("1" of "1 GB") picks nothing; it only tells apart rows a word picked ("2" hops of 1-4)
        scored.append((len(hit) if any(not w.isdigit() for w in hit) else 0, hit, r))
    best = max((n for n, _, _ in scored), default=0)
    if best == 0 or all(n == best for n, _, _ in scored):
        return rows
    out = []
    for n, hit, r in scored:
        if n == best:
            r["_said"] = sorted(hit)
            out.append(r)
    return out


def _states_a_spread(rows: list[dict[str, Any]]) -> bool:
    """A document's own mean with its minimum or maximum among the rows (curated rows, tool "paper"; not a
    benchmark's printed mean, min and max, nor averages per transfer that are means of another kind)."""
    stated = [r for r in rows if r.get("statistic") in ("mean", "min", "max")]
    stats = {r.get("statistic") for r in stated}
    return "mean" in stats and bool(stats & {"min", "max"}) and all(r.get("tool") == "paper" for r in stated)


def stated_mean(rows: list[dict[str, Any]], asked: bool = False) -> list[dict[str, Any]]:
    """A document that states a quantity's mean with its minimum and maximum (the XMP-64's synchronised barrier:
    0.99 us, 0.93 to 1.1) gives its typical value: "how long does a barrier take" is that mean, not the lowest row
    of other cases beside it (0.28 us for one core in an extreme entry pattern), and "the mean barrier time" is
    the mean it states, not 0.848 us averaged over its mean, minimum, maximum and that extreme case. Where a mean
    was asked for (`asked`), the rows kept are marked `_stated`, so the answer quotes them instead of averaging."""
    if not _states_a_spread(rows):
        return rows
    kept = [r for r in rows if r.get("statistic") == "mean"]
    for r in kept if asked else ():
        r["_stated"] = True
    return kept


def printed_average(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A benchmark's own average over the sizes it swept, where it prints one (nccl-tests' "Avg bus bandwidth",
    stored as a mean row of no size beside the sized rows of its run): "the h200 avg busbw for allreduce" is the
    103.5 GB/s the tool printed, not 344.8 averaged over the rows at the largest size. The rows kept are marked
    `_stated` and `_over_sizes`, so the answer quotes them and says what they average."""
    sized = {(r.get("run_id"), r["metric"], r.get("operation"), r.get("count")) for r in rows
             if r.get("msg_bytes") is not None}
    kept = [r for r in rows if r.get("statistic") == "mean" and r.get("msg_bytes") is None
            and (r.get("run_id"), r["metric"], r.get("operation"), r.get("count")) in sized]
    for r in kept:
        r["_stated"] = r["_over_sizes"] = True
    return kept or rows


def keep_if_any(rows: list[dict[str, Any]], keep: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """The rows `keep` accepts, or all of them when it accepts none (`NOT keep OR NOT bool_or(keep) OVER ()`)."""
    kept = [r for r in rows if keep(r)]
    return kept if kept else rows


def _largest(rows: list[dict[str, Any]], col: str) -> Optional[Any]:
    vals = [r[col] for r in rows if r.get(col) is not None]
    return max(vals) if vals else None


def one_metric(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One metric only (values of different units never compete): the one people quote first, then the most
    often measured, then by name."""
    if not rows:
        return rows
    n: dict[str, int] = {}
    for r in rows:
        n[r["metric"]] = n.get(r["metric"], 0) + 1
    pick = min(n, key=lambda m: (_METRIC_RANK.get(m, 6), -n[m], m))
    return [r for r in rows if r["metric"] == pick]


def whole_operation(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The IPU report gives a collective's total latency and its average per transfer or operand side by side:
    "the reduce latency" is the operation's, unless only per-unit values exist."""
    return keep_if_any(rows, lambda r: not r["_per_unit"])


def largest_count(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A collective on "the H200 pair" means all its GPUs: the largest count measured; nothing is dropped
    when no count above one is stored (`coalesce(max(count), 0) <= 1 OR count = max(count)`). SHOC's rows: one
    GPU's."""
    if rows and all(r.get("tool") == "SHOC" for r in rows):
        # SHOC run on several GPUs reports each GPU's result (MaxFlops, Triad, sgemm): one GPU's run is the figure
        return one_device(rows)
    top = _largest(rows, "count")
    if (top or 0) <= 1:
        return rows
    return [r for r in rows if r.get("count") == top]


def largest_size(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The largest size measured, where bandwidths are quoted (`msg_bytes IS NOT DISTINCT FROM max(msg_bytes)`:
    rows without a size stay only when no row has one)."""
    top = _largest(rows, "msg_bytes")
    return [r for r in rows if r.get("msg_bytes") == top]


def one_device(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One GPU or chip, where a stated peak is per device ("what fraction of peak"): rows of count 1 (or none
    stated) when there are any."""
    return keep_if_any(rows, lambda r: r.get("count") in (None, 1))


def smallest_size(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The smallest size measured, where a latency is quoted ("GPU0 to GPU15 latency": 12 us at 1 B, not the 1.9 ms
    a 256 MiB copy takes); rows without a size stay only when no row has one."""
    vals = [r["msg_bytes"] for r in rows if r.get("msg_bytes") is not None]
    least = min(vals) if vals else None
    return [r for r in rows if r.get("msg_bytes") == least]


def most_pairs(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """"Which GPU pair on the DGX-2 is slowest": the tool that measured the most pairs (Tartan's 240, not Scope's
    11 at its larger sizes), so the ranking covers the system; ties by tool name. Of its rows, those with peer
    access on (the usual setting, PREFERRED_CONDITIONS) where there are such: a pair's PCIe fallback with P2P off is
    another question."""
    pairs: dict[Any, set] = {}
    for r in rows:
        if r.get("src") and r.get("dst"):
            pairs.setdefault(r.get("tool"), set()).add((r["src"], r["dst"]))
    if len(pairs) > 1:
        best = min(pairs, key=lambda t: (-len(pairs[t]), _nulls_first(t)))
        rows = [r for r in rows if r.get("tool") == best]
    conds = {r.get("condition") for r in rows}
    usual = next((c for c in PREFERRED_CONDITIONS if c in conds), None)
    return [r for r in rows if r.get("condition") == usual] if usual else rows


def one_way(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Unidirectional is what people quote; bidirectional only when it is all there is."""
    return keep_if_any(rows, lambda r: r.get("direction") != "bi")


def two_ends(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy between two devices over one inside a device: with no operation named, "GPU11 NVLink bandwidth" or
    "the lowest DGX-2 latency" is not a matrix's diagonal (a GPU to itself), unless only diagonals match."""
    return keep_if_any(rows, lambda r: not (r.get("src") and r.get("src") == r.get("dst")))


STEPS: dict[str, Callable[[list[dict[str, Any]]], list[dict[str, Any]]]] = {
    "metric": one_metric, "per_unit": whole_operation, "count": largest_count, "size": largest_size,
    "small_size": smallest_size, "most_pairs": most_pairs, "one_device": one_device,
    "direction": one_way, "two_ends": two_ends}


def _nulls_first(x: Any) -> tuple[bool, Any]:
    return (x is not None, "" if x is None else x)


def ordered(rows: list[dict[str, Any]], order: str) -> list[dict[str, Any]]:
    """By value (ascending or descending), ties in a fixed order: source and destination (NULLs first), the
    source document, the tool; never the scan order."""
    ties = sorted(rows, key=lambda r: (_nulls_first(r.get("src")), _nulls_first(r.get("dst")), r["source"],
                                       _nulls_first(r.get("tool"))))
    return sorted(ties, key=lambda r: r["value"], reverse=(order == "desc"))


# ---- size_sweep: one curve over sizes ------------------------------------------------------------------------

# what makes one curve: rows that differ in any of these are different sweeps (a condition is a series of one)
SLICE = ("metric", "operation", "tool", "src", "dst", "direction", "count", "count_kind", "statistic", "precision",
         "app", "variant", "unit")
_AGGREGATED = ("system_id", "metric", "operation", "tool", "src", "dst", "direction", "count", "count_kind",
               "statistic", "precision", "app", "variant")


def _slice_rank(key: tuple, nsizes: int, n: int) -> tuple:
    """The longest sweep first, then unidirectional, mean, the largest count, the most rows; ties in a fixed order
    over every slice column (NULLs first), so the pick never depends on scan order."""
    c = dict(zip(SLICE, key))
    v = c["variant"].lower()
    return (-nsizes, not (c["direction"] is None or c["direction"] == "uni"),
            not (c["statistic"] is None or c["statistic"] == "mean"),
            c["count"] is None, -(c["count"] or 0), -n,
            not whole_quantity(v),
            c["metric"], _nulls_first(c["operation"]), c["tool"], _nulls_first(c["src"]), _nulls_first(c["dst"]),
            _nulls_first(c["direction"]), _nulls_first(c["count_kind"]), _nulls_first(c["statistic"]),
            _nulls_first(c["precision"]), _nulls_first(c["app"]), v, c["unit"])


def sources(rows: list[dict[str, Any]], limit: int = 2) -> str:
    """The first `limit` distinct sources in order, then '+N more' (as _common.sources_sql spells it)."""
    srcs = sorted({r["source"] for r in rows if r.get("source") is not None})
    return "; ".join(srcs[:limit]) + (f" +{len(srcs) - limit} more" if len(srcs) > limit else "")


def sweep(con, plan, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The curve with the most sizes (see _slice_rank), one point per (condition, size): the mean of its rows
    in table order, how many there were and their sources; `at_size` marks the asked size (None when none: the
    query's `_at` column says whether a row is at the asked size)."""
    _with_tools(plan, rows)
    slices = _groups(rows, SLICE, lambda r: r["msg_bytes"])
    if not slices:
        return []
    best = min(slices, key=lambda k: _slice_rank(k, len(slices[k][0]), len(slices[k][1])))
    if len(slices[best][0]) == 1:
        # no count holds two sizes, yet a table may change the count with the size (the IPU's gather: 4 B per
        # tile at 19456 tiles ... 80 B at 2432): one curve across them where each size has a single count
        at = SLICE.index("count")
        loose = {k[:at] + (None,) + k[at + 1:]: v for k, v in _groups(
            rows, SLICE[:at] + ("_no_count",) + SLICE[at + 1:], lambda r: r["msg_bytes"]).items()
            if len(v[0]) > 1 and all(len({r["count"] for r in v[1] if r["msg_bytes"] == b}) == 1 for b in v[0])}
        if loose:
            slices = loose
            best = min(slices, key=lambda k: _slice_rank(k, len(slices[k][0]), len(slices[k][1])))
    points: dict[tuple, list[dict[str, Any]]] = {}
    for r in sorted(slices[best][1], key=lambda r: r["_row"]):
        points.setdefault((r["condition"] if r["condition"] is not None else "default", r["msg_bytes"]), []).append(r)
    out = []
    for (series, size), rs in sorted(points.items()):
        point = {"series": series, "msg_bytes": size, "value": _mean(rs), "unit": rs[0]["unit"], "n": len(rs),
                 "source": sources(rs), "at_size": any(r["_at"] for r in rs) if "_at" in rs[0] else None}
        point.update(_any_values(rs, _AGGREGATED))
        out.append(point)
    return out


# ---- scaling: one series over counts ---------------------------------------------------------------------------

# runs named `..._8gpu` (or _16nodes_fp16 ...) belong to one experiment family
_FAMILY = re.compile(r"_[0-9]+(gpu|gpus|ipu|ipus|node|nodes|rank|ranks|tile|tiles|core|cores)(_.*)?$")
SERIES = ("metric", "operation", "tool", "family", "count_kind", "variant", "statistic", "unit", "msg_bytes")
_PER_COUNT = ("system_id", "metric", "operation", "count_kind", "tool", "family", "variant", "statistic", "msg_bytes",
              "stated_ideal")


def family(experiment: Optional[str]) -> str:
    return _FAMILY.sub("", experiment or "", count=1)


def _series_rank(key: tuple, ncounts: int, n: int, is_asked: bool, derive: bool, named: bool,
                 top: int = 0) -> tuple:
    """The series with the most counts first (a stored series of an asked speedup or efficiency before that; with
    no metric named, nccl-tests' bus bandwidth, then a time), of those the one reaching the largest count (`top`:
    papers state single speedups, "246x at 2048 GPUs" and "2x at 8"; the farther one answers "as GPUs increase"),
    then mean, totals, the largest size, the most rows; ties in a fixed order over every series column, never
    scan order."""
    c = dict(zip(SERIES, key))
    first: tuple = ()
    if derive:
        first = (not (is_asked and ncounts >= 2),)
    lead: tuple = ()
    if derive or not named:
        lead = (not (is_asked if derive else c["metric"] == "busbw"), c["metric"] not in TIME_LIKE)
    v = c["variant"].lower()
    return first + (-ncounts, -top) + lead + (
        not (c["statistic"] is None or c["statistic"] == "mean"),
        not whole_quantity(v),
        c["msg_bytes"] is None, -(c["msg_bytes"] or 0), -n,
        c["metric"], _nulls_first(c["operation"]), c["tool"], c["family"], c["variant"],
        _nulls_first(c["count_kind"]), _nulls_first(c["statistic"]), c["unit"])


def _best(rs: list[dict[str, Any]], how: str) -> tuple[float, str]:
    """(value, source) of one count: the max / min (the first such row in table order names the source) or the
    mean (with the short list of sources)."""
    if how == "avg":
        return _mean(rs), sources(rs)
    pick = rs[0]
    for r in rs[1:]:
        if (r["value"] > pick["value"]) if how == "max" else (r["value"] < pick["value"]):
            pick = r
    return pick["value"], pick["source"]


def scaling(con, plan, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One series over counts (see _series_rank), one row per count: its value (the `agg` of the rows left there,
    or for a derived speedup the best of the series' own metric), speedup and parallel efficiency against the
    smallest count with a non-zero value, and whether the ideal is constant time (weak scaling)."""
    spec = plan.narrow
    experiments = plan.extra.get("run_experiments", {})
    asked = plan.params.get("metric")
    for r in rows:
        r["family"] = family(experiments.get(r["run_id"]))
    _with_tools(plan, rows)
    series = _groups(rows, SERIES, lambda r: r["count"])
    if not series:
        return []
    best = min(series, key=lambda k: _series_rank(k, len(series[k][0]), len(series[k][1]),
                                                  bool(series[k][1][0].get("_asked")), spec["derive"],
                                                  asked is not None, max(series[k][0])))
    per_count: dict[int, list[dict[str, Any]]] = {}
    for r in sorted(series[best][1], key=lambda r: r["_row"]):
        per_count.setdefault(r["count"], []).append(r)
    metric = best[0]
    how = spec["agg"]
    if spec["derive"] and spec.get("aggregate") not in ("max", "min", "mean"):
        how = "min" if metric in TIME_LIKE else "max" if metric in HIGHER_BETTER else how
    out = []
    for count in sorted(per_count):
        rs = per_count[count]
        value, source = _best(rs, how)
        conds = sorted({r["condition"] for r in rs if r["condition"] is not None})
        row = {"count": count, "value": value, "unit": rs[0]["unit"], "n": len(rs), "source": source}
        row.update(_any_values(rs, _PER_COUNT))
        row["conditions"] = ", ".join(conds) if conds else None
        out.append(row)
    base = next((r for r in out if r["value"] != 0), None)
    if base is None:
        return []
    speed = asked if asked in TIME_LIKE | HIGHER_BETTER and not spec["derive"] else None
    derived_speedup = asked is None or spec["derive"]
    flat = out[-1]["value"] / base["value"] < 1.5 and out[-1]["count"] / base["count"] >= 4
    for r in out:
        kind = speed or (r["metric"] if derived_speedup else None)
        r["per_device"] = None if spec["derive"] else per_device(r, flat)
        if r["per_device"]:
            # a rate each GPU sees: linear growth with the count is no ideal to measure it against (unless a speedup
            # or efficiency is asked for by name)
            kind = None
        if kind in TIME_LIKE:
            speedup = base["value"] / r["value"] if r["value"] != 0 else None
        elif kind in HIGHER_BETTER:
            speedup = r["value"] / base["value"]
        else:
            speedup = None
        fam = r["family"].lower()
        weak = "weak" in fam or ("strong" not in fam and r["metric"] in TIME_LIKE and r["operation"] in COLLECTIVES)
        ideal = 1.0 if weak else float(r["count"]) / base["count"]
        r.update({"base_count": base["count"], "speedup": speedup,
                  "efficiency": speedup / ideal if speedup is not None else None, "ideal_speedup": ideal,
                  "scaling_kind": "weak" if weak else "strong"})
    return out


# ---- congestion: a baseline and a stressed row of one experiment side by side ---------------------------------

# the stressed condition is worse when these grow (slowdown = stressed / baseline; else baseline / stressed)
SLOWER_WHEN_HIGHER = ("latency", "time", "congestion_impact")
# what two rows of one experiment share: run, metric, case, quantity, app, endpoints, direction, statistic, unit
_PAIRED_BY = ("run_id", "metric", "case_key", "quantity", "app", "src", "dst", "direction", "statistic", "unit")


def congestion(con, plan, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every (baseline, stressed) pair of rows of one experiment with a named case, a mean or single value and
    no zero, with its slowdown and the slowdown the document prints for that run and case (None if none); the
    worst first within each metric."""
    from app.intents import fetch
    base_c, stress_c = plan.params["base_condition"], plan.params["stress_condition"]
    stressed: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        if r["condition"] == stress_c and r["value"] != 0:
            stressed.setdefault(tuple(r[c] for c in _PAIRED_BY), []).append(r)
    tools = plan.extra.get("run_tools", {})
    pairs = []
    for b in rows:
        if b["condition"] != base_c or b["case_key"] == "" or b["value"] == 0 \
                or b["statistic"] not in (None, "mean"):
            continue
        for s in stressed.get(tuple(b[c] for c in _PAIRED_BY), ()):
            slow = s["value"] / b["value"] if b["metric"] in SLOWER_WHEN_HIGHER else b["value"] / s["value"]
            pairs.append({
                "system_id": b["system_id"], "metric": b["metric"], "operation": b["operation"], "app": b["app"],
                "case_key": b["case_key"], "case_label": b["case_label"], "src": b["src"], "dst": b["dst"],
                "direction": b["direction"], "quantity": b["quantity"], "base_count": b["count"],
                "stress_count": s["count"], "count_kind": b.get("count_kind") or s.get("count_kind"),
                "base_condition": b["condition"], "stress_condition": s["condition"],
                "base_value": b["value"], "stress_value": s["value"], "unit": b["unit"], "slowdown": slow,
                "reported_slowdown": (b["run_id"], b["case_key"]), "tool": tools.get(b["run_id"]),
                "source": b["source"] if b["source"] == s["source"] else f"{b['source']}; {s['source']}"})
    if pairs:
        runs = sorted({p["reported_slowdown"][0] for p in pairs})
        reported = {(r["run_id"], r["case_key"]): r["value"]
                    for r in fetch(con, plan.extra["reported_sql"], {"runs": runs})}
        for p in pairs:
            p["reported_slowdown"] = reported.get(p["reported_slowdown"])
    pairs.sort(key=lambda p: (p["metric"], -p["slowdown"], _nulls_first(p["app"]), p["case_key"],
                              _nulls_first(p["src"]), _nulls_first(p["dst"]), p["quantity"],
                              _nulls_first(p["direction"])))
    return pairs


# ---- link_efficiency: measurements and the links to rate them against ------------------------------------------

# one test's sweep: rows that differ in any of these are different tests (each keeps its own largest size)
_TEST = ("part", "tool", "metric", "operation", "src", "dst", "direction", "condition", "path_class", "test")


def link_efficiency(con, plan, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The measurements (each test at its largest size unless a size was asked), then every link of the system
    with its ends, tagged `part` = link; every row carries every column (as SQL's UNION ALL BY NAME gave)."""
    from app.intents import fetch
    _with_tools(plan, rows)
    if plan.narrow.get("largest_size"):
        largest: dict[tuple, Any] = {}
        for r in rows:
            k = tuple(r[c] for c in _TEST)
            if r["msg_bytes"] is not None and (largest.get(k) is None or r["msg_bytes"] > largest[k]):
                largest[k] = r["msg_bytes"]
        rows = [r for r in rows if r["msg_bytes"] == largest.get(tuple(r[c] for c in _TEST))]
    links = fetch(con, plan.extra["links_sql"], {"system": plan.params["system"]})
    parts = plan.extra.get("parts", {})
    for r in links:
        r["part"] = "link"
        with_ends(r, parts)
    cols = list(dict.fromkeys([k for r in rows[:1] for k in r] + [k for r in links[:1] for k in r]))
    return [{c: r.get(c) for c in cols} for r in rows + links]


# ---- pair_matrix: one slice of per-pair values ------------------------------------------------------------------

_MATRIX_SLICE = ("tool", "condition", "direction", "msg_bytes", "statistic", "unit", "quantity")
_TRAILING_DIGITS = re.compile(r"[0-9]+$")


def natural(x: Optional[str]) -> tuple:
    """gpu2 before gpu10: the name without its trailing number, then the number (NULLs last)."""
    if x is None:
        return (True, "", True, 0)
    m = _TRAILING_DIGITS.search(x)
    return (False, _TRAILING_DIGITS.sub("", x, count=1), m is None, int(m.group()) if m else 0)


def _matrix_rank(key: tuple, npairs: int, n: int, smallest: bool) -> tuple:
    """A preferred condition first (none next, others last), then the most pairs, unidirectional, mean, the largest
    size (smallest for latency), the most rows; ties in a fixed order over every slice column."""
    c = dict(zip(_MATRIX_SLICE, key))
    cond = 0 if c["condition"] in PREFERRED_CONDITIONS else 1 if c["condition"] is None else 2
    size = c["msg_bytes"]
    q = (c["quantity"] or "").lower()
    return (cond, -npairs, c["direction"] != "uni", not (c["statistic"] is None or c["statistic"] == "mean"),
            not whole_quantity(q),
            size is None, (size or 0) if smallest else -(size or 0), -n,
            c["tool"], _nulls_first(c["statistic"]), _nulls_first(c["condition"]), _nulls_first(c["direction"]),
            c["unit"], q)


def matrix(con, plan, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The slice with the most pairs (see _matrix_rank), one row per pair: the mean of its rows in table order, how
    many there were and their sources, in natural order of source then destination. No pair left: the class and
    link rows of a document that measured per path class (_pairs.fallback).

    Over many stored rows (`grouped`) the query has counted each slice's pairs and rows, and the chosen slice's
    rows are read by a second one; otherwise the rows are the matching ones, and the slices are counted here."""
    if plan.narrow.get("grouped"):
        groups = rows
    else:
        _with_tools(plan, rows)
        slices = _groups(rows, _MATRIX_SLICE, lambda r: (r["src"], r["dst"]))
        groups = [dict(zip(_MATRIX_SLICE, k), npairs=len(p), n=len(m), _rows=m) for k, (p, m) in slices.items()]
    if not groups:
        from app.intents import _pairs
        return _pairs.fallback(con, plan.params)
    best = min(groups, key=lambda g: _matrix_rank(tuple(g[c] for c in _MATRIX_SLICE), g["npairs"], g["n"],
                                                  plan.narrow.get("smallest_size", False)))
    npairs = best["npairs"]
    if plan.narrow.get("grouped"):
        from app.intents import fetch
        params = dict(plan.params)
        params.update({f"slice_{c}": best[c] for c in _MATRIX_SLICE})
        rows = fetch(con, plan.extra["slice_sql"], params)
        _with_tools(plan, rows)
    else:
        rows = best["_rows"]
    cells: dict[tuple, list[dict[str, Any]]] = {}
    for r in sorted(rows, key=lambda r: r["_row"]):
        cells.setdefault((r["system_id"], r["metric"], r["operation"], r["src"], r["dst"]), []).append(r)
    out = []
    for (sid, metric, op, src, dst), rs in cells.items():
        row = {"part": "pair", "system_id": sid, "metric": metric, "operation": op, "src": src, "dst": dst,
               "value": _mean(rs), "unit": rs[0]["unit"], "n": len(rs), "source": sources(rs)}
        row.update(_any_values(rs, ("tool", "condition", "direction", "msg_bytes", "statistic")))
        row["npairs"] = npairs
        out.append(row)
    out.sort(key=lambda r: (natural(r["src"]), natural(r["dst"])))
    return out


# ---- compare_systems: one slice measured on the most systems, one value per system -----------------------------

_COMPARE_SLICE = ("metric", "operation", "condition", "precision", "msg_bytes", "count", "count_kind", "direction",
                  "statistic", "unit")
_COMPARE_METRIC_RANK = {"bandwidth": 0, "busbw": 1, "time": 2, "latency": 3, "flops": 4}
# what each system's best row also tells, when no slice covers two systems
_EACH_BEST = ("operation", "condition", "precision", "msg_bytes", "count", "count_kind", "direction", "statistic")


def _compare_rank(key: tuple, nsys: int, n: int) -> tuple:
    """The slice on the most systems first, then bandwidth before bus bandwidth, time, latency and flops, a preferred
    condition (none next), mean, the largest count, the largest size (the smallest for a latency), the most rows;
    ties in a fixed order over every slice column."""
    c = dict(zip(_COMPARE_SLICE, key))
    cond = 0 if c["condition"] in PREFERRED_CONDITIONS else 1 if c["condition"] is None else 2
    return (-nsys, _COMPARE_METRIC_RANK.get(c["metric"], 5), cond,
            not (c["statistic"] is None or c["statistic"] == "mean"),
            c["count"] is None, -(c["count"] or 0), c["msg_bytes"] is None,
            # latency is a small message's time (Tartan's 256 MiB "latency" is a copy's time); the rest at its largest
            (c["msg_bytes"] or 0) if c["metric"] == "latency" else -(c["msg_bytes"] or 0), -n,
            c["metric"], _nulls_first(c["operation"]), _nulls_first(c["condition"]), _nulls_first(c["precision"]),
            _nulls_first(c["count_kind"]), _nulls_first(c["direction"]), _nulls_first(c["statistic"]), c["unit"])


def compare(con, plan, groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per system, the best first, with its ratio to the best: from the slice on the most systems (see
    _compare_rank), when two or more systems share a case there (_common_cases); else each system's own best value
    of the most widely measured metric, at whatever settings it was measured (_each_best)."""
    spec = plan.narrow
    if spec.get("metric_as"):       # one quantity under several names: compared as the asked one
        for g in groups:
            g["metric"] = spec["metric_as"]
    if not groups:
        return []
    slices = _groups(groups, _COMPARE_SLICE, lambda g: g["system_id"])
    best = min(slices, key=lambda k: _compare_rank(k, len(slices[k][0]), sum(g["n"] for g in slices[k][1])))
    nsys = len(slices[best][0])
    rows = _common_cases(con, plan, [best], nsys) if nsys >= 2 else []
    if nsys < len({g["system_id"] for g in groups}):
        # no slice holds every system, often only because one tool writes a setting another leaves unsaid (nccl-tests'
        # in-place fp32 against Scope's plain all-reduce): the same quantity, size and count with each system at its
        # own setting covers more of them, and beats comparing each system's best at sizes of its own
        loose = _loose_slice(slices)
        if loose and len(loose) > max(nsys, 1):
            wide = _common_cases(con, plan, loose, len(loose))
            if len(wide) > len(rows):
                rows = wide
    if len(rows) < 2:
        rows = _each_best(groups, spec.get("how"))
        if len(rows) == 1:
            # "rsbench remote offload: thetagpu vs gcloud t4": the others measured it too, by other metrics (a time
            # on one, a speedup on the other): each one's own best is said beside it, and nothing is ranked
            rows[0]["unlike"] = [r for sid in sorted({g["system_id"] for g in groups} - {rows[0]["system_id"]})
                                 for r in _each_best([g for g in groups if g["system_id"] == sid], spec.get("how"))]
    lower = rows[0]["metric"] in LOWER_BETTER
    top = (min if lower else max)(r["value"] for r in rows)
    for r in rows:
        r["ratio_to_best"] = _divide(r["value"], top)
    rows.sort(key=lambda r: (r["value"] if lower else -r["value"], r["system_id"]))
    missing = {g["system_id"] for g in groups} - {r["system_id"] for r in rows}
    if missing and rows[0].get("mode") != "each_best":
        # "P2P uni bandwidth: H200 pair vs DGX-2 vs Yme": the H200's copies state no size, so no slice holds it; its
        # own best is still said, apart from the ranking (the first row carries it, so a cached answer says it too)
        theirs = [g for g in groups if g["system_id"] in missing]
        for col in ("direction", "condition"):     # as like the ranking as they were measured
            theirs = keep_if_any(theirs, lambda g, col=col: g[col] == rows[0][col])
        rows[0]["apart"] = sorted(_each_best(theirs, spec.get("how")), key=lambda r: r["system_id"])
    return rows


def _divide(a: float, b: float) -> float:
    """a / b as DuckDB divides doubles (IEEE: x / 0 is infinite, 0 / 0 is NaN)."""
    if b != 0:
        return a / b
    if a == 0 or a != a:
        return math.nan
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


# the settings a tool may write where another leaves them unsaid: a loose slice lets each system keep its own
_SETTINGS = ("condition", "precision")


def _loose_slice(slices: dict[tuple, tuple[set, list]]) -> list[tuple]:
    """The slices that make one comparison when the settings (_SETTINGS) are let go: the loose slice on the most
    systems (ranked as _compare_rank ranks slices), and for each of its systems its own slice there, a preferred
    condition first, then none, then the one with the most rows. Empty when no loose slice holds two systems."""
    settings = [_COMPARE_SLICE.index(c) for c in _SETTINGS]
    loose: dict[tuple, dict[str, list[tuple]]] = {}
    size = _COMPARE_SLICE.index("msg_bytes")
    for key, (sids, members) in slices.items():
        if key[size] is None:   # a stated figure with no size says nothing of where it was measured
            continue
        lkey = tuple(None if i in settings else v for i, v in enumerate(key))
        for sid in sids:
            loose.setdefault(lkey, {}).setdefault(sid, []).append(key)
    if not loose:
        return []
    n = {k: sum(g["n"] for key in {x for ks in v.values() for x in ks} for g in slices[key][1])
         for k, v in loose.items()}
    lbest = min(loose, key=lambda k: _compare_rank(k, len(loose[k]), n[k]))
    if len(loose[lbest]) < 2:
        return []

    def own(key: tuple, sid: str) -> tuple:
        c = dict(zip(_COMPARE_SLICE, key))
        cond = 0 if c["condition"] in PREFERRED_CONDITIONS else 1 if c["condition"] is None else 2
        rows = sum(g["n"] for g in slices[key][1] if g["system_id"] == sid)
        return (cond, -rows, _nulls_first(c["condition"]), _nulls_first(c["precision"]))
    return [min(keys, key=lambda k: own(k, sid)) + (sid,) for sid, keys in sorted(loose[lbest].items())]


def _common_cases(con, plan, keys: list[tuple], nsys: int) -> list[dict[str, Any]]:
    """Per system, the value of each case measured on all `nsys` systems of the slice (the best or the `how` of its
    rows; the first row in table order names the source), averaged over those cases. `keys` is one slice, or (a
    loose slice) one per system, each ending in the system it is for."""
    from app.intents import fetch
    rows = []
    for key in keys:
        only = key[len(_COMPARE_SLICE)] if len(key) > len(_COMPARE_SLICE) else None
        c = dict(zip(_COMPARE_SLICE, key))
        params = dict(plan.params)
        # the slice's columns as parameters; one quantity under several names is matched by the query's own keys
        params.update({f"slice_{k}": v for k, v in c.items()
                       if not (k == "metric" and plan.narrow.get("metric_as"))})
        rows += [dict(r, _slice=c) for r in fetch(con, plan.extra["slice_sql"], params)
                 if only is None or r["system_id"] == only]
    rows.sort(key=lambda r: r["_row"])
    on: dict[str, set] = {}
    for r in rows:
        on.setdefault(r["case_key"], set()).add(r["system_id"])
    if len(keys) > 1 and not any(len(x) == nsys for x in on.values()) \
            and len({(r["system_id"], r["case_key"]) for r in rows}) == nsys:
        # one case on each system, named by each tool in its own way (Scope writes its name where nccl-tests
        # writes none): the same case
        on = {"": {r["system_id"] for r in rows}}
        rows = [dict(r, case_key="") for r in rows]
    metric = keys[0][_COMPARE_SLICE.index("metric")]
    how = plan.narrow.get("how") or ("min" if metric in LOWER_BETTER else "max")
    tools = plan.extra.get("run_tools", {})
    cells: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        if len(on[r["case_key"]]) == nsys:
            cells.setdefault((r["system_id"], r["case_key"]), []).append(r)
    per_system: dict[str, list[dict[str, Any]]] = {}
    own: dict[str, dict[str, Any]] = {}
    for (sid, _case), rs in cells.items():
        value, source = _best(rs, how)
        own[sid] = rs[0]["_slice"]
        per_system.setdefault(sid, []).append({"value": value, "n": len(rs), "source": source,
                                               "tool": ", ".join(sorted({tools.get(r["run_id"]) for r in rs}))})
    out = []
    for sid, cases in per_system.items():
        c = own[sid]
        out.append({"system_id": sid, "value": _mean(cases), "n_cases": len(cases), "n": sum(x["n"] for x in cases),
                    "source": sources(cases), "tool": ", ".join(sorted({x["tool"] for x in cases})),
                    "metric": c["metric"], "operation": c["operation"], "unit": c["unit"],
                    "condition": c["condition"], "precision": c["precision"], "msg_bytes": c["msg_bytes"],
                    "count": c["count"], "count_kind": c["count_kind"], "direction": c["direction"],
                    "statistic": c["statistic"], "mode": "common" if len(keys) == 1 else "loose"})
    return out


def _each_best(groups: list[dict[str, Any]], how: Optional[str]) -> list[dict[str, Any]]:
    """No slice shared: per system, the best value (or the user's max / min) of the metric measured on the most
    systems, with the settings it was measured at. Each setting comes from the best row that has one (SQL's
    arg_max skips a NULL), so a row without a size still shows the size of the best sized row."""
    groups = values_not_spreads(groups)   # a std beside its mean is no value to rank ("0.1x" congestion impact)
    on: dict[tuple, set] = {}
    for g in groups:
        on.setdefault((g["metric"], g["unit"]), set()).add(g["system_id"])
    metric, unit = min(on, key=lambda k: (-len(on[k]), _COMPARE_METRIC_RANK.get(k[0], 5), k[0], k[1]))
    if how not in ("max", "min"):
        how = "min" if metric in LOWER_BETTER else "max"
    rank = (lambda g: (g["lo"], g["lo_row"])) if how == "min" else (lambda g: (-g["hi"], g["hi_row"]))
    end = "lo" if how == "min" else "hi"
    per_system: dict[str, list[dict[str, Any]]] = {}
    for g in groups:
        if g["metric"] == metric and g["unit"] == unit:
            per_system.setdefault(g["system_id"], []).append(g)
    out = []
    for sid, gs in per_system.items():
        top = min(gs, key=rank)
        row = {"system_id": sid, "value": top[end], "n_cases": 1, "n": sum(g["n"] for g in gs),
               "source": top[f"{end}_source"], "tool": ", ".join(sorted({g["tool"] for g in gs})),
               "metric": metric, "operation": None, "unit": unit}
        for col in _EACH_BEST:
            have = [g for g in gs if g[col] is not None]
            row[col] = min(have, key=rank)[col] if have else None
        row["mode"] = "each_best"
        out.append(row)
    return out


# ---- trace_breakdown: one trace set, its ranks' time split and its top kernels -----------------------------------

_TRACE_COLUMNS = ("kind", "system_id", "trace_set", "run_id", "rank", "category", "value", "unit", "window_us",
                  "busy_us", "comm_total_us", "overlap_us", "nccl_kernels", "kernels", "source", "name", "calls",
                  "n_ranks", "trace_sets")


def made_by(row: dict[str, Any], tool: str) -> bool:
    """Whether a row is the named tool's: its run's tool, or the program a suite ran (Tartan runs the CUDA sample
    p2pBandwidthLatencyTest; its rows name that program as their app)."""
    return row.get("tool") == tool or str(row.get("app") or "").lower() == tool.lower()


def duck_round(x: Optional[float], digits: int) -> Optional[float]:
    """DuckDB's round(x, digits) of a double: x scaled by 10^digits, rounded half away from zero, scaled back (NULL,
    NaN and infinities stay as they are)."""
    if x is None or x != x or x in (math.inf, -math.inf):
        return x
    scale = 10.0 ** digits
    r = x * scale
    return (math.floor(r + 0.5) if r >= 0 else math.ceil(r - 0.5)) / scale


def ilike_contains(text: Optional[str], needle: str) -> bool:
    """SQL's `text ILIKE '%' || needle || '%'`: the needle's own % and _ are wildcards there too."""
    if text is None:
        return False
    pattern = "".join(".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in needle.lower())
    return re.search(pattern, text.lower(), re.S) is not None


def trace(con, plan, runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The trace set asked for (the shortest by default, the longest, the one holding a run id, or the one a
    directory or file name matches, an exact directory name first), per rank its compute, exposed communication,
    memory and idle time from the run's summary, and the set's top kernels or ops by summed duration (TOP_SQL).
    Every row names all the loaded sets (`trace_sets`); no set matching gives one row of kind 'no_match'."""
    from app.intents import fetch
    spec = plan.narrow
    by, want = spec["by"], spec.get("run")
    sets: dict[str, dict[str, Any]] = {}
    for r in sorted(runs, key=lambda r: r["run_id"]):
        st = sets.setdefault(r["trace_set"], {"trace_set": r["trace_set"], "system_id": r["system_id"], "n_ranks": 0,
                                              "span_us": 0.0, "last_run": r["run_id"], "match": False, "runs": []})
        st["n_ranks"] += 1
        st["span_us"] += r["t1"] - r["t0"]
        st["last_run"] = max(st["last_run"], r["run_id"])
        st["runs"].append(r)
        if by == "run_id":
            st["match"] |= r["run_id"] == want
        elif by == "name":
            st["match"] |= ilike_contains(r["trace_set"], want) or ilike_contains(r["source_file"], want)
    listed = sorted(sets.values(), key=lambda st: st["span_us"])
    names = "; ".join(f"{st['trace_set']} ({st['system_id']}, {st['n_ranks']} ranks, "
                      f"{duck_round(st['span_us'] / 1000 / st['n_ranks'], 1)!r} ms)" for st in listed) or None
    cands = [st for st in sets.values() if st["match"] or by in ("shortest", "longest")]
    if by == "longest":
        cands.sort(key=lambda st: (-st["span_us"], -st["last_run"]))
    elif by == "name":
        cands.sort(key=lambda st: (st["trace_set"].rsplit("/", 1)[-1] != want, st["span_us"], -st["last_run"]))
    else:
        cands.sort(key=lambda st: (st["span_us"], -st["last_run"]))
    sel = [r for r in cands[0]["runs"] if by != "run_id" or r["run_id"] == want] if cands else []
    if spec.get("rank") is not None and any(r["rank"] == spec["rank"] for r in sel):
        sel = [r for r in sel if r["rank"] == spec["rank"]]   # "top kernels on rank 1": that rank's run alone
    if not sel:
        return [dict(dict.fromkeys(_TRACE_COLUMNS), kind="no_match", trace_sets=names)]
    out = []
    for r in sorted(sel, key=lambda r: (r["rank"] is None, r["rank"] if r["rank"] is not None else 0)):
        window = r["t1"] - r["t0"]
        for category in CATEGORIES:
            v = r[category] if category != "idle" else max(window - (r["busy_us"] or 0), 0)
            out.append(dict(dict.fromkeys(_TRACE_COLUMNS), kind="breakdown", system_id=r["system_id"],
                            trace_set=r["trace_set"], run_id=r["run_id"], rank=r["rank"], category=category,
                            value=duck_round(v, 3), unit="us", window_us=duck_round(window, 3),
                            busy_us=duck_round(r["busy_us"], 3), comm_total_us=duck_round(r["comm_total_us"], 3),
                            overlap_us=duck_round(r["overlap_us"], 3),
                            nccl_kernels=r["nccl_kernels"], kernels=r["kernels"], source=r["source_file"],
                            trace_sets=names))
    rank_of = {r["run_id"]: r["rank"] for r in sel}

    def ranked(kind: str, run_id: int, **fields: Any) -> dict[str, Any]:
        """A row of one rank of the picked set (its launches, longest event, the events a filter keeps, ...)."""
        return dict(dict.fromkeys(_TRACE_COLUMNS), kind=kind, system_id=sel[0]["system_id"],
                    trace_set=sel[0]["trace_set"], run_id=run_id, rank=rank_of[run_id],
                    source=sel[0]["trace_set"] + "/", trace_sets=names, **fields)
    if spec.get("launches"):
        for ln in fetch(con, plan.extra["launch_sql"], {"runs": list(rank_of)}):
            out.append(ranked("launch", ln["run_id"], category="launch_delay", value=ln["delay_p50"], unit="us",
                              launches=ln["launches"], cpu_us=ln["cpu_us"], cpu_total_us=ln["cpu_total_us"],
                              delay_p95=ln["delay_p95"], delay_mean=ln["delay_mean"]))
    if spec.get("longest"):
        for ev in fetch(con, plan.extra["longest_sql"], {"runs": list(rank_of), "trace_cat": spec["top"]["trace_cat"]}):
            out.append(ranked("longest", ev["run_id"], category="longest_event", name=ev["name"], value=ev["value"],
                              unit="us"))
    values = {k: v for k, v in spec["top"].items() if k != "names"}   # "names": the filter's text, for the row cache
    if spec.get("stats"):
        for st in fetch(con, plan.extra["stats_sql"], {**{k: v for k, v in values.items() if k != "top_n"},
                                                       "runs": list(rank_of)}):
            if st["calls"]:   # (none: no event of this rank matches)
                out.append(ranked("stats", st["run_id"], category=values["trace_cat"], value=st["total_us"], unit="us",
                                  calls=st["calls"], mean_us=st["mean_us"], median_us=st["median_us"],
                                  max_us=st["max_us"], names=st["names"], category_us=st["category_us"]))
    if spec.get("parts"):
        asked = list(spec["parts"])
        pairs = [(w, n) for w in asked for n in spec["parts"][w]]
        got = fetch(con, plan.extra["parts_sql"], {"runs": list(rank_of), "trace_cat": values["trace_cat"],
                                                   "part_words": [w for w, _ in pairs],
                                                   "part_names": [n for _, n in pairs]})
        for st in sorted(got, key=lambda st: (asked.index(st["part"]), st["run_id"])):
            out.append(ranked("part", st["run_id"], category=values["trace_cat"], name=st["part"],
                              value=st["total_us"], unit="us", calls=st["calls"], mean_us=st["mean_us"]))
    if spec.get("streams"):
        for st in fetch(con, plan.extra["stream_sql"], {"runs": list(rank_of)}):
            out.append(ranked("stream", st["run_id"], category=f"stream {st['stream']}", stream=st["stream"],
                              value=st["total_us"], unit="us", calls=st["calls"]))
    top = fetch(con, plan.extra["top_sql"], {**values, "runs": [r["run_id"] for r in sel]})
    window = duck_round(sum(r["t1"] - r["t0"] for r in sel), 3)
    for t in top:
        out.append(dict(dict.fromkeys(_TRACE_COLUMNS), kind="top", system_id=sel[0]["system_id"],
                        trace_set=sel[0]["trace_set"], value=t["value"], unit="us", window_us=window,
                        source=sel[0]["trace_set"] + "/", name=t["name"], category=t["category"], calls=t["calls"],
                        mean_us=t["mean_us"],
                        n_ranks=t["n_ranks"], trace_sets=names))
    return out


KINDS: dict[str, Callable[[Any, Any, list[dict[str, Any]]], list[dict[str, Any]]]] = {
    "measurements": measurements, "links": links, "sweep": sweep, "scaling": scaling, "congestion": congestion,
    "link_efficiency": link_efficiency, "matrix": matrix, "compare": compare,
    "trace": trace, "specs": _specs.rows}
