"""What a system's parts are, as the documents state them: memory per GPU or IPU, the host's RAM, cores, CUDA and
tensor cores, tiles, models, link interfaces per device, software versions, and how many parts of a kind it has.

These are no measurements: they sit in the components table's attributes (`memory_gb`, `cores`, `model`, ...), each
part with the document it came from. A spec question ("how much memory does each GPU of the DGX-2 have", "CUDA cores:
GTX 980 vs Titan RTX", "which system has the most GPUs") is read by nlu.cues.spec_question into the slots `spec` (the
property) and `part` (the kind of component), and the asker plans and answers it here whatever intent it carries
(metric_lookup, compare_systems, or topology for counts and link interfaces): one value per system, from its own
parts, never a mean of different things (a GPU's HBM2 and the host's DDR4 are two properties).
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional

from app.catalog import Catalog
from app.intents import OutOfScope, Plan
from app.intents._common import cap, cite

# every component of the asked kind on the asked systems; Python reads the attributes (JSON) it needs
SPEC_SQL = """SELECT c.system_id, c.component_id, c.kind, c.label, CAST(c.attrs AS VARCHAR) AS attrs, c.source
FROM components c
WHERE list_contains($systems, c.system_id) AND list_contains($kinds, c.kind)
ORDER BY c.system_id, c.component_id"""
# where a system's CPUs state no core count, its cores may be parts of their own (the XMP-64's 64 XCores, PIUMA's
# 128 cores): counted instead
FALLBACK_KINDS = {"cores": ("core",)}

# property -> kind of part -> the attributes that hold it, in order of preference, with their unit
ATTRS: dict[str, dict[str, tuple[tuple[str, Optional[str]], ...]]] = {
    "memory": {"gpu": (("memory_gb", "GB"), ("memory_GB", "GB"), ("memory", None)),
               "ipu": (("memory_mib", "MiB"),), "host": (("ram_gb", "GB"),)},
    "cores": {"cpu": (("cores", None),), "chip": (("cores", None),)},
    "cuda_cores": {"gpu": (("cuda_cores", None),)},
    "tensor_cores": {"gpu": (("tensor_cores", None),)},
    "tiles": {"ipu": (("tiles", None),)},
    "links": {"gpu": (("nvlinks", None), ("nvlink_links", None), ("nvlink_ports", None)),
              "ipu": (("ipu_link_interfaces", None),)},
    "model": {"gpu": (("model", None),), "cpu": (("model", None),), "chip": (("model", None),),
              "host": (("model", None), ("cpu_model", None)), "switch": (("model", None),), "nic": (("model", None),)},
    "software": {"host": (("os", None), ("nvidia_driver", None), ("cuda_version", None))},
}
# how each property is said of one part
WORDS = {"memory": "memory", "cores": "cores", "cuda_cores": "CUDA cores", "tensor_cores": "tensor cores",
         "tiles": "tiles", "links": "link interfaces", "model": "model", "software": "software", "count": "number"}
PART_WORDS = {"gpu": ("GPU", "GPUs"), "ipu": ("IPU", "IPUs"), "cpu": ("CPU", "CPUs"), "host": ("host", "hosts"),
              "chip": ("chip", "chips"), "core": ("core", "cores"), "nvswitch": ("NVSwitch", "NVSwitches"),
              "pcie_switch": ("PCIe switch", "PCIe switches"), "tile": ("tile", "tiles"), "board": ("board", "boards"),
              "switch": ("network switch", "network switches"), "nic": ("network adapter", "network adapters")}
# network parts whose documents name them by maker and model ("Mellanox SB7790 InfiniBand EDR switch"), where the
# model attribute alone ("SB7790") would drop the maker a "which brand of switch" asks for
_NAMED_BY_LABEL = {"switch", "nic"}
# systems of many nodes, whose components table lists one node's parts
_MANY_NODES = {"cluster", "supercomputer"}
_NUMBER = re.compile(r"^\s*([\d,]+(?:\.\d+)?)\s*([A-Za-z]*)")


def wanted(slots: dict[str, Any]) -> bool:
    return bool(slots.get("spec"))


def plan(slots: dict[str, Any], cat: Catalog) -> Plan:
    s = dict(slots)
    spec, part = s["spec"], s.get("part") or "gpu"
    named = [x for x in [s.get("system"), *(s.get("compare_with") or [])] if x]
    if spec != "count" and part not in ATTRS.get(spec, {}):
        listed = [sorted({p["kind"] for p in cat.parts.get(x, {}).values()}) for x in named]
        if named and all(part in kinds for kinds in listed):
            # "how much memory does an XMP-64 core have": the machine lists cores, and no document states that
            # property of them (the GPU's would answer another question)
            one, many = PART_WORDS.get(part, (part, part + "s"))
            raise OutOfScope(f"The documents loaded state no {WORDS[spec]} per {one} for "
                             f"{', '.join(cat.name(x) for x in named)} (its parts listed: {', '.join(listed[0])}).")
        part = next(iter(ATTRS.get(spec, {"gpu": ()})))
    notes = []
    if named:
        for sid in named:
            if sid not in cat.systems:
                raise OutOfScope(f"I have no data for {sid!r}. " + cat.describe() + ".")
        systems = list(dict.fromkeys(named))
    else:
        # "which system has the most GPUs": every system with parts of that kind
        systems = sorted(x for x, parts in cat.parts.items() if any(p["kind"] == part for p in parts.values()))
        if spec == "count" and part == "gpu":   # "which system has the most GPUs": an IPU is no GPU, but counts
            notes.append("only systems whose GPUs are listed as parts are ranked")
        if not systems:
            raise OutOfScope(f"No loaded system lists {PART_WORDS.get(part, (part, part + 's'))[1]}.")
        notes.append(f"no system named: every system whose parts are listed ({len(systems)})")
    s["part"] = part
    chart = {"kind": "grouped_bar" if len(systems) > 1 else "table", "x": "system_id", "y": "value"}
    kinds = [part, *FALLBACK_KINDS.get(spec, ())]
    return Plan(sql=SPEC_SQL, params={"systems": systems, "kinds": kinds}, chart=chart, slots=s, notes=notes,
                extra={"spec": True, "systems": systems, "named": bool(named)},
                narrow={"kind": "specs", "spec": spec, "part": part, "total": bool(s.get("spec_total")),
                        "unit": s.get("spec_unit")})


def _number(v: Any) -> tuple[Optional[float], Optional[str]]:
    """A stated attribute as a number and the unit written with it ("11GB GDDR5X" -> 11, "GB"; "3,584" -> 3584)."""
    if isinstance(v, bool):
        return None, None
    if isinstance(v, (int, float)):
        return float(v), None
    m = _NUMBER.match(str(v))
    if not m:
        return None, None
    return float(m.group(1).replace(",", "")), (m.group(2) or None)


def rows(con, plan: Plan, comps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per system: the property's value as its parts state it (the first attribute that holds it), how many
    parts of the kind the system has, their model, and the source; a system whose parts do not state it is left
    out (answer() names it)."""
    spec, part, total = plan.narrow["spec"], plan.narrow["part"], plan.narrow["total"]
    by_system: dict[str, list[dict[str, Any]]] = {}
    fallback: dict[str, list[dict[str, Any]]] = {}
    for c in comps:
        c = dict(c, attrs=json.loads(c["attrs"]) if c.get("attrs") else {})
        (by_system if c["kind"] == part else fallback).setdefault(c["system_id"], []).append(c)
    out = []
    for sid in sorted(set(by_system) | set(fallback)):
        parts = by_system.get(sid, [])
        if spec in FALLBACK_KINDS and not any(p["attrs"].get(k) for p in parts for k, _ in ATTRS[spec].get(part, ())):
            if sid not in fallback:
                continue
            own = fallback[sid]
            out.append({"system_id": sid, "spec": "count", "part": own[0]["kind"], "n_parts": len(own),
                        "model": "; ".join(sorted({str(p["attrs"].get("model") or "") for p in own} - {""})),
                        "value": float(len(own)), "unit": None, "text": str(len(own)), "source": own[0].get("source")})
            continue
        if not parts:
            continue
        first = parts[0]
        models = sorted({str(p["attrs"].get("model") or p["attrs"].get("cpu_model") or "") for p in parts} - {""})
        row = {"system_id": sid, "spec": spec, "part": part, "n_parts": len(parts), "model": "; ".join(models),
               "value": None, "unit": None, "text": None, "source": first.get("source")}
        if spec == "count":
            row.update(value=float(len(parts)), text=str(len(parts)))
        else:
            by_label = spec == "model" and part in _NAMED_BY_LABEL
            for key, unit in ATTRS[spec].get(part, ()):
                stating = [p for p in parts if p["attrs"].get(key) not in (None, "")]
                if not stating:
                    continue
                vals = [p["label"] if by_label and p.get("label") else p["attrs"][key] for p in stating]
                if spec in ("model", "software"):
                    texts = [f"{key.replace('_', ' ')} {v}" if spec == "software" else str(v)
                             for v in dict.fromkeys(vals)]
                    row["text"] = "; ".join(texts) if row["text"] is None else row["text"] + "; " + "; ".join(texts)
                    if spec == "model":
                        break
                    continue
                num, written = _number(vals[0])
                row.update(value=num, unit=unit or written, text=str(vals[0]),
                           attr=key, detail=first["attrs"].get("memory_type") if spec == "memory" else None)
                if total and num is not None and part != "host":
                    row.update(value=num * len(parts), total=True)
                break
        if row["value"] is None and row["text"] is None:
            continue
        out.append(row)
    want = plan.narrow.get("unit")
    for r in out:
        if want and r["value"] is not None and r.get("unit") in _BYTES and r["unit"] != want:
            # "in bytes": the stated amount converted (304 MiB -> 318,767,104 bytes); the stated text stays in `text`
            r["value"], r["unit"] = r["value"] * _BYTES[r["unit"]] / _BYTES[want], want
    if any(r["value"] is not None for r in out):
        out.sort(key=lambda r: (-(r["value"] or 0), r["system_id"]))
    return out


# memory capacities: "32 GB" of a V100 or a host is 32 GiB (JEDEC's binary units, as vendors state memory sizes)
_BYTES = {"bytes": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "KB": 1 << 10,
          "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}


def _amount(v: Optional[float], unit: Optional[str]) -> str:
    """32 GB, 1,216, 2.2 GHz: whole numbers without decimals."""
    if v is None:
        return ""
    text = f"{v:,.0f}" if float(v).is_integer() else f"{v:,.4g}"
    return f"{text} {unit}" if unit else text


def _one(r: dict[str, Any], cat: Catalog) -> str:
    one, many = PART_WORDS.get(r["part"], (r["part"], r["part"] + "s"))
    name = cat.name(r["system_id"])
    spec = r["spec"]
    model = f" ({r['model']})" if r.get("model") and spec != "model" else ""
    if spec == "count":
        if cat.systems.get(r["system_id"]) and cat.systems[r["system_id"]].kind in _MANY_NODES:
            # a cluster's listed parts are one node's ("ThetaGPU: 8 GPUs per node", not the 120 of a job)
            return f"{name}: {r['n_parts']} {many if r['n_parts'] != 1 else one} per node{model}"
        return f"{name} has {r['n_parts']} {many if r['n_parts'] != 1 else one}{model}"
    if spec in ("model", "software"):
        what = "model" if spec == "model" else "software"
        return f"{name}: {r['n_parts']} {many if r['n_parts'] != 1 else one}, {what} {r['text']}"
    value = _amount(r["value"], r["unit"]) if r["value"] is not None else r["text"]
    detail = f" ({r['detail']})" if r.get("detail") else ""
    parts = f"{r['n_parts']} {many if r['n_parts'] != 1 else one}" + (f": {r['model']}" if r.get("model") else "")
    if r.get("total"):
        return (f"{name}: {value} of {WORDS[spec]} in all{detail} ({r['n_parts']} {many} x "
                f"{_amount(r['value'] / r['n_parts'], r['unit'])})")
    if r["part"] == "host":
        return f"{name}: the host has {value} of {'RAM' if spec == 'memory' else WORDS[spec]}"
    if spec == "memory":
        return f"{name}: each {one} has {value} of memory{detail} ({parts})"
    in_all = f", {_amount(r['value'] * r['n_parts'], None)} in all" if r["n_parts"] > 1 else ""
    return f"{name}: each {one} has {value} {WORDS[spec]} ({parts}{in_all})"


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    spec, part = plan.narrow["spec"], plan.narrow["part"]
    one, many = PART_WORDS.get(part, (part, part + "s"))
    systems = plan.extra["systems"]
    said = f"number of {many}" if spec == "count" else f"{WORDS[spec]} of the {many} in all" \
        if plan.narrow.get("total") else f"{WORDS[spec]} per {one}" if part != "host" else f"{WORDS[spec]} of the host"
    if not rows:
        where = ", ".join(cat.name(x) for x in systems[:6])
        have = sorted({p["kind"] for x in systems[:1] for p in cat.parts.get(x, {}).values()})
        listed = f" (its parts listed: {', '.join(have)})" if have and len(systems) == 1 else ""
        raise OutOfScope(f"The documents loaded state no {said} for {where}{listed}.")
    missing = [x for x in systems if x not in {r["system_id"] for r in rows}]
    if missing and plan.extra.get("named"):
        plan.notes.append("not stated for " + ", ".join(cat.name(x) for x in missing))
    cites = cite(rows[:4], limit=4)
    if len(rows) == 1:
        return cap(_one(rows[0], cat)) + "." + cites
    if spec in ("model", "software") or any(r["value"] is None for r in rows):
        return "; ".join(cap(_one(r, cat)) for r in rows) + "." + cites
    lead, second = rows[0], rows[1]
    ranked = "; ".join(f"{i + 1}. {_one(r, cat)}" for i, r in enumerate(rows[:10]))
    more = f" (and {len(rows) - 10} more)" if len(rows) > 10 else ""
    if len({r["unit"] for r in rows}) > 1:
        return f"{cap(said)}, most first: {ranked}{more}." + cites
    factor = lead["value"] / second["value"] if second["value"] else None
    lead_words = (f" {cat.name(lead['system_id'])} has {factor:.2f}x the {WORDS[spec] if spec != 'count' else many}"
                  f" of {cat.name(second['system_id'])}." if factor and factor >= 1.01 else
                  f" {cat.name(lead['system_id'])} and {cat.name(second['system_id'])} are level.")
    return f"{cap(said)}, most first: {ranked}{more}.{lead_words}" + cites
