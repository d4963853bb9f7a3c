"""One module per intent: its SQL, its defaults, its answer sentence and its chart kind.

Each module defines NAME and two functions:

    plan(slots: dict, cat: Catalog) -> Plan        # raise OutOfScope when the data cannot answer
    answer(rows: list[dict], plan: Plan, cat) -> str

Every value that came from the user travels in Plan.params (DuckDB named parameters, `$name`);
SQL text is only ever built from fixed fragments chosen by which slots are present.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Optional


@dataclass
class Plan:
    sql: str
    params: dict[str, Any]
    chart: dict[str, Any]
    slots: dict[str, Any]                              # slots after defaults were filled in
    notes: list[str] = field(default_factory=list)     # "no message size given: 1 GiB (largest measured)"
    extra: dict[str, Any] = field(default_factory=dict)  # anything answer() needs (e.g. a graph)
    # defaults chosen in Python over the query's rows (see _narrow.py); JSON, part of the row cache's key
    narrow: Optional[dict[str, Any]] = None


class OutOfScope(Exception):
    """The loaded data cannot answer; the message says why and what is available instead."""
    tried_as: Optional[str] = None   # set by Asker._answer: the intent an unsure question was tried as
    # the refusal holds for any reading of the question (a message size never measured): no runner-up is tried
    final: bool = False


_MODULES: dict[str, ModuleType] = {}


def modules() -> dict[str, ModuleType]:
    if not _MODULES:
        for m in pkgutil.iter_modules(__path__):
            if m.name.startswith("_"):
                continue
            mod = importlib.import_module(f"{__name__}.{m.name}")
            _MODULES[mod.NAME] = mod
    return _MODULES


def get(intent: str) -> ModuleType:
    return modules()[intent]


def rows_of(con, plan: Plan) -> list[dict[str, Any]]:
    rows = fetch(con, plan.sql, plan.params)
    if plan.narrow is not None:
        from app.intents import _narrow
        rows = _narrow.apply(con, plan, rows)
    return rows


def fetch(con, sql: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    cur = con.execute(sql, params)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]
