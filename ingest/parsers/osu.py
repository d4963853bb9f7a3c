"""OSU Micro-Benchmarks (OMB) console output, versions 2.x-7.x: point-to-point (osu_latency, osu_bw,
osu_bibw, osu_mbw_mr, osu_multi_lat, osu_latency_mt), collectives (osu_allreduce, osu_alltoall,
osu_bcast, osu_reduce, osu_allgather, ... and the non-blocking osu_i* variants), one-sided (osu_put_*,
osu_get_*, osu_acc_*), in host, CUDA, ROCm, OpenACC and managed-memory builds.

One run per benchmark block (a title line `# OSU MPI[-CUDA] <Name> Test v<ver>` or
`(Version x.y)`; files holding several blocks give several runs). Columns are recognised by name, so
the same code reads `# Size Latency (us)` (v2, whitespace collapsed or not), `# Size  Bandwidth (MB/s)`,
`# Size  Avg Latency(us)  Min Latency(us)  Max Latency(us)  Iterations` (collectives with -f),
`# Size  MB/s  Messages/s` (osu_mbw_mr), `Validation`, `P50 Tail Lat(us)`, `Transmit Size` and the
non-blocking overlap columns. Stored: latency (us; Avg/plain = statistic mean, Min/Max, Pnn tail),
bandwidth (MB/s in OMB is 10^6 B/s -> GB/s = MB/s / 1000), message_rate (msg/s), the non-blocking
phase times (metric time, params.phase) and overlap (%). Iterations, validation and datatype go to params.

Metadata lines tolerated anywhere in the block: `# Datatype: MPI_CHAR.` (before or after the column
header, varies by version), `# Send Buffer on DEVICE (D) and Receive Buffer on HOST (H)` (-> condition
`device_to_host` and params send_buffer/recv_buffer), `# [ pairs: 48 ] [ window size: 64 ]` (-> count =
2 x pairs ranks), `# Window creation: ...`, `# Synchronization: ...`, `# Number of ...: N`; mpirun noise
between rows is skipped. Rejected: a row with missing columns, a file ending mid-row, a block with a
header but no rows, files without an OSU title.

OMB prints neither host nor GPU, so the system comes from --system, a `hostname:` or shell-prompt line,
or the folder names (system_hints.resolve); otherwise `unknown_system` with a warning.
"""
from __future__ import annotations

import re
from typing import Optional

from ingest import system_hints
from ingest.parsers._table import read_lines, src
from ingest.records import Measurement, ParseError, ParseResult, Run
from ingest.registry import ParseContext, register

TITLE_RE = re.compile(r"^#?\s*OSU\s+(?P<name>.+?)\s+(?:v(?P<v>\d[\w.\-]*)|\(Version\s+(?P<v2>[^)]+)\))\s*$")
BUFFERS_RE = re.compile(r"Send Buffer on (\w+)(?: \(\w+\))? and Receive Buffer on (\w+)", re.I)
PAIRS_RE = re.compile(r"pairs:\s*(\d+)")
WINDOW_RE = re.compile(r"window size:\s*(\d+)")
META_RE = re.compile(r"^#\s*([A-Za-z][\w .\-]*?)\s*:\s*(.+?)\.?\s*$")
PROMPT_RE = re.compile(r"^\[?[\w.-]+@([\w.-]+)[:\s\]].*\bosu_")
HOST_RE = re.compile(r"^\s*(?:host(?:name)?|node)\s*[:=]\s*(\S+)\s*$", re.I)

# Column patterns, tried in this order at each position of the header.
COLUMNS = [
    ("transmit_size", r"Transmit\s+Size"), ("size", r"Size"),
    ("avg_lat", r"Avg\s+Latency\s*\(us\)"), ("min_lat", r"Min\s+Latency\s*\(us\)"),
    ("max_lat", r"Max\s+Latency\s*\(us\)"), ("lat", r"Latency\s*\(us\)"),
    ("tail_lat", r"P(?P<p1>\d+)\s+Tail\s+Lat\s*\(us\)"), ("tail_bw", r"P(?P<p2>\d+)\s+Tail\s+BW\s*\(MB/s\)"),
    ("bw", r"(?:Bi-)?Bandwidth\s*\(MB/s\)"), ("bw", r"MB/s"), ("msgrate", r"Messages/s"),
    ("iterations", r"Iterations"), ("validation", r"Validation"),
    ("overall", r"Overall\s*\(us\)"), ("compute", r"Compute\s*\(us\)"), ("init", r"Coll\.\s*Init\s*\(us\)"),
    ("test", r"MPI_Test\s*\(us\)"), ("wait", r"MPI_Wait\s*\(us\)"), ("pure", r"Pure\s+Comm\.\s*\(us\)"),
    ("min_comm", r"Min\s+Comm\.\s*\(us\)"), ("max_comm", r"Max\s+Comm\.\s*\(us\)"),
    ("overlap", r"Overlap\s*\(%\)"),
]
COL_RE = re.compile("|".join(f"(?P<c{i}>{pat})" for i, (_, pat) in enumerate(COLUMNS)))
PHASES = {"overall": "overall", "compute": "compute", "init": "init", "test": "mpi_test", "wait": "mpi_wait",
          "pure": "pure_comm", "min_comm": "pure_comm", "max_comm": "pure_comm"}

COLLECTIVES = [  # (pattern on the benchmark name, operation, binary stem)
    (r"allreduce", "allreduce", "allreduce"), (r"reduce[_ -]?scatter", "reduce_scatter", "reduce_scatter"),
    (r"reduce", "reduce", "reduce"), (r"allgatherv", "allgather", "allgatherv"),
    (r"allgather", "allgather", "allgather"), (r"all-?to-?allv", "alltoall", "alltoallv"),
    (r"all-?to-?allw", "alltoall", "alltoallw"), (r"all-?to-?all", "alltoall", "alltoall"),
    (r"broadcast|bcast", "broadcast", "bcast"), (r"gatherv", "gather", "gatherv"), (r"gather", "gather", "gather"),
    (r"scatterv", "scatter", "scatterv"), (r"scatter", "scatter", "scatter"), (r"barrier", "barrier", "barrier"),
    (r"f?collect", "allgather", "collect"),
]
ONE_SIDED = re.compile(r"^_?(Put|Get_accumulate|Get|Accumulate|Fetch_and_op|Compare_and_swap)\b", re.I)
DTYPE_PRECISION = {"MPI_FLOAT": "fp32", "MPI_DOUBLE": "fp64", "MPI_INT": "int32", "MPI_CHAR": None}


def sniff(ctx: ParseContext) -> bool:
    return bool(re.search(r"^#?\s*OSU\s+(MPI|OpenSHMEM|UPC|UPC\+\+|NCCL)", ctx.head, re.M)) and bool(
        re.search(r"^#\s*(Size|Avg Latency|Overall)", ctx.head, re.M))


def _columns(header: str, lineno: int) -> list[tuple[str, Optional[str]]]:
    text = header.lstrip("#")
    cols: list[tuple[str, Optional[str]]] = []
    pos = 0
    for m in COL_RE.finditer(text):
        gap = text[pos:m.start()].strip()
        if gap:  # an unknown column: keep its place so values stay aligned
            cols.extend((f"unknown:{g}", None) for g in re.split(r"\s{2,}", gap))
        idx, key = 0, None
        for gname, val in m.groupdict().items():
            if val is not None and gname.startswith("c"):
                idx = int(gname[1:])
                break
        name = COLUMNS[idx][0]
        if name in ("tail_lat", "tail_bw"):
            key = m.group("p1") or m.group("p2")
        cols.append((name, key))
        pos = m.end()
    tail = text[pos:].strip()
    if tail:
        cols.extend((f"unknown:{g}", None) for g in re.split(r"\s{2,}", tail))
    if not any(c[0] in ("lat", "avg_lat", "bw", "overall", "msgrate") for c in cols):
        raise ParseError(f"line {lineno}: OSU column header without a latency or bandwidth column")
    return cols


def _describe(name: str) -> dict:
    """Operation, direction, app and flags from the benchmark name in the title."""
    d: dict = {"accel": None, "params": {}}
    m = re.match(r"(MPI|OpenSHMEM|UPC\+\+|UPC|NCCL)(?:-(\w+(?:\s+MANAGED)?))?(.*)$", name, re.I)
    body = name
    if m:
        d["library"] = {"nccl": "nccl"}.get(m.group(1).lower(), m.group(1).lower())
        d["accel"] = m.group(2).lower().replace(" ", "_") if m.group(2) else None
        body = m.group(3).strip()
    else:
        d["library"] = "mpi"
    low = body.lower()
    nonblocking = "non-blocking" in low
    if nonblocking:
        d["params"]["nonblocking"] = True
    if (o := ONE_SIDED.match(body)):
        op = o.group(1).lower()
        d.update(operation=op, kind="one_sided", app=f"osu_{op}_" + ("bw" if "bandwidth" in low else "latency"))
        if "bi-directional" in low:
            d.update(direction="bi", app=f"osu_{op}_bibw")
        elif "bandwidth" in low:
            d["direction"] = "uni"
        return d
    for pat, op, stem in COLLECTIVES:
        if re.search(pat, low):
            d.update(operation=op, kind="collective", app="osu_" + ("i" if nonblocking else "") + stem)
            if stem != op.replace("broadcast", "bcast"):
                d["params"]["variant"] = stem
            return d
    d.update(operation="p2p", kind="pt2pt")
    if "multiple bandwidth" in low or "message rate" in low:
        d.update(app="osu_mbw_mr", direction="uni")
    elif "bi-directional" in low or "bidirectional" in low:
        d.update(app="osu_bibw", direction="bi")
    elif "bandwidth" in low:
        d.update(app="osu_bw", direction="uni")
    elif "multi-threaded" in low:
        d.update(app="osu_latency_mt")
    elif "multi" in low:
        d.update(app="osu_multi_lat")
    elif "latency" in low:
        d.update(app="osu_latency")
    else:
        d.update(app="osu_" + re.sub(r"[^a-z0-9]+", "_", low).strip("_"))
    return d


class _Block:
    def __init__(self, lineno: int, name: str, version: Optional[str]):
        self.lineno, self.name, self.version = lineno, name, version
        self.meta: dict = {}
        self.columns: Optional[list] = None
        self.header_line = 0
        self.rows: list[tuple[int, list[str]]] = []
        self.send = self.recv = None
        self.pairs: Optional[int] = None


@register("osu", sniff, description="OSU Micro-Benchmarks (osu_latency, osu_bw, osu_allreduce, ...) v2-v7",
          priority=30)
def parse(ctx: ParseContext) -> ParseResult:
    lines, ends_nl = read_lines(ctx)
    blocks: list[_Block] = []
    cur: Optional[_Block] = None
    hostname = None
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        if (m := PROMPT_RE.match(s)) or (m := HOST_RE.match(s)):
            hostname = hostname or m.group(1)
            continue
        if (m := TITLE_RE.match(s)):
            cur = _Block(lineno, m.group("name"), m.group("v") or m.group("v2"))
            blocks.append(cur)
            continue
        if cur is None:
            continue
        if s.startswith("#"):
            if (m := BUFFERS_RE.search(s)):
                cur.send, cur.recv = m.group(1).lower(), m.group(2).lower()
            elif "pairs:" in s or "window size:" in s:
                if (m := PAIRS_RE.search(s)):
                    cur.pairs = int(m.group(1))
                if (m := WINDOW_RE.search(s)):
                    cur.meta["window_size"] = int(m.group(1))
            elif re.match(r"^#\s*(Size\b|Avg Latency|Overall|Bandwidth|MB/s)", s):
                if cur.columns is not None and cur.rows:
                    raise ParseError(f"line {lineno}: second column header inside one OSU block")
                cur.columns = _columns(s, lineno)
                cur.header_line = lineno
            elif (m := META_RE.match(s)):
                key = re.sub(r"[^a-z0-9]+", "_", m.group(1).lower()).strip("_")
                val = m.group(2).strip()
                cur.meta[key] = int(val) if val.isdigit() else val
            continue
        if cur.columns is None:
            continue
        toks = s.split()
        has_size = cur.columns[0][0] == "size"
        first_ok = toks[0].isdigit() if has_size else re.fullmatch(r"-?[\d.]+(e[-+]?\d+)?", toks[0]) is not None
        if not first_ok:
            continue  # mpirun / UCX / driver noise between rows
        if lineno == len(lines) and not ends_nl:
            raise ParseError(f"line {lineno}: file ends mid-row (truncated; if the file is complete, "
                             "end it with a newline)")
        if len(toks) < len(cur.columns):
            raise ParseError(f"line {lineno}: row has {len(toks)} values, header has {len(cur.columns)} "
                             "columns (truncated?)")
        cur.rows.append((lineno, toks))

    if not blocks:
        raise ParseError("no OSU benchmark title line ('# OSU MPI ... Test vX')")
    sid = system_hints.resolve(ctx.system_id, ctx.path, None, hostname)
    result = ParseResult()
    if sid == "unknown_system":
        result.warnings.append(f"{ctx.source_name}: OSU output names no machine; stored as 'unknown_system' "
                               "(use --system)")
    for b in blocks:
        if b.columns is None:
            raise ParseError(f"line {b.lineno}: OSU block without a column header (truncated?)")
        if not b.rows:
            raise ParseError(f"line {b.lineno}: OSU block '{b.name}' has no result rows (truncated?)")
        result.runs.append(_run(ctx, b, sid))
    return result


def _run(ctx: ParseContext, b: _Block, sid: str) -> Run:
    d = _describe(b.name)
    dtype = b.meta.get("datatype")
    if isinstance(dtype, str):
        dtype = dtype.rstrip(".")
    params = {k: v for k, v in b.meta.items() if k != "datatype"}
    params.update(d["params"])
    if dtype:
        params["dtype"] = dtype
    condition = None
    if b.send and b.recv:
        params["send_buffer"], params["recv_buffer"] = b.send, b.recv
        condition = f"{b.send}_to_{b.recv}"
    elif d["accel"]:
        condition = "device_buffers"
    if d["accel"]:
        params["accel"] = d["accel"]
    count = 2 * b.pairs if b.pairs else None
    if b.pairs:
        params["pairs"] = b.pairs
    common = dict(operation=d["operation"], direction=d.get("direction"), condition=condition,
                  precision=DTYPE_PRECISION.get(dtype) if dtype else None, app=d.get("app"),
                  library=d["library"], count=count, count_kind="ranks" if count else None)
    meas: list[Measurement] = []
    cols = b.columns
    for lineno, toks in b.rows:
        vals = dict(zip(range(len(cols)), toks))
        size = int(toks[0]) if cols[0][0] == "size" else None
        row_params = dict(params)
        for i, (name, _) in enumerate(cols):
            if name == "iterations" and vals[i].isdigit():
                row_params["iterations"] = int(vals[i])
            elif name == "validation":
                row_params["validation"] = vals[i]
            elif name == "transmit_size" and vals[i].isdigit():
                row_params["transmit_size"] = int(vals[i])
        for i, (name, key) in enumerate(cols):
            raw = vals[i]
            try:
                v = float(raw)
            except ValueError:
                continue
            kw = dict(msg_bytes=size, orig_value=raw, source=src(ctx, lineno), params=dict(row_params), **common)
            if name in ("lat", "avg_lat", "min_lat", "max_lat", "tail_lat"):
                stat = {"min_lat": "min", "max_lat": "max"}.get(name, "mean")
                if name == "tail_lat":
                    stat = f"p{key}"
                meas.append(Measurement(metric="latency", value=v, unit="us", statistic=stat, orig_unit="us", **kw))
            elif name in ("bw", "tail_bw"):
                meas.append(Measurement(metric="bandwidth", value=v / 1000.0, unit="GB/s",
                                        statistic=f"p{key}" if name == "tail_bw" else "mean",
                                        orig_unit="MB/s", **kw))
            elif name == "msgrate":
                meas.append(Measurement(metric="message_rate", value=v, unit="msg/s", statistic="mean",
                                        orig_unit="Messages/s", **kw))
            elif name in PHASES:
                kw["params"]["phase"] = PHASES[name]
                stat = {"min_comm": "min", "max_comm": "max"}.get(name, "mean")
                meas.append(Measurement(metric="time", value=v, unit="us", statistic=stat, orig_unit="us", **kw))
            elif name == "overlap":
                meas.append(Measurement(metric="overlap", value=v, unit="%", statistic="mean", orig_unit="%", **kw))
    title = f"OSU {b.name}"
    return Run(tool="osu", tool_version=b.version, system_id=sid, experiment=d.get("app") or "osu",
               params={"title": title, **params}, source=ctx.source_name, measurements=meas)
