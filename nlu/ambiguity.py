"""Names that fit several systems ("the DGX-1", "AC922", "V100"): pick one from the rest of the question.

"p100 hbm2 bandwidth (dgx-1)" means the DGX-1 with P100s; "the V100s in the DGX-1" is one system, the
V100s only qualify it. The vocabulary lists such names under `ambiguous:` with their candidates in order
of preference. A mention is resolved, in this order:
1. a candidate is already named elsewhere in the question: the mention refers to it; a bare model compared with
   one system of a family is that family's system of it ("dgx1 p100 vs v100");
2. the mention only qualifies a named system ("V100" beside dgx1_v100), or is the name of that system's processors
   ("the V100s on Lassen", from the catalog's component labels) and no comparison word stands beside it: dropped;
3. words elsewhere in the question name exactly one candidate best (id parts and alias words that the
   candidates do not share: "p100", "tum", "volta");
4. otherwise the candidate that stores most of what the question asks for (its operation and metric, when the
   caller says), the first in order among equals, with a note that says which others were possible: "V100 gemm
   flops" is the IPU paper's V100 reference, which has GEMM, not the SU3_Bench one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional

from nlu.vocab import key

_SPLIT = re.compile(r"[^a-z0-9]+")
_BRANDS = {"nvidia", "tesla", "intel", "ibm", "amd", "geforce", "the"}
_COMPARING = {"vs", "versus", "against", "compared", "compare", "or"}
_MACHINES = {"machines", "systems", "boxes", "servers"}
_GENERIC = {"gpu", "gpus", "cpu", "cpus", "host", "node", "nodes", "system", "with", "the", "and"}


@dataclass
class Mention:
    start: int
    end: int
    surface: str
    candidates: list[str]
    every: bool = False      # "the AC922s": the plural of a family's name means all of them


def _word_forms(w: str) -> set[str]:
    w = w.lower()
    out = {w}
    if len(w) > 3 and w.endswith("s"):
        out.add(w[:-1])                      # "V100s" -> "v100"
    return out


class SystemResolver:
    def __init__(self, vocab, parts: Optional[dict[str, set[str]]] = None):
        self.parts = parts or {}    # system id -> words of its processors' labels (app.catalog.part_words)
        self.by_key: dict[str, tuple[str, list[str]]] = {}
        for surface, cands in (vocab.ambiguous.get("system") or {}).items():
            self.by_key[key(surface)] = (surface, list(cands))
        self.marks: dict[str, set[str]] = {}   # system id -> words that point at it
        entries = vocab.entries("system")
        self.ids = set(entries)
        every = {c for _, cands in self.by_key.values() for c in cands}
        for sid in every:
            words = {p for p in _SPLIT.split(sid.lower()) if len(p) >= 2}
            for s in entries.get(sid, []):
                words |= {p for p in _SPLIT.split(s.lower()) if len(p) >= 3}
            # a word any question may say ("2-GPU AC922" has "gpu") points at no one system
            self.marks[sid] = words - _GENERIC
        self.max_len = max((len(s.split()) + 2 for s, _ in self.by_key.values()), default=0)

    def mentions(self, words: list[str], covered: set[int]) -> list[Mention]:
        """Leftmost-longest windows of uncovered words that are ambiguous system names."""
        out: list[Mention] = []
        i = 0
        while i < len(words):
            hit = None
            for j in range(min(len(words), i + self.max_len), i, -1):
                if any(k in covered for k in range(i, j)):
                    continue
                found = self.by_key.get(key(" ".join(words[i:j])))
                if found:
                    # "the DGX-1 machines": the family's name before a plural noun for machines is all of them
                    every = j < len(words) and words[j].lower() in _MACHINES
                    hit = Mention(i, j + every, " ".join(words[i:j + every]), found[1], every=every)
                    break
                last = words[j - 1]
                if len(last) > 3 and last.endswith("s") and not last[:-1].isdigit():
                    one = key(" ".join(words[i:j - 1] + [last[:-1]]))
                    found = self.by_key.get(one)
                    # a processor's name in the plural ("the V100s on Lassen", "the v one hundreds") names GPUs, not
                    # every system
                    if found and not any(_SPLIT.sub("", last[:-1].lower()) in ws or one in ws
                                         for ws in self.parts.values()):
                        hit = Mention(i, j, " ".join(words[i:j]), found[1], every=True)
                        break
            if hit:
                out.append(hit)
                i = hit.end
            else:
                i += 1
        return out

    def resolve(self, words: list[str], covered: set[int], systems: list[str],
                stores: Optional[Callable[[str], int]] = None) -> tuple[list[str], list[Mention], list[str]]:
        """(systems to add, mentions consumed, notes). stores(system id): how much of what the question asks for
        that system has (higher is better), to choose among candidates nothing else tells apart."""
        added: list[str] = []
        used: list[Mention] = []
        notes: list[str] = []
        pending: list[Mention] = []
        ms = self.mentions(words, covered)
        for m in ms:
            if m.every:
                # "what data do you have on the AC922s?": each system of that name
                added.extend(c for c in m.candidates if c not in systems and c not in added)
                used.append(m)
                notes.append(f"'{m.surface}' read as all of {', '.join(m.candidates)}")
                continue
            if any(c in systems or c in added for c in m.candidates):
                used.append(m)
                continue
            sibling = self._sibling(m, words, systems + added)
            if sibling:
                added.append(sibling)
                used.append(m)
                notes.append(f"'{m.surface}' read as {sibling}, the other of its family in the comparison")
                continue
            member = self._of_family_named(m, ms)
            if member:
                added.append(member)
                used.append(m)
                notes.append(f"'{m.surface}' read as {member}, the machine of the family named with that model")
                continue
            # every word outside this mention, other mentions too: "v100 ... dgx1" is the DGX-1 with V100s; another
            # mention also as one name ("a v one hundred in the d g x one": "v100", spelled and said in words)
            context = {f for k, w in enumerate(words) if not m.start <= k < m.end for f in _word_forms(w)}
            context |= {key(o.surface) for o in ms if o is not m}
            scores = {c: len(self._distinct(c, m.candidates) & context) for c in m.candidates}
            top = max(scores.values())
            best = [c for c in m.candidates if scores[c] == top]
            if not (top > 0 and len(best) == 1):
                # a name said in several words outside the mention ("with the v one hundreds" is "v100s"), read only
                # where single words leave the tie
                context |= {f for a in range(len(words)) for b in range(a + 2, min(len(words), a + 4) + 1)
                            if b <= m.start or a >= m.end for f in _word_forms(key(" ".join(words[a:b])))}
                scores = {c: len(self._distinct(c, m.candidates) & context) for c in m.candidates}
                top = max(scores.values())
                best = [c for c in m.candidates if scores[c] == top]
            if top > 0 and len(best) == 1:
                added.append(best[0])
                used.append(m)
            else:
                pending.append(m)
        for m in pending:
            mention_words = set().union(*(_word_forms(w) for w in words[m.start:m.end]))
            if any(mention_words & self.marks.get(s, set()) or self._qualifies(m, s) for s in systems + added):
                used.append(m)                           # "the V100s in the DGX-1 V100": a qualifier
                continue
            if any(self._is_part(m, words, s) for s in systems + added):
                used.append(m)                           # "bandwidth between the V100s of a Lassen node"
                continue
            pick = max(m.candidates, key=lambda c: (stores(c) if stores else 0, -m.candidates.index(c)))
            added.append(pick)
            used.append(m)
            notes.append(f"'{m.surface}' could mean {', '.join(m.candidates)}; I took {pick} "
                         f"(name the system to choose another)")
        return added, used, notes

    def _sibling(self, m: Mention, words: list[str], named: list[str]) -> Optional[str]:
        """"dgx1 p100 vs v100": a bare model compared with one system of a family is that family's system of the
        model (the DGX-1 with V100s), not a V100 of another paper."""
        if not {w.lower() for w in words} & _COMPARING:
            return None
        model = _SPLIT.sub("", m.surface.lower())
        for sid in named:
            family = sid.split("_")[0]
            other = f"{family}_{model}"
            if family != sid and other in self.ids and other not in named:
                return other
        return None

    def _of_family_named(self, m: Mention, ms: list[Mention]) -> Optional[str]:
        """"v100 vs p100 on the dgx-1": a bare model beside a family's name that is itself ambiguous ("the dgx-1":
        its P100 or its V100 machine) is that family's machine of the model."""
        model = key(m.surface)   # the reader's key: articles dropped, spoken numbers read ("the v one hundred")
        for o in ms:
            families = {c.split("_")[0] for c in o.candidates}
            if o is m or len(families) != 1:
                continue
            other = f"{families.pop()}_{model}"
            if other in o.candidates:
                return other
        return None

    def _distinct(self, sid: str, cands: list[str]) -> set[str]:
        others = set().union(*(self.marks.get(c, set()) for c in cands if c != sid))
        return self.marks.get(sid, set()) - others

    def _is_part(self, m: Mention, words: list[str], sid: str) -> bool:
        """The mention names the named system's processors: its words, brands aside, are words of their labels,
        and no comparison word beside it makes it a second side ("V100 vs Summit")."""
        model = {p for p in _SPLIT.split(m.surface.lower()) if p} - _BRANDS
        parts = self.parts.get(sid, set())
        beside = {w.lower().strip(".,:;") for w in words[max(0, m.start - 1):m.start] + words[m.end:m.end + 1]}
        # the name as one word too: "v one hundred" is spelled and said in words
        named = bool(model) and all(_word_forms(p) & parts for p in model) or key(m.surface) in parts
        return named and not beside & _COMPARING

    def _qualifies(self, m: Mention, sid: str) -> bool:
        parts = {p for p in _SPLIT.split(sid.lower()) if p}
        return bool(parts & set().union(*(_word_forms(p) for p in _SPLIT.split(m.surface.lower()) if p)))
