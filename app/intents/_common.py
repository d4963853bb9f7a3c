"""Shared pieces of the intent modules: slot filters as parameterised SQL, formatting of answers."""
from __future__ import annotations

import re
from typing import Any, Iterable, Optional

from app.catalog import _STATED_WORDS, Catalog
from app.intents import OutOfScope

# slot -> column of `measurements m`; the SQL fragment is fixed, the value goes in as $slot
FILTER_COLUMNS = {
    "system": "m.system_id", "metric": "m.metric", "operation": "m.operation", "src": "m.src",
    "dst": "m.dst", "direction": "m.direction", "msg_bytes": "m.msg_bytes", "count": "m.count",
    "count_kind": "m.count_kind", "condition": "m.condition", "precision": "m.precision",
    "app": "m.app", "library": "m.library", "statistic": "m.statistic",
}

def where(slots: dict[str, Any], keys: Iterable[str]) -> tuple[str, dict[str, Any]]:
    """WHERE clause over the given slot keys that are set; values only as parameters."""
    parts, params = [], {}
    for k in keys:
        v = slots.get(k)
        if v is None or k not in FILTER_COLUMNS:
            continue
        if isinstance(v, (list, tuple)):
            parts.append(f"list_contains(${k}, {FILTER_COLUMNS[k]})")
        else:
            parts.append(f"{FILTER_COLUMNS[k]} = ${k}")
        params[k] = list(v) if isinstance(v, (list, tuple)) else v
    return (" WHERE " + " AND ".join(parts)) if parts else "", params


def require_system(slots: dict[str, Any], cat: Catalog) -> str:
    sid = slots.get("system")
    if not sid:
        fits = systems_fitting(slots, cat)
        if fits and len(fits) <= 6:
            # "um GPU0 GPU2 path, does it go through the X-Bus?": the words narrow it to a few; name them
            raise OutOfScope("Which system? What the question names fits " + ", ".join(cat.name(x) for x in fits)
                             + ": name one.")
        raise OutOfScope("Which system? " + cat.describe() + ".")
    if sid not in cat.systems:
        raise OutOfScope(f"I have no data for a system called {sid!r}. " + cat.describe() + ".")
    return sid


def systems_fitting(slots: dict[str, Any], cat: Catalog) -> list[str]:
    """The systems that have every endpoint, link type, operation and metric the slots name ([] when the slots name
    none of these: nothing narrows the choice)."""
    fits = set(cat.systems)
    narrowed = False
    for k in ("src", "dst"):
        v = slots.get(k)
        if isinstance(v, str) and v != "host":
            fits &= {s for s, comps in cat.components.items() if v in comps}
            narrowed = True
    if isinstance(slots.get("link_type"), str):
        fits &= cat.link_owners(slots["link_type"])
        narrowed = True
    if isinstance(slots.get("operation"), str):
        fits &= {s for s, ops in cat.operations.items() if slots["operation"] in ops}
        narrowed = True
    if isinstance(slots.get("metric"), str):
        fits &= {s for s, ms in cat.metrics.items() if slots["metric"] in ms}
        narrowed = True
    for k in ("app", "library"):    # "max error of PSDNS at 256 GPUs": an application only some systems ran
        v = slots.get(k)
        if isinstance(v, str) and (k, v.lower()) in cat.owners:
            fits &= cat.owners[(k, v.lower())]
            narrowed = True
    return sorted(fits) if narrowed else []


def require_metric_on(system: str, metric: Optional[str], operation: Optional[str], cat: Catalog) -> None:
    name = cat.name(system)
    if metric and metric not in cat.metrics.get(system, set()):
        have = ", ".join(sorted(cat.metrics.get(system, set()))[:12]) or "no measurements"
        raise OutOfScope(f"{metric} was never measured on {name}; what is there: {have}.")
    if operation and operation not in cat.operations.get(system, set()):
        have = ", ".join(sorted(cat.operations.get(system, set()))[:15]) or "none"
        raise OutOfScope(f"No {operation} measurements on {name}; operations measured there: {have}.")


def fmt_value(v: float, unit: str) -> str:
    if v is None:
        return "n/a"
    a = abs(v)
    if a >= 1000:
        s = f"{v:,.0f}" if a >= 10000 else f"{v:,.1f}"
    elif a >= 100:
        s = f"{v:.1f}"
    elif a >= 1:
        s = f"{v:.2f}"
    elif a == 0:
        s = "0"
    else:
        s = f"{v:.3g}"
    if s.endswith(".0") and a < 1000:
        s = s[:-2]
    if unit == "us" and 0 < a < 0.01:
        # latencies stay in us (the contract's unit), but "0.000136 us" is easier read as 0.136 ns
        return f"{s} us ({fmt_value(v * 1000, 'ns')})"
    if unit == "us" and a >= 1e6:
        # a run of 54 s is stored as 54,000,000 us; said in seconds too
        return f"{s} us ({fmt_value(v / 1e6, 's')})"
    return f"{s} {unit}".strip()


def fmt_bytes(n: Optional[int]) -> str:
    if n is None:
        return ""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} B"


def cite(rows: list[dict[str, Any]], limit: int = 2) -> str:
    srcs = list(dict.fromkeys(r["source"] for r in rows if r.get("source")))
    if not srcs:
        return ""
    more = f" +{len(srcs) - limit} more" if len(srcs) > limit else ""
    return " [" + "; ".join(srcs[:limit]) + more + "]"


def endpoint(x: Optional[str]) -> str:
    """gpu3 -> GPU3, ipu7 -> IPU7, core12 -> core 12 (for sentences)."""
    if not x:
        return ""
    for k in ("gpu", "ipu", "cpu", "nic"):
        if x.startswith(k) and x[len(k):].isdigit():
            return k.upper() + x[len(k):]
    return x


# ---- added for pair_matrix, size_sweep, scaling, compare_systems, congestion (new helpers only) ----

# lower is better for these metrics (a "best" value is the minimum; a slowdown is new/old)
LOWER_BETTER = {"latency", "latency_per_message", "time", "slowdown", "overhead", "error", "congestion_impact"}
# higher is better, and a ratio of two values is a speedup
# what sets one stored series apart from another of the same metric and operation: the app, SHOC's result, a
# table's quantity (per transfer / aggregate), design, preconditioner, band, what a speedup is measured against, and
# mgbench's path class (a GPU pair over two NVLinks or one). Rows that differ here are never averaged together
# (scaling, size_sweep)
VARIANT_SQL = ("concat_ws('|', m.app, m.params->>'result', m.params->>'quantity', m.params->>'design', "
               "m.params->>'preconditioner', m.params->>'band', m.params->>'baseline', m.params->>'path_class')")
# conditions of a figure a document states rather than measures (a spec sheet, a theoretical or nominal peak)
STATED = _STATED_WORDS
STATED_SQL = ", ".join(f"'{c}'" for c in STATED)   # the same, as an SQL list of constants
# one unit of each rate in the base unit: a GFLOP/s measurement is set against a TFLOP/s peak
RATE_SCALE = {"FLOP/s": 1.0, "GFLOP/s": 1e9, "TFLOP/s": 1e12, "PFLOP/s": 1e15, "B/s": 1.0, "MB/s": 1e6, "GB/s": 1e9,
              "TB/s": 1e12}


# Units a question may ask an answer in ("in MB/s", "in microseconds"): (unit as shown, its family, its size in the
# family's base unit: B/s, us, FLOP/s)
_ASKED_UNITS = {
    "b/s": ("B/s", "rate", 1.0), "kb/s": ("KB/s", "rate", 1e3), "mb/s": ("MB/s", "rate", 1e6),
    "gb/s": ("GB/s", "rate", 1e9), "tb/s": ("TB/s", "rate", 1e12), "mib/s": ("MiB/s", "rate", 2.0 ** 20),
    "gib/s": ("GiB/s", "rate", 2.0 ** 30), "gbps": ("Gbit/s", "rate", 1e9 / 8), "gbit/s": ("Gbit/s", "rate", 1e9 / 8),
    "gb/sec": ("GB/s", "rate", 1e9), "mb/sec": ("MB/s", "rate", 1e6),
    "ns": ("ns", "time", 1e-3), "nanoseconds": ("ns", "time", 1e-3), "us": ("us", "time", 1.0),
    "microseconds": ("us", "time", 1.0), "ms": ("ms", "time", 1e3), "milliseconds": ("ms", "time", 1e3),
    "s": ("s", "time", 1e6), "seconds": ("s", "time", 1e6), "sec": ("s", "time", 1e6),
    "gflops": ("GFLOP/s", "flops", 1e9), "gflop/s": ("GFLOP/s", "flops", 1e9), "tflops": ("TFLOP/s", "flops", 1e12),
    "tflop/s": ("TFLOP/s", "flops", 1e12)}
_STORED_UNITS = {"B/s": ("rate", 1.0), "MB/s": ("rate", 1e6), "GB/s": ("rate", 1e9), "TB/s": ("rate", 1e12),
                 "us": ("time", 1.0), "GFLOP/s": ("flops", 1e9), "TFLOP/s": ("flops", 1e12)}
_IN_UNIT = re.compile(r"\b(?:in|as|into|to) ((?:[kmgt]i?b|[gm]bit|b)/s(?:ec)?|gbps|ns|us|ms|s|sec|seconds|"
                      r"milliseconds|microseconds|nanoseconds|[gt]flop/?s)\b", re.I)


def in_asked_unit(question: str, value: float, unit: str) -> Optional[str]:
    """"12.90 GB/s" asked "in MB/s": the value in that unit ("12,900 MB/s"); None when no unit is asked, it is the
    stored one, or the two measure different things."""
    m = _IN_UNIT.search(question or "")
    if not m or value is None:
        return None
    asked, stored = _ASKED_UNITS.get(m.group(1).lower()), _STORED_UNITS.get(unit)
    if not asked or not stored or asked[1] != stored[0] or asked[0] == unit:
        return None
    return fmt_value(value * stored[1] / asked[2], asked[0])


# operations whose rows a benchmark's parameters tell apart (DeepBench's GEMM, convolution and RNN shapes)
PARAMETRISED = ("gemm", "conv", "rnn", "allreduce")
# "the 1760x7000x1760 fp16 training GEMM": "training" is DeepBench's mode of the GEMM, not the operation training
_DEEPBENCH_OP = re.compile(r"\b(gemm|conv(?:olution)?|rnn|lstm|gru)s?\b", re.I)
_DEEPBENCH_OPS = {"gemm": "gemm", "conv": "conv", "convolution": "conv", "rnn": "rnn", "lstm": "rnn",
                  "gru": "rnn"}


def mode_as_operation(operation: Any, question: str) -> Any:
    """The DeepBench operation a question names where the operation read is a mode ("training", "inference") and
    a GEMM, convolution or RNN is said; else the operation as read."""
    op = _DEEPBENCH_OP.search(question or "")
    return _DEEPBENCH_OPS[op.group(1).lower()] if operation in ("training", "inference") and op else operation

# A benchmark's parameters said in a question, as DeepBench's rows store them in params: a GEMM shape "1760x7000x1760"
# (m, n, k), "hidden 512", "batch 4", "25 timesteps", "w=700 k=32", "training" or "inference"
_SHAPE = re.compile(r"\b(\d+)\s*[x×]\s*(\d+)\s*[x×]\s*(\d+)\b")
_NAMED_PARAM = re.compile(r"\b(hidden(?: size)?|batch(?: size)?|time ?steps?)\s*(?:=|:|of|is)?\s*(\d+)\b|"
                          r"\b(\d+)\s+(time ?steps?)\b|\b([mnkwhc])\s*=\s*(\d+)\b", re.I)
_PARAM_KEYS = {"hidden": ("hidden",), "batch": ("N", "n"), "timestep": ("timesteps",)}
_MODE_SAID = re.compile(r"\b(training|train|inference|infer)\b", re.I)
# a mode as said (the key) and every way DeepBench's files store it
_MODE_FORMS = {"training": ("training", "train"), "inference": ("inference", "infer")}


def said_params(question: str, operation: Any = None) -> dict[str, tuple[tuple[str, ...], str]]:
    """{name: (params keys it may be stored under, value)} for the parameters a question names; {} for none. A
    mode is DeepBench's GEMM, convolution and RNN rows' only: "for all-reduce-heavy training" filters no
    all-reduce rows by it (none stores one)."""
    out: dict[str, tuple[tuple[str, ...], str]] = {}
    q = question or ""
    shape = _SHAPE.search(q)
    if shape:
        for key, v in zip("mnk", shape.groups()):
            out[key] = ((key,), v)
    for m in _NAMED_PARAM.finditer(q):
        word, v = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3)) if m.group(3) \
            else (m.group(5), m.group(6))
        name = re.sub(r"[^a-z]", "", word.lower())
        name = {"hiddensize": "hidden", "batchsize": "batch", "timesteps": "timestep"}.get(name, name)
        out[name] = (_PARAM_KEYS.get(name, (word.lower(),) if len(word) == 1 else (name,)), v)
    mode = _MODE_SAID.search(q)
    if mode and operation in (None, *set(_DEEPBENCH_OPS.values())):
        out["mode"] = (("mode",), "training" if mode.group(1).lower().startswith("train") else "inference")
    return out


# the params keys a question's parameters are looked up under (said_params gives no others)
_PARAM_COLUMNS = {"m", "n", "k", "w", "h", "c", "N", "hidden", "timesteps", "mode"}


def params_sql(said: dict[str, tuple[tuple[str, ...], str]]) -> tuple[list[str], dict[str, Any]]:
    """WHERE fragments and their parameters for the parameters a question names (said_params), for planners that
    filter in SQL: the keys are from the fixed set above, every value a parameter; a mode stored as "train" is
    "training"."""
    frags, params = [], {}
    for i, (name, (keys, value)) in enumerate(sorted(said.items())):
        keys = tuple(k for k in keys if k in _PARAM_COLUMNS)
        if not keys:
            continue
        col = "coalesce(" + ", ".join(f"m.params->>'{k}'" for k in keys) + ")" if len(keys) > 1 \
            else f"(m.params->>'{keys[0]}')"
        if name == "mode":
            frags.append(f"list_contains($param_{i}, {col})")
            params[f"param_{i}"] = list(_MODE_FORMS[value])
        else:
            frags.append(f"{col} = $param_{i}")
            params[f"param_{i}"] = value
    return frags, params


def params_match(params: dict[str, Any], said: dict[str, tuple[tuple[str, ...], str]]) -> bool:
    """Whether a row's params hold every parameter said (a mode stored as "train" is "training")."""
    for keys, want in said.values():
        forms = _MODE_FORMS[want] if keys == ("mode",) else (want,)
        if not any(str(params[k]) in forms for k in keys if params.get(k) is not None):
            return False
    return True


def whole_quantity(variant: str) -> bool:
    """A series of the whole operation ("aggregate", "total", or no quantity named) rather than one per transfer or
    per unit: what a default prefers when a table gives both (size sweeps, scaling series, pair grids)."""
    return variant == "" or "total" in variant or "aggregate" in variant


HIGHER_BETTER = {"bandwidth", "busbw", "algbw", "throughput", "flops"}
# conditions taken as the default "normal" setting when the user names none
PREFERRED_CONDITIONS = ("p2p_on", "pinned", "pinned_wc", "in_place", "congestion_free", "cc_on",
                        "tensor_cores_on")
# Above this many stored rows a planner narrows in SQL before rows reach Python (a window or a counting query):
# handing thousands of rows to Python costs tens of ms, while the extra SQL costs about 1 ms to plan
MANY_ROWS = 2000
# SQL aggregate for the `aggregate` slot (fixed fragments; the slot only chooses among them)
AGG_SQL = {"max": "max", "min": "min", "mean": "avg"}


def lower_is_better(metric: Optional[str]) -> bool:
    return metric in LOWER_BETTER


# measures with no better direction: a share of time, a crossover size, a count, a clock or a temperature is ranked
# by its value, and no answer calls a higher one better
NO_BETTER = {"share", "crossover_msg_size", "size", "message_size", "msg_size", "data_size", "count", "batch_size",
             "clock", "power", "temperature", "fan_speed", "utilization", "arithmetic_intensity", "flops_per_byte",
             "iterations", "callpath_depth", "cct_node_count", "mpi_function_count", "so_file_count", "channel_ratio",
             "bandwidth_ratio", "result"}


def better_words(metric: Optional[str]) -> str:
    """"lower is better", "higher is better", or "" for a measure that has no better direction (NO_BETTER)."""
    if metric in NO_BETTER:
        return ""
    return "lower is better" if lower_is_better(metric) else "higher is better"


def where_plus(slots: dict[str, Any], keys: Iterable[str], fixed: Iterable[str] = ()) -> tuple[str, dict[str, Any]]:
    """where() plus an optional `tool` slot (r.tool = $tool) and fixed SQL fragments (no user values)."""
    clause, params = where(slots, keys)
    parts = [clause[len(" WHERE "):]] if clause else []
    if slots.get("tool"):
        parts.append("r.tool = $tool")
        params["tool"] = slots["tool"]
    parts.extend(fixed)
    return (" WHERE " + " AND ".join(parts)) if parts else "", params


def condition_rank_sql(col: str = "condition") -> str:
    """0 for a preferred default condition, 1 for none, 2 for any other (ORDER BY ascending)."""
    prefs = ", ".join(f"'{c}'" for c in PREFERRED_CONDITIONS)
    return f"(CASE WHEN {col} IN ({prefs}) THEN 0 WHEN {col} IS NULL THEN 1 ELSE 2 END)"


def agg_choice(slots: dict[str, Any], metric: Optional[str]) -> tuple[str, str]:
    """(SQL aggregate, words) for collapsing duplicate measurements: the `aggregate` slot, else the best."""
    agg = slots.get("aggregate")
    if agg in AGG_SQL:
        return AGG_SQL[agg], {"max": "highest", "min": "lowest", "mean": "mean"}[agg]
    if lower_is_better(metric):
        return "min", "best (lowest)"
    if metric in HIGHER_BETTER:
        return "max", "best (highest)"
    return "avg", "mean"


def systems_with(cat: Catalog, operation: Optional[str] = None, metric: Optional[str] = None,
                 conditions: Iterable[str] = ()) -> list[str]:
    """System ids whose catalog has the operation / metric / all the conditions (for out-of-scope hints)."""
    out = []
    for sid in sorted(cat.systems):
        if operation and operation not in cat.operations.get(sid, set()):
            continue
        if metric and metric not in cat.metrics.get(sid, set()):
            continue
        if any(c not in cat.conditions.get(sid, set()) for c in conditions):
            continue
        out.append(sid)
    return out


# A stored direction as a sentence says it
DIRECTION_WORDS = {"uni": "unidirectional", "bi": "bidirectional"}


def direction_words(direction: Any) -> str:
    """'unidirectional' for uni; any other stored value as it is."""
    return DIRECTION_WORDS.get(direction, direction) if direction else ""


# A stored condition as a sentence says it: the ids are for filters and tables, "(unidirectional, p2p_on)" reads as
# code in an answer
CONDITION_WORDS = {"p2p_on": "P2P enabled", "p2p_off": "P2P disabled", "in_place": "in-place",
                   "out_of_place": "out-of-place", "congestion_free": "congestion-free", "under_load": "under load",
                   "cc_on": "congestion control on", "cc_off": "congestion control off",
                   "pinned_wc": "pinned write-combined", "write_combined": "write-combined", "cross_numa": "cross-NUMA",
                   "nvlink": "NVLink mode", "pcie": "PCIe mode"}


def condition_words(condition: Any) -> str:
    """'P2P enabled' for p2p_on; an id without words of its own is said with spaces for its underscores."""
    return CONDITION_WORDS.get(condition, str(condition).replace("_", " ")) if condition else ""


def quals(r: dict[str, Any], keys: Iterable[str] = ("direction", "condition", "precision", "msg_bytes",
                                                    "tool")) -> str:
    """'unidirectional, P2P enabled, 256 MiB, Tartan' from a row's qualifying columns."""
    bits = []
    for k in keys:
        v = r.get(k)
        if v is None or v == "":
            continue
        if k == "direction":
            v = direction_words(v)
        elif k == "condition":
            v = condition_words(v)
        elif k == "msg_bytes":
            v = fmt_bytes(int(v))
        bits.append(str(v))
    return ", ".join(bits)


def fmt_ratio(x: Optional[float]) -> str:
    if x is None:
        return "n/a"
    return f"{x:.2f}x" if x < 100 else f"{x:,.1f}x"


OPERATION_WORDS = {"p2p": "peer-to-peer", "h2d": "host-to-device", "d2h": "device-to-host",
                   "d2d": "device-local copy", "allreduce": "all-reduce", "allgather": "all-gather",
                   "alltoall": "all-to-all", "reduce_scatter": "reduce-scatter", "sendrecv": "send/receive",
                   "gemm": "GEMM", "prng": "PRNG", "bfs": "BFS", "qtc": "QTC", "rnn": "RNN", "s3d": "S3D",
                   "md5hash": "MD5Hash", "conv": "convolution"}


def what_words(operation: Optional[str], metric: Optional[str]) -> str:
    """'host-to-device bandwidth' from operation and metric, for sentences ('qtc kernel time': an id's underscores
    read as spaces)."""
    op = OPERATION_WORDS.get(operation or "", (operation or "").replace("_", " "))
    return " ".join(x.replace("_", " ") for x in (op, metric) if x)


def written_name(slot: str, canonical: str) -> str:
    """A vocabulary value as people write it ("pytorch" -> "PyTorch"): ids are lower case for matching, and
    str.capitalize() gets brand names wrong."""
    from nlu.vocab import default_vocabulary
    forms = default_vocabulary().surfaces(slot, canonical, "written")
    return forms[0] if forms else canonical


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def uncap(text: str) -> str:
    """A sentence's start made lower case to follow a colon, unless it is an acronym ("GEMM", "MD5Hash")."""
    if text[1:2].isupper() or text[1:2].isdigit():
        return text
    return text[:1].lower() + text[1:]


def sources_sql(col: str = "source", limit: int = 2) -> str:
    """Aggregate SQL for a short citation: the first `limit` distinct sources, then '+N more'."""
    return (f"array_to_string(list_slice(list_sort(list_distinct(list({col}))), 1, {limit}), '; ') || "
            f"CASE WHEN count(DISTINCT {col}) > {limit} THEN ' +' || (count(DISTINCT {col}) - {limit}) || ' more' "
            f"ELSE '' END")


def best_source_sql(agg: str, col: str = "source", value: str = "value") -> str:
    """The source of the row an aggregate picked (arg_max / arg_min), or a short list for a mean."""
    if agg == "max":
        return f"arg_max({col}, {value})"
    if agg == "min":
        return f"arg_min({col}, {value})"
    return sources_sql(col)


def require_ints(slots: dict[str, Any], keys: Iterable[str] = ("msg_bytes", "count", "numa_node", "top_n")) -> None:
    """Integer slots must be integers (a stray string would otherwise be a SQL cast error)."""
    for k in keys:
        v = slots.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise OutOfScope(f"{k} must be a whole number, not {v!r}.")


def past_the_line(rows: list[dict[str, Any]], line: Any) -> Optional[tuple[list[dict[str, Any]], str]]:
    """(the rows past a line the question draws, "above" or "below"): "pairs above 100 GB/s", "systems under
    15 GB/s". None where there is no line, or it is in another unit than the rows (it is then not judged)."""
    if not isinstance(line, dict) or not rows or line.get("unit") != rows[0]["unit"]:
        return None
    above = line.get("op") == ">"
    return ([r for r in rows if (r["value"] > line["value"] if above else r["value"] < line["value"])],
            "above" if above else "below")


def crossing(values: list[float], op: str, line: float) -> tuple[str, Optional[int]]:
    """Where a curve (values in the order of its x axis) meets a line the question draws ("exceeds 100 GB/s",
    "stays under 20 us", "efficiency below 80%"). Returns (how, index of the point that answers):
      "first_above" / "first_below": the first point past the line, for a curve that starts on the other side;
      "stays_above" / "stays_below": the last point of the run that starts on the asked side;
      "never": no point is on the asked side (index of the closest point).
    Points are measured ones: nothing between two of them is interpolated."""
    past = [(v > line) if op == ">" else (v < line) for v in values]
    if not any(past):
        best = (max if op == ">" else min)(range(len(values)), key=lambda i: values[i])
        return "never", best
    side = "above" if op == ">" else "below"
    if past[0]:
        i = 0
        while i + 1 < len(past) and past[i + 1]:
            i += 1
        return f"stays_{side}", i
    return f"first_{side}", past.index(True)
