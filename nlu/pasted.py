"""Output pasted into a question between backticks: "h200 sendrecv_perf row `1048576 262144 float none -1 16.78 ...`
out-of-place time?", "`258000000 4 15505.2` (bytes, ranks, time in usec) is a line from DeepBench's MPI all-reduce
on Yme. Is that what the DB has?".

People copy a line of a tool's output into the question and ask about it. Read as question words, a row is a run of
numbers the tagger takes for sizes and counts ("49 B"), and a case label ("x12") for a machine's name. So what is
between backticks is read as output: a row whose layout is known says what it measured (an nccl-tests row's first
column is the size in bytes; a DeepBench all-reduce row is bytes, ranks and time, as the question's own legend says),
and is replaced by those words; a tool's header or a printed matrix says what kind of thing was pasted; anything
else keeps only the names in it (an application, a machine, a library), not its numbers or case labels. The note says how the paste was read.
"""
from __future__ import annotations

import re
from typing import Callable

TICK = "`"
# nccl-tests data rows: size count type redop root time algbw busbw #wrong [time algbw busbw #wrong]
_DTYPES = {"float", "double", "half", "bfloat16", "int8", "uint8", "int32", "uint32", "int64", "uint64", "fp8",
           "float32", "float16", "float64", "char", "int"}
_REDOPS = {"sum", "prod", "max", "min", "avg", "none", "mulsum"}
_NUMBER = re.compile(r"^-?\d+(\.\d+)?([eE][-+]?\d+)?$")
# the legend a question gives for a row of three numbers ("(bytes, ranks, time in usec)")
_RANKS_SAID = re.compile(r"\branks?\b", re.I)


def _nccl_row(toks: list[str]) -> list[str] | None:
    if len(toks) >= 9 and toks[0].isdigit() and toks[2].lower() in _DTYPES and toks[3].lower() in _REDOPS \
            and all(_NUMBER.match(t) or t in ("N/A", "-") for t in toks[4:]):
        return ["at", toks[0], "bytes"]
    return None


def _three_numbers(toks: list[str], question: str) -> list[str] | None:
    if len(toks) == 3 and toks[0].isdigit() and toks[1].isdigit() and _NUMBER.match(toks[2]) \
            and _RANKS_SAID.search(question) and int(toks[1]) <= 4096:
        return ["at", toks[0], "bytes", "with", toks[1], "ranks"]
    return None


def _kind_of_output(toks: list[str]) -> tuple[str, list[str]] | None:
    """(kind, the words it is read as) for output whose kind is known by its shape."""
    text = " ".join(toks)
    if re.search(r"\bnThread\b.*\bnGpus\b|\bminBytes\b", text):
        return "settings", ["run", "settings"]     # an nccl-tests header: the run's settings
    if re.match(r"^D\\D\b", text) or re.match(r"^\d+(\s+\d+(\.\d+)?){3,}$", text):
        return "matrix", ["matrix"]                # p2pBandwidthLatencyTest's "D\D 0 1 2 3" and its rows
    return None


def read_pasted(words: list[str], question: str, known: Callable[[str], bool]) \
        -> tuple[list[str], list[str], set[str]]:
    """(words with each backticked span read as output, notes saying how, the kinds of output pasted: "row",
    "settings", "matrix", "text"). `known(word)`: whether the word names an application, a machine or a library
    (kept from an unrecognised paste; its numbers and labels are not)."""
    if words.count(TICK) < 2:
        return words, [], set()
    kinds: set[str] = set()
    out: list[str] = []
    notes: list[str] = []
    i = 0
    while i < len(words):
        if words[i] == TICK and TICK in words[i + 1:]:
            j = words.index(TICK, i + 1)
            span = words[i + 1:j]
            read = _nccl_row(span) or _three_numbers(span, question)
            kind = None if read else _kind_of_output(span)
            if read:
                notes.append(f"the pasted row read as: {' '.join(read[1:])}")
                out.extend(read)
                kinds.add("row")
            elif kind:
                notes.append(f"the pasted text read as {' '.join(kind[1])}")
                out.extend(kind[1])
                kinds.add(kind[0])
            else:
                kinds.add("text")
                kept = [w for w in span if known(w)]
                out.extend(kept)
                if len(kept) < len(span):
                    notes.append("numbers and labels of the pasted text left out: "
                                 + " ".join(w for w in span if w not in kept))
            i = j + 1
            continue
        out.append(words[i])
        i += 1
    return out, list(dict.fromkeys(notes)), kinds
