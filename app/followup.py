"""Elliptical follow-ups ("and on the DGX-2?", "what about all-gather?"): the previous turn's intent and slots,
with what the new question names put on top.

A conversation is a chain of small edits to one question; the model sees only the new words, which rarely
say what kind of answer is wanted. The cue must be explicit (a leading "and", "what about", ...) and the
question short, and a question that names its own kind of answer ("and the topology?") keeps its own intent.
"""
from __future__ import annotations

import re
from typing import Any, Optional

# A follow-up starts with one of these and stays short.
CUE = re.compile(r"^\s*(and|what about|how about|same (?:for|on|with)|now (?:for|on)|also (?:for|on)|then (?:for|on))\b",
                 re.I)
MAX_WORDS = 9

# Words that ask for a particular kind of answer: such a follow-up is a new question about the same system.
INTENT_WORDS = re.compile(
    r"\b(topolog\w*|graph|connect\w*|hops?|path|wired|links?|matrix|every pair|all pairs|heat ?map|scal\w*|speed ?up|"
    r"compar\w*|versus|vs|sweep|sizes?|curve|efficien\w*|nominal|peak|of peak|congest\w*|under load|slowdown|"
    r"traces?|kernels?|breakdown|list|which systems|benchmarks|loaded|measured)\b", re.I)

# Slots a follow-up carries over (everything the contract defines but the bookkeeping ones).
CARRIED = ("system", "compare_with", "metric", "operation", "src", "dst", "direction", "msg_bytes", "count",
           "count_kind", "condition", "numa_node", "precision", "aggregate", "app", "library", "top_n", "run",
           "link_type")


def context_of(result) -> Optional[dict[str, Any]]:
    """What the next question may build on: the intent and slots of an answered turn (None otherwise)."""
    if result is None or getattr(result, "error", None) or result.intent == "out_of_scope":
        return None
    return {"intent": result.intent, "confidence": result.confidence, **result.slots}


def is_elliptical(question: str) -> bool:
    return bool(CUE.match(question)) and len(question.split()) <= MAX_WORDS and not INTENT_WORDS.search(question)


def carry(u, context: Optional[dict[str, Any]], question: str) -> Optional[str]:
    """Rewrite the understanding `u` in place for an elliptical follow-up; return a note saying so, or None.

    A system named but unknown ("and on Frontier?") is not replaced by the previous one: the question is then
    answered as about an unknown system, never silently about the old one.
    """
    if not context or not context.get("intent") or not is_elliptical(question):
        return None
    prev = {k: context[k] for k in CARRIED if context.get(k) is not None}
    new = dict(u.slots)
    if "system" in new and new["system"] != prev.get("system"):
        # another system: its own components may differ, and a comparison list made for the old one is stale
        prev.pop("compare_with", None)
    if any(slot == "system" for slot, _ in getattr(u, "unresolved", [])) and "system" not in new:
        prev.pop("system", None)
        prev.pop("compare_with", None)
    merged = {**prev, **new}
    was = u.intent
    u.intent = context["intent"]
    # The previous turn was answered as this intent, whatever the model's share for it was (a reading the data
    # backed, session 23, can stand on 40%): below the floor the follow-up would be read afresh from the data
    # and could change kind ("and the device to host bandwidth?" after a lookup became the topology).
    from nlu.pipeline import CONFIDENCE_FLOOR
    u.confidence = max(float(context.get("confidence") or u.confidence), CONFIDENCE_FLOOR)
    u.slots = merged
    kept = ", ".join(k for k in prev if k not in new)
    return (f"follow-up: kept the previous question's intent ({u.intent}"
            + (f"; the new words alone read as {was}" if was != u.intent else "") + ")"
            + (f" and its {kept}" if kept else ""))
