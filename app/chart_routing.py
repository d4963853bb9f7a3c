"""Link routing for topology figures: straight lines where they are clear, bows around nodes they would run
through, arches around the whole drawing for links between its opposite sides (CPU to CPU across a DGX)."""
from __future__ import annotations

import math
from typing import Optional

Pos = dict[str, tuple[float, float]]


def _dist_point_segment(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    vx, vy = bx - ax, by - ay
    L2 = vx * vx + vy * vy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((px - ax) * vx + (py - ay) * vy) / L2))
    return math.hypot(px - (ax + t * vx), py - (ay + t * vy))


def _bezier(a, c, b, n: int = 24) -> list[tuple[float, float]]:
    pts = []
    for i in range(n + 1):
        t = i / n
        pts.append(((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0],
                    (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1]))
    return pts


def _clearance(pts, others) -> float:
    best = math.inf
    for p in others:
        for a, b in zip(pts, pts[1:]):
            best = min(best, _dist_point_segment(p, a, b))
    return best


def _crosses(a, b, box, n: int = 64) -> bool:
    x0, x1, y0, y1 = box
    for i in range(n + 1):
        t = i / n
        x, y = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
        if x0 <= x <= x1 and y0 <= y <= y1:
            return True
    return False


def _arch(a, b, pts: list, margin: float = 0.9, n: int = 32) -> list[tuple[float, float]]:
    """A cubic arch from a to b over (or beside) every node: a link between the two sides of a drawing."""
    horizontal = abs(b[0] - a[0]) >= abs(b[1] - a[1])
    k = 1 if horizontal else 0                         # the coordinate the arch bulges along
    lo, hi = min(p[k] for p in pts) - margin, max(p[k] for p in pts) + margin
    ends = (a[k] + b[k]) / 2
    target = hi if hi - ends <= ends - lo else lo
    ctrl = ends + (target - ends) / 0.75               # a cubic with both controls at c peaks at 0.75 c
    c1, c2 = list(a), list(b)
    c1[k] = c2[k] = ctrl
    out = []
    for i in range(n + 1):
        t = i / n
        w = ((1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3)
        out.append((w[0] * a[0] + w[1] * c1[0] + w[2] * c2[0] + w[3] * b[0],
                    w[0] * a[1] + w[1] * c1[1] + w[2] * c2[1] + w[3] * b[1]))
    return out


def route_edges(pos: Pos, pairs: list[tuple[str, str]], clear: float = 0.3,
                core: Optional[set[str]] = None) -> dict[tuple[str, str], list]:
    """A polyline per link: straight unless it would pass within `clear` of a third node; then the
    smallest bow (either side) that clears, or the best one tried. A link between two nodes outside the
    core (CPU to CPU across a DGX) also keeps out of the core's box, so it runs around the fabric."""
    out: dict[tuple[str, str], list] = {}
    pts_all = list(pos.items())
    centre_box = None
    if core:
        cx = [pos[n][0] for n in core if n in pos]
        cy = [pos[n][1] for n in core if n in pos]
        if cx:
            # the middle half of the core: a link through it crosses the fabric rather than clipping a corner
            w, h = max(cx) - min(cx), max(cy) - min(cy)
            centre_box = (min(cx) + w / 4, max(cx) - w / 4, min(cy) + h / 4, max(cy) - h / 4)
    for u, v in pairs:
        a, b = pos[u], pos[v]
        box = (min(a[0], b[0]) - 6, max(a[0], b[0]) + 6, min(a[1], b[1]) - 6, max(a[1], b[1]) + 6)
        others = [p for n, p in pts_all if n not in (u, v) and box[0] <= p[0] <= box[1] and box[2] <= p[1] <= box[3]]
        straight = [a, b]
        if centre_box and u not in core and v not in core and _crosses(a, b, centre_box):
            out[(u, v)] = _arch(a, b, [p for _, p in pts_all])     # around the whole drawing
            continue
        if _clearance(straight, others) >= clear:
            out[(u, v)] = straight
            continue
        L = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        nx_, ny_ = -(b[1] - a[1]) / L, (b[0] - a[0]) / L
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        best, best_c = straight, _clearance(straight, others)
        for bow in (0.25, 0.4, 0.6, 0.85, 1.2, 1.7, 2.4, 3.2, 4.5):
            done = False
            for sgn in (1, -1):
                h = sgn * bow * max(L, 1.5)            # control point offset: the curve bows out by h/2
                c = (mid[0] + nx_ * h, mid[1] + ny_ * h)
                pts = _bezier(a, c, b)
                cl = _clearance(pts, others)
                if cl >= clear:
                    best, done = pts, True
                    break
                if cl > best_c:
                    best, best_c = pts, cl
            if done:
                break
        out[(u, v)] = best
    return out
