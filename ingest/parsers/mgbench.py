"""mgbench (tbennun/mgbench) Level-1 outputs: halfduplex, fullduplex, uva (DMA read/write, uni/bi)
and scatter (scatter/gather, ring broadcast); the l1-*.log files its run.sh writes.

Per transfer line (`Copying from host to GPU 0: 11537.07 MB/s (8.667000 ms)`,
`Exchanging between GPU 0 and GPU 1: ...`) two measurements:
- `bandwidth` in GB/s: mgbench's "MB/s" is MiB/s ((size/1024/1024)/(ms/1000)), so GB/s = MB/s x 1048576 / 1e9;
  orig_unit stays `MB/s`. For exchanges (bi-directional) mgbench divides ONE direction's bytes by the time
  of both concurrent copies, i.e. the value is per direction (params.bw_basis = `per_direction`).
- `time` in us: the mean wall time of one transfer over --repetitions (what the TUM thesis calls
  latency), statistic mean.
operation `h2d` / `d2h` / `p2p`; src/dst `host` or `gpuN`; direction `uni` (copies) or `bi` (exchanges);
condition `p2p_on`, or `p2p_off` for builds patched to skip cudaDeviceEnablePeerAccess (they print
`NOT_Enabling_peer-to-peer_access` or `NOT Enabling ...`). `No DMA` pairs (uva without peer access)
store nothing and are listed in run params.no_dma.

msg_bytes: mgbench prints the size only as `Data size: %.2f MB` (MiB, 2 decimals: 100 KB prints 0.10);
the byte count is floor(MiB x 1048576) when bandwidth x time (MiB/s printed to 0.01, ms to 1e-6) agrees
with it, else that estimate if it lies inside the rounding interval of the printed size.

uva read vs write: `Copying from GPU j to host` lines only exist with --write; otherwise the file name
decides (run.sh names l1-uvawhalf.log / l1-uvawfull.log), else read (the default) with
params.access_inferred. Several tests concatenated in one file give several runs. Rejected: a transfer
line without its value at the end of the file or a file ending mid-line (cut off), a title with no
result lines, files without an mgbench title.

No GPU model or host is printed: system from --system, folder names (DGX-1 V100 -> dgx1_v100, ...), a
shell prompt line naming the host (`user@node:~$ ./build/halfduplex`), else system_hints.resolve with the
GPU count (`node_8x_gpu`).
"""
from __future__ import annotations

import math
import re
from statistics import median
from typing import Optional

from ingest import system_hints
from ingest.parsers._table import read_lines, src
from ingest.records import Measurement, ParseError, ParseResult, Run
from ingest.registry import ParseContext, register

TITLES = [
    (re.compile(r"^Inter-GPU uni-directional memory transfer test"), "halfduplex"),
    (re.compile(r"^Inter-GPU bi-directional memory exc?hange test"), "fullduplex"),
    (re.compile(r"^Inter-GPU DMA (uni|bi)-directional exchange test"), "uva"),
    (re.compile(r"^Host-GPU memory scatter-gather test"), "scatter"),
]
VALUE = r"(?P<mbs>[\d.]+) MB/s \((?P<ms>[\d.]+) ms\)"
END = r"(?P<end>[A-Za-z0-9].*?)?\s*$"
COPY_RE = re.compile(r"^Copying from (?P<a>host|GPU (?P<ai>\d+)) to (?P<b>host|GPU (?P<bi>\d+)):\s*" + END)
EXCH_RE = re.compile(r"^Exchanging between (?P<a>host|GPU (?P<ai>\d+)) and (?P<b>host|GPU (?P<bi>\d+)):\s*" + END)
COLL_RE = re.compile(r"^(?P<op>Scatter|Gather|Broadcast) \((?P<what>[^)]*)\):\s*" + END)
VALUE_RE = re.compile(r"^" + VALUE + r"\s*$")
STATS_RE = re.compile(r"^Mean " + VALUE.replace("mbs", "mbs1").replace("ms>", "ms1>")
                      + r", Max " + VALUE.replace("mbs", "mbs2").replace("ms>", "ms2>") + r"\s*$")
RAW_RE = re.compile(r"^Raw:\s*(.*)$")
MIB = 1048576
PROMPT_RE = re.compile(r"^\[?[\w.-]+@([\w.-]+)[:\s\]].*\b(halfduplex|fullduplex|uva|scatter|run\.sh)\b")


def sniff(ctx: ParseContext) -> bool:
    h = ctx.head
    if not any(re.search(p.pattern, h, re.M) for p, _ in TITLES):
        return False
    return bool(re.search(r"^(Data size: [\d.]+ MB|Repetitions: \d+)", h, re.M))


def _dev(name: str, idx: Optional[str]) -> str:
    return "host" if name == "host" else f"gpu{idx}"


class _Block:
    def __init__(self, lineno: int, test: str, title: str):
        self.lineno, self.test, self.title = lineno, test, title
        self.bi = "bi-directional" in title
        self.p2p = True
        self.params: dict = {}
        self.gpus: Optional[int] = None
        self.size_mib: Optional[str] = None
        self.items: list[dict] = []  # transfers and collectives
        self.no_dma: list[str] = []
        self.host: Optional[str] = None


@register("mgbench", sniff, description="mgbench L1 halfduplex/fullduplex/uva/scatter logs", priority=30)
def parse(ctx: ParseContext) -> ParseResult:
    lines, ends_nl = read_lines(ctx)
    blocks: list[_Block] = []
    cur: Optional[_Block] = None
    pending: Optional[dict] = None  # collective line waiting for its Mean/Max or Raw line
    host = None
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        if (m := PROMPT_RE.match(s)):
            host = m.group(1)
            continue
        title = next((n for t, n in TITLES if t.match(s)), None)
        if title:
            cur = _Block(lineno, title, s)
            cur.host = host
            blocks.append(cur)
            pending = None
            continue
        if cur is None:
            continue
        if re.match(r"^NOT[ _]Enabling[ _]peer-to-peer[ _]access", s, re.I):
            cur.p2p = False
        elif (m := re.match(r"^GPUs:\s*(\d+)", s)):
            cur.gpus = int(m.group(1))
        elif (m := re.match(r"^Data size:\s*([\d.]+)\s*MB", s)):
            cur.size_mib = m.group(1)
        elif (m := re.match(r"^Repetitions:\s*(\d+)", s)):
            cur.params["repetitions"] = int(m.group(1))
        elif (m := re.match(r"^Data type size:\s*(\d+)", s)):
            cur.params["type_size"] = int(m.group(1))
        elif (m := re.match(r"^Block size:\s*(\d+)", s)):
            cur.params["block_size"] = int(m.group(1))
        elif (m := re.match(r"^Access type:\s*(\w+)", s)):
            cur.params["access_pattern"] = m.group(1).lower()
        elif (m := re.match(r"^Fragment size:\s*([\d.]+)\s*MB", s)):
            cur.params["fragment_mib"] = float(m.group(1))
        elif (m := re.match(r"^Fragments per transfer:\s*(\d+)", s)):
            cur.params["fragments"] = int(m.group(1))
        elif (m := COPY_RE.match(s)) or (m := EXCH_RE.match(s)):
            a, b = _dev(m.group("a"), m.group("ai")), _dev(m.group("b"), m.group("bi"))
            end = (m.group("end") or "").strip()
            exchange = s.startswith("Exchanging")
            if end == "No DMA":
                cur.no_dma.append(f"{a}-{b}")
                continue
            v = VALUE_RE.match(end)
            if v is None:
                if lineno == len(lines):
                    raise ParseError(f"line {lineno}: transfer line without its result at the end of the file "
                                     "(truncated)")
                raise ParseError(f"line {lineno}: unexpected result {end!r} (an mgbench error?)")
            if lineno == len(lines) and not ends_nl:
                raise ParseError(f"line {lineno}: file ends mid-line (truncated)")
            cur.items.append({"kind": "transfer", "a": a, "b": b, "bi": exchange, "mbs": v.group("mbs"),
                              "ms": v.group("ms"), "line": lineno})
        elif (m := COLL_RE.match(s)):
            what = m.group("what")
            root = re.search(r"(Host|GPU \d+)", what)
            rootname = "host" if root is None or root.group(1) == "Host" else "gpu" + root.group(1).split()[1]
            end = (m.group("end") or "").strip()
            pending = {"kind": "collective", "op": m.group("op").lower(), "root": rootname, "line": lineno}
            if (v := VALUE_RE.match(end)):  # ring broadcast: one value on the line
                pending.update(mbs=v.group("mbs"), ms=v.group("ms"))
                cur.items.append(pending)
                pending = None
            elif (v := STATS_RE.match(end)):
                pending.update(mbs=v.group("mbs1"), ms=v.group("ms1"), mbs_max=v.group("mbs2"), ms_min=v.group("ms2"))
                cur.items.append(pending)
            elif lineno == len(lines):
                raise ParseError(f"line {lineno}: {m.group('op')} line without its result (truncated)")
        elif (m := RAW_RE.match(s)) and pending is not None and cur.items and cur.items[-1] is pending:
            if lineno == len(lines) and not ends_nl:
                raise ParseError(f"line {lineno}: file ends mid-line (truncated)")
            pending["raw"] = [x.strip() for x in m.group(1).split(",") if x.strip()]
            pending["raw_line"] = lineno
            pending = None

    if not blocks:
        raise ParseError("no mgbench test title found")
    result = ParseResult()
    for b in blocks:
        if not b.items and not b.no_dma:
            raise ParseError(f"line {b.lineno}: mgbench '{b.title}' without any result (truncated?)")
        result.runs.append(_run(ctx, b, result))
    return result


def _size_bytes(b: _Block) -> Optional[int]:
    """Bytes per transfer: the printed MiB (2 decimals) refined by bandwidth x time of every line."""
    if b.size_mib is None:
        return None
    printed = float(b.size_mib)
    cand = math.floor(printed * MIB + 1e-6)  # sizes are set as bytes, e.g. uint64(0.1*1024*1024) = 104857
    est, unc = [], []
    for i in b.items:
        mbs, ms = float(i.get("mbs") or 0), float(i.get("ms") or 0)
        if mbs > 0 and ms > 0:
            e = mbs * ms * MIB / 1000.0
            est.append(e)
            unc.append(e * (0.005 / mbs + 5e-7 / ms))  # printing precision of MiB/s and ms
    if est:
        e, tol = median(est), 3 * median(unc) + 1
        if abs(e - cand) <= tol:
            return cand
        if (printed - 0.005) * MIB <= e <= (printed + 0.005) * MIB:
            return round(e)
    return cand


def _run(ctx: ParseContext, b: _Block, result: ParseResult) -> Run:
    name = ctx.source_name.lower()
    params = dict(b.params)
    params["test"] = b.test
    if b.size_mib is not None:
        params["data_size_printed"] = f"{b.size_mib} MB"
    if b.test == "uva":
        write_lines = any(i["kind"] == "transfer" and i["b"] == "host" for i in b.items)
        read_lines_ = any(i["kind"] == "transfer" and i["a"] == "host" for i in b.items)
        if write_lines:
            access = "write"
        elif read_lines_:
            access = "read"
        elif re.search(r"uvaw|write", name):
            access = "write"
        else:
            access, params["access_inferred"] = "read", True
        params["access"] = access
        experiment = f"mgbench_uva_dma_{access}_{'bi' if b.bi else 'uni'}"
    elif b.test == "scatter":
        experiment = "mgbench_scatter"
    else:
        experiment = f"mgbench_{b.test}_memcpy"
    if b.no_dma:
        params["no_dma"] = b.no_dma
    size = _size_bytes(b)
    n = b.gpus
    sid = system_hints.resolve(ctx.system_id, ctx.path, ["GPU"] * n if n else None, b.host)
    if sid.startswith("node_") and not ctx.system_id:
        msg = (f"{ctx.source_name}: mgbench names no machine; stored as system {sid!r} (use --system or keep "
               "the file in a folder named after the machine)")
        if msg not in result.warnings:
            result.warnings.append(msg)
    cond = "p2p_on" if b.p2p else "p2p_off"
    meas: list[Measurement] = []
    for it in b.items:
        source = src(ctx, it["line"])
        if it["kind"] == "transfer":
            a, bb, bi = it["a"], it["b"], it["bi"]
            op = "h2d" if a == "host" else ("d2h" if bb == "host" else "p2p")
            p = {"test": b.test}
            if bi:
                p["bw_basis"] = "per_direction"
            common = dict(operation=op, src=a, dst=bb, direction="bi" if bi else "uni", msg_bytes=size,
                          condition=cond, statistic="mean", source=source)
            meas.append(Measurement(metric="bandwidth", value=float(it["mbs"]) * MIB / 1e9, unit="GB/s",
                                    orig_value=it["mbs"], orig_unit="MB/s", params=dict(p),
                                    note="mgbench MB/s is MiB/s", **common))
            meas.append(Measurement(metric="time", value=float(it["ms"]) * 1000.0, unit="us",
                                    orig_value=it["ms"], orig_unit="ms", params=dict(p),
                                    note="mean wall time per transfer", **common))
        else:
            op, root = it["op"], it["root"]
            s_, d_ = (root, None) if op in ("scatter", "broadcast") else (None, root)
            common = dict(operation=op, src=s_, dst=d_, msg_bytes=size, count=n,
                          count_kind="gpus" if n else None, condition=cond, source=source)
            p = {"test": b.test}
            meas.append(Measurement(metric="bandwidth", value=float(it["mbs"]) * MIB / 1e9, unit="GB/s",
                                    statistic="mean", orig_value=it["mbs"], orig_unit="MB/s", params=dict(p),
                                    note="mgbench MB/s is MiB/s; mean over GPUs" if "mbs_max" in it else
                                    "mgbench MB/s is MiB/s", **common))
            meas.append(Measurement(metric="time", value=float(it["ms"]) * 1000.0, unit="us", statistic="mean",
                                    orig_value=it["ms"], orig_unit="ms", params=dict(p), **common))
            if "mbs_max" in it:
                meas.append(Measurement(metric="bandwidth", value=float(it["mbs_max"]) * MIB / 1e9, unit="GB/s",
                                        statistic="max", orig_value=it["mbs_max"], orig_unit="MB/s",
                                        params=dict(p), note="mgbench 'Max' = bandwidth of the fastest GPU",
                                        **common))
                meas.append(Measurement(metric="time", value=float(it["ms_min"]) * 1000.0, unit="us",
                                        statistic="min", orig_value=it["ms_min"], orig_unit="ms", params=dict(p),
                                        **common))
            for g, raw in enumerate(it.get("raw", [])):
                try:
                    v = float(raw)
                except ValueError:
                    continue
                gp = f"gpu{g}"
                meas.append(Measurement(
                    metric="time", value=v * 1000.0, unit="us", statistic="mean", operation=op,
                    src=s_ or gp, dst=d_ or gp, msg_bytes=size, condition=cond, orig_value=raw, orig_unit="ms",
                    params={"test": b.test, "per_gpu": True}, source=src(ctx, it["raw_line"])))
    return Run(tool="mgbench", system_id=sid, experiment=experiment, params=params, source=ctx.source_name,
               measurements=meas)
