"""`nvidia-smi nvlink -s` / `--status` (per-GPU, per-link speed), plus `-R` (remote endpoint of each
link) and `-c` (capabilities) when they are in the same file. No measurements: the numbers are the
links' nominal per-direction rates as the driver reports them, so they go to component attrs.

Each `GPU N: <model> (UUID: ...)` becomes component `gpuN` with attrs: model, uuid,
nvlink_links (links listed), nvlink_active (links with a speed), nvlink_inactive (indices shown
`<inactive>`), nvlink_gbps_per_link (the speed if all active links agree) or else
nvlink_link_gbps ({link: GB/s}), nvlink_gbps_per_dir (sum over active links, GB/s, one direction),
nvlink_remote ({link: "<pci>:<remote link>"}) and nvlink_caps ({capability: [links where true]}).

Tolerates tabs or spaces before `Link`, `GB/s` with or without a space, `-i N` (a single GPU), the
`-s`, `-R` and `-c` listings in one file. Rejects a file that ends mid-line or whose last GPU lists fewer
links than the others (cut off), and files with GPU lines but no link lines (`nvidia-smi -L`).

System: ctx.system_id, else system_hints.resolve with the GPU models and a hostname taken from a shell
prompt line (`user@host:~# nvidia-smi nvlink -s`) or a `hostname:` line if the file has one.
"""
from __future__ import annotations

import re

from ingest import system_hints
from ingest.parsers._table import read_lines, src
from ingest.records import Component, ParseError, ParseResult, System
from ingest.registry import ParseContext, register

GPU_RE = re.compile(r"^\s*GPU\s+(\d+):\s+(.+?)\s+\(UUID:\s*([^)]+)\)\s*$")
SPEED_RE = re.compile(r"^\s*Link\s+(\d+):\s+([\d.]+)\s*GB/s\s*$")
INACTIVE_RE = re.compile(r"^\s*Link\s+(\d+):\s+<inactive>\s*$", re.I)
REMOTE_RE = re.compile(r"^\s*Link\s+(\d+):\s+Remote Device\s+(\S+?):\s+Link\s+(\d+)\s*$")
CAP_RE = re.compile(r"^\s*Link\s+(\d+),\s+(.+?):\s+(true|false)\s*$", re.I)
PROMPT_RE = re.compile(r"^\[?[\w.-]+@([\w.-]+)[:\s\]].*nvidia-smi")
HOST_RE = re.compile(r"^\s*(?:host(?:name)?|node)\s*[:=]\s*(\S+)\s*$", re.I)


def sniff(ctx: ParseContext) -> bool:
    h = ctx.head
    return bool(re.search(r"^\s*GPU\s+\d+:.*\(UUID:", h, re.M)) and bool(
        re.search(r"^\s*Link\s+\d+:\s+(<inactive>|[\d.]+\s*GB/s|Remote Device)", h, re.M | re.I))


@register("nvidia-smi-nvlink", sniff, description="nvidia-smi nvlink -s/--status (-R, -c) per-link listing",
          priority=30)
def parse(ctx: ParseContext) -> ParseResult:
    lines, ends_nl = read_lines(ctx)
    hostname = None
    gpus: list[dict] = []
    cur = None
    for lineno, line in enumerate(lines, 1):
        if (m := PROMPT_RE.match(line)) or (m := HOST_RE.match(line)):
            hostname = hostname or m.group(1)
            continue
        if (m := GPU_RE.match(line)):
            idx = int(m.group(1))
            cur = next((g for g in gpus if g["idx"] == idx), None)
            if cur is None:
                cur = {"idx": idx, "model": m.group(2), "uuid": m.group(3).strip(), "line": lineno,
                       "speed": {}, "inactive": set(), "remote": {}, "caps": {}, "status_lines": 0}
                gpus.append(cur)
            continue
        if not line.strip().startswith("Link"):
            continue
        if cur is None:
            raise ParseError(f"line {lineno}: link line before any 'GPU N:' line")
        if lineno == len(lines) and not ends_nl:
            raise ParseError(f"line {lineno}: file ends mid-line (truncated)")
        if (m := SPEED_RE.match(line)):
            cur["speed"][int(m.group(1))] = (float(m.group(2)), m.group(2))
            cur["status_lines"] += 1
        elif (m := INACTIVE_RE.match(line)):
            cur["inactive"].add(int(m.group(1)))
            cur["status_lines"] += 1
        elif (m := REMOTE_RE.match(line)):
            cur["remote"][int(m.group(1))] = f"{m.group(2)}:{m.group(3)}"
        elif (m := CAP_RE.match(line)):
            if m.group(3).lower() == "true":
                cur["caps"].setdefault(m.group(2), []).append(int(m.group(1)))
    if not gpus:
        raise ParseError("no 'GPU N: model (UUID: ...)' lines")
    if not any(g["status_lines"] or g["remote"] or g["caps"] for g in gpus):
        raise ParseError("GPU list without NVLink lines (nvidia-smi -L?)")
    if len(gpus) > 1:
        most = max(g["status_lines"] for g in gpus[:-1])
        if gpus[-1]["status_lines"] < most:
            raise ParseError(f"GPU {gpus[-1]['idx']} lists {gpus[-1]['status_lines']} links, the others {most} "
                             "(file cut off?)")

    models = [g["model"] for g in sorted(gpus, key=lambda g: g["idx"])]
    sid = system_hints.resolve(ctx.system_id, ctx.path, models, hostname)
    result = ParseResult()
    if hostname and not ctx.system_id and sid == "host_" + system_hints.slug(hostname):
        result.systems.append(System(system_id=sid, name=hostname, aliases=[hostname], kind="gpu_server",
                                     source=ctx.source_name))
    for g in gpus:
        speeds = {k: v for k, (v, _) in sorted(g["speed"].items())}
        attrs: dict = {"model": g["model"], "uuid": g["uuid"]}
        if g["status_lines"]:
            attrs["nvlink_links"] = g["status_lines"]
            attrs["nvlink_active"] = len(speeds)
            attrs["nvlink_inactive"] = sorted(g["inactive"])
            if speeds and len(set(speeds.values())) == 1:
                attrs["nvlink_gbps_per_link"] = next(iter(speeds.values()))
            elif speeds:
                attrs["nvlink_link_gbps"] = {str(k): v for k, v in speeds.items()}
            attrs["nvlink_gbps_per_dir"] = round(sum(speeds.values()), 3)
        if g["remote"]:
            attrs["nvlink_remote"] = {str(k): v for k, v in sorted(g["remote"].items())}
        if g["caps"]:
            attrs["nvlink_caps"] = {k: sorted(v) for k, v in g["caps"].items()}
        result.components.append(Component(system_id=sid, component_id=f"gpu{g['idx']}", kind="gpu",
                                           label=g["model"], attrs=attrs, source=src(ctx, g["line"])))
    return result
