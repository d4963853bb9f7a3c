"""c3sr Scope (Comm|Scope, NCCL|Scope): Google Benchmark JSON files and console text.

Benchmark names look like ``Comm_Memcpy_GPUToHost/log2(N):8/manual_time``,
``Comm_Duplex_Memcpy_GPUGPUPeer/0/15/log2(N):30/manual_time``, ``Comm_UM_Latency_HostToGPU/0/log2(N):8``
or ``NCCL/ops/allReduce/log2(N):30/manual_time``. Each result gives a time (``real_time`` in
``time_unit``: the manually timed duration of one iteration, stored in us) and, for transfers, a
bandwidth (``bytes_per_second`` -> GB/s = 10^9 B/s; the console prints it in binary units, MB/s =
2^20 B/s, converted). msg_bytes is 2^K from ``log2(N):K`` (the ``bytes`` counter where there is none).

Endpoints: the name's ``XToY`` part gives the operation (GPUToHost -> d2h, HostToGPU/WCToGPU -> h2d,
GPUToGPU -> p2p; ``Duplex`` -> bidirectional) and the host memory kind (Host/Pageable -> pageable,
Pinned -> pinned, WC -> pinned_wc: write-combined pinned memory). GPU ids come from the counters
(``src_gpu``/``dst_gpu``, ``gpu0``/``gpu1``, ``cuda_id``), else the name's numeric arguments, else the
file name (``comm-memcpy-0-15-...``) or the console's ``-c=`` options: params.gpus_from says which.
Duplex bandwidth counts the bytes of both directions.

``Comm_UM_Latency_*`` (unified-memory page-fault latency): the ``log2(N)`` argument is really the
number of linked-list strides traversed (the ``strides`` counter); stored are the traversal time
and, derived, the time per stride (metric latency).

NCCL|Scope: the operation from the name (allReduce -> allreduce, reduceScatter -> reduce_scatter);
the number of GPUs from ``--ngpu`` (console) or, for JSON which does not record it, the folder
(``6GPU``) or file name (``nccl-reduce-6.json``). The ``avg``/``d0``..``d3`` counters (undocumented per-device
times) are kept in params. Benchmarks that failed (``error_occurred``, ``ERROR OCCURRED``) are skipped
with a warning.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Optional

from ingest import system_hints
from ingest.records import Measurement, ParseError, ParseResult, Run
from ingest.registry import ParseContext, open_text, register
from ingest.parsers._textutil import scaled

TIME_TO_US = {"ns": "0.001", "us": "1", "ms": "1000", "s": "1000000"}
BINARY = {"": 1, "k": 2**10, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40, "P": 2**50}
SI = {"": 1.0, "y": 1e-24, "z": 1e-21, "a": 1e-18, "f": 1e-15, "p": 1e-12, "n": 1e-9, "u": 1e-6, "\u00b5": 1e-6,
      "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18, "Z": 1e21, "Y": 1e24}
NAME_START = r"(?:Comm_[A-Za-z0-9_]+|NCCL/ops/[A-Za-z_]+)"
LINE_RE = re.compile(r"^(?P<name>" + NAME_START + r"(?:/\S*)?)\s+(?P<t>[\d.]+(?:[eE][-+]?\d+)?) (?P<tu>ns|us|ms|s)\s+"
                     r"(?P<c>[\d.]+(?:[eE][-+]?\d+)?) (?P<cu>ns|us|ms|s)\s+(?P<it>\d+)(?P<rest>(?:\s+\S+)*)\s*$")
ERROR_LINE_RE = re.compile(r"^(?P<name>" + NAME_START + r"\S*)\s+ERROR OCCURRED:\s*(?P<msg>.*)$")
BENCH_START_RE = re.compile(r"^" + NAME_START + r"\b")
RATE_RE = re.compile(r"^(?P<v>[\d.]+(?:[eE][-+]?\d+)?)(?P<p>[kKMGTP]?)B/s$")
COUNTER_RE = re.compile(r"^(?P<k>[A-Za-z_][A-Za-z0-9_]*)=(?P<v>[-+]?[\d.]+(?:[eE][-+]?\d+)?)(?P<p>[yzafpnu\u00b5mkMGTPEZY]?)$")
CMD_RE = re.compile(r"\./scope\b(?P<args>.*)$")
ENDPOINT = {"GPU": "gpu", "Device": "gpu", "Host": "pageable", "Pageable": "pageable", "Pinned": "pinned",
            "WC": "pinned_wc", "Managed": "managed", "CPU": "pageable"}


def sniff(ctx: ParseContext) -> bool:
    h = ctx.head
    if "traceEvents" in h[:4096]:
        return False
    if h.lstrip().startswith("{"):
        return ('"benchmarks"' in h and re.search(r'"name"\s*:\s*"' + NAME_START, h) is not None)
    return re.search(r"^" + NAME_START + r"/\S*\s+(\d[\d.]* (ns|us|ms|s)\s|ERROR OCCURRED)", h, re.M) is not None


@register("scope", sniff, priority=30,
          description="c3sr Scope / Comm|Scope / NCCL|Scope Google Benchmark JSON and console output")
def parse(ctx: ParseContext) -> ParseResult:
    with open_text(ctx.path) as f:
        text = f.read()
    if text.lstrip().startswith("{"):
        return _parse_json(ctx, text)
    return _parse_console(ctx, text)


# ----------------------------------------------------------------------------------------- names

def _camel_to_snake(s: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", s).lower()


def parse_name(name: str) -> dict:
    parts = name.split("/")
    if parts[0] == "NCCL" and len(parts) >= 3:
        base, rest = "/".join(parts[:3]), parts[3:]
    else:
        base, rest = parts[0], parts[1:]
    ints: list[int] = []
    named: dict[str, str] = {}
    manual = False
    for p in rest:
        if p == "manual_time":
            manual = True
        elif p.isdigit():
            ints.append(int(p))
        elif ":" in p:
            k, v = p.split(":", 1)
            named[k] = v
        elif p:
            named[p] = ""
    log2 = named.get("log2(N)")
    return {"base": base, "ints": ints, "named": named, "manual_time": manual,
            "log2": int(log2) if log2 is not None and log2.isdigit() else None}


def classify(base: str) -> dict:
    """What a Scope benchmark name means: operation, direction, host memory kind, endpoints."""
    info: dict[str, Any] = {"family": None, "operation": None, "direction": None, "condition": None,
                            "src_kind": None, "dst_kind": None, "latency": False, "um": False,
                            "library": None, "peer": False}
    if base.startswith("NCCL/ops/"):
        op = base.split("/")[2]
        info.update(family="nccl", operation=_camel_to_snake(op), library="nccl")
        return info
    core = base[len("Comm_"):] if base.startswith("Comm_") else base
    info["family"] = "comm"
    info["latency"] = "Latency" in core
    info["um"] = "UM_" in core or core.startswith("UM") or "managed" in core.lower()
    # peer access enabled: "GPUToGPUPeer", "GPUGPUPeer", "..._Peer" (not the API name "MemcpyPeer")
    info["peer"] = re.search(r"(?:GPUPeer|_Peer)(?:_|$)", core) is not None
    duplex = "Duplex" in core
    info["direction"] = "bi" if duplex else "uni"
    m = None
    for tok in reversed(core.split("_")):
        m = re.match(r"^(GPU|Host|Pinned|Pageable|WC|Device|CPU|Managed)(To|Wr|Rd)?"
                     r"(GPU|Host|Pinned|Pageable|WC|Device|CPU|Managed)(Peer)?$", tok)
        if m:
            break
    if m or "MemcpyPeer" in core:
        if m:
            a, verb, b = ENDPOINT[m.group(1)], m.group(2), ENDPOINT[m.group(3)]
        else:  # cudaMemcpyPeer(Async) benchmarks without an XToY part copy GPU -> GPU
            a, verb, b = "gpu", "To", "gpu"
        if verb == "Rd":  # "GPURdHost": the GPU reads host memory, data flows host -> GPU
            a, b = b, a
        info["src_kind"], info["dst_kind"] = a, b
        hosts = [k for k in (a, b) if k != "gpu"]
        if a == "gpu" and b == "gpu":
            info["operation"] = "p2p"
            if info["peer"]:
                info["condition"] = "p2p_on"
        elif a == "gpu":
            info["operation"] = "d2h"
        elif b == "gpu":
            info["operation"] = "h2d"
        else:
            info["operation"] = "h2h"
        if hosts and hosts[0] != "managed":
            info["condition"] = hosts[0]
    if info["um"]:
        info["condition"] = "unified_memory"
    return info


def _gpu_ids_from_file(path: Path) -> list[int]:
    m = re.search(r"(?:^|[-_])(\d+)-(\d+)(?:[-_.]|$)", path.name)
    if m:
        return [int(m.group(1)), int(m.group(2))]
    m = re.search(r"(?:^|[-_])(\d+)(?:[-_.]|$)", path.name)
    return [int(m.group(1))] if m else []


def _ngpu_from_path(path: Path) -> Optional[int]:
    for part in reversed(path.parts[:-1]):
        m = re.match(r"^(\d+)\s*-?\s*gpus?$", part, re.I)
        if m:
            return int(m.group(1))
    m = re.search(r"nccl-[a-z_]+-(\d+)(?:-[a-z]+)?$", path.stem, re.I)
    return int(m.group(1)) if m else None


# ------------------------------------------------------------------------------------ measurements

class _Builder:
    def __init__(self, ctx: ParseContext, fmt: str):
        self.ctx = ctx
        self.src = ctx.source_name
        self.fmt = fmt
        self.errors: list[str] = []
        self.unknown: set[str] = set()
        self.mismatch: list[str] = []

    def entry(self, *, name: str, real_time: str, time_unit: str, cpu_time: Optional[str], iterations: Optional[int],
              bps: Optional[float], bps_raw: Optional[str], bps_unit: Optional[str], counters: dict[str, float],
              where: str, gpu_hint: list[int], gpu_hint_from: Optional[str], ngpu: Optional[int],
              ngpu_from: Optional[str]) -> list[Measurement]:
        pn = parse_name(name)
        info = classify(pn["base"])
        if info["operation"] is None:
            self.unknown.add(pn["base"])
        if time_unit not in TIME_TO_US:
            raise ParseError(f"{where}: unknown time unit {time_unit!r}")
        params: dict[str, Any] = {"benchmark": pn["base"], "name": name}
        if iterations is not None:
            params["iterations"] = iterations
        if cpu_time is not None:
            params["cpu_time_us"] = scaled(cpu_time, TIME_TO_US[time_unit])
        if pn["manual_time"]:
            params["manual_time"] = True
        for k, v in pn["named"].items():
            if k != "log2(N)":
                params[k] = v
        params.update({k: (int(v) if float(v).is_integer() else v) for k, v in counters.items()
                       if k not in ("bytes",)})

        # message size
        msg_bytes = None
        if info["um"] and info["latency"]:
            if pn["log2"] is not None:
                params["arg"] = pn["log2"]
        elif pn["log2"] is not None:
            msg_bytes = 2 ** pn["log2"]
            if "bytes" in counters and self.fmt == "json" and int(counters["bytes"]) != msg_bytes:
                self.mismatch.append(f"{where}: bytes counter {counters['bytes']} != 2^{pn['log2']}")
                msg_bytes = int(counters["bytes"])
        elif "bytes" in counters:
            msg_bytes = int(round(counters["bytes"]))

        # endpoints
        src = dst = None
        count = count_kind = None
        if info["family"] == "nccl":
            if ngpu is not None:
                count, count_kind = ngpu, "gpus"
                params["gpus_from"] = ngpu_from
        else:
            src, dst = self._endpoints(info, pn, counters, gpu_hint, gpu_hint_from, params)

        common = dict(operation=info["operation"], src=src, dst=dst, msg_bytes=msg_bytes, count=count,
                      count_kind=count_kind, condition=info["condition"], statistic="mean",
                      app="Scope", library=info["library"], source=where)
        out: list[Measurement] = []
        t_us = scaled(real_time, TIME_TO_US[time_unit])
        if info["um"] and info["latency"]:
            direction = None
        else:
            direction = info["direction"]
        out.append(Measurement(metric="time", value=t_us, unit="us", direction=direction,
                               params=dict(params), orig_value=real_time, orig_unit=time_unit, **common))
        if info["um"] and info["latency"] and counters.get("strides"):
            strides = counters["strides"]
            out.append(Measurement(metric="latency", value=t_us / strides, unit="us", params=dict(params),
                                   orig_value=real_time, orig_unit=time_unit,
                                   note=f"derived: real_time / strides ({strides:g}): time per page-faulting access",
                                   **common))
        if bps is not None:
            p = dict(params)
            if info["direction"] == "bi":
                p["bytes_counted"] = "both directions"
            if self.fmt == "console":
                p["printed_rate_base"] = "binary: the console's MB/s and GB/s are 2^20 and 2^30 B/s"
            out.append(Measurement(metric="bandwidth", value=bps / 1e9, unit="GB/s", direction=direction,
                                   params=p, orig_value=bps_raw, orig_unit=bps_unit, **common))
        return out

    def _endpoints(self, info, pn, counters, gpu_hint, gpu_hint_from, params):
        sk, dk = info["src_kind"], info["dst_kind"]
        if sk is None:
            return None, None
        gpus: list[int] = []
        how = None
        if "src_gpu" in counters and "dst_gpu" in counters:
            gpus, how = [int(counters["src_gpu"]), int(counters["dst_gpu"])], "counters"
        elif "gpu0" in counters and "gpu1" in counters:
            gpus, how = [int(counters["gpu0"]), int(counters["gpu1"])], "counters"
        elif "cuda_id" in counters:
            gpus, how = [int(counters["cuda_id"])], "counters"
        n_gpu = [sk, dk].count("gpu")
        numa = None
        for k in ("numa_id", "numa", "src_numa", "dst_numa", "numa_node"):
            if k in counters:
                numa = int(counters[k])
        if len(gpus) < n_gpu:
            ints = pn["ints"]
            if n_gpu == 2 and len(ints) >= 2:
                gpus, how = ints[:2], "name arguments"
            elif n_gpu == 1 and len(ints) == 1:
                gpus, how = ints, "name arguments"
            elif n_gpu == 1 and len(ints) == 2:
                numa, gpus, how = ints[0], [ints[1]], "name arguments (numa, gpu)"
            elif len(gpu_hint) >= n_gpu:
                gpus, how = gpu_hint[:n_gpu], gpu_hint_from
        if len(gpus) < n_gpu:
            return None, None
        params["gpus_from"] = how
        host = "host" if numa is None else f"cpu{numa}"
        if numa is not None:
            params["numa_node"] = numa
        if n_gpu == 2:
            return f"gpu{gpus[0]}", f"gpu{gpus[1]}"
        g = f"gpu{gpus[0]}"
        if n_gpu == 1:
            return (g, host) if sk == "gpu" else (host, g)
        return host, host

    def finish(self, result: ParseResult) -> None:
        if self.errors:
            result.warnings.append(f"{len(self.errors)} benchmark(s) reported an error and were skipped "
                                   f"(first: {self.errors[0]})")
        if self.unknown:
            result.warnings.append("unrecognised Scope benchmark name(s), stored without operation: "
                                   + ", ".join(sorted(self.unknown)))
        if self.mismatch:
            result.warnings.append(f"{len(self.mismatch)} size mismatch(es): {self.mismatch[0]}")


def _experiment(meas: list[Measurement], ngpu: Optional[int]) -> str:
    bases = {m.params.get("benchmark", "") for m in meas}
    if any(b.startswith("NCCL/") for b in bases):
        ops = sorted({m.operation for m in meas if m.operation})
        return "scope_nccl_" + "_".join(ops) + (f"_{ngpu}gpu" if ngpu else "")
    if any("Latency" in b for b in bases):
        return "scope_comm_latency"
    return "scope_comm_memcpy" if bases else "scope"


# ------------------------------------------------------------------------------------------- JSON

def _parse_json(ctx: ParseContext, text: str) -> ParseResult:
    src = ctx.source_name
    try:
        doc = json.loads(text, parse_float=str, parse_int=str)
    except json.JSONDecodeError as e:
        raise ParseError(f"{src}: invalid or truncated JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        raise ParseError(f"{src}: not a Google Benchmark JSON file (no 'benchmarks' list)")
    benches = doc["benchmarks"]
    if not benches:
        raise ParseError(f"{src}: Google Benchmark JSON with no benchmarks")
    if not all(isinstance(b, dict) and isinstance(b.get("name"), str) for b in benches):
        raise ParseError(f"{src}: malformed 'benchmarks' entries")
    if not any(re.match(NAME_START, b["name"]) for b in benches):
        raise ParseError(f"{src}: Google Benchmark JSON without Scope (Comm_/NCCL) benchmarks")
    # line numbers of each entry, for citations
    name_lines: dict[int, int] = {}
    pos, line_no = 0, 1
    for k, b in enumerate(benches):
        idx = text.find(json.dumps(b["name"]), pos)
        if idx >= 0:
            line_no += text.count("\n", pos, idx)
            name_lines[k] = line_no
            pos = idx
    ctxd = doc.get("context") if isinstance(doc.get("context"), dict) else {}
    b = _Builder(ctx, "json")
    gpu_hint = _gpu_ids_from_file(ctx.path)
    ngpu = _ngpu_from_path(ctx.path)
    meas: list[Measurement] = []
    for k, e in enumerate(benches):
        where = f"{src} line {name_lines[k]}" if k in name_lines else f"{src} benchmarks[{k}]"
        if str(e.get("error_occurred", "false")).lower() == "true":
            b.errors.append(f"{e['name']}: {e.get('error_message', '')}")
            continue
        if "real_time" not in e or "time_unit" not in e:
            raise ParseError(f"{where}: benchmark {e['name']!r} lacks real_time/time_unit")
        if e.get("run_type") == "aggregate" and e.get("aggregate_name") not in (None, "mean"):
            continue  # keep only the mean of repeated runs
        counters: dict[str, float] = {}
        for key, v in e.items():
            if key in ("name", "run_name", "run_type", "iterations", "real_time", "cpu_time", "time_unit",
                       "bytes_per_second", "items_per_second", "error_occurred", "error_message", "label",
                       "family_index", "per_family_instance_index", "repetitions", "repetition_index",
                       "threads", "aggregate_name", "aggregate_unit"):
                continue
            try:
                counters[key] = float(v)
            except (TypeError, ValueError):
                continue
        bps_raw = e.get("bytes_per_second")
        meas.extend(b.entry(
            name=e["name"], real_time=str(e["real_time"]), time_unit=str(e["time_unit"]),
            cpu_time=str(e["cpu_time"]) if "cpu_time" in e else None,
            iterations=int(e["iterations"]) if "iterations" in e else None,
            bps=float(bps_raw) if bps_raw is not None else None, bps_raw=bps_raw,
            bps_unit="B/s" if bps_raw is not None else None, counters=counters, where=where,
            gpu_hint=gpu_hint, gpu_hint_from="file name", ngpu=ngpu, ngpu_from="path"))
    result = ParseResult()
    b.finish(result)
    nccl = any(m.library == "nccl" for m in meas) or any("NCCL" in e for e in b.errors)
    if nccl and ngpu is None:
        result.warnings.append("NCCL|Scope JSON does not record the number of GPUs and the path does not say it")
    if any(m.params.get("gpus_from") == "file name" for m in meas):
        result.warnings.append("GPU ids taken from the file name (the JSON does not record them)")
    params = {"format": "google-benchmark-json"}
    for key in ("date", "executable", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled", "library_build_type"):
        if key in ctxd:
            v = ctxd[key]
            params[key] = int(v) if isinstance(v, str) and v.isdigit() else v
    if nccl and ngpu:
        params["ngpu"] = ngpu
    sid = system_hints.resolve(ctx.system_id, ctx.path, None)
    result.runs.append(Run(tool="Scope", system_id=sid, experiment=_experiment(meas, ngpu if nccl else None),
                           params=params, source=src, measurements=meas))
    return result


# ---------------------------------------------------------------------------------------- console

def _parse_console(ctx: ParseContext, text: str) -> ParseResult:
    src = ctx.source_name
    lines = text.splitlines()
    b = _Builder(ctx, "console")
    file_hint = _gpu_ids_from_file(ctx.path)
    path_ngpu = _ngpu_from_path(ctx.path)
    runs: list[dict] = []
    cur: Optional[dict] = None
    shapes: dict[str, tuple] = {}

    def new_run(line_no: int, args: str = "") -> dict:
        r = {"line": line_no, "args": args.strip(), "meas": [], "c": [], "ngpu": None, "filter": None}
        for m in re.finditer(r"(?:^|\s)-c[= ](\d+)", args):
            r["c"].append(int(m.group(1)))
        m = re.search(r"--ngpu[= ](\d+)", args)
        if m:
            r["ngpu"] = int(m.group(1))
        m = re.search(r"--benchmark_filter=(\S+)", args)
        if m:
            r["filter"] = m.group(1)
        runs.append(r)
        return r

    for n, line in enumerate(lines, 1):
        s = line.rstrip()
        mc = CMD_RE.search(s)
        if mc and ("--" in mc.group("args") or "-c" in mc.group("args") or s.startswith(("#", "$"))
                   or re.search(r"[#$]\s*\./scope", s)):
            cur = new_run(n, mc.group("args"))
            continue
        if s.startswith("Running ") and cur is not None and cur["meas"]:
            cur = new_run(n)
            continue
        me = ERROR_LINE_RE.match(s)
        if me:
            if cur is None:
                cur = new_run(n)
            b.errors.append(f"{me.group('name')}: {me.group('msg')}")
            cur["errors"] = cur.get("errors", 0) + 1
            continue
        if not BENCH_START_RE.match(s):
            continue
        m = LINE_RE.match(s)
        if not m:
            raise ParseError(f"{src} line {n}: incomplete or garbled benchmark line (truncated?): {s[:120]!r}")
        if cur is None:
            cur = new_run(n)
        counters: dict[str, float] = {}
        bps = bps_raw = bps_unit = None
        for tok in m.group("rest").split():
            mr = RATE_RE.match(tok)
            if mr:
                bps_raw, bps_unit = mr.group("v"), f"{mr.group('p')}B/s"
                bps = float(mr.group("v")) * BINARY[mr.group("p")]
                continue
            mk = COUNTER_RE.match(tok)
            if mk:
                counters[mk.group("k")] = float(mk.group("v")) * SI[mk.group("p")]
                continue
            if tok.endswith("/s"):  # items_per_second etc.: not a transfer rate
                continue
            raise ParseError(f"{src} line {n}: unexpected field {tok!r} in benchmark line")
        if "bytes" in counters and bps is None:
            raise ParseError(f"{src} line {n}: benchmark line without its bytes/s rate (truncated?)")
        # every line of one benchmark prints the same counters: fewer means a cut-off line
        shape = (frozenset(counters), bps is not None)
        base = parse_name(m.group("name"))["base"]
        seen = shapes.setdefault(base, shape)
        if not (shape[0] >= seen[0] and shape[1] >= seen[1]):
            raise ParseError(f"{src} line {n}: benchmark line has fewer fields than the earlier lines of "
                             f"{base} (truncated?): {s[:120]!r}")
        hint, hint_from = (cur["c"], "console -c options") if cur["c"] else (file_hint, "file name")
        ngpu, ngpu_from = (cur["ngpu"], "--ngpu") if cur["ngpu"] else (path_ngpu, "path")
        cur["meas"].extend(b.entry(
            name=m.group("name"), real_time=m.group("t"), time_unit=m.group("tu"), cpu_time=None,
            iterations=int(m.group("it")), bps=bps, bps_raw=bps_raw, bps_unit=bps_unit, counters=counters,
            where=f"{src} line {n}", gpu_hint=hint, gpu_hint_from=hint_from, ngpu=ngpu, ngpu_from=ngpu_from))
    runs = [r for r in runs if r["meas"] or r.get("errors")]
    if not runs:
        raise ParseError(f"{src}: no Scope benchmark results found")
    result = ParseResult()
    b.finish(result)
    sid = system_hints.resolve(ctx.system_id, ctx.path, None)
    for r in runs:
        params: dict[str, Any] = {"format": "google-benchmark-console"}
        if r["args"]:
            params["command"] = "./scope" + (" " + r["args"] if r["args"] else "")
        if r["c"]:
            params["cuda_devices"] = r["c"]
        if r["filter"]:
            params["benchmark_filter"] = r["filter"]
        nccl = any(m.library == "nccl" for m in r["meas"])
        ngpu = r["ngpu"] or (path_ngpu if nccl else None)
        if nccl:
            params["ngpu"] = ngpu
            if ngpu is None:
                result.warnings.append(f"run at line {r['line']}: number of GPUs unknown (no --ngpu, no path hint)")
        if not r["meas"]:
            result.warnings.append(f"run at line {r['line']}: every benchmark failed; no results")
        result.runs.append(Run(tool="Scope", system_id=sid, experiment=_experiment(r["meas"], ngpu),
                               params=params, source=f"{src} line {r['line']}", measurements=r["meas"]))
    return result
