"""Answers the Systems page asks for itself (a system's topology, what was measured on it): the same intent
planners as a question would reach, called with known slots, so the page and the chat agree."""
from __future__ import annotations

import time
from typing import Any

from app import intents
from app.result import Result


def planned(asker, intent: str, slots: dict[str, Any], question: str) -> Result:
    """One intent's plan -> rows -> answer on the session's connection, as a Result (charts and reports take it)."""
    t = time.perf_counter()
    mod = intents.get(intent)
    res = Result(question=question, intent=intent, confidence=1.0, slots=dict(slots))
    try:
        plan = mod.plan(dict(slots), asker.cat)
        rows = intents.rows_of(asker.con, plan)
        res.answer = mod.answer(rows, plan, asker.cat)
        res.sql, res.params, res.rows, res.chart, res.notes = plan.sql, plan.params, rows, plan.chart, plan.notes
    except intents.OutOfScope as e:
        res.intent, res.answer = "out_of_scope", str(e)
    res.timings_ms = {"asr": None, "nlu": None, "sql": round((time.perf_counter() - t) * 1000, 2)}
    res.timings_ms["total"] = res.timings_ms["sql"]
    return res
