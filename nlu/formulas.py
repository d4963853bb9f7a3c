"""Measures asked for by their formula: "algbw x 2(n-1)/n" is the bus bandwidth, "the message size divided by the
elapsed time" the algorithm bandwidth, "(old time - new time) / old time" a time reduction, "the time on 2 GPUs
divided by the time on N GPUs" a speedup, "latency under load divided by latency when idle" a slowdown.

People who know how a number is made often ask for it that way, and the words of a formula name other measures
("time", "size", "latency"): read literally, "the message size divided by the elapsed time" asks for a time. Each
formula is rewritten to the name the data stores it under before anything else reads the words, and the rewrite is
shown in the answer's notes like any other reading of the asker's words. Only formulas that define a stored measure
are read; an arbitrary expression is left as written.
"""
from __future__ import annotations

import re

_OVER = r"(?:divided by|over|/|÷)"
_TIMES = r"(?:x|\*|×|times|multiplied by)"
_SIZE = r"(?:the )?(?:message |transfer |buffer |data |payload )?(?:size|bytes|byte count|number of bytes)"
_TIME = r"(?:the )?(?:elapsed |measured |wall - clock |wall clock |wall |run |average |mean |transfer )?(?:time|duration)"
_TWO_N = r"(?:2|two) ?(?:\* |times )?\(? ?n ?(?:-|minus) ?(?:1|one) ?\)? ?(?:/|over|divided by) ?n"
_ALGBW = r"(?:algbw|alg bw|algo bw|algorithm bandwidth|algorithmic bandwidth)"
_COLLECTIVE = re.compile(r"\b(all ?- ?reduce|allreduce|all ?- ?gather|allgather|reduce ?- ?scatter|reduce_scatter|"
                         r"broadcast|bcast|all ?- ?to ?- ?all|alltoall|nccl|collective|all_reduce|all_gather)\b", re.I)
_LOADED = r"(?:under load|when loaded|loaded|with load|under congestion|congested|with congestion|when busy)"
_IDLE = r"(?:(?:when |while |at )?(?:idle|congestion - free|congestion free|unloaded|quiet)|without (?:load|congestion))"
_MEASURE = r"(?P<m>latency|time|runtime|bandwidth)"
_DEVICES = r"(?P<k>gpus?|nodes?|cores?|ipus?|ranks?|processes|processors)"

# (pattern, replacement as a function of the match), tried in this order over the words as written (case ignored)
_RULES: list[tuple[str, object]] = [
    # "algbw x 2(n-1)/n", "2(n-1)/n times the algorithm bandwidth": nccl-tests' bus bandwidth
    (rf"\b(?:the )?{_ALGBW} {_TIMES} {_TWO_N}\b|\b{_TWO_N} {_TIMES} (?:the )?{_ALGBW}\b",
     lambda m, said: "busbw"),
    # "the message size divided by the elapsed time": the algorithm bandwidth of a collective, a bandwidth otherwise
    (rf"\b{_SIZE} (?:divided by|/|÷|over the) ?{_TIME}\b|\b{_SIZE} per (?:unit of )?time\b",
     lambda m, said: "algbw" if _COLLECTIVE.search(said) else "bandwidth"),
    # "latency under load divided by latency when idle": the measure's slowdown under load (the IPU study stores
    # it for latency and for bandwidth, so the measure stays)
    (rf"\b(?:the )?{_MEASURE} {_LOADED} {_OVER} (?:the )?(?P=m) {_IDLE}\b",
     lambda m, said: f"{m['m']} slowdown under load"),
    (rf"\b(?:the )?(?:loaded|under load) ?{_OVER} ?(?:idle|unloaded|congestion - free) {_MEASURE}\b",
     lambda m, said: f"{m['m']} slowdown under load"),
    # "(old time - new time) / old time": the share of the time saved
    (rf"\(? ?(?:the )?(?:old|original|baseline|before) {_MEASURE} (?:-|minus) (?:the )?(?:new|optimi[sz]ed|"
     rf"after|improved) (?P=m) ?\)? ?{_OVER} ?(?:the )?(?:old|original|baseline|before) (?P=m)\b",
     lambda m, said: f"{'time' if m['m'].lower() == 'runtime' else m['m']} reduction"),
    # "1 - compressed/uncompressed all-to-all latency": the latency saved by compressing
    (rf"\b(?:1|one) (?:-|minus) (?P<a>[a-z]+) ?{_OVER} ?(?P<b>[a-z]+) (?P<rest>(?:\S+ ){{0,6}}?)"
     rf"(?P<m>latency|time|runtime)\b",
     lambda m, said: f"{m['a']} {m['rest']}{'time' if m['m'].lower() == 'runtime' else m['m']} reduction"),
    # "the time on 2 GPUs divided by the time on N GPUs": a speedup, over the counts when the second is a variable
    (rf"\b(?:the )?(?:training |run |wall )?(?:time|runtime) (?:on|with|at|for|using) (?P<a>\S+) {_DEVICES} "
     rf"{_OVER} (?:the )?(?:training |run |wall )?(?:time|runtime) (?:on|with|at|for|using) (?P<b>\S+)"
     rf"(?: (?P=k)| (?:gpus?|nodes?|cores?|ipus?|ranks?|processes|processors))?\b",
     lambda m, said: f"speedup on {m['b']} {_plural(m['k'])}" if m["b"].isdigit()
     else f"speedup over {_plural(m['k'])}"),
    # "T1/TN", "t(1) / t(p)": the speedup over the counts
    (r"\bt ?\(? ?_?1 ?\)? ?/ ?t ?\(? ?_?[npk] ?\)?(?=\s|$)", lambda m, said: "speedup"),
]
_COMPILED = [(re.compile(pattern, re.I), name) for pattern, name in _RULES]


def _plural(kind: str) -> str:
    return kind if kind.endswith("s") else kind + "s"


def named_measures(words: list[str]) -> list[str]:
    """`words` with each formula that defines a stored measure replaced by that measure's name (in lower case; the
    words around it stay as written)."""
    said = " ".join(words)
    low = said.lower()
    if not any(c in low for c in "/÷") and not re.search(r"\b(divided|over|minus|times|multiplied)\b", low):
        return words
    out = said
    for pattern, name in _COMPILED:
        m = pattern.search(out)
        while m:
            out = out[:m.start()] + name(m, low).lower() + out[m.end():]
            m = pattern.search(out, m.start() + 1)
    return words if out == said else out.split()
