"""Pictures of several systems side by side: one panel per system, built by the one-system chart and moved
into a row of subplots.

A connection graph or a pair grid has axes of its own (positions, endpoints) that two systems cannot share, so
"the topology of the DGX-1 P100 and the V100" is two graphs next to each other, not one graph of both. The
one-system builders stay the only place that knows how each picture is drawn; this module only re-homes their
traces, shapes, annotations and axis settings onto the panel's axes.
"""
from __future__ import annotations

import copy
import re
from typing import Callable, Optional

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app import chart_style as st
from app.chart_plots import _system
from app.result import Result

# axis settings a one-system builder makes that must follow its panel (ranges, hidden axes, equal scales)
_AXIS_KEYS = ("visible", "range", "autorange", "type", "title", "tickangle", "side", "showgrid", "zeroline",
              "scaleratio")


_COUNT = re.compile(r" \((\d+)( links?)?\)$")


def split_by_system(result: Result) -> list[Result]:
    """One Result per system the answer covers, each with its own rows, slots and chart part."""
    parts = (result.chart or {}).get("parts") or []
    out = []
    for part in parts:
        sid = part.get("system")
        one = copy.copy(result)
        one.chart = {k: v for k, v in part.items() if k != "system"}
        one.rows = [r for r in result.rows if r.get("system_id", sid) == sid]
        one.slots = {k: v for k, v in (result.slots or {}).items() if k != "compare_with"} | {"system": sid}
        out.append(one)
    return out


def _ref(ref: Optional[str], i: int) -> Optional[str]:
    """'x' -> 'x2' for panel 2; paper references stay."""
    if not ref or ref.startswith("paper") or i == 1:
        return ref
    axis = ref.split(" ")[0]
    return f"{axis[0]}{i}" + ref[len(axis):] if axis in ("x", "y") else ref


def side_by_side(result: Result, build: Callable[[Result], Optional[go.Figure]], title: str,
                 max_cols: int = 3, panel_title: Callable[[Result], str] = _system) -> Optional[go.Figure]:
    """Each system's picture by `build`, in panels titled by `panel_title` (the system id unless told); None
    when none can be drawn."""
    drawn = [(one, fig) for one in split_by_system(result) if (fig := build(one)) is not None]
    if not drawn:
        return None
    if len(drawn) == 1:
        return drawn[0][1]
    n = len(drawn)
    cols = min(n, max_cols)
    nrows = -(-n // cols)
    names = [panel_title(one) for one, _ in drawn]
    fig = make_subplots(rows=nrows, cols=cols, subplot_titles=names, horizontal_spacing=0.05,
                        vertical_spacing=0.12 / max(1, nrows - 1) if nrows > 1 else 0.0)
    shown: set[str] = set()
    heights: list[int] = []
    spans: dict[str, list[float]] = {"xaxis": [], "yaxis": []}
    for i, (one, sub) in enumerate(drawn, 1):
        row, col = (i - 1) // cols + 1, (i - 1) % cols + 1
        for tr in sub.data:
            tr = copy.deepcopy(tr)
            if getattr(tr, "name", None):
                tr.name = _COUNT.sub("", tr.name)   # "gpu (8)": a count is one panel's, the legend is the row's
            key = getattr(tr, "legendgroup", None) or getattr(tr, "name", None)
            if getattr(tr, "showlegend", None) is not False and key:
                if key in shown:   # one legend entry per kind of link or node, whichever panel has it first
                    tr.showlegend = False
                shown.add(key)
            if isinstance(tr, go.Heatmap):
                tr.showscale = bool(tr.showscale) and i == len(drawn)
            fig.add_trace(tr, row=row, col=col)
        for shape in sub.layout.shapes or ():
            s = shape.to_plotly_json()
            s["xref"], s["yref"] = _ref(s.get("xref", "x"), i), _ref(s.get("yref", "y"), i)
            fig.add_shape(**s)
        for ann in sub.layout.annotations or ():
            a = ann.to_plotly_json()
            if str(a.get("xref", "x")).startswith("paper"):
                continue   # a figure's footnotes (layout notes) belong under one picture, not the row
            a["xref"], a["yref"] = _ref(a.get("xref", "x"), i), _ref(a.get("yref", "y"), i)
            fig.add_annotation(**a)
        for axis in ("xaxis", "yaxis"):
            src = sub.layout[axis].to_plotly_json()
            keep = {k: v for k, v in src.items() if k in _AXIS_KEYS}
            if axis == "yaxis" and src.get("scaleanchor"):
                keep["scaleanchor"] = f"x{i if i > 1 else ''}"
            if axis == "yaxis" and col > 1:
                keep.pop("title", None)   # "source" once, at the row's left, not over the panel before
            if src.get("range") and src.get("scaleanchor" if axis == "yaxis" else "range"):
                spans[axis].append(src["range"][1] - src["range"][0])
            fig.layout[f"{axis}{i if i > 1 else ''}"].update(**keep)
        heights.append(sub.layout.height or 500)
    first = drawn[0][1].layout
    width = max(900, min(1500, (600 if first.legend and first.showlegend is not False else 560) * cols))
    if len(spans["xaxis"]) == len(spans["yaxis"]) == n:
        # drawings at one scale on both axes (graphs): as tall as the widest panel's shape needs
        panel_w = (width - 300) / cols
        height = int(110 + nrows * panel_w * max(y / x for x, y in zip(spans["xaxis"], spans["yaxis"])))
    else:
        height = int(max(heights) * (0.8 if cols > 1 else 1.0)) * nrows
    fig.update_layout(**st.base_layout(title, width=width, height=height,
                                       legend=first.legend.to_plotly_json() if first.legend else None,
                                       hovermode=first.hovermode or "closest",
                                       margin=dict(l=30, r=30, t=110, b=50)))
    return fig

