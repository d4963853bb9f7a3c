"""nccl-tests (NVIDIA/nccl-tests) console output: all_reduce_perf, all_gather_perf, alltoall_perf,
broadcast_perf, reduce_perf, reduce_scatter_perf, sendrecv_perf, hypercube_perf, gather/scatter_perf,
and forks that keep the table (RCCL, MSCCL++).

One run per test block (a `nThread .. nGpus ..` header, or a bare table). Per table row and per half
(out-of-place / in-place, `condition` = `out_of_place` / `in_place`, params.in_place) it stores
`time` (us, statistic mean), `algbw` and `busbw` (GB/s); the `# Avg bus bandwidth` footer becomes one
`busbw` row with statistic `mean` and params.summary = true. `count` = number of ranks (one GPU each,
count_kind `gpus`): the `Rank` device lines, else nThread x nGpus. Size-0 rows keep their time only
(their bandwidths are 0 by construction).

Version differences tolerated (all seen in nccl-tests history 2017-2025):
- 2017: header `bytes N type op time algbw busbw res`, time in ms, footer without `#`;
- 2019-2022: `size count type redop [root] time algbw busbw error`, error = max delta (`2e-07`);
  broadcast prints `root` instead of `redop`; device lines `#   Rank  0 Pid  1320 on host device 0 [0x00] model`;
- 2022+: `#wrong` instead of `error`, `N/A` for unchecked halves, `root` on every test, device lines with
  `Group` and `[0000:07:00]` PCI ids, `# nccl-tests version X nccl-headers=.. nccl-library=..`,
  `# Collective test starting: all_reduce_perf`, optional `copybw` (side work), per-iteration columns
  (`i_min i_max i_p99 i_cv%`), a trailing timestamp, `cputime` instead of `time`;
- time printed with 2, 1 or 0 decimals or in e-notation as it grows; tabs or spaces; ANSI codes.
Rows whose out-of-place half is blank (trace replay) keep only the in-place half.

The collective comes from `Collective test starting`, else an echoed command line (`mpirun ...
./all_reduce_perf -b 8`), else the file name (all_reduce_perf.log, nccl_allgather_8gpu.txt ...) or
busbw/algbw against the nccl-tests bus factors plus the redop/root columns (the file name first for a
one-test file, the bus factor first for a log holding several tests); if still ambiguous the run is
stored with operation `unknown` and a warning.

Rejected (ParseError, nothing stored): no table, a row with missing columns, a table without its
`Avg bus bandwidth` footer (the output was cut off), a file ending mid-line.
"""
from __future__ import annotations

import re
from statistics import median
from typing import Optional

from ingest import system_hints
from ingest.parsers._table import is_int, num, precision_of, read_lines, src
from ingest.records import Component, Measurement, ParseError, ParseResult, Run, System
from ingest.registry import ParseContext, register

NTHREAD_RE = re.compile(r"nThread\s+(\d+)\s+nGpus\s+(\d+)\s+minBytes\s+(\d+)\s+maxBytes\s+(\d+)")
DEVICE_RE = re.compile(
    r"^#?\s*Rank\s+(\d+)(?:\s+Group\s+(\d+))?(?:\s+Pid\s+(\d+))?\s+on\s+(\S+)\s+device\s+(\d+)"
    r"\s+\[([^\]]*)\]\s*(.*?)\s*$")
TESTS_VERSION_RE = re.compile(r"#\s*nccl-tests version\s+(\S+)(?:\s+nccl-headers=(\d+))?(?:\s+nccl-library=(\d+))?")
COMPILED_RE = re.compile(r"NCCL Tests compiled with NCCL\s+(\S+)")
NCCL_VERSION_RE = re.compile(r"NCCL version\s+(\d+\.\d+(?:\.\d+)?\S*)")
COLL_RE = re.compile(r"#\s*Collective test starting:\s*(\S+)")
# a command line echoed before the output: mpirun ... ./build/all_reduce_perf -b 8 -e 8G
CMD_RE = re.compile(r"(?:^|[\s/])((?:all_reduce|all_gather|alltoallv?|broadcast|reduce_scatter|reduce|sendrecv|"
                    r"hypercube|gather|scatter)_perf(?:_mpi)?)\b")
AVG_RE = re.compile(r"^#?\s*Avg bus bandwidth\s*:\s*(\S+)")
OOB_RE = re.compile(r"^#?\s*Out of bounds values\s*:\s*(\d+)\s*(\S*)")

# Header names -> canonical
COL_ALIASES = {"bytes": "size", "n": "count", "op": "redop", "res": "wrong", "error": "wrong",
               "#wrong": "wrong", "cputime": "time", "sidebw": "copybw"}

# Ordered: longer / more specific names first.
OP_NAMES = [
    (r"reduce[_-]?scatter", "reduce_scatter"), (r"all[_-]?reduce", "allreduce"),
    (r"all[_-]?gather", "allgather"), (r"all[_-]?to[_-]?all[_-]?v", "alltoallv"),
    (r"all[_-]?to[_-]?all", "alltoall"), (r"broadcast|bcast", "broadcast"),
    (r"send[_-]?recv", "sendrecv"), (r"hyper[_-]?cube", "hypercube"), (r"gather", "gather"),
    (r"scatter", "scatter"), (r"reduce", "reduce"),
]


def sniff(ctx: ParseContext) -> bool:
    h = ctx.head
    if NTHREAD_RE.search(h) and ("busbw" in h or "Using devices" in h):
        return True
    return bool(re.search(r"^#.*\balgbw\b.*\bbusbw\b", h, re.M))


def op_from_name(name: str) -> Optional[str]:
    low = name.lower()
    for pat, op in OP_NAMES:
        if re.search(pat, low):
            return op
    return None


def _header_columns(line: str) -> tuple[list[str], list[list[str]], bool, bool]:
    """(prefix columns, groups of result columns, has timestamp, cputime) from a header line."""
    toks = line.lstrip("#").split()
    cputime = "cputime" in toks
    has_ts = toks[-1:] == ["timestamp"]
    if has_ts:
        toks = toks[:-1]
    names = [COL_ALIASES.get(t.lower(), t.lower()) for t in toks]
    if "time" not in names:
        raise ParseError("nccl-tests table header without a time column")
    first = names.index("time")
    prefix, rest = names[:first], names[first:]
    groups: list[list[str]] = []
    for n in rest:
        if n == "time":
            groups.append([])
        groups[-1].append(n)
    return prefix, groups, has_ts, cputime


class _Block:
    def __init__(self, lineno: int):
        self.lineno = lineno
        self.params: dict = {}
        self.devices: list[dict] = []
        self.program: Optional[str] = None
        self.tests_version: Optional[str] = None
        self.nccl_version: Optional[str] = None
        self.header: Optional[tuple] = None
        self.time_unit = "us"
        self.rows: list[tuple[int, dict, list[dict]]] = []  # lineno, prefix values, halves
        self.avg: Optional[tuple[int, str]] = None
        self.oob: Optional[int] = None
        self.library = "nccl"


def _parse_row(toks: list[str], prefix: list[str], groups: list[list[str]], has_ts: bool,
               lineno: int) -> tuple[dict, list[Optional[dict]]]:
    if has_ts and len(toks) >= 2 and re.match(r"\d{4}-\d{2}-\d{2}$", toks[-2]):
        toks = toks[:-2]
    need = len(prefix) + sum(len(g) for g in groups)
    halves: list[Optional[dict]]
    if len(toks) == need:
        pre, body = toks[:len(prefix)], toks[len(prefix):]
        halves = []
        for g in groups:
            halves.append(dict(zip(g, body[:len(g)])))
            body = body[len(g):]
    elif len(groups) == 2 and len(toks) == len(prefix) + len(groups[1]):
        pre = toks[:len(prefix)]
        halves = [None, dict(zip(groups[1], toks[len(prefix):]))]  # out-of-place left blank
    else:
        raise ParseError(f"line {lineno}: table row has {len(toks)} columns, header has {need} "
                         "(truncated or not nccl-tests output)")
    return dict(zip(prefix, pre)), halves


@register("nccl-tests", sniff, description="NVIDIA nccl-tests *_perf output (time/algbw/busbw per size)",
          priority=30)
def parse(ctx: ParseContext) -> ParseResult:
    lines, ends_nl = read_lines(ctx)
    blocks: list[_Block] = []
    cur: Optional[_Block] = None
    pending: dict = {}  # version lines that precede the nThread line
    in_table = False

    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        if (m := TESTS_VERSION_RE.search(s)):
            pending["tests_version"] = m.group(1)
            if m.group(3):
                pending["nccl_library"] = int(m.group(3))
            continue
        if (m := COLL_RE.search(s)):
            pending["program"] = m.group(1)
            continue
        if not s.startswith("#") and (m := CMD_RE.search(s)) and not in_table:
            pending.setdefault("program", m.group(1))
            continue
        if (m := NTHREAD_RE.search(s)):
            cur = _Block(lineno)
            blocks.append(cur)
            in_table = False
            cur.program = pending.pop("program", None)
            cur.tests_version = pending.pop("tests_version", None)
            lib = pending.pop("nccl_library", None)
            if lib:
                cur.nccl_version = f"{lib // 10000}.{lib // 100 % 100}.{lib % 100}" if lib >= 10000 \
                    else f"{lib // 1000}.{lib // 100 % 10}.{lib % 100}"
            p = cur.params
            p["nthread"], p["ngpus"] = int(m.group(1)), int(m.group(2))
            p["min_bytes"], p["max_bytes"] = int(m.group(3)), int(m.group(4))
            if (k := re.search(r"step:\s*(\d+)\((\w+)\)", s)):
                p["step_factor" if k.group(2) == "factor" else "step_bytes"] = int(k.group(1))
            for key, pat in (("warmup_iters", r"warmup iters:\s*(\d+)"), ("iters", r"(?<!warmup )(?<!agg )iters:\s*(\d+)"),
                             ("agg_iters", r"agg iters:\s*(\d+)"), ("validation", r"validation:\s*(\d+)"),
                             ("graph", r"graph:\s*(\d+)")):
                if (k := re.search(pat, s)):
                    p[key] = int(k.group(1))
            if "rccl" in ctx.head[:20000].lower():
                cur.library = "rccl"
            continue
        if (m := COMPILED_RE.search(s)) or (m := NCCL_VERSION_RE.search(s)):
            if cur is not None and not cur.nccl_version:
                cur.nccl_version = m.group(1)
            elif cur is None:
                pending.setdefault("nccl_version", m.group(1))
            continue
        if (m := DEVICE_RE.match(s)):
            if cur is None:
                cur = _Block(lineno)
                blocks.append(cur)
            rank, group, pid, host, dev, pci, model = m.groups()
            cur.devices.append({"rank": int(rank), "host": host, "device": int(dev), "pci": pci,
                                "model": model, "lineno": lineno})
            continue
        if s.startswith("#") and re.search(r"\bbusbw\b", s) and re.search(r"\b(size|bytes)\b", s):
            if cur is None or cur.header is not None:  # a bare table, or a second one: new block
                cur = _Block(lineno)
                blocks.append(cur)
            cur.header = _header_columns(s)
            if re.search(r"\bbytes\b", s) and re.search(r"\bres\b", s):
                cur.time_unit = "ms"  # 2017 format: deltaSec * 1e3
            in_table = True
            continue
        if s.startswith("#") and in_table and cur is not None and not cur.rows and "(B)" in s:
            cur.time_unit = "ms" if "(ms)" in s else "us"
            continue
        if (m := AVG_RE.match(s)):
            if cur is None or cur.header is None:
                raise ParseError(f"line {lineno}: 'Avg bus bandwidth' footer without a table")
            cur.avg = (lineno, m.group(1))
            in_table = False
            continue
        if (m := OOB_RE.match(s)):
            if cur is not None:
                cur.oob = int(m.group(1))
            continue
        if in_table and cur is not None and cur.header is not None:
            toks = s.split()
            if len(toks) >= 2 and is_int(toks[0]) and is_int(toks[1]):
                if lineno == len(lines) and not ends_nl:
                    raise ParseError(f"line {lineno}: file ends mid-row (truncated)")
                prefix, groups, has_ts, _ = cur.header
                pre, halves = _parse_row(toks, prefix, groups, has_ts, lineno)
                cur.rows.append((lineno, pre, halves))

    if pending.get("nccl_version"):
        for b in blocks:
            b.nccl_version = b.nccl_version or pending["nccl_version"]
    blocks = [b for b in blocks if b.header is not None or b.rows]
    if not blocks:
        raise ParseError("no nccl-tests result table found")
    result = ParseResult()
    for b in blocks:
        _finish(ctx, b, result, several=len(blocks) > 1)
    return result


def _ratio_op(b: _Block, n: int) -> Optional[str]:
    """Which collective printed this table, from busbw/algbw and the redop/root columns."""
    ratios = []
    for _, _, halves in b.rows:
        for h in halves:
            if h and (a := num(h.get("algbw", ""))) and (bb := num(h.get("busbw", ""))) is not None and a > 0.05:
                ratios.append(bb / a)
    if not ratios or n < 2:
        return None
    r = median(ratios)
    pre = b.rows[0][1]
    redop = pre.get("redop", "").lower()
    root = pre.get("root")
    rooted = root is not None and root.lstrip("-").isdigit() and int(root) >= 0
    close = lambda x: abs(r - x) <= 0.03 * max(x, 0.1)  # noqa: E731 (printed with 2 decimals)
    f_ar, f_ag = 2 * (n - 1) / n, (n - 1) / n
    if n > 2 and close(f_ar):
        return "allreduce"
    if close(f_ag) and n > 2 or (n == 2 and close(0.5)):
        if redop and redop != "none":
            return "reduce_scatter"
        if "redop" not in pre and "root" not in pre:
            return "allgather"  # 2019-2021 all_gather_perf was the only table without redop and root
        return None  # allgather and alltoall look alike
    if close(1.0):
        if rooted:
            return "reduce" if redop and redop != "none" else "broadcast"
        if n > 2 and redop and redop != "none":
            return "sendrecv"
    return None


def _finish(ctx: ParseContext, b: _Block, result: ParseResult, several: bool = False) -> None:
    where = f"block at line {b.lineno}"
    if not b.rows:
        raise ParseError(f"{where}: table header but no rows (truncated)")
    if b.avg is None:
        raise ParseError(f"{where}: no 'Avg bus bandwidth' footer after the table (output cut off)")
    n = len(b.devices) or (b.params.get("nthread", 1) * b.params.get("ngpus", 1))
    warnings = result.warnings

    op, inferred = None, False
    if b.program:
        op = op_from_name(b.program)
    if op is None:
        by_name = op_from_name(ctx.source_name) or op_from_name(ctx.path.name)
        by_ratio = _ratio_op(b, n)
        # one test per file: trust the file name; a log of several tests: each table's own bus factor
        op = (by_ratio or by_name) if several else (by_name or by_ratio)
        inferred = op is not None and op == by_ratio and op != by_name
        if by_name and by_ratio and by_name != by_ratio:
            warnings.append(f"{ctx.source_name} {where}: file name says {by_name}, the bus factor says {by_ratio}; "
                            f"stored as {op}")
        if op is None:
            op = "unknown"
            warnings.append(f"{ctx.source_name} {where}: cannot tell which collective this is; stored "
                            "as operation 'unknown' (name the file after the binary, e.g. all_reduce_perf.txt)")

    hosts = list(dict.fromkeys(d["host"] for d in b.devices))
    models = [d["model"] for d in b.devices]
    host = hosts[0] if len(hosts) == 1 else (f"{hosts[0]}_{len(hosts)}nodes" if hosts else None)
    sid = system_hints.resolve(ctx.system_id, ctx.path, models, host)
    if len(hosts) == 1 and not ctx.system_id and sid == "host_" + system_hints.slug(hosts[0]):
        result.systems.append(System(system_id=sid, name=hosts[0], aliases=[hosts[0]], kind="gpu_server",
                                     source=src(ctx, b.devices[0]["lineno"])))
    if len(hosts) == 1:
        for d in b.devices:
            attrs = {"model": d["model"], "pci_bus_id": d["pci"], "hostname": d["host"]}
            result.components.append(Component(
                system_id=sid, component_id=f"gpu{d['device']}", kind="gpu", label=d["model"] or None,
                attrs=attrs, source=src(ctx, d["lineno"])))
    elif len(hosts) > 1:
        warnings.append(f"{ctx.source_name} {where}: {len(hosts)} hosts; GPUs not stored as components")

    run_params = dict(b.params)
    run_params.update({"ranks": n, "hosts": hosts or None, "nccl_version": b.nccl_version,
                       "program": b.program, "out_of_bounds": b.oob, "operation_inferred": inferred or None})
    run_params = {k: v for k, v in run_params.items() if v is not None}
    meas: list[Measurement] = []
    prefix, groups, _, cputime = b.header
    conds = ["out_of_place", "in_place"] if len(groups) == 2 else ["out_of_place"] * len(groups)
    t_factor = 1000.0 if b.time_unit == "ms" else 1.0

    for lineno, pre, halves in b.rows:
        size = int(pre["size"])
        dtype = pre.get("type")
        base_params = {"dtype": dtype, "redop": pre.get("redop"), "root": _int_or(pre.get("root")),
                       "elements": _int_or(pre.get("count"))}
        for cond, h in zip(conds, halves):
            if h is None:
                continue
            params = {k: v for k, v in base_params.items() if v is not None}
            params["in_place"] = cond == "in_place"
            wrong = h.get("wrong")
            if wrong is not None and num(wrong) is not None:
                params["wrong"] = num(wrong) if "e" in wrong.lower() else int(num(wrong))
            if cputime:
                params["cputime"] = True
            common = dict(operation=op, msg_bytes=size, count=n, count_kind="gpus", condition=cond,
                          precision=precision_of(dtype), library=b.library, source=src(ctx, lineno))
            for col, raw in h.items():
                v = num(raw)
                if v is None or col == "wrong":
                    continue
                if col == "time":
                    meas.append(Measurement(metric="time", value=v * t_factor, unit="us", statistic="mean",
                                            orig_value=raw, orig_unit=b.time_unit, params=dict(params), **common))
                elif col in ("algbw", "busbw", "copybw"):
                    if size == 0:
                        continue
                    meas.append(Measurement(metric=col, value=v, unit="GB/s", statistic="mean",
                                            orig_value=raw, orig_unit="GB/s", params=dict(params), **common))
                elif col in ("i_min", "i_max", "i_p99"):
                    meas.append(Measurement(metric="time", value=v, unit="us", statistic=col[2:],
                                            orig_value=raw, orig_unit="us",
                                            params={**params, "per_iteration": True}, **common))
                elif col == "i_cv%":
                    meas.append(Measurement(metric="time_cv", value=v, unit="%", statistic="cv",
                                            orig_value=raw, orig_unit="%",
                                            params={**params, "per_iteration": True}, **common))

    avg_line, avg_raw = b.avg
    avg = num(avg_raw)
    if avg is not None:
        dtype = b.rows[0][1].get("type")
        meas.append(Measurement(
            metric="busbw", value=avg, unit="GB/s", operation=op, count=n, count_kind="gpus",
            statistic="mean", precision=precision_of(dtype), library=b.library, orig_value=avg_raw,
            orig_unit="GB/s", source=src(ctx, avg_line),
            params={"summary": True, "min_bytes": b.params.get("min_bytes"),
                    "max_bytes": b.params.get("max_bytes")},
            note="nccl-tests average of busbw over all rows, both halves"))
    result.runs.append(Run(tool="nccl-tests", tool_version=b.tests_version, system_id=sid,
                           experiment=f"{op}_{n}gpu", params=run_params, source=ctx.source_name,
                           measurements=meas))


def _int_or(tok: Optional[str]) -> Optional[int]:
    if tok is None:
        return None
    t = tok.strip()
    return int(t) if t.lstrip("-").isdigit() else None
