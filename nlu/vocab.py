"""The vocabulary: canonical slot values and their written and spoken surface forms.

Three layers, later ones win where one surface names different values:
  0. the database catalog (system ids, names and aliases; operations, metrics, conditions, apps and component
     kinds that exist), so newly ingested data can be asked about without editing anything;
  1. nlu/vocabulary.yaml (hand-written aliases, spoken forms, ambiguity, aggregate polarity);
  2. an extra yaml of the same format (`hpcask retrain --vocab NEW.yaml`).
Every system surface also gets spoken variants generated ("DGX-2" -> "d g x two", "DGX 2", "DGX two").

This module also holds the text helpers both directions share: number words (parse and say) and `key()`, the
forgiving lookup key ("DGX-2", "dgx 2", "d g x two", "DGX-two" all give "dgx2").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Optional

import yaml

VOCAB_YAML = Path(__file__).with_name("vocabulary.yaml")

# slot sections of the yaml (each: canonical -> surfaces)
SECTIONS = ("system", "operation", "metric", "condition", "direction", "count_kind", "precision", "aggregate",
            "link_type", "component_kind", "endpoint", "library", "app")
CATALOG, BASE, EXTRA = 0, 1, 2

# --------------------------------------------------------------------------------------------- number words

UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9}
TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
         "seventeen": 17, "eighteen": 18, "nineteen": 19}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}
SCALES = {"thousand": 1000, "million": 1000000, "billion": 1000000000}
# every word of a number said in words ("one hundred fifty"), for the rules that find where a number ends
NUMBER_WORDS = frozenset({*UNITS, *TEENS, *TENS, "hundred", *SCALES})
ORD_UNITS = {"zeroth": 0, "first": 1, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
             "eighth": 8, "ninth": 9}
ORD_TEENS = {"tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
             "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19}
ORD_TENS = {"twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70,
            "eightieth": 80, "ninetieth": 90}
ORD_OTHER = {"hundredth": 100, "thousandth": 1000}
_NUMBER_WORDS = set(UNITS) | set(TEENS) | set(TENS)
_ORDINAL_WORDS = set(ORD_UNITS) | set(ORD_TEENS) | set(ORD_TENS) | set(ORD_OTHER)
_UNIT_NAMES = [w for w in UNITS]
_TEEN_NAMES = {v: k for k, v in TEENS.items()}
_TENS_NAMES = {v: k for k, v in TENS.items() if k != "fourty"}

# spoken letter names -> letters ("dee gee ex two" -> d g x 2)
LETTER_NAMES = {"ay": "a", "bee": "b", "cee": "c", "see": "c", "dee": "d", "ee": "e", "eff": "f", "gee": "g",
                "aitch": "h", "eye": "i", "jay": "j", "kay": "k", "ell": "l", "el": "l", "em": "m", "en": "n",
                "pee": "p", "ar": "r", "ess": "s", "tee": "t", "you": "u", "vee": "v", "ex": "x", "wye": "y",
                "zee": "z", "zed": "z"}

_DIGITS_RE = re.compile(r"^\d+(?:\.\d+)?$")
_GROUPED_RE = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_SCI_RE = re.compile(r"^\d+(?:\.\d+)?e[+-]?\d+$")


def _ordinal_suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _parse_run(ws: list[str], i: int) -> tuple[str, int]:
    """Read number words from ws[i:]; return (digit string, next index). Readings concatenate the way codes and
    long numbers are said: "nine twenty two" -> "922", "ten twenty four" -> "1024", "eighteen oh four" -> "1804",
    while cardinals combine: "a hundred and twenty eight" -> "128", "one point five" -> "1.5",
    "twenty fifth" -> "25th"."""
    groups: list[str] = []
    total = chunk = 0
    active = False
    last = None
    j = i
    n = len(ws)

    def flush():
        nonlocal total, chunk, active, last
        if active:
            groups.append(str(total + chunk))
        total = chunk = 0
        active = False
        last = None

    while j < n:
        w = ws[j]
        nxt = ws[j + 1] if j + 1 < n else None
        if w in UNITS:
            v = UNITS[w]
            if active and v and ((last == "tens") or last in ("hundred", "scale")):
                chunk += v
                last = "unit"
            else:
                flush()
                chunk, active, last = v, True, ("zero" if v == 0 else "unit")
        elif w in TEENS:
            if active and last in ("hundred", "scale"):
                chunk += TEENS[w]
                last = "teen"
            else:
                flush()
                chunk, active, last = TEENS[w], True, "teen"
        elif w in TENS:
            if active and last in ("hundred", "scale"):
                chunk += TENS[w]
                last = "tens"
            else:
                flush()
                chunk, active, last = TENS[w], True, "tens"
        elif w == "hundred":
            if active and last in ("unit", "teen", "tens", "digits") and 0 < chunk < 100:
                chunk *= 100
                last = "hundred"
            else:
                flush()
                chunk, active, last = 100, True, "hundred"
        elif w in SCALES:
            if active and chunk and last != "zero":
                total += chunk * SCALES[w]
                chunk = 0
                last = "scale"
            elif not active:
                total, active, last = SCALES[w], True, "scale"
            else:
                break
        elif w in _ORDINAL_WORDS:
            v = ORD_UNITS.get(w, ORD_TEENS.get(w, ORD_TENS.get(w, ORD_OTHER.get(w))))
            if w in ORD_UNITS and active and v and last in ("tens", "hundred", "scale"):
                val = total + chunk + v
            elif w in ORD_OTHER and active and 0 < chunk < 100:
                val = total + chunk * v
            elif w in (set(ORD_TEENS) | set(ORD_TENS)) and active and last in ("hundred", "scale"):
                val = total + chunk + v
            else:
                flush()
                val = v
            total = chunk = 0
            active = False
            groups.append(f"{val}{_ordinal_suffix(val)}")
            j += 1
            break
        elif w == "and" and active and last in ("hundred", "scale") and (nxt in _NUMBER_WORDS
                                                                          or nxt in _ORDINAL_WORDS):
            pass
        elif w in ("a", "an") and not active and not groups and nxt in ("hundred", "thousand", "million",
                                                                        "billion"):
            chunk, active, last = 1, True, "unit"
        elif w == "point" and (active or groups) and nxt is not None and (nxt in UNITS or nxt in ("oh", "o")
                                                                           or nxt.isdigit()):
            flush()
            frac = []
            k = j + 1
            while k < n and (ws[k] in UNITS or ws[k] in ("oh", "o") or (ws[k].isdigit() and not frac)):
                frac.append(str(UNITS[ws[k]]) if ws[k] in UNITS else ("0" if ws[k] in ("oh", "o") else ws[k]))
                k += 1
            groups[-1] = groups[-1] + "." + "".join(frac)
            j = k
            continue
        elif w in ("oh", "o") and (active or groups) and j > i and (ws[j - 1] in _NUMBER_WORDS
                                                                  or ws[j - 1] in ("oh", "o", "hundred")):
            flush()
            groups.append("0")
        elif _DIGITS_RE.match(w) and not active and not groups:
            if "." in w:
                groups.append(w)
                j += 1
                break
            chunk, active, last = int(w), True, "digits"
        else:
            break
        j += 1
    flush()
    return "".join(groups), j


def _starts_number(ws: list[str], i: int) -> bool:
    w = ws[i]
    if w in _NUMBER_WORDS or w in _ORDINAL_WORDS or w == "hundred" or w in SCALES:
        return True
    if w in ("a", "an") and i + 1 < len(ws) and ws[i + 1] in ("hundred", "thousand", "million", "billion"):
        return True
    if _DIGITS_RE.match(w) and i + 1 < len(ws) and (ws[i + 1] in ("hundred",) or ws[i + 1] in SCALES):
        return True
    return False


def say_number(n: int, style: str = "cardinal") -> str:
    """English words for a non-negative integer.
    style: "cardinal" ("one hundred twenty eight"), "and" ("one hundred and twenty eight"),
    "hyphen" ("sixty-four"), "pairs" (how codes are read: "nine twenty two", "ten twenty four", "twelve sixteen";
    falls back to cardinal where a pair reading would not parse back), "digits" ("one two eight")."""
    n = int(n)
    if n < 0:
        raise ValueError("negative")
    if style == "digits":
        return " ".join(_UNIT_NAMES[int(c)] for c in str(n))
    if style == "pairs":
        s = str(n)
        if len(s) == 3 and s[1] != "0":
            return f"{_UNIT_NAMES[int(s[0])]} {say_number(int(s[1:]))}"
        if len(s) == 4 and s[2] != "0" and s[0] != "0" and s[1:] != "000" and int(s[:2]) >= 10:
            return f"{say_number(int(s[:2]))} {say_number(int(s[2:]))}"
        return say_number(n)
    hyph = style == "hyphen"
    use_and = style == "and"

    def below_100(x: int) -> str:
        if x < 10:
            return _UNIT_NAMES[x]
        if x < 20:
            return _TEEN_NAMES[x]
        t, u = divmod(x, 10)
        return _TENS_NAMES[t * 10] + (("-" if hyph else " ") + _UNIT_NAMES[u] if u else "")

    def below_1000(x: int) -> str:
        h, r = divmod(x, 100)
        parts = []
        if h:
            parts.append(f"{_UNIT_NAMES[h]} hundred")
        if r:
            if h and use_and:
                parts.append("and")
            parts.append(below_100(r))
        return " ".join(parts)

    if n == 0:
        return "zero"
    parts = []
    for scale, name in ((10 ** 9, "billion"), (10 ** 6, "million"), (1000, "thousand")):
        q, n = divmod(n, scale)
        if q:
            parts.append(f"{below_1000(q)} {name}")
    if n:
        if parts and use_and and n < 100:
            parts.append("and")
        parts.append(below_1000(n))
    return " ".join(parts)


# --------------------------------------------------------------------------------------------- keys

_PUNCT_ONLY = re.compile(r"^[^\w]+$")
_KEEP_SYMBOLS = {"^", "**", "<<", "#", "/", "&", "->", "<->", "<-", "→", "↔", "%"}


def _merge_letters(ws: list[str]) -> list[str]:
    """Spelled letters joined: "d g x" -> "dgx"; a spelled processing unit's plural too, "g p us" -> "gpus"
    (said "gee pee yous", the last letter's plural is a word of its own)."""
    out: list[str] = []
    run = 0
    for w in ws:
        single = len(w) == 1 and w.isalpha()
        if single and run:
            out[-1] += w
        elif w == "us" and run >= 2 and out[-1].endswith("p"):
            out[-1] += w
            single = False
        else:
            out.append(w)
        run = run + 1 if single else 0
    return out


# terms people spell letter by letter ("c p us", "c u d a"), whose letters name no machine
SPELLED_TERMS = {"cpu", "cpus", "gpu", "gpus", "ipu", "ipus", "tpu", "tpus", "dpu", "dpus", "cuda", "nccl", "mpi",
                 "hbm", "pcie", "api", "nic", "nics", "ucx", "rdma"}


def in_spelled_term(span: str, question: str) -> bool:
    """Letters of a term spelled out, all or some of them ("c u d" of "c u d a runtime calls": the tagger kept
    three; "c p" of "the c p us", a machine's alias "CP" otherwise), joined as the reader joins them
    (join_spelled)."""
    letters = "".join(w for w in span.lower().split() if w not in ("the", "a", "an"))
    return len(letters) >= 2 and letters.isalpha() and any(
        letters in w for w in join_spelled((question or "").lower()).split() if w in SPELLED_TERMS)


_CENTURY = {"nineteen": 1900, "twenty": 2000}


def read_years(text: str) -> str:
    """The text with years said the spoken way written as digits: "twenty twenty two" -> "2022", "nineteen
    ninety nine" -> "1999", "twenty nineteen" -> "2019". For readers that match a year in a name ("the ISC 2022
    papers"), where the number reader would take "twenty twenty two" for 42."""
    ws = text.split()
    out: list[str] = []
    i = 0
    while i < len(ws):
        w = ws[i].lower()
        nxt = ws[i + 1].lower() if i + 1 < len(ws) else ""
        if w in _CENTURY and (nxt in TEENS or nxt in TENS):
            year, i = _CENTURY[w] + (TEENS.get(nxt) or TENS[nxt]), i + 2
            if nxt in TENS and i < len(ws) and ws[i].lower() in UNITS and ws[i].lower() != "zero":
                year, i = year + UNITS[ws[i].lower()], i + 1
            out.append(str(year))
            continue
        out.append(ws[i])
        i += 1
    return " ".join(out)


def join_spelled(text: str) -> str:
    """The text with its letters spelled one by one joined into words, the rest as written: "top three c u d a
    runtime calls" -> "top three cuda runtime calls", "c p us" -> "cpus". For readers of the question's own words
    (the planners' patterns), which see it as the reader does."""
    return " ".join(_merge_letters(text.split()))


@lru_cache(maxsize=65536)
def _chunk_words(chunk: str) -> tuple[str, ...]:
    """The tokenizer's words of one chunk of text between spaces. spaCy splits a text at spaces first and then
    reads each chunk on its own, so a text's words are its chunks' words in turn: kept per chunk, the words of
    the dozens of overlapping windows the gazetteer keys in one question are tokenized once, not per window."""
    from nlu.tokens import words
    return tuple(words(chunk))


def _words_of(text: str) -> list[str]:
    """nlu.tokens.words(text), from the chunks' cached words (a tab or a newline inside a chunk is the
    tokenizer's to read there, as it is in the whole text)."""
    return [w for chunk in text.split(" ") if chunk for w in _chunk_words(chunk)]


def _norm_words(text: str) -> list[str]:
    raw: list[str] = []
    plural: set[int] = set()
    for t in _words_of(text):
        w = t.lower()
        if w in ("'s", "’s", "'", "’", "s'"):
            continue
        if _GROUPED_RE.match(w):
            w = w.replace(",", "")
        elif "." in w and not _SCI_RE.match(w):
            w = re.sub(r"(?<=[a-z])\.|\.(?=[a-z])", "", w).strip(".")
        if not w:
            continue
        if _PUNCT_ONLY.match(w) and w not in _KEEP_SYMBOLS:
            continue
        if w in ("hundreds", "thousands") and raw and (raw[-1] in _NUMBER_WORDS or _DIGITS_RE.match(raw[-1])):
            # "the v one hundreds", "the h two hundreds": a model name in the plural (V100s, H200s), the magnitude
            # read as a number and the plural kept on it
            plural.add(len(raw))
            w = w[:-1]
        raw.append(LETTER_NAMES.get(w, w))
    out: list[str] = []
    i = 0
    while i < len(raw):
        if _starts_number(raw, i):
            s, j = _parse_run(raw, i)
            if j > i and s:
                out.append(s + ("s" if any(i <= k < j for k in plural) else ""))
                i = j
                continue
        out.append(raw[i])
        i += 1
    return _merge_letters(out)


@lru_cache(maxsize=65536)
def norm_words(text: str) -> tuple[str, ...]:
    """Lowercased words of a span with spoken numbers read as digits and spelled letters joined:
    "the D G X two" -> ("the", "dgx", "2"), "eight KiB" -> ("8", "kib"), "a hundred and twenty eight GPUs" ->
    ("128", "gpus"), "1,024" -> ("1024",), "G.P.U. 0" -> ("gpu", "0"). Punctuation is dropped except the
    symbols size expressions need (^, **, <<, #, /, arrows)."""
    return tuple(_norm_words(text))


@lru_cache(maxsize=65536)
def _piece(w: str) -> str:
    """The key of one word: letters and digits only; a decimal point survives between digits; "2.0" -> "2"."""
    w = re.sub(r"[^a-z0-9.]", "", w)
    w = re.sub(r"(?<!\d)\.|\.(?!\d)", "", w)
    return re.sub(r"(\d)\.0+(?!\d)", r"\1", w)


def key_pieces(text: str) -> list[str]:
    """Keys of the words of `text` (leading "the" dropped, empty pieces removed, shorthands spelled out)."""
    ws = list(norm_words(text))
    if len(ws) > 1 and ws[0] == "the":
        ws = ws[1:]
    out: list[str] = []
    for p in (_piece(w) for w in ws):
        if not p:
            continue
        if p == "peer" and out[-2:] == ["peer", "to"]:
            out[-2:] = ["p2p"]          # "peer to peer"
            continue
        out.append(p)
    if len(out) > 1:
        # inside a phrase only: "mem" alone is too short to say which memory quantity (capacity? bandwidth?)
        out = [_SHORT.get(p, p) for p in out]
    return [_SHORT_WORD.get(p, p) for p in out]


# shorthands people type for the same words: "unified mem" = "unified memory", "peer-to-peer access" = "P2P access"
_SHORT = {"mem": "memory", "w": "with", "wo": "without"}   # "w/ tensor cores", "w/o congestion control"
_SHORT_WORD = {"peertopeer": "p2p", "unidir": "unidirectional", "bidir": "bidirectional"}


@lru_cache(maxsize=65536)
def key(text: str) -> str:
    """Forgiving lookup key: case, spaces, hyphens, spelled letters and number words do not matter.
    "DGX-2", "dgx 2", "d g x two", "the DGX-two" -> "dgx2"; "A C nine twenty two" -> "ac922". Shorthands
    people use for the same words key the same: "peer-to-peer access" = "P2P access", "unified mem" =
    "unified memory"."""
    return "".join(key_pieces(text))


def clear_caches() -> None:
    """Forget every word and span read so far: a benchmark of questions new to the process clears them between
    passes over the same questions (a second pass would otherwise read every span from memory)."""
    for f in (norm_words, key, _chunk_words, _piece):
        f.cache_clear()


# --------------------------------------------------------------------------------------------- spoken variants

_SEG_RE = re.compile(r"[A-Za-z]+|\d+(?:\.\d+)?|[^A-Za-z\d\s]+|\s+")
_VOWELS = set("aeiouy")


def _spell(seg: str) -> bool:
    """Is a run of letters said letter by letter? ("DGX", "AC", "IBM", "H", "V", but not "Summit", "Gemini")."""
    if len(seg) == 1:
        return True
    if len(seg) <= 4 and seg.isupper():
        return True
    return len(seg) <= 4 and not (set(seg.lower()) & _VOWELS)


def spoken_variants(alias: str, limit: int = 4) -> list[str]:
    """Spoken-looking variants of a written name: "DGX-2" -> ["d g x two", "DGX 2", "DGX two"];
    "AC922" -> ["a c nine twenty two", "AC 922", "AC nine twenty two"]; "XMP-64" -> ["x m p sixty four", ...].
    All of them have the same key() as the alias."""
    segs = [s for s in _SEG_RE.findall(alias)]
    if not any(s[0].isdigit() or (s[0].isalpha() and _spell(s)) for s in segs if s.strip()):
        return []
    spelled, spaced, worded = [], [], []
    for s in segs:
        if s.isspace():
            continue
        if s[0].isalpha():
            spelled.append(" ".join(s.lower()) if _spell(s) else s.lower())
            spaced.append(s)
            worded.append(s)
        elif s[0].isdigit():
            if "." in s:
                a, b = s.split(".", 1)
                w = f"{say_number(int(a))} point {say_number(int(b), 'digits')}"
                spelled.append(w)
                worded.append(w)
            else:
                spelled.append(say_number(int(s), "pairs") if len(s) <= 4 else say_number(int(s), "digits"))
                worded.append(say_number(int(s), "pairs") if len(s) <= 4 else s)
            spaced.append(s)
        # punctuation is dropped (it is spoken as a pause, if at all)
    out = []
    for v in (" ".join(spelled), " ".join(spaced), " ".join(worded)):
        v = re.sub(r"\s+", " ", v).strip()
        if v and v != alias and v not in out:
            out.append(v)
    return out[:limit]


# --------------------------------------------------------------------------------------------- the vocabulary

@dataclass
class Vocabulary:
    """dict[canonical, list[surface]] per slot type, plus what the normaliser and planners need to know."""
    system: dict[str, list[str]] = field(default_factory=dict)
    operation: dict[str, list[str]] = field(default_factory=dict)
    metric: dict[str, list[str]] = field(default_factory=dict)
    condition: dict[str, list[str]] = field(default_factory=dict)
    direction: dict[str, list[str]] = field(default_factory=dict)
    count_kind: dict[str, list[str]] = field(default_factory=dict)
    precision: dict[str, list[str]] = field(default_factory=dict)
    aggregate: dict[str, list[str]] = field(default_factory=dict)
    link_type: dict[str, list[str]] = field(default_factory=dict)
    component_kind: dict[str, list[str]] = field(default_factory=dict)
    endpoint: dict[str, list[str]] = field(default_factory=dict)
    library: dict[str, list[str]] = field(default_factory=dict)
    app: dict[str, list[str]] = field(default_factory=dict)
    # slot -> surface -> candidate canonicals: never resolved to one value
    ambiguous: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    # aggregate surfaces that are relative ("fastest" -> "better"): flipped for lower_is_better metrics
    aggregate_relative: dict[str, str] = field(default_factory=dict)
    lower_is_better: set[str] = field(default_factory=set)
    # (slot, surface) pairs that are spoken forms (as a transcript reads), the rest are written forms
    spoken: set[tuple[str, str]] = field(default_factory=set)
    # (slot, surface) pairs that are typed shorthand ("oop" for out-of-place): read in a typed question, but no
    # model learns them, nobody says them and the speech corrector never aims at them (surfaces() leaves them out)
    typed: set[tuple[str, str]] = field(default_factory=set)
    # (slot, canonical, surface) -> layer (0 catalog, 1 vocabulary.yaml, 2 extra yaml); ambiguity likewise
    layers: dict[tuple[str, str, str], int] = field(default_factory=dict, repr=False)
    ambiguous_layers: dict[tuple[str, str], int] = field(default_factory=dict, repr=False)

    def entries(self, slot: str) -> dict[str, list[str]]:
        return getattr(self, slot)

    def canonicals(self, slot: str) -> list[str]:
        return list(getattr(self, slot))

    def surfaces(self, slot: str, canonical: str, kind: str = "any") -> list[str]:
        """Surfaces of one value, hand-written layers first; kind "written", "spoken", "any" (both: what the
        models learn from and the speech side aims at) or "typed" (shorthand only the reader knows)."""
        out = sorted(getattr(self, slot).get(canonical, []),
                     key=lambda s: -self.layers.get((slot, canonical, s), BASE))
        if kind == "typed":
            return [s for s in out if (slot, s) in self.typed]
        out = [s for s in out if (slot, s) not in self.typed]
        if kind == "any":
            return out
        want = kind == "spoken"
        return [s for s in out if ((slot, s) in self.spoken) == want]

    def add(self, slot: str, canonical: str, surface: str, layer: int = EXTRA, spoken: bool = False,
            typed: bool = False) -> None:
        surface = str(surface).strip()
        canonical = str(canonical)
        if not surface:
            return
        lst = getattr(self, slot).setdefault(canonical, [])
        k = (slot, canonical, surface)
        if surface not in lst:
            lst.append(surface)
            self.layers[k] = layer
        else:
            self.layers[k] = max(layer, self.layers.get(k, layer))
        if spoken:
            self.spoken.add((slot, surface))
        if typed:
            self.typed.add((slot, surface))

    def remove_canonical(self, slot: str, canonical: str) -> None:
        for s in getattr(self, slot).pop(canonical, []):
            self.layers.pop((slot, canonical, s), None)

    def add_ambiguous(self, slot: str, surface: str, candidates: Iterable[str], layer: int = EXTRA) -> None:
        self.ambiguous.setdefault(slot, {})[str(surface)] = [str(c) for c in candidates]
        self.ambiguous_layers[(slot, str(surface))] = layer


def _as_surfaces(v: Any) -> tuple[list[str], list[str], list[str], bool]:
    """yaml entry -> (written, spoken, typed, replace)."""
    if v is None:
        return [], [], [], False
    if isinstance(v, (list, tuple)):
        return [str(x) for x in v], [], [], False
    if isinstance(v, str):
        return [v], [], [], False
    if isinstance(v, dict):
        return ([str(x) for x in v.get("written") or []], [str(x) for x in v.get("spoken") or []],
                [str(x) for x in v.get("typed") or []], bool(v.get("replace")))
    raise ValueError(f"vocabulary entry must be a list or a mapping, got {type(v).__name__}")


def _apply_yaml(vocab: Vocabulary, data: dict, layer: int) -> None:
    if not isinstance(data, dict):
        raise ValueError("vocabulary yaml must be a mapping of slot sections")
    unknown = set(data) - set(SECTIONS) - {"version", "ambiguous", "aggregate_relative", "lower_is_better"}
    if unknown:
        raise ValueError(f"unknown vocabulary sections: {sorted(unknown)} (known: {', '.join(SECTIONS)})")
    for slot in SECTIONS:
        for canonical, v in (data.get(slot) or {}).items():
            written, spoken, typed, replace = _as_surfaces(v)
            canonical = str(canonical)
            if replace:
                vocab.remove_canonical(slot, canonical)
            if canonical not in getattr(vocab, slot):
                getattr(vocab, slot)[canonical] = []
            for s in written:
                vocab.add(slot, canonical, s, layer)
            for s in spoken:
                vocab.add(slot, canonical, s, layer, spoken=True)
            for s in typed:
                vocab.add(slot, canonical, s, layer, typed=True)
    for slot, amb in (data.get("ambiguous") or {}).items():
        if slot not in SECTIONS:
            raise ValueError(f"ambiguous: unknown slot {slot!r}")
        for surface, cands in (amb or {}).items():
            vocab.add_ambiguous(slot, str(surface), cands or [], layer)
    rel = data.get("aggregate_relative") or {}
    for polarity in ("better", "worse"):
        for s in rel.get(polarity) or []:
            vocab.aggregate_relative[str(s)] = polarity
    vocab.lower_is_better |= {str(m) for m in data.get("lower_is_better") or []}


_GENERIC_APPS = {"all", "random", "real workloads", "irregular traffic"}


def _clean_name(name: str) -> str:
    name = re.sub(r"\([^)]*\)", " ", name)
    name = name.replace('"', " ").replace("“", " ").replace("”", " ")
    return re.sub(r"\s+", " ", name).strip(" ,;:")


def _apply_catalog(vocab: Vocabulary, catalog) -> None:
    for sid, info in sorted(catalog.systems.items()):
        if (info.kind or "") == "document" or sid.startswith("doc_"):
            continue
        vocab.add("system", sid, sid, CATALOG)
        for a in info.aliases or []:
            vocab.add("system", sid, a, CATALOG)
        if info.name:
            vocab.add("system", sid, _clean_name(info.name), CATALOG)
    for attr, slot in (("operations", "operation"), ("metrics", "metric"), ("conditions", "condition")):
        values = set()
        for vals in getattr(catalog, attr).values():
            values |= {v for v in vals if v}
        for v in sorted(values):
            vocab.add(slot, v, v, CATALOG)
            if "_" in v:
                vocab.add(slot, v, v.replace("_", " "), CATALOG)
    for a in sorted(catalog.apps or ()):
        if not a or a.lower() in _GENERIC_APPS or re.search(r"[|,()]", a) or len(a) > 40:
            continue
        vocab.add("app", a, a, CATALOG)
        if "_" in a:
            vocab.add("app", a, a.replace("_", " "), CATALOG)
    kinds = set()
    for cids in catalog.components.values():
        for cid in cids:
            m = re.match(r"^([a-z_]+?)_?(\d+)$", cid)
            if m:
                kinds.add(m.group(1))
    for k in sorted(kinds):
        vocab.add("component_kind", k, k, CATALOG)
        if "_" in k:
            vocab.add("component_kind", k, k.replace("_", " "), CATALOG)


def _add_generated(vocab: Vocabulary) -> None:
    """Spoken variants of every system and app surface (same layer as the surface they come from)."""
    for slot in ("system", "app"):
        for canonical, surfaces in getattr(vocab, slot).items():
            for s in list(surfaces):
                if ((slot, s) in vocab.spoken and not any(c.isdigit() for c in s)) or (slot, s) in vocab.typed:
                    continue
                layer = vocab.layers.get((slot, canonical, s), CATALOG)
                for v in spoken_variants(s):
                    if v not in surfaces:
                        vocab.add(slot, canonical, v, layer, spoken=True)


def load_vocabulary(extra_yaml: Optional[Path] = None, catalog=None) -> Vocabulary:
    """The vocabulary: vocabulary.yaml, extended by the database catalog (app.catalog.Catalog) when given, then
    `extra_yaml` (same format; adds aliases, `replace: true` replaces a value's surfaces, its `ambiguous`
    entries and aliases win over both other layers)."""
    vocab = Vocabulary()
    if catalog is not None:
        _apply_catalog(vocab, catalog)
    _apply_yaml(vocab, _read_yaml(VOCAB_YAML), BASE)
    if extra_yaml is not None:
        _apply_yaml(vocab, _read_yaml(Path(extra_yaml)), EXTRA)
    _add_generated(vocab)
    return vocab


def _read_yaml(path: Path) -> dict:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=loader) or {}


def catalog_from_db(db: Optional[Path] = None):
    """The catalog of a database file (read-only), or None when there is no database."""
    from app import paths
    from app.catalog import load
    db = Path(db) if db is not None else paths.default_db()
    if not db.exists():
        return None
    import duckdb
    con = duckdb.connect(str(db), read_only=True)
    try:
        return load(con)
    finally:
        con.close()


@lru_cache(maxsize=1)
def default_vocabulary() -> Vocabulary:
    """vocabulary.yaml plus the default database's catalog when that database exists."""
    return load_vocabulary(catalog=catalog_from_db())
