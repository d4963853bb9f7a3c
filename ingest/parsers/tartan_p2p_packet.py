"""Tartan `scale_up_p2p_packet` sweep (its result.txt, or the console echo of it).

For each message size (`===== <bytes> =====`, doubling from 1 B to 256 MiB) six GPU x GPU matrices:
Uni-/Bi- PCIe-/NVLink- Bandwidth (GB/s) and PCIe-/NVLink- Latency (us). "PCIe" means peer access
disabled (copies staged through the host), "NVLink" means peer access enabled. Per Tartan's source
every cell [i][j] is timed on GPU i for ``cudaMemcpyPeerAsync(dst=buf on GPU i, src=buf on GPU j)``:
the ROW is the DESTINATION, the column the source. Latency is the time per copy of the whole message
(100 copies averaged), so for large sizes it is a transfer time. Bandwidth is printed with two
decimals: cells printed as 0.00 (tiny messages) carry no information and are not stored.

Several sweeps may be pasted into one file (a size that does not grow starts a new run). Each size
block is self-contained: if the file ends inside the last block (a cut-off copy), the complete blocks
are loaded, the partial one is dropped and a warning says so; a cut anywhere else is an error.
"""
from __future__ import annotations

import re
from typing import Optional

from ingest import system_hints
from ingest.records import Measurement, ParseError, ParseResult, Run
from ingest.registry import ParseContext, register
from ingest.parsers._textutil import read_lines, read_matrix

SIZE_RE = re.compile(r"^\s*===== (\d+) =====\s*$")
SECTIONS = {
    "Uni-PCIe-Bandwidth": ("bandwidth", "uni", False),
    "Uni-NVLink-Bandwidth": ("bandwidth", "uni", True),
    "Bi-PCIe-Bandwidth": ("bandwidth", "bi", False),
    "Bi-NVLink-Bandwidth": ("bandwidth", "bi", True),
    "PCIe-Latency": ("latency", None, False),
    "NVLink-Latency": ("latency", None, True),
}


def sniff(ctx: ParseContext) -> bool:
    return (re.search(r"^\s*===== \d+ =====\s*$", ctx.head, re.M) is not None
            and re.search(r"^\s*(Uni|Bi)-(PCIe|NVLink)-Bandwidth\s*$", ctx.head, re.M) is not None)


@register("tartan_p2p_packet", sniff, priority=30,
          description="Tartan scale_up_p2p_packet: GPU x GPU bandwidth/latency matrices per message size")
def parse(ctx: ParseContext) -> ParseResult:
    src = ctx.source_name
    lines = read_lines(ctx)
    n_lines = len(lines)
    blocks: list[dict] = []  # {size, line, sections{name: Matrix}}
    cur: Optional[dict] = None
    dropped: Optional[str] = None
    i = 0
    while i < n_lines:
        line = lines[i]
        m = SIZE_RE.match(line)
        if m:
            cur = {"size": int(m.group(1)), "line": i + 1, "sections": {}}
            blocks.append(cur)
            i += 1
            continue
        name = line.strip()
        if name in SECTIONS:
            if cur is None:
                raise ParseError(f"{src} line {i + 1}: section {name!r} before any '===== size =====' line")
            if name in cur["sections"]:
                raise ParseError(f"{src} line {i + 1}: section {name!r} repeated within size {cur['size']}")
            try:
                mat, i = read_matrix(lines, i + 1, name, src)
            except ParseError as e:
                if _only_tail_left(lines, i + 1) and len(blocks) > 1:
                    dropped = f"{e}"
                    blocks.pop()
                    break
                raise
            cur["sections"][name] = mat
            continue
        i += 1

    if not blocks:
        raise ParseError(f"{src}: no Tartan packet-size blocks found")
    # a block missing sections is only acceptable as the very last thing in the file (cut-off copy)
    for bi, b in enumerate(blocks):
        missing = [s for s in SECTIONS if s not in b["sections"]]
        if missing:
            if bi == len(blocks) - 1 and bi > 0 and dropped is None and _only_tail_left(lines, _block_end(b)):
                dropped = f"size {b['size']} block lacks {', '.join(missing)}"
                blocks.pop()
                break
            raise ParseError(f"{src} line {b['line']}: size {b['size']} block is incomplete: missing "
                             f"{', '.join(missing)} (file truncated or garbled)")
    ns = {m.n for b in blocks for m in b["sections"].values()}
    if len(ns) != 1:
        raise ParseError(f"{src}: matrices of different sizes {sorted(ns)} in one file")
    n = ns.pop()

    result = ParseResult()
    sid = system_hints.resolve(ctx.system_id, ctx.path, None)
    if dropped:
        result.warnings.append(f"file ends inside its last size block ({dropped}); that block was dropped, "
                               f"the {len(blocks)} complete blocks before it were loaded")
    # split into sweeps: a size that does not grow starts a new sweep
    sweeps: list[list[dict]] = []
    for b in blocks:
        if not sweeps or b["size"] <= sweeps[-1][-1]["size"]:
            sweeps.append([])
        sweeps[-1].append(b)
    zeros = 0
    for k, sweep in enumerate(sweeps, 1):
        meas: list[Measurement] = []
        for b in sweep:
            size = b["size"]
            for name, mat in b["sections"].items():
                metric, direction, enabled = SECTIONS[name]
                for a in range(n):
                    for c in range(n):
                        raw = mat.cells[a][c]
                        val = float(raw)
                        if metric == "bandwidth" and val == 0.0:
                            zeros += 1
                            continue
                        p = {"section": name}
                        note = None
                        if a == c:
                            note = "diagonal: copy within one GPU"
                            if metric == "bandwidth":
                                note += "; Tartan counts read+write (2x bytes)"
                        if metric == "latency":
                            p["quantity"] = "time per copy of msg_bytes (mean of 100 copies)"
                        meas.append(Measurement(
                            metric=metric, value=val, unit="GB/s" if metric == "bandwidth" else "us",
                            operation="d2d" if a == c else "p2p", src=f"gpu{c}", dst=f"gpu{a}",
                            direction=direction, msg_bytes=size,
                            condition="p2p_on" if enabled else "p2p_off", statistic="mean",
                            app="scale_up_p2p_packet", params=p, orig_value=raw,
                            orig_unit="GB/s" if metric == "bandwidth" else "us", note=note,
                            source=f"{src} line {mat.row_line(a)}"))
        params = {"gpus": n, "sizes": [b["size"] for b in sweep], "suite": "Tartan scale_up_p2p_packet",
                  "orientation": "cell [row i][col j] = copy from GPU j into GPU i (row = destination)",
                  "modes": {"PCIe": "peer access disabled (p2p_off)", "NVLink": "peer access enabled (p2p_on)"}}
        if dropped and k == len(sweeps):
            params["truncated"] = True
        result.runs.append(Run(tool="Tartan", system_id=sid, experiment=f"tartan_p2p_packet_{n}gpu",
                               params=params, source=f"{src} line {sweep[0]['line']}", measurements=meas))
    if zeros:
        result.warnings.append(f"{zeros} bandwidth cells printed as 0.00 (below the 2-decimal resolution, "
                               f"tiny messages) were not stored")
    if len(sweeps) > 1:
        result.warnings.append(f"{len(sweeps)} sweeps in one file, loaded as separate runs")
    return result


def _only_tail_left(lines: list[str], i: int) -> bool:
    """True if nothing after line index i starts another block or section (the file just ends)."""
    for ln in lines[i:]:
        s = ln.strip()
        if SIZE_RE.match(ln) or s in SECTIONS:
            return False
    return True


def _block_end(b: dict) -> int:
    ends = [m.first_row_line - 1 + m.n for m in b["sections"].values()]
    return max(ends) if ends else b["line"]
