"""Vocabulary matches anywhere in a question: the safety net under the tagger.

The tagger generalises to phrasings it never saw but misses words it was not sure about; the vocabulary
knows every alias but not what a word means in context. So the pipeline keeps every span the tagger tagged
and could resolve, and lets a vocabulary match fill a slot only where the tagger left the words untagged
(or tagged them as something that names nothing). When one surface belongs to several slots ("NVLink" is a
link type and a condition), the tagger's own probabilities for those slots at that word decide.

Matching uses the normaliser's keys (`nlu.vocab.key`), so "envy link", "d g x two", "all-reduce" and
"P2P" match like their written forms. Single words too common to mean a slot on their own are skipped.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from nlu.normalize import SETTING_VERBS, Normalizer
from nlu.vocab import key

# vocabulary sections that map onto one slot each (endpoints and numbers are the tagger's job)
SECTION_SLOT = {"system": "system", "metric": "metric", "operation": "operation", "condition": "condition",
                "direction": "direction", "precision": "precision", "aggregate": "aggregate", "app": "app",
                "library": "library", "link_type": "link_type", "count_kind": "count_kind"}

# Words that are aliases somewhere in the vocabulary but, alone, usually mean nothing of the kind.
WEAK = {"a", "an", "the", "on", "off", "in", "out", "of", "to", "at", "by", "for", "with", "is", "it", "all",
        "one", "two", "both", "each", "any", "best", "top", "low", "high", "peak", "run", "runs", "data", "copy",
        "mode", "node", "nodes", "system", "link", "links", "bus", "host", "device", "memory", "time", "speed",
        "fast", "slow", "size", "sizes", "message", "messages", "test", "tests", "model", "load", "idle",
        "average", "mean", "total", "per", "vs", "versus", "between", "up", "down", "full", "half", "single",
        "same", "different", "direct", "busy", "version", "baseline", "loaded", "measured", "nominal",
        "theoretical", "kernel", "kernels", "estimated", "estimate", "actual", "actually"}
MAX_WORDS = 6
# nouns a machine is called by ("the 8-GPU box"), after which a hyphenated count is part of its name
MACHINE_NOUNS = {"box", "boxes", "system", "systems", "server", "servers", "node", "nodes", "machine", "machines",
                 "cluster", "clusters", "workstation", "rig", "platform", "chassis"}
EXTENDING = {"condition", "direction", "precision"}
FILLER = SETTING_VERBS | {"the"}
QUANTITY_WORDS = {"both", "single", "dual", "quad", "pair", "a"}
DEVICE_WORDS = {"gpu", "g", "ipu", "i", "core", "tile", "node", "cpu", "c", "socket", "device"}
SIZE_WORDS = {"b", "byte", "bytes", "k", "kb", "kib", "kilobyte", "kilobytes", "m", "mb", "mib", "megabyte",
              "megabytes", "meg", "megs", "g", "gb", "gib", "gigabyte", "gigabytes", "gig", "gigs", "t", "tb", "tib",
              "terabyte", "terabytes", "kibibyte", "mebibyte", "gibibyte", "kibibytes", "mebibytes", "gibibytes"}


def spelled_device(words: list[str], i: int) -> bool:
    """Whether words[i] begins a device spelled out letter by letter ("g p u", "g p us", "i p u")."""
    return 0 <= i and i + 2 < len(words) and words[i].lower() in ("g", "i") and words[i + 1].lower() == "p" \
        and words[i + 2].lower() in ("u", "us", "u's")


def _cuts_spelling(words: list[str], a: int, b: int) -> bool:
    """Whether the window words[a:b] begins or ends inside a word spelled letter by letter: "c p" of "c p u" is no
    name ("CP", a MAPredict node, would swallow the CPU of "top twenty c p u ops"). A window of three or more words
    whose second is a whole word begins a name of its own after a spelling ("titan r t x | p two p bandwidth latency
    test")."""
    def letter(i: int) -> bool:
        return 0 <= i < len(words) and len(words[i]) == 1 and words[i].isalpha() and words[i].lower() != "a"
    return (letter(b - 1) and letter(b)) or (letter(a) and letter(a - 1) and not (b - a >= 3 and not letter(a + 1)))


@dataclass(frozen=True)
class Hit:
    start: int          # first word index
    end: int            # one past the last word index
    slot: str
    value: Any          # a canonical id; bytes for msg_bytes; (n, kind) for count; an endpoint id


class Gazetteer:
    def __init__(self, norm: Normalizer):
        self.norm = norm
        self.index = {s: norm._index[s] for s in SECTION_SLOT}
        # the last words asked about and their windows: the reader asks twice of the same words in one question
        # (once to find a name said first, once to read the rest), and each scan costs about a millisecond
        self._last: tuple[tuple[str, ...], list[tuple[int, int, dict[str, Any]]]] = ((), [])

    def candidates(self, words: list[str]) -> list[tuple[int, int, dict[str, Any]]]:
        """(start, end, {slot: value}) for every word window naming an unambiguous vocabulary value, a size
        with a unit ("1GiB", "eight kilobytes"), a count with its kind ("16 GPUs", "both GPUs") or a device
        ("g p u two"). Filler inside a window ("P2P is disabled") is skipped."""
        asked, last = tuple(words), self._last
        if asked and asked == last[0]:
            return list(last[1])
        out = self._scan(words)
        self._last = (asked, out)
        return list(out)

    def _scan(self, words: list[str]) -> list[tuple[int, int, dict[str, Any]]]:
        out = []
        n = len(words)
        for a in range(n):
            # whether a number, a count or a device can begin here is a question of the first word alone: asked
            # once per word, not once per window
            may_count = self._may_begin_number(words[a])
            for b in range(min(n, a + MAX_WORDS), a, -1):
                inner = [w for i, w in enumerate(words[a:b]) if i in (0, b - a - 1) or w.lower() not in FILLER]
                text = " ".join(inner)
                numeric = self._numeric(words[a:b], text) if may_count else {}
                if numeric and "msg_bytes" in numeric and spelled_device(words, b - 1):
                    numeric = {}             # "two g p us": the g begins a spelled GPU, not gigabytes
                if numeric and b - a == 3 and b < n and words[b].lower() in MACHINE_NOUNS:
                    numeric = {}             # "the 8-GPU box": a machine's name, no count of a run
                if numeric:
                    out.append((a, b, numeric))
                k = key(text)
                if len(k) < 2 or _cuts_spelling(words, a, b):
                    continue
                if b - a == 1 and (words[a].lower() in WEAK or not any(c.isalnum() for c in words[a])):
                    continue
                if b - a > 1 and words[b - 1] == "-":
                    continue    # "memory -" of "memory-access latency" is not the metric memory: a hyphen joins on
                found = {}
                for section, slot in SECTION_SLOT.items():
                    e = self.index[section].get(k)
                    if e is not None and e.value is not None:
                        found[slot] = e.value
                if found:
                    out.append((a, b, found))
        return out

    def _may_begin_number(self, w: str) -> bool:
        return self.norm.number(w) is not None or w.lower() in QUANTITY_WORDS or w.lower() in DEVICE_WORDS

    def _numeric(self, ws: list[str], text: str) -> dict[str, Any]:
        """A size, count or device in the window ws, whose first word _may_begin_number (the caller asks that once
        per first word)."""
        if not ws or len(ws) > 4:
            return {}
        last = ws[-1].lower().rstrip(".,;:!?")   # "... up to 8 GiB.": a stop the tokenizer left on the unit
        if ws[0].lower() in DEVICE_WORDS:
            ep = self.norm.endpoint(text)
            return {"endpoint": ep} if ep and len(ws) <= 4 else {}
        if last.rstrip("s") in SIZE_WORDS or last in SIZE_WORDS:
            size = self.norm.size_bytes(text)
            return {"msg_bytes": size} if size else {}
        if len(ws) == 2 or len(ws) == 3 and ws[1] == "-" and self.norm.number(ws[0]) is not None:
            # ("the 12-GPU single-process all-reduce": a count of GPUs written as a compound, with its hyphen; "the
            # 16-IPU box", "the 56-core server" name machines)
            n, kind = self.norm.count_and_kind(f"{ws[0]} {ws[-1]}")
            if n is not None and kind and (len(ws) == 2 or kind == "gpus"):
                return {"count": (n, kind)}
        return {}

    def hits(self, words: list[str], covered: set[int], prefer=None, cands=None) -> list[Hit]:
        """Leftmost-longest vocabulary matches over words not in `covered`; `prefer(slot_options, start)`
        picks the slot when a surface names several (the tagger's probabilities). `cands`: this question's
        candidates() when the caller already has them."""
        def free(c) -> bool:
            span = range(c[0], c[1])
            inside = [i for i in span if i in covered]
            # a phrase may swallow words the tagger read as something else only if it adds words of its own
            # ("p2p" read as the operation, "p2p off" names the condition too), and a count may take the kind word
            # the tagger read alone if its number is free ("single gpu", "1gpu"; not "top 10 gpu kernels")
            # a phrase of four or more words is specific enough to take the words it covers ("p two p bandwidth
            # latency test" is the CUDA sample, not a p2p bandwidth)
            return not inside or (len(inside) < len(span) and
                                  (set(c[2]) <= EXTENDING or ("count" in c[2] and c[0] not in covered)
                                   or (len(span) >= 4 and set(c[2]) == {"app"})))

        cands = [c for c in (self.candidates(words) if cands is None else cands) if free(c)]
        cands.sort(key=lambda c: (-(c[1] - c[0]), c[0]))
        taken: set[int] = set()
        out = []
        for a, b, found in cands:
            if any(i in taken for i in range(a, b)):
                continue
            slot: Optional[str] = next(iter(found)) if len(found) == 1 else (prefer(list(found), a) if prefer else None)
            if slot is None:
                continue
            taken.update(range(a, b))
            out.append(Hit(a, b, slot, found[slot]))
        out.sort(key=lambda h: h.start)
        return out
