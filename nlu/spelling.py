"""Typo repair before tagging: "efficency", "bandwith", "laod", "scalling" -> the words the model knows.

People typing fast misspell exactly the words that carry the intent and the slots, and a misspelt word
reaches the encoder as unfamiliar word pieces. The repair is deliberately narrow:

- only words that are neither English (a whole word in the encoder's WordPiece vocabulary) nor HPC
  vocabulary are touched, so ordinary words, names and identifiers ("gpu0", "f214", "VASP") pass as typed;
- a word is only rewritten to a word of the domain lexicon (vocabulary aliases and the generator's own
  carrier words), one edit away (two for long words; a swap of two letters counts as one edit), and only
  when exactly one lexicon word is that close.

Symmetric-delete lookup keeps it to a few microseconds per unknown word.
"""
from __future__ import annotations

import re
from typing import Iterable, Optional

_WORD = re.compile(r"^[a-z]+$")
# endings that make another form of a word ("network" -> "networked")
_INFLECTIONS = ("ed", "ing", "s", "es", "ly")
_NUMBERED = re.compile(r"^([a-z]{5,})(\d+)$")


# spellings of one sound, as people who write words by ear swap them ("compair", "latensy", "throughtput" is a slip)
_SOUNDS = (("air", "are"), ("are", "air"), ("ph", "f"), ("f", "ph"), ("sy", "cy"), ("cy", "sy"), ("ks", "x"),
           ("x", "ks"), ("ize", "ise"), ("ise", "ize"), ("shun", "tion"), ("tion", "sion"), ("sion", "tion"),
           ("ee", "ea"), ("ea", "ee"), ("k", "c"), ("c", "k"))


# question words typed with two letters swapped (or one lost: "how wel"): too short for the lexicon (four letters
# and up), and "hwo" is as near "who" as "how"; these slips are of one word only
_SHORT_SLIPS = {"hwo": "how", "waht": "what", "whta": "what", "waht's": "what's", "whcih": "which",
                "wich": "which", "whihc": "which", "teh": "the", "hte": "the", "adn": "and", "taht": "that",
                "deos": "does", "doesnt": "doesn't", "wel": "well", "doign": "doing"}


def _deletes(w: str) -> set[str]:
    return {w[:i] + w[i + 1:] for i in range(len(w))}


def _osa(a: str, b: str) -> int:
    """Optimal-string-alignment distance (adjacent swap = 1 edit)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def _slip(w: str, c: str) -> bool:
    """`w` is `c` with two neighbouring letters swapped or one inner letter dropped or added: the shape of a
    typing slip. Plurals, prefixes ("xlink"/"link") and doubled letters ("lammps"/"lamps") are other words."""
    if w[0] != c[0] or w.startswith(c) or c.startswith(w):
        return False
    if len(w) == len(c):
        diff = [i for i in range(len(w)) if w[i] != c[i]]
        return len(diff) == 2 and diff[1] == diff[0] + 1 and w[diff[0]] == c[diff[1]] and w[diff[1]] == c[diff[0]]
    longer, shorter = (w, c) if len(w) > len(c) else (c, w)
    if len(longer) != len(shorter) + 1:
        return False
    for i in range(len(longer)):
        if longer[:i] + longer[i + 1:] == shorter:
            return not (i > 0 and longer[i] == longer[i - 1]) and not (i + 1 < len(longer) and longer[i] == longer[i + 1])
    return False


class Speller:
    def __init__(self, lexicon: Iterable[str], known: Iterable[str] = (), pairs: Iterable[tuple[str, str]] = ()):
        # neighbouring words of the vocabulary's phrases ("of", "place"): where a typo is one edit from two words
        # ("plase": place, please), the one that makes a phrase with its neighbour is meant ("out of plase")
        self.pairs = {(a.lower(), b.lower()) for a, b in pairs}
        english = {w.lower() for w in known}
        self.english = frozenset(english)   # whole English words of the encoder's vocabulary (not domain names)
        lexicon = [w.lower() for w in lexicon]
        lex = {w for w in lexicon if _WORD.match(w or "") and len(w) >= 4}
        # names that end in a number ("inception3", "resnet152"): a slip in the letters is repaired against the
        # names with the same number ("inceptoin3"); the number itself is never changed
        self._numbered: dict[str, set[str]] = {}
        for w in lexicon:
            if (m := _NUMBERED.match(w)):
                self._numbered.setdefault(m.group(2), set()).add(m.group(1))
        self._index(lex)
        # the templates and aliases spell some words wrong on purpose ("laod", "in plcae"): a non-English
        # lexicon word one edit from an English lexicon word (and not its plural or stem) is such a typo,
        # not a target and not a known word
        typos = {w for w in lex - english
                 if any(c in english and _slip(w, c) for c in self._candidates(w) if c != w)}
        self.lexicon = lex - typos
        self.known = (english | self.lexicon | {s + n for n, stems in self._numbered.items() for s in stems}) - typos
        self._index(self.lexicon)

    def _index(self, lexicon: set[str]) -> None:
        self._one: dict[str, set[str]] = {}    # word and its 1-deletes -> lexicon words
        self._two: dict[str, set[str]] = {}    # 2-deletes of long lexicon words -> lexicon words
        for w in lexicon:
            for d in _deletes(w) | {w}:
                self._one.setdefault(d, set()).add(w)
            if len(w) >= 8:
                for d in {dd for d1 in _deletes(w) for dd in _deletes(d1)}:
                    self._two.setdefault(d, set()).add(w)

    def _candidates(self, w: str) -> set[str]:
        out: set[str] = set()
        for d in _deletes(w) | {w}:
            out |= self._one.get(d, set())
        if len(w) >= 8:
            for d in {dd for d1 in _deletes(w) for dd in _deletes(d1)} | _deletes(w) | {w}:
                out |= self._two.get(d, set())
                out |= self._one.get(d, set())
        return out

    def correct(self, word: str, before: str = "", after: str = "") -> Optional[str]:
        """The lexicon word `word` is a typo of, or None when it is not a (repairable) typo. `before`, `after`:
        the neighbouring words, which settle a tie between two lexicon words."""
        w = word.lower()
        if w in _SHORT_SLIPS and w not in self.known:
            fixed = _SHORT_SLIPS[w]
            return fixed.capitalize() if word[:1].isupper() else fixed
        if (m := _NUMBERED.match(w)) and w not in self.known:
            stems = [c for c in self._numbered.get(m.group(2), ()) if c != m.group(1) and _slip(m.group(1), c)]
            return stems[0] + m.group(2) if len(stems) == 1 else None
        if len(w) == 3 and w not in self.known and _WORD.match(w) and before and not word.isupper():
            # "under lod": a short word one dropped letter from the word the vocabulary says after its neighbour
            # ("under load"); too short to repair alone
            phrased = {c for c in self._one.get(w, set()) if len(c) == 4 and (before.lower(), c) in self.pairs
                       and _slip(w, c)}   # (an inner letter dropped: not "ipu" of "ipus")
            return phrased.pop() if len(phrased) == 1 else None
        if w in self.known or not _WORD.match(w) or len(w) < 4 or (word.isupper() and len(word) <= 5):
            return None
        if any(w.endswith(suf) and len(w) - len(suf) >= 5 and (w[:-len(suf)] in self.known
                                                               or w[:-len(suf)] + "e" in self.known and suf in (
                                                                   "ed", "ing"))
               for suf in _INFLECTIONS):
            # (a final "e" goes before "-ed" and "-ing" only: "megabyts" is no plural of "megabyte" but a slip of
            # "megabytes")
            return None   # "networked", "profiled": a known word inflected, not a slip of another word
        limit = 2 if len(w) >= 8 else 1
        best: list[tuple[int, str]] = []
        for c in self._candidates(w):
            d = _osa(w, c)
            # 4 letters: only a swap ("laod") or a dropped inner letter ("undr")
            if d <= limit and (len(w) > 4 or sorted(c) == sorted(w) or (len(c) == 5 and _slip(w, c))):
                best.append((d, c))
        if not best:
            return self._sounds_alike(w)
        top = min(d for d, _ in best)
        winners = sorted(c for d, c in best if d == top)
        if len(winners) > 1:
            same_start = [c for c in winners if c[0] == w[0]]
            winners = same_start if len(same_start) == 1 else winners
        if len(winners) > 1 and self.pairs:
            phrased = [c for c in winners if (before.lower(), c) in self.pairs or (c, after.lower()) in self.pairs]
            winners = phrased if len(phrased) == 1 else winners
        if len(winners) > 1:
            # "enabld": one dropped letter from "enabled", one changed letter from "enable"; fast typing drops
            # letters far more often than it changes them
            # a doubled letter typed once counts too ("chiflet": chifflet, not chiplet)
            dropped = [c for c in winners if len(c) == len(w) + 1 and w in _deletes(c)]
            winners = dropped if len(dropped) == 1 else winners
        return winners[0] if len(winners) == 1 else None

    def _sounds_alike(self, w: str) -> Optional[str]:
        """"compair" -> "compare", "scalibility" -> ...: a word spelled as it sounds, two edits from the word meant
        but one sound away; taken only where exactly one lexicon word comes out."""
        outs = {w[:i] + b + w[i + len(a):] for a, b in _SOUNDS for i in range(len(w)) if w.startswith(a, i)}
        hits = sorted(o for o in outs if o in self.lexicon and o != w)
        return hits[0] if len(hits) == 1 else None

    def fix(self, words: list[str]) -> list[str]:
        out = []
        for i, t in enumerate(words):
            c = self.correct(t, words[i - 1] if i else "", words[i + 1] if i + 1 < len(words) else "")
            out.append(c if c is not None else t)
        return out


def lexicon_words(vocab) -> set[str]:
    """Every alphabetic word of the vocabulary's aliases and of the training templates."""
    from nlu.templates import MODIFIERS, PREFIXES, SUFFIXES, TEMPLATES
    from nlu.vocab import SECTIONS
    texts: list[str] = []
    for section in SECTIONS:
        for canonical, surfaces in vocab.entries(section).items():
            texts.append(str(canonical).replace("_", " "))
            texts.extend(surfaces)
    for ts in TEMPLATES.values():
        texts.extend(ts)
    for ts in MODIFIERS.values():
        texts.extend(ts)
    texts += PREFIXES + SUFFIXES
    # unit words are read by the normaliser, not the vocabulary: without them "megabytes" (outside the
    # encoder's WordPiece words) was one edit from nothing and two from "gigabytes", and became it
    from nlu.normalize import SIZE_UNITS
    texts += list(SIZE_UNITS)
    # and so are numbers said as collective nouns ("on a dozne GPUs": a dozen)
    from nlu.written_forms import COLLECTIVE_COUNTS
    texts += list(COLLECTIVE_COUNTS)
    texts += list(REFUSED_WORDS) + list(CUE_WORDS)
    out: set[str] = set()
    for t in texts:
        out.update(x for x in re.split(r"[^a-z]+", re.sub(r"\{\w+\}", " ", t.lower())) if len(x) >= 4)
        out.update(x for x in re.split(r"[^a-z0-9]+", t.lower()) if _NUMBERED.match(x))
    return out


def vocabulary_pairs(vocab) -> set[tuple[str, str]]:
    """Neighbouring words inside the vocabulary's surfaces ("out of place" -> (out, of), (of, place))."""
    from nlu.vocab import SECTIONS
    out: set[tuple[str, str]] = set()
    for section in SECTIONS:
        for canonical, surfaces in vocab.entries(section).items():
            for t in [str(canonical).replace("_", " "), *surfaces]:
                ws = [x for x in re.split(r"[^a-z0-9]+", t.lower()) if x]
                out.update(zip(ws, ws[1:]))
    return out


# words of hardware that are neither whole WordPiece words nor in the vocabulary, and two edits from one that is
# ("baseboard" had become "dashboard"): spelled right, so left as typed
HARDWARE_WORDS = frozenset({"baseboard", "baseboards", "motherboard", "motherboards", "mainboard", "mainboards",
                            "daughterboard", "daughterboards", "backplane", "backplanes", "midplane", "midplanes",
                            "risers", "heatsink", "heatsinks", "baseplate"})
# plain English words the encoder reads in pieces that sit two edits from a domain word ("farthest" had become
# "fastest")
PLAIN_WORDS = frozenset({"farthest", "furthest", "farther", "nearest", "closest", "slowness", "quickness",
                         # "give me the lowdown on how the GPUs reach the NVSwitches": an account, no slowdown
                         "lowdown", "rundown"})
# words the reader refuses a question by (nlu.cues.ADVICE), typed wrong as often as any ("where does the xmp64 board
# phisically sit", "what software licneses does yme hold"): repaired so the refusal sees them
REFUSED_WORDS = frozenset({"physically", "licenses", "licences", "license", "licence", "compiler", "compilers",
                           "keyboard", "keyboards", "firmware", "electricity", "github", "airline", "noise"})
# words the reader's rules read a question by, typed wrong as often as any ("how quikly does a pageable copy go", "as
# oposed to yme", "what share does p2p acount for": "account", not the measure "count"): repaired so the rules see them
CUE_WORDS = frozenset({"quickly", "quick", "rapidly", "opposed", "instead", "account", "accounts"})
# units of rate one edit from an English word of the domain lexicon ("teps" had become "temps", a temperature)
RATE_WORDS = frozenset({"teps", "gteps", "mteps"})


def english_words(tok) -> set[str]:
    """Whole words of the encoder's WordPiece vocabulary: the English the model already reads (and HARDWARE_WORDS
    PLAIN_WORDS and RATE_WORDS, which it reads in pieces but which are no typos)."""
    return {w for w in tok.get_vocab() if w.isalpha() and w.islower() and not w.startswith("##")} | HARDWARE_WORDS \
        | PLAIN_WORDS | RATE_WORDS
