"""SHOC (Scalable HeterOgeneous Computing) driver.pl console output.

A file may hold several driver runs (people append them); each `driver.pl ... -d LIST` block becomes
one run whose device list says which GPUs took part.
"""
from __future__ import annotations

import re

from ingest import system_hints
from ingest.records import Measurement, ParseError, ParseResult, Run
from ingest.registry import ParseContext, open_text, register

RESULT_RE = re.compile(r"^\s*result for (\S+):\s+(\S+)\s+(\S+)\s*$")
DEVICE_RE = re.compile(r"^Device (\d+): '(.+)'\s*$")
DRIVER_RE = re.compile(r"driver\.pl(?P<args>.*)$")
BENCH_RE = re.compile(r"^Running benchmark (\S+)")

# SHOC unit -> (canonical unit, factor, metric)
UNITS = {
    "GB/sec": ("GB/s", 1.0, "bandwidth"), "GB/s": ("GB/s", 1.0, "bandwidth"),
    "GFLOPS": ("GFLOP/s", 1.0, "flops"), "GFlops": ("GFLOP/s", 1.0, "flops"),
    "Gflop/s": ("GFLOP/s", 1.0, "flops"), "GHash/s": ("GHash/s", 1.0, "throughput"),
    "Edges/s": ("edges/s", 1.0, "throughput"), "s": ("us", 1e6, "time"), "sec": ("us", 1e6, "time"),
    "ms": ("us", 1e3, "time"), "us": ("us", 1.0, "time"),
}

# Result names whose operation is a transfer rather than a kernel.
OPERATIONS = {"bspeed_download": "h2d", "bspeed_readback": "d2h"}


def sniff(ctx: ParseContext) -> bool:
    return "SHOC Benchmark Suite" in ctx.head or ("driver.pl" in ctx.head and "result for" in ctx.head)


def _precision(name: str) -> str | None:
    if re.search(r"(^|_)(dp|dgemm|maxdpflops)", name) or name.startswith("d") and "gemm" in name:
        return "fp64"
    if re.search(r"(^|_)(sp)(_|$)", name) or name.startswith(("sgemm", "maxsp")):
        return "fp32"
    return None


@register("shoc", sniff, description="SHOC driver.pl output (result for ...: value unit)", priority=40)
def parse(ctx: ParseContext) -> ParseResult:
    runs: list[Run] = []
    cur: dict | None = None
    bench = None

    def finish():
        if cur and cur["meas"]:
            devices = cur["devices"]
            sel = cur["selected"] or list(range(len(devices)))
            models = [devices[i] for i in sorted(devices)]
            sid = system_hints.resolve(ctx.system_id, ctx.path, models, cur.get("host"))
            params = {"devices": sel, "size_class": cur.get("size")}
            for m in cur["meas"]:
                m.count = len(sel)
                m.count_kind = "gpus"
                if len(sel) == 1:
                    m.src = f"gpu{sel[0]}"
            runs.append(Run(tool="SHOC", tool_version=cur.get("version"), system_id=sid,
                            experiment=f"shoc_{len(sel)}gpu_" + "-".join(map(str, sel)),
                            params=params, source=ctx.source_name, measurements=cur["meas"]))

    with open_text(ctx.path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if "Welcome To The SHOC Benchmark Suite" in line:
                finish()
                m = re.search(r"version (\S+)", line)
                cur = {"devices": {}, "selected": None, "meas": [], "version": m.group(1) if m else None}
                continue
            if cur is None:
                continue
            if line.startswith("Hostname:"):
                cur["host"] = line.split(":", 1)[1].strip()
            elif (m := DEVICE_RE.match(line)):
                cur["devices"][int(m.group(1))] = m.group(2)
            elif line.startswith("Specified") and "device IDs:" in line:
                cur["selected"] = [int(x) for x in line.split(":", 1)[1].split(",") if x.strip()]
            elif line.startswith("Using size class:"):
                cur["size"] = int(line.split(":")[1])
            elif (m := BENCH_RE.match(line)):
                bench = m.group(1)
            elif (m := RESULT_RE.match(line)):
                name, raw, unit = m.groups()
                try:
                    val = float(raw)
                except ValueError:
                    continue  # "BenchmarkError": the suite reports a failed kernel; no number
                if unit not in UNITS:
                    raise ParseError(f"line {lineno}: unknown SHOC unit {unit!r}")
                cu, factor, metric = UNITS[unit]
                pcie = name.endswith("_pcie")
                cur["meas"].append(Measurement(
                    metric=metric, value=val * factor, unit=cu, operation=OPERATIONS.get(name, name),
                    app=bench, precision=_precision(name), condition="with_pcie" if pcie else None,
                    orig_value=raw, orig_unit=unit, source=f"{ctx.source_name} line {lineno}",
                    params={"result": name}))
    finish()
    if not runs:
        raise ParseError("no SHOC results found (truncated or not a SHOC output)")
    return ParseResult(runs=runs)
