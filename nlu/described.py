"""Machines described instead of named: "the Power9 box with only two V100s", "the P100 hybrid cube-mesh machine",
"the AMD node from the hanging-node paper", "the Grid'5000 V100 one".

People who do not remember a machine's name say what is in it. The systems table already describes every machine
(its name, aliases, vendor and a description transcribed from its document: processors, their counts, the shape of
its links), so a description in a question can be matched against those rather than against a list of phrasings
someone thought of. A phrase is read as a machine only when every word of it that the descriptions know fits one
machine, or exactly the members of one family ("4-GPU AC922": read as the family's first, with a note naming the
other, as a family named outright is); otherwise the words are left as they were, and a phrase that fits a few
machines is handed back so the asker can be asked which. The phrase is rewritten to the machine's id before the
models read the question, so every later step sees a name, and the answer's notes say what was read. A machine may
be said by its processors ("the four Quadro RTX 5000 GPUs": read only where a processor model is among the words and
one machine fits; the noun stays, as what a count counts) or by its nodes ("the 12 GB Tesla P100 nodes"); a plural
that fits several machines names a group, and nobody is asked which.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from nlu.vocab import key

# a plural names a machine by its nodes ("the 12 GB Tesla P100 nodes"); one that fits several machines names them as
# a group ("apart from the DGX machines"), which nobody is asked back about
_PLURALS = {"boxes", "machines", "nodes", "servers", "systems", "clusters", "workstations", "desktops", "computers"}
# nouns a description ends in: "the P100 hybrid cube-mesh machine", "the Grid'5000 V100 one"
_NOUNS = {"box", "machine", "node", "server", "system", "cluster", "workstation", "desktop", "rig", "computer",
          "platform", "one", "testbed", "service", "flagship", "supercomputer", "facility"} | _PLURALS
# a machine's processors said for the machine: "the four Quadro RTX 5000 GPUs", "12 of the GTX 1080 Ti GPUs". Read
# only where one machine fits, and kept after its id, as what is counted
_DEVICE_NOUNS = {"gpus", "gpu", "cards"}
# HPC centres as people name them and as the descriptions abbreviate them ("Oak Ridge's flagship" is ORNL's Summit)
_SITES = {"oak ridge": "ornl", "argonne": "anl", "lawrence livermore": "llnl", "livermore": "llnl",
          "texas advanced computing center": "tacc", "leibniz": "lrz", "jülich": "jsc", "julich": "jsc"}
# NVIDIA's GPU generations as people name a machine by them ("the Pascal cube-mesh server", "the Volta box"): the
# descriptions give the model (P100), rarely the generation
_ARCHITECTURES = {"kepler": {"k80", "k40", "k20"}, "maxwell": {"gtx980", "m40", "m60"}, "pascal": {"p100", "gp100"},
                  "volta": {"v100", "gv100"}, "turing": {"t4", "titanrtx"}, "ampere": {"a100", "a40", "a30"},
                  "hopper": {"h100", "h200"}}
# a possessive after a site or owner: "Microsoft's cloud cluster", "Durham's HPC service"
_POSSESSIVE = {"'s", "’s", "'"}
_ASKERS_OWN = {"our", "my", "your", "their", "his", "her", "its"}
# a known machine is "the" one; "an A100 cluster", "our cluster at work" are the asker's own or imagined
_DETERMINERS = {"the", "that", "this"}
# what "the multi-threaded one" may stand beside in apposition ("Table 4.7 of the Graphcore study, the multi-threaded
# one"): then it picks out a table or a run, not a machine
_DOCUMENT_NOUNS = {"table", "tables", "figure", "fig", "fig.", "study", "paper", "thesis", "section", "listing", "chapter",
                   "experiment", "run", "runs", "test", "plot", "chart", "graph", "report", "reports", "article",
                   "document"}
# words that end a description: "the nominal power of one IPU" describes no machine
_STOP = {"of", "in", "on", "at", "for", "to", "from", "with", "and", "or", "by", "as", "per", "than", "is", "are",
         "what", "which", "how", "vs", "versus", "against",
         # "the same NUMA node", "the other socket": a part of the machine named already, not a machine
         "same", "other", "each", "every", "first", "second", "third", "last", "next", "previous", "whole", "entire"}
# words a description may hold that describe nothing by themselves
_FILLER = {"-", "nvidia", "gpu", "gpus", "cpu", "cpus", "node", "nodes", "system", "machine", "box", "one", "s",
           "'s", "'"}
# a qualifier after the noun: "... with only two V100s", "... from the hanging-node paper"
_WITH = {"with", "having", "that", "which"}
_SOURCE_OPENERS = {"from", "in", "of"}
# what a machine's processor is called after "with" ("the desktop with the Turing card")
_PROCESSOR_NOUNS = {"card", "cards", "gpu", "gpus", "chip", "chips", "processor", "processors", "accelerator",
                    "accelerators"}
_SOURCE_NOUNS = {"paper", "study", "thesis", "report", "article", "work"}
# a feature held by more machines than this says too little alone; it still has to fit
_INFORMATIVE = 8
# "the Power9 machine with four V100s" is one server, not Lassen or Longhorn, whose nodes hold the same; "the P100
# cluster" is a cluster
_ONE_MACHINE = {"box", "machine", "server", "workstation", "desktop", "rig", "computer"}
_MANY_MACHINES = {"cluster", "supercomputer", "document"}
# the kinds of machine a plural calls ("the NTNU desktops" are workstations, "the TACC clusters" clusters)
_PLURAL_KINDS = {"desktops": {"workstation"}, "workstations": {"workstation"}, "servers": {"gpu_server", "cpu_server"},
                 "clusters": {"cluster", "supercomputer"}}
_COUNTED = [
    # "4x Tesla V100-SXM2-32GB", "8x NVIDIA Tesla V100", "2x H200"
    re.compile(r"\b(\d+)\s*x\s+(?:[A-Za-z][\w-]*\s+){0,3}?([A-Za-z]*\d+[\w-]*)"),
    # "with 8 NVIDIA P100 GPUs"
    re.compile(r"\b(\d+)\s+(?:NVIDIA\s+|Tesla\s+)?([A-Za-z]+\d+\w*)\s+GPUs\b"),
]
# a GPU's model among counted processors ("16x Tesla V100"): "the 16-GPU server" counts those (not "2x POWER9")
_GPU_MODEL = re.compile(r"^(v|p|a|h|k|t|l|b|gv|gp|gh)\d{1,3}$")
_GPU_COUNT = re.compile(r"\((\d+) GPUs\b|\bwith (\d+) (?:[\w-]+ ){0,2}GPUs\b")


def _with_singular(k: str) -> tuple[str, ...]:
    """A key and, for a plural ("v100s"), its singular: the descriptions count "V100", people say "two V100s"."""
    return (k, k[:-1]) if len(k) > 3 and k.endswith("s") else (k,)


def _model(token: str) -> str:
    """'V100-SXM2-32GB' -> 'v100': the model is the first piece with a letter and a digit."""
    for piece in re.split(r"[^a-z0-9]+", token.lower()):
        if re.search(r"[a-z]", piece) and re.search(r"\d", piece):
            return piece
    return token.lower()


def _features(text: str, named: str) -> tuple[set[str], set[str]]:
    """(strong, weak) words of a machine's texts. Strong: what names hardware or the machine itself: its name and
    aliases (`named`), model numbers (V100, 7742), proper nouns and acronyms (POWER9, EPYC, Graphcore), compounds
    (cube-mesh). Weak: every other word ("hybrid", "nominal"), which may qualify a description but never make one."""
    strong: set[str] = set()
    weak: set[str] = set()
    for tok in text.split():
        bare = tok.strip("()[],;:.'\"")
        k = key(bare) if bare else ""
        pieces = [p for p in re.split(r"[^a-z0-9]+", bare.lower()) if len(p) >= 2]
        is_strong = bool(re.search(r"[A-Za-z]", bare)) and (
            bool(re.search(r"\d", bare)) or bare[:1].isupper() or "-" in bare.strip("-"))
        for f in ([k] if len(k) >= 2 else []) + pieces:
            if f.isdigit() and len(f) < 4:
                continue                      # "2x", "16 cores": counts, read as counts
            (strong if is_strong and not f.isdigit() or len(f) >= 4 and f.isdigit() else weak).add(f)
    for n in re.findall(r"\b(\d+)\s*GB\b", text):
        strong.add(f"{n}gb")                  # "12 GB GDDR5": a memory size tells the Tesla P100 nodes apart
    for tok in named.split():
        for f in [key(tok)] + re.split(r"[^a-z0-9]+", tok.lower()):
            if len(f) >= 2 and not (f.isdigit() and len(f) < 4):
                strong.add(f)
    return strong, weak - strong


@dataclass
class DescribedMachines:
    features: dict[str, set[str]] = field(default_factory=dict)          # system -> words its description holds
    counts: dict[str, set[tuple[int, str]]] = field(default_factory=dict)  # system -> (how many, model or "gpu")
    owners: dict[str, set[str]] = field(default_factory=dict)            # feature -> systems holding it
    strong: set[str] = field(default_factory=set)                        # features that can make a description
    models: set[str] = field(default_factory=set)                        # every counted model
    names: dict[str, str] = field(default_factory=dict)                  # system -> the name the notes show
    families: dict[frozenset, str] = field(default_factory=dict)         # members -> a family name for them
    kinds: dict[str, Optional[str]] = field(default_factory=dict)        # system -> its kind (gpu_server, cluster)
    family_order: dict[str, list[str]] = field(default_factory=dict)     # family name -> members, preferred first
    family_keys: set[str] = field(default_factory=set)                   # keys of every family name

    @classmethod
    def build(cls, about: dict[str, str], names: dict[str, str], families: dict[str, list[str]],
              kinds: Optional[dict[str, Optional[str]]] = None,
              named: Optional[dict[str, str]] = None) -> "DescribedMachines":
        """about: system -> its name, aliases, vendor and description as one text; names: system -> the name the
        notes show; families: ambiguous name -> its members; kinds: system -> its kind; named: system -> its
        id, name and aliases as one text (every word of them names it)."""
        d = cls(kinds=dict(kinds or {}))
        for sid, text in about.items():
            if not names.get(sid):
                continue
            d.names[sid] = names[sid]
            strong, weak = _features(text, (named or {}).get(sid, names[sid]))
            d.features[sid] = strong | weak
            d.strong |= strong
            counts: set[tuple[int, str]] = set()
            for rx in _COUNTED:
                counts |= {(int(n), _model(m)) for n, m in rx.findall(text)}
            counts |= {(int(a or b), "gpu") for a, b in _GPU_COUNT.findall(text)}
            d.counts[sid] = counts
            d.models |= {m for _, m in counts}
            for arch, models in _ARCHITECTURES.items():
                if models & d.features[sid]:       # "the Pascal cube-mesh server": the GPUs' generation
                    d.features[sid].add(arch)
                    d.strong.add(arch)
            for site, acronym in _SITES.items():
                if acronym in d.features[sid]:     # the site's name said for its acronym
                    d.features[sid].add(key(site))
                    d.strong.add(key(site))
            for f in d.features[sid]:
                d.owners.setdefault(f, set()).add(sid)
        d.strong -= _FILLER
        for surface, members in families.items():
            d.family_keys.add(key(surface))
            d.families.setdefault(frozenset(members), surface)
            d.family_order.setdefault(surface, list(members))
        return d

    def _known(self, words: list[str], i: int, end: int) -> tuple[Optional[str], int]:
        """The longest run of words from i (before end) whose key is a feature: (feature, words taken)."""
        for n in range(min(4, end - i), 0, -1):
            for f in _with_singular(key(" ".join(words[i:i + n]))):
                if f in self.owners and f not in _FILLER:
                    return f, n
        return None, 1

    def _count(self, words: list[str], i: int, number: Callable[[str], object]) -> tuple[Optional[tuple], int]:
        """"two V100s", "four v one hundreds", "2 GPUs" at i: ((n, model), words taken)."""
        n = number(words[i]) if i < len(words) else None
        if not isinstance(n, int) or isinstance(n, bool):
            return None, 0
        for m in range(min(4, len(words) - i - 1), 0, -1):
            for f in _with_singular(key(" ".join(words[i + 1:i + 1 + m]))):
                if f in ("gpu", "gpus"):
                    return (n, "gpu"), m + 1
                if f and f in self.models:
                    return (n, f), m + 1
        return None, 0

    def read(self, words: list[str], start: int, number: Callable[[str], object]) \
            -> Optional[tuple[int, set[str], set[tuple], str]]:
        """A description starting at words[start] (a determiner): (end, features, counts, noun), or None."""
        feats: set[str] = set()
        counts: set[tuple] = set()
        i = start + 1
        noun = None
        while i < len(words) and i - start <= 7:
            w = words[i].lower()
            if (w in _NOUNS or w in _DEVICE_NOUNS and (i + 1 == len(words) or words[i + 1].lower() not in _NOUNS)) \
                    and (i > start + 1 or w in _NOUNS and i + 1 < len(words) and words[i + 1].lower() in _WITH):
                noun = i              # ("the desktop with the Turing card": all it is said by follows the noun)
                break
            if w in _STOP:
                return None
            c, took = self._count(words, i, number) if not (feats and w.isdigit() and w in self.strong) else (None, 0)
            if c:
                counts.add(c)
                i += took
                continue
            n = number(words[i])
            if isinstance(n, int) and not isinstance(n, bool) and i + 1 < len(words):
                if words[i + 1].lower() in ("gb", "gib") and f"{n}gb" in self.owners:
                    feats.add(f"{n}gb")       # "the 12 GB Tesla P100 nodes": the memory of its GPUs
                    i += 2
                    continue
                if n <= 64 and self._known(words, i + 1, len(words))[0] in self.strong:
                    i += 1                    # "the four Quadro RTX 5000 GPUs": how many, of what follows
                    continue
            f, took = self._known(words, i, len(words))
            if f:
                feats.add(f)
            elif w not in _FILLER:
                return None          # a word no description holds ("the fastest machine", "of"): none
            i += took
        if noun is None:
            return None
        end = noun + 1
        # "... with only two V100s", "... with four v one hundreds", "... with a pair of V100s"
        if end < len(words) and words[end].lower() in _WITH:
            j = end + 1
            if j < len(words) and words[j].lower() in ("only", "just", "has", "have"):
                j += 1
            pair = [w.lower() for w in words[j:j + 3]] == ["a", "pair", "of"]
            c, took = self._count(["2", *words[j + 3:]], 0, number) if pair else self._count(words, j, number)
            if c:
                counts.add(c)
                end = j + took + (2 if pair else 0)
            else:
                got = self._processor_after(words, j) or self._stated_number_after(words, j, number)
                if got:
                    feats |= got[0]
                    end = got[1]
        if not feats and not counts:
            return None
        # "... from the hanging-node paper"
        if end + 1 < len(words) and words[end].lower() in _SOURCE_OPENERS and words[end + 1].lower() == "the":
            for j in range(end + 2, min(len(words), end + 8)):
                if words[j].lower() in _SOURCE_NOUNS:
                    inner: set[str] = set()
                    k = end + 2
                    while k < j:
                        f, took = self._known(words, k, j)
                        if f:
                            inner.add(f)
                        k += took
                    if inner:
                        feats |= inner
                        end = j + 1
                    break
        return end, feats, counts, words[noun].lower()

    def _processor_after(self, words: list[str], j: int) -> Optional[tuple[set[str], int]]:
        """"... with the Turing card": what its processor is, as (features, end), or None."""
        k = j + (1 if j < len(words) and words[j].lower() in ("a", "an", "the") else 0)
        inner: set[str] = set()
        while k < min(len(words), j + 5) and words[k].lower() not in _PROCESSOR_NOUNS:
            f, took = self._known(words, k, len(words))
            if not f:
                break
            inner.add(f)
            k += took
        if inner and k < len(words) and words[k].lower() in _PROCESSOR_NOUNS:
            return inner, k + 1
        return None

    def _stated_number_after(self, words: list[str], j: int, number: Callable[[str], object]) \
            -> Optional[tuple[set[str], int]]:
        """"... with twelve hundred sixteen tiles per chip": a number its description states and what it counts,
        as (features, end), or None."""
        for n_words in (4, 3, 2, 1):
            n = number(" ".join(words[j:j + n_words])) if j + n_words < len(words) else None
            said = str(n) if isinstance(n, int) and not isinstance(n, bool) else ""
            if said in self.strong and self.owners.get(said, set()) & self.owners.get(key(words[j + n_words]), set()):
                return {said, key(words[j + n_words])}, j + n_words + 1
        return None

    def source_context(self, words: list[str]) -> set[str]:
        """The known words of a source named anywhere in the question ("in the hanging node paper, ... the AMD
        EPYC node"): they narrow a description that fits machines of several papers."""
        out: set[str] = set()
        for j, w in enumerate(words):
            if w.lower() not in _SOURCE_NOUNS:
                continue
            start = next((i for i in range(j - 1, max(-1, j - 7), -1) if words[i].lower() == "the"), None)
            k = (start + 1) if start is not None else j
            while k < j:
                f, took = self._known(words, k, j)
                if f and f in self.strong:
                    out.add(f)
                k += took
        return out

    def fits(self, feats: set[str], counts: set[tuple], noun: str = "", context: frozenset = frozenset()) -> set[str]:
        """The machines every feature and count fits, when one feature at least says something. A processor model
        must be one a machine's description counts, where it counts any ("the P100 machine" is not the DGX-1 with
        V100s, whose description compares it with the P100 one)."""
        # (a count beside a common model says enough: "the 16-GPU V100 server")
        if not any(f in self.strong and (len(self.owners.get(f, ())) <= _INFORMATIVE or counts) for f in feats):
            return set()
        out = set(self.names)
        for f in feats:
            out &= self.owners.get(f, set())
            if f in self.models:
                out = {s for s in out if not self.counts.get(s) or any(m == f for _, m in self.counts[s])}
        for c in counts:
            out = {s for s in out if c in self.counts.get(s, set()) or c[1] == "gpu" and any(
                n == c[0] and (m in feats or _GPU_MODEL.match(m)) for n, m in self.counts.get(s, set()))}
        if noun in _ONE_MACHINE or noun == "cluster":
            many = {s for s in out if self.kinds.get(s) in _MANY_MACHINES}
            kept = (out - many) if noun in _ONE_MACHINE else many
            out = kept or out
        if len(out) > 1 and context:
            out = {s for s in out if context & self.features[s]} or out
        return out

    def groups(self, words: list[str], number: Callable[[str], object]) -> list[tuple[str, set[str]]]:
        """The machines each plural description calls ("the NTNU desktops", "the NTNU POWER9 servers", "ntnu v100
        servers ...", "the TACC clusters"): (the words, the machines every word fits, of the kind the noun says).
        The reader keeps those that store what is asked, and sets them side by side."""
        out: list[tuple[str, set[str]]] = []
        if not any(w.lower() in _PLURALS for w in words):
            return out     # (every question passes here; a description's noun is one of its words)
        for i, w in enumerate(words):
            bare = i == 0 and w.lower() not in _DETERMINERS and w.lower() not in _STOP
            if not (w.lower() in _DETERMINERS or bare):
                continue
            got = self.read(words, i - 1 if bare else i, number)
            if not got or got[3] not in _PLURALS:
                continue
            end, feats, counts, noun = got
            kinds = _PLURAL_KINDS.get(noun)
            fit = {s for s in self.fits(feats, counts, "", frozenset()) if not kinds or self.kinds.get(s) in kinds}
            if len(fit) >= 2:
                out.append((" ".join(words[i + (0 if bare else 1):end]), fit))
        return out

    def _owner_at(self, words: list[str], i: int) -> bool:
        """Whether words[i] opens a site or owner's name (one to three words, one of them a strong feature of some
        machine) followed by a possessive: "Microsoft 's", "Oak Ridge 's", "Ohio State 's"."""
        if i > 0 and words[i - 1].lower() in _ASKERS_OWN:
            return False          # "our A100 cluster's": the asker's own machine, which no description holds
        for n in (3, 2, 1):
            if i + n < len(words) and words[i + n] in _POSSESSIVE:
                run = words[i:i + n]
                if any(w.lower() in _NOUNS or w.lower() in _FILLER for w in run):
                    return False  # "the A100 cluster's": a described machine's own noun, read from its determiner
                if key(" ".join(run)) in self.strong or all(key(w) in self.strong for w in run):
                    return True
        return False

    def rewrite(self, words: list[str], number: Callable[[str], object],
                names_one: Callable[[str], bool]) -> tuple[list[str], list[str], list[tuple[str, list[str]]]]:
        """(words, notes, open descriptions): each description of one machine replaced by the machine's id, one word
        every later step reads as its name. names_one(text): whether the text names one system outright (then it is
        a name, not a description). A description that fits exactly the members of a family ("4-GPU AC922": the TUM
        machine and Yme) is read as the family's first, as a family's name is, and the note names the other; one
        that fits a few machines of no family ("the AMD machine") is left as said and returned with the machines it
        fits, so that a question naming no other machine can be asked back which one."""
        out: list[str] = []
        notes: list[str] = []
        open_: list[tuple[str, list[str]]] = []
        context = frozenset(self.source_context(words))
        i = 0
        while i < len(words):
            owner = self._owner_at(words, i)
            if owner:
                # "Argonne's GPU system", "Oak Ridge's flagship": a site or owner and its machine, no determiner
                got = self.read(words, i - 1, number)
                if got and got[3] not in _DEVICE_NOUNS:     # "Yme's GPU 2": a part of a machine named
                    end, feats, counts, noun = got
                    fit = self.fits(feats, counts, noun, context)
                    if len(fit) == 1:
                        out.append(next(iter(fit)))
                        i = end
                        continue
            # "V100-SXM3 box NVSwitch count": a terse question may open with the description, with no determiner
            bare = i == 0 and words[0].lower() not in _DETERMINERS and words[0].lower() not in _STOP
            if words[i].lower() in _DETERMINERS or bare:
                got = self.read(words, i - 1 if bare else i, number)
                if got and got[3] == "one" and i >= 2 and words[i - 1] == "," \
                        and any(w.lower() in _DOCUMENT_NOUNS for w in words[max(0, i - 7):i - 1]):
                    got = None
                if got:
                    end, feats, counts, noun = got
                    span = words[i + (0 if bare else 1):end]
                    windows = [" ".join(span[a:b]) for a in range(len(span)) for b in range(a + 1, len(span) + 1)]
                    named = any(names_one(t) for t in windows)
                    fit = set() if named else self.fits(feats, counts, noun, context)
                    # processors said for their machine name a processor model ("GTX 1080 Ti", "Quadro RTX 5000"),
                    # not "the full GPU x GPU matrix" or "the TUM GPU-interconnect thesis"
                    device = noun in _DEVICE_NOUNS
                    if device and not any(re.search(r"\d", f) and re.search(r"[a-z]", f) or f in self.models
                                          or f.isdigit() and len(f) >= 4 for f in feats):
                        fit = set()
                    group = noun in _PLURALS
                    pick = next(iter(fit)) if len(fit) == 1 else None
                    # a tie the words already name as a family ("the Xeon Platinum 8280 server") is left to the
                    # ambiguity reader, which knows what each member stores
                    family = self.families.get(frozenset(fit)) if len(fit) > 1 and not (device or group) and not any(
                        key(t) in self.family_keys for t in windows) else None
                    if family:
                        pick = self.family_order[family][0]
                        others = " and ".join(self.names[s] for s in self.family_order[family][1:])
                        notes.append(f"“{' '.join(span)}” also fits {others}: name the system to choose another")
                    if pick:
                        out.extend(([] if bare else [words[i]]) + [pick] + ([noun] if device else []))
                        i = end
                        continue
                    if 2 <= len(fit) <= 6 and not (device or group or bare):
                        open_.append((" ".join(span), sorted(fit, key=lambda x: self.names[x])))
            out.append(words[i])
            i += 1
        return out, notes, open_
