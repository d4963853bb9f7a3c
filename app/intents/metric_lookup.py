"""One number or a few: "what bus bandwidth does all-reduce reach on the H200 pair at one gigabyte?",
also the best or worst ("which GPU pair is slowest")."""
from __future__ import annotations

import json
import re
import statistics
from typing import Any

from app.catalog import LABEL_SQL, Catalog
from app.intents import OutOfScope, Plan
from app.intents import _pairs
from app.intents._narrow import made_by, said_words
from app.intents._common import (DIRECTION_WORDS, LOWER_BETTER, MANY_ROWS, PARAMETRISED, RATE_SCALE, STATED,
                                 STATED_SQL, cite, condition_words, endpoint, fmt_bytes, fmt_value, mode_as_operation,
                                 require_metric_on, require_system, said_params, where)
from nlu.cues import ANY_SIZE, MEMORY_BANDWIDTH, OF_PEAK, SIZE_END, SIZE_OF_THE_EXTREME
from nlu.ordinals import ordinal_word

NAME = "metric_lookup"
WANTS_QUESTION = True   # app.ask passes the question text: a curated row's label ("2 hops") reaches no slot
FILTERS = ("system", "metric", "operation", "src", "dst", "direction", "msg_bytes", "count", "count_kind",
           "condition", "precision", "app", "library")
# the columns every row of this intent carries (SELECT's, with each run's tool for its run id)
COLUMNS = ("system_id", "metric", "operation", "src", "dst", "direction", "msg_bytes", "count", "count_kind",
           "condition", "precision", "statistic", "app", "value", "unit", "source", "tool")
HOST_OPS = ("h2d", "d2h")
# the matching rows, with what the defaults need: the run (its tool comes from the catalog) and the quantity a
# document states (a value per transfer or per operand, where the whole operation's is also given)
SELECT = """SELECT m.system_id, m.metric, m.operation, m.src, m.dst, m.direction, m.msg_bytes,
       m.count, m.count_kind, m.condition, m.precision, m.statistic, m.app, m.value, m.unit,
       m.source, m.run_id, json_extract_string(m.params, '$.quantity') AS _quantity
FROM measurements m"""
# p2pBandwidthLatencyTest times each latency matrix on the GPU and on the CPU (_narrow.measurements keeps the GPU's);
# read only where a latency can be asked for, so other lookups parse no more JSON
TIMER = ",\n       json_extract_string(m.params, '$.timer') AS _timer"

# the most rows a ranking lists ("the fifty slowest ..."); more is a table, which the rows themselves are
TOP_N_MAX = 50
_PAIR_SAID = re.compile(r"\bpairs?\b|\bbetween which\b", re.I)   # "between which GPUs is ... highest": a pair too
# Over thousands of rows ("the slowest GPU pair on the DGX-2": Tartan's sweeps, 10,000 rows), handing them all to
# Python cost 30-50 ms; these keep only the largest size per metric, quantity and count, a superset of the rows the
# size default keeps (a row at the largest size of the narrowed rows is the largest of its own group too). Below
# MANY_ROWS the window costs more to plan (about 1 ms) than it saves.
LABEL = f",\n       {LABEL_SQL} AS _label"
LABEL_NOTE = "picked by the words of the document's label: "   # app.ask reads the label quoted back from it
# "memory bandwidth" of a GPU, unless another memory is named: a stated figure, else SHOC DeviceMemory's global
# reads, else SHOC Triad (STREAM-like), else a copy within one GPU (the diagonal of p2pBandwidthLatencyTest or
# Tartan), in that order (_narrow.measurements)
DEVICE_MEMORY = ("gmem_readbw", "triad_bw", "d2d")
_OTHER_MEMORY_SAID = re.compile(r"\b(local|shared|texture|host|pinned|pageable|unified|system|cpu|ddr4?)[- ]memory\b",
                                re.I)
# a kind of GPU memory named, and the prefix of SHOC DeviceMemory's operations measuring it
_MEMORY_KINDS = {"local": "lmem_", "shared": "smem_", "texture": "tex_", "global": "gmem_", "constant": "cmem_"}
_MEMORY_KIND = re.compile(r"\b(local|shared|texture|global|constant)[- ]memory\b", re.I)
_MEASURED_SAID = re.compile(r"\b(read|measured|shoc|benchmark(ed)?|stream|triad)\b", re.I)
_LATENCY_SAID = re.compile(r"\blatenc(y|ies)\b", re.I)   # a time asked as a latency (nccl-tests: "time")
_MEDIAN = re.compile(r"\bmedian\b", re.I)
# benchmarks people ask for by name that no loaded document or output holds
_NOT_LOADED = re.compile(r"\b(HPL|HPCG|LINPACK|Rmax|Rpeak|Top500|Graph500|MLPerf)\b", re.I)
# a benchmark's parameters (said_params), read only where a question names some
PARAMS = ",\n       m.params::VARCHAR AS _params"
# "the fastest int8 conv layer" with no measure named: which end is fastest depends on the measure the defaults pick
# (a time's lowest, a rate's highest), so the order is set once that measure is known (_narrow.measurements)
_RELATIVE = (("better", re.compile(r"\b(fastest|quickest|best)\b", re.I)),
             ("worse", re.compile(r"\b(slowest|worst)\b", re.I)))
# (rows of no size stay: the size step drops them beside sized ones, unless a benchmark's printed average over its
# sizes is asked for, _narrow.printed_average)
LARGEST = ("\nQUALIFY m.msg_bytes IS NULL OR m.msg_bytes = max(m.msg_bytes) OVER (PARTITION BY m.metric, _quantity, "
           "m.count, m.run_id)")
SMALLEST = LARGEST.replace("max(m.msg_bytes)", "min(m.msg_bytes)")


# a saving asked as a share ("how much time does the optimisation save, in percent", "... energy ... save")
_SAVED_IN_PERCENT = re.compile(r"\b(sav(e|es|ed|ing)|shav(e|es|ed)|cut(s|ting)?)\b.{0,60}(\bpercent(age)?\b|%)|"
                         r"(\bpercent(age)?\b|%).{0,60}\b(sav(e|es|ed|ing)|shav(e|es|ed)|cut(s|ting)?)\b", re.I)


_PER_DEVICE = re.compile(r"\bper (gpu|device|card|accelerator)\b|\b(each|one|a single|single) (gpu|device|card)\b", re.I)
_OF_A_CURVE = re.compile(r"\b(peak|maximum|max|highest|lowest|minimum|min|top|bottom) of (the |its |their )?"
                         r"([\w/-]+ ){0,6}(curve|sweep|plot|graph)\b", re.I)
_WHICH_SIZE = re.compile(r"\b(which|what) (msg |message |transfer |buffer )?sizes?\b", re.I)


def plan(slots: dict[str, Any], cat: Catalog, question: str | None = None) -> Plan:
    s = dict(slots)
    sid = require_system(s, cat)
    if s.get("operation") and s["operation"] not in cat.operations.get(sid, ()):
        s["operation"] = mode_as_operation(s["operation"], question or "")   # "the training GEMM"
    require_metric_on(sid, s.get("metric"), s.get("operation"), cat)
    notes = []
    saved = {"time": "time_reduction", "share": "time_reduction", "energy": "energy_reduction"}.get(s.get("metric"))
    if saved and _SAVED_IN_PERCENT.search(question or "") and cat.rows_at_most(sid, saved, s.get("operation")):
        # "how much FV-update time does the kernel optimisation save, in percent", "how much energy does the photonic
        # memory save, in percent": the reduction the document states, not the quantities themselves
        notes.append(f"{saved.split('_')[0]} saved asked for: the {saved.replace('_', ' ')} stored")
        s["metric"] = saved
    only = sorted(cat.metrics.get(sid, set()))
    if not s.get("metric") and not s.get("operation") and not s.get("app") and len(only) == 1 \
            and not _NOT_LOADED.search(question or ""):
        # "how fast is a text query on client two": the one measure the machine has is the one asked about
        s["metric"] = only[0]
        notes.append(f"no metric given: {only[0]}, the only one measured on {cat.name(sid)}")
    if not s.get("metric") and not s.get("operation") and not s.get("app"):
        if (missing := _NOT_LOADED.search(question or "")):
            raise OutOfScope(f"No {missing.group(0)} results are loaded for "
                             f"{cat.name(sid)} (nor for any system). Measured there: "
                             + ", ".join(sorted(cat.metrics.get(sid, set()))[:12]) + ".")
        raise OutOfScope(f"What should I look up on {cat.name(sid)}? Measured there: "
                         + ", ".join(sorted(cat.metrics.get(sid, set()))[:12]) + ".")
    # "what is the memory bandwidth on the dgx2": a GPU's memory is its device (global) memory, stated on a spec
    # sheet or measured (DEVICE_MEMORY); the highest bandwidth of any kind had been SHOC's on-chip local memory
    # summed over 16 GPUs (10,995 GB/s)
    device_memory = s.get("operation") is None and s.get("metric") == "bandwidth" \
        and not (s.get("src") or s.get("dst")) and bool(MEMORY_BANDWIDTH.search(question or "")) \
        and not _OTHER_MEMORY_SAID.search(question or "") \
        and bool(set(DEVICE_MEMORY) & cat.operations.get(sid, set()))
    device = _device_end(s)
    cond, params = where(s, [k for k in FILTERS if not (device and k in ("src", "dst"))])
    if device:
        # a host copy "of GPU2": the GPU is the device end whichever slot the question put it in
        cond += (" AND " if cond else " WHERE ") + "(m.src = $device OR m.dst = $device)"
        params["device"] = device
    # "global memory read bandwidth ... shoc": a measured figure is asked for, not the spec sheet's
    stated = device_memory and not _MEASURED_SAID.search(question or "")
    kind = _MEMORY_KIND.search(question or "") if s.get("operation") is None and s.get("metric") == "bandwidth" \
        else None
    prefix = _MEMORY_KINDS[kind.group(1).lower()] if kind else None
    named = sorted(o for o in cat.operations.get(sid, set()) if prefix and o.startswith(prefix))
    if named and not device_memory:
        # "the local memory bandwidth on the dgx2": SHOC's lmem_* measurements, not the HBM2 figure a label names
        cond += (" AND " if cond else " WHERE ") + "list_contains($memory_ops, m.operation)"
        params["memory_ops"] = named
    if device_memory:   # the rows a device memory's bandwidth can be
        cond += (" AND " if cond else " WHERE ") + (
            "(list_contains($device_memory, m.operation) OR (m.operation IS NULL AND m.condition = 'spec'))"
            if stated else "list_contains($device_memory, m.operation)")
        params["device_memory"] = list(DEVICE_MEMORY)
    if s.get("operation") == "p2p" and not (s.get("src") and s.get("src") == s.get("dst")):
        # peer-to-peer is between two devices: a matrix's diagonal (a GPU copying to itself, 740 GB/s on Yme,
        # transcribed with the rest of Tartan's listing) is no answer to "the fastest GPU pair"
        cond += (" AND " if cond else " WHERE ") + "coalesce(m.src <> m.dst, true)"
        if not (s.get("src") or s.get("dst")) and s.get("aggregate") in ("min", "max") \
                and _PAIR_SAID.search(question or ""):
            # "the best pcie-mode latency pair": the pair at an extreme is named in the answer, so a figure of no two
            # endpoints (a document's per-class value) is none (a class's own figure, "the NV1 pairs' efficiency",
            # still is)
            cond += " AND m.src IS NOT NULL AND m.dst IS NOT NULL"
    # GPU0 -> GPU3 where a document measured per path class only: the class value (see _pairs.py)
    pairs = bool(s.get("src") and s.get("dst")) and s.get("operation") in (None, "p2p")
    # The defaults narrow one after another, each over what the previous left (one metric, then the whole
    # operation's value, then the largest count, then the largest size, then one direction), so they never
    # exclude each other. They are choices among the few rows the filters match: taken in Python over the rows
    # of one plain SELECT (_narrow.py), which DuckDB plans in a fraction of the time a window per default took.
    steps = []
    if s.get("operation") is None and not (s.get("src") and s.get("src") == s.get("dst")):
        steps.append("two_ends")
    if s.get("metric") is None:
        steps.append("metric")
        notes.append("no metric given: the most commonly quoted one measured for this is shown")
    agg = s.get("aggregate")
    if agg is None and _MEDIAN.search(question or ""):
        agg = "median"     # no slot holds it: "median p2p latency on the dgx2" is the middle of the rows matched
    if agg not in ("mean", "median"):
        # "(the lowest) reduce latency" is the operation's, not 0.74 ns per operand, unless only per-unit values
        # exist or an average is asked for
        steps.append("per_unit")
    # "what fraction of theoretical peak": a measured figure (never the stated one itself), of one device where a
    # stated peak is per chip or per GPU, set against that peak (_narrow.stated_peak)
    of_peak = bool(OF_PEAK.search(question or "")) and s.get("metric") in ("flops", "bandwidth", "throughput") \
        and s.get("condition") not in STATED
    if of_peak:
        cond += (" AND " if cond else " WHERE ") + f"coalesce(m.condition NOT IN ({STATED_SQL}, 'as_printed'), true)"
    if _PER_DEVICE.search(question or ""):
        # "dgx-1 v100 fp32 spec per gpu": a GPU's figure, not the whole system's (the thesis's "960 TFLOPS for
        # single-precision workloads" is the eight GPUs' sum, stored with params.scope = system)
        cond += (" AND " if cond else " WHERE ") + "coalesce(m.params->>'scope', '') <> 'system'"
    count_defaulted = s.get("count") is None and not s.get("src") and not s.get("dst")
    if count_defaulted:
        # 1-GPU runs of nccl-tests report a busbw of 0; a host copy is one GPU's (SHOC's 4-GPU readback is each GPU's
        # share of a busy bus: 47 GB/s on Yme, where one GPU alone reaches 73)
        steps.append("one_device" if of_peak or s.get("operation") in HOST_OPS else "count")
    # a latency is quoted for the smallest message; a bandwidth at the largest, where it peaks
    small = s.get("metric") == "latency" or (s.get("metric") == "time" and bool(_LATENCY_SAID.search(question or "")))
    end = SIZE_END.search((question or "").lower())
    if end and s.get("msg_bytes") is None:
        # "a minimum size message", "at the largest message size": that end of the size axis, whatever the measure
        small = end.group("end") in ("smallest", "minimum", "min", "minimal", "tiniest", "tiny")
    if s.get("operation") == "p2p" and not (s.get("src") or s.get("dst")):
        steps.append("most_pairs")   # a pair picked among all the system's pairs, not the few one tool ran
    best_asked = agg == ("min" if s.get("metric") in LOWER_BETTER else "max")
    # "the peak of the H200 all-reduce busbw curve": the highest over the sweep's sizes, as "at any size" says
    any_size = bool(ANY_SIZE.search((question or "").lower()) or _OF_A_CURVE.search(question or "")
                    or SIZE_OF_THE_EXTREME.search(question or ""))
    # "which message size gives the second-highest busbw": the places are over the sizes, none is fixed
    sizes_ranked = bool(s.get("place")) and bool(_WHICH_SIZE.search(question or ""))
    # "the five slowest gemm times": a ranking of that many, each said with what tells it apart (a kernel's shape,
    # a size: with none named, the ranking is over every size, as "at any size" says)
    top_n = s.get("top_n") if isinstance(s.get("top_n"), int) and not isinstance(s.get("top_n"), bool) \
        and 1 < s["top_n"] <= TOP_N_MAX else None
    if s.get("msg_bytes") is None and not (small and best_asked) and not (agg in ("min", "max") and any_size) \
            and not sizes_ranked and not top_n:
        # (not for "the minimum allreduce latency": the lowest at any size, not only at the smallest; nor for "the
        # highest bus bandwidth at any message size")
        steps.append("small_size" if small else "size")
    if s.get("direction") is None:
        steps.append("direction")
    relative = next((rel for rel, rx in _RELATIVE if rx.search(question or "")), None) \
        if s.get("metric") is None and agg in ("min", "max") else None
    if s.get("metric") is None and agg is None:
        relative = "better"    # no measure named and none asked of it: the best of the one picked, as for a named one
    if agg in ("min", "max"):
        order = "asc" if agg == "min" else "desc"
    else:
        order = "asc" if s.get("metric") in LOWER_BETTER else "desc"
    # the question's words that some curated row of this system has in its label (most questions: none, and
    # then the query fetches no labels)
    said = [w for w in said_words(question or "", s) if w in cat.label_words.get(sid, ())]
    select = SELECT.replace("\nFROM", LABEL + "\nFROM") if said else SELECT
    # "hidden 512, batch 1", "1760x7000x1760", "training": a benchmark's parameters, which rows store in params
    shape = said_params(question or "", s.get("operation")) if s.get("operation") in PARAMETRISED else {}
    if shape or (top_n and s.get("operation") in PARAMETRISED):
        select = select.replace("\nFROM", PARAMS + "\nFROM", 1)
    if s.get("metric") in (None, "latency"):
        select = select.replace("\nFROM", TIMER + "\nFROM", 1)
    sql = f"{select}{cond}"
    if "size" in steps and not device_memory \
            and cat.rows_at_most(sid, s.get("metric"), s.get("operation"), s.get("condition")) > MANY_ROWS:
        # (not for a device memory's bandwidth: a stated figure has no size, and must not lose to a copy's largest)
        sql += LARGEST
    elif "small_size" in steps \
            and cat.rows_at_most(sid, s.get("metric"), s.get("operation"), s.get("condition")) > MANY_ROWS:
        sql += SMALLEST
    # "SHOC host-to-device bandwidth": the rows of the tool named, where it ran (the answer says when it did not)
    tool = cat.tool_named(question or "")
    return Plan(sql=sql, params=params, chart={"kind": "bar"}, slots=s, notes=notes,
                # an average or median is of every row matched, not of the first 50 shown
                narrow={"kind": "measurements", "said": said, "steps": steps, "order": order,
                        "limit": 50 if agg not in ("mean", "median") else None, "pairs": pairs,
                        "aggregate": agg, "relative": relative, "tool": tool,
                        "params": {k: [list(keys), v] for k, (keys, v) in sorted(shape.items())},
                        "device_memory": list(DEVICE_MEMORY) if device_memory else None, "of_peak": of_peak,
                        "cases": bool(top_n)},
                extra={"size_defaulted": s.get("msg_bytes") is None, "aggregate": agg, "pairs": pairs, "top_n": top_n,
                       "dir_defaulted": s.get("direction") is None, "count_defaulted": count_defaulted,
                       "run_tools": cat.run_tools})


def _of_peak(top: dict[str, Any], plan: Plan) -> str:
    """The measured figure as a share of the stated peak _narrow.stated_peak found for it."""
    peak = top.get("peak_value")
    if not peak:
        plan.notes.append("no stated peak of this measure and precision is stored for the system: no share of peak")
        return "No stated peak of it is stored to set it against."
    share = 100.0 * top["value"] * RATE_SCALE[top["unit"]] / (peak * RATE_SCALE[top["peak_unit"]])
    what = f" ({top['peak_label']})" if top.get("peak_label") else ""
    return (f"That is {share:.1f}% of the stated peak of {fmt_value(peak, top['peak_unit'])}{what} "
            f"[{top['peak_source']}].")


def _device_end(s: dict[str, Any]):
    """The one endpoint of a host copy (h2d/d2h) when it is a device, else None."""
    if s.get("operation") not in HOST_OPS or bool(s.get("src")) == bool(s.get("dst")):
        return None
    x = s.get("src") or s.get("dst")
    return x if isinstance(x, str) and not x.startswith("host") else None


def _describe(r: dict[str, Any], cat: Catalog) -> str:
    bits = []
    if r.get("src") and r.get("dst"):
        bits.append(f"{endpoint(r['src'])} -> {endpoint(r['dst'])}")
    elif r.get("src"):
        bits.append(endpoint(r["src"]))
    what = " ".join(x.replace("_", " ") for x in (r.get("operation"), r.get("metric")) if x)   # local memory write
    bits.append(what)
    bits.append(f"on {cat.name(r['system_id'])}")
    if r.get("msg_bytes"):
        bits.append(f"at {fmt_bytes(r['msg_bytes'])}")
    if r.get("count") and r.get("count_kind"):
        bits.append(f"with {r['count']} {r['count_kind']}")
    quals = [x for x in (r.get("direction") and DIRECTION_WORDS.get(r["direction"]),
                         condition_words(r.get("condition")), r.get("precision"), r.get("app"), r.get("statistic"))
             if x]
    if quals:
        bits.append("(" + ", ".join(quals) + ")")
    return " ".join(b for b in bits if b)


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    if plan.extra.get("pairs"):
        direct, classes, links = _pairs.split(rows, COLUMNS)
        rows[:] = direct
        if not direct and classes:
            return _class_answer(rows, classes, links, plan, cat)
    if not rows:
        raise OutOfScope(f"Nothing matches that on {cat.name(plan.slots['system'])}: "
                         "try fewer conditions (size, pair, condition) or ask what was measured there.")
    labels = [r.pop("_label", None) for r in rows]
    hit = [r.pop("_params_hit", None) for r in rows][0]
    top = rows[0]
    if plan.narrow.get("params"):
        said = ", ".join(f"{k} {v}" for k, (_, v) in plan.narrow["params"].items())
        plan.notes.append(f"the rows with {said}" if hit else f"no row has {said}: every row of the rest is used")
    if labels[0]:
        # the question picked this row by the document's words for it: say them, the row has no column for them
        plan.notes.append(f"{LABEL_NOTE}{labels[0]}")
    agg = plan.extra.get("aggregate")
    stated = [r.pop("_stated", False) for r in rows][0]
    if stated:
        agg = None     # the document's own mean (or minimum, maximum) of its runs: quoted, not aggregated again
    if [r.pop("_over_sizes", False) for r in rows][0]:
        plan.notes.append(f"the average {top.get('tool') or 'the benchmark'} printed over every size it ran "
                          "(no size given)")
    if plan.narrow.get("tool") and not made_by(top, plan.narrow["tool"]):
        plan.notes.append(f"no {plan.narrow['tool']} measurement matches on {cat.name(top['system_id'])}: "
                          f"answered from {top.get('tool') or 'another source'}")
    if agg in ("mean", "median"):
        vals = [r["value"] for r in rows if r["unit"] == top["unit"]]
        v = sum(vals) / len(vals) if agg == "mean" else statistics.median(vals)
        return (f"{agg.capitalize()} {top.get('metric')} over {len(vals)} measurement{'s' if len(vals) != 1 else ''}"
                f" on {cat.name(top['system_id'])}: {fmt_value(v, top['unit'])}{cite(rows)}.")
    lead = ""
    matched = max([r.pop("_matched", 0) or 0 for r in rows] + [len(rows)])
    place = plan.slots.get("place")
    if isinstance(place, int) and place > 1 and agg in ("min", "max"):
        # "the runner-up pair", "the second-highest busbw": the place-th distinct value in the order asked
        distinct, seen = [], set()
        for r in rows:                     # the first row of each value, in the order asked
            if (r["value"], r["unit"]) not in seen:
                seen.add((r["value"], r["unit"]))
                distinct.append(r)
        if len(distinct) < place:
            raise OutOfScope(f"Only {len(distinct)} different value{'s' if len(distinct) != 1 else ''} match on "
                             f"{cat.name(top['system_id'])}, so there is no {ordinal_word(place)} place.")
        top = distinct[place - 1]
        rows[:] = distinct[:place]
        word = {"min": "lowest", "max": "highest"}[agg]
        sentence = (f"The {ordinal_word(place)} {word} of {matched:,} measurements (after "
                    f"{fmt_value(distinct[0]['value'], distinct[0]['unit'])}): {_describe(top, cat)}: "
                    f"{fmt_value(top['value'], top['unit'])}{cite([top])}.")
        return sentence

    top_n = plan.extra.get("top_n")
    if top_n and len(rows) > 1:
        return _ranking(rows, top_n, matched, agg, plan, cat)
    # several different values (DeepBench's 1,090 GEMM shapes, the pairs of a system): say which one is quoted
    varied = len({(r["value"], r["unit"]) for r in rows}) > 1
    if agg in ("min", "max") or varied or len({(r['src'], r['dst']) for r in rows}) > 1 and not plan.slots.get("src"):
        word = _end_word(agg, plan, top)
        if len(rows) > 1 and not (plan.narrow.get("of_peak") and top.get("metric") == "efficiency"):
            lead = f"The {word} of {matched:,} measurements: "
    sentence = f"{lead}{_describe(top, cat)}: {fmt_value(top['value'], top['unit'])}{cite([top])}."
    if plan.narrow.get("of_peak") and top.get("metric") == "efficiency":
        # no peak is stated to set the measured rate against, but the document states the share itself
        plan.notes.append(f"no stated peak to set the measured {plan.slots.get('metric')} against: the "
                          f"{top.get('operation')} efficiency the document states")
    elif plan.narrow.get("of_peak"):
        sentence += " " + _of_peak(top, plan)
    if plan.extra.get("dir_defaulted") and top.get("direction") == "uni":
        plan.notes.append("no direction given: unidirectional")
    if plan.extra.get("count_defaulted") and top.get("count") and top.get("count_kind") and top["count"] > 1:
        plan.notes.append(f"no count given: the largest measured, {top['count']} {top['count_kind']}")
    if plan.extra.get("size_defaulted") and top.get("msg_bytes") and {"size", "small_size"} & set(plan.narrow["steps"]):
        which = "smallest" if "small_size" in plan.narrow["steps"] else "largest"
        plan.notes.append(f"no size given: using the {which} measured, {fmt_bytes(top['msg_bytes'])}")
    _other_operations(top, plan, cat)
    return sentence[0].upper() + sentence[1:]


def _ranking(rows: list[dict[str, Any]], top_n: int, matched: int, agg: Any, plan: Plan, cat: Catalog) -> str:
    """"the five slowest gemm times on the Titan RTX": the first top_n rows in the order asked, each said by what
    sets it apart from the others (its pair, size, count or kernel shape); what they share is said once."""
    shown, cases, seen = [], [], set()
    for r in rows:
        case = _case_params(r.pop("_case", None))
        # one measurement printed twice (a raw output and the document's listing of it) is one place
        key = (r["value"], r["unit"], r.get("src"), r.get("dst"), r.get("msg_bytes"), r.get("count"),
               r.get("direction"), r.get("condition"), r.get("precision"), _case_words(case, shape_only=True))
        if key not in seen:
            seen.add(key)
            shown.append(r)
            cases.append(case)
        if len(shown) == top_n:
            break
    rows[:] = shown
    word = _end_word(agg, plan, shown[0])
    apart = [k for k in ("src", "dst", "msg_bytes", "count", "direction", "condition", "precision", "app")
             if len({r.get(k) for r in shown}) > 1]
    common = dict(shown[0], **{k: None for k in apart})
    items = []
    for i, (r, case) in enumerate(zip(shown, cases), 1):
        bits = []
        if "src" in apart or "dst" in apart:
            bits.append(" -> ".join(endpoint(r[k]) for k in ("src", "dst") if r.get(k)))
        if "msg_bytes" in apart and r.get("msg_bytes"):
            bits.append(f"at {fmt_bytes(r['msg_bytes'])}")
        if "count" in apart and r.get("count"):
            bits.append(f"{r['count']} {r.get('count_kind') or ''}".strip())
        bits += [str(r[k]) for k in ("direction", "condition", "precision", "app") if k in apart and r.get(k)]
        bits.append(_case_words(case))
        items.append(f"{i}. {', '.join(b for b in bits if b) or 'a row like the others'}: "
                     f"{fmt_value(r['value'], r['unit'])}")
    fewer = f" (only {len(shown)} match)" if len(shown) < top_n else ""
    return (f"The {len(shown)} {word} of {matched:,} measurements{fewer}: {_describe(common, cat)}: "
            + "; ".join(items) + f"{cite(shown, limit=len(shown))}.")


def _end_word(agg: Any, plan: Plan, top: dict[str, Any]) -> str:
    """The end of the order a quoted value sits at: the aggregate's, or, where the words asked for the fastest (or
    slowest) and left the measure to the defaults, the end that measure makes fastest."""
    if plan.narrow.get("relative"):
        return "lowest" if (top["metric"] in LOWER_BETTER) == (plan.narrow["relative"] == "better") else "highest"
    return {"min": "lowest", "max": "highest"}.get(agg) or (
        "lowest" if plan.slots.get("metric") in LOWER_BETTER else "highest")


# a benchmark case's parameters in the order people name a kernel's shape (DeepBench: GEMM m n k, convolutions'
# input w h c n and filters k f_w f_h, RNN hidden and timesteps)
_CASE_KEYS = ("m", "n", "k", "w", "h", "c", "f_w", "f_h", "hidden", "timesteps", "batch", "a_t", "b_t", "mode",
              "phase")


def _case_params(params: Any) -> dict[str, Any]:
    """A row's benchmark parameters (stored as JSON text), or none."""
    if not params:
        return {}
    try:
        return json.loads(params) if isinstance(params, str) else dict(params)
    except (ValueError, TypeError):
        return {}


def _case_words(p: dict[str, Any], shape_only: bool = False) -> str:
    return " ".join(f"{k}={p[k]}" for k in _CASE_KEYS if k in p and p[k] not in (None, "")
                    and not (shape_only and k in ("mode", "phase")))


def _other_operations(top: dict[str, Any], plan: Plan, cat: Catalog) -> None:
    """With no operation asked, the top row's operation is one pick among several measured with that metric
    ("how much faster is random number generation on the IPU?" without a known word for it answered the
    reduce speedup): say which others exist, so a reader can see the number may answer another question."""
    s = plan.slots
    if s.get("operation") or s.get("app") or not top.get("operation"):
        return
    ops = sorted(cat.metric_ops(top["system_id"], top["metric"]) - {top["operation"]})
    if ops:
        plan.notes.append(f"no operation given: this is {top['operation']}; {top['metric']} was also measured "
                          f"for {', '.join(ops[:8])}" + (f" (+{len(ops) - 8} more)" if len(ops) > 8 else ""))


def _class_answer(rows: list[dict[str, Any]], classes: list[dict[str, Any]], links: list[dict[str, Any]],
                  plan: Plan, cat: Catalog) -> str:
    """No measurement of this pair, but of its path class: answer with that, saying so."""
    s = plan.slots
    name = cat.name(s["system"])
    if not s.get("metric"):
        classes = _pairs.pick_metric(classes)
    g = _pairs.gpu_graph(links)
    fits, _ = _pairs.for_pair(classes, g, s["src"], s["dst"])
    if not fits:
        raise OutOfScope(_pairs.no_value_reason(classes, g, s["src"], s["dst"], name))
    top = fits[0]
    rows[:] = fits
    plan.notes.append(f"no measurement of {endpoint(s['src'])} -> {endpoint(s['dst'])} itself: the document "
                      f"measured {top['operation']} {top['metric']} per path class; shown: its {top['path_class']} "
                      "value, with that row's source")
    others = [f"{o['test'] or o['tool']}, {condition_words(o['condition'])} {o['direction'] or ''}: "
              f"{fmt_value(o['value'], o['unit'])}".replace("  ", " ") for o in fits[1:4]]
    if others:
        plan.notes.append(f"also measured for {top['path_class']}: " + "; ".join(others)
                          + (f" (+{len(fits) - 4} more)" if len(fits) > 4 else ""))
    return (f"{_describe(top, cat)}: {fmt_value(top['value'], top['unit'])}. {_pairs.sentence_tail(top)}"
            f"{cite([top])}.")
