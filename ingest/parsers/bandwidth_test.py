"""CUDA samples `bandwidthTest` console output: quick, range and shmoo modes; pinned, pageable and
write-combined memory; host-to-device, device-to-host and device-to-device blocks; `--csv` lines.

One run per program start (`[CUDA Bandwidth Test] - Starting...`), one `bandwidth` measurement per table
row: operation `h2d` / `d2h` / `d2d`, src/dst `host` / `gpuN`, msg_bytes = transfer size, condition
`pinned` / `pageable` (none for d2d), params.mode (quick/range/shmoo), params.write_combined.

Units (both are in use, the header says which):
- CUDA >= 10 prints `Bandwidth(GB/s)`, computed as bytes x iterations / 1e9 / s: stored as is.
- CUDA <= 9 printed `Bandwidth(MB/s)`, computed as (1<<10) x bytes / (ms x (1<<20)), i.e. in units of
  1,024,000 B/s: GB/s = MB/s x 1.024e-3 (orig_value/orig_unit keep the printed number).
Device-to-device rows count read + write (bandwidthTest uses 2 x size), noted on the row.

Tolerates tabs or spaces in the table (the sample prints `size\\t\\t\\t[\\t]value`), the shmoo progress dots,
`Write-Combined Memory Writes are Enabled` glued to the header line, `--device=all` (cumulative over N
devices: count = N gpus), `--csv` lines. Rejected: a row cut off, a table at the end of the file with no
`Result =` line after it (output cut off), files without the banner or a table.
"""
from __future__ import annotations

import re
from typing import Optional

from ingest import system_hints
from ingest.parsers._table import read_lines, src
from ingest.records import Component, Measurement, ParseError, ParseResult, Run
from ingest.registry import ParseContext, register

BANNER_RE = re.compile(r"\[CUDA Bandwidth Test\] - Starting")
DEVICE_RE = re.compile(r"^\s*Device (\d+):\s*(.+?)\s*$")
KIND_RE = re.compile(r"^\s*(Host to Device|Device to Host|Device to Device) Bandwidth,\s*(\d+) Device\(s\)")
MEM_RE = re.compile(r"^\s*(PINNED|PAGEABLE) Memory Transfers")
HDR_RE = re.compile(r"Transfer Size \(Bytes\)\s*Bandwidth\s*\((GB|MB)/s\)")
ROW_RE = re.compile(r"^\s*(\d+)\s+([\d.]+(?:e[-+]?\d+)?)\s*$")
CSV_RE = re.compile(r"^bandwidthTest-(?P<cfg>[\w-]+),\s*Bandwidth\s*=\s*(?P<bw>[\d.]+)\s*(?P<unit>GB|MB)/s,\s*"
                    r"Time\s*=\s*(?P<t>[\d.e+-]+)\s*s,\s*Size\s*=\s*(?P<size>\d+)\s*bytes,\s*NumDevsUsed\s*=\s*(?P<n>\d+)")
RESULT_RE = re.compile(r"^\s*(?:Result\s*=\s*(PASS|FAIL|WAIVED)|(PASSED|FAILED))\b")
PROMPT_RE = re.compile(r"^\[?[\w.-]+@([\w.-]+)[:\s\]].*bandwidthTest")
OPS = {"Host to Device": "h2d", "Device to Host": "d2h", "Device to Device": "d2d"}
CSV_OPS = {"H2D": "h2d", "D2H": "d2h", "D2D": "d2d"}
OLD_MBS = 1.024e-3  # GB/s per printed "MB/s" of CUDA <= 9 bandwidthTest


def sniff(ctx: ParseContext) -> bool:
    h = ctx.head
    return bool(BANNER_RE.search(h)) or bool(HDR_RE.search(h)) or bool(
        re.search(r"^bandwidthTest-(H2D|D2H|D2D)", h, re.M))


class _Run:
    def __init__(self, lineno: int):
        self.lineno = lineno
        self.devices: dict[int, tuple[str, int]] = {}
        self.mode: Optional[str] = None
        self.result: Optional[str] = None
        self.rows: list[dict] = []
        self.cumulative = False
        self.host: Optional[str] = None


@register("cuda-bandwidthTest", sniff, description="CUDA samples bandwidthTest (quick/range/shmoo, pinned/pageable)",
          priority=30)
def parse(ctx: ParseContext) -> ParseResult:
    lines, ends_nl = read_lines(ctx)
    runs: list[_Run] = []
    cur: Optional[_Run] = None
    kind = mem = unit = None
    ndev = 1
    wc = False
    in_table = False
    table_open_at: Optional[int] = None  # line of the last row of a table not yet closed by a blank line
    host = None
    for lineno, line in enumerate(lines, 1):
        s = line.strip()
        if (m := PROMPT_RE.match(s)):
            host = m.group(1)
            continue
        if BANNER_RE.search(s):
            if cur is not None and table_open_at is not None and cur.result is None:
                raise ParseError(f"line {table_open_at}: table cut off before the next run")
            cur = _Run(lineno)
            cur.host = host
            runs.append(cur)
            kind = mem = unit = None
            in_table, table_open_at = False, None
            continue
        if not s:
            in_table, table_open_at = False, None
            continue
        if cur is None:
            if CSV_RE.match(s) or HDR_RE.search(s) or KIND_RE.match(s):
                cur = _Run(lineno)
                runs.append(cur)
            else:
                continue
        if (m := DEVICE_RE.match(line)) and not in_table:
            cur.devices[int(m.group(1))] = (m.group(2), lineno)
        elif re.match(r"^(Quick|Range|Shmoo) Mode$", s):
            cur.mode = s.split()[0].lower()
        elif "Cumulative Bandwidth" in s:
            cur.cumulative = True
        elif (m := KIND_RE.match(line)):
            kind, ndev = OPS[m.group(1)], int(m.group(2))
            mem, wc, in_table = None, False, False
        elif (m := MEM_RE.match(line)):
            mem = m.group(1).lower()
            wc = "Write-Combined" in s
            if (h := HDR_RE.search(s)):
                unit, in_table = h.group(1), True
        elif (h := HDR_RE.search(s)):
            wc = wc or "Write-Combined" in s
            unit, in_table = h.group(1), True
        elif "Write-Combined Memory Writes are Enabled" in s:
            wc = True
        elif in_table and (m := ROW_RE.match(line)):
            if kind is None:
                raise ParseError(f"line {lineno}: table row before a 'Host to Device ...' title")
            if lineno == len(lines) and not ends_nl:
                raise ParseError(f"line {lineno}: file ends mid-row (truncated)")
            cur.rows.append({"op": kind, "mem": mem, "wc": wc, "unit": unit, "ndev": ndev, "size": int(m.group(1)),
                             "raw": m.group(2), "line": lineno})
            table_open_at = lineno
        elif in_table and re.match(r"^\d+\s*$", s):
            raise ParseError(f"line {lineno}: table row without a bandwidth value (truncated)")
        elif (m := CSV_RE.match(s)):
            cfg = m.group("cfg").split("-")
            op = CSV_OPS.get(cfg[0])
            memc = cfg[1].lower().replace("paged", "pageable") if len(cfg) > 1 else None
            cur.rows.append({"op": op, "mem": memc, "wc": "WriteCombined" in cfg, "unit": m.group("unit"),
                             "ndev": int(m.group("n")), "size": int(m.group("size")), "raw": m.group("bw"),
                             "line": lineno, "time_s": m.group("t")})
        elif (m := RESULT_RE.match(s)):
            cur.result = m.group(1) or m.group(2)
            table_open_at = None
        elif re.fullmatch(r"\.+", s):
            continue  # shmoo progress dots
    if not runs or not any(r.rows for r in runs):
        raise ParseError("no bandwidthTest result table found")
    last = runs[-1]
    if table_open_at is not None and last.result is None:
        raise ParseError(f"line {table_open_at}: the last table is not closed and no 'Result =' line follows "
                         "(output cut off)")

    result = ParseResult()
    for r in runs:
        if not r.rows:
            raise ParseError(f"line {r.lineno}: bandwidthTest run without results (truncated?)")
        _finish(ctx, r, result)
    return result


def _finish(ctx: ParseContext, r: _Run, result: ParseResult) -> None:
    models = [r.devices[k][0] for k in sorted(r.devices)]
    sid = system_hints.resolve(ctx.system_id, ctx.path, models, r.host)
    if sid.startswith("node_") and not ctx.system_id:
        result.warnings.append(f"{ctx.source_name}: bandwidthTest names only the device(s) it ran on; stored as "
                               f"system {sid!r} (use --system to attach it to the machine)")
    single = len(r.devices) == 1 and not r.cumulative
    dev = f"gpu{next(iter(r.devices))}" if single else None
    for k in sorted(r.devices):
        model, line = r.devices[k]
        result.components.append(Component(system_id=sid, component_id=f"gpu{k}", kind="gpu", label=model,
                                           attrs={"model": model}, source=src(ctx, line)))
    if r.result and r.result not in ("PASS", "PASSED"):
        result.warnings.append(f"{ctx.source_name}: bandwidthTest reported Result = {r.result}")
    meas = []
    for row in r.rows:
        v = float(row["raw"])
        gbs = v * OLD_MBS if row["unit"] == "MB" else v
        op = row["op"]
        s_, d_ = {"h2d": ("host", dev), "d2h": (dev, "host"), "d2d": (dev, dev)}[op]
        params = {"mode": r.mode} if r.mode else {}
        if row["wc"]:
            params["write_combined"] = True
        if op == "d2d" and row["mem"]:
            params["memory"] = row["mem"]
        note = None
        if op == "d2d":
            note = "bandwidthTest counts read + write (2 x size) for device to device"
        if row["unit"] == "MB":
            note = "; ".join(x for x in (note, "printed MB/s = 1,024,000 B/s (CUDA <= 9 formula)") if x)
        n = row["ndev"]
        meas.append(Measurement(
            metric="bandwidth", value=gbs, unit="GB/s", operation=op, src=s_, dst=d_, direction="uni",
            msg_bytes=row["size"], count=n if n > 1 else None, count_kind="gpus" if n > 1 else None,
            condition=None if op == "d2d" else row["mem"], statistic="mean", orig_value=row["raw"],
            orig_unit=f"{row['unit']}/s", params=params, note=note, source=src(ctx, row["line"])))
    params = {k: v for k, v in {"mode": r.mode, "result": r.result, "devices": sorted(r.devices) or None,
                                "cumulative": r.cumulative or None}.items() if v is not None}
    result.runs.append(Run(tool="bandwidthTest", system_id=sid, experiment=f"bandwidthtest_{r.mode or 'csv'}",
                           params=params, source=ctx.source_name, measurements=meas))
