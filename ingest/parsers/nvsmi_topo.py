"""`nvidia-smi topo -m` (and `-mp`) connectivity matrix: components and links, no measurements.

Model (what each matrix cell becomes; one Link per unordered device pair, `note` = the matrix code
exactly as printed (`NV18`, `PIX`, `SYS`, ...), bandwidth left empty because the matrix does not say
which NVLink/PCIe generation it is):
- `NV#`  -> link_type `NVLink`, count = # (a bonded set of # NVLinks; generation unknown here, so the
  type is the generic `NVLink`, not NVLink1..4);
- `PIX`  -> `Other`: at most one PCIe bridge between the two (same PCIe switch);
- `PXB`  -> `Other`: several PCIe bridges, without the host bridge;
- `PHB`  -> `Other`: through a PCIe host bridge (the CPU root complex);
- `NODE` -> `Other`: between PCIe host bridges of the same NUMA node (stays in one socket/NUMA node);
- `SYS`  -> `Other`: crosses the SMP interconnect between NUMA nodes (QPI/UPI, Infinity Fabric, X-Bus);
- `SOC`  -> as SYS (the name old drivers used).
`X` (self) is skipped. GPUs become `gpuN` with attrs cpu_affinity, numa_node, gpu_numa_id and `cpu`
(the cpu component of their NUMA node); NICs become `nicN` (N from `NICn`, else from the trailing number
of `mlx5_N`, else column order) with attrs.device = the name the NIC Legend / header gives; each NUMA
node seen in `NUMA Affinity` becomes `cpuN` (N = NUMA node id; a socket may hold several nodes). Old
drivers without a NUMA column: one `cpuK` per distinct CPU-affinity set, in order of appearance.

Tolerates tabs or runs of spaces, ANSI underline codes, the empty cell before `GPU NUMA ID`, old
`mlx5_N` column names, `SOC`, `-mp` (PCIe-only) matrices. Rejects `topo -p2p` matrices (OK/NS cells),
a matrix cut off (fewer rows than columns, short rows) and files without a matrix.

System: ctx.system_id, else the host of a shell prompt line (`root@node:~# nvidia-smi topo -m`) or a
`hostname:` line, else system_hints.resolve with the GPU count
(the matrix names no GPU model), e.g. `node_8x_gpu`; pass --system to attach it to a known machine.
"""
from __future__ import annotations

import re
from typing import Optional

from ingest import system_hints
from ingest.parsers._table import read_lines, src
from ingest.records import Component, Link, ParseError, ParseResult
from ingest.registry import ParseContext, register

CODE_RE = re.compile(r"^(X|NV\d+|PIX|PXB|PHB|NODE|SYS|SOC)$")
ROW0_RE = re.compile(r"^\s*(?:\x1b\[[0-9;]*m)?GPU0\s+X\b", re.M)
HOST_RE = re.compile(r"^\s*(?:host(?:name)?|node)\s*[:=]\s*(\S+)\s*$", re.I)
PROMPT_RE = re.compile(r"^\[?[\w.-]+@([\w.-]+)[:\s\]].*nvidia-smi\s+topo")
NIC_LEGEND_RE = re.compile(r"^\s*(NIC\d+)\s*:\s*(\S+)\s*$")

EXTRA_COLS = {"CPU Affinity": "cpu_affinity", "NUMA Affinity": "numa_affinity", "GPU NUMA ID": "gpu_numa_id"}


def sniff(ctx: ParseContext) -> bool:
    h = ctx.head
    if not ROW0_RE.search(h):
        return False
    if re.search(r"^\s*(OK|CNS|GNS|TNS|NS)\s*=", h, re.M):
        return False  # topo -p2p legend
    return "CPU Affinity" in h or "= Connection traversing" in h or bool(
        re.search(r"^\s*GPU0\s+X\s+(NV\d+|PIX|PXB|PHB|NODE|SYS|SOC)\b", h, re.M))


def _header_tokens(line: str) -> list[str]:
    toks = line.split()
    out: list[str] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t == "CPU" and toks[i + 1:i + 2] == ["Affinity"]:
            out.append("CPU Affinity"); i += 2; continue  # noqa: E702
        if t == "NUMA" and toks[i + 1:i + 2] == ["Affinity"]:
            out.append("NUMA Affinity"); i += 2; continue  # noqa: E702
        if t == "GPU" and toks[i + 1:i + 3] == ["NUMA", "ID"]:
            out.append("GPU NUMA ID"); i += 3; continue  # noqa: E702
        out.append(t)
        i += 1
    return out


def _int(tok: Optional[str]) -> Optional[int]:
    return int(tok) if tok is not None and tok.isdigit() else None


@register("nvidia-smi-topo", sniff, description="nvidia-smi topo -m / -mp connectivity matrix (components, links)",
          priority=30)
def parse(ctx: ParseContext) -> ParseResult:
    lines, _ = read_lines(ctx)
    hostname = None
    hdr_idx = None
    for i, line in enumerate(lines):
        if (m := HOST_RE.match(line)) or (m := PROMPT_RE.match(line)):
            hostname = m.group(1)
        toks = line.split()
        if toks[:1] == ["GPU0"] and toks[1:2] != ["X"]:
            nxt = next((l.split() for l in lines[i + 1:] if l.strip()), [])
            if nxt[:2] == ["GPU0", "X"]:
                hdr_idx = i
                break
    if hdr_idx is None:
        raise ParseError("no nvidia-smi topo matrix (header row with GPU0 followed by a GPU0 row)")

    header = _header_tokens(lines[hdr_idx])
    devices: list[str] = []
    extras: list[str] = []
    for t in header:
        if t in EXTRA_COLS:
            extras.append(EXTRA_COLS[t])
        elif extras:
            raise ParseError(f"line {hdr_idx + 1}: unexpected column {t!r} after the affinity columns")
        else:
            devices.append(t)
    n = len(devices)
    rows: dict[str, tuple[int, list[str], list[str]]] = {}
    nic_legend: dict[str, str] = {}
    i = hdr_idx + 1
    while i < len(lines):
        line = lines[i]
        toks = line.split()
        if not toks:
            if rows:
                break
            i += 1
            continue
        if toks[0] not in devices:
            break
        cells, rest = toks[1:1 + n], toks[1 + n:]
        if len(cells) < n:
            raise ParseError(f"line {i + 1}: matrix row {toks[0]} has {len(cells)} cells, expected {n} (truncated?)")
        for c in cells:
            if not CODE_RE.match(c):
                raise ParseError(f"line {i + 1}: {c!r} is not a topology code (topo -p2p or another matrix?)")
        rows[toks[0]] = (i + 1, cells, rest)
        i += 1
    for line in lines[i:]:
        if (m := NIC_LEGEND_RE.match(line)):
            nic_legend[m.group(1)] = m.group(2)
    missing = [d for d in devices if d not in rows]
    if missing:
        raise ParseError(f"topology matrix incomplete: no row for {', '.join(missing)} (truncated?)")

    gpus = [d for d in devices if re.fullmatch(r"GPU\d+", d)]
    if not gpus:
        raise ParseError("topology matrix without GPUs")
    sid = system_hints.resolve(ctx.system_id, ctx.path, ["GPU"] * len(gpus), hostname)
    if not ctx.system_id and not hostname and sid.startswith("node_"):
        warnings = [f"{ctx.source_name}: the matrix names no host or GPU model; stored as system "
                    f"{sid!r} (use --system to attach it to a known machine)"]
    else:
        warnings = []

    # component ids
    ids: dict[str, str] = {}
    others = [d for d in devices if d not in gpus]
    nums = [re.search(r"(\d+)$", d) for d in others]
    by_number = all(nums) and len({int(m.group(1)) for m in nums}) == len(others)
    for k, d in enumerate(devices):
        if d in gpus:
            ids[d] = "gpu" + d[3:]
    for k, d in enumerate(others):
        if re.fullmatch(r"NIC\d+", d):
            ids[d] = "nic" + d[3:]
        else:
            ids[d] = f"nic{int(nums[k].group(1))}" if by_number else f"nic{k}"

    result = ParseResult(warnings=warnings)
    cpu_of_affinity: dict[str, str] = {}
    cpus: dict[str, dict] = {}
    for d in devices:
        lineno, cells, rest = rows[d]
        attrs: dict = {}
        if d in gpus:
            vals = dict(zip(extras, rest))
            aff = vals.get("cpu_affinity")
            numa = _int(vals.get("numa_affinity"))
            if aff and aff != "N/A":
                attrs["cpu_affinity"] = aff
            if numa is not None:
                attrs["numa_node"] = numa
            if (g := _int(vals.get("gpu_numa_id"))) is not None:
                attrs["gpu_numa_id"] = g
            cpu = None
            if numa is not None:
                cpu = f"cpu{numa}"
                cpus.setdefault(cpu, {"numa_node": numa, "cpu_affinity": attrs.get("cpu_affinity"),
                                      "_line": lineno})
            elif "cpu_affinity" in attrs:
                cpu = cpu_of_affinity.setdefault(attrs["cpu_affinity"], f"cpu{len(cpu_of_affinity)}")
                cpus.setdefault(cpu, {"cpu_affinity": attrs["cpu_affinity"], "_line": lineno,
                                      "numbering": "order of CPU-affinity sets in the matrix"})
            if cpu:
                attrs["cpu"] = cpu
            result.components.append(Component(system_id=sid, component_id=ids[d], kind="gpu", label=d,
                                               attrs=attrs, source=src(ctx, lineno)))
        else:
            name = nic_legend.get(d, d)
            attrs = {"device": name}
            if name != d:
                attrs["column"] = d
            result.components.append(Component(system_id=sid, component_id=ids[d], kind="nic", label=name,
                                               attrs=attrs, source=src(ctx, lineno)))
    for cpu, a in cpus.items():
        line = a.pop("_line")
        a = {k: v for k, v in a.items() if v is not None}
        label = f"NUMA node {a['numa_node']}" if "numa_node" in a else f"CPU (affinity {a.get('cpu_affinity')})"
        if "numa_node" in a:
            a["numbering"] = "NUMA node id from nvidia-smi topo (a socket may hold several)"
        result.components.append(Component(system_id=sid, component_id=cpu, kind="cpu", label=label,
                                           attrs=a, source=src(ctx, line)))

    for x in range(n):
        for y in range(x + 1, n):
            a, b = devices[x], devices[y]
            code = rows[a][1][y]
            back = rows[b][1][x]
            if code != back:
                result.warnings.append(f"{ctx.source_name}: {a}-{b} is {code} but {b}-{a} is {back}; kept {code}")
            if code == "X":
                continue
            source = src(ctx, rows[a][0])
            if code.startswith("NV"):
                k = int(code[2:])
                result.links.append(Link(system_id=sid, a=ids[a], b=ids[b], link_type="NVLink", count=k,
                                         note=code, source=source))
            else:
                result.links.append(Link(system_id=sid, a=ids[a], b=ids[b], link_type="Other", note=code,
                                         source=source))
    return result
