"""Canonical slot value -> the surface strings people type or say for it (the inverse of normalize.py).

Used by the training-data generator:

    forms("msg_bytes", 8192)  -> ["8 KiB", "8KiB", "8 KB", "8KB", "8k", "8K", "8192 bytes", "eight kilobytes", ...]
    forms("src", "gpu0")      -> ["GPU 0", "GPU0", "gpu 0", "gpu0", "GPU zero", "g p u zero", "device 0", ...]
    forms("system", "dgx2")   -> ["DGX-2", "DGX2", "NVIDIA DGX-2", "Heid", ..., "d g x two", "DGX 2", ...]
    forms("count", 64)        -> ["64", "sixty four", "sixty-four"]

Property (tested): for every f in forms(slot, v): Normalizer(vocab).value(slot, f) == v. Forms that would not
read back (an alias that is ambiguous in this vocabulary, say) are left out, so generated data never teaches a
surface the normaliser cannot resolve. `rng` (random.Random) shuffles the list; `kind="written"` or
`"spoken"` keeps only forms as typed or as a speech transcript reads.
"""
from __future__ import annotations

import re
from typing import Any, Optional

from nlu.normalize import NAMED, Normalizer
from nlu.vocab import BASE, Vocabulary, default_vocabulary, say_number

_KIB, _MIB, _GIB = 1 << 10, 1 << 20, 1 << 30
_UNIT_WORDS = {_KIB: ("K", "kilobyte", "kibibyte", "kilo", "k"), _MIB: ("M", "megabyte", "mebibyte", "meg", None),
               _GIB: ("G", "gigabyte", "gibibyte", "gig", None)}
_ENDPOINT_RE = re.compile(r"^([a-z_]+?)(\d+)$")


def _plural(word: str, q: float) -> str:
    return word if q == 1 else word + "s"


def _fmt_q(q: float) -> str:
    return str(int(q)) if float(q).is_integer() else f"{q:g}"


def _say_q(q: float) -> str:
    if float(q).is_integer():
        return say_number(int(q))
    whole, frac = f"{q:g}".split(".")
    return f"{say_number(int(whole))} point {say_number(int(frac), 'digits')}"


class Surface:
    """Surface forms for one vocabulary (and the Normalizer that must read them back)."""

    def __init__(self, vocab: Optional[Vocabulary] = None, normalizer: Optional[Normalizer] = None):
        self.vocab = vocab if vocab is not None else (normalizer.vocab if normalizer else default_vocabulary())
        self.norm = normalizer if normalizer is not None else Normalizer(self.vocab)

    # ------------------------------------------------------------------------------------------ generators
    def number_forms(self, n: int) -> list[tuple[str, bool]]:
        """(form, spoken) pairs for an integer."""
        n = int(n)
        out = [(str(n), False)]
        if n >= 1000:
            out.append((f"{n:,}", False))
        for style in ("cardinal", "hyphen", "and", "pairs"):
            out.append((say_number(n, style), True))
        if 100 <= n < 200:
            out.append(("a " + say_number(n, "and")[4:], True))        # "a hundred and twenty eight"
        return out

    def size_forms(self, n: int) -> list[tuple[str, bool]]:
        n = int(n)
        out: list[tuple[str, bool]] = []
        for size in (_GIB, _MIB, _KIB):
            q = n / size
            if q < 1 or (q * 4) != int(q * 4) or q >= 1024:
                continue
            letter, word, bin_word, short, tiny = _UNIT_WORDS[size]
            qs = _fmt_q(q)
            out += [(f"{qs} {letter}iB", False), (f"{qs}{letter}iB", False), (f"{qs} {letter}B", False),
                    (f"{qs}{letter}B", False)]
            if tiny:
                out += [(f"{qs}{tiny}", False), (f"{qs}{letter}", False)]
            said = _say_q(q)
            out += [(f"{said} {_plural(word, q)}", True), (f"{qs} {_plural(word, q)}", False),
                    (f"{said} {_plural(bin_word, q)}", True)]
            if size == _KIB:
                out.append((f"{said} k", True))
            elif float(q).is_integer():
                out.append((f"{said} {_plural(short, q)}", True))
            if q == 0.5:
                out.append((f"half a {word}", True))
                if size != _KIB:
                    out.append((f"half a {short}", True))
            if q == 1:
                out.append((f"a {word}", True))
            break                                   # the largest unit that fits; smaller units read oddly
        out += [(f"{n} bytes", False), (f"{n:,} bytes", False), (f"{n} B", False), (str(n), False)]
        if n < 10 ** 6:
            out.append((f"{say_number(n)} bytes", True))
        if n & (n - 1) == 0 and n >= 2:
            e = n.bit_length() - 1
            out += [(f"2^{e} bytes", False), (f"2^{e}", False), (f"2 to the {e} bytes", False),
                    (f"two to the {say_number(e)}", True), (f"two to the power of {say_number(e)} bytes", True)]
        return list(dict.fromkeys(out))

    def endpoint_forms(self, cid: str) -> list[tuple[str, bool]]:
        out: list[tuple[str, bool]] = []
        if cid in self.vocab.endpoint:
            for s in self.vocab.endpoint[cid]:
                out.append((s, ("endpoint", s) in self.vocab.spoken))
        m = _ENDPOINT_RE.match(cid)
        if not m:
            return out
        kind, n = m.group(1), int(m.group(2))
        written = [w for w in self.vocab.surfaces("component_kind", kind, "written") if "_" not in w] \
            or [kind.replace("_", " ")]
        spoken = [w for w in self.vocab.surfaces("component_kind", kind, "spoken") if "_" not in w]
        said = say_number(n)
        first = written[0]
        out += [(f"{first} {n}", False), (f"{first}{n}", False), (f"{first.lower()} {n}", False),
                (f"{first.lower()}{n}", False), (f"{first} {said}", True), (f"{first} number {n}", False),
                (f"{first} #{n}", False)]
        for w in written[1:]:
            out += [(f"{w} {n}", False), (f"{w} {said}", True)]
        for s in spoken:
            out.append((f"{s} {said}", True))
        return list(dict.fromkeys(out))

    def named_forms(self, slot: str, canonical: str) -> list[tuple[str, bool]]:
        section = NAMED[slot]
        surfaces = self.vocab.surfaces(section, canonical)
        layer = {s: self.vocab.layers.get((section, canonical, s), BASE) for s in surfaces}
        # ids and catalog spellings with "_" ("ac922_yme", "congestion_impact") are not what people type,
        # unless vocabulary.yaml lists them ("MPI_Allreduce"); hand-written surfaces come first
        surfaces = [s for s in surfaces if "_" not in s or layer[s] >= BASE]
        surfaces.sort(key=lambda s: -layer[s])
        out = [(s, (section, s) in self.vocab.spoken) for s in surfaces]
        if not out and canonical in self.vocab.entries(section):
            out = [(canonical, False)]
        return out

    # ------------------------------------------------------------------------------------------ the API
    def forms(self, slot: str, canonical: Any, rng=None, kind: str = "any") -> list[str]:
        """Surface strings for `canonical` in `slot` that read back to it; [] for an unknown value."""
        if canonical is None:
            return []
        if slot == "compare_with":
            return self._compare_forms(canonical, rng)
        if slot == "msg_bytes":
            cands = self.size_forms(canonical)
        elif slot in ("src", "dst"):
            cands = self.endpoint_forms(str(canonical))
        elif slot == "count":
            cands = self.number_forms(canonical)
        elif slot == "top_n":
            n = int(canonical)
            cands = self.number_forms(n) + [(f"top {n}", False), (f"top {say_number(n)}", True)]
        elif slot == "numa_node":
            n = int(canonical)
            cands = self.number_forms(n) + [(f"NUMA node {n}", False), (f"NUMA node {say_number(n)}", True),
                                            (f"NUMA {n}", False)]
        elif slot == "run":
            n = int(canonical)
            cands = [(str(n), False), (f"run {n}", False), (f"run {say_number(n)}", True)]
        elif slot in NAMED:
            cands = self.named_forms(slot, str(canonical))
        else:
            raise ValueError(f"unknown slot {slot!r}")
        if kind != "any":
            want = kind == "spoken"
            cands = [c for c in cands if c[1] == want]
        seen, out = set(), []
        for f, _ in cands:
            if f in seen:
                continue
            seen.add(f)
            if self.norm.value(slot, f) == canonical:
                out.append(f)
        if rng is not None:
            rng.shuffle(out)
        return out

    def count_phrases(self, n: int, count_kind: str, rng=None) -> list[str]:
        """"16 GPUs", "sixteen GPUs", "16-GPU", ... that count_and_kind() reads back as (n, count_kind)."""
        kinds = self.vocab.surfaces("count_kind", count_kind) or [count_kind]
        plural = [k for k in kinds if k.lower().endswith("s")] or kinds
        singular = [k for k in kinds if not k.lower().endswith("s")]
        out = []
        for f, _ in self.number_forms(n)[:3]:
            for k in plural[:3]:
                out.append(f"{f} {k}")
        if singular:
            out.append(f"{n}-{singular[0]}")
        out = [o for o in dict.fromkeys(out) if self.norm.count_and_kind(o) == (n, count_kind)]
        if rng is not None:
            rng.shuffle(out)
        return out

    def _compare_forms(self, systems, rng) -> list[str]:
        systems = list(systems)
        per = [self.forms("system", s)[:3] for s in systems]
        if not all(per):
            return []
        out = []
        for i in range(3):
            names = [p[min(i, len(p) - 1)] for p in per]
            if len(names) == 1:
                out.append(names[0])
            else:
                out += [" and ".join(names), " vs ".join(names), ", ".join(names[:-1]) + " and " + names[-1]]
        out = [o for o in dict.fromkeys(out) if self.norm.value("compare_with", o) == systems]
        if rng is not None:
            rng.shuffle(out)
        return out


_DEFAULT: Optional[Surface] = None


def default_surface() -> Surface:
    """The Surface that module-level forms() uses: vocabulary.yaml + the default database's catalog, unless
    use_vocabulary() / use_extra_vocabulary() chose another."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Surface(default_vocabulary())
    return _DEFAULT


def use_vocabulary(vocab: Vocabulary) -> Surface:
    """Make forms() use `vocab` (e.g. load_vocabulary(extra, catalog=catalog of the database being trained on))."""
    global _DEFAULT
    _DEFAULT = Surface(vocab)
    return _DEFAULT


def use_extra_vocabulary(path, catalog=None, db=None) -> Surface:
    """`hpcask retrain --vocab NEW.yaml`: forms() then also produces NEW.yaml's words (and resolves with its
    overrides). catalog: an app.catalog.Catalog; else the catalog of `db` (default: the default database)."""
    from pathlib import Path

    from nlu.vocab import catalog_from_db, load_vocabulary
    if catalog is None:
        catalog = catalog_from_db(db)
    return use_vocabulary(load_vocabulary(Path(path) if path else None, catalog=catalog))


def forms(slot: str, canonical: Any, rng=None, kind: str = "any") -> list[str]:
    """Surface forms from the default vocabulary (vocabulary.yaml + the default database's catalog)."""
    return default_surface().forms(slot, canonical, rng=rng, kind=kind)
