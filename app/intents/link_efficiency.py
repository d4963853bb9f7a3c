"""Measured vs nominal bandwidth of a link or a link class: "what percentage of NVLink's peak does GPU0 -> GPU3
reach on the DGX-1 V100?", "how efficient is the X-Bus on the AC922?", "how close does the H200 pair get
to its NVLink bandwidth?".

The SQL returns the system's links plus the candidate measurements (bandwidth/busbw at the largest size
measured) and the document's own efficiency statements (percent of theoretical). answer() routes each
measured pair over the link graph (topology.py: no GPU relays; NVLink-class links unless P2P is off),
takes the nominal bandwidth from the links (max flow over parallel shortest paths), pairs the curated
mgbench rows with the document's printed percentages, and narrows `rows` in place to one row per
(link, test): link, measured, nominal, percent.
"""
from __future__ import annotations

import re
from typing import Any, Optional

import networkx as nx

from app.catalog import Catalog
from app.intents import OutOfScope, Plan
from app.intents import _pairs
from app.intents import topology as topo
from app.intents._common import DIRECTION_WORDS, MANY_ROWS, cite, condition_words, endpoint, fmt_bytes, require_system
from app.intents._pairs import PCIE_ONLY, _sub, is_peer_link

NAME = "link_efficiency"
DEFAULT_OPS = ["p2p", "h2d", "d2h", "sendrecv"]

# the measurements to rate against their links: measured bandwidths and stated efficiencies with what a
# document says about them; the largest size per test, the links and their ends are added in Python
# (_narrow.link_efficiency): two plain queries instead of one with windows, a union and two joins
SQL = """SELECT m.system_id, m.metric, m.operation, m.src, m.dst, m.direction, m.msg_bytes, m.condition, m.statistic,
       m.value, m.unit, m.source, m.run_id,
       json_extract_string(m.params, '$.path_class') AS path_class,
       TRY_CAST(json_extract_string(m.params, '$.nominal_gbps') AS DOUBLE) AS doc_nominal,
       json_extract_string(m.params, '$.test') AS test,
       coalesce(json_extract_string(m.params, '$.via'), json_extract_string(m.params, '$.link')) AS via,
       json_extract_string(m.params, '$.host') AS host,
       json_extract_string(m.params, '$.quantity') AS quantity,
       TRY_CAST(json_extract_string(m.params, '$.numa_node') AS INTEGER) AS numa_node,
       CASE WHEN m.metric = 'efficiency' THEN 'stated' ELSE 'measured' END AS part
FROM measurements m{join}
WHERE m.system_id = $system
  AND ((m.metric = 'efficiency' AND m.unit = '%'
        AND (list_contains($ops, m.operation){op_null}))
    OR (list_contains($metrics, m.metric) AND m.unit = 'GB/s'
        AND (list_contains($ops, m.operation){meas_null})))
  AND coalesce(m.condition NOT IN ('nominal', 'spec', 'theoretical'), true)
  AND coalesce(m.src <> m.dst, true)
  AND coalesce(json_extract_string(m.params, '$.summary'), 'false') <> 'true'
  AND NOT (coalesce(m.count_kind IN ('gpus', 'ranks', 'ipus'), false) AND m.count < 2
           AND m.operation NOT IN ('h2d', 'd2h')){filters}{largest}"""

# Each run's largest size per test, in SQL: a superset of the rows _narrow keeps (the largest per tool's test is the
# largest of its own run too), so Python's rule picks the same rows from far fewer. The DGX-2's Tartan sweeps matched
# 46,000 rows, and handing those to Python took 90-120 ms of the question's 300. Planned only over many stored rows
# (MANY_ROWS): below that the window costs more than it saves.
LARGEST = """
QUALIFY m.msg_bytes IS NOT DISTINCT FROM max(m.msg_bytes) OVER (
  PARTITION BY part, m.run_id, m.metric, m.operation, m.src, m.dst, m.direction, m.condition, path_class, test)"""

LINKS_SQL = """SELECT l.system_id, l.a, l.b, l.link_type, l.count, l.bw_gbps_per_dir, l.source
FROM links l WHERE l.system_id = $system"""

# a document's statements about a link as a whole (no operation): only when no operation was asked for
OP_NULL = "\n               OR (m.operation IS NULL AND json_extract_string(m.params, '$.link') IS NOT NULL)"

# traffic measured between two ends with no operation named ("SU3_Bench maxed out the UPI bandwidth, 68.9 GB/s",
# cpu0 -> cpu1): set against the link between them, when no operation was asked for
MEAS_NULL = " OR (m.operation IS NULL AND m.src IS NOT NULL AND m.dst IS NOT NULL)"

# slot -> fixed SQL fragment (values as parameters)
FILTERS = {
    "direction": " AND m.direction = $direction",
    "condition": " AND m.condition = $condition",
    "msg_bytes": " AND (m.msg_bytes = $msg_bytes OR m.msg_bytes IS NULL)",
}
PAIR = (" AND ((m.src = $src AND m.dst = $dst) OR (m.src = $dst AND m.dst = $src)"
        " OR json_extract_string(m.params, '$.path_class') IS NOT NULL"
        " OR (m.src IS NULL AND m.dst IS NULL AND r.tool = 'nccl-tests'))")


def plan(slots: dict[str, Any], cat: Catalog) -> Plan:
    s = dict(slots)
    sid = require_system(s, cat)
    topo.check_endpoints(sid, s, cat)
    info = cat.systems[sid]
    if not info.n_links and "efficiency" not in cat.metrics.get(sid, set()):
        have = sorted(x.system_id for x in cat.systems.values() if x.n_links)
        raise OutOfScope(f"No links or link efficiencies are stored for {cat.name(sid)}; systems with a link graph: "
                         + ", ".join(have) + ".")
    for k in ("operation", "metric", "direction", "condition", "link_type"):
        if s.get(k) is not None and not isinstance(s[k], str):
            raise OutOfScope(f"{k} must be a single value.")
    if s.get("msg_bytes") is not None and not isinstance(s["msg_bytes"], int):
        raise OutOfScope("msg_bytes must be an integer number of bytes.")
    ops = [s["operation"]] if s.get("operation") else DEFAULT_OPS
    metric = s.get("metric")
    metrics = [metric] if metric in ("bandwidth", "busbw", "algbw") else ["bandwidth", "busbw"]
    params: dict[str, Any] = {"system": sid, "ops": ops, "metrics": metrics}
    filters = ""
    for k, frag in FILTERS.items():
        if s.get(k) is not None:
            filters += frag
            params[k] = s[k]
    pair = bool(s.get("src") and s.get("dst"))
    one_end = "dst" if s.get("operation") == "h2d" and s.get("dst") and not s.get("src") else \
        "src" if s.get("operation") == "d2h" and s.get("src") and not s.get("dst") else None
    if one_end:
        # "Mini Summit's pinned host-to-device copy into GPU1": the host is the other end; the copies of that GPU,
        # over the link class they take
        filters += f" AND m.{one_end} = ${one_end}"
        params[one_end] = s[one_end]
    elif bool(s.get("src")) != bool(s.get("dst")):
        raise OutOfScope("Link efficiency needs both ends of the link (src and dst), or a link type, or neither "
                         "(all links of the system).")
    if pair:
        if s["src"] == s["dst"]:
            raise OutOfScope(f"{endpoint(s['src'])} to itself is no link; ask for two different endpoints.")
        filters += PAIR
        params.update(src=s["src"], dst=s["dst"])
    notes = [] if s.get("msg_bytes") is not None else ["no size given: the largest size measured for each test"]
    join = " JOIN runs r USING (run_id)" if pair else ""    # the pair's filter names nccl-tests' runs
    stored = sum(cat.rows_at_most(sid, m, op, s.get("condition")) for m in [*metrics, "efficiency"] for op in ops)
    largest = LARGEST if s.get("msg_bytes") is None and stored > MANY_ROWS else ""
    return Plan(sql=SQL.format(filters=filters, join=join, op_null="" if s.get("operation") else OP_NULL,
                               meas_null="" if s.get("operation") else MEAS_NULL, largest=largest),
                params=params,
                chart={"kind": "bar", "measured_vs_nominal": True, "x": "link", "y": ["measured", "nominal"],
                       "percent": "percent"},
                slots=s, notes=notes,
                extra={"mode": "pair" if pair else "class", "run_tools": cat.run_tools, "parts": cat.parts.get(sid, {}),
                       "links_sql": LINKS_SQL},
                narrow={"kind": "link_efficiency", "largest_size": s.get("msg_bytes") is None})


# ---- routing --------------------------------------------------------------------------------------------

def _candidate_paths(g: nx.Graph, a: str, b: str, condition: Optional[str]) -> list[list[str]]:
    """The shortest paths a copy a -> b may take, relayed by no other GPU: over the links a host-staged copy uses when
    P2P is off, else over NVLink-class links where those join a and b, else over any links."""
    if condition in PCIE_ONLY:
        return _relay_free_paths(g, _adjacency(g, "no_peer"), a, b)
    return _relay_free_paths(g, _adjacency(g, "nvlink"), a, b) or _relay_free_paths(g, _adjacency(g, "all"), a, b)


def _adjacency(g: nx.Graph, which: str) -> dict[str, list[str]]:
    """The neighbours of each node over all of g's links, its NVLink-class ones or the host-staged ones (_links_of),
    as plain lists made once per graph: breadth-first searches over networkx's subgraph views took most of the
    90 ms that routing the DGX-2's 240 GPU pairs (twice: P2P on and off) cost."""
    memo = g.graph.setdefault("_adjacency", {})
    if which not in memo:
        h = g if which == "all" else _links_of(g, which)
        memo[which] = {n: list(h[n]) for n in h}
    return memo[which]


def _relay_free_paths(g: nx.Graph, adj: dict[str, list[str]], a: str, b: str) -> list[list[str]]:
    """Every shortest path a -> b over `adj` through no GPU but a and b (what topo.without_relays leaves)."""
    return topo.shortest_paths(g, a, b, adj=adj, avoid=_gpus(g) - {a, b})


def _gpus(g: nx.Graph) -> set[str]:
    """g's GPUs, found once per graph."""
    if "_gpus" not in g.graph:
        g.graph["_gpus"] = {n for n, d in g.nodes(data=True) if d.get("kind") == "gpu"}
    return g.graph["_gpus"]


def _links_of(g: nx.Graph, which: str) -> nx.Graph:
    """g's NVLink-class links ("nvlink") or its links a host-staged copy may use ("no_peer"), made once per
    graph: an answer routes many pairs over the same graph. Dropping the relay GPUs afterwards leaves the same
    links as dropping them first (both filters only remove); a node may remain without links, which no route
    uses."""
    memo = g.graph.setdefault("_links_of", {})
    if which not in memo:
        keep = (lambda u, v: not is_peer_link(g, u, v)) if which == "no_peer" else \
            (lambda u, v: topo.is_nvlink_class(g, u, v))
        memo[which] = _sub(g, keep)
    return memo[which]


def route(g: nx.Graph, a: str, b: str, condition: Optional[str]) -> dict[str, Any]:
    """Route a -> b as a copy would take it (peer links unless P2P is off) and its nominal bandwidth."""
    if a not in g or b not in g:
        return {"label": None, "nominal": None, "why": f"{a} or {b} is not in the stored graph"}
    paths = _candidate_paths(g, a, b, condition)
    if not paths:
        how = " staged through the host (P2P off)" if condition in PCIE_ONLY else ""
        return {"label": None, "nominal": None, "why": f"no route {a} -> {b}{how} is stored"}
    p = min(paths, key=lambda q: topo.path_score(g, q))
    hops = list(zip(p, p[1:]))
    label = " > ".join(topo.edge_label(g, u, v) for u, v in hops)
    if len(paths) > 1:
        label += f" (x{len(paths)} parallel)"
    nominal = topo.aggregate_bw(g, paths)
    nsrc = "links.bw_gbps_per_dir" + (" (max flow over the parallel paths)" if len(paths) > 1 else "")
    why = None
    if nominal is None and len(hops) == 1:
        rs = g.edges[a, b]["rows"]
        attr = [x for r in rs for x in (r.get("a_nvlink_gbps_per_dir"), r.get("b_nvlink_gbps_per_dir"))
                if x is not None]
        if attr and all(r["link_type"].lower().startswith("nvlink") for r in rs):
            nominal, nsrc = min(attr), "per-GPU NVLink speed reported by nvidia-smi (components.attrs)"
    kinds = sorted({g.nodes[n].get("kind") or "" for q in paths for n in q[1:-1]} - {""})
    if nominal is None and "nvswitch" in kinds:
        nominal, nsrc = _per_gpu_switch_bw(g, a, b)
    if nominal is None:
        gaps = [f"{u}-{v} ({topo.edge_label(g, u, v)})" for p2 in paths for u, v in zip(p2, p2[1:])
                if topo.edge_bw(g, u, v) is None]
        why = "no nominal bandwidth is stored for " + ", ".join(list(dict.fromkeys(gaps))[:3])
    return {"label": label, "nominal": nominal, "nominal_source": nsrc if nominal else None, "why": why,
            "path": p, "direct_nvlink": len(hops) == 1 and topo.is_nvlink_class(g, a, b), "kinds": kinds,
            "count": (g.edges[a, b]["rows"][0].get("count") or 1) if len(hops) == 1 else None}


def _per_gpu_switch_bw(g: nx.Graph, a: str, b: str) -> tuple[Optional[float], Optional[str]]:
    """The per-GPU NVSwitch bandwidth: the sum of a GPU's stated links into the NVSwitches (the lower of the
    two ends). Used where a route crosses switch-to-switch links whose bandwidth no source states (DGX-2
    baseboards): the GPU's own links are then the nominal a copy is set against."""
    sums = []
    for x in (a, b):
        bws = [topo.edge_bw(g, x, n) for n in g[x] if g.nodes[n].get("kind") == "nvswitch"]
        if not bws or None in bws:
            return None, None
        sums.append((sum(bws), len(bws)))
    total, n = min(sums)
    return total, (f"per-GPU NVSwitch bandwidth: the GPU's {n} links into the NVSwitches "
                   "(links.bw_gbps_per_dir); the switch-to-switch links state none")


def doc_class(g: nx.Graph, a: str, b: str, condition: Optional[str]) -> Optional[str]:
    """The document's path class (mgbench: NVLink xN, PIX, PXB, PHB, SYS) of a GPU pair."""
    return _pairs.classify(g, a, b, condition)[0]


def _host_node(g: nx.Graph, host: str, other: str, numa: Optional[int]) -> tuple[Optional[str], Optional[str]]:
    if numa is not None and f"cpu{numa}" in g:
        return f"cpu{numa}", None
    return topo.resolve_endpoint(g, host, other)


# ---- answer ---------------------------------------------------------------------------------------------

def _pct(measured, nominal, direction, doc: bool) -> Optional[float]:
    if measured is None or not nominal:
        return None
    factor = 2 if (direction == "bi" and not doc) else 1    # ingested tools count both directions
    return round(100.0 * measured / (factor * nominal), 1)


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    s = plan.slots
    sid = s["system"]
    name = cat.name(sid)
    links = [dict(r, selected=True) for r in rows if r["part"] == "link"]
    g = topo.build_graph(links)
    meas = [r for r in rows if r["part"] == "measured"]
    stated = [r for r in rows if r["part"] == "stated"]
    pair = plan.extra["mode"] == "pair"
    notes: list[str] = []
    gpus = topo.gpus_of(g)
    cache: dict[tuple, dict] = {}

    def routed(a, b, cond):
        key = (a, b, cond in PCIE_ONLY)
        if key not in cache:
            cache[key] = route(g, a, b, cond)
        return cache[key]

    out: list[dict[str, Any]] = []
    doc_keys: dict[tuple, dict] = {}
    for r in meas + stated:
        doc = r.get("path_class") is not None or r.get("doc_nominal") is not None
        base = {"system_id": sid, "operation": r["operation"], "direction": r["direction"],
                "condition": r["condition"], "msg_bytes": r["msg_bytes"], "tool": r["tool"], "test": r.get("test"),
                "statistic": r.get("statistic"), "src": r["src"], "dst": r["dst"], "source": r["source"],
                "quantity": r.get("quantity")}
        if r["part"] == "measured" and not doc and (r["src"] is None or r["dst"] is None) \
                and r["tool"] != "nccl-tests" and not (r["operation"] in ("h2d", "d2h") and (r["src"] or r["dst"])):
            continue                                  # no endpoints, no link class: nothing to set it against
        if doc or r["part"] == "stated":
            if pair and r["operation"] == "p2p" and r.get("path_class"):
                want = doc_class(g, s["src"], s["dst"], r["condition"])
                if want is None or r["path_class"] != want:
                    continue
            elif pair and r["operation"] in ("h2d", "d2h") and "host" not in (s["src"], s["dst"]):
                continue
            elif pair and not r.get("path_class"):
                continue
            label = r.get("path_class") or r.get("via") or ("as stated: " + (r.get("quantity") or "")).strip(": ")
            key = (r["operation"], r["direction"], r["condition"], label, r.get("test"), r.get("host"),
                   r.get("statistic"))
            row = doc_keys.get(key)
            if row is None:
                row = dict(base, link=label, via=r.get("via"), metric=r["metric"], measured=None, nominal=r.get("doc_nominal"), percent=None,
                           basis=None, nominal_source="the document's theoretical bandwidth" if r.get("doc_nominal")
                           else None, host=r.get("host"))
                doc_keys[key] = row
                out.append(row)
            row["via"] = row.get("via") or r.get("via")
            if r["part"] == "stated":
                row["percent"], row["basis"] = r["value"], "as printed"
            else:
                row["measured"], row["source"], row["metric"] = r["value"], r["source"], r["metric"]
                row["msg_bytes"] = r["msg_bytes"]
            continue
        # an ingested or curated measurement between two endpoints (or an NCCL run over the only GPU pair)
        a, b = r["src"], r["dst"]
        if r["operation"] in ("h2d", "d2h") and (a is None) != (b is None):
            dev = a or b                                  # some tools store only the device end
            a, b = ("host", dev) if r["operation"] == "h2d" else (dev, "host")
            base.update(src=a, dst=b)
        if a is None and b is None:
            if len(gpus) != 2:
                continue
            a, b = gpus
        if a is None or b is None:
            continue
        ga, gb, note = a, b, None
        if a == "host" or b == "host":
            other = b if a == "host" else a
            hn, note = _host_node(g, "host", other, r.get("numa_node"))
            if hn is None:
                continue
            ga, gb = (hn, b) if a == "host" else (a, hn)
        rt = routed(ga, gb, r["condition"])
        out.append(dict(base, src=a, dst=b, link=rt["label"] or "(no route)", measured=r["value"],
                        nominal=rt["nominal"], nominal_source=rt.get("nominal_source"),
                        percent=_pct(r["value"], rt["nominal"], r["direction"], False),
                        basis="computed" if rt["nominal"] else rt["why"], metric=r["metric"],
                        via_kinds=rt.get("kinds") or [], host_routed=note if "host" in (a, b) else None))
    for row in out:
        if row["percent"] is None and row.get("measured") is not None and row.get("nominal") and \
                row.get("basis") is None:
            row["percent"], row["basis"] = _pct(row["measured"], row["nominal"], row["direction"], True), "computed"
    given = s.get("nominal")
    if given:
        # "measured against x8 Gen3", "as a percentage of 16 GB/s": the user's own nominal replaces the stored one
        # (or stands in where none is stored); a percentage a document printed against its own nominal says
        # nothing about the asked one, so rows without a measured value go
        out = [o for o in out if o.get("measured") is not None]
        for o in out:
            o["nominal"], o["nominal_source"] = given["value"], f"given in the question: {given['said']}"
            o["percent"] = _pct(o["measured"], given["value"], o["direction"], "via_kinds" not in o)
            o["basis"] = "against the nominal asked for"
        per_lane = "" if given["said"].endswith(("/s", "ps")) else \
            f" = {given['value']:.4g} GB/s per direction (lane rate x line-code efficiency x width)"
        notes.append(f"set against the nominal the question gives: {given['said']}{per_lane}")
    if s.get("link_type"):
        lt = s["link_type"].lower()
        fam = re.sub(r"\d+$", "", lt)
        if len({x["link_type"].lower() for x in links if re.sub(r"\d+$", "", x["link_type"].lower()) == fam}) <= 1:
            lt = fam    # "NVLink2" on a system with one NVLink generation: its links, whatever a document calls them
        over_link = [o for o in out if lt in f"{o['link'] or ''} {o.get('via') or ''}".lower()
                     or (lt == "pcie" and o["link"] in ("PIX", "PXB", "PHB"))
                     or any(lt.replace("-", "") == k.replace("_", "") for k in o.get("via_kinds") or [])]
        if not over_link and out and s.get("condition") == "p2p_off":
            # "how efficient are peer-to-peer copies over NVLink when P2P is disabled": with P2P off the copies are
            # staged through the host and never cross the GPU link; the links they do cross answer the question
            notes.append(f"with peer-to-peer access disabled the copies do not travel over {s['link_type']}: they are "
                         "staged through the host, so the links below are the ones they cross")
            for o in out:
                o["staged"] = True
        else:
            out = over_link
    # one row per (link, tool, operation, direction, condition, test): the best measured
    # Ties (the same best value from the same table for several endpoints) go to the lowest-numbered pair, so
    # the answer names the same device in every process whatever order the rows arrived in.
    best: dict[tuple, dict] = {}
    for o in sorted(out, key=lambda o: (topo.natural(str(o.get("src"))), topo.natural(str(o.get("dst"))))):
        k = (o["link"], o["tool"], o["operation"], o["direction"], o["condition"], o.get("test"), o.get("host"),
             o.get("statistic"), (o["src"], o["dst"]) if pair else None)
        cur = best.get(k)
        if cur is None or (o.get("measured") or -1, str(o.get("source"))) > (cur.get("measured") or -1,
                                                                           str(cur.get("source"))):
            best[k] = o
    # A percentage the source printed leads one computed here: ours rests on the nominal and the route we
    # assume (54.86 GB/s over "32 GB/s" IPU links = 85.7%, where the report states 84% for its on-board links).
    final = sorted(best.values(), key=lambda o: (o.get("basis") != "as printed",
                                                 -(o["percent"] if o["percent"] is not None else -1),
                                                 o.get("measured") is None, o.get("statistic") is not None, o["link"],
                                                 # the rest only breaks ties, so the order is the same every run
                                                 *(str(o.get(k)) for k in ("tool", "operation", "direction",
                                                                           "condition", "test", "src", "dst"))))
    for o in final:
        o["value"], o["unit"], o["measured_unit"] = o["percent"], "%", "GB/s"
    if not final:
        what = (f"between {endpoint(s['src'])} and {endpoint(s['dst'])} " if pair else "") + \
               (f"over {s['link_type']} " if s.get("link_type") else "")
        types = ", ".join(sorted({r["link_type"] for r in links})) or "none stored"
        asked = [r for r in links if not s.get("link_type")
                 or r["link_type"].lower().startswith(s["link_type"].lower())]
        unstated = (f"; no source states a nominal bandwidth for {'its ' + s['link_type'] if s.get('link_type') else 'its'}"
                    " links" if asked and all(r.get("bw_gbps_per_dir") is None for r in asked) else "")
        raise OutOfScope(f"No bandwidth measurement {what}on {name} can be set against a link; link types there: "
                         f"{types}{unstated}; operations measured: "
                         f"{', '.join(sorted(cat.operations.get(sid, set()))[:12])}.")
    # caveats that hold for the rows shown
    if any(o.get("host_routed") for o in final):
        notes.append("the host is not wired in the stored graph: a host transfer is routed from the CPU "
                     "nearest to its GPU (from the NUMA node where the measurement names one)")
    if any(o["direction"] == "bi" and o.get("nominal") and o.get("basis") == "computed" and not o.get("via")
           for o in final if o.get("src")):
        notes.append("bidirectional results count both directions: they are set against twice the "
                     "per-direction nominal")
    if any("per-GPU NVSwitch" in (o.get("nominal_source") or "") for o in final):
        notes.append("pairs on different baseboards cross switch-to-switch links with no stated bandwidth: they are "
                     "set against the per-GPU NVSwitch bandwidth (the sum of the GPU's links into the switches)")
    rows[:] = final
    plan.notes.extend(dict.fromkeys(notes))
    return _sentence(final, plan, name, pair)


def _describe(o: dict[str, Any]) -> str:
    bits = [o["operation"], DIRECTION_WORDS.get(o["direction"] or "", "")]
    if not o["operation"] and o.get("quantity"):
        bits[0] = o["quantity"]      # no benchmark operation: what the document says was measured
    if o.get("condition"):
        bits.append(condition_words(o["condition"]))
    if o.get("test"):
        bits.append(f"{o['tool']} {o['test']}")
    elif o.get("tool"):
        bits.append(o["tool"])
    if o.get("msg_bytes"):
        bits.append(fmt_bytes(o["msg_bytes"]))
    if o.get("statistic") in ("min", "max"):
        bits.append("the document's stated " + {"min": "lower", "max": "upper"}[o["statistic"]] + " bound")
    return ", ".join(b for b in bits if b)


def _sentence(final: list[dict], plan: Plan, name: str, pair: bool) -> str:
    s = plan.slots
    with_pct = [o for o in final if o["percent"] is not None]
    if pair:
        who = f"{endpoint(s['src'])} -> {endpoint(s['dst'])} on {name}"
    else:
        who = f"{s['link_type']} links on {name}" if s.get("link_type") else f"Links on {name}"
        if s.get("link_type") and final and all(o.get("staged") for o in final):
            who = f"Links on {name} (with P2P off, copies are staged through the host, not sent over {s['link_type']})"
    if not with_pct:
        o = max(final, key=lambda x: x.get("measured") or -1)
        why = o.get("basis") or "no nominal bandwidth is stored"
        return (f"{who}: {why}, so no percent of peak can be given; best measured "
                f"{o['measured']:.4g} GB/s over {o['link']} ({_describe(o)}){cite([o])}.")

    def pref(o):
        exact = (o["src"], o["dst"]) == (s.get("src"), s.get("dst"))
        return (o["condition"] not in (None, "p2p_on", "pinned_wc"), o["direction"] != "uni",
                o.get("measured") is None, not exact, -(o["percent"]))
    top = min(with_pct, key=pref) if pair else with_pct[0]
    lo, hi = min(o["percent"] for o in with_pct), max(o["percent"] for o in with_pct)
    if s.get("aggregate") == "min" and not pair:
        # "which link type is least efficient on the DGX-1 V100?": the lowest share of nominal leads
        least = min(with_pct, key=lambda o: (o["percent"], o["link"]))
        meas = f"{least['measured']:.4g} GB/s, " if least.get("measured") is not None else ""
        return (f"{who}: lowest over {least['link']}, {meas}{least['percent']:g}% of "
                + (f"the {least['nominal']:g} GB/s nominal" if least.get("nominal") else "nominal")
                + f" ({_describe(least)}); {lo:g}-{hi:g}% over {len(with_pct)} tests{cite([least])}.")
    both_ways = top.get("direction") == "bi" and top.get("basis") == "computed" and top.get("path_class") is None \
        and top.get("doc_nominal") is None and top.get("nominal") and top.get("measured") is not None \
        and abs(top["percent"] - 100.0 * top["measured"] / (2 * top["nominal"])) < 0.06
    # a bidirectional copy counts both directions: it is set against both (_pct), and the sentence says so
    pct = f"{top['percent']:g}% of " + (
        f"the {2 * top['nominal']:g} GB/s nominal in both directions ({top['nominal']:g} GB/s per direction)"
        if both_ways else f"the {top['nominal']:g} GB/s nominal" if top.get("nominal") else "nominal")
    if top.get("basis") == "as printed":
        pct += " (as printed)"
    given = s.get("nominal")
    if given and top.get("basis") == "against the nominal asked for":
        pct = f"{top['percent']:g}% of the {given['said']} asked about" + \
            (f" ({given['value']:.4g} GB/s per direction)" if not given["said"].endswith("/s") else "")
    if "nvidia-smi" in (top.get("nominal_source") or ""):
        pct += " (nominal: the NVLink speed nvidia-smi reports; no link bandwidth is stored)"
    if "per-GPU NVSwitch" in (top.get("nominal_source") or ""):
        pct += " (nominal: the per-GPU NVSwitch bandwidth, the GPU's links into the switches)"
    meas = f"{top['measured']:.4g} GB/s, " if top.get("measured") is not None else ""
    if pair:
        head = f"{who} over {top['link']}: {meas}{pct} ({_describe(top)})"
    elif top["percent"] < hi:   # a printed figure leads a higher one computed here (see the sort in answer())
        head = f"{who}: over {top['link']}, {meas}{pct} ({_describe(top)}); computed here from other tests up to {hi:g}%"
    else:
        head = f"{who}: highest over {top['link']}, {meas}{pct} ({_describe(top)})"
    shown_range = pair or top["percent"] == hi
    spread = f"; {lo:g}-{hi:g}% over {len(with_pct)} tests" if len(with_pct) > 1 and shown_range else ""
    return f"{head}{spread}{cite([top])}."
