"""Loads the hand-transcribed tables of datasets/curated/<group>/ (format: datasets/curated/FORMAT.md).

Validation is strict and names file and line, because these files are edited by people: a typo in a
unit or a component id should fail the build, not produce a wrong answer later.
"""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any, Optional

from ingest.records import Component, Link, Measurement, ParseError, ParseResult, Run, System

SYSTEM_COLS = ["system_id", "name", "aliases", "vendor", "kind", "description", "source"]
COMPONENT_COLS = ["system_id", "component_id", "kind", "label", "parent", "attrs", "source"]
LINK_COLS = ["system_id", "a", "b", "link_type", "count", "bw_gbps_per_dir", "directed", "note", "source"]
MEAS_COLS = ["system_id", "tool", "experiment", "metric", "operation", "src", "dst", "direction",
             "msg_bytes", "count", "count_kind", "condition", "precision", "statistic", "value", "unit",
             "orig_value", "orig_unit", "app", "library", "params", "note", "source"]

LINK_TYPES = {"NVLink", "NVLink1", "NVLink2", "NVLink3", "NVLink4", "NVSwitch", "PCIe2", "PCIe3", "PCIe4", "PCIe5",
              "X-Bus", "QPI", "UPI", "IPU-Link", "XLink", "InfiniBand", "Ethernet", "OnChip", "Other"}
ID_RE = re.compile(r"^[a-z0-9_]+$")
SEED_RE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")


class CuratedError(ParseError):
    pass


def _read(path: Path, cols: list[str]) -> list[tuple[int, dict[str, str]]]:
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        try:
            header = next(reader)
        except StopIteration:
            return []
        if header != cols:
            raise CuratedError(f"{path}: header must be {','.join(cols)}")
        rows = []
        for i, rec in enumerate(reader, start=2):
            if not rec or all(not x.strip() for x in rec):
                continue
            if len(rec) != len(cols):
                raise CuratedError(f"{path}:{i}: {len(rec)} fields, expected {len(cols)}")
            rows.append((i, {c: v.strip() for c, v in zip(cols, rec)}))
        return rows


def _opt(v: str) -> Optional[str]:
    return v if v != "" else None


def _num(v: str, where: str, integer: bool = False) -> Optional[float]:
    if v == "":
        return None
    try:
        x = float(v)
    except ValueError:
        raise CuratedError(f"{where}: not a number: {v!r}") from None
    if integer:
        if x != int(x):
            raise CuratedError(f"{where}: not an integer: {v!r}")
        return int(x)
    return x


def _obj(v: str, where: str) -> dict[str, Any]:
    if v == "":
        return {}
    try:
        d = json.loads(v)
    except json.JSONDecodeError as e:
        raise CuratedError(f"{where}: invalid JSON: {e}") from None
    if not isinstance(d, dict):
        raise CuratedError(f"{where}: JSON must be an object")
    return d


def _source(v: str, where: str) -> str:
    if not SEED_RE.search(v):
        raise CuratedError(f"{where}: source must name the seed document file: {v!r}")
    return v


def load_systems_manifest(path: Path) -> list[System]:
    """datasets/raw/systems.csv: names and aliases for systems whose data are raw outputs, not documents."""
    out = []
    for i, r in _read(path, SYSTEM_COLS):
        where = f"{path.name}:{i}"
        if not ID_RE.match(r["system_id"]):
            raise CuratedError(f"{where}: bad system_id {r['system_id']!r}")
        if not r["source"]:
            raise CuratedError(f"{where}: source is empty")
        out.append(System(system_id=r["system_id"], name=r["name"] or r["system_id"],
                          aliases=[a.strip() for a in r["aliases"].split("|") if a.strip()],
                          vendor=_opt(r["vendor"]), kind=_opt(r["kind"]),
                          description=_opt(r["description"]), source=r["source"]))
    return out


def load_group(group_dir: Path) -> ParseResult:
    res = ParseResult()
    rel = group_dir.name
    for i, r in _read(group_dir / "systems.csv", SYSTEM_COLS):
        where = f"{rel}/systems.csv:{i}"
        if not ID_RE.match(r["system_id"]):
            raise CuratedError(f"{where}: bad system_id {r['system_id']!r}")
        res.systems.append(System(
            system_id=r["system_id"], name=r["name"] or r["system_id"],
            aliases=[a.strip() for a in r["aliases"].split("|") if a.strip()],
            vendor=_opt(r["vendor"]), kind=_opt(r["kind"]), description=_opt(r["description"]),
            source=_source(r["source"], where)))
    comp_ids: set[tuple[str, str]] = set()
    for i, r in _read(group_dir / "components.csv", COMPONENT_COLS):
        where = f"{rel}/components.csv:{i}"
        if not ID_RE.match(r["component_id"]):
            raise CuratedError(f"{where}: bad component_id {r['component_id']!r}")
        comp_ids.add((r["system_id"], r["component_id"]))
        res.components.append(Component(
            system_id=r["system_id"], component_id=r["component_id"], kind=r["kind"],
            label=_opt(r["label"]), parent=_opt(r["parent"]), attrs=_obj(r["attrs"], where),
            source=_source(r["source"], where)))
    for i, r in _read(group_dir / "links.csv", LINK_COLS):
        where = f"{rel}/links.csv:{i}"
        if r["link_type"] not in LINK_TYPES:
            raise CuratedError(f"{where}: unknown link_type {r['link_type']!r}")
        for end in (r["a"], r["b"]):
            if (r["system_id"], end) not in comp_ids:
                raise CuratedError(f"{where}: endpoint {end!r} is not a component of {r['system_id']}")
        res.links.append(Link(
            system_id=r["system_id"], a=r["a"], b=r["b"], link_type=r["link_type"],
            count=int(_num(r["count"], where, True) or 1), bw_gbps_per_dir=_num(r["bw_gbps_per_dir"], where),
            directed=r["directed"].lower() == "true", note=_opt(r["note"]),
            source=_source(r["source"], where)))
    runs: dict[tuple[str, str, str], Run] = {}
    for i, r in _read(group_dir / "measurements.csv", MEAS_COLS):
        where = f"{rel}/measurements.csv:{i}"
        value = _num(r["value"], where)
        if value is None:
            raise CuratedError(f"{where}: value is empty")
        # an empty unit is allowed: dimensionless numbers (error norms, indices) have none
        sid = r["system_id"] or f"doc_{rel}"  # statements of a document not tied to one machine
        if not r["system_id"] and not any(x.system_id == sid for x in res.systems):
            res.systems.append(System(system_id=sid, name=f"{rel}: statements not tied to one system",
                                      kind="document", source=_source(r["source"], where)))
        key = (sid, r["tool"] or "paper", r["experiment"] or "")
        run = runs.get(key)
        if run is None:
            run = runs[key] = Run(tool=key[1], system_id=key[0], experiment=key[2] or None,
                                  source=_source(r["source"], where))
        msg = _num(r["msg_bytes"], where, True)
        cnt = _num(r["count"], where, True)
        run.measurements.append(Measurement(
            metric=r["metric"], value=value, unit=r["unit"], operation=_opt(r["operation"]),
            src=_opt(r["src"]), dst=_opt(r["dst"]), direction=_opt(r["direction"]),
            msg_bytes=msg, count=cnt, count_kind=_opt(r["count_kind"]),
            condition=_opt(r["condition"]), precision=_opt(r["precision"]),
            statistic=_opt(r["statistic"]), app=_opt(r["app"]), library=_opt(r["library"]),
            params=_obj(r["params"], where), orig_value=_opt(r["orig_value"]),
            orig_unit=_opt(r["orig_unit"]), note=_opt(r["note"]), source=_source(r["source"], where)))
    res.runs = list(runs.values())
    return res


def groups(curated_dir: Path) -> list[Path]:
    return sorted(p for p in curated_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
