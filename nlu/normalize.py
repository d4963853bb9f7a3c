"""Slot span text -> canonical slot values (nlu/SLOTS.md).

    norm = Normalizer(load_vocabulary(catalog=cat))
    norm.value("system", "d g x two")          -> "dgx2"
    norm.value("msg_bytes", "eight kilobytes") -> 8192
    norm.value("src", "g p u zero")            -> "gpu0"
    norm.count_and_kind("on sixteen GPUs")     -> (16, "gpus")
    norm.value("system", "A C nine twenty two") -> None; norm.candidates(...) -> the three AC922 systems

Matching of named values (systems, metrics, operations, ...) goes through vocab.key(), which ignores case,
spaces, hyphens, spelled letters and number words, then tries, in order: the whole span; the span without
filler words ("the", "on", trailing "system"/"machine" for systems, ...); a plural "s" dropped; for systems,
apps, metrics, operations, libraries, link types and precisions, a vocabulary word inside the span (whole
words only, the longest one; one system only); for systems, apps, operations, metrics and libraries, one
typo (same digits, unique closest value). Anything else, or a surface that names several values, gives None:
never a guess. Sizes are binary (8 KB = 8192) as SLOTS.md says.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional

from nlu.vocab import BASE, SECTIONS, Vocabulary, default_vocabulary, key, key_pieces, norm_words

# slot -> vocabulary section for the slots that are named values
NAMED = {"system": "system", "compare_with": "system", "metric": "metric", "operation": "operation",
         "direction": "direction", "count_kind": "count_kind", "condition": "condition", "precision": "precision",
         "aggregate": "aggregate", "app": "app", "library": "library", "link_type": "link_type",
         "component_kind": "component_kind"}
NUMERIC = ("count", "numa_node", "top_n", "run")
ENDPOINT = ("src", "dst")
SLOTS = tuple(NAMED) + NUMERIC + ENDPOINT + ("msg_bytes",)

FABRIC_WORDS = {"infiniband", "ib", "ethernet", "roce", "omnipath", "opa", "slingshot"}
_LEADING = {"the", "a", "an", "on", "in", "at", "of", "for", "from", "over", "via", "using", "by", "its", "their",
            "our", "this", "that", "these", "those", "to", "between", "and", "vs", "versus", "or", "with"}
_TRAILING = {"1", "ones", "value", "values", "number", "numbers", "figure", "figures", "result", "results",
             "please", "measurement", "measurements"}
_TRAILING_SYSTEM = {"system", "systems", "machine", "machines", "box", "boxes", "server", "servers", "node", "cluster",
                    "supercomputer", "computer", "platform", "testbed", "workstation", "desktop", "setup", "one",
                    "ones", "data", "results", "nodes", "clusters", "computers", "platforms", "desktops", "workstations"}
_NO_TRAILING_1 = {"system", "app", "link_type", "library", "component_kind"}
_CONTAIN = {"system", "app", "metric", "operation", "library", "link_type", "precision"}
_FUZZY = {"system", "app", "operation", "metric", "library"}

_KIB, _MIB, _GIB, _TIB = 1 << 10, 1 << 20, 1 << 30, 1 << 40
SIZE_UNITS: dict[str, float] = {}
for _names, _mult in (
        (("", "b", "byte", "bytes"), 1),
        (("k", "kb", "kib", "kbyte", "kbytes", "kilobyte", "kilobytes", "kibibyte", "kibibytes", "kilo", "kilos",
          "kibi", "kbs", "kibs"), _KIB),
        (("m", "mb", "mib", "mbyte", "mbytes", "megabyte", "megabytes", "mebibyte", "mebibytes", "meg", "megs",
          "mega", "mebi", "mbs", "mibs"), _MIB),
        (("g", "gb", "gib", "gbyte", "gbytes", "gigabyte", "gigabytes", "gibibyte", "gibibytes", "gig", "gigs",
          "giga", "gibi", "gbs", "gibs"), _GIB),
        (("t", "tb", "tib", "terabyte", "terabytes", "tebibyte", "tebibytes", "tera", "tebi"), _TIB),
        (("bit", "bits"), 1 / 8),
        (("kbit", "kbits", "kilobit", "kilobits", "kibibit", "kibibits"), _KIB / 8),
        (("mbit", "mbits", "megabit", "megabits", "mebibit", "mebibits"), _MIB / 8),
        (("gbit", "gbits", "gigabit", "gigabits", "gibibit", "gibibits"), _GIB / 8)):
    for _n in _names:
        SIZE_UNITS[_n] = _mult
_SIZE_LEADING = {"at", "of", "with", "for", "the", "message", "messages", "size", "sizes", "msg", "transfer",
                 "transfers", "buffer", "buffers", "payload", "payloads", "about", "around", "approximately",
                 "roughly", "exactly", "just", "only", "using", "on", "in", "to", "size:", "data"}
_SIZE_TRAILING = {"message", "messages", "msg", "msgs", "size", "sizes", "buffer", "buffers", "transfer",
                  "transfers", "payload", "payloads", "chunk", "chunks", "block", "blocks", "each", "messagesize",
                  "of", "data"}
_QUANTITY = {"single": 1, "pair": 2, "both": 2, "dual": 2, "quad": 4, "dozen": 12, "couple": 2}
_NUM_RE = re.compile(r"^\d+(?:\.\d+)?$")
_SCI_RE = re.compile(r"^\d+(?:\.\d+)?e[+-]?\d+$")
_ORD_RE = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
_ENDPOINT_RE = re.compile(r"^(.*?)(?:number|num|no|nr|id)?(\d+)$")


# fractions of a unit said before it: "half a gig", "a quarter meg", "half of a megabyte"
_FRACTIONS = {"half": 0.5, "quarter": 0.25, "eighth": 0.125}


@dataclass(frozen=True)
class _Entry:
    values: tuple[str, ...]
    ambiguous: bool

    @property
    def value(self) -> Optional[str]:
        return None if self.ambiguous or len(self.values) != 1 else self.values[0]


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance (a swap of two neighbours counts 1), cut off above `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def _digits(s: str) -> str:
    return "".join(c for c in s if c.isdigit())


# words inside a setting that say nothing more: "peer access turned off", "congestion control is switched on"
# (the gazetteer skips them inside a window too: nlu.gazetteer.FILLER)
SETTING_VERBS = frozenset({"is", "are", "was", "were", "be", "being", "turned", "set", "switched"})


_MODEL_CODE = re.compile(r"([a-z]{1,3})(\d{2,4})[a-z]*$")


def _other_model(a: str, b: str) -> bool:
    """Two keys ending in model numbers whose short letter prefixes differ by more than their order ("gh200" /
    "h200", "b200" / "h200", "gv100" / "v100"): other products, however close the spelling ("xpm64" is XMP-64)."""
    ma, mb = _MODEL_CODE.search(a), _MODEL_CODE.search(b)
    return bool(ma and mb and ma.group(2) == mb.group(2) and sorted(ma.group(1)) != sorted(mb.group(1)))


class Normalizer:
    """Canonical values for slot spans. Build once per vocabulary (about 0.1-0.3 s); each call is ~50 us."""

    def __init__(self, vocab: Optional[Vocabulary] = None):
        self.vocab = vocab if vocab is not None else default_vocabulary()
        self._index: dict[str, dict[str, _Entry]] = {}
        for section in SECTIONS:
            self._index[section] = self._build(section)
        rel: dict[str, str] = {}
        for s, pol in self.vocab.aggregate_relative.items():
            rel[key(s)] = pol
        self._relative = rel
        # the keys a misspelling may stand for, sorted (a family name is found by bisection, not by a scan) and
        # grouped by their digits (a misspelling keeps the digits, so only keys with the same ones are compared): a
        # typo is looked up in about a tenth of the time a scan of every key took, with the same answer
        self._fuzzy_sorted: dict[str, list[str]] = {}
        self._fuzzy_by_digits: dict[str, dict[str, list[tuple[str, str]]]] = {}
        for section in _FUZZY:
            keys = [(k, e.values[0]) for k, e in self._index[section].items()
                    if not e.ambiguous and len(e.values) == 1 and len(k) >= 4]
            self._fuzzy_sorted[section] = sorted(k for k, _ in keys)
            by_digits: dict[str, list[tuple[str, str]]] = {}
            for k, v in keys:
                by_digits.setdefault(_digits(k), []).append((k, v))
            self._fuzzy_by_digits[section] = by_digits

    # ------------------------------------------------------------------------------------------ index
    def _build(self, section: str) -> dict[str, _Entry]:
        by_key: dict[str, dict[int, set[str]]] = {}
        for canonical, surfaces in self.vocab.entries(section).items():
            for s in surfaces:
                k = key(s)
                if not k:
                    continue
                layer = self.vocab.layers.get((section, canonical, s), BASE)
                by_key.setdefault(k, {}).setdefault(layer, set()).add(canonical)
            k = key(canonical)          # the canonical id itself is always accepted, at the lowest priority
            if k and k not in by_key:
                by_key[k] = {-1: {canonical}}
        amb: dict[str, dict[int, set[str]]] = {}
        for surface, cands in (self.vocab.ambiguous.get(section) or {}).items():
            k = key(surface)
            layer = self.vocab.ambiguous_layers.get((section, surface), BASE)
            amb.setdefault(k, {}).setdefault(layer, set()).update(cands)
        index: dict[str, _Entry] = {}
        for k in set(by_key) | set(amb):
            top = max(list(by_key.get(k, {})) + list(amb.get(k, {})))
            if top in amb.get(k, {}):
                vals = amb[k][top] | by_key.get(k, {}).get(top, set())
                index[k] = _Entry(tuple(sorted(vals)), True)
            else:
                vals = by_key[k][top]
                index[k] = _Entry(tuple(sorted(vals)), len(vals) > 1)
        return index

    # ------------------------------------------------------------------------------------------ named values
    def _strip(self, slot: str, pieces: list[str]) -> list[str]:
        p = list(pieces)
        while len(p) > 1 and p[0] in _LEADING:
            p = p[1:]
        trailing = set(_TRAILING)
        if slot in _NO_TRAILING_1:
            trailing.discard("1")
        if slot == "system":
            trailing |= _TRAILING_SYSTEM
        while len(p) > 1 and p[-1] in trailing:
            p = p[:-1]
        return p

    def _contained(self, section: str, pieces: list[str]) -> list[tuple[int, int, _Entry]]:
        """Maximal vocabulary matches on word boundaries inside the span, left to right."""
        index = self._index[section]
        bounds = [0]
        for p in pieces:
            bounds.append(bounds[-1] + len(p))
        s = "".join(pieces)
        found = []
        for a in range(len(bounds)):
            for b in range(a + 1, len(bounds)):
                sub = s[bounds[a]:bounds[b]]
                if len(sub) < 3:
                    continue
                e = index.get(sub)
                if e is not None:
                    found.append((bounds[a], bounds[b], e))
        maximal = [f for f in found if not any(g is not f and g[0] <= f[0] and f[1] <= g[1]
                                               and (g[1] - g[0]) > (f[1] - f[0]) for g in found)]
        maximal.sort(key=lambda f: (f[0], -(f[1] - f[0])))
        out, end = [], -1
        for f in maximal:                       # non-overlapping, leftmost-longest
            if f[0] >= end:
                out.append(f)
                end = f[1]
        return out

    def _fuzzy(self, section: str, k: str) -> Optional[str]:
        if len(k) < 5:
            return None
        keys = self._fuzzy_sorted.get(section, [])
        i = bisect_left(keys, k)
        i += i < len(keys) and keys[i] == k
        if i < len(keys) and keys[i].startswith(k):
            # "resnet" begins ResNet-50, ResNet-152, ...: a family name, not a misspelling of ResNeXt
            return None
        limit = 2 if (len(k) >= 10 and section in ("system", "app")) else 1
        best, best_vals = limit + 1, set()
        for cand, val in self._fuzzy_by_digits.get(section, {}).get(_digits(k), ()):
            if abs(len(cand) - len(k)) > limit:
                continue
            if _other_model(k, cand):
                continue    # "gh200" is not the H200, "b200" not either: the letters of a model number name it
            d = _edit_distance(k, cand, limit)
            if d == 2 and cand[0] != k[0]:
                continue    # two edits and another first letter: a different word ("cross board", not "xmoss board")
            if d < best:
                best, best_vals = d, {val}
            elif d == best:
                best_vals.add(val)
        if best <= limit and len(best_vals) == 1:
            return next(iter(best_vals))
        return None

    def _resolve(self, slot: str, text: str) -> tuple[Optional[str], tuple[str, ...]]:
        """(canonical or None, candidates)."""
        section = NAMED.get(slot, slot)
        index = self._index[section]
        pieces = key_pieces(text)
        if not pieces:
            return None, ()
        k = "".join(pieces)
        e = index.get(k)
        if e is None:
            p2 = self._strip(slot, pieces)
            k2 = "".join(p2)
            e = index.get(k2)
            if e is None and section == "system" and any(w in FABRIC_WORDS for w in pieces[1:-1]):
                # "the in-house InfiniBand cluster": the fabric inside a cluster's name does not pick the cluster
                e = index.get("".join(w for w in pieces if w not in FABRIC_WORDS)) \
                    or index.get("".join(w for w in p2 if w not in FABRIC_WORDS) or "-")
            if e is None and section == "condition" and "access" in p2[1:]:
                e = index.get("".join(w for w in p2 if w != "access"))   # "P2P access disabled" = "P2P disabled"
            if e is None and section == "condition" and any(w in SETTING_VERBS for w in p2[1:-1]):
                # "peer access turned off" = "peer access off"
                e = index.get("".join(w for i, w in enumerate(p2) if not (0 < i < len(p2) - 1 and w in SETTING_VERBS)))
            if e is None and len(k2) > 3 and k2.endswith("s"):
                e = index.get(k2[:-1]) or (index.get(k2[:-2]) if k2.endswith("es") else None)
            if e is None and section in _CONTAIN:
                found = self._contained(section, p2)
                definite = {f[2].value for f in found if f[2].value is not None}
                if len(definite) > 1 and section != "system":
                    # "bus bandwidth in GB/s": the longest match decides when it is strictly the longest
                    lengths = sorted(((f[1] - f[0]), f[2].value) for f in found if f[2].value is not None)
                    if lengths[-1][0] > lengths[-2][0]:
                        definite = {lengths[-1][1]}
                if len(definite) == 1:
                    return definite.pop(), ()
                if not definite and len(found) == 1:
                    return None, found[0][2].values
                if len(definite) > 1:
                    return None, tuple(sorted(definite))
            if e is None and re.match(r"a\s+\w", text.strip(), re.I) and len(pieces) > 1:
                # "a v one hundred": the article joined to the letters spelled after it ("av100" is one edit from
                # GV100); the name without it, before any spelling near it is tried ("a c 922" was matched above)
                found = self._resolve(slot, text.strip()[1:])
                if found[0] is not None or found[1]:
                    return found
            if e is None and section == "metric" and re.search(r"\w\s*/\s*(s|sec)\b", text, re.I):
                # "samples/s": a rate written with a slash is the rate said "per second" ("samples per second")
                found = self._resolve(slot, re.sub(r"\s*/\s*(s|sec)\b", " per second", text, flags=re.I))
                if found[0] is not None or found[1]:
                    return found
            if e is None and section in _FUZZY:
                v = self._fuzzy(section, k2)
                if v is not None:
                    return v, ()
        if e is None:
            return None, ()
        if e.value is None and section == "system":
            # two loaded systems of one name ("lab-a100" given with --system, and host_lab_a100 that a file named
            # only by its host had become): the one whose id is the name said is meant
            exact = [v for v in e.values if "".join(key_pieces(v)) == k]
            if len(exact) == 1:
                return exact[0], ()
        return e.value, (e.values if e.value is None else ())

    def candidates(self, slot: str, text: str) -> list[str]:
        """For a span that names several values ("AC922", "DGX-1", "download"), the values it could mean;
        [] when it resolves to one value or to nothing."""
        if slot not in NAMED or not text:
            return []
        return list(self._resolve(slot, text)[1])

    def named(self, slot: str, text: str) -> Optional[str]:
        return self._resolve(slot, text)[0]

    def named_whole(self, slot: str, text: str) -> Optional[str]:
        """The value `text` names as a whole (one of its written or spoken forms, filler words stripped), not
        by a name inside it: "SHOC Summit" names no system, though "Summit" does."""
        index = self._index[NAMED.get(slot, slot)]
        pieces = key_pieces(text or "")
        e = index.get("".join(pieces)) or index.get("".join(self._strip(slot, pieces)) or "-")
        return e.value if e is not None else None

    def systems(self, text: str) -> list[str]:
        """Every system named in `text`, in order ("the DGX-1 V100 and Yme" -> [dgx1_v100, ac922_yme]).
        Ambiguous mentions are left out."""
        parts = [p for p in re.split(r"\s*(?:,|;|&|\band\b|\bor\b|\bvs\.?|\bversus\b|\bagainst\b|\bcompared to\b"
                                     r"|\bcompared with\b|\bwith\b)\s*", text or "", flags=re.I) if p and p.strip()]
        out: list[str] = []
        resolved = [self.named("system", p) for p in parts]
        if parts and all(resolved):
            for r in resolved:
                if r not in out:
                    out.append(r)
            return out
        pieces = self._strip("system", key_pieces(text or ""))
        for _, _, e in self._contained("system", pieces):
            if e.value is not None and e.value not in out:
                out.append(e.value)
        return out

    # ------------------------------------------------------------------------------------------ aggregates
    def is_relative(self, text: str) -> Optional[str]:
        """"better" / "worse" for words like "fastest" / "slowest", else None."""
        pieces = self._strip("aggregate", key_pieces(text or ""))
        return self._relative.get("".join(pieces))

    def aggregate(self, text: str, metric: Optional[str] = None) -> Optional[str]:
        """max / min / mean, with relative words flipped for lower-is-better metrics:
        aggregate("fastest", "latency") -> "min", aggregate("fastest", "bandwidth") -> "max",
        aggregate("highest", "latency") -> "max"."""
        v = self.named("aggregate", text)
        if v in ("max", "min") and metric in self.vocab.lower_is_better and self.is_relative(text):
            return "min" if v == "max" else "max"
        return v

    # ------------------------------------------------------------------------------------------ numbers
    @staticmethod
    def _as_number(w: str) -> Optional[float]:
        if _NUM_RE.match(w) or _SCI_RE.match(w):
            return float(w)
        return None

    def _first_number(self, ws: list[str], quantities: bool = False) -> tuple[Optional[float], int]:
        i = 0
        while i < len(ws):
            w = ws[i]
            v = self._as_number(w)
            if v is not None:
                # power notation: 2^10, 2 ** 10, 2 to the 10(th), 2 to the power of 10
                j = i + 1
                if j < len(ws) and ws[j] in ("^", "**"):
                    e = self._as_number(ws[j + 1]) if j + 1 < len(ws) else None
                    if e is not None:
                        return v ** e, j + 1
                if j < len(ws) and ws[j] == "to":
                    k = j + 1
                    while k < len(ws) and ws[k] in ("the", "power", "of"):
                        k += 1
                    if k < len(ws) and k > j + 1:
                        m = _ORD_RE.match(ws[k])
                        e = float(m.group(1)) if m else self._as_number(ws[k])
                        if e is not None:
                            return v ** e, k
                return v, i
            if quantities:
                if w in ("a", "an") and i + 1 < len(ws) and ws[i + 1] in _QUANTITY:
                    return float(_QUANTITY[ws[i + 1]]), i + 1
                if w in _QUANTITY:
                    return float(_QUANTITY[w]), i
                if w in ("a", "an") and i + 1 < len(ws) and ws[i + 1] in ("single",):
                    return 1.0, i + 1
            i += 1
        return None, -1

    def number(self, text: str) -> Optional[float | int]:
        """A number written or spoken: "sixteen", "sixty four", "a hundred and twenty eight", "1,024",
        "2^10", "1.5". Int when whole."""
        if isinstance(text, (int, float)):
            return text
        v, _ = self._first_number(list(norm_words(text or "")), quantities=True)
        if v is None:
            return None
        return int(v) if float(v).is_integer() else v

    def integer(self, text: str) -> Optional[int]:
        v = self.number(text)
        return v if isinstance(v, int) else None

    def count_and_kind(self, text: str) -> tuple[Optional[int], Optional[str]]:
        """("on 16 GPUs") -> (16, "gpus"); ("sixty four cores") -> (64, "cores"); ("8-GPU") -> (8, "gpus");
        ("a single node") -> (1, "nodes"). Either part may be None."""
        ws = list(norm_words(text or ""))
        v, i = self._first_number(ws, quantities=True)
        n = int(v) if v is not None and float(v).is_integer() and v >= 0 else None
        rest = ws[i + 1:] if i >= 0 else ws
        kind = self._kind_in(rest) or (self._kind_in(ws[:i]) if i > 0 else None)
        return n, kind

    def _kind_in(self, rest: list[str]) -> Optional[str]:
        kind = None
        index = self._index["count_kind"]
        for a in range(len(rest)):
            for b in range(len(rest), a, -1):
                k = "".join(re.sub(r"[^a-z0-9]", "", w) for w in rest[a:b])
                e = index.get(k) or (index.get(k[:-1]) if k.endswith("s") and len(k) > 3 else None)
                if e is not None and e.value is not None:
                    kind = e.value
                    break
            if kind:
                break
        return kind

    # ------------------------------------------------------------------------------------------ sizes
    def size_bytes(self, text: str) -> Optional[int]:
        """Message/transfer size in bytes, binary units: "8 KiB" = "8KB" = "8k" = "eight kilobytes" = 8192,
        "one gig" = 2^30, "1.5 MB" = 1572864, "2 to the 20 bytes" = 1048576, "half a gig" = 2^29. A rate
        ("8 GB/s", "per second") is not a size: None."""
        if isinstance(text, int):
            return text
        ws = list(norm_words(text or ""))
        if any(w in ("/", "per") or w.endswith("/s") or w in ("ps", "gbps", "mbps", "kbps") for w in ws):
            return None
        while ws and (ws[0] in _SIZE_LEADING or (ws[0] in ("a", "an") and len(ws) > 1 and ws[1] in _SIZE_LEADING)):
            ws = ws[1:]
        while ws and ws[-1] in _SIZE_TRAILING:
            ws = ws[:-1]
        if not ws:
            return None
        qty, i = None, -1
        if ws[0] in ("a", "an") and len(ws) > 2 and ws[1] in _FRACTIONS:
            ws = ws[1:]     # "a quarter meg"
        if ws[0] in _FRACTIONS:
            qty, i = _FRACTIONS[ws[0]], 0
            if len(ws) > 1 and ws[1] in ("a", "an", "of"):
                i = 2 if ws[1] == "of" and len(ws) > 2 and ws[2] in ("a", "an") else 1
        elif ws[0] in ("a", "an") and len(ws) > 1 and self._as_number(ws[1]) is not None:
            qty, i = self._first_number(ws[1:])   # "a 1000 MB copy": the article, then the number
            i += 1
        elif ws[0] in ("a", "an") and len(ws) > 1:
            qty, i = 1.0, 0
        else:
            if self._as_number(ws[0]) is None:
                return None
            qty, i = self._first_number(ws)
        unit = "".join(re.sub(r"[^a-z]", "", w) for w in ws[i + 1:])
        mult = SIZE_UNITS.get(unit)
        if mult is None:
            return None
        val = qty * mult
        if val < 1:
            return None
        return int(round(val))

    # ------------------------------------------------------------------------------------------ endpoints
    def endpoint(self, text: str, kind_hint: Optional[str] = None) -> Optional[str]:
        """Component id: "g p u zero" / "GPU 0" / "gpu0" / "device 0" -> gpu0, "IPU five" -> ipu5, "core twelve"
        -> core12, "tile 646" -> tile646, "node seventeen" -> node17, "CPU one" / "socket 1" -> cpu1,
        "the host" / "host memory" -> host. A bare number ("3") needs kind_hint (e.g. the kind of the other
        endpoint): endpoint("3", kind_hint="gpu") -> gpu3; without it, None. Ordinals ("the first GPU") are
        None: 0- or 1-based is a guess."""
        pieces = key_pieces(text or "")
        while len(pieces) > 1 and pieces[0] in ("from", "to", "between", "and", "the", "on", "at", "of", "with"):
            pieces = pieces[1:]
        numbered = next((i for i, p in enumerate(pieces) if any(c.isdigit() for c in p)), None)
        if numbered is not None:
            # "gpu15 1gpu" tagged as one span "gpu15 1": the id ends with its number ("one five" is already one
            # piece, 15); a number after it belongs to the next phrase (a count), not to the id (gpu151)
            pieces = pieces[:numbered + 1]
        # "within GPU0s own memory": a transcript writes the possessive without its apostrophe
        k = re.sub(r"(?<=\d)s$", "", "".join(pieces))
        if not k:
            return None
        e = self._index["endpoint"].get(k)
        if e is not None:
            return e.value
        m = _ENDPOINT_RE.match(k)
        if not m:
            return None
        kind_part, num = m.group(1), int(m.group(2))
        if kind_part == "":
            kind = kind_hint
        else:
            ce = self._index["component_kind"].get(kind_part)
            if ce is None and kind_part.endswith("s") and len(kind_part) > 3:
                ce = self._index["component_kind"].get(kind_part[:-1])
            kind = ce.value if ce is not None else None
        if not kind:
            return None
        return f"{kind}{num}"

    # ------------------------------------------------------------------------------------------ dispatch
    def value(self, slot: str, text: Any) -> Any:
        """Canonical value of one slot span (see SLOTS.md), or None when the span names nothing known or
        names several things."""
        if text is None:
            return None
        if slot == "msg_bytes":
            return self.size_bytes(text)
        if slot in ENDPOINT:
            return self.endpoint(text)
        if slot == "compare_with":
            if isinstance(text, (list, tuple)):
                out = [self.named("system", t) for t in text]
                out = [o for o in out if o]
                return out or None
            return self.systems(text) or None
        if slot == "count":
            n, _ = self.count_and_kind(text) if isinstance(text, str) else (text, None)
            return n
        if slot in ("numa_node", "top_n", "run"):
            return self.integer(text)
        if slot == "count_kind":
            v = self.named("count_kind", text)
            return v if v is not None else self.count_and_kind(text)[1]
        if slot in NAMED:
            if not isinstance(text, str):
                return None
            return self.named(slot, text)
        raise ValueError(f"unknown slot {slot!r}; slots: {', '.join(SLOTS)}")


@lru_cache(maxsize=1)
def default_normalizer() -> Normalizer:
    return Normalizer(default_vocabulary())
