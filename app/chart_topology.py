"""The topology figure: components as markers by kind, links as lines coloured by type and labelled with
their nominal bandwidth, a path or a selection drawn with a gold halo. Positions come from chart_layouts."""
from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Optional

import plotly.graph_objects as go

from app import chart_style as st
from app.chart_layouts import Layout, layout
from app.chart_routing import route_edges
from app.result import Result

MAX_EDGE_LABELS = 40        # above this many links the labels would hide the structure: hover and legend only


def _width(count: Optional[int]) -> float:
    return min(1.6 + 1.8 * math.log2(max(count or 1, 1)), 8.0)


def _bucket_name(t: str, count: int, bw: Optional[float], n: int) -> str:
    bw_s = f"{bw:g} GB/s" if bw is not None else "GB/s not stored"
    return f"{t}{f' x{count}' if count > 1 else ''} · {bw_s} ({n} link{'s' if n != 1 else ''})"


def _edge_text(e: dict[str, Any]) -> str:
    c, bw = e.get("count") or 1, e.get("bw_gbps_per_dir")
    parts = [f"x{c}"] if c > 1 else []
    if bw is not None:
        parts.append(f"{bw:g} GB/s")
    return " ".join(parts)


def _edge_hover(e: dict[str, Any], g_label, wraps: bool) -> str:
    c, bw = e.get("count") or 1, e.get("bw_gbps_per_dir")
    bw_s = f"{bw:g} GB/s per direction (nominal)" if bw is not None else "nominal bandwidth not stored"
    return (f"<b>{g_label(e['source'])} – {g_label(e['target'])}</b><br>{e.get('type')}"
            f"{f' x{c} links' if c > 1 else ''}<br>{bw_s}{'<br>wraps around the torus' if wraps else ''}")


def _shift(poly: list, off: float) -> list:
    if not off:
        return poly
    (ax, ay), (bx, by) = poly[0], poly[-1]
    L = math.hypot(bx - ax, by - ay) or 1.0
    nx_, ny_ = -(by - ay) / L * off, (bx - ax) / L * off
    return [(x + nx_, y + ny_) for x, y in poly]


def _polyline_xy(pieces: list[list]) -> tuple[list, list]:
    xs: list = []
    ys: list = []
    for p in pieces:
        xs += [q[0] for q in p] + [None]
        ys += [q[1] for q in p] + [None]
    return xs, ys


def _midpoint(poly: list) -> tuple[float, float]:
    if len(poly) == 2:
        return ((poly[0][0] + poly[1][0]) / 2, (poly[0][1] + poly[1][1]) / 2)
    return poly[len(poly) // 2]


def _label_point(poly: list, centre: tuple[float, float], off: float = 0.3) -> tuple[float, float]:
    """Beside the link's middle, on the side away from the drawing's centre, so the text sits off the line."""
    (ax, ay), (bx, by) = poly[0], poly[-1]
    mx, my = _midpoint(poly)
    L = math.hypot(bx - ax, by - ay) or 1.0
    nx_, ny_ = -(by - ay) / L, (bx - ax) / L
    if (mx - centre[0]) * nx_ + (my - centre[1]) * ny_ < 0:
        nx_, ny_ = -nx_, -ny_
    return mx + nx_ * off, my + ny_ * off


def _labelled_types(edges: list[dict]) -> set[str]:
    """Label links on the drawing where the label says more than the legend: every link when there are few,
    else the types whose links differ in count or bandwidth (DGX-1 NVLink x1 vs x2, IPU-Link rungs vs rails)."""
    by: dict[str, set] = defaultdict(set)
    n: dict[str, int] = defaultdict(int)
    for e in edges:
        t = e.get("type") or "link"
        n[t] += 1
        if e.get("bw_gbps_per_dir") is not None or (e.get("count") or 1) > 1:
            by[t].add((e.get("count") or 1, e.get("bw_gbps_per_dir")))
    if len(edges) <= 8:
        return set(n)
    return {t for t, v in by.items() if len(v) > 1 and n[t] <= MAX_EDGE_LABELS}


def network_figure(result: Result) -> Optional[go.Figure]:
    c = result.chart
    nodes: list[dict] = list(c.get("nodes") or [])
    edges: list[dict] = list(c.get("edges") or [])
    if not nodes or not edges:
        return None
    lay: Layout = layout(nodes, edges)
    pos = lay.pos
    kinds = {n["id"]: n.get("kind") for n in nodes}
    hl = {frozenset(p) for p in (c.get("highlight") or []) if len(p) == 2}
    slots = result.slots or {}
    path_mode = bool(slots.get("src") and slots.get("dst")) and bool(hl)
    system = slots.get("system") or (result.rows[0].get("system_id") if result.rows else "")
    xs_all, ys_all = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    centre = ((min(xs_all) + max(xs_all)) / 2, (min(ys_all) + max(ys_all)) / 2)

    def g_label(n: str) -> str:
        return st.short_node_label(n, kinds.get(n))

    # one route per pair; parallel rows of one pair (two link types) sit side by side
    by_pair: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for e in edges:
        by_pair[(e["source"], e["target"])].append(e)
    free = [pr for pr in by_pair if frozenset(pr) not in lay.fixed_routes]
    routes = route_edges(pos, free, core=lay.core)
    polys: list[tuple[dict, list[list]]] = []          # (edge, pieces)
    for pair, es in by_pair.items():
        fixed = lay.fixed_routes.get(frozenset(pair))
        for i, e in enumerate(es):
            pieces = fixed if fixed else [_shift(routes[pair], (i - (len(es) - 1) / 2) * 0.14)]
            polys.append((e, pieces))

    def on_path(e: dict) -> bool:
        return frozenset((e["source"], e["target"])) in hl

    fig = go.Figure()
    _group_boxes(fig, lay, pos)
    # the highlight halo under everything else
    hl_items = [(e, ps) for e, ps in polys if on_path(e)]
    if hl_items:
        xs, ys = _polyline_xy([p for _, ps in hl_items for p in ps])
        wmax = max(_width(e.get("count")) for e, _ in hl_items)
        name = (f"path {g_label(slots['src'])} → {g_label(slots['dst'])} ({len(hl)} hop{'s' if len(hl) != 1 else ''})"
                if path_mode else f"selected links ({len(hl_items)})")
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=name, hoverinfo="skip",
                                 line=dict(color=st.HIGHLIGHT, width=wmax + 9), opacity=0.75,
                                 meta={"role": "highlight", "links": len(hl_items)}))
    # links: one trace per (type, count, bandwidth): a legend entry says what each line style means
    per_type = defaultdict(int)
    for e in edges:
        per_type[e.get("type") or "link"] += 1
    buckets: dict[tuple, list] = defaultdict(list)
    for e, ps in polys:
        key = (e.get("type") or "link", e.get("count") or 1, e.get("bw_gbps_per_dir"))
        buckets[key].append((e, ps))
    for (t, cnt, bw), items in sorted(buckets.items(), key=lambda kv: (st.natural_key(kv[0][0]), kv[0][1],
                                                                      kv[0][2] or 0)):
        minor = t.lower().startswith("pcie") or per_type[t] > 60    # host plumbing and dense fabrics recede
        for faded in (False, True):
            part = [(e, ps) for e, ps in items if (bool(hl) and not on_path(e)) == faded]
            if not part:
                continue
            xs, ys = _polyline_xy([p for _, ps in part for p in ps])
            fig.add_trace(go.Scatter(
                x=xs, y=ys, mode="lines", name=_bucket_name(t, cnt, bw, len(items)),
                legendgroup=f"link:{t}:{cnt}:{bw}", showlegend=not faded or len(part) == len(items),
                hoverinfo="skip",
                line=dict(color=st.link_colour(t), width=_width(cnt) * (0.75 if minor else 1.0)),
                opacity=(0.25 if faded else (0.55 if minor else 0.9)),
                meta={"role": "edges", "type": t, "links": len(part)}))
    # labels where they add to the legend; hover points on every link
    labelled = _labelled_types(edges)
    lab = [(_label_point(ps[0], centre), _edge_text(e)) for e, ps in polys
           if (e.get("type") or "link") in labelled and _edge_text(e) and frozenset((e["source"], e["target"]))
           not in lay.fixed_routes]
    lab = _unclash(lab)
    if lab:
        fig.add_trace(go.Scatter(x=[m[0] for m, _ in lab], y=[m[1] for m, _ in lab], mode="text",
                                 text=[t for _, t in lab], textfont=dict(size=11, color="#333"),
                                 hoverinfo="skip", showlegend=False, meta={"role": "edge_labels"}))
    mids = []
    for e, ps in polys:
        wraps = frozenset((e["source"], e["target"])) in lay.fixed_routes
        mids.append((ps[0][-1] if wraps else _midpoint(ps[0]), _edge_hover(e, g_label, wraps)))
    fig.add_trace(go.Scatter(x=[m[0] for m, _ in mids], y=[m[1] for m, _ in mids], mode="markers",
                             marker=dict(size=12, color="rgba(0,0,0,0)"), showlegend=False,
                             hovertext=[h for _, h in mids], hoverinfo="text", meta={"role": "edge_hover"}))
    # components, one trace per kind
    ends = {slots.get("src"), slots.get("dst")} if path_mode else set()
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for n in nodes:
        by_kind[n.get("kind") or "other"].append(n)
    degree = defaultdict(list)
    for e in edges:
        degree[e["source"]].append(e)
        degree[e["target"]].append(e)
    small = len(nodes) > 30
    for kind in sorted(by_kind, key=lambda k: (k not in st.ACCELERATORS, k)):
        ns = sorted(by_kind[kind], key=lambda n: st.natural_key(n["id"]))
        sym, col = st.node_style(kind)
        inside = kind == "core"
        size = 20 if inside else (24 if kind in st.ACCELERATORS else 18) - (4 if small else 0)
        fig.add_trace(go.Scatter(
            x=[pos[n["id"]][0] for n in ns], y=[pos[n["id"]][1] for n in ns],
            mode="markers+text", name=f"{kind.replace('_', ' ')} ({len(ns)})",
            text=[g_label(n["id"]) for n in ns],
            textposition="middle center" if inside else "top center",
            textfont=dict(size=10 if inside or small else 12, color="white" if inside else "#222"),
            marker=dict(symbol=sym, size=size, color=col,
                        line=dict(color=[st.HIGHLIGHT if n["id"] in ends else "white" for n in ns],
                                  width=[5 if n["id"] in ends else 1.5 for n in ns])),
            hovertext=[_node_hover(n, degree[n["id"]]) for n in ns], hoverinfo="text",
            meta={"role": "nodes", "kind": kind, "ids": [n["id"] for n in ns]}))
    pts = list(pos.values()) + [q for _, ps in polys for piece in ps for q in piece]
    _finish(fig, lay, pts, system, len(nodes), len(edges), path_mode, slots, hl, g_label)
    return fig


def _type_stats(edges: list[dict]) -> dict[str, str]:
    out = {}
    by: dict[str, list[dict]] = defaultdict(list)
    for e in edges:
        by[e.get("type") or "link"].append(e)
    for t, es in by.items():
        bws = sorted({e["bw_gbps_per_dir"] for e in es if e.get("bw_gbps_per_dir") is not None})
        bw = (", ".join(f"{b:g}" for b in bws) + " GB/s") if bws else "GB/s not stored"
        out[t] = f"{t} ({len(es)} link{'s' if len(es) != 1 else ''}; {bw})"
    return out


def _node_hover(n: dict, es: list[dict]) -> str:
    by: dict[str, int] = defaultdict(int)
    for e in es:
        by[e.get("type") or "link"] += e.get("count") or 1
    links = ", ".join(f"{t} x{k}" for t, k in sorted(by.items()))
    parent = f"<br>in {n['parent']}" if n.get("parent") else ""
    return f"<b>{n.get('label') or n['id']}</b><br>{n['id']} ({n.get('kind')}){parent}<br>links: {links or 'none'}"


def _unclash(lab: list) -> list:
    """Labels of crossing links (a quad's diagonals) would print on top of each other: nudge the later one."""
    out = []
    for (x, y), t in lab:
        while any(abs(x - a) < 0.35 and abs(y - b) < 0.22 for (a, b), _ in out):
            y -= 0.28
        out.append(((x, y), t))
    return out


def _group_boxes(fig: go.Figure, lay: Layout, pos) -> None:
    """A faint box per parent (board, baseboard, chip). Boxes stacked in one column are named on their left,
    where no link label sits; boxes in a grid are named above their top-left corner."""
    boxes = []
    for parent, kids in sorted(lay.groups.items(), key=lambda kv: st.natural_key(kv[0])):
        pts = [pos[k] for k in kids if k in pos]
        if len(pts) < 2:
            continue
        pad = 0.55
        boxes.append((parent, min(p[0] for p in pts) - pad, max(p[0] for p in pts) + pad,
                      min(p[1] for p in pts) - pad, max(p[1] for p in pts) + pad))
    column = all(a[1] < b[2] and b[1] < a[2] for a in boxes for b in boxes)
    for parent, x0, x1, y0, y1 in boxes:
        fig.add_shape(type="rect", x0=x0, x1=x1, y0=y0, y1=y1, layer="below",
                      line=dict(color="#c8ccd2", width=1, dash="dot"), fillcolor="rgba(200,204,210,0.12)")
        if column:
            fig.add_annotation(x=x0 - 0.1, y=(y0 + y1) / 2, text=parent, showarrow=False, xanchor="right",
                               yanchor="middle", font=dict(size=10, color="#7a7f87"))
        else:
            fig.add_annotation(x=x0, y=y1, text=parent, showarrow=False, xanchor="left", yanchor="bottom",
                               font=dict(size=10, color="#7a7f87"))


def _finish(fig, lay, pts, system, n_nodes, n_edges, path_mode, slots, hl, g_label) -> None:
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    w, h = max(xs) - min(xs) + 3.0, max(ys) - min(ys) + 3.0
    width = 1100
    height = int(min(1000, max(460, (width - 260) * h / w + 140)))
    if path_mode:
        title = (f"Path {g_label(slots['src'])} → {g_label(slots['dst'])} on {system}: {len(hl)} "
                 f"hop{'s' if len(hl) != 1 else ''} (gold)")
    else:
        title = f"Topology of {system}: {n_nodes} components, {n_edges} links"
        if hl:
            title += f" ({len(hl)} selected, gold)"
    sub = "links coloured by type, labelled with nominal GB/s per direction (xN = parallel links); hover for details"
    notes = lay.notes
    fig.update_layout(**st.base_layout(f"{title}<br><sup>{sub}</sup>", width=width, height=height,
                                       legend=dict(orientation="v", x=1.01, y=1, font=dict(size=11)),
                                       margin=dict(l=20, r=20, t=80, b=40 + 18 * len(notes)),
                                       hovermode="closest", meta={"family": lay.family}))
    fig.update_xaxes(visible=False, range=[min(xs) - 1.2, max(xs) + 1.2])
    fig.update_yaxes(visible=False, range=[min(ys) - 1.0, max(ys) + 1.0], scaleanchor="x", scaleratio=1)
    for i, note in enumerate(notes):
        fig.add_annotation(xref="paper", yref="paper", x=0, y=-0.01 - 0.035 * i, showarrow=False, xanchor="left",
                           yanchor="top", text=note, font=dict(size=11, color="#666"))
