"""Per-pair values from path-class measurements.

Some documents measure peer-to-peer bandwidth once per *path class* (two GPUs on 2 bonded NVLinks, on one
NVLink, behind one PCIe switch, across the sockets ...), not per GPU pair: those measurement rows have no
src/dst and carry the class in `params.path_class` (mgbench on the DGX-1 P100/V100 and the TUM AC922). The
stored topology says which class every GPU pair is in, so a question about GPU0 -> GPU3 can be answered
with the measurement of GPU0 -> GPU3's class, saying that this is what the number is.

A planner whose direct rows are empty reads the class rows and the system's links with fallback(); answer()
then calls split() and pair_values(). Classes are
the labels the documents use (`nvidia-smi topo -m` / mgbench): `NVLink xN` for N NVLinks joining the pair,
PIX (one PCIe switch), PXB (several switches), PHB (through one CPU's host bridge), SYS (across sockets).
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

import networkx as nx

from app.intents import topology as topo
from app.intents._common import PREFERRED_CONDITIONS, endpoint

# conditions under which a copy cannot use peer links (staged through the host)
PCIE_ONLY = {"p2p_off", "pcie"}

# slot -> fixed SQL fragment over the class rows (values travel as the planner's own $params)
CLASS_FILTERS = {
    "metric": " AND m.metric = $metric", "direction": " AND m.direction = $direction",
    "condition": " AND m.condition = $condition", "msg_bytes": " AND m.msg_bytes = $msg_bytes",
    "precision": " AND m.precision = $precision", "statistic": " AND m.statistic = $statistic",
}

# the class rows of a system (filtered by the planner's own parameters) and its links, read by fallback()
CLASS_SELECT = """SELECT m.system_id, m.metric, m.operation, m.direction, m.msg_bytes, m.condition, m.precision, m.statistic,
         m.value, m.unit, m.source, r.tool,
         json_extract_string(m.params, '$.path_class') AS path_class,
         json_extract_string(m.params, '$.test') AS test,
         json_extract_string(m.params, '$.via') AS via
  FROM measurements m JOIN runs r USING (run_id)
  WHERE m.system_id = $system AND m.src IS NULL AND m.dst IS NULL AND m.operation = 'p2p'
    AND m.unit <> '%' AND m.metric NOT IN ('efficiency', 'slowdown', 'speedup', 'share')
    AND json_extract_string(m.params, '$.path_class') IS NOT NULL
    AND coalesce(m.condition NOT IN ('nominal', 'spec', 'theoretical'), true){filters}"""

LINK_SELECT = """SELECT l.system_id, l.a, l.b, l.link_type, l.count, l.bw_gbps_per_dir, l.source,
         ca.kind AS a_kind, cb.kind AS b_kind, ca.label AS a_label, cb.label AS b_label,
         ca.parent AS a_parent, cb.parent AS b_parent
  FROM links l
  LEFT JOIN components ca ON ca.system_id = l.system_id AND ca.component_id = l.a
  LEFT JOIN components cb ON cb.system_id = l.system_id AND cb.component_id = l.b
  WHERE l.system_id = $system"""

LINK_KEYS = ("a", "b", "link_type", "bw_gbps_per_dir", "a_kind", "b_kind", "a_label", "b_label", "a_parent",
             "b_parent")


def fallback(con, params: dict[str, Any]) -> list[dict[str, Any]]:
    """The class rows and, when there are any, the link rows, each tagged by `part` ("class", "link")."""
    from app.intents import fetch
    filters = "".join(frag for k, frag in CLASS_FILTERS.items() if params.get(k) is not None)
    sql = CLASS_SELECT.format(filters=filters)
    classes = fetch(con, sql, {k: v for k, v in params.items() if f"${k}" in sql})
    if not classes:
        return []
    links = fetch(con, LINK_SELECT, {"system": params["system"]})
    return [dict(r, part="class") for r in classes] + [dict(r, part="link") for r in links]


def split(rows: list[dict[str, Any]], keep: Iterable[str]) -> tuple[list, list, list]:
    """(direct rows with only the planner's own columns, class rows, link rows)."""
    keep = list(keep)
    direct = [{k: r.get(k) for k in keep} for r in rows if r.get("part") not in ("class", "link")]
    classes = [r for r in rows if r.get("part") == "class"]
    links = [r for r in rows if r.get("part") == "link"]
    return direct, classes, links


# ---- which class a pair is in ------------------------------------------------------------------------

def _sub(g: nx.Graph, keep) -> nx.Graph:
    return g.edge_subgraph([(u, v) for u, v in g.edges if keep(u, v)]).copy()


def is_peer_link(g: nx.Graph, u: str, v: str) -> bool:
    """A GPU-GPU link or a link into an NVSwitch: what a peer copy uses and a host-staged copy does not."""
    kinds = {g.nodes[u].get("kind"), g.nodes[v].get("kind")}
    return topo.is_nvlink_class(g, u, v) and (kinds == {"gpu"} or "nvswitch" in kinds)


def classify(g: nx.Graph, a: str, b: str, condition: Optional[str]) -> tuple[Optional[str], list[str]]:
    """The path class of the pair a-b (NVLink xN, PIX, PXB, PHB, SYS) and the route it stands for."""
    if a not in g or b not in g:
        return None, []
    if condition not in PCIE_ONLY and g.has_edge(a, b) and topo.is_nvlink_class(g, a, b):
        return f"NVLink x{g.edges[a, b]['rows'][0].get('count') or 1}", [a, b]
    h = _sub(topo.without_relays(g, a, b), lambda u, v: not is_peer_link(g, u, v))
    if a not in h or b not in h or not nx.has_path(h, a, b):
        return None, []
    p = min(topo.shortest_paths(h, a, b), key=lambda q: topo.path_score(g, q))
    kinds = [g.nodes[n].get("kind") for n in p[1:-1]]
    if sum(1 for k in kinds if k == "cpu") >= 2:
        return "SYS", p
    if "cpu" in kinds:
        return "PHB", p
    return ("PIX" if len(kinds) == 1 else "PXB"), p


def class_words(g: nx.Graph, label: str, path: list[str]) -> str:
    """'joined directly by 2 NVLink2 links' / 'across the sockets: GPU0 -> cpu0 -> cpu1 -> GPU2 over ...'."""
    if label.startswith("NVLink") and len(path) == 2:
        r = g.edges[path[0], path[1]]["rows"][0]
        n = r.get("count") or 1
        return f"joined directly by {n} {r['link_type']} link{'s' if n > 1 else ''}"
    hops = " > ".join(topo.edge_label(g, u, v) for u, v in zip(path, path[1:]))
    where = {"PIX": "connected behind one PCIe switch", "PXB": "connected across PCIe switches",
             "PHB": "connected through one CPU's PCIe host bridge",
             "SYS": "connected across the sockets"}.get(label, "connected")
    return f"{where}: {' -> '.join(map(endpoint, path))} over {hops}"


# ---- values -------------------------------------------------------------------------------------------

def _rank(r: dict[str, Any]) -> tuple:
    """Preferred row first: normal condition, unidirectional, a stated size (largest), mean, fixed order."""
    cond = r.get("condition")
    return (0 if cond in PREFERRED_CONDITIONS else 1 if cond is None else 2, r.get("direction") != "uni",
            r.get("msg_bytes") is None, -(r.get("msg_bytes") or 0), r.get("statistic") not in (None, "mean"),
            r.get("test") or "", r.get("tool") or "", r.get("source") or "")


def slice_key(r: dict[str, Any]) -> tuple:
    return (r.get("tool"), r.get("test"), r.get("condition"), r.get("direction"), r.get("msg_bytes"),
            r.get("statistic"), r.get("metric"), r.get("unit"))


def pair_row(r: dict[str, Any], a: str, b: str, words: str) -> dict[str, Any]:
    """A measurement-shaped row for the pair a -> b carrying its class's value and source."""
    return {"system_id": r["system_id"], "metric": r["metric"], "operation": r["operation"], "src": a, "dst": b,
            "direction": r["direction"], "msg_bytes": r["msg_bytes"], "count": None, "count_kind": None,
            "condition": r["condition"], "precision": r.get("precision"), "statistic": r.get("statistic"),
            "app": None, "value": r["value"], "unit": r["unit"], "source": r["source"], "tool": r["tool"],
            "path_class": r["path_class"], "test": r.get("test"), "class_route": words,
            "basis": "path class measurement"}


def pick_metric(classes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One metric (values of different units never compete): bandwidth first, as metric_lookup does."""
    order = ("bandwidth", "latency", "time")
    have = {r["metric"] for r in classes}
    m = next((x for x in order if x in have), min(have) if have else None)
    return [r for r in classes if r["metric"] == m]


def gpu_graph(links: list[dict[str, Any]]) -> nx.Graph:
    return topo.build_graph([dict(r, selected=True) for r in links])


def for_pair(classes: list[dict[str, Any]], g: nx.Graph, a: str, b: str) -> tuple[list[dict], dict[str, Any]]:
    """All class rows that apply to a -> b, best first, and what was found (classes per condition)."""
    fits, seen = [], {}
    for r in classes:
        label, path = classify(g, a, b, r.get("condition"))
        seen[r.get("condition")] = (label, path)
        if label is not None and r["path_class"] == label:
            fits.append(pair_row(r, a, b, class_words(g, label, path)))
    fits.sort(key=_rank)
    return fits, seen


def no_value_reason(classes: list[dict[str, Any]], g: nx.Graph, a: str, b: str, name: str) -> str:
    """Why a pair has no value: its class (for the preferred condition) has no measurement."""
    conds = sorted({r.get("condition") for r in classes}, key=lambda c: (c not in PREFERRED_CONDITIONS, c or ""))
    label, path = classify(g, a, b, conds[0] if conds else None)
    measured = sorted({r["path_class"] for r in classes})
    what = classes[0]["operation"] + " " + classes[0]["metric"] if classes else "this"
    if label is None:
        where = f"{endpoint(a)} -> {endpoint(b)} falls in no path class of {name}'s stored graph"
    else:
        where = (f"{endpoint(a)} -> {endpoint(b)} on {name} is in path class {label} "
                 f"({class_words(g, label, path)})")
    return (f"{where}; {what} was measured only per path class, for {', '.join(measured)}: no measurement "
            f"covers this pair's class, so I have no number for it.")


def sentence_tail(r: dict[str, Any]) -> str:
    """What the number is, for answers: the pair's class and that the value is the class's measurement."""
    return (f"{endpoint(r['src'])} and {endpoint(r['dst'])} are {r['class_route']} (path class "
            f"{r['path_class']}); the value is {test_name(r)}'s measurement for that class, not of this pair alone")


def test_name(r: dict[str, Any]) -> str:
    return f"{r['tool']} {r['test']}" if r.get("test") else r["tool"]


def matrix(classes: list[dict[str, Any]], g: nx.Graph, src: Optional[str] = None,
           dst: Optional[str] = None) -> tuple[list[dict], dict[str, int], list[str]]:
    """Every ordered GPU pair with the value of its class, from the one slice (tool, test, condition,
    direction, size) that is preferred and covers most pairs. Returns (rows, {class without a value: pairs},
    the classes used)."""
    gpus = topo.gpus_of(g)
    pairs = [(a, b) for a in gpus for b in gpus if a != b and src in (None, a) and dst in (None, b)]
    slices: dict[tuple, dict[str, dict]] = {}
    for r in classes:
        slices.setdefault(slice_key(r), {})[r["path_class"]] = r
    cache: dict[tuple, tuple] = {}

    def cls(a, b, cond):
        k = (a, b, cond in PCIE_ONLY)
        if k not in cache:
            cache[k] = classify(g, a, b, cond)
        return cache[k]

    best = None
    for key, by_class in slices.items():
        some = next(iter(by_class.values()))
        got, missing = [], {}
        for a, b in pairs:
            label, path = cls(a, b, some.get("condition"))
            r = by_class.get(label)
            if r is None:
                missing[label or "no class"] = missing.get(label or "no class", 0) + 1
            else:
                got.append(dict(pair_row(r, a, b, class_words(g, label, path)), n=1))
        score = (_rank(some)[0], -len(got)) + _rank(some)[1:]
        if got and (best is None or score < best[0]):
            best = (score, got, missing, sorted(by_class))
    if best is None:
        return [], {}, []
    for r in best[1]:
        r["npairs"] = len(best[1])
    return best[1], best[2], best[3]
