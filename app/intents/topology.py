"""The connection graph of a system, or the path between two endpoints: "how many hops between core 0 and
core 63 on the XMP-64?", "how are the GPUs of the DGX-1 V100 connected?", "what links join GPU0 and GPU3?".

The SQL returns every link of the system (with both endpoints' kinds); answer() builds the graph with
networkx, finds the path (weight = hops), narrows `rows` in place to the path's links (or to the links the
slots selected) and completes plan.chart with the nodes, edges and highlighted path edges.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Optional

import networkx as nx

from app.catalog import Catalog
from app.intents import OutOfScope, Plan
from app.intents._common import cite, endpoint, require_system
from nlu.cues import CONDITION_LINK_TYPES, GRAPH_MEASURES

NAME = "topology"

# every link of the system; its ends' kinds, labels and parents come from the catalog (_narrow.py), which keeps
# the query to one table: DuckDB plans it in a fraction of the time the two joins with components took
LINKS_SQL = """SELECT l.system_id, l.a, l.b, l.link_type, l.count, l.bw_gbps_per_dir, l.directed, l.note, l.source,
       {selected} AS selected
FROM links l
WHERE l.system_id = $system
ORDER BY l.link_type, l.a, l.b"""

# a system whose parts are stored but no link between them ("what hardware is in the KNL testbed"): its parts
PARTS_SQL = """SELECT c.system_id, c.component_id, c.kind, c.label, c.parent, c.source
FROM components c
WHERE c.system_id = $system
ORDER BY c.kind, c.component_id"""

# fixed fragments; the user's link type and endpoint only ever travel as $link_type / $node. "NVSwitch" also
# selects the links with an NVSwitch end, which _narrow.py adds (it knows the ends' kinds)
SEL_LINK_TYPE = "starts_with(lower(l.link_type), lower($link_type))"
SEL_NODE = "(l.a = $node OR l.b = $node)"

SWITCH_KINDS = {"nvswitch", "pcie_switch", "switch"}
NVLINK_CLASS = ("nvlink", "nvswitch")


def links_sql(link_type: bool = False, node: bool = False) -> str:
    sel = [s for s, on in ((SEL_LINK_TYPE, link_type), (SEL_NODE, node)) if on]
    return LINKS_SQL.format(selected=" AND ".join(sel) if sel else "true")


def check_endpoints(sid: str, slots: dict[str, Any], cat: Catalog) -> None:
    comps = cat.components.get(sid, set())
    for k in ("src", "dst"):
        v = slots.get(k)
        if v is None:
            continue
        if not isinstance(v, str) or (v not in comps and v != "host"):
            sample = ", ".join(_sorted_ids(comps)[:12]) or "none"
            raise OutOfScope(f"{cat.name(sid)} has no component called {v!r}; its components include: {sample}.")


def natural(s: str) -> tuple:
    """gpu2 < gpu10 (component ids sort by prefix, then number)."""
    m = re.match(r"(.*?)(\d*)$", s)
    return (m.group(1), int(m.group(2)) if m.group(2) else -1)


def gpus_of(g) -> list[str]:
    """The graph's GPUs in natural order."""
    return sorted((n for n, d in g.nodes(data=True) if d.get("kind") == "gpu"), key=natural)


def _sorted_ids(ids) -> list[str]:
    return sorted(ids, key=natural)


def plan(slots: dict[str, Any], cat: Catalog) -> Plan:
    s = dict(slots)
    sid = require_system(s, cat)
    if s.get("metric") and s["metric"] not in GRAPH_MEASURES:
        # a latency, time or FLOP rate asked of a connection graph ("xmp64 latency 2 off-chip hops") is a
        # measurement, and drawing the graph would answer another question
        raise OutOfScope(f"The connection graph of {cat.name(sid)} holds links, their kinds and rated bandwidths, "
                         f"not {str(s['metric']).replace('_', ' ')}; ask for the measured value instead.")
    if not cat.systems[sid].n_links:
        if s.get("view") == "parts" and cat.components.get(sid) and not (s.get("src") or s.get("dst")
                                                                          or s.get("link_type")):
            # "what hardware is in the KNL testbed": 21 systems of the documents list their parts (a chip and its
            # memories, a CPU and a GPU) but no link between them; the parts asked for are answered. How they are
            # linked ("draw MareNostrum 4's interconnect") is not stored, and refused as before
            return Plan(sql=PARTS_SQL, params={"system": sid},
                        chart={"kind": "network", "nodes": [], "edges": [], "highlight": []}, slots=s,
                        extra={"mode": "parts"})
        have = ", ".join(x.system_id for x in cat.systems.values() if x.n_links)
        raise OutOfScope(f"No connection graph is stored for {cat.name(sid)}; systems with one: {have}.")
    check_endpoints(sid, s, cat)
    if not s.get("link_type") and s.get("condition") in CONDITION_LINK_TYPES:
        # "does GPU2 -> GPU5 travel over PCIe": a transport condition names the link type asked about
        s["link_type"] = CONDITION_LINK_TYPES[s["condition"]]
    lt = s.get("link_type")
    if lt is not None and not isinstance(lt, str):
        raise OutOfScope("link_type must be a link type name such as NVLink, PCIe, IPU-Link or XLink.")
    params: dict[str, Any] = {"system": sid}
    if lt:
        params["link_type"] = lt
    one_end = (s.get("src") or s.get("dst")) if not (s.get("src") and s.get("dst")) else None
    if one_end:
        params["node"] = one_end
    mode = "path" if s.get("src") and s.get("dst") else "graph"
    return Plan(sql=links_sql(bool(lt), bool(one_end)), params=params,
                chart={"kind": "network", "nodes": [], "edges": [], "highlight": []},
                slots=s, extra={"mode": mode, "parts": cat.parts.get(sid, {}), "link_count": s.get("link_count")},
                narrow={"kind": "links", "switch_ends": bool(lt) and lt.lower() == "nvswitch"})


# ---- graph helpers (also used by link_efficiency) ------------------------------------------------------

def build_graph(rows: list[dict[str, Any]], only_selected: bool = False) -> nx.Graph:
    g = nx.Graph()
    for r in rows:
        if only_selected and not r.get("selected", True):
            continue
        for n, kind, label, parent in ((r["a"], r.get("a_kind"), r.get("a_label"), r.get("a_parent")),
                                       (r["b"], r.get("b_kind"), r.get("b_label"), r.get("b_parent"))):
            if n not in g:
                g.add_node(n, kind=kind or _guess_kind(n), label=label, parent=parent)
        if g.has_edge(r["a"], r["b"]):
            g.edges[r["a"], r["b"]]["rows"].append(r)
        else:
            g.add_edge(r["a"], r["b"], rows=[r])
    return g


def _guess_kind(n: str) -> str:
    return re.sub(r"\d+$", "", n) or n


def edge_bw(g: nx.Graph, u: str, v: str) -> Optional[float]:
    """Nominal GB/s per direction of the link(s) u-v; None when any of them has none stored."""
    bws = [r.get("bw_gbps_per_dir") for r in g.edges[u, v]["rows"]]
    return None if any(b is None for b in bws) else sum(bws)


def edge_label(g: nx.Graph, u: str, v: str) -> str:
    parts = []
    for r in g.edges[u, v]["rows"]:
        c = r.get("count") or 1
        parts.append(f"{r['link_type']} x{c}" if c > 1 else r["link_type"])
    return " + ".join(parts)


def is_nvlink_class(g: nx.Graph, u: str, v: str) -> bool:
    return all(r["link_type"].lower().startswith(NVLINK_CLASS) for r in g.edges[u, v]["rows"])


def resolve_endpoint(g: nx.Graph, x: str, other: Optional[str] = None) -> tuple[Optional[str], Optional[str]]:
    """Map an endpoint onto a graph node: `host` (not wired in the stored graph) becomes the CPU nearest to
    `other`. Returns (node, note)."""
    if x in g:
        return x, None
    if x == "host" or (x.startswith("host")):
        cpus = sorted(n for n, d in g.nodes(data=True) if d.get("kind") == "cpu")
        if not cpus:
            return None, None
        best = cpus[0]
        if other and other in g:
            reach = [(nx.shortest_path_length(g, c, other), c) for c in cpus if nx.has_path(g, c, other)]
            if reach:
                best = min(reach)[1]
        return best, f"the host is not wired in the stored graph: taken as {best}, the CPU nearest to {other}"
    return None, None


def shortest_paths(g: nx.Graph, s: str, t: str, limit: int = 5000, adj: Optional[dict[str, list[str]]] = None,
                   avoid: "set[str] | frozenset[str]" = frozenset()) -> list[list[str]]:
    """Every shortest path s -> t by hop count (at most `limit`) through no node of `avoid`, in the order networkx's
    all_shortest_paths gives them (answers name links in path order), over `adj` (plain neighbour lists) when given,
    else over g's own adjacency; [] when s or t is missing or nothing joins them. A breadth-first search of our own:
    routing the DGX-2's 480 GPU pairs spent most of its time in networkx's per-call dispatch and subgraph views."""
    adj = g.adj if adj is None else adj
    if s not in adj or t not in adj:
        return []
    if s == t:
        return [[s]]
    dist, preds, frontier = {s: 0}, {s: []}, [s]
    while frontier and t not in dist:
        step = []
        for u in frontier:
            d = dist[u] + 1
            for v in adj[u]:
                if v in avoid:
                    continue
                if v not in dist:
                    dist[v], preds[v] = d, [u]
                    step.append(v)
                elif dist[v] == d:
                    preds[v].append(u)
        frontier = step
    if t not in dist:
        return []
    out: list[list[str]] = []
    stack = [[t]]
    while stack and len(out) < limit:
        back = stack.pop()
        if back[-1] == s:
            out.append(back[::-1])
        else:
            stack.extend(back + [u] for u in reversed(preds[back[-1]]))   # the first predecessor first
    return out


def path_score(g: nx.Graph, p: list[str]) -> tuple:
    bws = [edge_bw(g, u, v) for u, v in zip(p, p[1:])]
    relays = sum(1 for n in p[1:-1] if g.nodes[n].get("kind") == "gpu")
    bottleneck = min(bws) if bws and None not in bws else -1.0
    # fewest GPU relays, then widest stated bottleneck, then lowest ids (dimension-order routing on a hypercube)
    return (relays, -bottleneck, [natural(n) for n in p])


def aggregate_bw(g: nx.Graph, paths: list[list[str]]) -> Optional[float]:
    """Nominal GB/s per direction over several parallel paths (max flow over their union, capacities = the
    links' nominal bandwidths); None unless every link of those paths has one."""
    if not paths or len(paths[0]) < 2:
        return None                       # a path from an endpoint to itself carries no flow
    s, t = paths[0][0], paths[0][-1]
    h = nx.DiGraph()
    for p in paths:
        for u, v in zip(p, p[1:]):
            b = edge_bw(g, u, v)
            if b is None:
                return None
            h.add_edge(u, v, capacity=b)
    return nx.maximum_flow_value(h, s, t)


def best_path(g: nx.Graph, s: str, t: str) -> tuple[Optional[list[str]], list[list[str]]]:
    """The preferred shortest path and all shortest paths (hop count)."""
    paths = shortest_paths(g, s, t)
    if not paths:
        return None, []
    return min(paths, key=lambda p: path_score(g, p)), paths


def without_relays(g: nx.Graph, s: str, t: str) -> nx.Graph:
    """The graph in which no GPU forwards traffic between two others (CUDA peer copies are not relayed)."""
    drop = [n for n, d in g.nodes(data=True) if d.get("kind") == "gpu" and n not in (s, t)]
    return g.subgraph([n for n in g if n not in drop])


def chart_of(g: nx.Graph, highlight: list[list[str]]) -> dict[str, Any]:
    nodes = [{"id": n, "kind": d.get("kind"), "label": d.get("label") or n, "parent": d.get("parent")}
             for n, d in sorted(g.nodes(data=True), key=lambda x: natural(x[0]))]
    edges = []
    for u, v, d in g.edges(data=True):
        for r in d["rows"]:
            edges.append({"source": r["a"], "target": r["b"], "type": r["link_type"], "count": r.get("count"),
                          "bw_gbps_per_dir": r.get("bw_gbps_per_dir"), "selected": bool(r.get("selected", True))})
    return {"kind": "network", "nodes": nodes, "edges": edges, "highlight": highlight}


# ---- answer -------------------------------------------------------------------------------------------

def gbps(v: Optional[float]) -> str:
    return "n/a" if v is None else f"{v:g} GB/s"


def _kinds(g: nx.Graph, nodes) -> str:
    kinds: dict[str, int] = {}
    for n in nodes:
        k = g.nodes[n].get("kind") or "?"
        kinds[k] = kinds.get(k, 0) + 1
    return ", ".join(f"{v} {k}" for k, v in sorted(kinds.items(), key=lambda x: (-x[1], x[0])))


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    sid = plan.slots["system"]
    name = cat.name(sid)
    if plan.extra.get("mode") == "parts":
        return _answer_parts(rows, plan, name)
    if not rows:
        raise OutOfScope(f"No links are stored for {name}.")
    types = sorted({r["link_type"] for r in rows})
    full = build_graph(rows)
    plan.extra["graph"] = full
    if plan.extra.get("mode") == "path":
        return _answer_path(rows, plan, full, name, types)
    sel = [r for r in rows if r.get("selected")]
    node = plan.params.get("node")
    lt = str(plan.slots.get("link_type") or "").lower()
    # "how are the four GPUs attached to the host, over PCIe": the host's links of that type, its CPU's
    host_view = not sel and isinstance(node, str) and node.startswith("host") and (
        not lt or any(r["link_type"].lower().startswith(lt) and "cpu" in (r.get("a_kind"), r.get("b_kind"))
                      for r in rows))
    if host_view:
        # "how is the DGX-2 hooked up to the host": no host component is stored; its CPUs are the host side
        cpu_links = [r for r in rows if "cpu" in (r.get("a_kind"), r.get("b_kind"))
                     and r["link_type"].lower().startswith(lt)]
        sel = cpu_links if lt else list(rows)
        cpus = sorted((n for n, d in full.nodes(data=True) if d.get("kind") == "cpu"), key=natural)
        shown = f"its CPUs' {plan.slots['link_type']} links are shown" if lt else "the whole graph is shown"
        plan.notes.append(f"no host component is stored for {name}: {shown}"
                          + (f"; the host side is its CPU{'s' if len(cpus) > 1 else ''} ({', '.join(cpus)}), "
                             "their links highlighted" if cpus else "; it has no CPU either"))
        plan.chart.update(chart_of(full, [[r["a"], r["b"]] for r in cpu_links]))
    kids = {c for c, part in plan.extra.get("parts", {}).items() if part.get("parent") == node} \
        if not sel and isinstance(node, str) else set()
    if kids:
        # "xmp-64 xlinks from chip0": a chip's links are its cores' (the graph joins the parts inside it)
        sel = [r for r in rows if (r["a"] in kids or r["b"] in kids)
               and (not lt or r["link_type"].lower().startswith(lt))]
        for r in rows:
            r["selected"] = r in sel
        plan.notes.append(f"{endpoint(node)} has no links of its own: those of its parts "
                          f"({', '.join(endpoint(k) for k in sorted(kids, key=natural))}) are shown")
    if not sel and lt and isinstance(node, str) and node in full:
        # "ipu system ipu-link count at ipu9": the part is in the graph, only not with links of that kind; that is
        # the answer (none stored), with the links it does have, rather than a refusal that names the kind as stored
        far = (lambda r: r["b"] if r["a"] == node else r["a"])      # the other end of one of its links
        own = sorted((r for r in rows if node in (r["a"], r["b"])), key=lambda r: natural(far(r)))
        for r in rows:
            r["selected"] = r in own
        plan.chart.update(chart_of(full, [[r["a"], r["b"]] for r in own]))
        kinds = Counter(r["link_type"] for r in own)
        ends = ", ".join(endpoint(far(r)) for r in own)
        rows[:] = own or rows
        return (f"{endpoint(node)} on {name} has no {plan.slots['link_type']} links stored; its links: "
                + ", ".join(f"{k} {t}" for t, k in sorted(kinds.items())) + f" (to {ends}){cite(own)}.")
    if not sel:
        what = plan.slots.get("link_type") or endpoint(node)
        raise OutOfScope(f"No {what} links are stored for {name}; link types there: {', '.join(types)}.")
    if plan.extra.get("link_count") is not None and not host_view:
        return _answer_by_count(rows, sel, plan, full, name)
    if not host_view:
        plan.chart.update(chart_of(full, [[r["a"], r["b"]] for r in sel] if len(sel) < len(rows) else []))
    rows[:] = sel
    by_type: dict[str, list[dict]] = {}
    for r in sel:
        by_type.setdefault(r["link_type"], []).append(r)
    parts = []
    for t, rs in sorted(by_type.items(), key=lambda x: (-len(x[1]), x[0])):
        bws = sorted({r["bw_gbps_per_dir"] for r in rs if r.get("bw_gbps_per_dir") is not None})
        total = sum(int(r.get("count") or 1) for r in rs)
        if bws:
            bw = (" (each " if total > len(rs) else " (") + " or ".join(f"{b:g}" for b in bws) + " GB/s per direction"
            bw += ", not stated for some)" if any(r.get("bw_gbps_per_dir") is None for r in rs) else ")"
        else:
            bw = " (bandwidth not stated)"
        # "NV18": one connection of 18 NVLinks between the H200s, not one link
        many = f" connection{'s' if len(rs) > 1 else ''} of {total} links in all" if total > len(rs) else ""
        parts.append(f"{len(rs)} {t}{many}{bw}")
    nodes = {n for r in sel for n in (r["a"], r["b"])}
    where = f" at {endpoint(plan.params['node'])}" if "node" in plan.params and not host_view else ""
    lead = ""
    if host_view:
        lead = (f"No host component is stored for {name}" + (f"; its CPUs ({', '.join(cpus)}) are the host side"
                if cpus else "") + (f". Their {plan.slots['link_type']} links: " if lt else ". The whole graph: "))
    return (f"{lead}{name}{where}: {len(sel)} link{'s' if len(sel) != 1 else ''} between {len(nodes)} components "
            f"({_kinds(full, nodes)}): "
            f"{'; '.join(parts)}{cite(sel)}.") + (_switch_peers(full, node) if where else "")


def _switch_peers(g: nx.Graph, node: Any) -> str:
    """"which GPUs sit on the same baseboard as GPU5": the parts of the node's kind that a switch it hangs off also
    reaches (on the DGX-2, the GPUs of its baseboard's NVSwitches), said after its own links."""
    if not isinstance(node, str) or node not in g:
        return ""
    kind = g.nodes[node].get("kind")
    peers: dict[str, set[str]] = {}
    for sw in g.neighbors(node):
        sk = g.nodes[sw].get("kind")
        if sk not in SWITCH_KINDS:
            continue
        for m in g.neighbors(sw):
            if m != node and g.nodes[m].get("kind") == kind:
                peers.setdefault(sk, set()).add(m)
    if not peers:
        return ""
    shown = {"gpu": "GPU", "ipu": "IPU", "cpu": "CPU"}.get(str(kind), str(kind))
    said = " ".join(
        f"Through its {_SWITCH_WORDS.get(sk, sk)} it shares a switch with {len(ms)} other "
        f"{shown}{'s' if len(ms) != 1 else ''}: {', '.join(endpoint(m) for m in _sorted_ids(ms))}."
        for sk, ms in sorted(peers.items()))
    return " " + said


_SWITCH_WORDS = {"nvswitch": "NVSwitches", "pcie_switch": "PCIe switches", "switch": "switches"}


def _answer_by_count(rows: list[dict[str, Any]], sel: list[dict[str, Any]], plan: Plan, full: nx.Graph,
                     name: str) -> str:
    """"which GPU pairs get two NVLinks": the pairs a connection of that many links joins, highlighted, and how
    many pairs have each other number (a connection's `count` is its links, "NV2" in nvidia-smi's matrix)."""
    n = int(plan.extra["link_count"])
    by_n: dict[int, list[dict[str, Any]]] = {}
    for r in sel:
        by_n.setdefault(int(r.get("count") or 1), []).append(r)
    if n == 0:
        return _answer_unjoined(rows, sel, by_n, plan, full, name)
    hit = sorted(by_n.get(n, []), key=lambda r: (natural(r["a"]), natural(r["b"])))
    plan.chart.update(chart_of(full, [[r["a"], r["b"]] for r in hit]))
    what = plan.slots.get("link_type") or "/".join(sorted({r["link_type"] for r in sel}))
    others = "; ".join(f"{len(rs)} joined by {k}" for k, rs in sorted(by_n.items()) if k != n)
    rows[:] = hit or sel
    if not hit:
        return (f"No pair on {name} is joined by {n} {what} link{'s' if n != 1 else ''}: {others}{cite(sel)}.")
    pairs = ", ".join(f"{endpoint(r['a'])}-{endpoint(r['b'])}" for r in hit)
    return (f"{len(hit)} pair{'s' if len(hit) != 1 else ''} on {name} {'are' if len(hit) != 1 else 'is'} joined by "
            f"{n} {what} link{'s' if n != 1 else ''}: {pairs}" + (f" (other pairs: {others})" if others else "")
            + f"{cite(hit)}.")


def _answer_unjoined(rows: list[dict[str, Any]], sel: list[dict[str, Any]], by_n: dict[int, list[dict[str, Any]]],
                     plan: Plan, full: nx.Graph, name: str) -> str:
    """"which GPU pairs have no NVLink between them": the pairs of GPUs that no link of that kind joins directly
    (their traffic takes a longer way); the graph is drawn with the joined pairs, since the missing ones are no
    edges to highlight."""
    what = plan.slots.get("link_type") or "/".join(sorted({r["link_type"] for r in sel}))
    gpus = sorted((x for x, d in full.nodes(data=True) if d.get("kind") == "gpu"), key=natural)
    joined = {frozenset((r["a"], r["b"])) for r in sel}
    pairs = [(a, b) for i, a in enumerate(gpus) for b in gpus[i + 1:] if frozenset((a, b)) not in joined]
    plan.chart.update(chart_of(full, [[r["a"], r["b"]] for r in sel]))
    rows[:] = sel
    total = len(gpus) * (len(gpus) - 1) // 2
    others = "; ".join(f"{len(rs)} joined by {k}" for k, rs in sorted(by_n.items()))
    if not pairs:
        return f"Every pair of the {len(gpus)} GPUs on {name} is joined by {what} ({others}){cite(sel)}."
    listed = ", ".join(f"{endpoint(a)}-{endpoint(b)}" for a, b in pairs)
    return (f"{len(pairs)} of the {total} GPU pairs on {name} have no direct {what} connection: {listed} (the others: "
            f"{others}; the drawn links are the joined pairs){cite(sel)}.")


def _answer_parts(rows: list[dict[str, Any]], plan: Plan, name: str) -> str:
    """The parts of a system whose links are not stored, by kind, drawn as unconnected markers."""
    if not rows:
        raise OutOfScope(f"Neither parts nor links are stored for {name}.")
    by_kind: dict[str, list[str]] = {}
    for r in sorted(rows, key=lambda r: (r["kind"], natural(r["component_id"]))):
        by_kind.setdefault(r["kind"], []).append(r.get("label") or endpoint(r["component_id"]))
    # "cpu 4x Intel E5-2698v4; gpu 8x NVIDIA Tesla V100": a label repeated is said once, with how many
    kinds = "; ".join(f"{k} " + ", ".join(f"{n}x {label}" if n > 1 else label
                                          for label, n in Counter(labels).items()) for k, labels in by_kind.items())
    plan.chart.update({"nodes": [{"id": r["component_id"], "kind": r["kind"], "label": r.get("label") or
                                  r["component_id"], "parent": r.get("parent")}
                                 for r in sorted(rows, key=lambda r: natural(r["component_id"]))]})
    plan.notes.append(f"no links between the parts of {name} are stored: its parts are listed, unconnected")
    return (f"{name}: {len(rows)} component{'s' if len(rows) != 1 else ''} ({kinds}); no links between them are "
            f"stored{cite(rows)}.")


def _answer_path(rows, plan, full, name, types) -> str:
    s, t = plan.slots["src"], plan.slots["dst"]
    lt = plan.slots.get("link_type")
    g = build_graph(rows, only_selected=bool(lt))
    notes = []
    unrestricted = False
    s_node, n1 = resolve_endpoint(g, s, t)
    t_node, n2 = resolve_endpoint(g, t, s_node or s)
    path, paths = (best_path(g, s_node, t_node) if s_node and t_node and s_node != t_node else (None, []))
    if lt and path is None:
        # "does GPU0 -> GPU7 go over PCIe?": no path of those links alone; the path there is, and whether it
        # uses them, answers the question
        unrestricted, g = True, full
        s_node, n1 = resolve_endpoint(g, s, t)
        t_node, n2 = resolve_endpoint(g, t, s_node or s)
        path, paths = (best_path(g, s_node, t_node) if s_node and t_node and s_node != t_node else (None, []))
    for x, node in ((s, s_node), (t, t_node)):
        if node is None:
            raise OutOfScope(f"{endpoint(x)} has no links in the stored graph of {name}; "
                             f"link types there: {', '.join(types)}.")
    notes += [n for n in (n1, n2) if n]
    if s_node == t_node:
        raise OutOfScope(f"{endpoint(s)} and {endpoint(t)} are the same point of {name}'s graph: no path to report.")
    if path is None:
        raise OutOfScope(f"No path joins {endpoint(s)} and {endpoint(t)} in {name}'s stored graph; "
                         f"link types there: {', '.join(types)}.")
    hops = list(zip(path, path[1:]))
    path_rows = []
    for i, (u, v) in enumerate(hops, 1):
        for r in g.edges[u, v]["rows"]:
            path_rows.append({**r, "hop": i, "from": u, "to": v})
    seq = [edge_label(g, u, v) for u, v in hops]
    bws = [edge_bw(g, u, v) for u, v in hops]
    gaps = [(u, v, lab) for (u, v), lab, b in zip(hops, seq, bws) if b is None]
    missing = ([f"{u}-{v} ({lab})" for u, v, lab in gaps] if len(gaps) <= 2
               else ["the " + " and ".join(dict.fromkeys(lab for _, _, lab in gaps)) + " links"])
    bottleneck = None if missing else min(bws)
    relays = [n for n in path[1:-1] if g.nodes[n].get("kind") == "gpu"]
    alt = None
    if relays:
        alt, _ = best_path(without_relays(g, s_node, t_node), s_node, t_node)
        if alt:
            notes.append(f"the shortest path relays through {', '.join(map(endpoint, relays))}; CUDA peer copies are "
                         f"not forwarded by a GPU: the route without GPU relays is {' -> '.join(alt)} "
                         f"({len(alt) - 1} hops)")
    known = [p for p in paths if None not in [edge_bw(g, u, v) for u, v in zip(p, p[1:])]
             and not any(g.nodes[n].get("kind") == "gpu" for n in p[1:-1])]
    aggregate = aggregate_bw(g, known) if len(known) > 1 else None
    if len(paths) > 1:
        notes.append(f"{len(paths)}{'+' if len(paths) >= 5000 else ''} shortest paths of {len(hops)} hops exist; "
                     "shown: the one with the widest stated bottleneck (lowest ids on ties)")
    plan.extra.update({"path": path, "hops": len(hops), "bottleneck_gbps": bottleneck, "link_types": seq,
                       "n_shortest_paths": len(paths), "aggregate_gbps": aggregate})
    plan.chart.update(chart_of(full, [[u, v] for u, v in hops]))
    plan.notes.extend(notes)
    rows[:] = path_rows
    if len(hops) == 1:
        how = f"1 hop, a direct {seq[0]} link"
    else:
        kinds = list(dict.fromkeys(seq))
        how = (f"{len(hops)} hops ({' -> '.join(map(endpoint, path))}) over "
               + ", ".join(f"{seq.count(k)} x {k}" for k in kinds))
    if bottleneck is not None:
        bw = f", bottleneck nominal bandwidth {gbps(bottleneck)} per direction"
        if aggregate and aggregate > bottleneck:
            bw += f" ({len(known)} parallel paths of that length: {gbps(aggregate)} together)"
    else:
        bw = f"; no nominal bandwidth is stored for {', '.join(missing)}"
    uses = ""
    if unrestricted:
        uses = "; " + _uses(g, path, lt, "it")
        if alt and alt != path:
            uses += "; " + _uses(g, alt, lt, "the route without GPU relays")
        plan.notes.insert(0, f"no path of {lt} links alone joins {endpoint(s)} and {endpoint(t)}: the shortest path "
                        "of any links is shown")
        plan.extra["uses_link_type"] = any(r.get("selected") for r in path_rows)
    return f"{endpoint(s)} -> {endpoint(t)} on {name}: {how}{bw}{uses}{cite(path_rows)}."


def _uses(g: nx.Graph, path: list[str], lt: str, who: str) -> str:
    """'it uses X-Bus (NVLink2, X-Bus)' / 'it does not use PCIe (only NVLink2)' for an asked link type."""
    rs = [r for u, v in zip(path, path[1:]) for r in g.edges[u, v]["rows"]]
    kinds = list(dict.fromkeys(r["link_type"] for r in rs))
    if any(r.get("selected") for r in rs):
        return f"{who} uses {lt} (link types on it: {', '.join(kinds)})"
    return f"{who} does not use {lt} (only {', '.join(kinds)})"
