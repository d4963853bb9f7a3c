"""Word error rate and HPC-term recall, on normalised words.

Both sides go through the NLU's own word normaliser (nlu.vocab.norm_words: lower case, number words as digits,
spelled letters joined) and are then split at punctuation and letter/digit boundaries, so "DGX-2",
"dgx2" and "d g x two" are all the words "dgx 2": WER counts what a listener would call a mistake, not
spelling conventions. For the same reason WER (`scored_words`, not `words`, which the wording model and the
training text's coverage are counted in and so must stay as they were) also reads "versus" as "vs", a size unit
spelt out as its abbreviation ("megabytes" = "MB"), and a template word written as two as one ("heat map" =
"heatmap", "speed up" = "speedup", "uni directional" = "unidirectional"). Hesitations ("uh", "um") are not
words of the question and are left out on both sides. HPC-term recall asks how many vocabulary terms said in the
reference (systems, link types, operations, metrics, libraries, endpoints like "gpu 3") the transcript also
contains.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Iterable

_SPLIT = re.compile(r"[a-z]+|\d+(?:\.\d+)?")


# Hesitations carry no words of the question; Whisper's own English normaliser drops them before WER as well.
HESITATIONS = frozenset({"uh", "um", "uhm", "umm", "uhh", "erm", "er", "ah", "hmm", "mm"})


def _raw_words(text: str) -> list[str]:
    from nlu.vocab import norm_words
    out: list[str] = []
    for w in norm_words(text):
        out += [x for x in _SPLIT.findall(w) if x not in HESITATIONS]
    return out


@lru_cache(maxsize=1)
def _vocabulary():
    """The NLU's vocabulary with the default database's catalog, read once for every table below (each is cached
    too, so a process scores with the vocabulary it first read)."""
    from nlu.vocab import default_vocabulary
    return default_vocabulary()


@lru_cache(maxsize=1)
def _spoken_map() -> tuple[dict[tuple[str, ...], tuple[str, ...]], frozenset]:
    """Spoken vocabulary forms -> the written form they stand for ("envy link" -> "nvlink"), and the one-word
    terms that are sometimes heard as two ("band width" -> "bandwidth")."""
    from nlu.vocab import key
    vocab = _vocabulary()
    spoken: dict[tuple[str, ...], tuple[str, ...]] = {}
    single: set[str] = set()
    for section in TERM_SECTIONS:
        for canonical in vocab.canonicals(section):
            written = vocab.surfaces(section, canonical, "written")
            for s in written:
                ws = _raw_words(s)
                if len(ws) == 1 and len(ws[0]) > 3:
                    single.add(ws[0])
            if not written:
                continue
            target = tuple(_raw_words(written[0]))
            keys = {key(w) for w in written}
            for s in vocab.surfaces(section, canonical, "spoken"):
                src = tuple(_raw_words(s))
                # only aliases that sound like something else written ("envy link"); "d g x two" = "DGX-2"
                # already reads the same after normalisation
                if len(src) > 1 and key(s) not in keys:
                    spoken.setdefault(src, target)
    return spoken, frozenset(single)


def words(text: str) -> list[str]:
    """Normalised words: number words as digits, spelled letters joined, spoken vocabulary forms in their
    written form, split compounds of one-word terms joined."""
    ws = _raw_words(text)
    spoken, single = _spoken_map()
    return _rewrite(ws, spoken, single)


def _rewrite(ws: list[str], spoken: dict[tuple[str, ...], tuple[str, ...]], single: frozenset) -> list[str]:
    """`ws` left to right: a spoken form (up to four words) as its written form, else two words whose join is in
    `single` as that one word, else the word."""
    out: list[str] = []
    i = 0
    while i < len(ws):
        for n in (4, 3, 2):
            k = tuple(ws[i:i + n])
            if len(k) == n and k in spoken:
                out += spoken[k]
                i += n
                break
        else:
            if i + 1 < len(ws) and ws[i] + ws[i + 1] in single:
                out.append(ws[i] + ws[i + 1])
                i += 2
            else:
                out.append(ws[i])
                i += 1
    return out


# one word written two ways: an abbreviation and its full form, a size unit spelt out and abbreviated ("16
# megabytes" is "16 MB"); both sides are read as the second
SAME_WORD = {"versus": "vs", "kilobyte": "kb", "kilobytes": "kb", "megabyte": "mb", "megabytes": "mb",
             "gigabyte": "gb", "gigabytes": "gb", "terabyte": "tb", "terabytes": "tb", "kibibyte": "kib",
             "kibibytes": "kib", "mebibyte": "mib", "mebibytes": "mib", "gibibyte": "gib", "gibibytes": "gib"}


@lru_cache(maxsize=1)
def _compounds() -> frozenset[str]:
    """One-word forms also written as two: the question templates' words ("heatmap", "speedup"; short ones such
    as "into" are English words of their own) and the directions ("unidirectional")."""
    from asr.correct import template_words
    vocab = _vocabulary()
    out = {w for w in template_words() if len(w) > 5}
    for canonical in vocab.canonicals("direction"):
        out |= {s.lower() for s in vocab.surfaces("direction", canonical, "written") if s.isalpha() and len(s) > 5}
    return frozenset(out)


# written two ways before the words are read: a contraction typed without its apostrophe ("whats" is "what's"),
# and a plural of a hundred ("the h two hundreds" is "the H200s", not a number word the normaliser leaves alone)
_APOSTROPHE_DROPPED = re.compile(r"\b(what|that|there|here|where|who|how)s\b", re.IGNORECASE)
_HUNDREDS = re.compile(r"\b(hundred|thousand)s\b", re.IGNORECASE)
# copy directions in shorthand: "PtoP", "DtoH" are the vocabulary's own spellings of P2P and D2H, said alike
_COPY_ENDS = ("p", "d", "h")
_LETTER_TO_LETTER = re.compile(rf"^([{''.join(_COPY_ENDS)}])to([{''.join(_COPY_ENDS)}])$")


def scored_words(text: str) -> list[str]:
    """`words`, then one spelling for what is written two ways (SAME_WORD, compounds split in two, the two
    spellings of a copy direction, a contraction without its apostrophe, "hundreds"): what WER compares."""
    text = _HUNDREDS.sub(r"\1 s", _APOSTROPHE_DROPPED.sub(r"\1's", text))
    ws: list[str] = []
    for w in words(text):
        m = _LETTER_TO_LETTER.match(w)
        if m:
            ws += [m.group(1), "2", m.group(2)]
        else:
            ws.append(SAME_WORD.get(w, w))
    for i in range(1, len(ws) - 1):        # "p to p" said in full is P2P too
        if ws[i] == "to" and ws[i - 1] in _COPY_ENDS and ws[i + 1] in _COPY_ENDS:
            ws[i] = "2"
    return _rewrite(ws, {}, _compounds())


def edit_distance(ref: list[str], hyp: list[str]) -> int:
    prev = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        cur = [i] + [0] * len(hyp)
        for j, h in enumerate(hyp, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r != h))
        prev = cur
    return prev[-1]


def wer(pairs: Iterable[tuple[str, str]]) -> float:
    """Corpus WER: total edits / total reference words over (reference, hypothesis) pairs."""
    edits = total = 0
    for ref, hyp in pairs:
        r, h = scored_words(ref), scored_words(hyp)
        edits += edit_distance(r, h)
        total += len(r)
    return edits / max(1, total)


TERM_SECTIONS = ("system", "link_type", "operation", "metric", "library", "app", "component_kind", "condition")
_COMMON = {"time", "speed", "rate", "size", "run", "the", "a", "on", "host", "node", "load", "step", "area",
           "accuracy", "power", "energy", "memory", "phase", "write", "read", "copy", "total"}


@lru_cache(maxsize=1)
def term_phrases() -> tuple[tuple[str, ...], ...]:
    """Normalised word sequences of every HPC vocabulary surface (longest first), minus everyday words."""
    vocab = _vocabulary()
    phrases: set[tuple[str, ...]] = set()
    for section in TERM_SECTIONS:
        for canonical in vocab.canonicals(section):
            for s in vocab.surfaces(section, canonical):
                ws = tuple(words(s))
                if ws and not (len(ws) == 1 and (ws[0] in _COMMON or len(ws[0]) < 2)):
                    phrases.add(ws)
    return tuple(sorted(phrases, key=lambda p: (-len(p), p)))


def terms_in(text: str) -> Counter:
    """HPC terms in `text` (greedy longest match, non-overlapping), plus endpoint mentions ("gpu 3")."""
    ws = words(text)
    found: Counter = Counter()
    phrases = term_phrases()
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for p in phrases:
        by_first.setdefault(p[0], []).append(p)
    i = 0
    while i < len(ws):
        hit = next((p for p in by_first.get(ws[i], []) if tuple(ws[i:i + len(p)]) == p), None)
        if hit:
            if i + len(hit) < len(ws) and ws[i + len(hit)].isdigit() and len(hit) == 1:
                found[hit + (ws[i + len(hit)],)] += 1      # "gpu 3", "nvlink 2"
                i += len(hit) + 1
                continue
            found[hit] += 1
            i += len(hit)
        else:
            i += 1
    return found


def term_recall(pairs: Iterable[tuple[str, str]]) -> float:
    hit = total = 0
    for ref, hyp in pairs:
        r, h = terms_in(ref), terms_in(hyp)
        total += sum(r.values())
        hit += sum(min(c, h[t]) for t, c in r.items())
    return hit / max(1, total)
