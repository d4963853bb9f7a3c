"""The result object of one question (../design/ask-contract.md): the UI, CLI and reports all use it."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Optional


@dataclass
class Result:
    question: str
    intent: str
    confidence: float = 0.0
    slots: dict[str, Any] = field(default_factory=dict)
    sql: Optional[str] = None
    params: dict[str, Any] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    answer: str = ""
    chart: dict[str, Any] = field(default_factory=lambda: {"kind": "none"})
    timings_ms: dict[str, Optional[float]] = field(default_factory=dict)
    transcript: Optional[str] = None
    notes: list[str] = field(default_factory=list)  # defaults used, caveats
    error: Optional[str] = None
    id: Optional[str] = None  # batch id, echoed
    # what the question was understood as when the data could not answer it (intent is then out_of_scope):
    # "a pair matrix for Lassen" is understood, the data just lacks it
    understood_intent: Optional[str] = None
    # the question with its typos repaired as the reader read them ("ipu gather slowdown tiles congestion" for
    # "... congesiton"), or None where nothing was repaired: the asker's phrase rules read this text
    read_as: Optional[str] = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["rows"] = [{k: _plain(v) for k, v in r.items()} for r in self.rows]
        d["params"] = {k: _plain(v) for k, v in self.params.items()}
        if self.id is None:
            d.pop("id")
        if self.error is None:
            d.pop("error")
        if self.understood_intent is None:
            d.pop("understood_intent")
        return d


def _plain(v: Any) -> Any:
    """JSON-safe scalars (DuckDB returns Decimals, dates, NaN)."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    try:
        return float(v)
    except (TypeError, ValueError):
        return str(v)
