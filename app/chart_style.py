"""Colours, symbols and labels shared by every chart, so that one link type, node kind or series looks the
same in every figure (the UI, the HTML reports) and a reader learns the legend once."""
from __future__ import annotations

import math
import re
import zlib
from typing import Any, Iterable, Optional

from app.intents._common import better_words, endpoint, fmt_bytes, what_words  # noqa: F401 (charts read better_words here)

TEMPLATE = "plotly_white"
FONT = dict(family="Inter, Helvetica, Arial, sans-serif", size=13)

# Colour-blind-safe qualitative palette (Okabe-Ito plus a few of Paul Tol's), for series without a fixed colour.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#882255", "#117733",
           "#999933", "#332288", "#44AA99", "#AA4499"]

# Link types by family: generations of one technology are shades of one hue (NVLink greens, PCIe blues).
LINK_COLOURS = [
    ("nvlink1", "#74c476"), ("nvlink2", "#31a354"), ("nvlink3", "#006d2c"), ("nvlink4", "#00441b"),
    ("nvlink", "#238b45"), ("nvswitch", "#1b9e77"),
    ("pcie5", "#08519c"), ("pcie4", "#3182bd"), ("pcie3", "#6baed6"), ("pcie", "#6baed6"),
    ("x-bus", "#756bb1"), ("xbus", "#756bb1"), ("qpi", "#8c6d31"), ("upi", "#a6761d"),
    ("ipu-link", "#d62728"), ("gw-link", "#ff9896"), ("xlink", "#ff7f0e"), ("onchip", "#7f7f7f"),
    ("infiniband", "#e7298a"), ("ethernet", "#969696"), ("other", "#bdbdbd"),
]
HIGHLIGHT = "#FFB000"           # the path / selected links: a gold halo under the link's own colour

# Node kinds: (marker symbol, fill colour, display order in the legend)
NODE_STYLES = {
    "gpu": ("square", "#4c9a2a"), "ipu": ("square", "#c0392b"), "cpu": ("diamond", "#1f4e79"),
    "nvswitch": ("hexagon", "#117a65"), "pcie_switch": ("triangle-up", "#5d6d7e"), "nic": ("pentagon", "#b7950b"),
    "host": ("star", "#34495e"), "core": ("circle", "#2c3e50"), "chip": ("square", "#a04000"),
    "die": ("square", "#a04000"), "node": ("square", "#2c3e50"), "switch": ("hexagon", "#7d3c98"),
    "memory": ("octagon", "#7f8c8d"), "board": ("square-open", "#95a5a6"), "tile": ("circle", "#f5b041"),
}
ACCELERATORS = ("gpu", "ipu")

# Fixed meanings
BASELINE, STRESSED = "#0072B2", "#D55E00"          # congestion-free / under load (cc on / cc off)
MEASURED, NOMINAL = "#0072B2", "#c7c7c7"
TRACE_CATEGORIES = {"compute": "#009E73", "communication": "#E69F00", "memory": "#56B4E9", "idle": "#d9d9d9"}
IDEAL = "#7f7f7f"


def stable_index(name: str, n: int) -> int:
    """The same name gets the same palette slot in every figure and every run (Python's hash() is salted)."""
    return zlib.crc32(str(name).encode()) % n


def series_colours(names: Iterable[str]) -> dict[str, str]:
    """Stable colours per series name; a clash inside one figure moves the later name to the next free slot."""
    out: dict[str, str] = {}
    used: set[int] = set()
    for name in names:
        i = stable_index(name, len(PALETTE))
        while i in used and len(used) < len(PALETTE):
            i = (i + 1) % len(PALETTE)
        used.add(i)
        out[name] = PALETTE[i]
    return out


def link_colour(link_type: Optional[str]) -> str:
    t = (link_type or "other").lower().replace(" ", "")
    for prefix, colour in LINK_COLOURS:
        if t.startswith(prefix):
            return colour
    return PALETTE[stable_index(t, len(PALETTE))]


def node_style(kind: Optional[str]) -> tuple[str, str]:
    return NODE_STYLES.get(kind or "", ("circle", "#7f7f7f"))


def short_node_label(node_id: str, kind: Optional[str]) -> str:
    """A label that fits beside a marker in a row of 16: GPU3, IPU7, NVSw4, PCIe-SW2, NIC0, 12 (a core)."""
    m = re.match(r"^(.*?)(\d+)$", node_id)
    num = m.group(2) if m else ""
    if kind == "core" and num:
        return num
    if kind == "nvswitch" and num:
        return f"NVSw{num}"
    if kind == "pcie_switch" and num:
        return f"PCIe-SW{num}"
    return endpoint(node_id)


def natural_key(s: Any) -> tuple:
    """gpu2 < gpu10; None last."""
    if s is None:
        return ("\uffff", -1)
    m = re.match(r"(.*?)(\d*)$", str(s))
    return (m.group(1), int(m.group(2)) if m.group(2) else -1)


def unit_title(metric: Optional[str], unit: Optional[str]) -> str:
    name = (metric or "value").replace("_", " ")
    return f"{name} ({unit})" if unit else name


def fmt_num(v: Optional[float], unit: str = "") -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    a = abs(v)
    s = f"{v:,.0f}" if a >= 10000 else f"{v:.4g}"
    return f"{s} {unit}".strip() if unit not in ("x", "%") else f"{s}{'x' if unit == 'x' else '%'}"


def byte_ticks(lo: float, hi: float, max_ticks: int = 10) -> tuple[list[int], list[str]]:
    """Powers of two from lo to hi, thinned to at most max_ticks, labelled 1 KiB / 1 MiB / 1 GiB."""
    lo_e = max(0, math.ceil(math.log2(max(lo, 1)) - 1e-9))
    hi_e = max(lo_e, math.floor(math.log2(max(hi, 1)) + 1e-9))
    # steps that divide 10 keep 1 KiB, 1 MiB and 1 GiB on the axis
    step = next((s for s in (1, 2, 5, 10, 20) if (hi_e - lo_e) // s + 1 <= max_ticks), 20)
    start = lo_e + (-lo_e) % step
    vals = [1 << e for e in range(start, hi_e + 1, step)] or [1 << lo_e]
    return vals, [fmt_bytes(v) for v in vals]


def what(operation: Optional[str], metric: Optional[str]) -> str:
    w = (what_words(operation, metric) or (metric or "value")).replace("_", " ")
    return w[:1].upper() + w[1:]


def label_endpoint(x: Optional[str]) -> str:
    return endpoint(x) if x else ""


def base_layout(title: str, **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = dict(template=TEMPLATE, font=FONT, title=dict(text=title, x=0.01, xanchor="left"),
                             margin=dict(l=70, r=30, t=80, b=60), hoverlabel=dict(align="left"))
    d.update(kw)
    return d
