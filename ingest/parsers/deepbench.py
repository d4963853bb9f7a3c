"""Baidu DeepBench (NVIDIA build) console output.

Two families:

* compute tables from ``gemm_bench`` / ``conv_bench`` / ``rnn_bench`` (``Running training|inference
  benchmark``, ``Times``, a dashed rule, a column header, fixed-width rows). Times are microseconds
  (mean per call); training conv/rnn rows carry forward, backward-inputs, backward-params (and total)
  times, each stored as its own measurement (params.phase). Tensor-core use is a build switch that
  the output does not print: it comes from the folder (``Tensor-Cores`` / ``Without-Tensor-Cores``) or
  a ``_tc_`` file name. The benchmark prints a row's configuration before timing it, so a run that
  aborted (e.g. int8 RNN unsupported) ends with a configuration-only row: skipped with a warning.
* ``nccl_single_all_reduce`` (``NCCL AllReduce``: one process, N GPUs, mean time per call) and
  ``nccl_mpi_all_reduce`` (``NCCL MPI AllReduce``: one rank per GPU; Avg = mean over ranks, Max = max
  over ranks). msg_bytes is the per-rank buffer (floats x 4). A run that crashed before printing any
  row (MPI abort) loads as a run without measurements, with a warning.
"""
from __future__ import annotations

import re
from typing import Optional

from ingest import system_hints
from ingest.records import Measurement, ParseError, ParseResult, Run
from ingest.registry import ParseContext, register
from ingest.parsers._textutil import is_number, read_lines, scaled

RUNNING_RE = re.compile(r"^\s*Running (training|inference) benchmark\s*$")
ALLREDUCE_RE = re.compile(r"^\s*NCCL (MPI )?AllReduce\s*$")
RANKS_RE = re.compile(r"^\s*Num Ranks:\s*(\d+)\s*$")
RULE_RE = re.compile(r"^\s*-{10,}\s*$")
HEADER_TOKEN_RE = re.compile(r"[A-Za-z_#][A-Za-z0-9_]*(?: \((?:usec|msec|TFLOPS|GFLOPS)\))?")

FLOPS_COL_RE = re.compile(r"(?i)t(era)?flops")
PRECISION = {"float": "fp32", "half": "fp16", "int8": "int8", "double": "fp64"}
# column -> (kind, phase) for the time columns of the compute tables
TIME_COLS = {"time (usec)": None, "fwd_time (usec)": "fwd", "bwd_inputs_time (usec)": "bwd_inputs",
             "bwd_params_time (usec)": "bwd_params", "total_time (usec)": "total"}
LIBRARY = {"gemm": "cublas", "conv": "cudnn", "rnn": "cudnn"}
APP = {"gemm": "gemm_bench", "conv": "conv_bench", "rnn": "rnn_bench"}


def sniff(ctx: ParseContext) -> bool:
    h = ctx.head
    if re.search(r"^\s*Running (training|inference) benchmark\s*$", h, re.M) and re.search(r"^\s*Times\s*$", h, re.M):
        return True
    return (re.search(r"^\s*NCCL (MPI )?AllReduce\s*$", h, re.M) is not None
            and re.search(r"^\s*Num Ranks:\s*\d+", h, re.M) is not None
            and "bytes transferred" in h)


def _header_cols(line: str) -> list[str]:
    return HEADER_TOKEN_RE.findall(line)


def _tensor_cores(ctx: ParseContext) -> Optional[bool]:
    parts = [p.lower() for p in ctx.path.parts]
    for p in reversed(parts[:-1]):
        n = re.sub(r"[^a-z]", "", p)
        if n in ("withouttensorcores", "notensorcores", "notc"):
            return False
        if n in ("tensorcores", "tc"):
            return True
    if re.search(r"(^|_)tc(_|$)", ctx.path.name.lower()):
        return True
    return None


def _kind(cols: list[str]) -> Optional[str]:
    if cols[:3] == ["m", "n", "k"]:
        return "gemm"
    if cols[:5] == ["w", "h", "c", "n", "k"]:
        return "conv"
    if cols[:4] == ["type", "hidden", "N", "timesteps"]:
        return "rnn"
    return None


def _num(tok: str):
    return int(tok) if re.match(r"^-?\d+$", tok) else float(tok)


@register("deepbench", sniff, priority=30,
          description="DeepBench gemm/conv/rnn tables and nccl_single/mpi all_reduce tables")
def parse(ctx: ParseContext) -> ParseResult:
    lines = read_lines(ctx)
    result = ParseResult()
    sid = system_hints.resolve(ctx.system_id, ctx.path, None)
    i = 0
    n = len(lines)
    while i < n:
        if RUNNING_RE.match(lines[i]):
            run, i = _compute_table(ctx, lines, i, sid, result.warnings)
            result.runs.append(run)
            continue
        if ALLREDUCE_RE.match(lines[i]):
            run, i = _allreduce_table(ctx, lines, i, sid, result.warnings)
            result.runs.append(run)
            continue
        i += 1
    if not result.runs:
        raise ParseError(f"{ctx.source_name}: no DeepBench table found")
    return result


def _find_header(lines: list[str], i: int, src: str, what: str) -> tuple[int, list[str]]:
    """From line index i, skip 'Times' and dashed rules to the column header; returns (index, cols)."""
    j = i
    while j < len(lines):
        s = lines[j].strip()
        if not s or s == "Times" or RULE_RE.match(lines[j]):
            j += 1
            continue
        return j, _header_cols(lines[j])
    raise ParseError(f"{src}: file ends before the column header of the {what} table (truncated)")


def _compute_table(ctx, lines, i, sid, warnings) -> tuple[Run, int]:
    src = ctx.source_name
    mode = "train" if RUNNING_RE.match(lines[i]).group(1) == "training" else "inference"
    start = i + 1
    h, cols = _find_header(lines, i + 1, src, f"{mode} benchmark")
    kind = _kind(cols)
    if kind is None or "precision" not in cols or not any(c in TIME_COLS for c in cols):
        raise ParseError(f"{src} line {h + 1}: unrecognised DeepBench column header {lines[h].strip()[:100]!r}")
    prec_idx = cols.index("precision")
    tc = _tensor_cores(ctx)
    cond = None if tc is None else ("tensor_cores_on" if tc else "tensor_cores_off")
    time_cols = [(k, c, TIME_COLS[c]) for k, c in enumerate(cols) if c in TIME_COLS]
    flops_cols = [(k, c) for k, c in enumerate(cols) if FLOPS_COL_RE.search(c)]
    param_cols = [(k, "pad_kernels" if c == "pad_kerenels" else c) for k, c in enumerate(cols)
                  if c not in TIME_COLS and c != "precision" and not FLOPS_COL_RE.search(c)]
    meas: list[Measurement] = []
    j = h + 1
    precisions: set[str] = set()
    aborted = None
    rows = 0
    while j < len(lines):
        line = lines[j]
        s = line.strip()
        if RULE_RE.match(line) or not s:
            j += 1
            continue
        if RUNNING_RE.match(line) or ALLREDUCE_RE.match(line):
            break
        if s.startswith("Total kernels"):
            j += 1
            continue
        toks = s.split()
        first_is_data = bool(toks) and (is_number(toks[0]) if kind != "rnn"
                                        else (len(toks) > 1 and is_number(toks[1])))
        if not first_is_data:
            # anything else ends the table (a shell prompt, an error message)
            break
        if len(toks) == prec_idx + 1 and toks[prec_idx] in PRECISION:
            # configuration printed, timing never came: the benchmark aborted on this row
            nxt = next((ln for ln in lines[j + 1:] if ln.strip()), None)
            if nxt is not None and _looks_like_row(nxt, kind):
                raise ParseError(f"{src} line {j + 1}: row has no timing columns but more rows follow "
                                 f"(garbled): {s[:100]!r}")
            aborted = (j + 1, s)
            j += 1
            continue
        if len(toks) != len(cols):
            raise ParseError(f"{src} line {j + 1}: row has {len(toks)} fields, the header has {len(cols)} "
                             f"(truncated or garbled): {s[:100]!r}")
        prec_raw = toks[prec_idx]
        if prec_raw not in PRECISION:
            raise ParseError(f"{src} line {j + 1}: unknown precision {prec_raw!r}")
        precisions.add(prec_raw)
        params: dict = {"mode": mode, "kind": kind}
        for k, key in param_cols:
            v = toks[k]
            params[key] = _num(v) if is_number(v) else v
        where = f"{src} line {j + 1}"
        for k, c, phase in time_cols:
            v = toks[k]
            if not is_number(v):
                raise ParseError(f"{where}: {c} is not a number: {v!r}")
            p = dict(params, phase=phase) if phase else dict(params)
            meas.append(Measurement(
                metric="time", value=float(v), unit="us", operation=kind, condition=cond,
                precision=PRECISION[prec_raw], statistic="mean", app=APP[kind], library=LIBRARY[kind],
                params=p, orig_value=v, orig_unit="usec", source=where))
        for k, c in flops_cols:
            v = toks[k]
            if is_number(v):
                meas.append(Measurement(
                    metric="flops", value=float(v), unit="TFLOP/s", operation=kind, condition=cond,
                    precision=PRECISION[prec_raw], app=APP[kind], library=LIBRARY[kind], params=dict(params),
                    orig_value=v, orig_unit=c, source=where))
        rows += 1
        j += 1
    if aborted:
        warnings.append(f"line {aborted[0]}: {APP[kind]} printed the configuration {aborted[1]!r} but no "
                        f"time (the benchmark aborted there); row skipped")
    if rows == 0:
        warnings.append(f"{APP[kind]} {mode} table (line {h + 1}) has no result rows")
    run_params = {"mode": mode, "kind": kind, "rows": rows}
    if tc is not None:
        run_params["tensor_cores"] = tc
    prec = "_".join(sorted(precisions)) or _precision_from_name(ctx.path.name) or "unknown"
    exp = f"deepbench_{kind}_{mode}_{prec}" + ("" if tc is None else ("_tc" if tc else "_notc"))
    return Run(tool="DeepBench", system_id=sid, experiment=exp, params=run_params,
               source=f"{src} line {start}", measurements=meas), j


def _looks_like_row(line: str, kind: str) -> bool:
    toks = line.split()
    if not toks:
        return False
    return is_number(toks[0]) if kind != "rnn" else (len(toks) > 1 and is_number(toks[1]))


def _precision_from_name(name: str) -> Optional[str]:
    m = re.search(r"(float|half|int8|double)$", name)
    return m.group(1) if m else None


def _allreduce_table(ctx, lines, i, sid, warnings) -> tuple[Run, int]:
    src = ctx.source_name
    mpi = bool(ALLREDUCE_RE.match(lines[i]).group(1))
    app = "nccl_mpi_all_reduce" if mpi else "nccl_single_all_reduce"
    start = i + 1
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    m = RANKS_RE.match(lines[j]) if j < len(lines) else None
    if not m:
        raise ParseError(f"{src} line {j + 1}: expected 'Num Ranks: N' after the {app} banner")
    ranks = int(m.group(1))
    h, cols = _find_header(lines, j + 1, src, app)
    header = lines[h]
    expected = (["Avg Time (msec)", "Max Time (msec)"] if mpi else ["Time (msec)"])
    if "bytes transferred" not in header or not all(e in header for e in expected):
        raise ParseError(f"{src} line {h + 1}: unrecognised {app} column header {header.strip()!r}")
    ncols = 2 + len(expected)
    tc = _tensor_cores(ctx)
    meas: list[Measurement] = []
    rows = 0
    j = h + 1
    while j < len(lines):
        line = lines[j]
        s = line.strip()
        if not s or RULE_RE.match(line):
            j += 1
            continue
        toks = s.split()
        if not is_number(toks[0]):
            break  # end of table: crash report, prompt, next banner
        if len(toks) != ncols or not all(is_number(t) for t in toks):
            raise ParseError(f"{src} line {j + 1}: {app} row has {len(toks)} fields, expected {ncols} "
                             f"(truncated or garbled): {s[:100]!r}")
        floats, nbytes = int(toks[0]), int(toks[1])
        stats = [("mean", toks[2]), ("max", toks[3])] if mpi else [("mean", toks[2])]
        for stat, raw in stats:
            p = {"floats": floats, "ranks": ranks, "dtype": "float32", "redop": "sum",
                 "over": "ranks" if mpi else "iterations"}
            if tc is not None:
                p["tensor_cores_build"] = tc
            meas.append(Measurement(
                metric="time", value=scaled(raw, 1000), unit="us", operation="allreduce",
                msg_bytes=nbytes, count=ranks, count_kind="gpus", precision="fp32", statistic=stat,
                app=app, library="nccl", params=p, orig_value=raw, orig_unit="msec",
                source=f"{src} line {j + 1}"))
        rows += 1
        j += 1
    if rows == 0:
        tail = " ".join(ln.strip() for ln in lines[h + 1:h + 12] if ln.strip())[:160]
        warnings.append(f"{app} with {ranks} rank(s) printed no result rows"
                        + (f" (the program aborted: {tail!r})" if tail else ""))
    exp = f"deepbench_{'mpi' if mpi else 'single'}_allreduce_{ranks}gpu"
    return Run(tool="DeepBench", system_id=sid, experiment=exp,
               params={"ranks": ranks, "mpi": mpi, "rows": rows}, source=f"{src} line {start}",
               measurements=meas), j
