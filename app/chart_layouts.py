"""Node positions for topology figures: rule-based layouts that make known structures recognisable.

A force-directed layout turns a DGX-1 into a hairball; an HPC engineer looks for the hybrid cube-mesh, the
IPU-Link ladder, the NVSwitch planes, the hypercube. So the accelerator fabric (the "core") is placed by a
rule chosen from the graph's own structure (ids, parents, who links to whom; never a per-system table):

  hypercube   ids 0..2^d-1 of one kind, every link joins ids one bit apart (XMP-64): in-chip bits on a small
              ring per chip, chip bits as a 2-D torus in Gray order (a 4-ring per axis pair, as drawn in the
              XMOS documentation)
  planes      NVSwitches present (DGX-2): each baseboard's GPUs in a row, its NVSwitch plane beside them
  cube        8 accelerators whose links form two 4-cliques joined by a perfect matching (DGX-1): two faces
              of a cube in oblique projection, PCIe pairs on the horizontal edges
  ladder      accelerators grouped two per parent board (16-IPU system): one rung per board, the rails found
              by 2-colouring the links (links inside a board cross the ladder, links between boards run along)
  sockets     CPUs linked directly to accelerators (AC922): each CPU with its GPUs above it
  row         anything else with accelerators; no accelerators at all: a seeded spring layout

Everything else (PCIe switches, NICs, CPUs, hosts) is placed outward from the core, layer by layer by graph
distance, on the side its neighbours lie, spread so labels do not collide. chart_routing.route_edges() then
bends any link whose straight line would run through a third node.
"""
from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from typing import Optional

import networkx as nx

from app.chart_style import ACCELERATORS, natural_key

Pos = dict[str, tuple[float, float]]


@dataclass
class Layout:
    pos: Pos
    family: str
    groups: dict[str, list[str]] = field(default_factory=dict)   # parent id -> children drawn boxed together
    notes: list[str] = field(default_factory=list)
    sides: tuple[str, ...] = ("top", "bottom", "left", "right")   # where the periphery may go
    default_side: str = "bottom"
    # links drawn by the layout itself (a torus's wrap-around links as two stubs leaving the grid)
    fixed_routes: dict[frozenset, list[list[tuple[float, float]]]] = field(default_factory=dict)
    core: set[str] = field(default_factory=set)                   # nodes placed by the family rule


def graph_of(nodes: list[dict], edges: list[dict]) -> nx.Graph:
    g = nx.Graph()
    for n in nodes:
        g.add_node(n["id"], kind=n.get("kind"), parent=n.get("parent"), label=n.get("label"))
    for e in edges:
        for x in (e["source"], e["target"]):
            if x not in g:
                g.add_node(x, kind=re.sub(r"\d+$", "", x), parent=None, label=x)
        if g.has_edge(e["source"], e["target"]):
            g.edges[e["source"], e["target"]]["types"].append(e.get("type"))
        else:
            g.add_edge(e["source"], e["target"], types=[e.get("type")])
    return g


def _num(x: str) -> Optional[int]:
    m = re.search(r"(\d+)$", x)
    return int(m.group(1)) if m else None


def _sorted(ids) -> list[str]:
    return sorted(ids, key=natural_key)


def _accels(g: nx.Graph) -> list[str]:
    return _sorted(n for n, d in g.nodes(data=True) if d.get("kind") in ACCELERATORS)


# ---- structure tests -----------------------------------------------------------------------------------

def hypercube_dim(g: nx.Graph) -> Optional[int]:
    """d when the graph is a d-cube numbered so that links join ids one bit apart (d >= 3)."""
    n = g.number_of_nodes()
    if n < 8 or n & (n - 1):
        return None
    d = n.bit_length() - 1
    prefixes = {re.sub(r"\d+$", "", x) for x in g}
    nums = {_num(x) for x in g}
    if len(prefixes) != 1 or nums != set(range(n)) or g.number_of_edges() != n * d // 2:
        return None
    for u, v in g.edges:
        x = _num(u) ^ _num(v)
        if x & (x - 1):
            return None
    return d


def cube_quads(g: nx.Graph, acc: list[str]) -> Optional[tuple[list[str], list[str], dict[str, str]]]:
    """Two 4-cliques of accelerators joined by a perfect matching (the DGX-1 hybrid cube-mesh)."""
    if len(acc) != 8:
        return None
    h = g.subgraph(acc)
    cliques = [set(c) for c in combinations(acc, 4) if all(h.has_edge(a, b) for a, b in combinations(c, 2))]
    for qa in cliques:
        qb = set(acc) - qa
        if qb not in cliques:
            continue
        match = {a: [b for b in qb if h.has_edge(a, b)] for a in qa}
        if all(len(v) == 1 for v in match.values()) and len({v[0] for v in match.values()}) == 4:
            a_sorted = _sorted(qa)
            return a_sorted, _sorted(qb), {a: match[a][0] for a in a_sorted}
    return None


# ---- core layouts ---------------------------------------------------------------------------------------

def _gray_pos(value: int, bits: int) -> int:
    """Position of `value` in the reflected Gray sequence of `bits` bits (neighbours differ in one bit)."""
    for p in range(1 << bits):
        if p ^ (p >> 1) == value:
            return p
    raise ValueError(value)


def _bits_value(x: int, bits: list[int]) -> int:
    return sum(((x >> b) & 1) << i for i, b in enumerate(bits))


def layout_hypercube(g: nx.Graph, d: int) -> Layout:
    inner = [b for b in range(d) if any(g.nodes[u].get("parent") and g.nodes[u]["parent"] == g.nodes[v]["parent"]
                                        for u, v in g.edges if _num(u) ^ _num(v) == 1 << b)]
    outer = [b for b in range(d) if b not in inner]
    if not inner:                       # no grouping known: the two lowest bits make the small rings
        inner, outer = list(range(min(2, d))), list(range(min(2, d), d))
    xb, yb = outer[: (len(outer) + 1) // 2], outer[(len(outer) + 1) // 2:]
    spacing, radius = 2.4, 0.62
    k = len(inner)
    pos: Pos = {}
    cell: dict[str, tuple[int, int]] = {}
    groups: dict[str, list[str]] = defaultdict(list)
    for n in g:
        x = _num(n)
        col, row = _gray_pos(_bits_value(x, xb), len(xb)), _gray_pos(_bits_value(x, yb), len(yb))
        cell[n] = (col, row)
        slot = _gray_pos(_bits_value(x, inner), k)
        # a small ring turned off the axes so that links leaving it along a row or column miss its other nodes
        ang = math.radians(22.5) + 2 * math.pi * slot / (1 << k) + math.pi / 2
        pos[n] = (col * spacing + radius * math.cos(ang), -row * spacing + radius * math.sin(ang))
        if g.nodes[n].get("parent"):
            groups[g.nodes[n]["parent"]].append(n)
    # links between the first and last chip of a row or column wrap around the torus: two stubs off the grid
    x_lo, x_hi = -radius - 0.9, (len({c for c, _ in cell.values()}) - 1) * spacing + radius + 0.9
    y_hi, y_lo = radius + 0.9, -(len({r for _, r in cell.values()}) - 1) * spacing - radius - 0.9
    fixed: dict[frozenset, list] = {}
    for u, v in g.edges:
        (cu, ru), (cv, rv) = cell[u], cell[v]
        if abs(cu - cv) > 1:
            lo, hi = (u, v) if cu < cv else (v, u)
            fixed[frozenset((u, v))] = [[pos[lo], (x_lo, pos[lo][1])], [pos[hi], (x_hi, pos[hi][1])]]
        elif abs(ru - rv) > 1:
            lo, hi = (u, v) if ru < rv else (v, u)
            fixed[frozenset((u, v))] = [[pos[lo], (pos[lo][0], y_hi)], [pos[hi], (pos[hi][0], y_lo)]]
    return Layout(pos, "hypercube", dict(groups),
                  [f"{d}-D hypercube drawn as a {1 << len(xb)} x {1 << len(yb)} torus of {1 << k}-rings "
                   "(Gray order); links leaving the grid wrap around to the opposite side"], fixed_routes=fixed)


def layout_planes(g: nx.Graph, acc: list[str]) -> Layout:
    sw = _sorted(n for n, d in g.nodes(data=True) if d.get("kind") == "nvswitch")
    boards = _sorted({g.nodes[n].get("parent") for n in acc + sw} - {None}) or [None]
    pos: Pos = {}
    groups: dict[str, list[str]] = {}
    width = max(len([a for a in acc if g.nodes[a].get("parent") == b]) for b in boards) or len(acc)
    gap = 1.5
    for i, b in enumerate(boards):
        sign = 1 if i % 2 == 0 else -1
        level = i // 2
        ga = [a for a in acc if g.nodes[a].get("parent") == b] if b else acc
        gs = [s for s in sw if g.nodes[s].get("parent") == b] if b else sw
        if i % 2 == 1:       # the facing plane lines up under the switches it bridges to
            gs = sorted(gs, key=lambda s: (_mean_x(pos, [t for t in g[s] if t in pos and t in sw]), natural_key(s)))
        _row(pos, ga, sign * (3.2 + level * 7), gap, width)
        _row(pos, gs, sign * (1.0 + level * 7), gap * max(len(ga) - 1, 1) / max(len(gs) - 1, 1), width)
        if b:
            groups[b] = ga + gs
    return Layout(pos, "planes", groups, sides=("top", "bottom"))


def _mean_x(pos: Pos, ids: list[str]) -> float:
    return sum(pos[i][0] for i in ids) / len(ids) if ids else math.inf


def _row(pos: Pos, ids: list[str], y: float, gap: float, width: int) -> None:
    x0 = -(len(ids) - 1) * gap / 2
    for i, n in enumerate(ids):
        pos[n] = (x0 + i * gap, y)


def _shared_partner(g: nx.Graph, a: str, quad: list[str]) -> Optional[str]:
    """The accelerator of the quad that shares a non-accelerator neighbour (a PCIe switch) with a."""
    mine = {n for n in g[a] if g.nodes[n].get("kind") not in ACCELERATORS}
    for b in quad:
        if b != a and mine & {n for n in g[b] if g.nodes[n].get("kind") not in ACCELERATORS}:
            return b
    return None


def layout_cube(g: nx.Graph, qa: list[str], qb: list[str], match: dict[str, str]) -> Layout:
    first = qa[0]
    mate = _shared_partner(g, first, qa) or qa[1]
    rest = [x for x in qa if x not in (first, mate)]
    bottom, top = _sorted([first, mate]), _sorted(rest)
    # front face side and the back face's offset: 1.5 s right and 0.55 s up keeps every link at least 0.34 s
    # away from every node it does not join (searched over offsets; any smaller offset crowds the diagonals)
    s = 2.6
    ox, oy = 1.5 * s, 0.55 * s
    corners = {bottom[0]: (0, 0), bottom[1]: (s, 0), top[0]: (0, s), top[1]: (s, s)}
    pos: Pos = dict(corners)
    for a, b in match.items():
        pos[b] = (corners[a][0] + ox, corners[a][1] + oy)
    return Layout(pos, "cube", {}, ["hybrid cube-mesh: two fully linked quads as the front and back faces of "
                                    "a cube; the links between the quads are the cube's depth edges"])


def layout_ladder(g: nx.Graph, acc: list[str]) -> Layout:
    boards = _sorted({g.nodes[a].get("parent") for a in acc} - {None})
    row = {b: (_num(b) if _num(b) is not None else i) for i, b in enumerate(boards)}
    fabric = g.subgraph(acc)
    col: dict[str, int] = {}
    for start in sorted((a for a in acc if g.nodes[a].get("parent")),
                        key=lambda a: (row[g.nodes[a]["parent"]], natural_key(a))):
        if start in col:
            continue
        col[start] = 0
        todo = [start]
        while todo:
            u = todo.pop()
            for v in _sorted(fabric[u]):
                if v in col or not g.nodes[v].get("parent"):
                    continue
                across = g.nodes[v]["parent"] == g.nodes[u]["parent"]   # a rung crosses, a rail runs along
                col[v] = col[u] ^ 1 if across else col[u]
                todo.append(v)
    pos: Pos = {}
    groups: dict[str, list[str]] = defaultdict(list)
    dx, dy = 2.2, 1.25
    for a in acc:
        b = g.nodes[a].get("parent")
        if b is None:
            continue
        mates = [x for x in acc if g.nodes[x].get("parent") == b]
        c = col.get(a, mates.index(a) % 2)
        if sum(1 for x in mates if col.get(x, -1) == c) > 1 and a != min(mates, key=natural_key):
            c ^= 1                                    # two on one side with no link between them: spread
        pos[a] = (c * dx, -row[b] * dy)
        groups[b].append(a)
    loose = [a for a in acc if a not in pos]
    notes = []
    if loose:
        top = max((p[1] for p in pos.values()), default=0.0)
        for i, a in enumerate(loose):
            pos[a] = (2 * dx + 1.6, top - i * dy)
        notes.append(f"{', '.join(loose)}: board and ladder position not stated; shown apart on the right")
    return Layout(pos, "ladder", dict(groups), notes, default_side="left")


def layout_sockets(g: nx.Graph, acc: list[str], cpus: list[str]) -> Layout:
    owner: dict[str, str] = {}
    for a in acc:
        linked = [c for c in cpus if g.has_edge(a, c)]
        if linked:
            owner[a] = linked[0]
    per = max((sum(1 for a in acc if owner.get(a) == c) for c in cpus), default=1)
    gap = 1.7
    pitch = max(per, 1) * gap + 1.8
    pos: Pos = {}
    for i, c in enumerate(cpus):
        pos[c] = (i * pitch, 0.0)
        mine = [a for a in acc if owner.get(a) == c]
        x0 = i * pitch - (len(mine) - 1) * gap / 2
        for j, a in enumerate(mine):
            pos[a] = (x0 + j * gap, 1.9)
    rest = [a for a in acc if a not in owner]
    _row(pos, rest, 3.8, gap, len(rest))
    return Layout(pos, "sockets", sides=("top", "bottom"))


def layout_row(acc: list[str]) -> Layout:
    pos: Pos = {}
    _row(pos, acc, 0.0, 2.4 if len(acc) <= 4 else 1.5, len(acc))
    return Layout(pos, "row", sides=("top", "bottom"))


def layout_spring(g: nx.Graph) -> Layout:
    hubs = [n for n in g if g.degree(n) == g.number_of_nodes() - 1]
    if g.number_of_nodes() > 3 and len(hubs) == 1 and g.number_of_edges() == g.number_of_nodes() - 1:
        leaves = _sorted(n for n in g if n != hubs[0])        # a star: the leaves round the hub in id order
        r = max(2.0, 0.45 * len(leaves))
        pos = {hubs[0]: (0.0, 0.0)}
        for i, n in enumerate(leaves):
            ang = math.pi / 2 - 2 * math.pi * i / len(leaves)
            pos[n] = (r * math.cos(ang), r * math.sin(ang))
        return Layout(pos, "star")
    h = nx.Graph()
    h.add_nodes_from(_sorted(g))                       # fixed insertion order: the seed then fixes the result
    h.add_edges_from(sorted(g.edges, key=lambda e: (natural_key(e[0]), natural_key(e[1]))))
    raw = nx.spring_layout(h, seed=7, k=1.6 / math.sqrt(max(h.number_of_nodes(), 1)))
    scale = 1.1 * math.sqrt(max(h.number_of_nodes(), 2))
    return Layout({n: (float(p[0]) * scale, float(p[1]) * scale) for n, p in raw.items()}, "spring")


# ---- the periphery --------------------------------------------------------------------------------------

def place_periphery(g: nx.Graph, pos: Pos, default_side: str = "bottom", gap: float = 1.5,
                    spacing: float = 1.35, sides: tuple[str, ...] = ("top", "bottom", "left", "right")) -> None:
    """Place every node not yet placed outward from the core: layer k (graph distance k from the placed
    nodes) on the side where its placed neighbours lie, spread along that side without collisions."""
    if not pos:
        return
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    half = max(max(xs) - min(xs), max(ys) - min(ys)) / 2 + 1.0
    edge = {"top": max(ys), "bottom": min(ys), "left": min(xs), "right": max(xs)}
    depth: dict[str, int] = defaultdict(int)          # rows used so far on each side
    placed = set(pos)
    while True:
        layer = _sorted(n for n in g if n not in placed and any(m in placed for m in g[n]))
        if not layer:
            break
        rows: dict[str, list[tuple[str, float]]] = defaultdict(list)
        for n in layer:
            nb = [pos[m] for m in g[n] if m in placed]
            mx, my = sum(p[0] for p in nb) / len(nb), sum(p[1] for p in nb) / len(nb)
            dx, dy = (mx - cx) / half, (my - cy) / half
            only_vertical = "left" not in sides
            if max(abs(dx), abs(dy)) < 0.2 and (only_vertical or abs(dy) < 0.1):
                side = default_side
            elif only_vertical or abs(dy) >= 0.1 or abs(dy) >= abs(dx):
                side = "top" if dy > 0 else ("bottom" if dy < 0 else default_side)
            else:
                side = "right" if dx > 0 else "left"
            rows[side].append((n, mx if side in ("top", "bottom") else my))
        for side, members in rows.items():
            depth[side] += 1
            off = depth[side] * gap
            line = {"top": edge["top"] + off, "bottom": edge["bottom"] - off,
                    "left": edge["left"] - off * 1.3, "right": edge["right"] + off * 1.3}[side]
            for n, along in _spread(members, spacing):
                pos[n] = (along, line) if side in ("top", "bottom") else (line, along)
        placed |= set(layer)


def _spread(members: list[tuple[str, float]], spacing: float) -> list[tuple[str, float]]:
    """Keep each wanted coordinate where possible, push neighbours apart to `spacing`, keep the mean."""
    items = sorted(members, key=lambda m: (m[1], natural_key(m[0])))
    out: list[list] = []
    for n, want in items:
        at = want if not out else max(want, out[-1][1] + spacing)
        out.append([n, at])
    shift = sum(w for _, w in items) / len(items) - sum(a for _, a in out) / len(out)
    return [(n, a + shift) for n, a in out]


# ---- entry point ----------------------------------------------------------------------------------------

def layout(nodes: list[dict], edges: list[dict]) -> Layout:
    g = graph_of(nodes, edges)
    acc = _accels(g)
    cpus = _sorted(n for n, d in g.nodes(data=True) if d.get("kind") == "cpu")
    d = hypercube_dim(g)
    if d:
        lay = layout_hypercube(g, d)
    elif acc and any(g.nodes[n].get("kind") == "nvswitch" for n in g):
        lay = layout_planes(g, acc)
    elif (cube := cube_quads(g, acc)) is not None:
        lay = layout_cube(g, *cube)
    elif len(acc) >= 4 and _ladder_like(g, acc):
        lay = layout_ladder(g, acc)
    elif acc and any(g.has_edge(a, c) for a in acc for c in cpus):
        lay = layout_sockets(g, acc, cpus)
    elif acc:
        lay = layout_row(acc)
    else:
        return layout_spring(g)
    lay.core = set(lay.pos)
    place_periphery(g, lay.pos, lay.default_side, sides=lay.sides)
    missing = [n for n in g if n not in lay.pos]
    if missing:                                        # parts not connected to the core: beside it
        rest = layout_spring(g.subgraph(missing)).pos
        x_right = max(p[0] for p in lay.pos.values()) + 2.5
        x_min = min(p[0] for p in rest.values())
        y_mid = sum(p[1] for p in lay.pos.values()) / len(lay.pos)
        for n, (x, y) in rest.items():
            lay.pos[n] = (x - x_min + x_right, y + y_mid)
    return lay


def _ladder_like(g: nx.Graph, acc: list[str]) -> bool:
    parents = defaultdict(list)
    for a in acc:
        if g.nodes[a].get("parent"):
            parents[g.nodes[a]["parent"]].append(a)
    fabric = g.subgraph(acc).number_of_edges()
    return len(parents) >= 2 and fabric > 0 and all(len(v) <= 2 for v in parents.values())
