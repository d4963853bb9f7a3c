"""CUDA samples `p2pBandwidthLatencyTest` console output (also Tartan's `scale_up_p2p_test`).

A run prints the device list, the P2P connectivity matrix, then unidirectional and bidirectional
bandwidth matrices with peer access disabled and enabled, then latency matrices. Two layouts exist:

* legacy (CUDA <= 9, Tartan's copy): titles without "(P2P Writes)", one latency table per mode.
  Every cell [i][j] is timed on GPU i for ``cudaMemcpyPeerAsync(dst=buf on GPU i, src=buf on GPU j)``:
  the ROW is the DESTINATION and the column the source. Copies are 10,000,000 ints (40 MB) for
  bandwidth and 1 byte for latency (hard-coded in that source, not printed).
* current (CUDA >= 10): titles carry "(P2P Writes)"/"(P2P Reads)" and latency has a GPU-timed and a
  CPU-timed table. Writes (and the P2P=Disabled tables) copy buffers[i] -> buffers[j]: the ROW is the
  SOURCE; the "(P2P Reads)" tables copy j -> i (row = destination). Sizes depend on --numElems.

A diagonal cell is a copy inside one GPU (operation d2d); the sample counts its bytes twice.
People paste several runs into one file (the second sometimes without its device list) and shell
prompts around them: a run starts at the title banner or when a section repeats.
"""
from __future__ import annotations

import re
from typing import Optional

from ingest import system_hints
from ingest.records import Component, Measurement, ParseError, ParseResult, Run
from ingest.registry import ParseContext, register
from ingest.parsers._textutil import parse_matrix_header, read_lines, read_matrix

BANNER = "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]"
DEVICE_RE = re.compile(r"^Device:\s*(\d+),\s*(.+?),\s*pciBusID:\s*(\w+),\s*pciDeviceID:\s*(\w+),"
                       r"\s*pciDomainID:\s*(\w+)")
PEER_RE = re.compile(r"^Device=(\d+) (CAN|CANNOT) Access Peer Device=(\d+)")
CONN_RE = re.compile(r"^\s*P2P Conn(?:ectivity)? Matrix\s*$")
BW_RE = re.compile(r"^\s*(Unidirectional|Bidirectional) P2P=(Enabled|Disabled) Bandwidth"
                   r"(?: \(P2P (Writes|Reads)\))? Matrix \(GB/s\)\s*$")
LAT_RE = re.compile(r"^\s*P2P=(Enabled|Disabled) Latency(?: \(P2P (Writes|Reads)\))? Matrix \(us\)\s*$")

# (kind, p2p enabled) pairs every complete run has; kind: uni, bi, lat
REQUIRED = [("uni", False), ("uni", True), ("bi", False), ("bi", True), ("lat", False), ("lat", True)]
LEGACY_BW_BYTES = 10_000_000 * 4
LEGACY_LAT_BYTES = 1


def sniff(ctx: ParseContext) -> bool:
    h = ctx.head
    if BANNER in h:
        return True
    return ("D\\D" in h and re.search(r"^\s*(Unidirectional|Bidirectional) P2P=(Enabled|Disabled) Bandwidth",
                                      h, re.M) is not None)


def _new_run(start_line: int) -> dict:
    return {"start": start_line, "devices": {}, "peer": {}, "conn": None, "sections": {}, "banner": False,
            "new_layout": False}


@register("p2p_bandwidth_latency", sniff, priority=30,
          description="CUDA samples p2pBandwidthLatencyTest / Tartan scale_up_p2p_test console output")
def parse(ctx: ParseContext) -> ParseResult:
    src = ctx.source_name
    lines = read_lines(ctx)
    runs_raw: list[dict] = []
    cur: Optional[dict] = None
    i = 0
    n_lines = len(lines)

    def start(line_no: int) -> dict:
        nonlocal cur
        if cur is not None and (cur["sections"] or cur["conn"] is not None or cur["devices"]):
            runs_raw.append(cur)
        cur = _new_run(line_no)
        return cur

    while i < n_lines:
        line = lines[i]
        s = line.strip()
        if BANNER in line:
            start(i + 1)["banner"] = True
            i += 1
            continue
        m = DEVICE_RE.match(s)
        if m:
            if cur is None or cur["sections"] or cur["conn"] is not None:
                start(i + 1)
            cur["devices"][int(m.group(1))] = {
                "model": m.group(2).strip(), "pci_bus_id": m.group(3), "pci_device_id": m.group(4),
                "pci_domain_id": m.group(5), "line": i + 1}
            i += 1
            continue
        m = PEER_RE.match(s)
        if m and cur is not None:
            cur["peer"][(int(m.group(1)), int(m.group(3)))] = m.group(2) == "CAN"
            i += 1
            continue
        if CONN_RE.match(line):
            if cur is None or cur["conn"] is not None or cur["sections"]:
                start(i + 1)
            mat, i = read_matrix(lines, i + 1, s, src)
            cur["conn"] = mat
            continue
        mb = BW_RE.match(line)
        ml = LAT_RE.match(line) if not mb else None
        if mb or ml:
            if mb:
                kind = "uni" if mb.group(1) == "Unidirectional" else "bi"
                enabled = mb.group(2) == "Enabled"
                method = mb.group(3)
            else:
                kind, enabled, method = "lat", ml.group(1) == "Enabled", ml.group(2)
            method = method.lower().rstrip("s") if method else None  # write / read
            key = (kind, enabled, method)
            if cur is None or key in cur["sections"]:
                start(i + 1)
            if method:
                cur["new_layout"] = True
            title = s
            if kind == "lat":
                mat, i = read_matrix(lines, i + 1, title, src, corners=("D\\D", "GPU"))
                tables = {"gpu": mat}
                if mat.corner == "GPU":
                    cur["new_layout"] = True
                    # the CPU-timed table follows after one blank line
                    k = i
                    while k < n_lines and not lines[k].strip():
                        k += 1
                    if k >= n_lines or parse_matrix_header(lines[k], ("CPU",)) is None:
                        raise ParseError(f"{src} line {k + 1}: the {title!r} section lacks its CPU-timed "
                                         f"table (truncated?)")
                    cpu, i = read_matrix(lines, k, title, src, corners=("CPU",))
                    tables["cpu"] = cpu
                cur["sections"][key] = tables
            else:
                mat, i = read_matrix(lines, i + 1, title, src)
                cur["sections"][key] = {"gpu": mat}
            continue
        i += 1
    if cur is not None and (cur["sections"] or cur["conn"] is not None or cur["devices"]):
        runs_raw.append(cur)
    if not runs_raw:
        raise ParseError(f"{src}: no p2pBandwidthLatencyTest matrices found")
    tartan = bool(re.search(r"tartan", str(ctx.path), re.I)) or any("tartan" in ln.lower() for ln in lines[:50])
    return _build(ctx, runs_raw, tartan)


def _orientation(new_layout: bool, method: Optional[str]) -> str:
    """'row_dst' (row = destination GPU) or 'row_src'."""
    if not new_layout:
        return "row_dst"
    return "row_dst" if method == "read" else "row_src"


def _build(ctx: ParseContext, runs_raw: list[dict], tartan: bool) -> ParseResult:
    src = ctx.source_name
    result = ParseResult()
    prev_devices: Optional[dict] = None
    prev_sid: Optional[str] = None
    for idx, r in enumerate(runs_raw, 1):
        have = {(k[0], k[1]) for k in r["sections"]}
        missing = [f"{k}/{'p2p_on' if e else 'p2p_off'}" for k, e in REQUIRED if (k, e) not in have]
        if missing:
            raise ParseError(f"{src}: run {idx} (from line {r['start']}) is incomplete: missing "
                             f"{', '.join(missing)} matrices (file truncated?)")
        sizes = {t.n for sec in r["sections"].values() for t in sec.values()}
        if r["conn"] is not None:
            sizes.add(r["conn"].n)
        if len(sizes) != 1:
            raise ParseError(f"{src}: run {idx} mixes matrices of different sizes {sorted(sizes)}")
        n = sizes.pop()
        devices = r["devices"]
        if devices:
            if sorted(devices) != list(range(len(devices))) or len(devices) != n:
                raise ParseError(f"{src}: run {idx} lists {len(devices)} devices but its matrices are {n}x{n}")
        elif prev_devices is not None and len(prev_devices) == n:
            devices = prev_devices
            result.warnings.append(f"run {idx} (line {r['start']}) has no device list; assumed the same "
                                   f"{n} GPUs as the run before it")
        else:
            result.warnings.append(f"run {idx} (line {r['start']}) has no device list; system from the path")
        models = [devices[d]["model"] for d in sorted(devices)]
        if r["devices"]:
            sid = system_hints.resolve(ctx.system_id, ctx.path, models)
        elif devices and prev_sid:
            sid = prev_sid
        else:
            sid = system_hints.resolve(ctx.system_id, ctx.path, models)
        prev_devices, prev_sid = devices or prev_devices, sid
        for d in sorted(r["devices"]):
            dv = r["devices"][d]
            result.components.append(Component(
                system_id=sid, component_id=f"gpu{d}", kind="gpu", label=dv["model"],
                attrs={"model": dv["model"], "pci_bus_id": dv["pci_bus_id"], "pci_device_id": dv["pci_device_id"],
                       "pci_domain_id": dv["pci_domain_id"]},
                source=f"{src} line {dv['line']}"))
        params: dict = {"gpus": n, "layout": "current" if r["new_layout"] else "legacy"}
        if r["new_layout"]:
            params["orientation"] = ("P2P=Disabled and (P2P Writes) matrices: row = source GPU, column = "
                                     "destination; (P2P Reads) matrices: row = destination")
        else:
            params["orientation"] = "row = destination GPU, column = source (cudaMemcpyPeer(dst=i, src=j))"
            params["msg_bytes_from"] = ("sample source code, not printed: 10,000,000 ints (40 MB) per "
                                        "bandwidth copy, 1 byte per latency copy")
        if models:
            params["gpu_models"] = sorted(set(models))
        if r["conn"] is not None:
            conn = [[int(float(x)) for x in row] for row in r["conn"].cells]
            params["p2p_connectivity"] = conn
            no = [(a, b) for a in range(n) for b in range(n) if a != b and not conn[a][b]]
            if no:
                result.warnings.append(f"run {idx}: {len(no)} GPU pairs cannot access each other as peers "
                                       f"(P2P=Enabled values for them fall back to staged copies)")
        meas: list[Measurement] = []
        for (kind, enabled, method), tables in r["sections"].items():
            orient = _orientation(r["new_layout"], method)
            for timer, mat in tables.items():
                for a in range(n):
                    for b in range(n):
                        raw = mat.cells[a][b]
                        val = float(raw)
                        if orient == "row_src":
                            s_gpu, d_gpu = a, b
                        else:
                            s_gpu, d_gpu = b, a
                        p = {"matrix": mat.title}
                        if method:
                            p["p2p_method"] = method
                        note = None
                        if a == b:
                            note = "diagonal: copy within one GPU"
                            if kind != "lat":
                                note += "; the sample counts read+write (2x bytes)"
                        msg = None
                        if not r["new_layout"]:
                            msg = LEGACY_LAT_BYTES if kind == "lat" else LEGACY_BW_BYTES
                        if kind == "lat":
                            p["timer"] = timer
                            metric, unit = "latency", "us"
                        else:
                            metric, unit = "bandwidth", "GB/s"
                        meas.append(Measurement(
                            metric=metric, value=val, unit=unit,
                            operation="d2d" if a == b else "p2p",
                            src=f"gpu{s_gpu}", dst=f"gpu{d_gpu}",
                            direction=None if kind == "lat" else kind,
                            msg_bytes=msg, condition="p2p_on" if enabled else "p2p_off",
                            app="p2pBandwidthLatencyTest", params=p, orig_value=raw, orig_unit=unit,
                            note=note, source=f"{src} line {mat.row_line(a)}"))
        if tartan:
            params["suite"] = "Tartan scale_up_p2p_test (modified CUDA sample)"
        result.runs.append(Run(tool="Tartan" if tartan else "p2pBandwidthLatencyTest", system_id=sid,
                               experiment=f"p2p_bandwidth_latency_{n}gpu",
                               tool_version="cuda-samples " + ("current" if r["new_layout"] else "legacy"),
                               params=params, source=f"{src} line {r['start']}", measurements=meas))
    return result
