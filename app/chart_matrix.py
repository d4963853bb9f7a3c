"""Pair matrices and congestion: heatmaps over source x destination, and baseline vs stressed conditions with
their slowdown factors (side-by-side heatmaps when the rows cover enough pairs, grouped bars otherwise)."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Optional

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app import chart_style as st
from app.chart_plots import _num, _rows_with_values, _system
from app.intents._common import DIRECTION_WORDS, condition_words, fmt_bytes, lower_is_better
from app.result import Result


# ---- pair_matrix ----------------------------------------------------------------------------------------

def _heatmap(rows: list[dict], metric: Optional[str], unit: str, name: str, zmax: Optional[float] = None,
             show_scale: bool = True) -> go.Heatmap:
    srcs = sorted({r["src"] for r in rows}, key=st.natural_key)
    dsts = sorted({r["dst"] for r in rows}, key=st.natural_key)
    cell = {(r["src"], r["dst"]): _num(r["value"]) for r in rows}
    z = [[cell.get((s, d)) for d in dsts] for s in srcs]
    n = max(len(srcs), len(dsts))
    low = lower_is_better(metric)
    # "good" is always the dark end: dark blue = high bandwidth or low latency
    return go.Heatmap(
        z=z, x=[st.label_endpoint(d) for d in dsts], y=[st.label_endpoint(s) for s in srcs], name=name,
        colorscale="YlGnBu", reversescale=low, zmin=0, showscale=show_scale,
        # zero-anchored: equal colours mean equal values, not a 0.2% spread stretched over the whole scale
        zmax=zmax if zmax is not None else max([v for v in cell.values() if v is not None] or [1]),
        colorbar=dict(title=dict(text=f"{unit}<br><sub>{st.better_words(metric)}</sub>" if st.better_words(metric)
                                 else unit)),
        texttemplate=("%{z:.4g}" if n <= 16 else "%{z:.3g}") if n <= 24 else None,
        textfont=dict(size=11 if n <= 10 else 9),
        hovertemplate=f"%{{y}} → %{{x}}: %{{z:.4g}} {unit}<extra>{name}</extra>", xgap=1, ygap=1)


def pair_matrix(result: Result) -> Optional[go.Figure]:
    rows = [r for r in _rows_with_values(result.rows) if r.get("src") and r.get("dst")]
    if not rows:
        return None
    r0 = rows[0]
    unit = result.chart.get("unit") or r0.get("unit") or ""
    fig = go.Figure(_heatmap(rows, r0.get("metric"), unit, r0.get("metric") or "value"))
    slice_ = ", ".join(x for x in (r0.get("direction") and DIRECTION_WORDS.get(
        r0["direction"]), condition_words(r0.get("condition")), fmt_bytes(r0.get("msg_bytes")), r0.get("tool")) if x)
    title = f"{st.what(r0.get('operation'), r0.get('metric'))} per pair on {_system(result)} ({unit})"
    ns, nd = len({r["src"] for r in rows}), len({r["dst"] for r in rows})
    n = max(ns, nd)
    cellpx = max(34, min(70, 640 // n))
    fig.update_layout(**st.base_layout(f"{title}<br><sup>{slice_}; blank = not measured (the diagonal is left "
                                       "out)</sup>", width=max(560, 260 + cellpx * nd),
                                       height=max(320, 220 + cellpx * ns)))
    fig.update_xaxes(title="destination", side="bottom", tickangle=-45 if nd > 10 else 0)
    fig.update_yaxes(title="source", autorange="reversed")
    if ns == nd:
        fig.update_yaxes(scaleanchor="x")
    _outline_pairs(fig, rows, result.slots.get("pairs"))
    return fig


def _outline_pairs(fig: go.Figure, rows: list[dict], pairs: Optional[list[list[str]]]) -> None:
    """"does GPU0 -> GPU1 get more than GPU0 -> GPU2": the cells of the pairs asked about, outlined (a category
    axis puts its i-th label at i)."""
    srcs = sorted({r["src"] for r in rows}, key=st.natural_key)
    dsts = sorted({r["dst"] for r in rows}, key=st.natural_key)
    for src, dst in pairs or []:
        if src in srcs and dst in dsts:
            x, y = dsts.index(dst), srcs.index(src)
            fig.add_shape(type="rect", x0=x - 0.5, x1=x + 0.5, y0=y - 0.5, y1=y + 0.5, xref="x", yref="y",
                          line=dict(color="#d62728", width=3), fillcolor="rgba(0,0,0,0)")


def pair_matrices(result: Result) -> Optional[go.Figure]:
    """"p2p bandwidth matrix on Yme and Mini Summit": one grid per system, side by side, on one colour scale when
    they show the same quantity in the same unit (equal colours are equal values across the systems)."""
    def slice_of(one: Result) -> str:
        rows = [r for r in _rows_with_values(one.rows) if r.get("src") and r.get("dst")]
        r0 = rows[0] if rows else {}
        bits = (r0.get("direction") and {"uni": "uni", "bi": "bi"}.get(r0["direction"]),
                condition_words(r0.get("condition")),
                fmt_bytes(r0.get("msg_bytes")), r0.get("tool"))
        return f"{_system(one)}<br><sup>{', '.join(b for b in bits if b)}</sup>"

    rows = [r for r in _rows_with_values(result.rows) if r.get("src") and r.get("dst")]
    if not rows:
        return None
    kinds = {(r.get("metric"), r.get("unit")) for r in rows}
    metric, unit = next(iter(kinds)) if len(kinds) == 1 else (rows[0].get("metric"), rows[0].get("unit") or "")
    title = (f"{st.what(rows[0].get('operation'), metric)} per pair on "
             f"{' and '.join(p.get('system', '') for p in result.chart['parts'])} ({unit})"
             f"<br><sup>source → destination; blank = not measured (the diagonal is left out)</sup>")
    from app.chart_panels import side_by_side   # chart_panels builds on this module's single grid
    fig = side_by_side(result, pair_matrix, title, panel_title=slice_of)
    if fig is not None and len(kinds) == 1:
        zmax = max(_num(r["value"]) for r in rows)
        fig.update_traces(zmax=zmax, selector=dict(type="heatmap"))
    return fig


# ---- congestion -----------------------------------------------------------------------------------------

def _wrap(text: str, width: int = 22) -> str:
    lines, cur = [], ""
    for word in text.split(" "):
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}".strip()
    return "<br>".join(lines + [cur])


def _case_label(r: dict[str, Any]) -> str:
    bits = [f"<b>{r['case_key']}</b>" + (f"<br>{_wrap(r['case_label'])}" if r.get("case_label") else "")]
    if r.get("src") and r.get("dst"):
        bits.append(f"{st.label_endpoint(r['src'])} → {st.label_endpoint(r['dst'])}")
    if r.get("quantity"):
        bits.append(r["quantity"])
    return "<br>".join(bits)


def congestion(result: Result) -> Optional[go.Figure]:
    rows = [r for r in result.rows if _num(r.get("base_value")) is not None and _num(r.get("stress_value")) is not None]
    if not rows:
        return None
    base_w, stress_w = (result.chart.get("labels") or ["baseline", "stressed"])[:2]
    pairs = {(r["src"], r["dst"]) for r in rows if r.get("src") and r.get("dst")}
    if len(pairs) >= 4 and all(r.get("src") and r.get("dst") for r in rows):
        return _congestion_matrices(result, rows, base_w, stress_w)
    # one panel per system too when the answer covers several ("in-house and Azure"): their cases share names
    # (x2, x3) but are other experiments, whose bars must not land on one category
    several = len({r.get("system_id") for r in rows}) > 1
    panels: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        panels[(r["metric"], r.get("unit") or "", r.get("app") or "", r.get("system_id") if several else "")].append(r)
    keys = list(panels)
    titles = [f"{k[3] + ': ' if k[3] else ''}{st.what(panels[k][0].get('operation'), k[0])}"
              f"{' — ' + k[2] if k[2] else ''}" for k in keys]
    fig = make_subplots(rows=len(keys), cols=1, subplot_titles=titles, vertical_spacing=0.36 / max(len(keys), 1))
    for i, k in enumerate(keys, 1):
        rs = sorted(panels[k], key=lambda r: st.natural_key(r["case_key"]))
        x = [_case_label(r) for r in rs]
        unit = k[1]
        for col, name, key in ((st.BASELINE, base_w, "base_value"), (st.STRESSED, stress_w, "stress_value")):
            fig.add_trace(go.Bar(x=x, y=[r[key] for r in rs], name=name, marker_color=col, legendgroup=name,
                                 showlegend=i == 1, offsetgroup=key,
                                 hovertemplate=f"%{{x}}<br>{name}: %{{y:.4g}} {unit}<extra></extra>"),
                          row=i, col=1)
        # the slowdown factor above each case
        top = [max(r["base_value"], r["stress_value"]) for r in rs]
        fig.add_trace(go.Scatter(x=x, y=top, mode="text", showlegend=False, hoverinfo="skip",
                                 text=[f"<b>{r['slowdown']:.3g}x</b>" if _num(r.get("slowdown")) else "" for r in rs],
                                 textposition="top center", textfont=dict(size=12, color="#333"),
                                 meta={"role": "slowdown"}), row=i, col=1)
        vals = [v for r in rs for v in (r["base_value"], r["stress_value"]) if v and v > 0]
        log = bool(vals) and max(vals) / min(vals) > 50
        fig.update_yaxes(title_text=st.unit_title(k[0], unit), type="log" if log else "linear", row=i, col=1,
                         rangemode="tozero" if not log else None, dtick=1 if log else None)
        if not log:
            fig.update_yaxes(range=[0, max(top) * 1.22], row=i, col=1)
    on = " and ".join(dict.fromkeys(k[3] for k in keys)) if several else _system(result)
    title = f"{base_w.capitalize()} vs {stress_w} on {on}: slowdown factors above the bars"
    fig.update_layout(**st.base_layout(title, width=1150, height=160 + 380 * len(keys), barmode="group",
                                       margin=dict(l=70, r=30, t=90, b=60)))
    return fig


def _congestion_matrices(result: Result, rows: list[dict], base_w: str, stress_w: str) -> go.Figure:
    metric = rows[0]["metric"]
    rows = [r for r in rows if r["metric"] == metric]
    unit = rows[0].get("unit") or ""
    zmax = max(max(r["base_value"], r["stress_value"]) for r in rows)
    fig = make_subplots(rows=1, cols=2, subplot_titles=[base_w, stress_w], horizontal_spacing=0.12)
    for i, key, name in ((1, "base_value", base_w), (2, "stress_value", stress_w)):
        fig.add_trace(_heatmap([{**r, "value": r[key]} for r in rows], metric, unit, name, zmax=zmax,
                               show_scale=i == 2), row=1, col=i)
        fig.update_yaxes(autorange="reversed", title_text="source" if i == 1 else None, row=1, col=i)
        fig.update_xaxes(title_text="destination", row=1, col=i)
    worst = max(rows, key=lambda r: r.get("slowdown") or 0)
    title = (f"{st.what(rows[0].get('operation'), metric)} per pair on {_system(result)}: {base_w} vs {stress_w} "
             f"({unit}); worst slowdown {worst['slowdown']:.3g}x ({st.label_endpoint(worst['src'])} → "
             f"{st.label_endpoint(worst['dst'])})")
    fig.update_layout(**st.base_layout(title, width=1200, height=600))
    return fig
