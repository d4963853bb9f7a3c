"""Rows of planner queries, remembered per read-only connection.

Most of a planner query's time is DuckDB binding and optimising a large CTE query, not reading the rows
(a compare over 126k measurements spends ~60% of its time before the first row is read). A read-only
connection sees one unchanging snapshot of the file, so the same SQL text with the same parameter values (and
the same defaults a plan takes in Python over them, Plan.narrow) always returns the same rows: a follow-up, a
report run again, a chart redrawn or a relaxed retry that comes back to a query already run can take the rows
from here. Entries are bounded (least recently used go first)
and each caller gets its own copies, so an answer() that adds keys to its rows cannot change a later answer.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from app.intents import Plan, rows_of


class RowCache:
    def __init__(self, con, max_entries: int = 512):
        self.con = con
        self.max_entries = max_entries
        self._rows: OrderedDict[tuple[str, str], list[dict[str, Any]]] = OrderedDict()
        self.hits = self.misses = 0

    def rows(self, plan: Plan) -> list[dict[str, Any]]:
        key = _key(plan) if self.max_entries > 0 else None
        if key is not None and key in self._rows:
            self._rows.move_to_end(key)
            self.hits += 1
            return _copied(self._rows[key])
        self.misses += 1
        rows = rows_of(self.con, plan)
        if key is not None:
            self._rows[key] = _copied(rows)
            while len(self._rows) > self.max_entries:
                self._rows.popitem(last=False)
        return rows


def _key(plan: Plan):
    """(SQL, parameters and Python defaults as canonical JSON); None for a value JSON cannot spell exactly (then
    no caching)."""
    try:
        return plan.sql, json.dumps([plan.params, plan.narrow], sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None


def _copied(value: Any) -> Any:
    """A deep copy of rows as DuckDB gives them (dicts and lists of scalars): copy.deepcopy's bookkeeping for
    shared and cyclic objects, which rows never hold, took about a millisecond a question."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value
