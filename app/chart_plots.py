"""Figures for the measurement intents: sweeps, scaling, bars (heatmaps and congestion: chart_matrix.py).
Each takes a Result and reads its rows as the intent planners return them (app/intents/*.py); None when the
rows hold nothing to draw."""
from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Optional

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from app import chart_style as st
from app.intents._common import DIRECTION_WORDS, condition_words, direction_words, fmt_bytes, lower_is_better
from app.result import Result


def _system(result: Result) -> str:
    return (result.slots or {}).get("system") or next((r.get("system_id") for r in result.rows if r.get("system_id")), "")


def _num(v: Any) -> Optional[float]:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) or math.isinf(f) else f


def _rows_with_values(rows: list[dict[str, Any]], key: str = "value") -> list[dict[str, Any]]:
    return [r for r in rows if _num(r.get(key)) is not None]


# ---- size_sweep -----------------------------------------------------------------------------------------

def size_sweep(result: Result) -> Optional[go.Figure]:
    rows = [r for r in _rows_with_values(result.rows) if _num(r.get("msg_bytes")) and r["msg_bytes"] > 0]
    if not rows:
        return None
    r0 = rows[0]
    unit = result.chart.get("unit") or r0.get("unit") or ""
    series: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        series[str(r.get("series") or "default")].append(r)
    colours = st.series_colours(sorted(series))
    fig = go.Figure()
    for name in sorted(series):
        rs = sorted(series[name], key=lambda r: r["msg_bytes"])
        fig.add_trace(go.Scatter(
            x=[r["msg_bytes"] for r in rs], y=[r["value"] for r in rs], mode="lines+markers", name=name,
            line=dict(color=colours[name], width=2.5), marker=dict(size=6),
            customdata=[fmt_bytes(r["msg_bytes"]) for r in rs],
            hovertemplate=f"%{{customdata}}: %{{y:.4g}} {unit}<extra>{name}</extra>"))
    line = _num(result.chart.get("threshold"))
    if line is not None:    # the line the question asked about ("exceeds 100 GB/s"): where the curves cross it
        fig.add_hline(y=line, line=dict(color="#555", width=1.5, dash="dash"),
                      annotation_text=f"{line:g} {unit}", annotation_position="top left")
    sizes = [r["msg_bytes"] for r in rows]
    tickvals, ticktext = st.byte_ticks(min(sizes), max(sizes))
    vals = [r["value"] for r in rows if r["value"] > 0]
    log_y = lower_is_better(r0.get("metric")) and bool(vals) and max(vals) / min(vals) > 100
    where = []
    if r0.get("src") or r0.get("dst"):
        where.append(f"{st.label_endpoint(r0.get('src')) or '?'} → {st.label_endpoint(r0.get('dst')) or '?'}")
    if r0.get("count") and r0.get("count_kind"):
        where.append(f"{r0['count']} {r0['count_kind']}")
    where += [x for x in (r0.get("precision"), r0.get("tool")) if x]
    on = _system(result)
    if len(result.chart.get("systems") or []) > 1:   # one curve per system: what each was measured with
        on = " and ".join(result.chart["systems"])
        where = [f"{n.split(':')[0]}: {rs[0].get('tool')}" for n, rs in sorted(series.items()) if rs[0].get("tool")]
    ops = result.chart.get("operations") or []
    what = (" vs ".join(ops) + f" {r0.get('metric') or ''}".rstrip() if len(ops) > 1    # a curve per operation
            else st.what(r0.get("operation"), r0.get("metric")))
    title = f"{what} vs message size on {on} ({unit})"
    fig.update_layout(**st.base_layout(f"{title}<br><sup>{', '.join(where)}</sup>" if where else title,
                                       width=1000, height=560, hovermode="x unified",
                                       legend=dict(title="series")))
    fig.update_xaxes(type="log", title="message size (bytes, log2 scale)", tickvals=tickvals, ticktext=ticktext,
                     showgrid=True)
    better = st.better_words(r0.get("metric"))
    fig.update_yaxes(title=st.unit_title(r0.get("metric"), unit) + (f" — {better}" if better else ""),
                     type="log" if log_y else "linear", rangemode="tozero" if not log_y else None,
                     dtick=1 if log_y else None)
    return fig


# ---- scaling --------------------------------------------------------------------------------------------

def scaling(result: Result) -> Optional[go.Figure]:
    rows = sorted((r for r in _rows_with_values(result.rows) if _num(r.get("count")) is not None),
                  key=lambda r: r["count"])
    if not rows:
        return None
    r0 = rows[0]
    unit = result.chart.get("unit") or r0.get("unit") or ""
    kind = r0.get("count_kind") or "count"
    counts = [r["count"] for r in rows]
    has_eff = all(_num(r.get("efficiency")) is not None for r in rows) and len(rows) > 1
    groups: dict[str, list[dict]] = defaultdict(list)     # one curve per system when several were asked about
    for r in rows:
        groups[str(r.get("series") or "measured")].append(r)
    if len(groups) > 1:
        return _scaling_systems(result, groups, unit, kind, has_eff)
    fig = _scaling_frame(r0.get("metric"), unit, has_eff)
    fig.add_trace(go.Scatter(x=counts, y=[r["value"] for r in rows], mode="lines+markers", name="measured",
                             line=dict(color=st.PALETTE[0], width=3), marker=dict(size=8),
                             hovertemplate=f"%{{x}} {kind}: %{{y:.4g}} {unit}<extra>measured</extra>"), row=1, col=1)
    ideal = _ideal(rows)
    if ideal:
        fig.add_trace(go.Scatter(x=counts, y=ideal, mode="lines", name=f"ideal ({r0.get('scaling_kind') or 'linear'} "
                                 "scaling)", line=dict(color=st.IDEAL, dash="dash", width=2),
                                 hovertemplate=f"%{{x}} {kind}: ideal %{{y:.4g}} {unit}<extra>ideal</extra>",
                                 meta={"role": "ideal"}), row=1, col=1)
    eff = [100.0 * r["efficiency"] for r in rows] if has_eff else None
    if eff is not None:
        fig.add_trace(go.Scatter(x=counts, y=eff, name="parallel efficiency", mode="lines+markers+text",
                                 line=dict(color=st.PALETTE[2], width=2.5), marker=dict(size=8),
                                 text=[f"{e:.0f}%" for e in eff], textposition="top center", cliponaxis=False,
                                 hovertemplate=f"%{{x}} {kind}: %{{y:.1f}}%<extra>efficiency</extra>",
                                 meta={"role": "efficiency"}), row=2, col=1)
    series = ", ".join(x for x in (r0.get("tool"), r0.get("variant") or r0.get("family"),
                                   fmt_bytes(r0.get("msg_bytes"))) if x)
    title = f"{st.what(r0.get('operation'), r0.get('metric'))} scaling over {kind} on {_system(result)} ({unit})"
    return _scaling_finish(fig, counts, eff, kind, unit,
                           f"{title}<br><sup>{series}</sup>" if series else title)


def _scaling_systems(result: Result, groups: dict[str, list[dict]], unit: str, kind: str,
                     has_eff: bool) -> go.Figure:
    """Scaling curves of several systems on one set of axes: each system's measured line, its ideal (dashed, same
    colour) and its parallel efficiency below."""
    names = list(groups)
    colours = st.series_colours(names)
    r0 = next(iter(groups.values()))[0]
    fig = _scaling_frame(r0.get("metric"), unit, has_eff)
    counts = sorted({r["count"] for rs in groups.values() for r in rs})
    for name in names:
        rs = groups[name]
        x = [r["count"] for r in rs]
        fig.add_trace(go.Scatter(x=x, y=[r["value"] for r in rs], mode="lines+markers", name=name,
                                 line=dict(color=colours[name], width=3), marker=dict(size=8), legendgroup=name,
                                 hovertemplate=f"%{{x}} {kind}: %{{y:.4g}} {unit}<extra>{name}</extra>"), row=1, col=1)
        ideal = _ideal(rs)
        if ideal:
            fig.add_trace(go.Scatter(x=x, y=ideal, mode="lines", name=f"ideal, {name}", legendgroup=name,
                                     line=dict(color=colours[name], dash="dash", width=1.5), meta={"role": "ideal"},
                                     hovertemplate=f"%{{x}} {kind}: ideal %{{y:.4g}} {unit}<extra>{name}</extra>"),
                          row=1, col=1)
        if has_eff:
            fig.add_trace(go.Scatter(x=x, y=[100.0 * r["efficiency"] for r in rs], mode="lines+markers",
                                     name=f"efficiency, {name}", legendgroup=name, showlegend=False,
                                     line=dict(color=colours[name], width=2), marker=dict(size=6),
                                     hovertemplate=f"%{{x}} {kind}: %{{y:.1f}}%<extra>{name}</extra>",
                                     meta={"role": "efficiency"}), row=2, col=1)
    eff = [100.0 * r["efficiency"] for rs in groups.values() for r in rs] if has_eff else None
    title = f"{st.what(r0.get('operation'), r0.get('metric'))} scaling over {kind}: {' vs '.join(names)} ({unit})"
    return _scaling_finish(fig, counts, eff, kind, unit, title)


def _scaling_frame(metric: Optional[str], unit: str, has_eff: bool) -> go.Figure:
    """The scaling chart's panels: the metric over the count, and the parallel efficiency below when known."""
    return make_subplots(rows=2 if has_eff else 1, cols=1, shared_xaxes=True, vertical_spacing=0.1,
                         row_heights=[0.65, 0.35] if has_eff else None,
                         subplot_titles=[f"{st.unit_title(metric, unit)}", "parallel efficiency (%)"]
                         if has_eff else None)


def _scaling_finish(fig: go.Figure, counts: list, eff: Optional[list[float]], kind: str, unit: str,
                    title: str) -> go.Figure:
    """Axes and layout shared by one system's scaling chart and several systems' (`eff`: every efficiency
    drawn, in %, or None without an efficiency panel)."""
    if eff is not None:
        fig.add_hline(y=100, line=dict(color=st.IDEAL, dash="dash", width=1), row=2, col=1)
        fig.update_yaxes(title_text="%", range=[0, max(120, max(eff) * 1.2)], row=2, col=1)
    log_x = counts[-1] / max(counts[0], 1e-9) >= 8
    xaxis = dict(type="log", tickvals=counts, ticktext=[f"{c:g}" for c in counts]) if log_x else dict(tickvals=counts)
    fig.update_xaxes(**xaxis)
    fig.update_xaxes(title_text=f"{kind}{' (log2 scale)' if log_x else ''}", row=2 if eff is not None else 1, col=1)
    fig.update_yaxes(title_text=unit, rangemode="tozero", row=1, col=1)
    fig.update_layout(**st.base_layout(title, width=1000, height=720 if eff is not None else 540,
                                       legend=dict(orientation="h", y=-0.1, yanchor="top", x=0)))
    return fig


def _ideal(rows: list[dict]) -> Optional[list[float]]:
    """The ideal value at each count: constant for weak scaling; base x (count ratio) for a rate, base / (count
    ratio) for a time. Which of the two the planner used is read back from its speedup column."""
    r0 = rows[0]
    if any(_num(r.get("speedup")) is None or _num(r.get("ideal_speedup")) is None for r in rows) or not r0["value"]:
        return None
    base = r0["value"]
    last = rows[-1]
    rate = abs(last["speedup"] - last["value"] / base) <= abs(last["speedup"] - base / last["value"]) \
        if last["value"] else True
    return [base * r["ideal_speedup"] if rate else base / r["ideal_speedup"] for r in rows]


# ---- bars -----------------------------------------------------------------------------------------------

def compare_systems(result: Result) -> Optional[go.Figure]:
    rows = _rows_with_values(result.rows)
    if not rows:
        return None
    measures = list(dict.fromkeys(r["series"] for r in rows if r.get("series")))
    if len(measures) > 1:
        return _compare_overview(rows, measures)
    r0 = rows[0]
    unit = result.chart.get("unit") or r0.get("unit") or ""
    names = [r["system_id"] for r in rows]
    colours = st.series_colours(names)
    low = lower_is_better(r0.get("metric"))
    text = []
    for r in rows:
        ratio = _num(r.get("ratio_to_best"))
        rel = "" if ratio is None or ratio == 1 else (f" ({ratio:.2f}x the best)" if low else f" ({ratio * 100:.0f}%)")
        text.append(st.fmt_num(r["value"], unit) + rel)
    hover = [f"<b>{r['system_id']}</b><br>{st.fmt_num(r['value'], unit)}<br>{r.get('source') or ''}" for r in rows]
    fig = go.Figure(go.Bar(x=names, y=[r["value"] for r in rows], marker_color=[colours[n] for n in names],
                           text=text, textposition="outside", cliponaxis=False, hovertext=hover, hoverinfo="text",
                           name=r0.get("metric") or "value"))
    at = ", ".join(x for x in (r0.get("direction") and DIRECTION_WORDS.get(
        r0["direction"]), condition_words(r0.get("condition")), r0.get("precision"), fmt_bytes(r0.get("msg_bytes")),
        f"{r0['count']} {r0['count_kind']}" if r0.get("count") and r0.get("count_kind") else None) if x)
    if r0.get("mode") == "each_best":
        at = "each system's best at its own settings (not like for like)"
    title = (f"{st.what(r0.get('operation'), r0.get('metric'))} across systems "
             f"({', '.join(x for x in (unit, st.better_words(r0.get('metric'))) if x)})")
    fig.update_layout(**st.base_layout(f"{title}<br><sup>{at}</sup>" if at else title, width=900, height=520,
                                       showlegend=False))
    fig.update_yaxes(title=st.unit_title(r0.get("metric"), unit), rangemode="tozero")
    fig.update_xaxes(title="system")
    return fig


def _compare_overview(rows: list[dict[str, Any]], measures: list[str]) -> go.Figure:
    """Several measures compared across the same systems ("how do the DGX-2 and Yme stack up"): one panel per
    measure, each on its own axis (a bandwidth and a flop rate share no scale), systems in the same colours."""
    names = list(dict.fromkeys(r["system_id"] for r in rows))
    colours = st.series_colours(names)
    fig = make_subplots(rows=1, cols=len(measures), subplot_titles=measures, horizontal_spacing=0.08)
    for i, m in enumerate(measures, start=1):
        mine = sorted((r for r in rows if r.get("series") == m), key=lambda r: names.index(r["system_id"]))
        unit = mine[0].get("unit") or ""
        fig.add_trace(go.Bar(x=[r["system_id"] for r in mine], y=[r["value"] for r in mine],
                             marker_color=[colours[r["system_id"]] for r in mine],
                             text=[st.fmt_num(r["value"], unit) for r in mine], textposition="outside",
                             cliponaxis=False, showlegend=False,
                             hovertext=[f"<b>{r['system_id']}</b><br>{m}: {st.fmt_num(r['value'], unit)}<br>"
                                        f"{r.get('source') or ''}" for r in mine], hoverinfo="text"), row=1, col=i)
        fig.update_yaxes(title=st.unit_title(mine[0].get("metric"), unit), rangemode="tozero", row=1, col=i)
    fig.update_layout(**st.base_layout("Headline measures across systems (each system's best)",
                                       width=max(600, 380 * len(measures)), height=520, showlegend=False))
    return fig


def _row_label(r: dict[str, Any], varying: list[str]) -> str:
    bits = []
    for k in varying:
        v = r.get(k)
        if v is None:
            continue
        if k == "msg_bytes":
            bits.append(fmt_bytes(v))
        elif k == "count":
            bits.append(f"{v} {r.get('count_kind') or ''}".strip())
        elif k == "pair":
            bits.append(v)
        else:
            bits.append(str(v))
    return ", ".join(bits) or "value"


def metric_lookup(result: Result) -> Optional[go.Figure]:
    rows = _rows_with_values(result.rows)
    if not rows:
        return None
    if any(len((result.chart or {}).get(k) or []) > 1 for k in ("systems", "operations", "conditions")):
        return _lookups(result, rows)
    r0 = rows[0]
    unit = r0.get("unit") or ""
    rows = [r for r in rows if (r.get("unit") or "") == unit][:30]
    what = st.what(r0.get("operation"), r0.get("metric"))
    if len(rows) == 1:
        at = ", ".join(x for x in (r0.get("src") and r0.get("dst") and
                                   f"{st.label_endpoint(r0['src'])} → {st.label_endpoint(r0['dst'])}",
                                   fmt_bytes(r0.get("msg_bytes")), condition_words(r0.get("condition")),
                                   r0.get("precision")) if x)
        fig = go.Figure(go.Indicator(mode="number", value=r0["value"],
                                     number=dict(suffix=f" {unit}", valueformat=".4~g"),
                                     title=dict(text=f"{what} on {_system(result)}<br><sub>{at}</sub>")))
        fig.update_layout(**st.base_layout("", width=700, height=320, margin=dict(l=30, r=30, t=40, b=30)))
        return fig
    pairs = [f"{st.label_endpoint(r.get('src'))} → {st.label_endpoint(r.get('dst'))}" if r.get("src") and r.get("dst")
             else None for r in rows]
    cand = ["pair", "system_id", "operation", "metric", "msg_bytes", "count", "direction", "condition", "precision",
            "app", "statistic", "tool"]
    rows2 = [dict(r, pair=p) for r, p in zip(rows, pairs)]
    varying = [k for k in cand if len({str(r.get(k)) for r in rows2}) > 1]
    labels = ([_row_label(r, varying) for r in rows2] if varying
              else [f"measurement {i + 1}" for i in range(len(rows2))])   # they differ only in what the source says
    seen: dict[str, int] = defaultdict(int)
    for i, lab in enumerate(labels):              # repeated labels (several sources) stay separate bars
        seen[lab] += 1
        if seen[lab] > 1:
            labels[i] = f"{lab} (#{seen[lab]})"
    colours = [st.PALETTE[0] if i == 0 else "#9ecae1" for i in range(len(rows))]
    fig = go.Figure(go.Bar(y=labels, x=[r["value"] for r in rows], orientation="h", marker_color=colours,
                           text=[st.fmt_num(r["value"], unit) for r in rows], textposition="outside",
                           cliponaxis=False, hovertext=[r.get("source") or "" for r in rows],
                           hovertemplate="%{y}: %{x:.4g} " + unit + "<br>%{hovertext}<extra></extra>"))
    title = f"{what} on {_system(result)} ({unit}): {len(rows)} measurements, the answer first"
    fig.update_layout(**st.base_layout(title, width=1000, height=min(1100, 160 + 30 * len(rows)), showlegend=False))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title=st.unit_title(r0.get("metric"), unit), rangemode="tozero")
    return fig


def link_efficiency(result: Result) -> Optional[go.Figure]:
    rows = [r for r in result.rows if _num(r.get("measured")) is not None or _num(r.get("percent")) is not None]
    if not rows:
        return None
    labels = []
    systems = (result.chart or {}).get("systems") or []
    for r in rows:
        how = ", ".join(x for x in (r.get("operation"), direction_words(r.get("direction")),
                                    condition_words(r.get("condition")), r.get("test") or r.get("tool")) if x)
        pair = f"{st.label_endpoint(r['src'])} → {st.label_endpoint(r['dst'])}, " if r.get("src") and r.get("dst") else ""
        whose = f"{r.get('system_id')}: " if len(systems) > 1 else ""   # "nvlink efficiency on yme and mini summit"
        labels.append(f"{whose}{r.get('link') or '?'} ({pair}{how})")
    for i, lab in enumerate(labels):
        if labels.count(lab) > 1:
            labels[i] = f"{lab} #{labels[:i + 1].count(lab)}"
    measured = [_num(r.get("measured")) for r in rows]
    pct = [_num(r.get("percent")) for r in rows]
    # the peak a percent was taken against: a bidirectional test counts both directions, so its peak is twice
    # the per-direction nominal (read back from measured / percent, so the bars match the printed percent)
    nominal = []
    for r, m, p in zip(rows, measured, pct):
        n = _num(r.get("nominal"))
        if n and m and p and abs(m * 100 / p / n - 2) < 0.05:
            n *= 2
        nominal.append(n)
    fig = go.Figure()
    fig.add_trace(go.Bar(y=labels, x=nominal, orientation="h", name="nominal (peak; both directions for bi)",
                         marker_color=st.NOMINAL, hovertemplate="%{y}<br>nominal %{x:.4g} GB/s<extra></extra>"))
    fig.add_trace(go.Bar(y=labels, x=measured, orientation="h", name="measured", marker_color=st.MEASURED,
                         hovertemplate="%{y}<br>measured %{x:.4g} GB/s<extra></extra>"))
    # percent of peak beside each pair of bars (also where the document prints a percent without the GB/s)
    fig.add_trace(go.Scatter(
        y=labels, x=[max(m or 0, n or 0) for m, n in zip(measured, nominal)], mode="text", showlegend=False,
        text=[(f"  {p:g}% of peak" + (" (as printed)" if r.get("basis") == "as printed" else ""))
              if p is not None else "" for p, r in zip(pct, rows)],
        textposition="middle right", textfont=dict(size=11, color="#222"), hoverinfo="skip",
        meta={"role": "percent"}))
    longest = max(len(x) for x in labels)
    xmax = max([v for v in measured + nominal if v is not None] or [1])
    on = " and ".join(systems) if len(systems) > 1 else _system(result)
    title = f"Measured vs nominal bandwidth on {on} (GB/s; percent of peak labelled)"
    fig.update_layout(**st.base_layout(title, width=1100, height=min(1200, 180 + 56 * len(rows)), barmode="group",
                                       margin=dict(l=min(520, 7 * longest), r=120, t=80, b=60),
                                       legend=dict(orientation="h", y=1.02, yanchor="bottom", x=1, xanchor="right")))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title="bandwidth (GB/s)", range=[0, xmax * 1.45])
    return fig


def trace_breakdown(result: Result) -> Optional[go.Figure]:
    from app.intents.trace_breakdown import short_name
    brk = [r for r in result.rows if r.get("kind") == "breakdown" and _num(r.get("value")) is not None]
    top = [r for r in result.rows if r.get("kind") == "top" and _num(r.get("value")) is not None]
    if not brk and not top:
        return None
    cols = (1 if brk else 0) + (1 if top else 0)
    titles = ([f"GPU time per rank (ms): window = {len({r['rank'] for r in brk})} rank(s)"] if brk else []) + \
             ([f"top {len(top)} {top[0].get('category') or 'kernel'}s by total time (ms)"] if top else [])
    fig = make_subplots(rows=1, cols=cols, subplot_titles=titles, column_widths=[0.35, 0.65] if cols == 2 else None,
                        horizontal_spacing=0.3 if cols == 2 else 0.1)
    if brk:
        ranks = sorted({r["rank"] for r in brk}, key=lambda x: (x is None, x))
        x = [f"rank {k}" for k in ranks]
        for cat in result.chart.get("series") or list(st.TRACE_CATEGORIES):
            by = {r["rank"]: r for r in brk if r["category"] == cat}
            y = [by[k]["value"] / 1000 if k in by else 0 for k in ranks]
            share = [by[k].get("share") if k in by else None for k in ranks]
            fig.add_trace(go.Bar(x=x, y=y, name=cat, marker_color=st.TRACE_CATEGORIES.get(cat, st.PALETTE[0]),
                                 text=[f"{s:.0f}%" if s is not None and s >= 4 else "" for s in share],
                                 textposition="inside", customdata=share,
                                 hovertemplate=f"%{{x}} {cat}: %{{y:.3g}} ms (%{{customdata:.1f}}% of the window)"
                                 "<extra></extra>"), row=1, col=1)
        fig.update_yaxes(title_text="time (ms)", row=1, col=1)
    if top:
        tc = cols
        names = [short_name(r["name"], 48) for r in top]
        colours = [st.TRACE_CATEGORIES["communication"] if (r["name"] or "").startswith("nccl")
                   else st.TRACE_CATEGORIES["compute"] for r in top]
        fig.add_trace(go.Bar(y=names, x=[r["value"] / 1000 for r in top], orientation="h", marker_color=colours,
                             showlegend=False, text=[f"{r['value'] / 1000:.3g} ms, {r['calls']} calls" for r in top],
                             textposition="outside", cliponaxis=False, hovertext=[r["name"] for r in top],
                             hovertemplate="%{hovertext}<br>%{x:.4g} ms<extra></extra>"), row=1, col=tc)
        fig.update_yaxes(autorange="reversed", row=1, col=tc, tickfont=dict(size=10))
        fig.update_xaxes(title_text="total time (ms)", row=1, col=tc,
                         range=[0, max(r["value"] for r in top) / 1000 * 1.45])
    tset = (brk or top)[0].get("trace_set") or ""
    fig.update_layout(**st.base_layout(f"Where the time goes: {_system(result)} trace<br><sup>{tset}; communication = "
                                       "NCCL kernels with no compute beside them; idle = window - GPU busy</sup>",
                                       width=1250, height=max(520, 120 + 28 * len(top)), barmode="stack",
                                       legend=dict(orientation="h", y=-0.12, x=0)))
    return fig


def _lookups(result: Result, rows: list[dict[str, Any]]) -> Optional[go.Figure]:
    """"p2p bandwidth from gpu0 to gpu1 on yme and on the dgx2": each system's answer (its first row), one bar
    each in the order named; the other rows a lookup keeps are alternatives, not answers."""
    # "d2h vs h2d bandwidth on yme", "with peer access enabled vs disabled"
    key = "system_id" if result.chart.get("systems") else "operation" if result.chart.get("operations") \
        else "condition"
    firsts = []
    for v in result.chart.get("systems") or result.chart.get("operations") or result.chart.get("conditions"):
        r = next((r for r in rows if r.get(key) == v), None)
        if r is not None:
            firsts.append(r)
    units = {r.get("unit") or "" for r in firsts}
    if len(units) != 1:
        return None   # different quantities: the sentences say them, one axis cannot
    unit = units.pop()
    r0 = firsts[0]
    named = [condition_words(r[key]) if key == "condition" else str(r[key]) for r in firsts]
    labels = [f"{n}" + (f"<br><sub>{st.label_endpoint(r['src'])} → {st.label_endpoint(r['dst'])}</sub>"
                             if r.get("src") and r.get("dst") else "") for n, r in zip(named, firsts)]
    fig = go.Figure(go.Bar(y=labels, x=[r["value"] for r in firsts], orientation="h",
                           marker_color=[st.PALETTE[i % len(st.PALETTE)] for i in range(len(firsts))],
                           text=[st.fmt_num(r["value"], unit) for r in firsts], textposition="outside",
                           cliponaxis=False, hovertext=[r.get("source") or "" for r in firsts],
                           hovertemplate="%{y}: %{x:.4g} " + unit + "<br>%{hovertext}<extra></extra>"))
    if key == "system_id":
        title = (f"{st.what(r0.get('operation'), r0.get('metric'))} on {' and '.join(named)}"
                 f" ({unit}): each system's answer")
    elif key == "condition":
        # "p2p bandwidth with p2p enabled vs disabled": one measure under each setting, the settings in words
        title = (f"{st.what(r0.get('operation'), r0.get('metric'))} on {_system(result)}, {' vs '.join(named)} "
                 f"({unit}): each setting's answer")
    else:
        title = (f"{' vs '.join(named)} {r0.get('metric') or ''} on {_system(result)} "
                 f"({unit}): each operation's answer")
    fig.update_layout(**st.base_layout(title, width=1000, height=160 + 60 * len(firsts), showlegend=False))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title=st.unit_title(r0.get("metric"), unit), rangemode="tozero")
    return fig
