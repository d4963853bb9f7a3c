"""Question -> intent + canonical slots: tokenise (spaCy), tag and classify (the joint model),
normalise each tagged span (spaCy rules + vocabulary). The one place the NLU's parts meet."""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

import torch

from nlu import model as M
from nlu.pasted import read_pasted
from nlu.cues import (COMPLEMENTS, negated_condition, _ELLIPSES, _RATIO, _REFERENCE, _SIDE_BY_SIDE, ALL_COLLECTIVES, COLLECTIVE_OPS, LISTING,
                      GRID_OF_PAIRS, SIZE_OF_THE_EXTREME, SWITCHED_OFF, asks_advice, asks_setup,
                      ANY_SIZE, SIZE_WORD, CONDITION_LINK_TYPES, CONGESTION_CONDITIONS, GRAPH_MEASURES,
                      IDLE_WORDS, LOADED_AND_IDLE, LOADED_WORDS, MEMORY_BANDWIDTH, MEMORY_TIME, NOT_PER_PAIR, OF_PEAK,
                      RATE_SHARE, SIZE_END,
                      TRACE_MEASURES, TRACE_WORD, WORD_FAMILY, _count_range, apply_cues, count_series,
                      family_readings,
                      HOST_MEMORY_KINDS, _HOW_MUCH_SLOWER,
                      host_copy_direction, names_a_condition_pair, precision_readings, rates_against, spec_question,
                      verb_readings)
from nlu.gazetteer import SIZE_WORDS, spelled_device
from nlu.implied import (_LEADING_AGGREGATE, _MOVES_DATA, DEVICE_PREFIXES, MEASUREMENT_INTENTS, POINT_TO_POINT,
                         _max_flops, api_library, app_family, app_spelled_otherwise, change_metric, copy_bandwidth,
                         family_spans, implied_by_intent, infer_implicit, items_per_second, link_as_mode, only_system_note,
                         operation_family, unsaid_precision)
from nlu.normalize import FABRIC_WORDS, SIZE_UNITS
from nlu.ordinals import ordinal, ordinal_devices
from nlu.other_languages import in_english
from nlu.pseudo_code import plain_query
from nlu.spelled_out import short_forms
from nlu.formulas import named_measures
from nlu.framing import (EXCLUSION_MARKERS, pointed_back, without_check_request, without_data_says, without_excluded,
                         without_dummy_it, without_guessed_range, without_held_fixed, without_item_numbers,
                         without_open_list, without_partitive, without_unit_asked, without_yes_or_no)
from nlu.written_forms import (counted_collectives, multiplied_quantities, percent_sign_said, plain_scientific,
                               spelled_possessive, tool_flags, worth_of_data, written_forms)
from nlu.vocab import TEENS, UNITS, in_spelled_term, join_spelled, key

CONFIDENCE_FLOOR = 0.45  # below this the question is answered as out of scope


@dataclass
class Understanding:
    intent: str
    confidence: float
    slots: dict[str, Any]
    spans: list[tuple[str, str]] = field(default_factory=list)   # (slot, surface text) as tagged
    unresolved: list[tuple[str, str]] = field(default_factory=list)  # spans the normaliser could not map
    tokens: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    ms: float = 0.0
    notes: list[str] = field(default_factory=list)   # choices the reader made that the user should know
    # other values the question's own words allow for a slot the reader filled ("share of VASP's runtime":
    # metric time as read, share as well); the data decides between them when the reading finds nothing
    readings: dict[str, list[Any]] = field(default_factory=dict)
    ranked: list[tuple[str, float]] = field(default_factory=list)   # intents by probability, best first
    # set by the asker, not the reader: (intent first read, why the data could not answer it)
    note_as: Optional[tuple[str, str]] = None
    spelled: list[tuple[str, str]] = field(default_factory=list)   # (word as typed, word read) of each typo repaired
    # machines described but not named that a few systems fit ("the AMD machine": three): (words, system ids)
    described: list[tuple[str, list[str]]] = field(default_factory=list)
    # the question as typed without the reason given after it ("..., since we're choosing hardware") or what the
    # answer need not hold ("Leave out the chart."), for the phrase rules of the answer; None when it gave neither
    asked: Optional[str] = None


def decode_spans(tokens: list[str], tags: list[str]) -> list[tuple[str, str]]:
    return [(slot, " ".join(tokens[a:b])) for slot, a, b in span_bounds(tags)]


def span_bounds(tags: list[str]) -> list[tuple[str, int, int]]:
    """BIO tags -> (slot, first word, one past the last word); a stray I- starts a span."""
    spans: list[tuple[str, int, int]] = []
    cur, start = None, 0
    for i, tag in enumerate(tags):
        if tag.startswith("B-") or (tag.startswith("I-") and cur != tag[2:]):
            if cur:
                spans.append((cur, start, i))
            cur, start = tag[2:], i
        elif not (tag.startswith("I-") and cur == tag[2:]):
            if cur:
                spans.append((cur, start, i))
            cur = None
    if cur:
        spans.append((cur, start, len(tags)))
    return spans


_NUMBER_WORD = re.compile(r"^(\d+|zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                          r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|"
                          r"fifty|sixty|seventy|eighty|ninety|hundred|thousand)$")
_ENDS = ("src", "dst")
_GPU_MODEL = re.compile(r"^(v100|a100|h100|h200|p100|t4|k80|mi100|mi250x?|gh200|b200)s?$")
_COUNT_WORD = re.compile(r"^(gpus?|ipus?|nodes?|cores?|ranks?|tiles?)$")
# Slots whose tagged span may hold words that name another slot ("barrier time", "yme d2h").
_NAMING_SLOTS = ("system", "metric", "operation", "condition", "app", "library", "link_type")


_DEVICE_SPELLINGS = {"gpu", "ipu", "cpu"}   # "g p u", "i p u" as letters run together


def _has_number(word: str) -> bool:
    """"gpu15", not "gpu" or "15": a device id written with its number."""
    return any(c.isdigit() for c in word) and any(c.isalpha() for c in word)


_DEVICE_ID = re.compile(r"^(gpu|ipu|tile|core)\d+$")


def mend_endpoint_spans(bounds: list[tuple[str, int, int]], words: list[str], tags: list[str]
                        ) -> list[tuple[str, int, int]]:
    """Eight slips of the tagger around device numbers:
    - "tile six four six" tagged B-src I-src I-dst I-dst: a bare run of digits that continues an endpoint without
      a B- tag is the rest of its number (tile646), not a second endpoint;
    - "GPU 2" tagged as an endpoint "GPU" and a size or count "2": a bare number right after a device word that
      has none is its number;
    - "g p u two one direction": the "one" of "one direction" / "one way" is the direction, not a digit (gpu2);
    - "gpu15 1gpu" tagged as endpoints "gpu15 1" and "gpu" (or "gpu15", "1" and "gpu"): an id that has its
      number, then a count;
    - "i p u five" tagged as the system "i p u" and an endpoint "five": one spelled device;
    - "h200 gpu0" tagged as one system: the machine, then a device of it;
    - "ipus 1..16" tagged as an endpoint or a system "ipus 1": a plural device word before a range counts devices."""
    out: list[tuple[str, int, int]] = []
    taken = 0
    for slot, a, b in bounds:
        if a < taken:
            continue
        if (slot in _ENDS and b - a >= 2 and _has_number(words[a])
                and _NUMBER_WORD.match(words[b - 1].lower()) and b < len(words) and _COUNT_WORD.match(words[b].lower())):
            # "gpu15 | 1 gpu" tagged as one endpoint "gpu15 1" and another "gpu": the id, then a count
            out += [(slot, a, b - 1), ("count", b - 1, b + 1)]
            taken = b + 1
            continue
        if (out and slot in _ENDS and out[-1][0] in _ENDS and out[-1][2] == a and _has_number(words[a - 1])
                and all(_NUMBER_WORD.match(w.lower()) for w in words[a:b]) and b < len(words)
                and _COUNT_WORD.match(words[b].lower())):
            # "gpu15 | 1 | gpu" tagged as an endpoint, the rest of one and another: the id has its number, so
            # the number and the device word after it are a count
            out.append(("count", a, b + 1))
            taken = b + 1
            continue
        if (out and slot in _ENDS and out[-1][0] in _ENDS and out[-1][2] == a and tags[a].startswith("I-")
                and all(_NUMBER_WORD.match(w.lower()) for w in words[a:b])):
            out[-1] = (out[-1][0], out[-1][1], b)
            continue
        if (out and slot in _ENDS and out[-1][0] == "system" and out[-1][2] == a
                and "".join(w.lower() for w in words[out[-1][1]:a]) in _DEVICE_SPELLINGS
                and all(_NUMBER_WORD.match(w.lower()) for w in words[a:b])):
            # "i p u | five" tagged as the system "i p u" and an endpoint "five": a spelled device and its number
            out[-1] = (slot, out[-1][1], b)
            continue
        if (out and slot in ("msg_bytes", "count") and out[-1][0] in _ENDS and out[-1][2] == a
                and not any(c.isdigit() for w in words[out[-1][1]:a] for c in w)
                and all(_NUMBER_WORD.match(w.lower()) for w in words[a:b])):
            out[-1] = (out[-1][0], out[-1][1], b)   # "GPU | 2" tagged as a device and a bare size: GPU 2
            continue
        if slot == "system" and b - a >= 2 and _DEVICE_ID.match(words[b - 1].lower()) \
                and not _DEVICE_ID.match(words[a].lower()):
            # "h200 gpu0 local d2d copy" tagged as one system "h200 gpu0": the machine, then its device
            out += [("system", a, b - 1), ("src", b - 1, b)]
            taken = b
            continue
        if slot in (*_ENDS, "system") and _counts_a_range(words, a, b):
            continue   # "reduce latency vs ipus 1..16": counts of IPUs from 1 to 16, not the device IPU1
        if (slot in _ENDS and b - a > 1 and words[b - 1].lower() == "one" and b < len(words)
                and words[b].lower() in ("direction", "directional", "way")):
            b -= 1
        out.append((slot, a, b))
    return out


# number words inside a program's name as the speech model writes them ("speech two text")
_DIGITS = {w: str(n) for w, n in {**UNITS, **TEENS}.items() if 1 <= n <= 10}
_DIGIT_WORD = re.compile(r"\b(" + "|".join(_DIGITS) + r")\b")


def _joined_app(said: str, app: Any, apps) -> Optional[str]:
    """The stored app named "A+B" ("wav2vec+jointbert") where the question names A and B joined by "with", "and",
    "plus" or "+" (spelled or spaced as the speech model writes them), and any app the tagger read is one of the
    two; None otherwise."""
    squashed = re.sub(r"[\s'’-]+", "", _DIGIT_WORD.sub(lambda m: _DIGITS[m.group(1)], said.lower()))
    for name in apps:
        parts = name.lower().split("+")
        if len(parts) == 2 and all(parts) and (app is None or str(app).lower() in parts + [name.lower()]) \
                and re.search(re.escape(parts[0]) + r"(with|and|plus|\+|&)" + re.escape(parts[1]), squashed):
            return name
    return None


def _counts_a_range(words: list[str], a: int, b: int) -> bool:
    """words[a:b] is "ipus 1" before "..16", or the whole "gpus 2 .. 16": a plural device word, then a range."""
    def joined(i: int) -> bool:
        return i + 1 < len(words) and words[i].lower() in _DEVICE_RANGE_JOIN and words[i + 1].isdigit()
    if not (_PLURAL_DEVICE.match(words[a].lower()) and a + 1 < len(words) and words[a + 1].isdigit()):
        return False
    return (b - a == 2 and joined(b)) or (b - a == 4 and joined(a + 2))


_PLURAL_DEVICE = re.compile(r"^(gpu|ipu|tile|node|core|rank)s$")
_DEVICE_RANGE_JOIN = {"..", "...", "to", "-", "through", "thru", "->"}


class NLU:
    def __init__(self, model_dir: Path, catalog=None, extra_vocab: Optional[Path] = None, threads: int = 1,
                 int8: bool = True):
        from nlu.gazetteer import Gazetteer
        from nlu.normalize import Normalizer
        from nlu.vocab import load_vocabulary
        torch.set_num_threads(threads)  # single short sequences: one thread is fastest and steadiest
        from nlu import onnx_runtime
        self.backend = onnx_runtime.backend()  # HPCASK_NLU_BACKEND=torch|onnx; ONNX Runtime when installed
        if self.backend == "onnx":  # same logits as torch, a few times faster (nlu/onnx_runtime.py)
            self.model, self.tok, self.labels = onnx_runtime.load(model_dir, int8=int8, threads=threads)
        else:
            self.model, self.tok, self.labels = M.load(model_dir)
        if int8 and self.backend == "torch":  # int8 linear layers: faster on a laptop CPU (bench/nlu.py)
            import warnings
            with warnings.catch_warnings():  # torch.ao's eager API is deprecated upstream but current in our pin
                warnings.simplefilter("ignore")
                self.model = torch.ao.quantization.quantize_dynamic(self.model, {torch.nn.Linear},
                                                                    dtype=torch.qint8)
        self.vocab = load_vocabulary(extra_vocab, catalog=catalog)
        self.norm = Normalizer(self.vocab)
        self.gazetteer = Gazetteer(self.norm)
        from nlu.ambiguity import SystemResolver
        self.systems = SystemResolver(self.vocab, parts=getattr(catalog, "part_words", None))
        from nlu.spelling import Speller, english_words, lexicon_words, vocabulary_pairs
        self.speller = Speller(lexicon_words(self.vocab), english_words(self.tok), vocabulary_pairs(self.vocab))
        self.shorthand = typed_shorthand(self.vocab)
        self.system_words = system_words(self.vocab)
        self.split_names = split_names(self.vocab)
        self.endpoints = frozenset(c for comps in getattr(catalog, "components", {}).values() for c in comps)
        # the names of benchmarks and operations stored, lower case ("md5hash"): what letters spelled out with a
        # number ("m d five") may begin
        self.bench_names = frozenset(
            [v for (k, v) in getattr(catalog, "owners", {}) if k == "app"]
            + [o.lower() for ops in getattr(catalog, "operations", {}).values() for o in ops])
        from nlu.described import DescribedMachines
        known = getattr(catalog, "systems", {})
        self.described = DescribedMachines.build(getattr(catalog, "about", {}), {s: i.name for s, i in known.items()},
                                                 self.vocab.ambiguous.get("system") or {},
                                                 {s: i.kind for s, i in known.items()},
                                                 {s: " ".join([s, i.name, *i.aliases]) for s, i in known.items()})
        self.catalog = catalog
        with torch.inference_mode():  # warm up
            self._infer(["warm", "up"])

    @torch.inference_mode()
    def _infer(self, words: list[str]) -> tuple[str, float, list[str], list[list[float]], list[float]]:
        enc, firsts = M.encode_words(self.tok, [words])
        li, ls = self.model(enc["input_ids"], enc["attention_mask"])
        probs = torch.softmax(li[0], -1)
        conf, idx = float(probs.max()), int(probs.argmax())
        tag_probs = torch.softmax(ls[0][firsts[0]], -1)
        tags = [self.labels["tags"][j] for j in tag_probs.argmax(-1).tolist()]
        tags += ["O"] * (len(words) - len(tags))  # words past max_len
        return self.labels["intents"][idx], conf, tags, tag_probs.tolist(), probs.tolist()

    def _widen(self, words: list[str], slot: str, value: Any, a: int, b: int, covered: set[int]):
        """A span cut one word short ("all | gather" tagged as "gather") names something else than the
        whole phrase: take a neighbouring untagged word when the longer phrase is itself a vocabulary entry."""
        index = self.gazetteer.index.get(slot)
        if index is None:
            return a, b, value
        for na, nb in ((a - 1, b), (a, b + 1), (a - 2, b), (a, b + 2)):
            if na < 0 or nb > len(words) or any(i in covered for i in range(na, nb)):
                continue
            k = key(" ".join(words[na:nb]))
            e = index.get(k) or (index.get(k[:-1]) if nb > b and k.endswith("s") and len(k) > 4 else None)
            if e is not None and e.value is not None and e.value != value:
                return na, nb, e.value      # "annealing | steps": the plural of a longer name too
        if slot == "metric" and b - a > 1 and a > 0 and (a - 1) not in covered \
                and any(c.isalnum() for c in words[a]):   # "memory | - access latency": a hyphen joins, no name
            # "bus | bandwidth level off": the tagger began the metric a word late and ran it into the verb;
            # the word before and the first word are the name ("bus bandwidth"), the rest names nothing
            e = index.get(key(" ".join(words[a - 1:a + 1])))
            first = index.get(key(words[a]))
            if e is not None and e.value is not None and e.value != value \
                    and (first is None or first.value != e.value) \
                    and index.get(key(" ".join(words[a + 1:b]))) is None:   # "the speed" is no other name than "speed"
                return a - 1, a + 1, e.value
        return a, b, value

    def _named_words(self, words: list[str], cands, slot: str, value: Any, a: int, b: int) -> "range | list[int]":
        """The words of a tagged span that actually name its value: "yme d2h" tagged as one system span
        names the system with "yme" only, so "d2h" stays free for the vocabulary to read as an operation.
        "barrier time" tagged as one metric span names the metric with "time": "barrier", which the
        vocabulary reads as an operation, is left free when the other words alone still give the value.
        `cands` are the question's vocabulary windows (Gazetteer.candidates), computed once per question."""
        if slot not in _NAMING_SLOTS:
            return range(a, b)
        other = {i for s, e, found in cands if a <= s and e <= b and slot not in found
                 and any(k in _NAMING_SLOTS for k in found) for i in range(s, e)}
        if slot == "system" and other and all(a < i < b - 1 and words[i].lower() in FABRIC_WORDS for i in other):
            # "the in-house InfiniBand cluster": the fabric describes the cluster it names (though "in-house" alone
            # names it too)
            return range(a, b)
        inner = [(s, e) for s, e, found in cands if a <= s and e <= b and found.get(slot) == value]
        if inner:
            s, e = max(inner, key=lambda se: se[1] - se[0])
            return range(s, e)
        rest = [i for i in range(a, b) if i not in other]
        if other and rest and self.norm.value(slot, " ".join(words[i] for i in rest)) == value:
            return rest
        return range(a, b)

    def _stores(self, slots: dict[str, Any]) -> Optional[Callable[[str], int]]:
        """How many of the question's operation and metric a system has measured (for the ambiguity resolver)."""
        cat = self.catalog
        if cat is None or not (slots.get("operation") or slots.get("metric") or slots.get("app")):
            return None
        # "GEMM TFLOPS ... the V100": an app the tagger read may be an operation the data stores by that name;
        # "which runs SU3_Bench faster, the Xeon Platinum 8280 or PIUMA": the one of two Xeon 8280s that ran it
        app = str(slots.get("app") or "").lower()
        ops = {slots.get("operation"), app} - {None, ""}
        return lambda sid: bool(ops & cat.operations.get(sid, set())) + \
            (slots.get("metric") in cat.metrics.get(sid, ())) + bool(app and app in cat.app_ops.get(sid, {}))

    def _without_p2p(self, slots: dict[str, Any]) -> bool:
        """Whether the question's system is known to store no transfer between two devices."""
        sid = slots.get("system")
        return self.catalog is not None and isinstance(sid, str) and sid in self.catalog.operations \
            and "p2p" not in self.catalog.operations[sid]

    def _has_parts(self, slots: dict[str, Any]) -> bool:
        """Whether the question's system has stored parts (False when that cannot be known)."""
        return self.catalog is not None and bool(self.catalog.components.get(str(slots.get("system"))))

    def _owners(self, slots: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
        """The measured systems (no document buckets) whose rows hold every value of `keys` the slots name, in the
        catalog's order ([] when the slots name none of them)."""
        cat = self.catalog
        held = {"operation": cat.operations, "metric": cat.metrics, "condition": cat.conditions, "app": cat.app_ops}
        named = {k: slots[k].lower() if k == "app" else slots[k] for k in keys if isinstance(slots.get(k), str)}
        if not named:
            return []
        return [sid for sid, info in cat.systems.items() if info.kind != "document"
                and all(v in held[k].get(sid, ()) for k, v in named.items())]   # (app_ops keys are lower case)

    def _only_owner(self, slots: dict[str, Any]) -> Optional[str]:
        """The one system whose rows hold the operation and metric named (None when several or none do, or when
        nothing measured is named)."""
        if self.catalog is None or slots.get("app"):
            return None
        owners = self._owners(slots, ("operation", "metric"))
        return owners[0] if len(owners) == 1 else None

    def _names_system(self, words: list[str]) -> bool:
        """Whether the words name a loaded system (a clause before or after the question that does is kept)."""
        return any("system" in f for _, _, f in self.gazetteer.candidates(words))

    def _program_named(self, words: list[str], cands: list, slots: dict[str, Any]) -> Optional[str]:
        """"yme busspeeddownload host to gpu2": SHOC's program said by its own name, which the vocabulary also reads
        as its operation (h2d); where other programs measured that operation on the machine too (Scope's copies),
        the program named is kept, so the lookup answers with its rows. None where the name is only an operation's
        word, or no other program shares the operation."""
        op, sid = slots.get("operation"), slots.get("system")
        if not isinstance(op, str) or not isinstance(sid, str):
            return None
        stored = self.catalog.app_ops.get(sid, {})
        for a, b, found in cands:
            app = found.get("app")
            if found.get("operation") != op or not isinstance(app, str) or key(" ".join(words[a:b])) != key(app):
                continue
            if op in stored.get(app.lower(), set()) and any(op in ops for other, ops in stored.items()
                                                            if other != app.lower()):
                return app
        return None

    def _parts_of_kind(self, sid: str, kind: str) -> int:
        """How many parts of one kind ("gpu") the system's connection graph holds."""
        return sum(1 for p in self.catalog.parts.get(sid, {}).values() if p.get("kind") == kind)

    def _model_of(self, systems: list[str], model: str) -> bool:
        """Whether a GPU model word ("V100") is the model of a named system's parts (or, with no catalog, assumed so)."""
        if self.catalog is None:
            return True
        return any(model.lower() in self.catalog.part_words.get(sid, set()) for sid in systems)

    def _has_links(self, slots: dict[str, Any]) -> bool:
        """Whether the question's system has a stored link graph (True when that cannot be known)."""
        info = self.catalog.systems.get(str(slots.get("system"))) if self.catalog is not None else None
        return info is None or bool(info.n_links)

    def _shown_rewrite(self, said: str) -> str:
        """A rewritten phrase as the notes show it: a described machine by its name ("Grid'5000 Chifflet"), also with
        the processors counted after it ("Frontera Liquid (TACC) gpus"); any other rewrite as written."""
        head, _, rest = said.partition(" ")
        if head in self.described.names and (not rest or rest in ("gpus", "gpu", "cards")):
            return " ".join([self.described.names[head], *([rest] if rest else [])])
        return said

    def understand(self, text: str) -> Understanding:
        from nlu.tokens import tokenize
        t0 = time.perf_counter()
        # "lookup(system='ipu16', metric='clock')", "SELECT busbw FROM h200 WHERE ...": a question written as code,
        # read as the words it stands for (never run)
        code = plain_query(text)
        typed = [t.text for t in tokenize(code or text)]
        # "`1048576 262144 float none -1 16.78 ...` out-of-place time?": a pasted line of output read as output
        typed, pasted, pasted_kinds = read_pasted(typed, text, lambda w: any(
            {"app", "system", "library"} & f.keys() for _, _, f in self.gazetteer.candidates([w])))
        foreign = typed
        typed = in_english(typed)   # "Skalierung über die GPU-Anzahl", "latencia": another language's key words
        words = self.speller.fix(typed)
        spelled = list(dict.fromkeys((a, b) for a, b in zip(typed, words) if a != b))
        # typed shorthand no model learnt ("oop") is read as the vocabulary writes it ("out-of-place"), as a typo
        # is read as the word meant
        words = [x for i, w in enumerate(words) for x in (
            self.shorthand[w.lower()] if w.lower() in self.shorthand and not (
                i + 1 < len(words) and self.norm.named("app", f"{w}{words[i + 1]}"))
            else [w])]   # "RS Bench" is RSBench, not the reduce-scatter shorthand with a bench
        context = past_question(words, self._names_system)
        words = words[len(context):]    # "I asked about all-reduce before; now ...": context, not this question
        if not context:
            words, context = known_first(words, self.gazetteer.candidates)
        framed: list[str] = []
        words, form = without_yes_or_no(words)   # "Yes or no: is GPU0 joined to GPU3 ...": what settles it is asked
        if form:
            framed.append(f"“{' '.join(form)}”: the answer below settles it")
        words = without_item_numbers(words)[0]   # "give me 1) the FP32 MaxFlops and 2) ...": no GPU 1 or 2
        words, unit_frame = without_unit_asked(words)   # "what unit does the database use for X": X, with its unit
        words, check = without_check_request(words)   # "please double check the growth of ...": the growth asked
        words = without_data_says(words, self.gazetteer.candidates)[0]   # "what does the data show for X": X asked
        words = without_held_fixed(words)[0]   # "with the GPU count fixed at 2, ...": on 2 GPUs, said plainly
        words = without_dummy_it(words)   # "how long does it take GPU15 to copy ...": how long GPU15 takes to copy
        words = without_partitive(words)   # "which of the GPU pairs on Yme gives ...": which GPU pair gives
        words = without_open_list(words)   # "at 1 MiB, 2 MiB, 4 MiB etc": across message sizes
        if check:
            framed.append(f"“{' '.join(check)}”: the stored figures below, as loaded")
        if unit_frame:
            framed.append("the unit asked for is given with the value")
        words, guess = without_guessed_range(words)   # "..., somewhere between 300 and 350 GB/s?": the asker's guess
        if guess:
            framed.append(f"“{' '.join(guess)}” read as your guess, not as part of the question")
        words, pointed = pointed_back(words, self.gazetteer.candidates)   # "of Lassen and Summit, ... the former"
        if pointed:
            framed.append(f"read “the former/latter” as {pointed}")
        words, task = without_writing_task(words)   # "draft a bullet for my slides on ...": the question inside
        words, reason = without_reason(words, self._names_system)
        words, presented = without_answer_shape(words)   # "... ? Leave out the chart.": how to answer, not what
        words = without_interjection(words)   # "whoa, show me ...": a feeling, no word of the question
        words = without_memory_opener(words)   # "remind me, which systems ...": the asker's memory, not the question
        words = without_rounding(words)   # "..., 3 significant figures": how to print it, no count of GPUs
        words = without_i_mean(words)    # "speedup as cores go up i mean single precision": no "UPI" in "up i"
        words = misheard(words, self._names_system)   # "the Titan NVLink mode bandwidth of Yme": Tartan's
        words, cited = without_citation(words)   # "(Table 4.2)": where a number is printed, not a machine's name
        words = tool_flags(words)   # "all_gather_perf -g 1 vs -g 2": the flags said as the tool takes them
        words, restart = restarted(words)   # "... ? no sorry, what temperature is stored for ...": asked again
        # "the DGX-2 GPUs other than GPU0", "except 2 gpus": an item taken out is no value of the question
        words, left_out = without_excluded(words, self.gazetteer.candidates)
        if left_out:
            framed.append(f"“{' '.join(left_out)}” read as left out: the answer below is not narrowed by it")
        heard = words
        words = ordinal_devices(words)   # "the third GPU" is GPU2: ids count from zero, people from one
        words = written_forms(words)     # "1 048 576-byte", "~64MB", "cuda:0", "GPU #3" as the tools write them
        words = worth_of_data(words, SIZE_UNITS)   # "a kilobyte's worth of data": the size "a kilobyte"
        words = spelled_possessive(words)   # "the d g x twos scope ...": the DGX-2's
        long_said = words
        words = short_forms(words)       # "Intelligence Processing Unit", "message digest five": IPU, MD5Hash
        words = named_measures(words)    # "algbw x 2(n-1)/n", "size divided by the elapsed time": busbw, algbw
        # ... read by the answer's phrase rules too (app.ask repairs the question with `spelled`), hyphens as typed
        spelled += [(a.replace(" - ", "-"), b) for a, b in rewritten(long_said, words)]
        words = join_split_names(words, self.split_names)
        words = spelled_bench_names(words, self.bench_names, self.norm.number)   # "m d five hashing": MD5
        words = unglue_names(words, self.system_words)
        # "the Power9 box with only two V100s" is the Mini Summit: a machine described by what is in it
        words, described, open_descriptions = self.described.rewrite(
            words, self.norm.number, lambda t: bool(self.norm.value("system", t)))
        # "the NTNU desktops", "the TACC clusters": machines called by what they share, set side by side below
        plural_groups = self.described.groups(words, self.norm.number)
        words = family_with_model(words, lambda t: self.norm.value("system", t))
        if self.catalog is not None:
            words = join_split_endpoints(words, self.endpoints)
        words = four_before_a_size(words, self.norm.size_bytes)
        words = plain_scientific(words)   # "from 4e5 to 2.58e8 bytes": numbers as the range reader reads them
        words = percent_sign_said(words)   # "titan rtx gpu fan %": the fan's percentage
        words = unit_of_a_range(words, self.norm.size_bytes)   # "1 to 256 MB": both ends in megabytes
        words = fraction_of_a_unit(words, self.norm.size_bytes)   # "half a gibibyte": 536870912 bytes
        words = four_before_an_operation(words, self.norm)
        words = link_run_into_size(words, self.norm.size_bytes)
        words = part_number_pause(words, self.norm.size_bytes)
        if self.catalog is not None:
            words = number_run_into_size(words, self.norm.size_bytes, self.endpoints)
        words = hyphenated_ends(words)
        words = toward_as_to(words)
        words = spoken_compound_numbers(words, self.norm.number)
        words = counted_collectives(words)   # "on a pair of GPUs", "up to a dozen": how many devices ran
        words = multiplied_quantities(words, self.norm.number)   # "at twice 512 MiB": 1024 MiB
        words = plain_comparatives(words)
        words = collective_verbs(words)   # "broadcasting 128 MB", "all-reducing": the collective as its name
        # "at one megabyte sorry one gigabyte", "gpu one no wait gpu zero": a value the speaker took back is not read
        words, taken = taken_back(words, self.gazetteer.candidates)
        taken = ([restart] if restart else []) + taken
        # said in the answer's notes, like the speech corrector's changes (a described machine by its name)
        mended = [(a, self._shown_rewrite(b)) for a, b in rewritten(heard, words) if (a, b) not in (("–", "-"), ("—", "-"))]
        if code:
            mended.insert(0, (text.strip(), code))
        mended[:0] = rewritten(foreign, typed)
        if not words:
            return Understanding("out_of_scope", 1.0, {}, ms=0.0)
        intent, conf, tags, tag_probs, intent_probs = self._infer(words)
        model_conf = conf   # how sure the model was of its own reading: a rule whose words settle the intent keeps it
        cands = self.gazetteer.candidates(words)
        # "the double-NVLink pairs", "the single hop latency": one or two of something, not a precision
        link_counts = {i for i in range(len(words)) if _counts_links(words, i)
                       or (i + 1 < len(words) and _ONE_OF.match(f"{words[i]} {words[i + 1]}"))
                       or _as_a_verb(words, i)}
        if link_counts:
            cands = [c for c in cands if not ("precision" in c[2] and link_counts.intersection(range(c[0], c[1])))]
        tags = stray_joiners(measure_ending_in_a_count_word(repair_tags(tags, cands), cands), words)
        bounds = mend_endpoint_spans(span_bounds(tags), words, tags)
        spans = [(slot, " ".join(words[a:b])) for slot, a, b in bounds]
        slots: dict[str, Any] = {}
        unresolved: list[tuple[str, str, int, int]] = []
        systems: list[str] = []
        sys_spans: list[tuple[int, int, str]] = []
        covered: set[int] = set()
        agg_surface = ""
        read_count = False
        consumed: set[int] = set()
        op_spans: list[tuple[int, int]] = []
        lib_end: Optional[int] = None   # where the first library named ends
        app_spans: list[tuple[int, int]] = []   # "gemm time": a plain metric word may follow an app too
        gpu_model_at: set[int] = set()
        for slot, a, b in bounds:
            if consumed.issuperset(range(a, b)):
                continue
            surface = " ".join(words[a:b])
            if slot in ("msg_bytes", "count") and _bare_number(words[a:b]) and (
                    _counts_hops(words, b) or _matrix_shape(words, a, b)):
                continue                      # "2 off-chip hops", "16 by 16": no size, no count of devices
            if slot in ("msg_bytes", "count", "system", "dst", "src") and _bare_number(words[a:b]) and a > 0 \
                    and words[a - 1].lower() in ("rank", "ranks"):
                continue                      # "on rank one": a rank of a trace, read by its planner
            if slot == "precision" and b - a == 1 and a in link_counts:
                covered.add(a)
                continue                      # "the double-NVLink pairs": two links, not double precision
            if slot == "link_type" and _conceded(words, a):
                # "Although the Titan RTX card has NVLink connectors, what links does the desktop's GPU use?": the
                # link granted before the question is not the one asked about
                covered.update(range(a, b))
                consumed.update(range(a, b))
                continue
            if _contrasted(words, a) and (slot == "link_type" or slot in _CONTRASTED_SLOTS and any(
                    s2 == slot and a2 != a for s2, a2, _ in bounds) or slot == "condition" and self.norm.value(
                    "condition", " ".join(words[a:b])) in CONDITION_LINK_TYPES):
                # "what efficiency does the PCIe path reach, not NVLink", "the bandwidth, not the time": the value
                # set aside is not asked for (a link set aside, whatever else names the link, also as the mode its
                # copies ran in: "the NVLink connections, not the PCIe ones")
                covered.update(range(a, b))
                consumed.update(range(a, b))
                continue
            # "bandwidth, 2 GPU 5 and GPU12", with "GPU" in the count's span or not: a numbered GPU is no count
            if slot == "count" and b - a in (1, 2) and _bare_number(words[a:a + 1]) and a + 2 < len(words) \
                    and words[a + 2].isdigit() \
                    and self.norm.endpoint(f"{words[a + 1]} {words[a + 2]}") in self.endpoints:
                continue
            if slot == "msg_bytes" and _bare_number(words[a:b]) and a >= 2 and words[a - 1].lower() in ("to", "and") \
                    and (self.norm.count_and_kind(words[a - 2])[1] or spelled_device(words, a - 4)):
                continue                      # "scale from one i p u to two": the far end of a range of counts
            if slot in ("msg_bytes", "count") and _bare_number(words[a:b]) and b < len(words) \
                    and _FIGURE_UNIT.match(words[b]):
                continue                      # "at 100 TFLOP/s", "300 W": a figure said with its unit, no size
            if slot in ("msg_bytes", "count") and b - a == 1 and re.fullmatch(r"\d+\.\d+", words[a]):
                continue                      # "the Titan RTX at 16.3": a figure with a fraction, no size or count
            if slot in ("msg_bytes", "count") and b - a == 1 and words[a].lower() == "one" and a >= 1 and (
                    words[a - 1].lower() in ("the", "that", "this", "which") or a >= 2 and words[a - 1].isalpha()
                    and words[a - 2].lower() in ("the", "that", "this") and not self.norm.count_and_kind(
                        words[a - 1])[1]) and not (b < len(words) and self.norm.count_and_kind(words[b])[1]):
                continue                      # "the H200 trace (the longer one)": a pronoun, no size or count
            if slot == "msg_bytes" and _bare_number(words[a:b]) and b + 2 < len(words) \
                    and words[b] in (*_ELLIPSES, "to", "-", "->") and words[b + 1].isdigit() \
                    and self.norm.count_and_kind(words[b + 2])[1]:
                continue                      # "1..1216 tiles": the first end of a range of counts, no size
            if slot == "system" and b - a >= 2 and "count" not in slots and _bare_number(words[b - 2:b - 1]) \
                    and words[b - 1].lower() in ("gpus", "ipus", "nodes") and not self.norm.value(
                        "system", " ".join(words[a:b])):
                # "yme h2d bw 4 gpus": a count at the end of words tagged as a name that names nothing ("Yme (4
                # GPUs)" is the machine's own description) counts devices
                n, kind = self.norm.count_and_kind(" ".join(words[b - 2:b]))
                if isinstance(n, int) and kind:
                    slots["count"], slots["count_kind"] = n, kind
                    covered.update(range(b - 2, b))
                    b -= 2
                    if b == a:
                        continue
                    surface = " ".join(words[a:b])
            if slot == "system" and b - a >= 2 and _bare_number(words[a:a + 1]) and a > 0 \
                    and re.fullmatch(r"[A-Za-z]{1,3}\d{1,4}s", words[a + 1]) and "count" not in slots \
                    and words[a - 1].lower() in _COUNTED_AFTER and isinstance(self.norm.number(words[a]), int):
                # "64 h200s" tagged as one name: the number counts the GPUs the name's model stands for
                slots["count"], slots["count_kind"] = self.norm.number(words[a]), "gpus"
                covered.add(a)
                a += 1
                surface = " ".join(words[a:b])
            if slot in ("msg_bytes", "count") and _bare_number(words[a:b]) and b < len(words) \
                    and re.fullmatch(r"[A-Za-z]{1,3}\d{1,4}s", words[b]):
                n = self.norm.number(" ".join(words[a:b]))
                if isinstance(n, int) and "count" not in slots and a > 0 and words[a - 1].lower() in _COUNTED_AFTER:
                    # "the allreduce time for 64 h200s", "on eight V100s": GPUs counted by their model
                    slots["count"], slots["count_kind"] = n, "gpus"
                    covered.update(range(a, b))
                continue                      # "ThetaGPU's eight A100s": the GPUs a machine has, no size
            if slot in ("msg_bytes", "count") and b - a == 1 and _bare_number(words[a:b]) and a > 0 and any(
                    self.norm.named_whole(sl, f"{words[a - 1]} {words[a]}") for sl in ("library", "app")):
                covered.add(a)
                continue                      # "with ExaHyPE 2": the number ends the library's name, no size
            if slot in ("msg_bytes", "count", "top_n") and _bare_number(words[a:b]) and a > 0 \
                    and words[a - 1].lower().rstrip(".") in _DOCUMENT_PARTS:
                continue                      # "Listing 30 in the report", "Table 5.1": where a number is printed
            if slot in ("msg_bytes", "count") and _bare_number(words[a:b]) and _STEPS.match(
                    " ".join(w.lower() for w in words[b:b + 2])):
                continue                      # "the 40-step trace", "100 iterations": how long a run was, no size
            if slot in ("msg_bytes", "count") and _bare_number(words[a:b]) and b < len(words) and (
                    _OTHER_UNIT.fullmatch(words[b].lower()) or _NO_QUANTITY.fullmatch(words[b].lower())
                    or words[b].lower() in _FACTOR_WORDS):
                # a number with a unit of its own ("clocks to 1500 MHz", "a 300 W cap"), of something not measured
                # ("VASP under congestion: one number?") or a factor ("more than 5x its idle latency")
                continue
            if slot == "msg_bytes" and b - a >= 2 and _bare_number(words[a:a + 1]) \
                    and _GPU_MODEL.match(words[b - 1].lower()):
                continue                      # "from 1 to 4 T4 GPUs": four T4s, not four terabytes
            if slot == "msg_bytes" and len(words[a:b]) == 2 and _bare_number(words[a:a + 1]) \
                    and words[b - 1].lower() == "of" and b + 1 < len(words) and _bare_number(words[b:b + 1]) \
                    and _RATE_WORD.fullmatch(words[b + 1]):
                continue                      # "only 783 of 900 GB/s": a share of a rate, no size
            if slot == "msg_bytes" and _bare_number(words[a:b]) and any(
                    sl == "msg_bytes" and (s2, e2) != (a, b) and not _bare_number(words[s2:e2])
                    for sl, s2, e2 in bounds):
                continue                      # "just one: 4 KB": the size is the one said with its unit
            if slot == "msg_bytes" and _per_second(words, b):
                covered.update(range(a, b))   # (nor is it read again from the vocabulary below)
                continue                      # "327 gigabytes per second of bus bandwidth": a rate, no size
            if slot in ("msg_bytes", "count") and _bare_number(words[a:b]) and spelled_device(words, b):
                n = self.norm.number(" ".join(words[a:b]))
                if isinstance(n, int) and "count" not in slots:
                    # "at 2048 g p us": a number before a spelled-out device counts devices (the "g" is no GiB)
                    slots["count"] = n
                    slots["count_kind"] = "gpus" if words[b].lower() == "g" else "ipus"
                    covered.update(range(a, b + 3))
                    consumed.update(range(b, b + 3))
                    continue
            if slot == "msg_bytes" and b - a >= 3 and b < len(words) and "count" not in slots \
                    and _bare_number(words[b - 1:b]) and not _bare_number(words[a:b - 1]) \
                    and self.norm.count_and_kind(words[b])[1]:
                n = self.norm.number(words[b - 1])
                if isinstance(n, int):
                    # "yme allreduce 16MB 4 ranks time": the size's span ran on into the count said after it
                    slots["count"], slots["count_kind"] = n, self.norm.count_and_kind(words[b])[1]
                    covered.update(range(b - 1, b + 1))
                    consumed.add(b)
                    b -= 1
                    surface = " ".join(words[a:b])
            if slot == "msg_bytes" and b < len(words) and _bare_number(words[a:b]) \
                    and self.norm.count_and_kind(words[b])[1]:
                slot, b = "count", b + 1      # "on 2048 GPUs": a bare number before a count word counts them
                surface = " ".join(words[a:b])
                consumed.add(b - 1)
            if slot == "msg_bytes" and _bare_number(words[a:b]) and b < len(words) and words[b].isalpha() \
                    and self.norm.size_bytes(" ".join(words[a:b + 1])) not in (None, self.norm.number(surface)):
                b += 1                        # "512 m-out-of-place": the unit letter tagged with the next phrase
                surface = " ".join(words[a:b])
                consumed.add(b - 1)
            if slot == "count" and _bare_number(words[a:b]) and b < len(words) \
                    and self.norm.count_and_kind(words[b])[1] is None and not spelled_device(words, b) \
                    and not _GPU_MODEL.match(words[b].lower()) \
                    and self.norm.size_bytes(" ".join(words[a:b + 1])) not in (None, self.norm.number(surface)):
                slot, b = "msg_bytes", b + 1  # "1 GiB" tagged as a count and a count kind is one size
                surface = " ".join(words[a:b])
                consumed.add(b - 1)
            if slot == "precision" and b - a >= 2 and (self.norm.named("app", words[b - 1])
                                                        or self.norm.named("operation", words[b - 1])) \
                    and self.norm.value("precision", " ".join(words[a:b - 1])) is not None:
                b -= 1                        # "double-precision FFT": the precision, then the code it ran
                surface = " ".join(words[a:b])
            if slot == "count_kind" and "count" not in slots and any(
                    s <= a and b <= e and "condition" in found for s, e, found in cands):
                continue                      # "tensor cores" names a condition, not what is counted
            if slot == "metric" and any(s <= a and b <= e and e - s > b - a and "condition" in found
                                        and "metric" not in found for s, e, found in cands):
                continue                      # "unified memory latency": "memory" is a word of the condition
            if slot == "system" and _bare_number(words[a:b]) and b + 2 < len(words) \
                    and [w.lower() for w in words[b:b + 2]] == ["of", "the"] and _GPU_MODEL.match(words[b + 2].lower()):
                slot = "count"                # "just one of the H200s", "one" tagged as a system: a count
            counted_of = [w.lower() for w in words[b + 2:b + 5]] if slot == "msg_bytes" and _bare_number(words[a:b]) \
                and b + 1 < len(words) and words[b].lower() == "of" and words[b + 1].lower() in _OWNERS_OF else []
            kind_of = next((k for k in (self.norm.count_and_kind(w)[1] for w in counted_of) if k), None)
            if kind_of:
                # "with 12 of the GTX 1080 Ti GPUs", "on 2048 of its GPUs": how many of the machine's devices, not a
                # message of 12 bytes
                slots.setdefault("count", self.norm.number(words[a]))
                slots.setdefault("count_kind", kind_of)
                covered.update(range(a, b))
                continue
            if slot == "count":
                ck = self.norm.count_and_kind(surface)
                after = self.norm.count_and_kind(f"{surface} {words[b]}") if b < len(words) and not ck[1] \
                    else (None, None)
                if ck[0] is not None:
                    fresh = "count" not in slots
                    slots.setdefault("count", ck[0])
                    if ck[1] and fresh and not (b < len(words) and _COUNT_WORD.match(words[b].lower())):
                        # "writing to a whole IPU, all 1216 tiles": the kind said with the number is what it counts,
                        # whatever part was named before it
                        slots["count_kind"] = ck[1]
                    elif ck[1]:
                        slots.setdefault("count_kind", ck[1])
                    elif fresh and after[1] and after[0] == ck[0] and _COUNT_WORD.match(words[b].lower()) \
                            and not (b + 1 < len(words) and _COUNT_WORD.match(words[b + 1].lower())):
                        # (the kind in the next word, where the tagger left it out of the count's span)
                        slots["count_kind"] = after[1]
                    elif b < len(words) and _GPU_MODEL.match(words[b].lower()):
                        slots.setdefault("count_kind", "gpus")   # "one V100", "the two H200s": GPUs counted
                        gpu_model_at.add(b)
                    elif b + 2 < len(words) and [w.lower() for w in words[b:b + 2]] == ["of", "the"] \
                            and _GPU_MODEL.match(words[b + 2].lower()):
                        slots.setdefault("count_kind", "gpus")   # "just one of the H200s"
                        gpu_model_at.add(b + 2)
                    covered.update(range(a, b))
                    continue
            value = self.norm.value(slot, surface)
            if slot == "metric" and value == "count" and intent == "scaling":
                kind = self.norm.count_and_kind(surface)[1] or \
                    (self.norm.count_and_kind(" ".join(words[a - 1:b]))[1] if a else None)   # "process | count"
                if kind:
                    # "slowdown as the process count grows": the count is the axis of the curve, not the metric
                    slots.setdefault("count_kind", kind)
                    covered.update(range(a, b))
                    continue
            if value is not None and slot in ("operation", "metric", "condition", "system", "app"):
                a, b, value = self._widen(words, slot, value, a, b, covered)
            if value is None and slot in ("src", "dst") and b < len(words) and tags[b] == "O":
                nxt = self.norm.endpoint(words[b])   # "its | host" tagged on the possessive: the next word names it
                if nxt is not None:
                    a, b, value = b, b + 1, nxt
                    surface = words[a]
            if (value is None or (slot == "system" and any(c.isdigit() for c in surface))) and (
                    slot in ("system", "src", "dst") or (slot in _NAMING_SLOTS and any(c.isdigit() for c in surface))):
                # "ipu5" tagged as a system (or a link) is an endpoint of one; so is "IPU 7", which the system
                # aliases would read as the IPU system with its number lost
                end = self.norm.endpoint(surface)
                if end is not None and end != "host" and end in self.endpoints:
                    slot, value = ("src" if "src" not in slots else "dst"), end
                    if slots.get("src") == end:
                        continue
            if value is None:
                unresolved.append((slot, surface, a, b))
                continue
            covered.update(self._named_words(words, cands, slot, value, a, b))
            if slot == "operation":
                op_spans.append((a, b))
            elif slot == "app":
                app_spans.append((a, b))
            if slot == "aggregate" and "aggregate" not in slots:
                agg_surface = surface
            if slot == "system" and b - a == 1 and a > 0 and _GPU_MODEL.match(words[a].lower()) \
                    and _bare_number(words[a - 1:a]) and (systems or any(s == "system" for s, _, e in bounds
                                                                          if e <= a - 1)):
                gpu_model_at.add(a)
                continue      # "Google Cloud ... from 1 to 4 T4 GPUs": the GPUs counted there, no second machine
            if slot == "system":
                sys_spans.append((a, b, value))
                if value not in systems:
                    systems.append(value)
            elif slot not in slots:
                slots[slot] = value
            elif slot == "src" and "dst" not in slots and value != slots["src"] and a > 0 \
                    and words[a - 1] in ("->", "→", "to"):
                slots["dst"] = value          # "host->gpu1" tagged as two sources: the arrow's far end
            elif slot in _ENDS and value != slots[slot] and ({"src", "dst"} - slots.keys()) \
                    and "host" not in (value, slots[slot]):
                # "between IPU7 and IPU10" tagged as two destinations: two ends, in the order said
                if slot == "dst":
                    slots["src"] = slots["dst"]
                slots["dst"] = value
        tag_index = {t: i for i, t in enumerate(self.labels["tags"])}
        hit_words: set[int] = set()

        def prefer(options: list[str], at: int) -> str:
            row = tag_probs[at] if at < len(tag_probs) else []
            return max(options, key=lambda s: row[tag_index[f"B-{s}"]] if row and f"B-{s}" in tag_index else 0.0)

        gaz_systems: list[tuple[int, int, str]] = []     # systems the vocabulary found where the tagger did not
        for h in self.gazetteer.hits(words, covered, prefer, cands=cands):
            if h.slot == "msg_bytes" and _per_second(words, h.end):
                continue    # "their twenty five gigabytes per second": a rate, no size
            if h.slot == "metric" and h.value == "time" and _times_as_a_multiple(words, h.start, h.end):
                continue    # "how many times higher is the bandwidth": a multiple, no time
            if _contrasted(words, h.start) and (h.slot == "link_type" or h.slot == "condition"
                                                and h.value in CONDITION_LINK_TYPES):
                continue    # "the NVLink connections, not the PCIe ones": a link set aside (as above)
            # a span the vocabulary reads part of is resolved by that reading, except a system name nobody knows
            # around a common word ("an 8x MI300X node": "node" is a count's kind, "MI300X" still no system here)
            unresolved = [u for u in unresolved if u[3] <= h.start or u[2] >= h.end
                          or (u[0] == "system" and h.slot == "count_kind" and _unknown_name(words, u, h))]
            hit_words.update(range(h.start, h.end))
            if h.slot == "system" and h.start in gpu_model_at and h.end - h.start == 1 and (systems or sys_spans):
                continue    # "Google Cloud ... from 1 to 4 T4 GPUs": the GPUs counted there, no second machine
            if h.slot == "system":
                if h.value not in systems:
                    # a comparison in the order said, as for the names resolved below ("compare triad bw dgx2 yme
                    # minisummit ...": the tagger ran "dgx2 yme" into one span, the vocabulary found both)
                    _place(systems, h.value, h.start if intent == "compare_systems" else None, sys_spans + gaz_systems)
                gaz_systems.append((h.start, h.end, h.value))
            elif h.slot == "endpoint":
                if "src" not in slots:
                    slots["src"] = h.value
                elif "dst" not in slots and h.value != slots["src"]:
                    slots["dst"] = h.value
            elif h.slot == "count":
                if h.value[0] >= 10 and any(
                        words[k].lower() in _MODEL_LETTERS and (words[k].lower() != "a" or h.value[0] >= 100)
                        and all(re.fullmatch(_SAID_NUMBER + "|hundred", w.lower()) for w in words[k + 1:h.start + 1])
                        for k in range(max(0, h.start - 3), h.start)):
                    continue    # "a d g x one p one hundred gpu": the number of a GPU's model, spelled, no count
                if "count" not in slots:
                    slots["count"], kind = h.value
                    slots.setdefault("count_kind", kind)
                    read_count = True
            elif h.slot == "count_kind":
                if "count_kind" not in slots and ("count" in slots or intent == "scaling"):
                    slots["count_kind"] = h.value
                elif not systems and h.start not in gpu_model_at:
                    # "the nominal power of an IPU": no count to be the kind of, but the word names a system (not
                    # the GPU model a number counts: "4 T4 GPUs")
                    named = next((f["system"] for st, en, f in cands if (st, en) == (h.start, h.end)
                                  and "system" in f), None)
                    if named:
                        systems.append(named)
            elif h.slot == "library" and slots.get("library") not in (None, h.value) and lib_end is not None \
                    and lib_end < len(words) and words[lib_end].lower() in _PAPER_NOUNS:
                # "GaspiLS paper: PETSc's parallel efficiency": the first library names the paper, the second ran
                slots["library"] = h.value
            elif h.slot == "operation" and str(h.value).startswith(f"{slots.get('operation')}_"):
                # "how many traversed edges per second does BFS reach": the member of the family the tagger named
                # (bfs_teps of bfs), named by the words it left
                slots["operation"] = h.value
            elif h.slot not in slots:
                slots[h.slot] = h.value
                if h.slot == "library":
                    lib_end = h.end
                if h.slot == "operation":
                    op_spans.append((h.start, h.end))
                elif h.slot == "app":
                    app_spans.append((h.start, h.end))
                if h.slot == "aggregate":
                    agg_surface = " ".join(words[h.start:h.end])
        if "metric" not in slots and intent != "trace_breakdown":
            ends = [e for _, e in op_spans + app_spans] + ([lib_end] if lib_end is not None else [])
            at = next((e for e in ends if e < len(words) and words[e].lower() in _OP_METRIC_WORDS
                       and e not in covered and e not in hit_words), None)
            if at is not None:
                # "the all to all time", "what zmcintegral time": too plain a word to tag alone, a metric right after
                # an operation, an app or a library
                slots["metric"] = _OP_METRIC_WORDS[words[at].lower()]
                hit_words.add(at)
        if "precision" not in slots:
            # "MaxFlops, single precision" read as one operation (maxspflops) still says the precision
            slots.update(next(({"precision": f["precision"]} for st, en, f in cands if "precision" in f
                               and any(a <= st and en <= b for a, b in op_spans)), {}))
        if "count" not in slots:
            # "one V100 on Summit", "8 A100s per node": a number said right before a GPU model counts GPUs,
            # whatever the tagger made of the two words (not the "1" of "DGX-1 V100", part of a name)
            in_names = {k for a, b, _ in sys_spans + gaz_systems for k in range(a, b)}
            for i in range(len(words) - 1):
                if _GPU_MODEL.match(words[i + 1].lower()) and i not in in_names and (i == 0 or words[i - 1] != "-"):
                    n = self.norm.integer(words[i])
                    if n and 0 < n <= 100_000 and (words[i].isdigit() or words[i].isalpha()):
                        slots["count"], slots["count_kind"] = n, "gpus"
                        gpu_model_at.add(i + 1)
                        if not systems or self._model_of(systems, words[i + 1]):
                            # (a model the named machine lacks stays a name to resolve: "would 200 A100 GPUs beat
                            # Lassen's speedup" asks about other hardware)
                            unresolved = [u for u in unresolved if not (u[0] == "system" and u[2] <= i < u[3])]
                        break
        if slots.get("count_kind") in (None, "boards"):
            # "what do the two IPUs on one C2 board reach together": the number said before the devices counts them
            # (the "one" of "one C2 board" names where they sit)
            for i in range(len(words) - 1):
                kind = _DEVICES_COUNTED.get(words[i + 1].lower())
                n = self.norm.integer(words[i]) if kind and (words[i].isdigit() or words[i].lower() in _SMALL_NUMBERS) \
                    else None
                # (not the end of a spoken name: "h two hundred cards", "r i two nodes")
                if n and 1 < n <= 100_000 and (i == 0 or (words[i - 1] != "-" and len(words[i - 1]) > 1)):
                    slots["count"], slots["count_kind"] = n, kind
                    break
        if systems and gpu_model_at:
            # "one V100 on Summit": with a system named, the counted GPU model names no second one (unless the named
            # system has none of that model: "would 100 A100 GPUs beat Lassen's speedup" names other hardware)
            unresolved = [u for u in unresolved if not (u[0] == "system" and u[3] - u[2] == 1 and u[2] in gpu_model_at
                                                        and self._model_of(systems, words[u[2]]))]
        # "the DGX-1 P100 ... the V100 version": a part that completes another system's name is that system,
        # before the ambiguity of a bare "V100" (a GPU, or a qualifier of the system named) is weighed
        heads = shared_head_systems(words, unresolved, sys_spans, self.norm)
        head_words = {k for u, _ in heads for k in range(u[2], u[3])}
        added, used, notes = self.systems.resolve(
            words, covered | hit_words | head_words | (gpu_model_at if systems else set()), systems,
            stores=self._stores(slots))
        notes += [f"read as corrected: {t!r} taken back" for t in taken] + pasted
        for sid in added:
            # a comparison in the order said: "V100 vs Summit" asks about the V100 first. In other questions the
            # name that fits one system stays first ("... arria ten ... on Lassen", a transcript, is Lassen's)
            at = next((m.start for m in used if sid in m.candidates), None) if intent == "compare_systems" else None
            _place(systems, sid, at, sys_spans)
        for m in used:
            unresolved = [u for u in unresolved if u[3] <= m.start or u[2] >= m.end]
        # ... and one that completes a name the ambiguity resolver or the vocabulary settled ("P100 vs V100, DGX-1")
        settled = [(m.start, m.end, sid) for m in used for sid in systems if sid in m.candidates] + gaz_systems
        done = {u for u, _ in heads}
        heads += shared_head_systems(words, [u for u in unresolved if u not in done], settled, self.norm)
        for u, sid in heads:
            if sid not in systems:   # in the order said: the first system named is the one asked about
                _place(systems, sid, u[2], sys_spans + settled)
            unresolved.remove(u)
        # "the p one hundred one" as a transcript writes "the P100 one"
        spoken_models = re.sub(r"\b([pvah]) (one|two) hundred\b",
                               lambda m: m.group(1) + ("100" if m.group(2) == "one" else "200"),
                               " ".join(words).lower())
        sibling = _THE_MODEL_ONE.search(spoken_models) if len(systems) in (1, 2) and self.catalog is not None else None
        if sibling:
            # "does the V100 DGX-1 really beat the P100 one": the same machine with the other GPU model, named by
            # the model alone ("one" stands for the machine just named; the model alone had named a reference GPU)
            m = re.search(r"[pvah]\d{3}", systems[0])
            other = systems[0][:m.start()] + sibling.group("m") + systems[0][m.end():] if m else None
            if other and other != systems[0] and other in self.catalog.systems:
                systems[1:] = [other]
        ruled_out: set[str] = set()   # intents the words rule out: ask's runner-up loop must not try them again
        # "every accelerator except the Arria 10": a system named to be left out of a comparison across the others
        corrected = [sid for sid in corrected_systems(words, sys_spans + settled) if sid in systems]
        if corrected and len(systems) > len(corrected):
            # "h2d bandwidth on yme, sorry, mini summit": the name the speaker took back is not asked about
            systems[:] = [sid for sid in systems if sid not in corrected]
            notes.append("read as corrected: " + ", ".join(
                self.catalog.name(x) if self.catalog is not None else x for x in corrected) + " taken back")
        excluded = [sid for sid in excluded_systems(words, sys_spans + settled) if sid in systems]
        if excluded:
            systems[:] = [sid for sid in systems if sid not in excluded]
            slots["exclude"] = excluded
            notes.append("left out as asked: " + ", ".join(
                self.catalog.name(x) if self.catalog is not None else x for x in excluded))
        if excluded and not systems and intent in ("topology", "pair_matrix") and slots.get("link_type") \
                and not slots.get("metric"):
            # "which machines except the DGX-2 have a QPI link": no graph is asked for, the machines that have one
            ruled_out.add(intent)
            intent, conf = "list_data", max(conf, CONFIDENCE_FLOOR)
        elif excluded and not systems and intent in ("metric_lookup", "size_sweep", "scaling", "pair_matrix") \
                and (slots.get("metric") or slots.get("operation") or slots.get("app")):
            # "h2d bandwidth on every machine but Yme": each of the others, side by side
            ruled_out.add(intent)
            intent = "compare_systems"
        if intent == "compare_systems" and excluded and not systems:
            # a comparison across every system that stores it, but the one left out: the words that leave one out
            # say the others are set side by side, however unsure the model was of the rest
            conf = max(conf, CONFIDENCE_FLOOR)
        elif intent == "compare_systems" and len(systems) < 2 and not (systems and open_descriptions):
            # "1 vs 2 GPUs", "layernorm vs gelu": a comparison within one system is another intent (but "the OSU
            # cluster and Client-3": a machine described, which the data settles below, is the second)
            sure = conf
            intent, conf = _next_intent(self.labels["intents"], intent_probs, {"compare_systems"})
            ruled_out.add("compare_systems")
            if re.search(r"\bscal(ing|es?|ability)\b", " ".join(words).lower()):
                # "chifflot horovod vs tarantella scaling efficiency": two things on one system, and the words ask
                # for how they scale: the curves
                intent, conf = "scaling", max(conf, sure)
            elif intent == "trace_breakdown" and not TRACE_WORD.search(" ".join(words)) or (
                    intent == "list_data" and slots.get("metric") and not LISTING.search(" ".join(words).lower())):
                # "d2h vs h2d bandwidth on yme": two things set side by side on one system, nothing about a trace
                # (the model's second choice after the comparison held 2%); "Arria 10 GX FPGA, SU3_Bench GFLOPS?":
                # a measure named and no word that lists, no inventory: looked up
                intent, conf = "metric_lookup", sure
            elif intent == "scaling" and slots.get("metric") == "speedup" and "count" not in slots \
                    and _SPEEDUP_OVER_ANOTHER.search(" ".join(words).lower()):
                # "m-cubes speedup over zmcintegral, integrand fA": one code's speedup over another, which the paper
                # states as one figure, not a curve over counts
                intent, conf = "metric_lookup", max(sure, CONFIDENCE_FLOOR)
            elif conf < NO_SECOND_CHOICE and intent not in ("out_of_scope", "metric_lookup"):
                # the model was sure of a comparison and held no second reading ("m-cubes speedup integrand fA vs
                # zmcintegral": size_sweep at 0.2%): two things set side by side on one system are looked up, as
                # surely as the comparison was read
                intent, conf = "metric_lookup", sure
        lw = [w.lower() for w in words]
        said = " ".join(lw)   # the lower-cased question, for the phrase rules below
        if slots.get("condition") in (None, "nvlink", "pcie") and _UNDER_SOME_LOAD.search(said):
            # "nvlink bandwidth under heavy load vs idle": a load with a word between is still the load (a link
            # named beside it stays the link, no copy mode)
            slots["condition"] = "under_load"
        if slots.get("operation") == "sort" and re.search(r"\b(what|which|any|some|that|this) sort of\b", said) \
                and len(re.findall(r"\bsort\b", said)) == 1:
            del slots["operation"]   # "what sort of latency ...": a kind asked about, not SHOC's Sort
        if slots.get("operation") == "sort" and _SORT_ORDER.search(said):
            # "sort the d g x two yme and mini summit by f p sixty four max flops": an order to put them in, not
            # SHOC's Sort benchmark
            del slots["operation"]
            if len(systems) > 1 and intent in ("metric_lookup", "out_of_scope", "list_data"):
                ruled_out.add(intent)
                intent, conf = "compare_systems", max(conf, CONFIDENCE_FLOOR)
        if slots.get("metric") == "power" and _POWER_PROCESSOR.search(said) and not _POWER_DRAWN.search(said):
            # "the two power nine sockets", "the IBM Power machine called Yme": IBM's processors, no power drawn
            del slots["metric"]
        if intent in ("metric_lookup", "pair_matrix") and slots.get("metric") is None and _WHAT_CONNECTS.search(said) \
                and self._has_links(slots) and not slots.get("operation"):
            # "what connects the two sockets on mini summit, is it the x bus": the parts' connection is the graph
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, CONFIDENCE_FLOOR)
        if slots.get("metric") == "share" and _SHARE_AS_VERB.search(join_spelled(_unpunctuated(said))):
            # "which GPUs share NVLink with which CPU": to share a link is how parts connect, no part of a whole
            del slots["metric"]
        refs = [w for w in lw if _REFERENCE.match(w)]
        if refs and slots.get("aggregate") == "max" and set(refs) <= {"peak", "max", "maximum"} \
                and not rates_against(lw) and "of peak" not in said:
            refs = []   # "what is the peak allreduce bus bandwidth": the highest one measured, not a reference
        # "vs", "against" between two systems set them side by side, not a value against a reference
        ratio_words = [w for w in lw if _RATIO.match(w) and not (len(systems) > 1 and w in _SIDE_BY_SIDE)]
        if intent in ("link_efficiency", "topology", "metric_lookup", "out_of_scope", "pair_matrix") \
                and slots.get("metric") in (None, "bandwidth") \
                and (slots.get("link_type") or CONDITION_LINK_TYPES.get(str(slots.get("condition"))) == "NVLink") \
                and slots.get("operation") in (None, "p2p", "h2d", "d2h") \
                and (_HOW_MUCH_OF_RATE.search(said) or _NEAR_THE_LIMIT.search(said) or _USES_ITS_LINK.search(said)) \
                and self._has_links(slots):
            # ("how much of the envy link two bandwidth do the gpu pairs use": the link said as a transport mode)
            if not slots.get("link_type"):
                slots["link_type"] = "NVLink"
                slots.pop("condition", None)
            if slots.get("condition") in ("nominal", "theoretical", "spec"):
                slots.pop("condition")     # "how close ... to the nominal envy link two rate": what it is set against
            # "how much of its UPI bandwidth does the Xeon 8280 use": a share of the link's rate ("how much of the
            # NVLink bandwidth does allreduce use" stays the collective's bandwidth)
            slots["metric"] = "efficiency"
            if intent != "link_efficiency":
                ruled_out.add(intent)
                intent, conf = "link_efficiency", max(conf, CONFIDENCE_FLOOR)
        if intent == "link_efficiency" and slots.get("metric") not in (None, "efficiency") \
                and not refs \
                and ("link_type" not in slots or not ratio_words):
            # "SHOC triad bandwidth for Yme's GPU 2", "PCIe-mode bandwidth between GPU10 and GPU11": a plain
            # measurement, with nothing to rate it against
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out | {"link_efficiency"})
            ruled_out.add("link_efficiency")
        if intent == "link_efficiency" and slots.get("metric") is None and not slots.get("link_type") \
                and not (slots.get("src") and slots.get("dst")) and not _EFFICIENCY_SAID.search(said):
            # "how loud is the DGX-2 when it is running flat out": no link, no pair and no word of how close
            # something comes to a rate, so no link's efficiency, however the model leaned
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out | {"link_efficiency"})
            ruled_out.add("link_efficiency")
        if intent == "size_sweep" and slots.get("aggregate") in ("max", "min") and ANY_SIZE.search(said):
            # "the highest all-reduce bus bandwidth the H200 pair reaches at any message size": one extreme over
            # all sizes, not the curve (after the link-efficiency reading falls through, whose runner-up may be the
            # sweep)
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent == "metric_lookup" and slots.get("link_type") and not any(
                slots.get(k) for k in ("metric", "operation", "src", "dst", "app", "aggregate")) \
                and (_LINK_RATE.search(said) or (slots.get("condition") in ("nominal", "theoretical", "spec")
                                                  and re.search(r"\b(bandwidth|bw)\b", said))) \
                and not OF_PEAK.search(said):
            # "ri2 infiniband per-port rate?", "ac922 x-bus nominal bandwidth": nothing measured is named, only a
            # kind of link: its stated rate is in the connection graph
            intent = "topology"
            ruled_out.add("metric_lookup")
        if intent in ("metric_lookup", "topology") and slots.get("link_type") and slots.get("metric") in (
                None, "bandwidth", "efficiency") \
                and (_OF_A_LINKS_RATE.search(said) and not slots.get("app")
                     or _LINK_CAPACITY_USED.search(said) and slots.get("operation") in _PER_PAIR_OPERATIONS) \
                and not any(slots.get(k) not in (None, "host") for k in ("src", "dst")):
            # "h200 nvlink % of link rate", "thetagpu infiniband % of line rate": how close the link comes to its
            # rate, an efficiency (refused where no measurement or no rate is stored); "how much of the UPI link
            # capacity does SU3_Bench use": an application's use of the link, the same question, as is a copy's ("how
            # much of the PCIe bandwidth do host to device copies use")
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots["metric"] = "efficiency"
        if intent == "metric_lookup" and slots.get("metric") == "efficiency" and not slots.get("link_type") \
                and len(set(systems)) == 1 and self.catalog is not None:
            links_said = {str(f["link_type"]) for _, _, f in cands if f.get("link_type")}
            if len(links_said) == 1 \
                    and systems[0] in self.catalog.owners.get(("link_type", next(iter(links_said)).lower()), ()):
                slots["link_type"] = next(iter(links_said))   # "what i p u link efficiency ...": the spelled link,
                #                                               which the tagger read as the machine's name
        if intent == "metric_lookup" and slots.get("link_type") and slots.get("metric") == "efficiency" \
                and self._has_links(slots):
            # "what efficiencies does the NVLink 1 of the DGX-1 P100 give for P2P": a kind of link's efficiency is a
            # measurement set against that link's nominal rate, as every such question is read
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, CONFIDENCE_FLOOR)
        if intent == "compare_systems" and len(systems) > 1 and slots.get("link_type") \
                and slots.get("metric") == "efficiency" and not slots.get("app"):
            # "pcie efficiency h2d titan rtx vs gtx980": a link's efficiency is a measurement set against the link's
            # nominal rate, which only link_efficiency does; app.ask asks it once per system
            ruled_out.add(intent)
            intent = "link_efficiency"
        if intent == "compare_systems" and len(systems) > 1 \
                and not any(slots.get(k) for k in ("metric", "operation", "app", "precision")) \
                and any(_TOPOLOGY_WORD.match(w) for w in lw):
            # "compare the topology of the DGX-1 P100 and the DGX-1 V100": nothing measured is named, only how
            # the parts connect: the graphs, drawn side by side (app.ask asks the topology once per system)
            ruled_out.add(intent)
            intent = "topology"
        shape = _SHAPE.search(said)
        if shape and systems and slots.get("metric") in (None, "count") \
                and not slots.get("app") and intent in ("pair_matrix", "metric_lookup", "list_data", "topology"):
            # "show the hybrid cube-mesh of the DGX-1 V100 with NVLink counts per pair": the name of a network's
            # shape asks for the graph; its "mesh" is no operation (the hanging-node paper's meshes are)
            if slots.get("operation") == "mesh" and "mesh" in shape.group(0):
                del slots["operation"]
            if intent != "topology":
                ruled_out.add(intent)
                intent = "topology"     # the words settle it, as sure as the model was of its own reading
        if (intent == "metric_lookup" or intent == "out_of_scope" and not asks_advice(said)) \
                and not any(k in slots for k in ("metric", "operation", "app", "src", "dst",
                                                 "msg_bytes", "count", "condition")) \
                and any(_TOPOLOGY_WORD.match(w) for w in lw) and slots.get("system") and self._has_links(slots) \
                and not OF_PEAK.search(said):
            # "ri2 inter-node interconnect + link rate", "how is the Azure cluster networked": nothing measured is
            # named, only the links, which the stored graph holds with their rates
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "topology", {intent})
            conf = max(conf, CONFIDENCE_FLOOR)
        if intent == "topology" and slots.get("operation") and (
                slots["operation"] not in _MOVES_DATA or slots["operation"] in ("h2d", "d2h")
                and slots.get("metric") in ("bandwidth", "latency", "time")) \
                and not any(k in slots for k in ("src", "dst", "link_type")) \
                and not any(_TOPOLOGY_WORD.match(w) for w in lw):
            # "deepbench gemm on the dgx-2": a kernel runs on a device; with no word about links or paths,
            # the question is about its measurements, not the connection graph; so is a host-to-device copy's
            # bandwidth or time ("dgx1 v100 bandwidth host to device"), which Scope and Tartan measured
            # (and not a comparison, where one system or none is named: "epyc 7742 node stream triad")
            intent, conf = _next_intent(self.labels["intents"], intent_probs,
                                        ruled_out | {"topology"} | _unasked(systems, excluded, said) | (
                                            set() if _LINK_OR_RATE_WORD.search(said) or "efficien" in said
                                            else {"link_efficiency"}))   # "what Sort bandwidth does SHOC give"
            ruled_out.add("topology")
        if intent == "pair_matrix" and slots.get("src") and slots.get("dst") and slots["src"] != slots["dst"] \
                and not named_endpoints(words, cands, self.endpoints) - {slots["src"], slots["dst"]} \
                and not _GRID_WORD.search(said) and ("matri" not in said or _IN_THE_MATRIX.search(said)):
            # "how much longer does a GPU0-GPU1 exchange take, compared with other pairs": one pair named is one
            # cell to look up (but three endpoints named, or "the latency grid of ipu4 and ipu6", ask for a small grid
            # of their own); the confidence in the grid carries over to its cell; "GPU0 to GPU1 ... in the
            # p2pBandwidthLatencyTest matrix" names where the one cell is printed
            ruled_out.add(intent)
            intent = "metric_lookup"
        if intent == "pair_matrix" and not _PAIR_CUE.search(said) and not _PART_BY_PART.search(said):
            # "slowdown factors for all three apps on the in-house cluster and on Azure": no pair, grid, matrix or
            # "between the GPUs" is named, so no grid of endpoint pairs is asked for ("the memory bandwidth of each
            # GPU": each GPU's own memory, looked up)
            if MEMORY_BANDWIDTH.search(said) or slots.get("metric") in NOT_PER_PAIR:
                # (or "how much power does each i p u draw": each device's own figure)
                intent = "metric_lookup"
                if slots.get("operation") == "p2p":
                    del slots["operation"]
            else:
                intent, conf = _next_intent(self.labels["intents"], intent_probs,
                                            ruled_out | {"pair_matrix"} | _unasked(systems, excluded, said))
            ruled_out.add("pair_matrix")
        if intent == "pair_matrix" and slots.get("operation") not in _PER_PAIR_OPERATIONS \
                and not (slots.get("src") or slots.get("dst")) and not _GRID_WORD.search(said) \
                and "matri" not in said:
            # "complete the table cell: DGX-2, NCCL all-reduce, 4 GPUs, 64 MB": a collective has no value per
            # endpoint pair (only copies do), so a "table" or "cell" is one figure of it (at the one size named)
            # or its figures over sizes, not a grid of pairs
            ruled_out.add("pair_matrix")
            if slots.get("msg_bytes") and not slots.get("size_range"):
                intent = "metric_lookup"
            else:
                intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out)
        if intent == "metric_lookup" and not (slots.get("src") and slots.get("dst")) and _GRID_WORD.search(said) \
                and intent_probs[self.labels["intents"].index("pair_matrix")] >= GRID_RUNNER_UP:
            # "latency heat map h200x2 p2p disabled": a heat map or grid of one number per pair is asked for, not
            # one value (a spoken "heat map" in two words is read less surely than a typed "heatmap")
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "pair_matrix", {intent})
        if intent in ("metric_lookup", "size_sweep", "out_of_scope") and not (slots.get("src") and slots.get("dst")) \
                and _PART_BY_PART.search(said) and (slots.get("system") or slots.get("metric")):
            # "core x core latency xmp64", "gpu by gpu bandwidth on yme": one value per pair of parts, a grid (where
            # no pair was measured the planner says so)
            ruled_out.add(intent)
            intent, conf = "pair_matrix", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "pair_matrix" and slots.get("metric") in (None, "bandwidth", "efficiency") \
                and any(_REFERENCE.match(w) for w in lw) and rates_against(lw) and not _GRID_WORD.search(said):
            # "measured versus nominal NVLink bandwidth for each GPU pair on Yme": what each pair reaches set against
            # the links' rating is the link efficiency (which reports it test by test), not the grid of values
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, CONFIDENCE_FLOOR)
            if slots.get("condition") in CONDITION_LINK_TYPES and "link_type" not in slots:
                slots["link_type"] = CONDITION_LINK_TYPES[slots.pop("condition")]
        if intent == "link_efficiency" and _OVER_SIZES.search(said) and not _asks_efficiency(said) \
                and slots.get("metric") not in ("efficiency",) and not refs:
            # "mini summit p2p bw vs size nvlink uni": the sizes are the axis asked for; the link names the mode
            ruled_out.add(intent)
            intent, conf = "size_sweep", max(conf, CONFIDENCE_FLOOR)
        if (intent == "pair_matrix" or (intent == "metric_lookup" and slots.get("link_type"))) \
                and (_WIRED.search(said) or _JOINED_BY.search(said)) and self._has_links(slots) \
                and slots.get("metric") in (None, "count") and not _MEASURE_SAID.search(said):
            # "how are the eight GPUs wired together, and which pairs get a double NVLink?", "which GPU pairs of the
            # DGX-1 V100 are joined by two NVLinks instead of one": how they connect, with no measure named, is the
            # graph (it shows each pair's links; "two NVLinks" counts links, not GPUs)
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, CONFIDENCE_FLOOR)
            slots.pop("count", None)
            slots.pop("count_kind", None)
        if intent in ("pair_matrix", "metric_lookup") and slots.get("link_type") \
                and slots.get("metric") in (None, "bandwidth", "share", "efficiency") and _OF_A_LINKS_RATE.search(said):
            # "what fraction of the NVSwitch bandwidth do DGX-2 GPU pairs actually get": the link's own bandwidth
            # is the reference each measurement is set against
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, CONFIDENCE_FLOOR)
            slots["metric"] = "efficiency"
        if intent == "topology" and slots.get("metric") not in (None, *GRAPH_MEASURES):
            # "xmp64 latency 2 off-chip hops": a latency or time is measured, not drawn; the graph holds links
            # and their rated bandwidths only
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out | {"topology", "out_of_scope"})
            ruled_out.add("topology")
        if intent == "topology" and slots.get("condition") in CONGESTION_CONDITIONS:
            # "peak bandwidth between IPU 5 and IPU 6 without congestion": a link carries no load; a measurement
            # was taken with or without it
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out | {"topology", "out_of_scope"})
            conf = max(conf, model_conf)
            ruled_out.add("topology")
        if intent == "congestion" and slots.get("condition") == "congestion_free" and not _SETS_AGAINST.search(said):
            # "ipu16 ipu5->ipu6 bw congestion free": the baseline alone, with nothing it is set against, is one value
            # to look up, not the difference that load makes (nor a graph: no link is congestion-free; nor, with no
            # reference named, a link's efficiency: the rule for that ran before this reading was left)
            out = {"congestion", "topology"}
            if slots.get("metric") not in (None, "efficiency") and not refs:
                out.add("link_efficiency")
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out | out)
            ruled_out |= out
        if (intent in ("pair_matrix", "metric_lookup", "size_sweep") or (
                intent == "scaling" and isinstance(slots.get("count"), int) and not _OVER_COUNTS.search(said))) \
                and not slots.get("condition") and _OTHERS_AT_ONCE.search(said):
            # "does gpu-to-gpu bandwidth on the dgx-2 drop when other pairs transfer at the same time": traffic
            # beside the transfer is load, and what it does to a measurement is the congestion question ("when all
            # 1216 tiles of IPU5 push data to IPU4 at once": one count of tiles sending, no curve over counts)
            slots["condition"] = "under_load"
            if _LOAD_CHANGE.search(_OTHERS_AT_ONCE.sub(" ", said)):
                ruled_out.add(intent)
                intent, conf = "congestion", max(conf, CONFIDENCE_FLOOR)
        if intent == "congestion" and slots.get("condition") == "under_load" and slots.get("metric") \
                and slots["metric"] not in ("slowdown", "congestion_impact") and not _LOAD_CHANGE.search(said) \
                and not slots.get("compare_with") and ("count" not in slots or _ALL_TILES_SENDING.search(said)
                                                       or _WHAT_IT_GIVES.search(said) or RATE_SHARE.search(said)
                                                       or _GRID_OR_MATRIX.search(said)) \
                and "congest" not in said:
            # "under load, what latency do transfers from IPU5 to IPU4 see?": one value under load, with no baseline
            # or change asked for, is looked up like the congestion-free one above (the words settle it, however
            # unsure the model was of a lookup); "latency under load, 1216 tiles" names the load's pattern, the
            # experiment the congestion answer sets against its baseline, but "when all 19456 tiles are sending"
            # asks for the value at that load, as does "what latency does the ipu system give under load on 19456
            # tiles" (a value asked of one condition at a count, not set against a baseline), "p2p bandwidth share
            # under load on 19456 tiles" (the part of the rate kept at that load) or its grid at a count
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "metric_lookup", {intent})
            conf = max(conf, CONFIDENCE_FLOOR)
            if (_PART_BY_PART.search(said) or "count" in slots and _GRID_OR_MATRIX.search(said)) \
                    and not (slots.get("src") or slots.get("dst")):
                intent = "pair_matrix"   # "... under load by IPU pair", "... grid under load on 2432 tiles": the
                #                          loaded value of each pair, a grid
        known = [x for x in [slots.get("system"), *systems] if isinstance(x, str)]
        if not slots.get("condition") and _ALL_LOADED.search(said) and (
                self.catalog is None or not known
                or any("under_load" in self.catalog.conditions.get(x, set()) for x in known)):
            # "how much slower is the link from IPU5 to IPU4 when everything is loaded": the load the experiments
            # ran, and what it does set against the quiet case
            slots["condition"] = "under_load"
            if intent in ("metric_lookup", "link_efficiency") and _LOAD_CHANGE.search(_ALL_LOADED.sub(" ", said)):
                ruled_out.add(intent)
                intent, conf = "congestion", max(conf, model_conf, CONFIDENCE_FLOOR)
                if slots.get("metric") == "slowdown":
                    del slots["metric"]
        if intent in ("pair_matrix", "metric_lookup") and slots.get("condition") == "under_load" \
                and _SUFFERS.search(said) and not slots.get("metric") in ("slowdown", "congestion_impact"):
            # "which IPU pair suffers most when the whole system is loaded": what the load does to each pair, set
            # against the quiet case, is the congestion question (its answer names the worst case)
            ruled_out.add(intent)
            intent, conf = "congestion", max(conf, model_conf, CONFIDENCE_FLOOR)
        if not slots.get("condition") and _NO_LOAD.search(said) and not _LOAD_SAID.search(said) \
                and (self.catalog is None or not isinstance(slots.get("system"), str)
                     or "congestion_free" in self.catalog.conditions.get(slots["system"], set())):
            # "ipu p2p bandwidth per thread, single thread, no load": the quiet side alone, looked up (no load
            # set against it, nothing compared)
            slots["condition"] = "congestion_free"
            if intent == "congestion" and not slots.get("compare_with") and not _SET_AGAINST.search(said):
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "metric_lookup" and _WHAT_CONGESTION_DOES.search(said) \
                and (intent_probs[self.labels["intents"].index("congestion")] >= GRID_RUNNER_UP
                     or slots.get("metric") in ("slowdown", "congestion_impact")):
            # "how much does congestion slow down transfers from IPU5 to IPU4?": what congestion does to a
            # measurement is the congestion question, when the model held that reading too or the words name the
            # effect itself ("ipu gather slowdown congestion")
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "congestion", {intent})
        if intent == "metric_lookup" and (slots.get("condition") == "under_load" or slots.get("count_kind") == "tiles") \
                and _WHAT_LOAD_DOES.search(said):
            # "under heavy traffic, how much does on-chip latency on the IPU go up?": the change that load makes,
            # set against the congestion-free baseline, which is the congestion question; tiles that communicate
            # ("... degrade when 2432 tiles communicate") are the load
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "congestion", {intent})
            conf = max(conf, CONFIDENCE_FLOOR)
        if intent == "metric_lookup" and "count" not in slots and _SCALING_WORD.search(said) \
                and intent_probs[self.labels["intents"].index("scaling")] >= GRID_RUNNER_UP:
            # "what's the strong scaling efficiency of resnet218v2 training on lassen" (a transcript drops the
            # hyphen the model read as scaling): with no count named, the curve over counts is asked for
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "scaling", {intent})
        if intent == "trace_breakdown" and slots.get("metric") == "memory" and MEMORY_TIME.search(said):
            # "what memory time does rank 0 give in the h200 pair traces": the time of memory operations (copies and
            # sets), which a trace holds, not a memory size
            del slots["metric"]
        if intent == "trace_breakdown" and slots.get("msg_bytes") and TRACE_WORD.search(" ".join(words)) \
                and re.search(rf"\brank {slots['msg_bytes']}\b", " ".join(words).lower()):
            # "the stacked bars for the H200 trace: rank 1's bar is mostly communication": a rank's number, no size
            del slots["msg_bytes"]
        if intent == "trace_breakdown" and slots.get("msg_bytes"):
            # "all_reduce_perf on just one of the H200s: out-of-place time at 1 GB?": a trace's breakdown is of
            # kernels and ops, never per message size; a size named is a benchmark's point
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out | {"trace_breakdown"})
            ruled_out.add("trace_breakdown")
        loaded_and_idle = LOADED_AND_IDLE.search(said)
        if (intent in ("metric_lookup", "pair_matrix") or (
                intent == "scaling" and (isinstance(slots.get("count"), int) and not _OVER_COUNTS.search(said)
                                         or loaded_and_idle))
                or intent == "trace_breakdown" and not TRACE_WORD.search(said)) and \
                (names_a_condition_pair({f["condition"] for _, _, f in cands if f.get("condition")})
                 or loaded_and_idle):
            # "compare congestion-free and under-load bandwidth for IPU pairs", "is the loaded latency more than 5x
            # its idle latency": both sides of a condition pair named ask for the difference between them (also
            # where the model leaned to a trace no word names: "LAMMPS on the in-house cluster, CC on vs CC off";
            # and over tile counts: "IPU bandwidth quiet and loaded, across tile counts")
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "congestion", {intent})
        if intent == "metric_lookup" and slots.get("metric") in ("slowdown", "congestion_impact") \
                and slots.get("condition") in ("cc_on", "cc_off") and not slots.get("app") and not slots.get("src"):
            # "azure slowdown factors 3 apps cc off": the slowdowns of every app the congestion experiments ran,
            # with congestion control named, are what congestion does there, not one of them picked
            ruled_out.add(intent)
            intent = "congestion"
        def cc_stored() -> bool:     # (asked only of a topology or refusal reading)
            return self.catalog is not None and any("cc_on" in self.catalog.conditions.get(x, set())
                                                    for x in [slots.get("system"), *systems] if isinstance(x, str))
        if intent == "compare_systems" and slots.get("condition") in ("cc_on", "cc_off") or (
                (intent in ("compare_systems", "metric_lookup")
                 or intent in ("topology", "out_of_scope") and cc_stored()) and _CC_HELPS.search(said)):
            # "in-house vs azure, cc off, congestion impact of vasp": with congestion control named, the clusters
            # are set side by side on what congestion does to them, the congestion question asked of both (its
            # planner answers several systems); without it ("congestion impact of lammps: in-house cluster versus
            # azure") one stored metric is compared. The model's sureness that systems are compared carries over;
            # what switching congestion control does to a machine that stores it is settled by the words.
            ruled_out.add(intent)
            if intent in ("topology", "out_of_scope"):
                conf = max(conf, CONFIDENCE_FLOOR)
            intent = "congestion"
        # ("as the g p u count grows": spoken letters joined)
        over_counts = _OVER_COUNTS.search(said) or _OVER_COUNTS.search(join_spelled(said))
        if intent == "scaling" and "count" in slots and len(systems) > 1 and not over_counts \
                and not _SCALING_WORD.search(said) and not count_series(words) and not _TWO_COUNTS.search(said):
            # "all-reduce of 400000 bytes on 2 GPUs: how do dgx2, yme and minisummit stack up?": one count on
            # several machines is no curve over counts but the machines side by side
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "compare_systems", {intent})
            conf = max(conf, model_conf, CONFIDENCE_FLOOR)   # the words settle it: several machines, one count
        if over_counts and intent not in ("scaling", "out_of_scope", "list_data") and "count" not in slots \
                and not (intent == "congestion" and loaded_and_idle):
            # "IPU point-to-point bandwidth under load with more threads per tile": a count that grows is the axis
            # of a scaling curve, whatever else the question names (but "quiet and loaded, across tile counts" sets
            # the two load conditions side by side at each count: the congestion experiment)
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "scaling", {intent})
        if over_counts and (over_counts.group("d") or over_counts.group("e")) and "count" not in slots \
                and intent != "list_data" and not (intent == "congestion" and loaded_and_idle) \
                and (intent != "out_of_scope" or (systems and (slots.get("operation") or slots.get("metric")))):
            # "chifflot train eff vs #gpus": the axis said outright settles the reading, however unsure the model
            # was of so terse a question
            if intent != "scaling":
                ruled_out.add(intent)
            intent, conf = "scaling", max(conf, model_conf, CONFIDENCE_FLOOR)
        series = count_series(words)
        every_count = _EVERY_COUNT.search(said)
        if intent in ("metric_lookup", "size_sweep", "scaling") and every_count and len(systems) <= 1:
            # "the DGX-2's SHOC sort rate on one GPU, then on sixteen, and each count in between": every count from
            # the first to the last is the curve over them; a number said with no unit there ("on sixteen") is a
            # count, no size
            if intent != "scaling":
                ruled_out.add(intent)
            intent, conf = "scaling", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots.pop("count", None)
            if isinstance(slots.get("msg_bytes"), int) and not any(w in SIZE_WORDS and len(w) > 1 for w in lw) \
                    and not re.search(r"\d\s*[kmgt]i?b\b", said):
                slots.pop("msg_bytes")
        # "Scope's reduce-scatter went up to 6 GPUs, right? What bandwidth did it get at 64 MiB there?": a statement
        # the asker has confirmed with a tag is context; the words of a curve count only in what is then asked
        asked = after_tag_question(said)
        if asked != said and isinstance(slots.get("count"), int):
            # "... was run up to 19456 tiles, wasn't it? what efficiency did it reach on 1216 tiles": a count said in
            # what is asked wins over one said in the statement before it
            again = re.search(rf"\b(\d+) {_COUNTED_WORD}\b", asked)
            if again and int(again.group(1)) != slots["count"]:
                n, kind = self.norm.count_and_kind(again.group(0))
                if isinstance(n, int) and kind:
                    slots["count"], slots["count_kind"] = n, kind
        no_curve_word = not ((over_counts if asked == said else _OVER_COUNTS.search(asked))
                             or (series if asked == said else None) or _TREND.search(asked)
                             or _SCALING_WORD.search(asked) or _COUNT_RANGE.search(asked)
                             or (_count_range(lw) if asked == said else False) or every_count)
        no_curve = len(systems) <= 1 and no_curve_word
        if intent == "scaling" and no_curve_word and len(systems) == 2 and "count" not in slots \
                and slots.get("metric") == "speedup" and self.catalog is not None \
                and "speedup" in self.catalog.metrics.get(systems[0], set()):
            # "tohoku fpga sqa speedup over the tohoku gpu": one machine's speedup over another, as the source
            # states it, no curve over counts
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf)
        if intent == "scaling" and no_curve:
            # no word of a curve over counts, one machine: a value at one count, or per counted part, is looked up
            if isinstance(slots.get("count"), int) and not _TWO_COUNTS.search(said):
                # "broadcast latency to 16 tiles on the ipu", "lassen resnet218v2 speedup 2048 gpus": the value at
                # that count (a speedup or an efficiency at one count is the number stated for it, as every
                # evaluation set labels it)
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, model_conf)
            elif "count" not in slots and slots.get("metric") in ("speedup", "efficiency") \
                    and self.catalog is not None and systems \
                    and slots["metric"] in self.catalog.metrics.get(systems[0], set()):
                # "horovod lenet5 speedup on chifflot": no count and no word of a curve, and the system states that
                # speedup: the figure stated (the planner takes the one at the largest count), not a curve derived
                # from times
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, model_conf)
            elif "count" not in slots and "count_kind" not in slots and slots.get("metric") and _HOW_MANY_PER_TIME.search(said):
                # "how many random samples per second can the IPU's poprand generator churn out": a rate asked for
                # by how many per second, with no count of devices and no word of a curve: the rate
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, model_conf)
            elif "count" not in slots and (_PER_COUNTED.search(said) or _ITS_DEVICES.search(said)):
                # "supermuc-ng stream triad bw per node": a figure per node, no curve over node counts; "what rate
                # did the dgx two reach with its g p us spread across both numa nodes": the machine's devices,
                # none counted
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, model_conf)
                slots.pop("count_kind", None)
        two_counts = _AT_TWO_COUNTS.search(said)
        if intent in ("metric_lookup", "scaling", "compare_systems") and two_counts \
                and not slots.get("src") and len(systems) <= 1:
            # "all reduce time with one and two ranks", "on 1 and then 2 GPUs": the value at two counts set side by
            # side is a (two-point) scaling curve, not the value at the first count (nor two machines compared)
            if intent != "scaling":
                ruled_out.add(intent)
                intent, conf = "scaling", max(conf, model_conf)
            slots.pop("count", None)
            kind = self.norm.count_and_kind(two_counts.group(0).split()[-1])[1]
            if kind and not slots.get("count_kind"):
                slots["count_kind"] = kind     # what is counted, though the tagger read no count ("the 2 GPUs")
        if intent == "congestion" and slots.get("count_kind") and not (slots.get("src") or slots.get("dst")) \
                and (_TWO_COUNTS.search(said) or _COUNT_RANGE.search(said)) and not re.search(IDLE_WORDS, said) \
                and not _SET_AGAINST.search(said):
            # "ipu p2p latency under load 2 to 1216 tiles": the loaded value along a range of counts is its curve
            # over them, not the loaded case set against the idle one (which "quiet versus under load" asks for)
            ruled_out.add(intent)
            intent, conf = "scaling", max(conf, model_conf)
            slots.pop("count", None)
        enough = _ENOUGH_DEVICES.search(said)
        if intent == "metric_lookup" and "count" not in slots and enough and _LEVELS_OFF.search(said):
            # "lassen amoebanet-f416 speedup enough gpus to flatten": where the curve over counts levels off
            ruled_out.add(intent)
            intent, conf = "scaling", max(conf, model_conf)
            slots["count_kind"] = self.norm.count_and_kind(enough.group(3))[1] or enough.group(3)
        if intent == "metric_lookup" and "count" not in slots and _OVER_COUNTS_AT_END.search(said):
            # "supermuc-ng hanging node overhead over node": a measure over a count named last is its curve
            ruled_out.add(intent)
            intent, conf = "scaling", max(conf, model_conf)
            kind = self.norm.count_and_kind(_OVER_COUNTS_AT_END.search(said).group(2))[1]
            if kind:
                slots["count_kind"] = kind
        if series and intent == "metric_lookup":
            # "yme triad bw w/ 1 2 3 4 gpus", "amoebanet speedup on lassen 8 2048 gpus" (a spoken arrow lost): a
            # rising list of counts is the axis of a scaling curve, not one count
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "scaling", {intent})
            conf = max(conf, CONFIDENCE_FLOOR)   # the words settle it ("1..16 gpus" is as plain as "from 1 to 16")
        if intent == "scaling" and series:
            slots.pop("count", None)
            kind = self.norm.count_and_kind(series)[1]
            if kind:
                slots["count_kind"] = kind
        if intent == "scaling" and over_counts and ("count_kind" not in slots or "count" not in slots):
            # (the axis said wins over a device word read as a kind: "the IPU reduction ... as the number of
            # tiles grows" counts tiles)
            # (the one named group of the alternative that matched)
            kind = self.norm.count_and_kind(next(g for g in over_counts.groupdict().values() if g))[1]
            if kind:
                slots["count_kind"] = kind
        end = SIZE_END.search(said)
        span = size_range(words, cands)   # read once: an end of the size axis here, the range read below
        if end and _BOTH_SIZE_ENDS.search(said):
            # "start at the smallest transfer, then step up to the largest": both ends of the size axis, the sweep
            # between them, with neither end's value picked out
            if intent == "metric_lookup" or intent == "size_sweep":
                if intent != "size_sweep":
                    ruled_out.add(intent)
                intent, conf = "size_sweep", max(conf, model_conf, CONFIDENCE_FLOOR)
            if slots.get("aggregate") in ("min", "max"):
                del slots["aggregate"]
            end = None
        if end and "msg_bytes" not in slots and not _OVER_SIZES.search(said) and not span:
            # "latency of a minimum size message from ipu5 to ipu6", "busbw at the largest message size": one point,
            # at that end of the size axis (the planner picks it), not a sweep, and not the lowest value asked for
            if intent == "size_sweep":
                ruled_out.add(intent)
                intent, conf = _renormalised(self.labels["intents"], intent_probs, "metric_lookup", {intent})
                conf = max(conf, CONFIDENCE_FLOOR)
            rest = said[:end.start()] + said[end.end():]
            if slots.get("aggregate") in ("min", "max") and not re.search(
                    r"\b(min\w*|max\w*|lowest|highest|best|worst|peak|fastest|slowest|least|most)\b", rest):
                del slots["aggregate"]
        if intent == "metric_lookup" and len(set(systems)) > 1 and slots.get("metric") not in (
                "speedup", "slowdown", "improvement") and (_BOTH_SUBJECTS.search(said) or _ON_EACH.search(said)) \
                and not re.search(r"\b(over|than|beat\w*|faster|slower|times)\b", said):
            # "what time do the DGX-2 and Yme spend on ...", spoken "do the d g x two and yme require": both
            # machines the subject of one measurement, set side by side; "what latency does gpu0 see to gpu1 on yme
            # and on mini summit": the same measure on each
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, CONFIDENCE_FLOOR)
        if intent == "pair_matrix" and slots.get("aggregate") in ("max", "min") and _THE_PAIR_AT_AN_END.search(said) \
                and not (slots.get("src") and slots.get("dst")):
            # "dgx2 gpu pair with the peak tartan pcie-mode bandwidth": the one pair at that end, looked up with its
            # ends, not the whole grid
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        extreme_pairwise = _EXTREME_PAIRWISE.search(said) if intent == "pair_matrix" else None
        if extreme_pairwise and not _GRID_ASKED.search(said) and not (slots.get("src") and slots.get("dst")):
            # "what peak pairwise p2p bandwidth does yme give": the value at that end of the pairs, with its pair,
            # not every pair's
            slots.setdefault("aggregate", self.norm.aggregate(extreme_pairwise.group(1), slots.get("metric")) or "max")
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if _WHICH_PAIR_WHAT.search(said) and intent in ("metric_lookup", "out_of_scope") \
                and not (slots.get("src") and slots.get("dst")) and (slots.get("metric") or slots.get("operation")):
            # "which GPU pair shows what P2P-enabled latency on the DGX-2": every pair with its value, not the one
            # at an extreme
            ruled_out.add(intent)
            intent, conf = "pair_matrix", max(conf, CONFIDENCE_FLOOR)
            slots.pop("aggregate", None)
        cause = _COUNT_AS_CAUSE.search(said)
        if cause and intent in ("metric_lookup", "out_of_scope", "trace_breakdown", "size_sweep", "topology") \
                and "count" not in slots and not _OVER_SIZES.search(said):
            # "what effect does the GPU count have on the QTC kernel time", "how many tile counts does the broadcast
            # bandwidth span": the count is the axis the measure is read along, not a measure called "count"
            measured = _measures_named(cands) or slots.get("operation") or slots.get("app")
            if measured:
                ruled_out.add(intent)
                intent, conf = "scaling", max(conf, CONFIDENCE_FLOOR)
                said_kind = next(cause.group(k) for k in ("kind", "kind2", "kind3", "kind4", "kind5") if cause.group(k))
                kind = self.norm.named("count_kind", said_kind.replace(" ", "") + "s")
                if kind:
                    slots.setdefault("count_kind", kind)
                _count_as_axis(slots, cands)
                if slots.get("spec") == "count":
                    slots.pop("spec")            # ("dgx2 fp32 maxflops as a function of gpu count": no GPU count
                    slots.pop("part", None)      # asked of the machine's hardware)
        if intent in ("metric_lookup", "size_sweep", "congestion") and "count" not in slots \
                and _WHERE_SCALING_STOPS.search(said) and not _OVER_SIZES.search(said) \
                and not (intent == "congestion" and re.search(r"\b(congest\w*|load\w*|contention|traffic)\b", said)):
            # "at what g p u count does the dgx2 reduce scatter bandwidth stop improving at 64 MB": a point on the
            # count axis is asked for, which the scaling curve shows (the size named is where it is taken)
            ruled_out.add(intent)
            intent, conf = "scaling", max(conf, CONFIDENCE_FLOOR)
            axis = re.search(rf"\b{_COUNTS_WORD}\b|\b(gpu|ipu|node|core|rank|process) (?=count\b)", said)
            kind = self.norm.named("count_kind", axis.group(0).strip()) if axis else None
            if kind and "count_kind" not in slots:
                slots["count_kind"] = kind    # "how many gpus before ... stops improving": the count axis said
            _count_as_axis(slots, cands)   # "at what gpu count": the axis, not a measure
        if intent == "scaling" and not slots.get("count") and not slots.get("count_kind") \
                and _OVER_SIZES.search(said) and not _COUNT_AXIS.search(said):
            # "how does the all-reduce busbw change as the message grows": no count is named, the sizes are the axis
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "size_sweep", {"scaling"})
            ruled_out.add("scaling")
        if intent == "metric_lookup" and "msg_bytes" not in slots and _OVER_SIZES.search(said):
            # "dgx2 reduce_scatter time by msg size 6 gpus": the sizes are the axis asked for, no point on it
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "size_sweep", {"metric_lookup"})
            ruled_out.add("metric_lookup")
        if len(systems) > 1 and slots.get("src") and slots.get("src") == slots.get("dst") \
                and not _SELF_PAIR.search(said):
            # "GPU0 of Yme ... as opposed to GPU0 of Mini Summit": the same device named on each machine, no copy
            # from a GPU to itself
            del slots["dst"]
        elif intent in ("metric_lookup", "pair_matrix", "size_sweep") and (
                slots.get("src") and slots.get("src") == slots.get("dst")
                or bool(slots.get("src")) != bool(slots.get("dst")) and _SELF_PAIR.search(said)):
            # "the diagonal entry for GPU0 of the bandwidth matrix", "a copy within GPU0's own memory", "gpu4 to
            # gpu4": one cell, a device to itself, which is a device-to-device copy and not a peer-to-peer one
            end = slots.get("src") or slots.get("dst")
            slots["src"] = slots["dst"] = end
            if slots.get("operation") in (None, "p2p"):
                slots["operation"] = "d2d"
            if intent == "pair_matrix":   # one cell of the grid the model was sure of: its confidence carries over
                intent = "metric_lookup"
                ruled_out.add("pair_matrix")
        elif intent == "metric_lookup" and not slots.get("src") and not slots.get("dst") \
                and slots.get("operation") in (None, "p2p") and _SELF_PAIR.search(said):
            # "the titan rtx's self-copy latency", "copy bandwidth inside its own memory": a GPU copying within its
            # own memory, with no GPU named, is the device-to-device copy
            slots["operation"] = "d2d"
        if slots.get("operation") == "d2d" and _SELF_PAIR.search(said):
            if slots.get("metric") == "memory":
                # "how fast can one Summit V100 copy data within its own memory": the memory is where the copy
                # runs, not what is measured
                del slots["metric"]
                if re.search(r"\bhow (fast|quick)|\b(bandwidth|bw|rate|speed)\b", said):
                    slots["metric"] = "bandwidth"
        which_systems = _WHICH_SYSTEMS.search(said)
        keywords = bool(which_systems) and not which_systems.group(1) and any(
            slots.get(k) for k in ("link_type", "app", "library", "operation", "metric"))
        if (intent not in ("list_data", "compare_systems", "out_of_scope") or keywords and intent == "out_of_scope") \
                and "system" not in slots and not unresolved_systems(unresolved) and which_systems \
                and not _RANKING_WORDS.intersection(lw) and threshold_in(words) is None:
            # "which GPU systems have full peer-to-peer bandwidth matrices?": no system named, the systems are
            # the answer ("machines with nvlink1 links": as keywords, with something stored named, whatever the
            # model made of the words)
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "list_data", {intent})
            if keywords:
                conf = max(conf, CONFIDENCE_FLOOR)
        if intent == "scaling" and "count" in slots and _COUNT_RANGE.search(said):
            # "from 1 tile up to 19456 tiles": the ends of the curve asked for, no one count
            slots.pop("count")
        limit = threshold_in(words)
        if limit and intent == "list_data" and "system" not in slots \
                and re.match(r"(which|what) (\w+ )?(systems|machines|clusters|platforms)\b", said) \
                and (slots.get("metric") or slots.get("operation")):
            # "which systems other than the H200 pair have P2P bandwidth numbers above 100 GB/s": the systems set
            # against a line, a ranking, not the inventory of who stores it
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, CONFIDENCE_FLOOR)
        if limit and intent in ("pair_matrix", "compare_systems"):
            # "dgx2 gpu pairs above 100 GB/s": a line the pairs are set against, not a message size of 100 B;
            # "which systems reach more than 20 GB/s of h2d bandwidth": the systems set against it
            drop_numbers_read_in(slots, bounds, limit.pop("words"))
            slots["threshold"] = limit
            limit = None
        if any(sl == "msg_bytes" and _bare_number(words[a:b]) and _YEAR.fullmatch(words[a])
               and a > 0 and words[a - 1].lower() in _BEFORE_A_YEAR
               and not (b < len(words) and self.norm.size_bytes(f"1 {words[b]}")) for sl, a, b in bounds):
            # "in the 2022 congestion-control paper", "the 2019 DGX-2 measurements": a year, not 2022 bytes
            slots.pop("msg_bytes", None)
        as_rate = [sl == "msg_bytes" and b < len(words) and _RATE_WORD.fullmatch(words[b]) is not None
                   and _bare_number(words[a:b]) for sl, a, b in bounds if sl == "msg_bytes"]
        if any(as_rate) and all(as_rate):
            # "convert 25 GB/s to Gbit/s": a number with a rate's unit is a rate, not a message size of 25 bytes
            # ("58.8 GB/s busbw for a 1 MB allreduce" keeps the size said with its own unit)
            slots.pop("msg_bytes", None)
        ranked = next(((sl, a, b) for sl, a, b in bounds if sl in ("count", "msg_bytes") and "top_n" not in slots
                       and b < len(words) and words[b].lower() in _SUPERLATIVES and _bare_number(words[a:b])), None)
        if ranked is None and "top_n" not in slots:
            # "dgx2 five lowest lat pairs": a number no slot took, before a superlative
            # (a system's span that ran on into it, "dgx2 five", leaves it out when the name is whole without it)
            spanned = {i for sl, a, b in bounds for i in range(a, b) if not (
                sl == "system" and i == b - 1 > a and self.norm.value("system", " ".join(words[a:b - 1])))}
            ranked = next((("", i, i + 1) for i in range(len(words) - 1) if i not in spanned
                           and words[i + 1].lower() in _SUPERLATIVES and _bare_number(words[i:i + 1])
                           and (i == 0 or words[i - 1].lower() in _BEFORE_A_RANKING)), None)
        n_ranked = self.norm.number(" ".join(words[ranked[1]:ranked[2]])) if ranked else None
        if ranked and isinstance(n_ranked, (int, float)) and n_ranked == int(n_ranked) and 1 < n_ranked <= 50:
            # "the five slowest gemm times", "the 3 biggest sizes": how many of the ranking, not a count of
            # GPUs or a size of five bytes
            if ranked[0]:
                slots.pop(ranked[0], None)
            if ranked[0] == "count" and not any(sl == "count_kind" for sl, _, _ in bounds):
                slots.pop("count_kind", None)
            slots["top_n"] = int(n_ranked)
        if any(sl == "top_n" and a > 0 and words[a - 1].lower() == "all" for sl, a, b in bounds):
            slots.pop("top_n", None)    # "for all three apps": every one of them, not a top three
        if "top_n" in slots and not _RANKING_WORDS.intersection(lw) and any(
                sl == "top_n" and b < len(words) and words[b].lower() in _WHOLE_SETS for sl, a, b in bounds):
            slots.pop("top_n")          # "azure slowdown factors 3 apps cc off": the three apps there are, no ranking
        if limit and intent == "list_data" and re.match(r"(which|what) (msg |message |transfer |buffer )?sizes\b", said) \
                and (slots.get("metric") or slots.get("operation")):
            # "which message sizes keep the H200 in-place allreduce under 10 us": the sizes on one side of a line,
            # read off the sweep, not an inventory of what is stored
            ruled_out.add(intent)
            intent, conf = "size_sweep", max(conf, CONFIDENCE_FLOOR)
            if slots.get("count_kind") is None and "count" in slots:
                drop_numbers_read_in(slots, bounds, limit["words"])
        asks_count = _ASKS_COUNT.search(said)
        if limit and intent in ("size_sweep", "metric_lookup", "scaling") and \
                (intent != "metric_lookup" or slots.get("metric") in _SIZE_METRICS or asks_count
                 or _ASKS_SIZE.search(said)):
            # "the smallest message size at which the H200 all-reduce exceeds 100 GB/s bus bandwidth": a sweep read
            # for the size where it crosses the line; the size is the answer, the metric is the one with the unit
            drop_numbers_read_in(slots, bounds, limit.pop("words"))   # "under 20 us" is no count of 20
            slots["threshold"] = limit
            to_counts = intent == "scaling" or (intent == "metric_lookup" and asks_count
                                                 and slots.get("metric") not in _SIZE_METRICS)
            if to_counts:
                # "at what GPU count does the efficiency drop below 80%", "how many GPUs until the speedup
                # exceeds 2x": the count is the answer, read off the scaling curve
                kind = self.norm.count_and_kind(asks_count.group("kind") or asks_count.group("kind2"))[1] \
                    if asks_count else None
                if kind:
                    slots.setdefault("count_kind", kind)
                if slots.get("metric") == "count":
                    del slots["metric"]
                if "metric" not in slots:
                    named = _RATIO_WORD.search(said)
                    slots["metric"] = named.group(1) if named else ({"%": "efficiency", "x": "speedup"}.get(
                        limit["unit"]) or metric_by_unit(lw, limit["unit"]))
                slots.pop("count", None)
            elif slots.get("metric") in _SIZE_METRICS or _ASKS_SIZE.search(said):
                if slots.get("metric") in _SIZE_METRICS:
                    del slots["metric"]
                slots.pop("aggregate", None)              # "smallest" was said of the size, not of the value
                named = metric_by_unit(lw, limit["unit"])
                if named:
                    slots["metric"] = named
            if intent == "metric_lookup" and to_counts:
                intent = "scaling"   # a count asked for and a line to cross: the words settle it, as sure as the model
                ruled_out.add("metric_lookup")
            elif intent == "metric_lookup":
                intent, conf = _renormalised(self.labels["intents"], intent_probs, "size_sweep", {"metric_lookup"})
                ruled_out.add("metric_lookup")
        if intent == "size_sweep" and slots.get("metric") in _SIZE_METRICS and "threshold" not in slots:
            # "at what message size, does reduce-scatter bus bandwidth, saturate": the size is the sweep's axis;
            # the metric is the other quantity the words name (none: the planner's default for the operation)
            other = next((f["metric"] for _, _, f in cands if f.get("metric") not in (None, *_SIZE_METRICS)), None)
            if other:
                slots["metric"] = other
            else:
                del slots["metric"]
        if intent == "size_sweep" and slots.get("metric") in _NOT_A_MESSAGE_SIZE and "msg_bytes" not in slots \
                and not _SWEPT_SIZE.search(said):
            # "dgx-1 p100 inception3 batch size": the size is a setting of the run (one stored value), not the axis
            # of a message-size sweep; with one system and no word of comparing, not a comparison either
            ruled_out.add("size_sweep")
            if "compare_with" not in slots and not _SETS_SIDE_BY_SIDE.search(said) \
                    and not set(lw) & _SIDE_BY_SIDE:
                ruled_out.add("compare_systems")
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out)
            if intent in ("list_data", "topology", "trace_breakdown") and not _LISTS.search(said):
                # the model held no second reading worth the name: a setting named with nothing else is its value
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if (intent != "topology" or conf < CONFIDENCE_FLOOR) and _TOPO_TOOL.search(said):
            # "what does nvidia-smi topo -m look like on the H200 pair": the tool that prints the connection graph
            # names the graph (a confident reading of anything else, or an unsure one, gives way)
            if intent != "topology":
                ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "topology" and _ASKS_BYTES.search(said):
            # "how many bytes of buffering are there between nodes on the xmp64": a connection graph holds no bytes;
            # a stored quantity in bytes is asked for, which the lookup finds by the document's words for it
            ruled_out.add("topology")
            intent = "metric_lookup"     # the words settle it, as sure as the model was of its reading
            slots.setdefault("metric", "memory")
        if intent == "link_efficiency" and slots.get("condition") == "measured":
            del slots["condition"]        # "measured vs nominal" says what an efficiency is, not which rows
        given = nominal_in(words) if intent in ("link_efficiency", "metric_lookup") else None
        if given and intent == "metric_lookup":
            if slots.get("metric") in (None, "bandwidth") and "threshold" not in slots:
                # "host-to-device over NVLink on Mini Summit, relative to 75 GB/s": a measured rate set against a
                # rate of the user's own is a percent of that nominal, what a link-efficiency answer gives
                ruled_out.add(intent)
                intent = "link_efficiency"
                if slots.get("condition") in ("nvlink", "pcie"):
                    # the transport mode a lookup reads "over NVLink" as is, for a link's efficiency, the link
                    slots.setdefault("link_type", CONDITION_LINK_TYPES[slots.pop("condition")])
            else:
                given = None
        if given:
            # "the host-to-IPU PCIe link, measured against x8 Gen3": the user's own nominal to set it against
            at, to = given.pop("words")
            drop_numbers_read_in(slots, bounds, (at, to))
            # "titan rtx pcie efficiency vs gen3 x16": the words of the nominal name no machine to compare with
            unresolved = [u for u in unresolved if not (u[0] == "system" and u[2] < to and u[3] > at)]
            if slots.get("condition") == "measured":     # "measured against": a verb, not a kind of value
                del slots["condition"]
            slots["nominal"] = given
        if "count" not in slots:
            for i in range(len(words) - 3):
                n = self.norm.number(words[i]) if (words[i].isdigit() or words[i].lower() in _UNITS + _TENS) else None
                if isinstance(n, int) and n > 1 and spelled_device(words, i + 1) and i > 0 \
                        and words[i - 1].lower() in ("on", "with", "across", "using", "over", "at", "for"):
                    # "on sixteen g p us" tagged as a system and a broken count kind: a count of devices
                    slots["count"], slots["count_kind"] = n, ("gpus" if words[i + 1].lower() == "g" else "ipus")
                    unresolved = [u for u in unresolved if not (u[0] == "system" and u[2] <= i < u[3])]
                    break
        for st, en, sid in sys_spans + gaz_systems:
            if words[st].lower() in ("llm", "llms") and sid in systems and (
                    (en - st == 1 and en < len(words) and words[en].lower() in _LLM_WORK)
                    or (en - st == 2 and words[st + 1].lower() in _LLM_WORK)):
                # "LLM training" (with or without "training" inside the span): large language models, not the
                # LLM memory system's name
                systems.remove(sid)
        for st, en, sid in sys_spans:
            if en - st == 1 and st in gpu_model_at and len(systems) > 1 and sid in systems:
                systems.remove(sid)   # "one V100 on Summit": the counted GPU, not a second system to compare
        for st, en, sid in sys_spans + gaz_systems:
            letters = [w for w in words[st:en] if w.lower() not in ("the", "a", "an")]
            if sid in systems and letters and all(len(w) == 1 for w in letters) \
                    and in_spelled_term(" ".join(letters), said) \
                    and not any(self.norm.named("system", w) == sid for w in join_spelled(said).split()):
                # "between the c p us and g p us": letters of a term, not the machine "CP" ("i p u" names the IPU
                # system as a whole word, and stays)
                systems.remove(sid)
        for st, en, sid in sys_spans + gaz_systems:
            word = words[st] if en - st == 1 else ""
            measure = self.norm.named("metric", word) if word.islower() and sid in systems[1:] else None
            if measure and not (set(lw[max(0, st - 1):st]) & _SIDE_BY_SIDE):
                # "piuma bw 32 cores": a lower-case abbreviation that is also a machine's alias (the Broadwell "BW"
                # of MAPredict), after another system and set against nothing, is the measure
                systems.remove(sid)
                slots.setdefault("metric", measure)
        systems[:] = [sid for sid in systems if sid not in excluded]
        if systems:
            slots["system"] = systems[0]
            if len(systems) > 1:
                slots["compare_with"] = systems[1:]
        if intent == "pair_matrix" and slots.get("compare_with") and re.search(r"\bpairwise\b", said) \
                and not _GRID_ASKED.search(said):
            # "what pairwise p2p latency do the dgx2 and yme give": a measure of GPU pairs set side by side on two
            # machines, with no grid asked for, is the comparison
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, CONFIDENCE_FLOOR)
        changes_with = _CHANGES_WITH_COUNT.search(said) \
            if intent in ("trace_breakdown", "out_of_scope", "metric_lookup") else None
        counted = self.norm.count_and_kind(changes_with.group("part") + "s")[1] if changes_with else None
        if counted and "count" not in slots and not TRACE_WORD.search(said):
            # "how does the QTC kernel time of the DGX-2 shrink with GPU count": the curve over the count ("GPU
            # count" names the axis, no count measured)
            ruled_out.add(intent)
            intent, conf = "scaling", max(conf, CONFIDENCE_FLOOR)
            slots["count_kind"] = counted
            if slots.get("metric") == "count":
                del slots["metric"]
        if slots.get("metric") == "congestion_impact" and slots.get("condition") == "under_load" \
                and self.catalog is not None and isinstance(slots.get("system"), str) \
                and "under_load" not in self.catalog.conditions.get(slots["system"], set()):
            # "what congestion impact does incompact3d give on the in house cluster amid background traffic": the
            # impact is measured against the congestor's traffic; the words name that traffic, not a load condition
            # the machine stores (its conditions are congestion control on and off)
            del slots["condition"]
        if intent == "size_sweep" and slots.get("metric") in _SIZE_MEASURES and "msg_bytes" not in slots:
            # "lassen vs longhorn all-to-all crossover message size": a size is the value asked, no curve over sizes
            # ("message size" names the measure); one value, or one per machine named
            ruled_out.add(intent)
            intent, conf = ("compare_systems" if len(systems) > 1 else "metric_lookup"), max(conf, CONFIDENCE_FLOOR)
        owns = (lambda kind: self.catalog is not None and str(slots.get("system")) in self.catalog.owners.get(
            ("count_kind", kind), ()))
        if "app" not in slots and _SINGLE_PROCESS.search(said) and self.catalog is not None and (
                not slots.get("system") or str(slots["system"]) in self.catalog.owners.get(
                    ("app", "nccl_single_all_reduce"), ())):
            # "a single process all reduce ... on all four GPUs": DeepBench's single-process benchmark, not a count
            # of one process
            slots["app"] = "nccl_single_all_reduce"
            if slots.get("count_kind") == "processes" and slots.get("count") in (None, 1):
                slots.pop("count", None)
                slots.pop("count_kind")
        devices = _count_across_name(words, sys_spans + settled, self.norm) if "count" not in slots else None
        if devices:
            # "... take on eight d g x two g p us", "on 8 DGX-2 GPUs": the GPUs it ran on, counted across the
            # machine's name
            slots["count"], slots["count_kind"] = devices, "gpus"
        hyphen_count = _HYPHEN_COUNT.search(said) if "count" not in slots and self.catalog is not None else None
        if hyphen_count and isinstance(slots.get("system"), str) and getattr(
                self.catalog.systems.get(slots["system"]), "kind", None) not in ("cluster", "supercomputer"):
            n, kind = int(hyphen_count.group(1)), hyphen_count.group(2)
            have = self._parts_of_kind(slots["system"], kind)
            if have and n > have:
                # "on a 64-GPU H200 cluster": more GPUs than the machine has, a count asked for ("4-GPU AC922",
                # which it has, names the machine and stays out of the filters; a cluster's graph is one node's)
                slots["count"], slots["count_kind"] = n, f"{kind}s"
        if slots.get("operation") in (None, "d2d") and slots.get("metric") in (None, "bandwidth", "memory") \
                and self.catalog is not None and isinstance(slots.get("system"), str):
            ops = self.catalog.operations.get(slots["system"], set())
            if "d2d" not in ops and "local_memory_access" in ops and _OWN_MEMORY.search(said):
                slots["metric"] = "bandwidth"
                if intent in ("link_efficiency", "out_of_scope", "topology"):
                    ruled_out.add(intent)
                    intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
                # "how fast can an IPU get at its own memory": a chip whose memory is on the die, its local memory
                slots["operation"] = "local_memory_access" if slots.get("condition") in ("nominal", "theoretical") \
                    or "local_memory_read" not in ops else "local_memory_read"
        if intent in ("out_of_scope", "scaling", "metric_lookup", "size_sweep") and _BIGGER_CHUNKS.search(said) \
                and not slots.get("msg_bytes") and self.catalog is not None and isinstance(slots.get("system"), str):
            # "does sending bigger chunks of data between the two H200 cards get faster": a curve over sizes
            ruled_out.add(intent)
            intent, conf = "size_sweep", max(conf, CONFIDENCE_FLOOR)
            slots.pop("count_kind", None)
            ops = self.catalog.operations.get(slots["system"], set())
            sent = next((op for op in ("sendrecv", "p2p") if op in ops), None)
            if not slots.get("operation") and sent and re.search(r"\bsend(ing|s)?\b", said):
                slots["operation"] = sent    # "sending ... between the two cards": NCCL's send/receive test
        if intent == "scaling" and slots.get("count") and _ON_ALL_N.search(said) \
                and not _CURVE_SAID.search(said) \
                and not (_COUNT_RANGE.search(said) or _TWO_COUNTS.search(said) or _count_range(lw)):
            # "Yme MaxFlops double precision on all 4 GPUs": the value at the machine's full count, no curve
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent in ("size_sweep", "metric_lookup", "out_of_scope") and _EVERY_PAIR.search(said) \
                and slots.get("metric") not in ("count",) and not (slots.get("src") and slots.get("dst")):
            # "how fast is every gpu to gpu link on the DGX-2 with peer access off", "which DGX-2 GPU pairs have the
            # highest ... for 64 MB through 256 MB": the grid of pairs ("which GPU pair has the lowest", one pair,
            # stays the lookup that names it)
            ruled_out.add(intent)
            intent, conf = "pair_matrix", max(conf, CONFIDENCE_FLOOR)
            slots.pop("size_range", None)
        if intent == "scaling" and slots.get("link_type") and slots.get("metric") == "count" \
                and not slots.get("operation") and not (_COUNT_RANGE.search(said) or _count_range(lw)) \
                and self._has_links(slots):
            # "xmp64 xlink count": how many links of a kind the graph has, no curve over counts
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, CONFIDENCE_FLOOR)
            slots.pop("metric")
        if intent in ("list_data", "out_of_scope") and _UNIT_ASKED.search(said) and slots.get("system"):
            measure = slots.get("metric") or next((m for m in (self.norm.named("metric", w) for w in lw) if m), None)
            if measure:
                # "the DGX-2 memory spec, what unit is that in and how big": the value, which comes with its unit
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
                slots["metric"] = measure
        if intent == "topology" and slots.get("compare_with") and slots.get("system") \
                and _WHICH_LINK_FASTER.search(said):
            # "AC922 vs DGX-2, X-Bus vs QPI, which socket link is faster": two machines' links set against each
            # other, not their graphs
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, CONFIDENCE_FLOOR)
        placed = _PLACE_MEASURE.search(said) if "metric" not in slots else None
        if placed and intent in ("metric_lookup", "size_sweep", "compare_systems", "scaling"):
            # "reduce scatter in place time at four megabytes": the measure said right after the placement, which
            # the tagger took for part of it
            slots["metric"] = self.norm.named("metric", placed.group("m")) or placed.group("m")
        if slots.get("count_kind") == "cores" and not owns("cores") and owns("tiles"):
            # "if the IPU uses more of its little cores": an IPU's cores are its tiles, the count its data is by
            slots["count_kind"] = "tiles"
        if "aggregate" in slots and agg_surface:
            # (a span the tagger ran on from words before the extreme, "___ is the slowest": its last word that
            # is one)
            slots["aggregate"] = self.norm.aggregate(agg_surface, slots.get("metric")) or next(
                (a for a in (self.norm.aggregate(w, slots.get("metric")) for w in reversed(agg_surface.split()))
                 if a), None) or slots["aggregate"]
        if "aggregate" not in slots and intent == "metric_lookup" and lw and lw[0] in _LEADING_AGGREGATE \
                and tags[0] == "O":
            # "best h2d bw titan rtx": a terse question that opens with the extreme it wants (a word too weak
            # for the vocabulary net anywhere else in a sentence)
            slots["aggregate"] = self.norm.aggregate(lw[0], slots.get("metric"))
        arrow = _KIND_ARROW.search(said) if slots.get("operation") in (None, "h2d", "d2h", "memcpy") else None
        if arrow and self.catalog is not None and (
                slots.get("operation") != "memcpy"
                or "memcpy" not in self.catalog.operations.get(str(slots.get("system")), ())):
            # "wc->gpu0 bw 1G", "gpu1 -> pinned": a copy between a kind of host memory and a GPU, written as an
            # arrow; the GPU is the destination when the host memory comes first
            up = bool(arrow.group("kind"))
            dev = self.norm.endpoint((arrow.group("dev") or arrow.group("dev2") or "").replace(" ", ""))
            slots["operation"] = "h2d" if up else "d2h"
            for end in ("src", "dst"):
                if dev and slots.get(end) == dev:
                    slots.pop(end)
            if dev and dev != "host":
                slots["dst" if up else "src"] = dev
            kind = (arrow.group("kind") or arrow.group("kind2") or "").replace(" ", "").replace("-", "")
            if kind.startswith(("wc", "writecombined", "write_combined")) and slots.get("condition") in (None, "pinned"):
                slots["condition"] = "write_combined"      # Scope's "wc": write-combined host memory
        if slots.get("operation") in (None, "h2d", "d2h") and not (slots.get("src") or slots.get("dst")):
            # "pageable host to GPU0 bandwidth": the device end said inside the copy's own words, which the tagger
            # read as the operation alone
            end = _HOST_COPY_END.search(said)
            if end:
                dev = self.norm.endpoint(end.group("dev") or end.group("dev2"))
                if dev:
                    slots["src" if end.group("first") else "dst"] = dev
        loaded_at = ([slots["system"]] if slots.get("system") else [
            sid for sid, parts in (self.catalog.parts.items() if self.catalog is not None and slots.get("src") else ())
            if slots["src"] in parts and slots.get("dst", slots["src"]) in parts]   # "from i p u five to i p u six"
        ) if _LOAD_IN_WORDS.search(said) else []
        if loaded_at and (intent in ("metric_lookup", "pair_matrix", "out_of_scope", "congestion")
                          or intent == "scaling" and not slots.get("count")) \
                and len(loaded_at) == 1 and slots.get("condition") in (None, "under_load") \
                and self.catalog is not None \
                and "under_load" in self.catalog.conditions.get(str(loaded_at[0]), ()):
            # "what happens to the ipu5 -> ipu6 latency when all the other tiles are sending too": load described in
            # words, set against the quiet case
            ruled_out.add(intent)
            intent, conf = "congestion", max(conf, CONFIDENCE_FLOOR)
            changes = _LOAD_CHANGES.search(said)
            if changes and not re.search(r"\b(under|with) (load|congestion|contention)\b|\bloaded\b",
                                         said[:changes.start()] + said[changes.end():]):
                slots.pop("condition", None)   # "how does load change ...": both sides, neither taken
            else:
                slots["condition"] = "under_load"
            if re.search(r"\b(load|contention|traffic) slows?\b", said) and slots.get("metric") in (None, "bandwidth") \
                    and not re.search(r"\b(bandwidth|bw|busbw|latency|throughput|time)\b", said):
                slots["metric"] = "slowdown"   # "how much does load slow P2P traffic from IPU5 to IPU4": by a factor
        idle = _WITHOUT_LOAD.search(said)
        if idle and slots.get("condition") in (None, "congestion_free") \
                and not _LOAD_PAIR_WORDS.search(said[:idle.start()] + " " + said[idle.end():]) \
                and not re.search(r"\b(with|and|or) (without|w/o)\b", said):
            # "ipu5 to ipu4 peak bandwidth without load": one side of the load pair, looked up, not the pair
            slots["condition"] = "congestion_free"
            if intent == "congestion":
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if slots.get("exclude") and not slots.get("compare_with") and slots.get("system") \
                and re.search(r"\bminus\b", said) and intent in ("metric_lookup", "out_of_scope", "compare_systems"):
            # "dgx1 v100 minus dgx1 p100 h2d bw": a system "minus" another is a difference, not an exclusion
            slots["compare_with"] = slots.pop("exclude")
        if (intent in ("metric_lookup", "out_of_scope") or intent == "size_sweep" and not _OVER_SIZES.search(said)) \
                and slots.get("compare_with") and slots.get("system") \
                and _DIFFERENCE.search(said) and not asks_advice(said):
            # "by how many GB/s does the DGX-2's GPU0 -> GPU1 bandwidth exceed Yme's", "dgx1 v100 minus dgx1 p100
            # h2d bw": a difference between two machines' numbers is their comparison
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, CONFIDENCE_FLOOR)
            slots.pop("exclude", None)
            slots.pop("aggregate", None)    # ("how much lower": the comparative asks for no lowest value)
        if intent == "metric_lookup" and slots.get("compare_with") and slots.get("system") \
                and _WHICH_OF_THEM.search(said):
            # "text query latency on client 1, client 2 and client 3, which laptop answers quickest": several
            # machines named and the one that does best asked for is a comparison, not one lookup per machine
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, CONFIDENCE_FLOOR)
        counted = _HOW_MANY_DONE.search(said)
        if counted and not slots.get("metric") and slots.get("system") \
                and self.catalog is not None and any(
                    m == "count" and op and cond != "spec" and slots.get("operation") in (None, op)
                    for m, op, cond in getattr(self.catalog, "volume", {}).get(str(slots["system"]), {})) \
                and counted.group("what").rstrip("s") not in _PART_WORDS | _COUNTED_NOT_DONE:
            # "how many code variants did the autotuner try on ZEN": a number of things a run did, which the
            # system stores as a count of what an operation did (its parts counted are the spec reader's: "how many
            # GPUs does it have"; a spec sheet's counts are no run's: "how many ECC errors did it report")
            slots["metric"] = "count"
            if intent in ("out_of_scope", "list_data"):
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        many = _HOW_MANY_OF.search(said) if slots.get("metric") in (None, "latency", "bandwidth", "time") \
            and isinstance(slots.get("system"), str) \
            and self.catalog is not None and "count" in self.catalog.metrics.get(slots["system"], ()) else None
        if many and intent in ("out_of_scope", "list_data", "metric_lookup") and set(
                re.findall(r"[a-z]+", many.group("what"))) - _COUNTED_GENERIC \
                & self.catalog.label_words.get(slots["system"], set()):
            # "how many runs of each permutation went into the XMP-64 latency measurements": a count the document
            # states, found by its own words ("permutation"), not the inventory of what was measured
            slots["metric"] = "count"
            if intent != "metric_lookup":
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if slots.get("metric") == "cost" and _COST_AS_A_VERB.search(said):
            # "how much does disabling P2P cost the DGX-1 on 1000 MB copies": what a setting costs a run is a
            # change in its measures, not a price (the one stored "cost" is a simulator's)
            del slots["metric"]
            if intent == "out_of_scope":
                intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out | {"out_of_scope"})
                conf = max(conf, CONFIDENCE_FLOOR)
        if slots.get("metric") == "slowdown" and _SLOWS_DOWN.search(said) and _COUNT_RANGE.search(said) \
                and intent in ("out_of_scope", "metric_lookup", "scaling") and self.catalog is not None \
                and "slowdown" not in self.catalog.metrics.get(str(slots.get("system")), ()):
            # "does the all-reduce slow down going from 1 to 16 GPUs": a time followed over the counts, where the
            # machine stores no slowdown figure
            slots["metric"] = "time"
            if intent != "scaling":
                ruled_out.add(intent)
                intent, conf = "scaling", max(conf, CONFIDENCE_FLOOR)
        if _NO_DIRECT_PATH.search(said) and slots.get("condition") in (None, "p2p_on") and self.catalog is not None \
                and "p2p_off" in self.catalog.conditions.get(str(slots.get("system")), ()):
            # "if the two H200 cards aren't allowed to talk to each other directly": peer access off
            slots["condition"] = "p2p_off"
            if slots.get("metric") == "time" and _HOW_MUCH_SLOWER.search(said) \
                    and "time" not in self.catalog.metrics.get(str(slots["system"]), ()) \
                    and "slowdown" in self.catalog.metrics.get(str(slots["system"]), ()):
                # "how many times longer does it take when the cards can't copy straight to each other": the
                # slowdown the document states
                slots["metric"] = "slowdown"
                if intent == "out_of_scope":
                    ruled_out.add(intent)
                    intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        cut = _CUTS.search(said)
        if cut and slots.get("metric") in (None, "time", "latency", "energy") and self.catalog is not None \
                and f"{cut.group('what') or cut.group('before')}_reduction" in self.catalog.metrics.get(
                    str(slots.get("system")), ()):
            # "by how much does the simulated photonic memory cut energy": the measure cut is the one the verb
            # takes ("low-latency" in the machine's description names none)
            slots["metric"] = cut.group("what") or cut.group("before")
        shrink = (_SHRINKS.search(said) or cut) if slots.get("metric") in ("time", "latency", "energy") else None
        if shrink and self.catalog is not None and (intent in ("metric_lookup", "out_of_scope", "compare_systems")
                                                    or intent == "scaling" and not _COUNT_RANGE.search(said)) \
                and f"{slots['metric']}_reduction" in self.catalog.metrics.get(str(slots.get("system")), ()):
            # "by how much does the ccz4 update time shrink on Hamilton 8": the reduction the paper states, not the
            # time itself
            slots["metric"] = f"{slots['metric']}_reduction"
            if slots.get("operation") and slots["metric"] not in self.catalog.op_metrics(str(slots.get("system")),
                                                                                          slots["operation"]):
                slots.pop("operation")    # (a 16 MB all-to-all's latency cut is stored for the all-to-all)
            if intent in ("out_of_scope", "scaling"):
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        at_count = _RELATIVE_AT_COUNT.search(said) if intent == "scaling" else None
        if at_count and slots.get("metric") in ("speedup", "efficiency") \
                and str(slots.get("count")) == at_count.group("n"):
            # "chifflot horovod speedup on 12 gpus vs 2": a speedup is already relative to the smaller count, so
            # one count against its base is the one stored figure at that count, not the curve
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent == "metric_lookup" and slots.get("compare_with") and slots.get("system") \
                and slots.get("metric") != "speedup" and not _SPEEDUP_ASKED.search(said) \
                and not _HOW_MUCH_FASTER.search(said) and not _BY_WHAT_FACTOR.search(said) \
                and not _A_DOCUMENT.search(said) and _SET_SIDE_BY_SIDE.search(said):
            # "gtx980 -> titan rtx upgrade, fp64 peak gain", "Yme and Mini Summit pinned H2D at 1 GiB as two bars:
            # what are the two values?": two machines set side by side in words are compared; only a factor one of
            # them states over the other ("the IPU's PRNG speedup over the V100") is looked up, and a document's
            # name may hold a machine's ("Listing 30 in the DGX-2/AC922 report has Yme's copies"); "what is X on yme
            # and on the dgx2" stays a lookup of each
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, CONFIDENCE_FLOOR)
        apply_cues(intent, words, slots)
        if intent == "compare_systems" and slots.get("metric") in ("slowdown", "speedup") and slots.get("system") \
                and _DIFFERENCE.search(said) and self.catalog is not None and not any(
                    slots["metric"] in self.catalog.metrics.get(str(x), ())
                    for x in [slots["system"], *(slots.get("compare_with") or [])]):
            # "how much longer does a text query take on client-1 than on client-3": the time itself, set side by
            # side, where no machine compared stores a slowdown
            del slots["metric"]
        as_far_as_it_gets = _AS_HIGH_AS_IT_GETS.search(said) if intent == "metric_lookup" else None
        if as_far_as_it_gets and "aggregate" not in slots:
            # "... bus bandwidth of the h two hundred pair when it is as high as it gets": its highest value
            slots["aggregate"] = "min" if slots.get("metric") in self.vocab.lower_is_better and \
                as_far_as_it_gets.group("x") in ("low", "small", "short") else "max"
        extreme = _ONE_EXTREME_PAIR.search(said) if intent == "pair_matrix" else None
        if extreme and extreme.group(1) and "aggregate" not in slots:
            # "dgx2 best pcie-mode p2p latency pair": the extreme word the tagger left, for the metric named
            slots["aggregate"] = self.norm.aggregate(extreme.group(1), slots.get("metric"))
        if extreme and slots.get("aggregate") in ("max", "min") and not _WHOLE_GRID.search(said):
            # "dgx2 slowest gpu pair pcie mode latency": the one pair at the extreme and its value, not the grid
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "pair_matrix" and slots.get("metric") in NOT_PER_PAIR and not (slots.get("src") or
                                                                                     slots.get("dst")):
            # "how much buffering is there between nodes on the XMP-64": a figure of the machine said with
            # "between"; a memory, power or clock is no measure of a pair of endpoints
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "metric_lookup", {intent})
            conf = max(conf, model_conf)
        if slots.get("operation") == "p2p" and slots.get("condition") in ("p2p_on", "p2p_off") \
                and self._without_p2p(slots) and _P2P_SETTING.search(said):
            # "what P2P-enabled latency does p2pBandwidthLatencyTest report on the Titan RTX": peer access is the
            # setting the run was made with; the one-GPU machine's copies are within the GPU (d2d), no transfer
            # between two GPUs was asked for
            del slots["operation"]
        if intent in ("metric_lookup", "list_data", "out_of_scope", "topology") and _PARTS_ASKED.search(said) \
                and self._has_parts(slots) and not slots.get("metric"):
            # "what hardware is in the RTX 3080 annealing machine", "what memories hang off the Xeon Phi": the
            # machine's parts, which the graph lists (an operation said as the machine's purpose, "annealing
            # machine", is no measurement asked for)
            if intent != "topology":
                ruled_out.add(intent)
            intent, conf = "topology", max(conf, CONFIDENCE_FLOOR)
            slots["view"] = "parts"    # the parts themselves, which a machine without a stored graph also lists
        elif intent in ("metric_lookup", "list_data", "out_of_scope") and _LAID_OUT.search(said) \
                and self._has_parts(slots) and not slots.get("metric"):
            # "show me how PIUMA's cores, switches and chips are laid out": the machine's graph (its parts where no
            # link is stored)
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, CONFIDENCE_FLOOR)
            if not self._has_links(slots):
                slots["view"] = "parts"
            if _PURPOSE_BEFORE_MACHINE.search(said):
                slots.pop("operation", None)
        if "system" not in slots and (intent in ("metric_lookup", "list_data", "out_of_scope") or (
                intent == "pair_matrix" and not _PAIR_WORD.search(said)) or (
                intent == "trace_breakdown" and not TRACE_WORD.search(said))) \
                and (slots.get("metric") or slots.get("operation") or slots.get("app")) \
                and _RANKS_SYSTEMS.search(said):
            # "which system has the highest host to device bandwidth?", "rank the systems by allreduce bandwidth":
            # no system named, and the question asks which is best: each system that stores it, compared (the
            # words settle it: at least as sure as the model was of its first reading, and never below the floor,
            # where a model unsure between a list and a comparison would have it refused)
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, model_conf, CONFIDENCE_FLOOR)
            if limit and "words" in limit and "threshold" not in slots:
                # "which systems reach more than 20 GB/s of h2d bandwidth": the line the ranking is set against
                drop_numbers_read_in(slots, bounds, limit.pop("words"))
                slots["threshold"] = limit
        if intent == "topology" and len(systems) > 1 and _SETS_SIDE_BY_SIDE.search(said) \
                and not slots.get("link_type") and not _GRAPH_ASKED.search(said):
            # "How do the DGX-2 and Yme stack up?": two machines set side by side, and nothing says how they are
            # wired: their measures compared
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, model_conf)
        nominal = self.catalog is not None and _NOMINAL.search(said) and not _asks_efficiency(said) \
            and not _SET_AGAINST_NOMINAL.search(said) and not slots.get("link_type") \
            and slots.get("condition") in (None, "nominal") and slots.get("metric") in (None, "bandwidth") \
            and "nominal" in self.catalog.conditions.get(str(slots.get("system")), set())
        if nominal and intent in ("link_efficiency", "metric_lookup"):
            # "ac922 nominal bw", "ac922 nominal bandwidth": the rate the machine's documents state, stored as the
            # condition "nominal" (the tagger may read the word into the measure's name); a kind of link named ("the
            # x-bus nominal bandwidth") has its rate in the graph
            slots["condition"] = "nominal"
            if _RATE_SAID.search(said):
                slots["metric"] = "bandwidth"
        if intent == "link_efficiency" and nominal and slots.get("metric") == "bandwidth":
            # "ac922 nominal bw unidirectional": the rate the machine's documents state, stored as such; no
            # measurement is set against it
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent in ("metric_lookup", "out_of_scope") and slots.get("metric") == "count" and slots.get("link_type") \
                and not any(slots.get(k) for k in ("app", "msg_bytes", "condition")) \
                and (not slots.get("operation") or slots["operation"] == "p2p" and self.catalog is not None
                     and "count" not in self.catalog.metrics.get(str(slots.get("system")), set())) \
                and self._has_links(slots):
            # "h200 nvlink count": how many links of a kind the machine has, which its graph holds; "... between the
            # 2 gpus" says where the links run, on a machine that stores no counts
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots.pop("operation", None)
        if intent in MEASUREMENT_INTENTS and _DRAW_FIRST.match(said) and slots.get("system") \
                and self._has_links(slots):
            # "draw the interconnect of the IPU system and tell me its IPU-to-IPU latency": two asks, the graph
            # first; it is drawn, and the note says the second is a question of its own
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
            asked = " ".join(str(slots.pop(k)) for k in ("operation", "metric") if slots.get(k))
            if asked:
                notes.append(f"the graph first; ask for the {asked} on its own")
        if intent in ("topology", "link_efficiency") and len(systems) > 1 and (
                _LINKS_COMPARED.search(said) or intent == "link_efficiency" and _COPY_COMPARED.search(said)) \
                and not _asks_efficiency(said):
            # "does the h200 pair have fatter peer links than the dgx-2": how fast the links are, set side by side
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots.setdefault("metric", "bandwidth")
            slots.setdefault("operation", "p2p")
        if intent == "scaling" and len(systems) > 1 and not (slots.get("count") or slots.get("count_kind")) \
                and _SETS_SIDE_BY_SIDE.search(said) and not _CURVE_ASKED.search(said):
            # "does yme beat the dgx two by more than two x on pageable h2d bandwidth": a factor between two
            # machines, nothing counted and no curve asked for
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, model_conf)
        if intent == "scaling" and len(set(systems)) > 1 and re.search(r"\bcompar(e|es|ed|ing|ison)\b", said) \
                and not _ELIDED_VALUE.search(said):
            # "how do the fp32 maxflops trends of yme and the dgx-2 compare as the gpu count grows": the machines
            # compared on the measure (one curve cannot hold two machines), the count only the way it is put
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, model_conf)
            slots.pop("count_kind", None)
            _count_as_axis(slots, cands)
        if (intent == "metric_lookup" or intent in ("size_sweep", "scaling") and not _CURVE_ASKED.search(said)
                and not _OVER_SIZES.search(said) and "count" not in slots) and len(systems) > 1 \
                and _WHILE_THE_OTHER.search(said):
            # "the DGX-2 moves 11 GB/s host to device while Mini Summit only gets 30": two machines' values set
            # against each other as a contrast, no curve asked for
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, model_conf)
        if intent == "size_sweep" and slots.get("compare_with") and len(systems) > 1 \
                and (_ALTERNATIVE.search(said) or re.search(r"\bcompared (to|with)\b", said)):
            # "how does the scope allreduce time of the titan rtx desktop grow with message size as opposed to the
            # gtx 980 desktop": one curve per machine is what the sweep cannot draw; the machines are compared
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, model_conf)
        if (intent == "metric_lookup" or intent == "out_of_scope" and _ALTERNATIVE.search(said)
                and (slots.get("metric") or slots.get("app")) and not asks_advice(said) and self.catalog is not None
                and slots.get("metric") in (None, *self.catalog.metrics.get(str(slots.get("system")), ()))) \
                and len(systems) > 1 and (_SETS_SIDE_BY_SIDE.search(said) or _WHILE_THE_OTHER.search(said)
                                          or _COMPARATIVE_ACROSS.search(said) or _BOTH_GIVE.search(said)):
            # "how does the dgx-2 p2p bandwidth stack up against yme over nvlink": two machines set side by side on
            # one measure, not a value looked up on each; "Yme's copies hit 72 GB/s while the DGX-2 manages only
            # 12": the same, said as a contrast; "what overhead does SuperMUC-NG and Summit give" (the plural verb
            # heard as "does"): the two as one subject, as "do ... give" is read
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, model_conf)
        if _RESPECTIVELY.search(said) and slots.get("src") and slots.get("dst") \
                and intent in ("metric_lookup", "compare_systems", "out_of_scope"):
            # "What FP64 MaxFlops do the DGX-2 and Yme reach on GPU8 and GPU3, respectively?": one GPU of each
            # machine (or at each size), not a copy from the first GPU to the second; the machines are compared on
            # the measure, as one query cannot hold a GPU per machine
            slots.pop("src")
            slots.pop("dst")
            if len(systems) > 1 and intent != "compare_systems":
                ruled_out.add(intent)
                intent, conf = "compare_systems", max(conf, model_conf)
            if isinstance(slots.get("msg_bytes"), int) and len(
                    {f["msg_bytes"] for _, _, f in cands if "msg_bytes" in f}) > 1:
                slots.pop("msg_bytes")   # "... at 1 MiB and 1 GiB, respectively": a size per GPU, none for all
        if intent in ("metric_lookup", "link_efficiency", "compare_systems") and len(systems) > 1 \
                and _ELIDED_VALUE.search(said):
            # "yme gets high fp64 max flops on gpu three but does mini summit on gpu one": the second machine's clause
            # repeats the first's with its own GPU, no copy between the GPUs named; the machines are compared
            ends = [a2 for a2, _, found in cands if "endpoint" in found]
            but = [i for i, w in enumerate(words) if w.lower() == "but"]
            if slots.get("src") and slots.get("dst") and but and any(e < but[0] for e in ends) \
                    and any(e > but[0] for e in ends):
                slots.pop("src")
                slots.pop("dst")
            if intent != "compare_systems":
                ruled_out.add(intent)
                intent, conf = "compare_systems", max(conf, model_conf)
        if slots.get("operation") == "mesh" and self.catalog is not None and isinstance(slots.get("system"), str) \
                and "mesh" not in self.catalog.operations.get(slots["system"], set()):
            # "the entire NVLink2 mesh of the DGX-1 V100": the machine's network, not the mesh stencil of the
            # ISC papers' codes, which the machine never ran
            slots.pop("operation")
        if not slots.get("condition") and isinstance(slots.get("system"), str) and self.catalog is not None \
                and not _asks_efficiency(said) and not _SET_AGAINST_A_REFERENCE.search(said):
            # "ipu local memory read bandwith theoretical": the stated figure a machine stores, named by one word
            # the vocabulary does not trust alone ("theoretical" is mostly a reference to set a measurement against)
            stored = self.catalog.conditions.get(slots["system"], set())
            said_alone = [c for c in ("theoretical", "nominal") if c in stored and re.search(rf"\b{c}\b", said)]
            if len(said_alone) == 1:
                slots["condition"] = said_alone[0]
        held = held_condition(slots, cands, self.catalog)
        if held:
            # "p100 hbm2 bandwidth spec (dgx-1)": "hbm2" is a condition of another system's rows; "spec", also
            # said, is one the DGX-1 P100 stores (read before the rule below, which asks whether it is stored)
            slots["condition"] = held
        if intent == "link_efficiency" and slots.get("condition") in ("theoretical", "nominal", "spec") \
                and not _asks_efficiency(said) and not slots.get("nominal") \
                and slots.get("metric") in (None, "bandwidth") and self.catalog is not None and slots.get("system") \
                and slots["condition"] in self.catalog.conditions.get(slots["system"], set()):
            # "what is the theoretical local memory read bandwidth": the stated figure itself, which the system
            # stores; no word asks how close a measurement gets to it ("ac922 x-bus nominal bandwidth": a kind of
            # link and nothing measured named, the link's rated bandwidth, which the connection graph holds)
            ruled_out.add(intent)
            if slots.get("link_type") and not any(slots.get(k) for k in ("operation", "src", "dst", "app")) \
                    and self._has_links(slots) and not _BUNDLED_LINK.search(said):
                # (a bundle of links named, "the triple NVLink", is the document's figure for the bundle)
                intent, conf = _renormalised(self.labels["intents"], intent_probs, "topology", {intent})
            else:
                intent, conf = _renormalised(self.labels["intents"], intent_probs, "metric_lookup", {intent})
            conf = max(conf, model_conf)
        if intent == "scaling" and isinstance(slots.get("count"), int) and _AT_ONE_COUNT.search(said) \
                and not _CURVE_ASKED.search(said) \
                and intent_probs[self.labels["intents"].index("metric_lookup")] >= SCALING_POINT_RUNNER_UP:
            # "strong scaling efficiency of amoebanet on lassen at 2048 gpus": one count, named as where the value
            # is taken, and no word asks for the curve: a point on it, when the model itself weighed a lookup
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "metric_lookup", {intent})
            conf = max(conf, model_conf)
        if intent == "scaling" and isinstance(slots.get("count"), int) and _OVER_SIZES.search(said) \
                and not _OVER_COUNTS.search(said) and not _COUNT_SPAN.search(said):
            # "dgx-2 allreduce bandwidth of message size grows, 2 gpus": one count, and the axis the words ask for is
            # the message size: a sweep over sizes at that count
            ruled_out.add(intent)
            intent, conf = "size_sweep", max(conf, model_conf)
        if intent == "link_efficiency" and _WHERE_PEAK.search(said) and not OF_PEAK.search(said) \
                and "efficiency" not in said and not slots.get("link_type"):
            # "where does pageable host->GPU0 bandwidth peak on Yme, and how high does it get": where a curve
            # peaks is a point of the size sweep, not a fraction of a link's peak
            ruled_out.add(intent)
            intent, conf = "size_sweep", max(conf, model_conf)
            slots["aggregate"] = "max"
            if slots.get("metric") in (None, "efficiency"):
                slots["metric"] = "bandwidth"
        if intent == "size_sweep" and "metric" not in slots and "saturat" in said:
            # "what message size saturates nccl all_gather": what saturates is a bandwidth (a time only grows)
            slots["metric"] = "bandwidth"
        if intent == "trace_breakdown" and len(set(_TIME_CATEGORY.findall(said))) >= 2:
            # "where does rank 1 spend its time: compute, communication or memory?": the categories a trace's time
            # splits into, named as the choices, are no measure or operation to filter on
            if slots.get("metric") == "memory":
                del slots["metric"]
            if slots.get("operation") in ("compute", "communication"):
                del slots["operation"]
        if intent == "trace_breakdown" and slots.get("metric") and slots["metric"] not in TRACE_MEASURES \
                and not TRACE_WORD.search(said):
            # "h2d bandwidth pinned vs pageable on the gtx980": a bandwidth is in no profiler trace, and no word
            # says trace; the next reading (the trace planner would refuse it with a trace's wording)
            intent, conf = _next_intent(self.labels["intents"], intent_probs,
                                        ruled_out | {"trace_breakdown"} | _unasked(systems, excluded, said))
            ruled_out.add("trace_breakdown")
        if intent == "scaling" and not (slots.get("count") or slots.get("count_kind")) \
                and slots.get("metric") not in ("speedup", "efficiency") and not _COUNT_WORDS.search(said):
            # "peak tensor tflops of the dgx-1 v100": nothing counted, nothing grows; a curve over counts was read
            # at 25%: the next reading (a grid of pairs only where a pair is spoken of)
            ruled_out.add("scaling")
            if not _PAIR_WORD.search(said):
                ruled_out.add("pair_matrix")
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out)
        if intent == "metric_lookup" and slots.get("src") and slots.get("dst") and slots.get("metric") in (
                None, "bandwidth") and slots.get("condition") in ("nominal", "theoretical", "spec") \
                and not OF_PEAK.search(said) and not re.search(r"\b(measured|achieved|reach\w*|efficien\w*|"
                                                               r"percent|fraction|share)\b", said):
            # "the nominal link rate between GPU0 and GPU3 on the DGX-1 V100": the rated bandwidth of the link
            # between them, which the connection graph holds (no copy measured it)
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf)
            slots.pop("condition")
            slots.pop("operation", None)
            slots.pop("metric", None)
        if intent in ("metric_lookup", "pair_matrix", "link_efficiency") and slots.get("src") and slots.get("dst") \
                and "metric" not in slots and _REACHES.search(said):
            # "how does g p u three reach g p u twelve on the d g x two": the way there, not a copy's bandwidth
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf)
        if intent in ("pair_matrix", "metric_lookup", "list_data", "out_of_scope") and _PER_LINK_TYPE.search(said) \
                and not _MEASURE_SAID.search(said) and not (slots.get("src") and slots.get("dst")) \
                and (slots.get("system") or systems):
            # "dgx-1 v100 links, one table row per link type": the links, grouped by their type, which the graph
            # holds with their rates; no measure is named
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
            for k in ("metric", "operation"):
                slots.pop(k, None)
        if intent in ("metric_lookup", "pair_matrix", "link_efficiency", "out_of_scope") and slots.get("src") \
                and slots.get("dst") and _LINK_KIND_ASKED.search(said) and not _MEASURE_SAID.search(said) \
                and (slots.get("system") or systems):
            # "h200 gpu0-gpu1 link type": what joins the pair, which the graph holds; no measure is named
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
            for k in ("metric", "operation"):
                slots.pop(k, None)
        copy_way = "h2d" if _HOST_INTO_GPU.search(said) else "d2h" if _GPU_INTO_HOST.search(said) else None
        if copy_way and slots.get("operation") in (None, "p2p") and slots.get("metric") in (None, "bandwidth", "time",
                                                                                          "latency") \
                and intent in ("out_of_scope", "metric_lookup", "topology", "size_sweep", "compare_systems"):
            # "how fast can the host push data into a GPU on the DGX-1 P100": a host-to-device copy, in plain words
            slots["operation"] = copy_way
            if slots.get("src") == "host" and copy_way == "h2d" or slots.get("dst") == "host" and copy_way == "d2h":
                slots.pop("src" if copy_way == "h2d" else "dst")
            if slots.get("metric") is None and _HOW_FAST.search(said):
                slots["metric"] = "bandwidth"
            if intent in ("out_of_scope", "topology"):
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "size_sweep" and isinstance(slots.get("msg_bytes"), int) and not any(
                k in slots for k in ("size_range", "threshold", "conditions", "aggregate", "top_n")) \
                and not (_OVER_SIZES.search(said) or _CURVE_ASKED.search(said) or _TREND.search(said)
                         or SIZE_END.search(said) or _CURVE_OF_SIZES_SAID.search(said)):
            # "no rounding plz: h200 sendrecv time for 8 byte messages, out of place": one size and no word of a
            # curve, however the model leaned: the value at that size
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf)
        if intent == "metric_lookup" and slots.get("src") and slots.get("dst") and slots.get("aggregate") \
                and isinstance(slots.get("system"), str) and _THE_EXTREME_PAIR.search(said) and "pairs" not in slots:
            # "wasn't GPU0 to GPU15 the slowest pair for latency on the DGX-2": a pair checked against the extreme,
            # which the grid answers (its extremes, and the pair asked about beside them)
            ruled_out.add(intent)
            intent, conf = "pair_matrix", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots["pairs"] = [[slots.pop("src"), slots.pop("dst")]]
        board = _SAME_BOARD.search(said)
        if intent in ("metric_lookup", "pair_matrix", "trace_breakdown", "out_of_scope", "topology") \
                and (slots.get("src") or slots.get("dst")) and board \
                and slots.get("metric") in (None, "share" if board.group("share") else None):
            # "which GPUs of the DGX-2 sit on the same baseboard as GPU5": where a part sits among the others, which
            # the connection graph shows (the words settle it, however unsure the model was); "share a baseboard"
            # shares no measure
            if intent != "topology":
                ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots.pop("metric", None)
            if "src" not in slots:
                slots["src"] = slots.pop("dst")
        if OF_PEAK.search(said) and intent in ("scaling", "link_efficiency", "metric_lookup", "out_of_scope") \
                and not slots.get("link_type") and not (slots.get("src") or slots.get("dst")) \
                and not _LINK_OR_COPY.search(said) and slots.get("operation") not in POINT_TO_POINT \
                and (_COMPUTE_OR_MEMORY.search(said) or slots.get("metric") == "flops") \
                and (intent != "scaling" or not (slots.get("count") or slots.get("count_kind"))) \
                and not (intent == "link_efficiency" and slots.get("operation") and self._has_links(slots)):
            # "measured GEMM TFLOPS on the IPU and what fraction of theoretical peak that is", "STREAM triad ... versus
            # its theoretical peak": a device's measured rate against its stated peak, no link's (a stated efficiency
            # of an operation is link_efficiency's, where the system has a link graph)
            stated = self.catalog is not None and (str(slots.get("system")), "efficiency", slots.get("operation"),
                                                    slots.get("condition")) in self.catalog.combos
            if stated and slots.get("app") and slots.get("metric") in (None, "efficiency", "bandwidth"):
                # "after optimisation, what fraction of peak memory bandwidth does SU3_Bench achieve on the CLX 8280":
                # the share the paper states for that run, not a bandwidth to set against a peak
                slots["metric"] = "efficiency"
            elif slots.get("metric") in (None, "efficiency", "throughput"):
                slots["metric"] = "flops" if re.search(r"flop|gemm|compute|fp(16|32|64)|precision", said) \
                    else "bandwidth"
            if slots.get("condition") in ("theoretical", "nominal", "spec", "measured", "peak"):
                del slots["condition"]
            if intent != "metric_lookup":
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, model_conf)
        if intent == "trace_breakdown" and "metric" not in slots and _HOW_FAST.search(said) \
                and not TRACE_WORD.search(said) and slots.get("operation") in COLLECTIVE_OPS:
            # "how fast is allreduce on the h200": a collective's speed is what nccl-tests measured, and no word
            # asks where a trace's time went: the next reading (a lookup gives the measure quoted for it); "how much
            # faster is allreduce on the H200 than on the DGX-2": two systems set side by side, compared
            ruled_out.add("trace_breakdown")
            if slots.get("compare_with"):
                intent, conf = "compare_systems", max(conf, model_conf)
            else:
                intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out)
        if intent == "pair_matrix" and MEMORY_BANDWIDTH.search(said) and not _PAIR_WORD.search(said) \
                and not (slots.get("src") or slots.get("dst")):
            # "show me the memory bandwidth of each GPU on the DGX-2": each GPU's own memory, no pair of GPUs
            ruled_out.add(intent)
            intent = "metric_lookup"
            if slots.get("operation") == "p2p":
                del slots["operation"]
        if intent == "metric_lookup" and slots.get("metric") == "efficiency" and slots.get("operation") in (
                None, "p2p", "h2d", "d2h") and not slots.get("app") and (OF_PEAK.search(said) or slots.get(
                    "operation") == "p2p" and _P2P_EFFICIENCY.search(join_spelled(said))) \
                and isinstance(slots.get("system"), str) and self._has_links(slots):
            # "what percentage of its nominal rate does a P2P-disabled 1000 MB copy achieve on the DGX-1 V100": a
            # copy's share of its link's rate, which link_efficiency answers with the link it crossed; "the p2p
            # efficiency of the DGX-1 P100" is that share too
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "link_efficiency" and slots.get("metric") in ("busbw", "algbw") and not slots.get("nominal") \
                and not _asks_efficiency(said) and "nominal" not in said:
            # "peak busbw for allreduce on the h200 node": the highest bus bandwidth measured; no word sets it
            # against a link's rate
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf)
            if _PEAK.search(said):
                slots.setdefault("aggregate", "max")
        if intent == "link_efficiency" and slots.get("metric") in _NO_LINK_MEASURE:
            # "v100 tensor core fp16 peak on the dgx1": a FLOP rate (the cues read "peak" with a precision as one)
            # or a time is no link's, whatever "peak" rates
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out | {"link_efficiency"})
            ruled_out.add("link_efficiency")
        if intent == "topology" and slots.get("metric") in _MEASURED_ONLY and slots.get("operation") \
                and not (slots.get("src") and slots.get("dst")):
            # "allreduce busbw on the h200 node": a collective's bus bandwidth is a measurement, never a property
            # of the connection graph (a route between two named devices stays a graph question)
            ruled_out.add("topology")
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out)
            conf = max(conf, model_conf)
        if intent == "pair_matrix" and slots.get("metric") == "efficiency" and slots.get("link_type") \
                and not (slots.get("src") and slots.get("dst")):
            # "percent of nominal for the NVLink x2 pairs on the DGX-1 V100": a percent of a link's rate, which the
            # link-efficiency answer gives per class of pairs (no grid of per-pair efficiencies is stored)
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, model_conf)
        lt_said = slots.get("link_type") or CONDITION_LINK_TYPES.get(str(slots.get("condition")))
        if intent == "metric_lookup" and lt_said and _EXISTS.search(said) \
                and not any(f.get("metric") for _, _, f in cands) and not slots.get("msg_bytes"):
            # "mini summit - any gpu to gpu nvlink at all?": whether a link is there, which the graph says; no
            # measure was asked for
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf)
            slots = {k: v for k, v in slots.items() if k in ("system", "src", "dst")}
            slots["link_type"] = lt_said
        if intent in ("metric_lookup", "pair_matrix", "out_of_scope", "link_efficiency") \
                and _SHARES_A_LINK.search(join_spelled(_unpunctuated(said))) \
                and slots.get("metric") in (None, "share", "count") and not slots.get("msg_bytes"):
            # "which gpus on yme share an nvlink with gpu2", "which gpus sit behind the same pcie switch": which
            # parts a link joins, which the graph says (the "share" is no share of anything measured)
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf)
            slots = {k: v for k, v in slots.items() if k in ("system", "src", "dst", "link_type")}
            if lt_said:
                slots["link_type"] = lt_said
        by_links = _PAIRS_BY_LINKS.search(join_spelled(_unpunctuated(said))) if intent == "topology" else None
        if by_links:
            # "which pairs get 2 links": the pairs the graph joins by that many links (app.intents.topology)
            n = by_links.group("n")
            slots["link_count"] = int(n) if n.isdigit() else _LINK_COUNT_WORDS[n]
            if slots.get("count") == slots["link_count"] and not slots.get("count_kind"):
                del slots["count"]
        if intent in ("topology", "pair_matrix", "metric_lookup") and slots.get("link_type") and slots.get("system") \
                and _PAIRS_WITHOUT_LINK.search(join_spelled(_unpunctuated(said))) and self._has_links(slots):
            # "which GPU pairs on the DGX-1 V100 have no NVLink between them": the pairs its graph leaves unjoined
            if intent != "topology":
                ruled_out.add(intent)
                intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots = {k: v for k, v in slots.items() if k in ("system", "link_type")}
            slots["link_count"] = 0
        if intent == "topology" and "operation" not in slots \
                and slots.get("metric") in ("bandwidth", "latency", "time") \
                and not re.search(r"\b(links?|paths?|routes?|hops?|wired|connect\w*)\b", said) \
                and not any(_has_number(str(slots.get(k, ""))) for k in ("src", "dst")) \
                and any(f.get("operation") in ("h2d", "d2h") and en - st >= 3 for st, en, f in cands):
            # "dgx1 v100 bandwidth from host to device": a measured copy between the host and a GPU, no link of the
            # graph (the host read as a source is the copy's side)
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf)
        if "operation" not in slots and intent != "topology":
            # "device to host" tagged as a source "device" and a destination "host" names the copy itself
            for st, en, found in cands:
                if found.get("operation") in ("h2d", "d2h") and en - st >= 3:
                    slots["operation"] = found["operation"]
                    unresolved = [u for u in unresolved if u[3] <= st or u[2] >= en]
                    break
        if "operation" not in slots and intent != "topology" and "host" in (slots.get("src"), slots.get("dst")) \
                and _COPY_WORD.search(said) and re.search(r"\b(gpus?|g p us?|devices?)\b", said):
            # "copies from a GPU back to the host": a copy between a GPU and the host is the host transfer, its
            # direction the host's side (the host is implied by the operation, as in "d2h")
            slots["operation"] = "d2h" if slots.get("dst") == "host" else "h2d"
            slots.pop("dst" if slots.get("dst") == "host" else "src")
        if intent == "metric_lookup" and OF_PEAK.search(said) and slots.get("metric") in (None, "efficiency") \
                and slots.get("operation") in POINT_TO_POINT and self._has_links(slots) \
                and (intent_probs[self.labels["intents"].index("link_efficiency")] >= GRID_RUNNER_UP
                     or _OF_LINK_RATE.search(said)):
            # "what percentage of nominal do copies from a GPU back to the host reach on the AC922": a copy's rate
            # against its link's nominal one is the link's efficiency, a reading the model held too (or the link's
            # rate is named: "what percentage of the link rate do gpu to gpu copies get")
            ruled_out.add(intent)
            intent, conf = _renormalised(self.labels["intents"], intent_probs, "link_efficiency", {intent})
        link_share = _HOW_MUCH_OF_A_LINK.search(said)
        if intent == "metric_lookup" and link_share and slots.get("metric") in (None, "bandwidth") \
                and slots.get("operation") in (None, *POINT_TO_POINT) and self._has_links(slots):
            # "how much of the n v link rate does tartan get on the d g x two": a copy's rate as a share of the
            # link's own, the link's efficiency
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots.pop("metric", None)
            if not slots.get("link_type") and re.sub(r"\W", "", link_share.group("link")) in ("nvlink", "nvlinks"):
                slots["link_type"] = "NVLink"
        if intent == "metric_lookup" and slots.get("link_type") and slots.get("metric") in (None, "bandwidth") \
                and (_SHARE_OF_IT.search(said) or _SHARE_OF_A_LINK.search(said)) and self._has_links(slots):
            # "first look up the DGX-1 V100's NVLink2 rate, then tell me what percentage of it GPU-to-GPU copies
            # reach": the link's rate named first, then the share of it the copies reach, is the link's efficiency
            # ("gtx980 pinned d2h % of pcie": a share of the link named)
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, CONFIDENCE_FLOOR)
            slots.pop("metric", None)
        if intent == "metric_lookup" and slots.get("metric") == "utilization" and slots.get("link_type") \
                and self.catalog is not None and slots.get("system") \
                and "utilization" not in self.catalog.metrics.get(slots["system"], set()) and self._has_links(slots):
            # "xeon 8280 upi utilization su3_bench": how much of a link a run used, where no utilization is stored,
            # is its measured rate against the link's own: the link's efficiency
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, CONFIDENCE_FLOOR)
            slots["metric"] = "efficiency"
        link_said = slots.get("link_type") or CONDITION_LINK_TYPES.get(str(slots.get("condition")))
        if intent in ("metric_lookup", "list_data", "topology") and link_said \
                and not slots.get("app") and slots.get("metric") in (None, "bandwidth") \
                and slots.get("operation") in (None, *_MOVES_DATA) and _USES_ITS_LINK.search(said) \
                and self._has_links({**slots, "link_type": link_said}):
            # "one number for how well Heid uses its NVLinks": the links' measured rate against their own (also
            # for one kind of copy: "how well do Yme's NVLink2 bricks use their 75 GB/s on GPU-to-GPU copies")
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, CONFIDENCE_FLOOR)
            slots["link_type"] = link_said
            if slots.get("condition") in CONDITION_LINK_TYPES:
                slots.pop("condition")
        if intent == "size_sweep" and isinstance(slots.get("msg_bytes"), int) and "size_range" not in slots \
                and _ONE_ROW.search(said):
            ruled_out.add(intent)       # "in the row where size is 2^27": that size's value
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent == "size_sweep" and "msg_bytes" not in slots and slots.get("aggregate") in ("max", "min") \
                and _PEAK_VALUE_ASKED.search(said):
            # "what would the peak of the H200 in-place all-reduce busbw curve be?": the one highest value
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent == "size_sweep" and "msg_bytes" not in slots and _LARGE_MESSAGES.search(said) \
                and not _BOTH_ENDS.search(said) and not re.search(_MOVES_OVER_NAMED_SIZES, said):
            # "ipu5 to ipu4 bandwidth for big messages, no congestion": the largest size's value
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent == "link_efficiency" and (slots.get("src") == "host") != (slots.get("dst") == "host") \
                and not (slots.get("src") and slots.get("dst")) and slots.get("operation") in (None, "h2d", "d2h"):
            # "how much of its PCIe link does the DGX-1 P100 use when copying from the host": the host end alone
            # says the copy's direction, not a pair of ends
            slots["operation"] = "h2d" if slots.pop("src", None) == "host" else "d2h"
            slots.pop("dst", None)
        if intent == "link_efficiency" and not slots.get("link_type") \
                and slots.get("condition") in CONDITION_LINK_TYPES:
            # "how well is the PCIe utilised ... for host-to-device copies": the link asked about, no copy's condition
            slots["link_type"] = CONDITION_LINK_TYPES[slots.pop("condition")]
        if intent == "list_data" and isinstance(slots.get("operation"), str) and isinstance(slots.get("system"), str) \
                and self.catalog is not None and slots["system"] in self.catalog.systems \
                and slots["operation"] not in self.catalog.operations.get(slots["system"], set()):
            # "metrics stored for the llm memory simulation": a word of the machine's name read as an operation it
            # never ran is no filter on its inventory
            notes.append(f"{slots.pop('operation')} is not an operation of {self.catalog.name(slots['system'])}: "
                         "its whole inventory")
        if intent == "metric_lookup" and isinstance(slots.get("operation"), str) \
                and isinstance(slots.get("system"), str) and self.catalog is not None \
                and slots["system"] in self.catalog.systems \
                and slots["operation"] not in self.catalog.operations.get(slots["system"], set()) \
                and slots.get("metric") in self.catalog.metrics.get(slots["system"], set()) \
                and str(slots["operation"])[:6].lower() in self.catalog.name(slots["system"]).lower():
            # "ipc on the piuma simulation": a word of the machine's name ("Intel PIUMA (simulated)") read as an
            # operation it never ran is no filter on its rows
            notes.append(f"{slots.pop('operation')} is not an operation of {self.catalog.name(slots['system'])}: "
                         "read as part of its name")
        if intent == "metric_lookup" and slots.get("metric") == "efficiency" and link_said \
                and self.catalog is not None and slots.get("system") and not slots.get("app") \
                and "efficiency" not in self.catalog.metrics.get(slots["system"], set()) and self._has_links(
                    {**slots, "link_type": link_said}):
            # "mini summit envy link efficiency between the two gpus" (the link heard as the NVLink setting): no
            # efficiency is stored there, so the efficiency of a link is its measured rate against its own
            ruled_out.add(intent)
            intent, conf = "link_efficiency", max(conf, CONFIDENCE_FLOOR)
            if not slots.get("link_type"):
                slots["link_type"] = link_said
                slots.pop("condition")
        device_end(slots)
        dev = {"h2d": "dst", "d2h": "src"}.get(slots.get("operation"))
        if dev and dev not in slots:
            # "device to host g p u one" tagged as one destination "host ...": the GPU is still named there
            sizes = [(a, b) for sl, a, b in bounds if sl == "msg_bytes"]
            ends = [f["endpoint"] for st, en, f in cands if f.get("endpoint") not in (None, "host")
                    and not any(st < b and a < en for a, b in sizes)]   # "to the GPU, 1 GB": the 1 is the size's
            if ends:
                slots[dev] = ends[0]
        if slots.get("metric") == "flops" and slots.get("precision") and not slots.get("operation") \
                and "aggregate" not in slots and _PEAK.search(said) and self.catalog is not None:
            # "double precision peak flops titan rtx versus yme": the peak of a rate is what SHOC's MaxFlops
            # measures where every system asked about ran it (_max_flops), not the best of whatever kernels were
            # timed; elsewhere (a spec sheet's peak) nothing more is read
            slots["aggregate"] = "max"
            _max_flops(intent, slots, self.catalog)
            slots.pop("aggregate", None)      # (what _max_flops did not take for MaxFlops: not said as such)
        ends = endpoints_in_order(words, cands, self.endpoints)
        read_ends = {slots.get("src"), slots.get("dst")} - {None}
        if len(ends) == 2 and read_ends and read_ends < set(ends):
            # "the i p u five to i p u six bandwidth": two devices said, but the tagger ran one into a system span:
            # both ends, in the order said
            slots["src"], slots["dst"] = ends
        elif len(ends) == 2 and [slots.get("src"), slots.get("dst")] == ends[::-1] \
                and not re.search(r"\b(from|to|into|towards?|back)\b", said):
            # "ipu tile 646, tile 0 latency" (a transcript that lost the arrow): with no word that says which end is
            # which, the ends are in the order said
            slots["src"], slots["dst"] = ends
        elif len(ends) == 2 and _TO_THEN_FROM.search(said) and set(ends) == {slots.get("src"), slots.get("dst")}:
            # "latency to gpu1 from gpu0": the end said after "from" is the source, whatever the order
            slots["src"], slots["dst"] = ends[1], ends[0]
        elif len(ends) == 2 and not read_ends and intent in ("metric_lookup", "out_of_scope", "compare_systems") \
                and _ONE_TO_THE_OTHER.search(said) and not _RESPECTIVELY.search(said):
            # "what latency does i p u five see to i p u four": both devices named, the tagger took neither as an
            # end; a "to" between them says the first sends to the second
            slots["src"], slots["dst"] = ends
        drop_own_name(slots, self.catalog.components.get(str(slots.get("system")), set())
                      if self.catalog is not None else None)
        if intent in ("metric_lookup", "out_of_scope", "pair_matrix") and slots.get("metric") == "count" \
                and slots.get("link_type") and slots.get("src") and slots.get("dst") and self._has_links(slots):
            # "h200x2 nvlink count gpu0 gpu1", "h200 gpu0-gpu1 nvlink count": how many links join the pair, which the graph holds
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, CONFIDENCE_FLOOR)
        if "library" not in slots and slots.get("operation"):
            lib = api_library(words, self.vocab)
            if lib:
                slots["library"] = lib     # "ncclAllReduce": the call names its library as well as its operation
        # "the Kokkos port of m-Cubes", "compared with the CUDA version": a programming model or a code's version,
        # tagged as a name, is no machine the data lacks
        unresolved = [u for u in unresolved if not (u[0] == "system" and _names_no_machine(u[1]))]
        if slots.get("system"):
            # "what temperature did the mini summit report in nvidia s m i": the tool that printed it, beside the
            # machine named, is no second machine the data lacks
            unresolved = [u for u in unresolved if not (u[0] == "system" and part_of_an_app(u[1], self.catalog))]
        if not slots.get("system") and self.catalog is not None:
            for u in [u for u in unresolved if u[0] == "system"]:
                held = _part_by_model(u[1], self.catalog.parts)
                if held:
                    # "when Hey CAI ran on the K80": a processor model that one loaded machine alone holds is
                    # that machine's part
                    slots["system"] = held[0]
                    if held[1].startswith(("gpu", "cpu")) and not slots.get("src"):
                        slots["src"] = held[1]
                    unresolved.remove(u)
                    notes.append(f"read “{u[1]}” as {held[1].upper()} of {self.described.names.get(held[0], held[0])}, "
                                 "the only loaded machine with one")
                    break
        named_at = {k for a, b, _ in sys_spans + gaz_systems for k in range(a, b)} | {
            k for m in used for k in range(m.start, m.end)} | {k for u in unresolved for k in range(u[2], u[3])}
        unresolved = [u for u in unresolved if not (u[0] == "system" and _A_VARIANT.match(u[1]))]
        own = own_machine(words, named_at)
        if own:
            # "compare our A100 cluster's NCCL all-reduce with the DGX-2": the asker's own machine, named by words
            # that name no stored system, is a machine the data lacks (however the tagger read the possessive)
            unresolved.append(("system", *own))
        asked_systems = intent == "list_data" and "system" not in slots and bool(_WHICH_SYSTEMS.search(said))
        unnamed = "system" not in slots
        infer_implicit(intent, slots, self.catalog, unknown=[u[1] for u in unresolved if u[0] == "system"
                                                             and not part_of_an_app(u[1], self.catalog)],
                       traces=bool(TRACE_WORD.search(" ".join(words))))
        if unnamed and isinstance(slots.get("system"), str) and not asked_systems and self.catalog is not None:
            # "how close to peak do IPU-Links get": no machine named, and one alone has what the words name; the
            # answer says whose it is (as the asker does for an application only one machine ran)
            notes.append(only_system_note(self.catalog.name(slots["system"])))
        if asked_systems:
            # "which systems have PyTorch traces?": the systems are the answer, even where only one has them
            slots.pop("system", None)
        cond = slots.get("condition")
        if isinstance(cond, str):
            forms = [re.escape(x.lower()) for x in [cond.replace("_", " "), cond.replace("_", "-"),
                                                     *self.vocab.surfaces("condition", cond)]]
            named = rf"\b({'|'.join(forms)})s? (paper|article)\b"
            joined = said.replace(" - ", "-")     # "hanging - node paper" as the tokens leave a typed hyphen
            if re.search(named, joined) and not re.search(rf"\b({'|'.join(forms)})\b", re.sub(named, " ", joined)):
                # "in the hanging node paper, ...": the paper's name, not the condition its rows were measured under
                # (said again outside the name, "the compression paper's compressed all-to-all", it is one)
                del slots["condition"]
        sid_ = slots.get("system")
        if isinstance(sid_, str) and self.catalog is not None and not slots.get("condition") \
                and _VENDOR_CLAIM.search(said) and "vendor_claim" in self.catalog.conditions.get(sid_, set()):
            slots["condition"] = "vendor_claim"   # "nvidias best case speedup claim for the dgx two"
        if isinstance(sid_, str) and self.catalog is not None \
                and (_HOW_MUCH_FASTER.search(said) or _SPEEDUP_ASKED.search(said)) \
                and slots.get("metric") in (None, "bandwidth", "time", "latency") and not slots.get("compare_with") \
                and (sid_, "speedup", slots.get("operation"), slots.get("condition")) in self.catalog.combos:
            if intent in ("congestion", "out_of_scope", "scaling") and not _CONGESTION_SAID.search(said):
                # "according to NVIDIA, by what factor does the DGX-2 beat the generation before it": the stored
                # factor settles the reading, however the model read the rest
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
            if intent == "metric_lookup":
                conf = max(conf, CONFIDENCE_FLOOR)
                notes[:] = [n for n in notes if not n.startswith("no metric given")]
            # "how much faster are write-combined device-to-host copies on yme": the speedup the machine's document
            # states for exactly that copy
            if slots.get("operation"):
                notes.append(f"how much faster asked: the stored speedup of {slots.get('operation')} "
                             f"{str(slots.get('condition')).replace('_', '-')}, stated for the copy, not per GPU")
            else:
                notes.append("how much faster asked: the speedup stored"
                             + (f" ({str(slots['condition']).replace('_', ' ')})" if slots.get("condition") else ""))
            slots["metric"] = "speedup"
            slots.pop("src", None)
            slots.pop("dst", None)
        if slots.get("metric") in ("bandwidth", "busbw", "algbw") and _IN_BITS.search(said):
            notes.append("asked in bits per second: rates are stored in bytes per second (1 GB/s = 8 Gbit/s)")
        has_n = _HAS_N_DEVICES.search(said)
        if has_n and isinstance(slots.get("count"), int) and intent != "scaling" \
                and self.norm.number(has_n.group("n")) == slots["count"] and self.catalog is not None \
                and slots["count"] == len([c for c in self.catalog.components.get(str(slots.get("system")), ())
                                           if re.fullmatch(r"(gpu|ipu)\d+", c)]):
            # "mini summit has two gpus so show me ... between them": how many devices the machine has, said as a
            # (true) fact about it, is no count to pick rows by (a wrong one, "the dgx-2 has 8 gpus, right?", is a
            # premise the answer corrects)
            slots.pop("count")
            if not re.search(r"\b(per|each|every)\b", said):
                slots.pop("count_kind", None)
        joined = said.replace("gpu ", "gpu")     # "into gpu 2" as "into gpu2", the endpoint's id
        if isinstance(slots.get("src"), str) and not slots.get("dst") and slots["src"] != "host" \
                and re.search(rf"\b(into|onto) (the )?{re.escape(slots['src'])}\b", joined) \
                and not re.search(rf"\b(from|out of) (the )?{re.escape(slots['src'])}\b", joined):
            # "the write-combined path into GPU2 on Yme": the device written into is where the copy ends
            slots["dst"] = slots.pop("src")
        if slots.get("condition") == "p2p_on" and _PEER_ACCESS_OFF.search(said) and not re.search(
                r"\b(enabled?|switched on|turned on|on (and|or|vs\.?|versus) off|off (and|or|vs\.?|versus) on)\b", said):
            # "peer access on the H200 pair can be switched off, right? with it disabled, what ...": the access named,
            # then switched off
            slots["condition"] = "p2p_off"
        deepbench_kind = _DEEPBENCH_KIND.search(said) or _DEEPBENCH_PROCESSES.search(said)
        if deepbench_kind and not slots.get("app") and slots.get("operation") in (None, "allreduce"):
            # "dgx2 deepbench single allreduce", "in the single process deep bench test": DeepBench's single-process
            # all-reduce, by the word its name keeps
            kind = deepbench_kind.group("kind") or deepbench_kind.group("kind2")
            slots["app"] = "nccl_single_all_reduce" if kind == "single" else "nccl_mpi_all_reduce"
            slots.setdefault("operation", "allreduce")
        if slots.get("metric") in (None, "speed", "throughput") and _FAN_SPINNING.search(said):
            # "how fast was the fan on the g t x nine eighty spinning": the fan's speed, however far the words are apart
            slots["metric"] = "fan_speed"
            if intent == "out_of_scope" and slots.get("system"):
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        changed = change_metric(said, slots, self.catalog) if self.catalog is not None else None
        base_metric = str(slots.get("metric")).removesuffix("_difference")
        if changed and intent == "compare_systems" and slots.get("compare_with") and slots["metric"] != base_metric \
                and all(base_metric in self.catalog.metrics.get(str(s), set())
                        for s in [slots.get("system"), *slots["compare_with"]]):
            # "percentage difference in 12-GPU Horovod efficiency, Chifflet vs Gemini": the difference between the
            # machines, which the comparison gives, not a difference one paper stores on one of them
            slots["metric"] = base_metric
            changed = None
        if changed:
            notes.append(changed)
        prec = unsaid_precision(slots, self.catalog) if self.catalog is not None else None
        if prec:
            notes.append(prec)
            implied_by_intent(intent, slots, self.catalog)    # the metric the operation implies (flops)
        if mended:
            notes.append("read " + ", ".join(f"“{_POSSESSIVE_GAP.sub('', a)}” as “{b}”" for a, b in mended))
        notes.extend(described)
        if context:
            notes.append(f"left out as context: “{' '.join(context)}”")
        notes.extend(framed)
        if task:
            notes.append(f"“{' '.join(task)}”: the facts for it below; the wording is yours")
        if reason:
            notes.append(f"“{' '.join(reason)}” read as why you ask, not as part of the question")
        if presented:
            notes.append(f"“{' '.join(presented)}” read as how to answer, not as part of the question")
        if cited:
            notes.append(f"“{cited}” read as where the number is printed; every answer cites its own source")
        fam = operation_family(intent, words, covered | hit_words, slots, self.catalog)
        if fam:
            notes.append(fam)
        if str(slots.get("operation")).startswith("local_memory") and self.catalog is not None:
            # "how fast can an IPU write its local memory": the write, a speed (not the memory's size)
            # (unless the read is said: "I'm writing a chapter ... the local-memory read bandwidth")
            if re.search(r"\bwrit(e|es|ing)\b", said) and not re.search(r"\bread(s|ing)?\b", said) \
                    and "local_memory_write" in self.catalog.operations.get(
                    str(slots.get("system")), ()):
                slots["operation"] = "local_memory_write"
                if fam:
                    notes.remove(fam)
            if slots.get("metric") == "memory":
                slots["metric"] = "bandwidth"
        if slots.get("metric") == "clock" and slots.get("operation") and self.catalog is not None \
                and isinstance(slots.get("system"), str):
            # "the tile-local memory clock of the ipu system": a clock is the part's, stored under the one operation
            # the document lists it with (the IPU's memory_access row for its tile-local memory), not under the
            # operation the words also name (local memory reads)
            clocked = self.catalog.metric_ops(slots["system"], "clock")
            if slots["operation"] not in clocked and len(clocked) == 1:
                slots["operation"] = next(iter(clocked))
        if "app" not in slots and self.catalog is not None:
            notes.extend(app_family(unresolved, slots, self.catalog))
            named_program = self._program_named(words, cands, slots)
            if named_program:
                slots["app"] = named_program
        elif isinstance(slots.get("app"), str) and self.catalog is not None:
            notes.extend(app_spelled_otherwise(slots, self.catalog))
        if self.catalog is not None and (not slots.get("app") or isinstance(slots.get("app"), str)):
            joined = _joined_app(said, slots.get("app"), self.catalog.apps)
            if joined:
                # "wav two vec with joint bert": two programs run as one pipeline, stored under their joined name
                slots["app"] = joined
        device_end(slots)                   # again, for an operation only the data named (app -> operation)
        if intent == "topology" and len(several_values(words, cands, "link_type")) > 1:
            # "does GPU0 -> GPU7 go over PCIe or NVLink?": which links the route takes is the question, so no one
            # link type (nor the transport mode a benchmark recorded) narrows it
            slots.pop("link_type", None)
            if slots.get("condition") in ("nvlink", "pcie"):
                del slots["condition"]
        if intent == "trace_breakdown":
            slots.pop("aggregate", None)    # "which kernels take the most time": a breakdown is ranked by time already
        if intent in ("metric_lookup", "topology") and slots.get("link_type") and slots.get("metric") == "bandwidth" \
                and self.catalog is not None and isinstance(slots.get("system"), str) and not any(
                    slots.get(k) for k in _MEASURED_BY_NAME) and not _SUMMED_OVER_LINKS.search(said):
            # "what bandwidth does an IPU-Link carry": the rate of a kind of link, which the graph holds where a
            # source states it (a lookup cannot pick rows by link and gave the machine's top number); where none
            # does ("... an XLink of the XMP-64"), nothing stored answers it
            rate = self.catalog.link_rate(slots["system"], slots["link_type"])
            if intent == "metric_lookup" and rate == "rated":
                ruled_out.add(intent)
                intent, conf = "topology", max(conf, model_conf)
            elif rate == "unrated" and intent == "topology":
                # (a link the machine lacks, "infiniband bandwidth between the h200 nodes", is refused by name later)
                ruled_out.add(intent)
                intent = "out_of_scope"
        if intent == "topology" and "dst" in slots and "src" not in slots:
            # "which GPUs have no NVLink to GPU0?": links have no direction; the one device named is where they start
            slots["src"] = slots.pop("dst")
        both = _BOTH_GPUS.search(said)
        if both and "count" not in slots and slots.get("operation") not in POINT_TO_POINT and intent != "topology" \
                and not re.search(r"\bbetween( the)?\s*$", said[:both.start()]):
            # "an all-reduce across both H200 GPUs", "the two H200s": the system's name says how many GPUs ran it
            # ("between the two H200 GPUs" names a pair's two ends instead)
            slots["count"], slots["count_kind"] = 2, "gpus"
        if slots.get("count") in (100, 1000) and _VAGUE_HUNDREDS.search(said):
            # "somewhere past a few hundred GPUs": a region of the axis, no count to filter on
            slots.pop("count")
        if slots.get("count") and not slots.get("count_kind") and _NOT_COUNTED.search(said):
            # "as two bars of the same height: what are the two values?": how many things the chart or the answer
            # holds, no devices counted
            slots.pop("count")
        if slots.get("count") == 1 and _FROM_A_DEVICE.search(said) and not _ONE_DEVICE.search(said):
            # "faster from a GPU on one NUMA node than from the other": where a copy starts or ends, not one GPU
            # counted
            slots.pop("count")
            slots.pop("count_kind", None)
        if read_count and (slots.get("operation") in POINT_TO_POINT or intent == "pair_matrix" and not slots.get(
                "operation")) and slots.get("count_kind") not in _LOAD_COUNTS:
            # "between the two GPUs" names a pair, not a GPU count, for a transfer between two endpoints, as "both
            # GPUs" does for a grid of pairs, whose transfers are p2p below ("when all 19456 tiles are sending" counts
            # the senders of the load, which the IPU's rows store)
            slots.pop("count", None)
            slots.pop("count_kind", None)
        if "operation" not in slots and intent != "topology" and \
                ((intent == "pair_matrix" and "system" in slots) or (
                    slots.get("condition") in ("p2p_on", "p2p_off") and not self._without_p2p(slots))):
            # a grid of pairs, or peer access turned on or off, is about transfers between two devices (unless the
            # machine has one GPU: the Titan RTX's "p2p off" runs copy within it)
            slots["operation"] = "p2p"
            notes.append("no operation given: p2p (device-to-device transfers between different endpoints)")
        if slots.get("condition") in ("nominal", "theoretical") and _DEVICE_MEMORY_SAID.search(said) \
                and self.catalog is not None and all(
                    "spec" in self.catalog.conditions.get(x, set()) for x in [slots.get("system"), *systems]
                    if isinstance(x, str)) and (slots.get("system") or systems):
            # "which has more HBM2 bandwidth on paper": a GPU memory's rate on paper is its spec sheet's figure
            # (the machine's nominal figures are its links')
            slots["condition"] = "spec"
        if not slots.get("condition") and _SPECIFICATION.search(said) and self.catalog is not None \
                and isinstance(slots.get("system"), str) \
                and "spec" in self.catalog.conditions.get(slots["system"], set()):
            # "which FP64 rate is quoted for the GTX 980 in its specification": the spec sheet's figure
            slots["condition"] = "spec"
            if not slots.get("metric") and slots.get("precision") and re.search(r"\b(rate|peak|throughput)\b", said):
                slots["metric"] = "flops"     # a rate at a floating-point precision is a FLOP rate
        held = held_condition(slots, cands, self.catalog)
        if held:
            # (read again: a rule since may have changed the system or the condition)
            slots["condition"] = held
        if intent == "link_efficiency" and slots.get("metric") == "share":
            slots["metric"] = "efficiency"    # "what share of the X bus bandwidth do copies get": of the link's rate
        if intent in MEASUREMENT_INTENTS and items_per_second(said, slots, self.catalog):
            notes.append("things counted per second: read as a throughput")
        if copy_bandwidth(intent, slots, self.catalog, words):
            notes.append("no metric given: bandwidth, what a copy between memories is quoted by")
        if intent == "size_sweep" and "msg_bytes" in slots and (
                len({f["msg_bytes"] for _, _, f in cands if "msg_bytes" in f}) > 1
                or any(sl == "msg_bytes" and a > 0 and lw[a - 1] in _BOUND_WORDS for sl, a, b in bounds)):
            # "from 8 bytes up to 4 GB", "from tiny messages up to 4 GiB": sizes that bound the sweep; a size
            # alone is a point to read off it
            del slots["msg_bytes"]
        if intent != "scaling" and "count" not in slots:
            # "between GPUs", "bytes per tile": what is counted matters only with a count, or as a scaling axis
            slots.pop("count_kind", None)
        if intent == "topology" and not _RANKING_WORDS.intersection(lw):
            slots.pop("top_n", None)    # "how are the sixteen chips linked": every one of them, no ranking
        if intent == "size_sweep" and not slots.get("msg_bytes") and not slots.get("size_range") \
                and not SIZE_WORD.search(said) and not _TREND.search(said) and not _OVER_SIZES.search(said) \
                and not _WHERE_PEAK.search(said) and not _BIGGER_CHUNKS.search(said):
            # "how big is the slowdown for GPU0 -> GPU1 copies with peer access disabled": no size, no word of sizes
            # or of a curve; a sweep over sizes is the model's reading alone (and so is a grid of pairs where no pair
            # or end is named: "titan rtx sort bandwidth shoc")
            ruled_out.add(intent)
            unpaired = set() if slots.get("src") or slots.get("dst") or GRID_OF_PAIRS.search(said) else {"pair_matrix"}
            intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out | {"out_of_scope"} | unpaired)
            conf = max(conf, model_conf)
        if intent in ("trace_breakdown", "compare_systems", "metric_lookup", "topology", "out_of_scope") and (
                (_TRACES_HELD.search(said) or _HAS_DATA.search(said)) and not _IN_THE_TRACES.search(said)
                or _SOURCES_ASKED.search(said)
                if intent == "trace_breakdown"
                else _HAS_DATA.search(said) or (_APPS_HELD.search(said) and slots.get("system"))
                or _SOURCES_ASKED.search(said)) \
                and not any(slots.get(k) for k in ("metric", "operation", "msg_bytes", "src", "dst")):
            # "loaded traces + ranks", "which of the SU3_Bench reference devices have data: ...", "callgraph cluster
            # apps profiled": what is stored, asked with nothing measured named, is the inventory
            ruled_out.add(intent)
            intent, conf = "list_data", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent in ("pair_matrix", "size_sweep", "out_of_scope") and _SOURCES_ASKED.search(said) \
                and (slots.get("metric") or slots.get("operation")) and not (slots.get("src") or slots.get("dst")) \
                and not re.search(r"\b(pairs?|pairwise|matri\w*|grids?|heat ?maps?|between)\b", said):
            # "which file or table does Yme's 1 MiB all-reduce time on 2 GPUs come from": where one number is
            # printed, which its lookup cites (no grid of pairs, no curve)
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "list_data" and slots.get("condition") == "under_load" and _LOADED_AS_HELD.search(said) \
                and not _UNDER_SOME_LOAD.search(said) and not re.search(r"\bunder (\w+ )?load|\bcongest", said):
            # "what's loaded for mapredict skylake and broadwell": loaded into the database, no load on a link
            del slots["condition"]
        if ALL_COLLECTIVES.search(said) and slots.get("operation") in (None, "p2p") and "compare_with" not in slots \
                and slots.get("system") and intent not in ("topology", "list_data", "trace_breakdown", "scaling"):
            # "plot bus bandwidth for all collectives on the h200 pair", "which collective is fastest at 1 MB": each
            # collective the system stores, at the size asked or over sizes (app.ask expands "collectives")
            slots.pop("operation", None)
            slots.setdefault("metric", "busbw")   # nccl-tests' measure for setting collectives side by side
            ruled_out.add(intent)
            if slots.get("aggregate") in ("max", "min") and slots.get("msg_bytes") is None \
                    and re.search(r"\bwhich (one |\w+ )?(collective|operation)\b", said):
                # "which collective reaches the highest busbw on the h200 pair": the one extreme over every stored
                # collective and size, the winner named first
                intent = "metric_lookup"
            else:
                slots["operations"] = "collectives"
                # one size, or nccl-tests' own average of each ("avg bus bandwidth all collectives"): values looked up
                if re.search(r"\b(avg|average|mean)\b", said) and slots.get("msg_bytes") is None:
                    slots["aggregate"] = "mean"
                intent = "metric_lookup" if slots.get("msg_bytes") is not None or slots.get("aggregate") == "mean" \
                    else "size_sweep"
            # the words settle the reading: the model's doubt (a comma heard where none was typed) does not reopen it
            conf = max(conf, model_conf, CONFIDENCE_FLOOR)
        ops = several_operations(words, cands + family_spans(words, slots, self.catalog))
        if len(ops) > 1 and intent == "size_sweep" and "compare_systems" in ruled_out \
                and not _OVER_SIZES.search(said):
            # "sgemm vs dgemm flops on the dgx2": read as a comparison, on one system; no sweep asked: looked up
            intent = "metric_lookup"
        sizes = several_values(words, cands, "msg_bytes")
        if span and intent in ("metric_lookup", "scaling", "size_sweep") and "compare_with" not in slots:
            # "dgx2 allreduce bw 256B-1GB 16 gpus", "from 8 bytes to 128 MB": a range of sizes is the curve over
            # them, drawn between its ends; neither end is a point asked for (no msg_bytes)
            if intent != "size_sweep":
                ruled_out.add(intent)
                intent, conf = "size_sweep", max(conf, CONFIDENCE_FLOOR)
            slots.pop("msg_bytes", None)
            slots["size_range"] = list(span)
        if len(sizes) > 1 and intent in ("metric_lookup", "scaling", "compare_systems", "size_sweep") \
                and "compare_with" not in slots and not ops \
                and not re.search(r"\b(between|from|range|up to|through|over)\b", said):
            # "h200 bcast busbw 64M vs 1G": two sizes set side by side; each is looked up (app.ask)
            ruled_out.add(intent)
            intent = "metric_lookup"
            slots["msg_bytes"], slots["sizes"] = sizes[0], sizes
            if "count_kind" in slots and "count" not in slots:
                del slots["count_kind"]
        directions = several_values(words, cands, "direction")
        if len(directions) > 1 and intent in ("metric_lookup", "size_sweep", "compare_systems") and not ops \
                and len(sizes) < 2 and "compare_with" not in slots:
            # "unidirectional vs bidirectional p2p bandwidth on the dgx1 v100": each direction looked up (app.ask)
            if intent == "compare_systems" or (intent == "size_sweep" and not _OVER_SIZES.search(said)):
                ruled_out.add(intent)     # no sweep asked: the two directions' values, side by side
                intent = "metric_lookup"
            slots["direction"], slots["directions"] = directions[0], directions
        metrics = several_values(words, cands, "metric")
        if "message_size" in metrics and re.search(r"\b(against|vs\.?|versus|over|by|across) (the )?(msg|message|"
                                                    r"transfer|buffer) ?-? ?sizes?\b", said):
            metrics.remove("message_size")   # "a plot of bus bandwidth against message size": the axis, no measure
        if len(metrics) > 1 and intent == "metric_lookup" and not ops and len(sizes) < 2 \
                and "compare_with" not in slots and slots.get("metric") in metrics:
            # "for alltoall on the H200s at 1 GB, what are algbw and busbw?": each measure looked up (app.ask)
            slots["metric"], slots["metrics"] = metrics[0], metrics
        if len(ops) > 1 and intent == "compare_systems" and "compare_with" not in slots \
                and slots.get("operation") in ops:
            # "compare alltoall and allgather bus bandwidth on the H200 node": two operations of one system
            # (a later rule had made it a comparison of systems after the first rule settled that there is one)
            ruled_out.add(intent)
            intent = "metric_lookup"
        if len(ops) > 1 and intent in ("metric_lookup", "size_sweep") and slots.get("operation") in ops \
                and "compare_with" not in slots:
            # "d2h vs h2d bandwidth on yme", "allreduce and allgather busbw vs size": each is asked (app.ask)
            slots["operation"], slots["operations"] = ops[0], ops
            if intent == "size_sweep" and slots.get("msg_bytes") is not None and not _OVER_SIZES.search(said):
                # "are device-to-host copies faster than host-to-device at 1 GiB": one size, two things: looked up
                ruled_out.add(intent)
                intent = "metric_lookup"
        extreme_size = SIZE_OF_THE_EXTREME.search(said)
        if extreme_size and extreme_size.group("x") == "best":
            extreme_size = None   # "which message size gives the best all-gather busbw": the curve, as labelled
        if intent == "size_sweep" and extreme_size and slots.get("aggregate") in (None, "max", "min") \
                and not _SIZE_CURVE_ASKED.search(said):
            # "at which message size does the H200 pair reach its highest all-reduce busbw": the one extreme value
            # and the size it is at (a lookup, as the sets label it), no curve asked for
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
            said_extreme = extreme_size.group("x") or extreme_size.group("y")
            slots.setdefault("aggregate", "min" if said_extreme in ("lowest", "minimum", "min") or (
                not said_extreme and slots.get("metric") in self.vocab.lower_is_better) else "max")
        if intent == "link_efficiency" and slots.get("metric") in ("latency", "time"):
            # "dgx2 p2p latency at 1 byte, nvlink vs pcie": a latency is no share of a link's rated bandwidth; the
            # link named is the transfer mode the copies were run in (how Tartan's rows are keyed)
            ruled_out.add(intent)
            intent = "metric_lookup"
            if self.catalog is not None:
                link_as_mode(slots, self.catalog)    # what infer_implicit does for a measurement question
        if intent == "topology" and not (slots.get("src") or slots.get("dst")) and \
                len({str(v).lower()[:4] for st, _, v in _slot_spans(cands, "link_type")
                     if not _contrasted(words, st)}) > 1:
            # "draw the interconnect graph of the DGX-1 P100: NVLink, PCIe switches, CPUs": every kind of link
            # listed is the whole graph, not the first kind named
            slots.pop("link_type", None)
            if slots.get("condition") in ("nvlink", "pcie"):
                del slots["condition"]
        if intent == "link_efficiency" and slots.get("app") and not slots.get("link_type") \
                and not (slots.get("src") and slots.get("dst")):
            # "lassen training efficiency for amoeba net f two fourteen on 2048 gpus": an application's efficiency
            # (its scaling), with no link named to rate against
            ruled_out.add(intent)
            intent = "metric_lookup"
        cond = slots.get("condition")
        both_sides = _SIDE_AND_ITS_NEGATION.search(said)
        other = negated_condition(said, cond, self.vocab.surfaces("condition", cond)) \
            if isinstance(cond, str) and not both_sides else None
        if not other and cond in COMPLEMENTS and negated_condition(
                said, COMPLEMENTS[cond], self.vocab.surfaces("condition", COMPLEMENTS[cond])) == cond:
            other = cond      # "in the non-NVLink (PCIe) mode": the other side negated, this one meant
        if other and set(slots.get("conditions") or [cond, other]) == {cond, other} and (
                self.catalog is None or not isinstance(slots.get("system"), str)
                or other in self.catalog.conditions.get(slots["system"], set())):
            # "when the host buffer is not pinned", "the non-NVLink (PCIe) mode": the condition's other side
            if other != cond:
                notes.append(f"“not {cond.replace('_', '-')}” read as {other.replace('_', '-')}")
            slots["condition"] = cond = other
            slots.pop("conditions", None)
            if other == "pcie" and slots.get("link_type") == "NVLink":
                slots.pop("link_type")
            if intent == "congestion" and other in CONGESTION_CONDITIONS and not slots.get("compare_with") \
                    and not SWITCHED_OFF.search(said):
                # ("with congestion control off": the switch named, which the experiment turns both ways)
                ruled_out.add(intent)       # "excluding the loaded case, i.e. idle": one side's value
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        both = [] if other else both_settings(said, slots.get("condition"),
                                              {f["condition"] for _, _, f in cands if f.get("condition")})
        if both_sides and cond in COMPLEMENTS and cond not in CONGESTION_CONDITIONS and not both:
            # "h2d bw pinned vs not pinned": the setting and its other side, as "pinned vs pageable" says them
            both = [cond, COMPLEMENTS[cond]]
            slots.setdefault("conditions", both)
        if len(both) == 2 and not re.search(r"\b(not|no|instead|rather)\b", said):
            # in the order said ("in-place busbw at 4 GB, and do the out-of-place numbers differ": in place first),
            # unless one is taken back ("not the pinned one, the pageable")
            at = {c: min((st for st, _, f in cands if f.get("condition") == c), default=len(words)) for c in both}
            both = sorted(both, key=lambda c: at[c])
            if slots.get("condition") in both:
                slots["condition"] = both[0]
        if both and intent == "link_efficiency" and not slots.get("link_type") and slots.get("metric") != "efficiency":
            # "GTX 980 D2H pageable vs pinned at 4 KB": two settings of a copy, no link's share of its rate
            ruled_out.add(intent)
            intent = "metric_lookup"
        if both and intent in ("metric_lookup", "size_sweep", "compare_systems", "congestion") \
                and "compare_with" not in slots:
            # "p2p bandwidth with peer access enabled vs disabled", "pinned vs pageable": both settings named;
            # each is looked up (app.ask), not the first alone; a sweep draws every setting stored as a curve
            if intent in ("compare_systems", "congestion"):    # in place vs out of place is no load on a network
                ruled_out.add(intent)
                intent = "metric_lookup"
            if intent == "size_sweep" and isinstance(slots.get("msg_bytes"), int) and "size_range" not in slots \
                    and not _OVER_SIZES.search(said):
                # "pinned vs pageable: h2d bandwidth on the GTX 980 at 32 MB?": both settings at the one size said
                ruled_out.add(intent)
                intent = "metric_lookup"
            if intent == "size_sweep":
                del slots["condition"]
            else:
                slots["condition"], slots["conditions"] = both[0], both
        sid = slots.get("system")
        if intent in ("pair_matrix", "out_of_scope", "list_data") and isinstance(sid, str) \
                and self.catalog is not None and not slots.get("metric") and slots.get("operation") in (None, "p2p") \
                and not any(slots.get(k) for k in ("src", "dst", "app", "condition", "link_type")) \
                and re.search(r"\bmatri(x|ces)\b", said) and not asks_advice(said) \
                and ("p2p" not in self.catalog.operations.get(sid, set()) or _MATRIX_HELD.search(said)):
            # "matrix for mCubes node", "which matrix does lassen have": "metrics" as the speech model often writes
            # it, of a machine with no copies between its devices to lay out as a grid, or asked as what the machine
            # has; what it measured is its inventory
            if intent != "list_data":
                ruled_out.add(intent)
            intent, conf = "list_data", max(conf, CONFIDENCE_FLOOR)
            slots.pop("operation", None)
            notes.append("read “matrix” as “metrics”")
        named = {k for k in ("metric", "operation", "app", "src", "dst", "msg_bytes", "count", "link_type")
                 if slots.get(k)} - ({"metric"} if slots.get("operations") else set())   # "collectives": a kind
        if intent not in ("list_data", "compare_systems") and not named \
                and (_INVENTORY.search(said) or _INVENTORY_ONE.search(said) or _INVENTORY_ASKED.search(said)) \
                and not asks_advice(said):
            # "minisummit ops + msg sizes available?", "which profiler traces do you have loaded": what is stored,
            # asked of kinds of things (plural) with nothing measured named, is the inventory
            ruled_out.add(intent)
            intent, conf = "list_data", max(conf, model_conf, CONFIDENCE_FLOOR)
            if slots.pop("operations", None):
                slots.pop("metric", None)      # the kind listed, not a measure to filter the listing on
        elif intent == "list_data" and not named and _INVENTORY_ASKED.search(said) and not asks_advice(said):
            # "no rush at all, whenever you get to it: what's on file for RI2": the words settle the inventory,
            # however unsure the model was of it behind the preamble
            conf = max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent in ("metric_lookup", "out_of_scope", "scaling", "size_sweep") and isinstance(sid, str) \
                and _HELD_IN_THE_WAY_OF.search(said) and not asks_advice(said):
            # "what does Lassen hold in the way of speedup measurements": what is stored of that measure, the
            # machine's inventory narrowed to it, not one value of it
            ruled_out.add(intent)
            intent, conf = "list_data", max(conf, model_conf, CONFIDENCE_FLOOR)
        if _PRODUCED_THE_DATA.search(said) and not asks_advice(said):
            # "what produced the h200 data: nccl-tests logs, scope json or pytorch traces?": which tools made a
            # machine's rows is its inventory; the tools offered are options, no filter
            if intent != "list_data":
                ruled_out.add(intent)
            intent, conf = "list_data", max(conf, model_conf, CONFIDENCE_FLOOR)
            for k in ("app", "library", "operation", "metric"):
                slots.pop(k, None)
        if intent in ("list_data", "metric_lookup") and isinstance(slots.get("system"), str) and slots.get("metric") \
                and not (slots.get("src") or slots.get("dst")) \
                and _AND_THEIR_VALUES.search(said) and re.search(r"\b(which|what) (\w+ )?pairs\b", said):
            # "which IPU pairs have latency numbers, and what are they?": the values of every pair, the grid
            ruled_out.add(intent)
            intent, conf = "pair_matrix", max(conf, CONFIDENCE_FLOOR)
        if intent == "list_data" and isinstance(slots.get("system"), str) and slots.get("metric") \
                and (slots.get("operation") or slots.get("app")) and not LISTING.search(said) \
                and not (_INVENTORY.search(said) or _INVENTORY_ONE.search(said) or _INVENTORY_ASKED.search(said)) \
                and not _PRODUCED_THE_DATA.search(said) and not asks_setup(said) and _VALUE_ASKED.match(said):
            # "what device-to-host bandwidth was measured on the TUM AC922?": one measure of one machine, and no
            # word that lists: its value
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "list_data" and isinstance(slots.get("system"), str) and self._has_links(slots) \
                and not any(slots.get(k) for k in ("metric", "operation", "app", "library", "condition")) \
                and (slots.get("link_type") or _PARTS_WORD.search(said)) and not _TRACES_HELD.search(said):
            # "lassen node components", "azure cluster's infiniband network, what's stored?": a machine's parts or
            # the links of its network are its connection graph, not the list of its measurements
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent in ("out_of_scope", "metric_lookup") and not (slots.get("metric") or slots.get("operation")) \
                and _RAN.search(said) and self.catalog is not None and self.catalog.tool_named(said):
            # "did anyone run mgbench on the DGX-2?", "which systems were benchmarked with SHOC?": where a tool ran
            ruled_out.add(intent)
            intent, conf = "list_data", max(conf, model_conf, CONFIDENCE_FLOOR)
        sid = slots.get("system")
        if slots.get("metric") in _GENERIC_MEASURES and (slots.get("operation") or slots.get("app")) \
                and self.catalog is not None and isinstance(sid, str) \
                and slots["metric"] not in self.catalog.metrics.get(sid, set()):
            # "what MaxFlops single-precision result did the DGX-2 get": "result" names the measure of the benchmark
            # named (a stored metric elsewhere: M-Cubes' integration results), not a metric of its own
            del slots["metric"]
        if not slots.get("condition") and _TENSOR_CORES.search(said) and not _TENSOR_CORES_OFF.search(said) \
                and (slots.get("operation") in ("gemm", "conv", "rnn") or str(slots.get("app", "")).lower() in (
                    "gemm", "conv", "rnn")) and not re.search(r"\b(peak|t?flops|spec\w*|nominal)\b", said):
            # "tensor core conv time on yme": DeepBench's runs with tensor cores on (its rows without them had
            # answered, picked by the words of their label); where none ran, the refusal says so
            slots["condition"] = "tensor_cores_on"
        if intent in ("list_data", "scaling", "out_of_scope") \
                and slots.get("condition") in ("spec", "nominal", "theoretical") \
                and slots.get("metric") and slots.get("system") and not _LISTS.search(said) \
                and not _TREND.search(said) and "count" not in slots:
            # "titan rtx gddr6 bw spec sheet": a stated figure of one system, named by its measure, with no word
            # that lists what is stored or asks for a curve: the figure
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent == "pair_matrix" and self.catalog is not None and _CONGESTION_SAID.search(said) \
                and _congestion_without_pairs(slots.get("system"), self.catalog):
            # "the congestion heatmap for the in-house cluster": a grid of congestion impact (applications against
            # congestors) on a system that measured no pair of endpoints; the IPU's latency grid under load has pairs
            ruled_out.add(intent)
            intent, conf = "congestion", max(conf, CONFIDENCE_FLOOR)
            grid_default = "no operation given: p2p (device-to-device transfers between different endpoints)"
            if grid_default in notes:      # the grid's default, not a word of the question
                notes.remove(grid_default)
                slots.pop("operation", None)
        if intent == "pair_matrix" and _ONE_PAIR_OF_A_CLASS.search(said) and not (slots.get("src") or slots.get("dst")) \
                and self.catalog is not None and slots.get("metric") \
                and slots["metric"] in self.catalog.metrics.get(str(slots.get("system")), set()):
            # "p2p efficiency of an NV1 pair on the dgx-1 p100": one pair of a kind, whose figure the document gives
            # for the kind, not the grid of every pair
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "congestion" and slots.get("condition") not in CONGESTION_CONDITIONS and not _LOAD_WORD.search(said) \
                and slots.get("count_kind") != "tiles":    # tiles that all communicate are the IPU's load
            # "slot filling f1 for stackpropagation on ri2": no word of load, congestion or its effect, and no load
            # condition: whatever the model heard, it is not the question of what congestion does; nor, with no size
            # and no word of sizes or messages, a sweep over sizes (the model's runner-up there)
            ruled_out.add(intent)
            if slots.get("msg_bytes") is None and not SIZE_WORD.search(said):
                ruled_out.add("size_sweep")
            if len(systems) > 1 and _SETS_SIDE_BY_SIDE.search(said) and not _CURVE_ASKED.search(said):
                # "how does the dgx-2 p2p bandwidth stack up against yme over nvlink", read first as a link's
                # efficiency, then as congestion: two machines set side by side, whatever the runner-up
                intent, conf = "compare_systems", max(conf, model_conf)
            elif span and "count" not in slots:
                # "how does it change for transfers from about a kilobyte up to about a gigabyte": read first as
                # congestion, the range of sizes is the curve's axis
                intent, conf = "size_sweep", max(conf, model_conf, CONFIDENCE_FLOOR)
                slots.pop("msg_bytes", None)
                slots["size_range"] = list(span)
            elif _OVER_SIZES.search(said) and "count" not in slots and "msg_bytes" not in slots:
                # "how does the IPU's gather bandwidth vary with the number of bytes each tile sends": the sizes are
                # the axis the words ask for
                intent, conf = "size_sweep", max(conf, model_conf, CONFIDENCE_FLOOR)
            elif no_curve and slots.get("metric") and "count_kind" not in slots and _HOW_MANY_PER_TIME.search(said):
                # "how many random samples per second does cuRAND churn out": a rate asked for as a number
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
            else:
                intent, conf = _next_intent(self.labels["intents"], intent_probs, ruled_out | {"out_of_scope"})
        if intent == "congestion" and self.catalog is not None and _stored_slowdown_only(slots, self.catalog) \
                and not re.search(r"\b(congest\w*|contention|contend\w*|load\w*|incast)\b", said) \
                and not _traffic_is_load(said, slots) \
                and slots.get("condition") not in ("cc_on", "cc_off"):
            # "by what factor is XSBench slowed down when offloaded over gRPC on the Google Cloud T4": no word of
            # congestion, and the system has no two congestion conditions to set side by side, but stores the
            # slowdown itself ("traffic from GPU0 to GPU1" is the pair's own copies, no load beside them; "under
            # heavy concurrent traffic" is load)
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
            slots["metric"] = "slowdown"
            if slots.get("condition") in CONGESTION_CONDITIONS:
                del slots["condition"]
        sid_conds = self.catalog.conditions.get(str(slots.get("system")), set()) if self.catalog is not None else set()
        if intent == "congestion" and self.catalog is not None and slots.get("metric") and not (
                sid_conds & CONGESTION_CONDITIONS) \
                and slots["metric"] in self.catalog.metrics.get(str(slots.get("system")), set()) \
                and not re.search(r"\b(congest\w*|contention|contend\w*|load(ed)?|incast|background|"
                                  r"patterns?)\b", said) \
                and ("traffic" in slots["metric"] or not re.search(r"\btraffic\b", said)):
            # "on the MAPredict Broadwell machine, how much does prefetching increase traffic": no congestion was
            # measured there, and what is asked is a measure the machine stores
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent == "metric_lookup" and "metric" not in slots and _SLOWED_DOWN.search(said) \
                and self.catalog is not None and _stored_slowdown_only(slots, self.catalog):
            # "how much is rsbench slowed down by offloading on thetagpu": the stored factor, not the run's time
            slots["metric"] = "slowdown"
        if intent == "scaling" and no_curve and "count" not in slots and _PER_COUNTED.search(said):
            # "how many watts does each i p u draw": a later rule ruled out the model's reading and left a curve over
            # counts that no word asks for; a figure per counted part is looked up
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf)
            slots.pop("count_kind", None)
        grows_with = _GROWS_WITH_COUNT.search(said)
        if grows_with and intent in ("metric_lookup", "size_sweep", "congestion") \
                and (_LEVELS_OFF.search(said) or _FALLS_AWAY.search(said)) \
                and "msg_bytes" not in slots and "size_range" not in slots and "threshold" not in slots:
            # "does the IPU p2p bandwidth under load keep growing with all tiles busy, or choke": the curve over
            # the count named, not over message sizes
            kind = self.norm.count_and_kind(grows_with.group(4))[1]
            if kind:
                ruled_out.add(intent)
                intent, conf = "scaling", max(conf, CONFIDENCE_FLOOR)
                slots["count_kind"] = kind
                slots.pop("count", None)
        from_size_on = _FROM_A_SIZE_ON.search(said)
        if from_size_on and from_size_on.group("grown") and "msg_bytes" not in slots and intent == "size_sweep" \
                and not slots.get("size_range"):
            start = self.norm.size_bytes(from_size_on.group("grown"))   # (a sweep rule had let the size go)
            if start:
                slots["msg_bytes"] = start
        if from_size_on and intent in ("metric_lookup", "scaling", "size_sweep") \
                and isinstance(slots.get("msg_bytes"), int) \
                and "threshold" not in slots and not slots.get("sizes"):
            # "DeepBench all-reduce time on the DGX-2 with 8 GPUs, from 4e5 bytes upward": the curve from that size
            ruled_out.add(intent)
            intent, conf = "size_sweep", max(conf, CONFIDENCE_FLOOR)
            slots["size_range"] = [slots.pop("msg_bytes"), None]
        to_more = _FROM_ONE_TO_MORE.search(asked)    # (the words after a tagged statement: see `asked` above)
        if (intent in ("metric_lookup", "size_sweep") or intent == "link_efficiency" and not slots.get("link_type")) \
                and "threshold" not in slots and not slots.get("sizes") \
                and (to_more or ((_COUNT_SPAN_ONLY.search(asked) or _UP_TO_A_COUNT.search(asked))
                                 and slots.get("count_kind") and "msg_bytes" not in slots
                                 and "size_range" not in slots)):
            # "IPU GEMM throughput going from one IPU to more", "yme qtc runtime 2-4 gpus": counts said as a way
            # from one to more, or as a range, are the axis of the curve
            kind = self.norm.count_and_kind(to_more.group("kind"))[1] if to_more else slots.get("count_kind")
            if kind:
                ruled_out.add(intent)
                intent, conf = "scaling", max(conf, CONFIDENCE_FLOOR)
                slots["count_kind"] = kind
                if not _UP_TO_A_COUNT.search(said):
                    slots.pop("count", None)    # ("up to 16 gpus" keeps its end, as the curve's planner reads it)
        best_count = _BEST_COUNT.search(said)
        if best_count and intent in ("metric_lookup", "topology", "out_of_scope") and "threshold" not in slots \
                and (slots.get("metric") not in (None, "count") or slots.get("app") or slots.get("operation")):
            # "which gpu count gives the best stencil2d gflops on yme": the count where the curve peaks, read
            # from the curve over counts
            kind = self.norm.count_and_kind(best_count.group("kind").replace(" ", ""))[1]
            if kind:
                ruled_out.add(intent)
                intent, conf = "scaling", max(conf, CONFIDENCE_FLOOR)
                slots["count_kind"] = kind
                slots.pop("count", None)
                _count_as_axis(slots, cands)
                slots.pop("spec", None)
                slots.pop("part", None)
        fixed_count = isinstance(slots.get("count"), int) and isinstance(slots.get("msg_bytes"), int)
        if intent in ("metric_lookup", "link_efficiency", "scaling", "congestion", "trace_breakdown") \
                and (_LEVELS_OFF.search(said) or _BIG_ENOUGH.search(said) or (_FALLS_AWAY.search(said) and (
                    _BEFORE_A_SIZE.search(said) or _PAST_A_SIZE.search(said)))) \
                and "threshold" not in slots and (not slots.get("count_kind") or fixed_count or (
                    isinstance(slots.get("count"), int) and _ON_A_COUNT.search(said))) \
                and not _asks_efficiency(said) and (slots.get("operation") or slots.get("src")):
            # (a count said with a size, "past 64 MB on 4 gpus", or said as where it ran, "sendrecv busbw on 2 gpus
            # where does it level off", is where the curve over sizes was measured)
            # "does the GPU4 -> GPU12 bandwidth saturate before 64 MB?": where a curve levels off is read from the
            # curve over sizes; a size said after "before" or "by" is the end of the range to look at
            ruled_out.add(intent)
            intent, conf = "size_sweep", max(conf, CONFIDENCE_FLOOR)
            bound = _BEFORE_A_SIZE.search(said)
            if isinstance(slots.get("msg_bytes"), int) and bound:
                slots["size_range"] = [None, slots.pop("msg_bytes")]     # no lower end
            elif isinstance(slots.get("msg_bytes"), int) and _PAST_A_SIZE.search(said):
                # "does the latency keep growing past 1 MB": the curve from that size on
                slots["size_range"] = [slots.pop("msg_bytes"), None]     # no upper end
        if intent == "metric_lookup" and _LEVELS_OFF.search(said) and isinstance(slots.get("count"), int) \
                and slots.get("count_kind") and slots.get("msg_bytes") is None and "threshold" not in slots:
            # "does the dgx2 allreduce speedup keep climbing past 8 gpus": the curve over counts, from that count on
            ruled_out.add(intent)
            intent, conf = "scaling", max(conf, CONFIDENCE_FLOOR)
            slots.pop("count")
        count_on = _FROM_A_COUNT_ON.search(said)
        if count_on and intent in ("metric_lookup", "scaling") and isinstance(slots.get("count"), int) \
                and slots.get("count_kind") and "threshold" not in slots \
                and self.norm.number(count_on.group("n")) == slots["count"]:
            # "how does the QTC kernel time of the DGX-2 change from 8 GPUs onward": the curve over counts, not the one
            # count (which the curve would end at); with a size, the curve at that size
            ruled_out.add(intent)
            intent, conf = "scaling", max(conf, CONFIDENCE_FLOOR)
            slots.pop("count")
        if intent == "out_of_scope" and systems and _CONGESTION_SAID.search(said) and not asks_advice(said):
            # "Show me the IPU congestion results": a named machine's congestion experiments (refused by the
            # planner, with what is stored, where the machine has none)
            ruled_out.add(intent)
            intent, conf = "congestion", max(conf, CONFIDENCE_FLOOR)
        more = _MORE_DEVICES.search(said)
        if more and intent == "out_of_scope" and _SHOULD_I.search(said) and isinstance(slots.get("system"), str) \
                and (slots.get("app") or slots.get("metric")) and not asks_advice(said):
            # "Should I give AmoebaNet-f214 more GPUs on Lassen?": the choice rests on the curve over GPU counts
            ruled_out.add(intent)
            intent, conf = "scaling", max(conf, CONFIDENCE_FLOOR)
            slots["count_kind"] = more.group(1).replace(" ", "")
            slots.pop("count", None)
        if intent in ("metric_lookup", "pair_matrix") and slots.get("src") and slots.get("dst") \
                and _DIRECT_LINK_ASKED.search(said) and not _MEASURE_SAID.search(said):
            # "should i pair gpu0 with gpu4 on dgx1 v100 for direct nvlink": whether a link joins them, in the graph
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, CONFIDENCE_FLOOR)
            for k in ("metric", "operation"):
                slots.pop(k, None)
        if intent not in ("list_data", "out_of_scope") and _KINDS_WITH_ROWS.search(said) and not asks_advice(said):
            # "inhouse applications with congestion impact rows": which of them have rows is the inventory
            ruled_out.add(intent)
            intent, conf = "list_data", max(conf, model_conf, CONFIDENCE_FLOOR)
            if slots.get("condition") in CONGESTION_CONDITIONS and not _CONDITION_SAID.search(said):
                slots.pop("condition")
        if asks_advice(said):
            # "which NCCL environment variables should I set to speed up allreduce": advice, not data (every other
            # reading is ruled out, so no runner-up answers it from the data either, also where the model already
            # read it as out of scope: app.ask tries the runner-up of an unsure refusal)
            ruled_out |= set(self.labels["intents"]) - {"out_of_scope"}
            intent, conf = "out_of_scope", max(conf, model_conf)
        single = re.search(r"\b(?:single ?-? ?|(?:1|one) - )(gpu|ipu|node|g p u|i p u)\b", said)
        if single and "count" not in slots and intent in MEASUREMENT_INTENTS:
            # "Single-GPU sgemm throughput: Yme vs Mini Summit": one word the tagger does not split, a count of one
            # (also spelled out, "single g p u all reduce")
            slots["count"], slots["count_kind"] = 1, single.group(1).replace(" ", "") + "s"   # also "1-gpu"
        ends = [k for k in ("src", "dst") if isinstance(slots.get(k), str)]
        if len(ends) == 1 and slots.get("system") == slots[ends[0]]:
            del slots[ends.pop()]     # "IPU-Link wiring ipu16": the system's id read as an end as well
        if not slots.get("system") and len(ends) == 1 and self.norm.value("system", slots[ends[0]]) == slots[ends[0]]:
            # "ipu-link ladder ipu16": one end alone, with no system named, that is also a system's own id (IPUs
            # are numbered 0-15 there) is that system
            slots["system"] = slots.pop(ends[0])
            if intent in ("metric_lookup", "out_of_scope") and not slots.get("metric") and not slots.get("operation") \
                    and slots.get("link_type"):
                ruled_out.add(intent)
                intent, conf = "topology", max(conf, CONFIDENCE_FLOOR)
        if intent in ("topology", "out_of_scope", "metric_lookup", "congestion") and slots.get("src") \
                and slots.get("dst") and not slots.get("metric") and _HOW_MUCH_TRAFFIC.search(said) \
                and slots.get("condition") not in CONGESTION_CONDITIONS:
            # "how much traffic can cross between the two sockets, cpu0 to cpu1": a rate between two parts, no graph
            # (nor, for all the word "traffic", the congestion question)
            slots["metric"] = "bandwidth"
            if intent != "metric_lookup":
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent in ("trace_breakdown", "list_data") and _SLOWER_UNDER_LOAD.search(said):
            # "how much slower do the H200s get under background traffic": what load does to a machine, the
            # congestion question, whatever a profiler trace of it holds
            ruled_out.add(intent)
            intent, conf = "congestion", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent in ("topology", "metric_lookup", "size_sweep", "out_of_scope", "link_efficiency") \
                and _MAXES_OUT_A_LINK.search(said) and (slots.get("link_type") or slots.get("app")):
            # "does the xeon 8280 max out its UPI link with SU3_Bench": how much of the link's rate is used ("max"
            # is the verb, no highest value asked for)
            if intent != "link_efficiency":
                ruled_out.add(intent)
                intent, conf = "link_efficiency", max(conf, model_conf, CONFIDENCE_FLOOR)
            if slots.get("aggregate") == "max":
                del slots["aggregate"]
        if slots.get("metric") in (None, "message_size") and _PAYS_OFF_AT_A_SIZE.search(said) \
                and self._stores({**slots, "metric": "crossover_msg_size"}):
            # "where does compressed all-to-all pay off at a smaller message size": the crossover size, one stored
            # value ("from which message size does it win": no curve)
            slots["metric"] = "crossover_msg_size"
            if intent == "size_sweep":
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        op = slots.get("operation")
        if (intent == "topology" or intent == "out_of_scope" and slots.get("metric") and not asks_advice(said)) \
                and isinstance(op, str) and isinstance(slots.get("system"), str) \
                and op not in POINT_TO_POINT and self.catalog is not None \
                and op in self.catalog.operations.get(slots["system"], set()) \
                and slots.get("metric") in (None, *self.catalog.op_metrics(slots["system"], op)) \
                and not _GRAPH_ASKED.search(said):
            # "GTX 980 sort bandwidth", "stream triad on the AMD EPYC 7742 node from the hanging node paper": a
            # benchmark the machine ran (and, where a measure is named, measured by it), no part of its graph
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent == "list_data" and slots.get("metric") and isinstance(slots.get("system"), str) \
                and (_WHAT_VALUE_RECORDED.search(said) or _WHAT_VALUE_STORED.search(said)
                     or (slots.get("operation") or slots.get("app")) and slots.get("condition")
                     and not LISTING.search(said) and not _LISTS.search(said)
                     and not re.search(r"\b(have|has|got|any|measurements|data|numbers|results|runs)\b", said)):
            # "what temperature did the database record for it": the recorded value, not the inventory; so is a
            # measure named with its operation and setting, and no word of listing ("a reviewer asked for the DGX-1
            # V100's host-to-device bandwidth with P2P enabled: what should we tell them")
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if "settings" in pasted_kinds and intent in ("topology", "out_of_scope", "metric_lookup", "trace_breakdown") \
                and not slots.get("metric") and isinstance(slots.get("system"), str):
            # "found this header on the DGX-2: `# nThread 1 nGpus 8 ...` -- do you have that run?": a run's settings
            # pasted ask whether such a run is stored, which the inventory of its runs answers
            ruled_out.add(intent)
            intent, conf = "list_data", max(conf, model_conf, CONFIDENCE_FLOOR)
        quoted = _FIGURE_STATED.search(said) if slots.get("condition") in ("spec", "nominal", "theoretical") else None
        if quoted and _MEASURED_ASKED.search(said[quoted.end():]):
            # "titan rtx spec says 672 gb/s memory bw - what did shoc get for global memory reads": the stated figure
            # is the asker's context; what was measured is asked
            notes.append(f"the {slots.pop('condition')} figure quoted is context: the measured value is asked")
        sid = slots.get("system")
        stated = slots.get("condition") if slots.get("condition") in ("nominal", "spec") else \
            "nominal" if re.search(r"\b(nominal|rated)\b", said) and not slots.get("condition") else None
        if (intent in ("topology", "out_of_scope") or intent == "link_efficiency" and not re.search(
                r"efficien|percent|%|utili[sz]|fraction|share|how close|how much of|\bmeasured\b|compar|\bvs\b|"
                r"against|relative|\d ?gb/s", said)) \
                and stated and slots.get("metric") in (None, "bandwidth") \
                and (slots.get("direction") in ("uni", "bi") or re.search(r"\bper direction\b", said)) \
                and re.search(r"\b(bandwidth|bw|gb/s)\b", said) and self.catalog is not None and isinstance(sid, str) \
                and "bandwidth" in self.catalog.op_metrics(sid, None, stated):
            # "the nominal bandwidth of one NVLink on the DGX-2 in one direction": the stated figure the system
            # stores, per direction or both, looked up, not its graph (a kind of link's rate alone, "ac922 x-bus
            # nominal bandwidth", stays the graph's)
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots["metric"], slots["condition"] = "bandwidth", stated
            slots.setdefault("direction", "uni")     # "per direction"
        if (intent == "scaling" or intent == "trace_breakdown" and not TRACE_WORD.search(said)
                or intent == "topology" and slots.get("precision")) \
                and slots.get("condition") in ("spec", "nominal", "theoretical") \
                and "count" not in slots and not _OVER_COUNTS.search(said):
            # "dgx-2 fp32 spec per gpu": a stated figure per device, not a curve over device counts (a precision
            # alone names a rate of arithmetic)
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
            if slots.get("precision") and not slots.get("metric"):
                slots["metric"] = "flops"
        if slots.get("operation") == "d2d" and self.catalog is not None and isinstance(sid, str) \
                and "d2d" not in self.catalog.operations.get(sid, set()) \
                and "memcpy" in self.catalog.operations.get(sid, set()):
            slots["operation"] = "memcpy"     # Summit's copy within GPU memory is stored as its memcpy
        copy_dir = host_copy_direction(said) if intent != "trace_breakdown" and not asks_advice(said) else None
        if copy_dir and slots.get("operation") not in (*COLLECTIVE_OPS, "p2p", "d2d"):
            # "hand 16 MB of results back to pageable host memory", "uploaded ... from pinned write-combined memory":
            # the host transfer, said by where the data goes; "host memory" is then no part's size, "results" and
            # "training batch" no metric or operation
            slots["operation"] = copy_dir
            for end in ("src", "dst"):
                if slots.get(end) == "host":
                    del slots[end]
            device_end(slots)     # "what bandwidth does GPU1 see from the host": the GPU receives, as h2d's end
            if slots.get("metric") in (None, "memory", "result") and re.search(
                    r"\bhow (fast|quick(ly)?)\b|\b(bandwidth|bw|rate|speed|throughput)\b", said):
                slots["metric"] = "bandwidth"
            elif slots.get("metric") in ("memory", "result"):
                del slots["metric"]
            if intent not in ("metric_lookup", "size_sweep", "compare_systems", "pair_matrix", "link_efficiency"):
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        parts_linked = _WHICH_PARTS_LINKED.search(said)
        # a machine's live state ("which gpus are free at the moment") is no part's stated figure either
        spec = None if copy_dir or (intent == "trace_breakdown" and TRACE_WORD.search(said)) or asks_advice(said) \
            or (intent == "scaling" and _BEST_COUNT.search(said)) \
            or (intent == "scaling" and slots.get("count_kind") and (
                slots.get("metric") not in (None, "memory", "count", "result")
                or slots.get("metric") is None and (slots.get("app") or slots.get("operation")))
                and _WITH_THE_NUMBER_OF.search(said)) \
            or (slots.get("app") and slots.get("metric") == "memory") \
            or (slots.get("src") and _PART_HANGS_OFF.search(said)) or parts_linked else spec_question(said)
        linked_from = parts_linked and re.search(r"\b(gpu|ipu)(\d+)\b", said)
        if linked_from and not slots.get("src") and intent in ("metric_lookup", "out_of_scope", "pair_matrix",
                                                               "topology"):
            slots["src"] = linked_from.group(0)    # (the part whose links are asked about, where the tagger left it)
        if slots.get("src") and (_PART_HANGS_OFF.search(said) or linked_from) \
                and intent in ("metric_lookup", "out_of_scope", "pair_matrix") and self._has_links(slots):
            # "which CPU does GPU2 of the TUM AC922 hang off": where a part sits in the connection graph
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, CONFIDENCE_FLOOR)
            for k in ("metric", "operation", "aggregate"):
                slots.pop(k, None)
        if spec and not slots.get("system") and (any(u[0] == "system" for u in unresolved) or not _RANKS_PARTS.search(
                said)):
            # "how many gpus does frontier have": a machine not loaded; with no system named, only a question that
            # asks which system has the most is answered across all of them
            spec = None
        if spec:
            # "how much memory does each GPU in the DGX-2 have", "CUDA cores: GTX 980 vs Titan RTX": what a part is,
            # stated in the components table (app.intents._specs); the measurement slots the words also fed go
            kept = {k: v for k, v in slots.items() if k in ("system", "compare_with") or (
                k == "link_type" and spec["spec"] == "links") or (k, v) in (
                ("metric", "memory"), ("condition", "spec"), ("condition", "nominal"), ("condition", "theoretical"))}
            slots.clear()
            slots.update(kept, **spec)
            ruled_out.add(intent)
            intent = "compare_systems" if slots.get("compare_with") or not slots.get("system") \
                else "topology" if spec["spec"] in ("links", "count") else "metric_lookup"
            conf = max(conf, model_conf, CONFIDENCE_FLOOR)    # the words settle it, whatever the model read
        if intent in ("list_data", "metric_lookup", "out_of_scope") and isinstance(slots.get("system"), str) \
                and _PUT_TOGETHER.search(said) and not _MEASURE_SAID.search(said) and self._has_links(slots) \
                and slots.get("metric") in (None, "count"):
            # "how is the LLM simulated memory system put together": its parts and how they join, the graph
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent in ("pair_matrix", "metric_lookup", "out_of_scope") and isinstance(slots.get("system"), str) \
                and _LINKS_COUNTED.search(said) and not _MEASURE_SAID.search(said) and self._has_links(slots):
            # "h200 pair: number of nvlinks between the gpus": links counted, the graph's, no copy's rate
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
            for k in ("operation", "metric"):
                if slots.get(k) in ("p2p", "bandwidth"):
                    slots.pop(k)
        if _PIPE_SIZE.search(said) and isinstance(slots.get("system"), str) and intent in (
                "metric_lookup", "topology", "link_efficiency", "out_of_scope"):
            # "how fat is the X-Bus pipe between the CPUs": the link's stated rate, in its graph; "how wide is the pipe
            # from GPU0 to GPU1 with P2P enabled": a copy's measured rate (a setting of the copies is named)
            measured = slots.get("condition") or slots.get("operation") in ("h2d", "d2h", "p2p") and slots.get(
                "direction") or re.search(r"\b(measured|achieved|reach\w*|get|gets|in practice)\b", said)
            want = "metric_lookup" if measured else "topology"
            if intent != want:
                ruled_out.add(intent)
                intent, conf = want, max(conf, model_conf, CONFIDENCE_FLOOR)
            if want == "metric_lookup":
                slots["metric"] = "bandwidth"
            else:
                slots.pop("metric", None)
        if intent in ("out_of_scope", "metric_lookup", "list_data") and isinstance(slots.get("system"), str) \
                and _RUNS_ASKED.search(said) and not (slots.get("metric") or slots.get("operation")) \
                and not asks_advice(said):
            # "gtx980 shoc/scope/tartan runs?": what was run there, the system's inventory (tools offered as
            # options narrow nothing)
            if intent != "list_data":
                ruled_out.add(intent)
            intent, conf = "list_data", max(conf, model_conf, CONFIDENCE_FLOOR)
            if "/" in said:
                slots.pop("app", None)
        if intent == "list_data" and slots.get("metric") and isinstance(slots.get("system"), str) \
                and _FIGURE_A_SOURCE_LISTS.search(said):
            # "what memory bandwidth does the spec sheet list for the DGX-1 P100": "list" is what a source does with
            # the one figure asked for, not a request for a listing
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if not spec and intent != "list_data" and isinstance(slots.get("system"), str) and asks_setup(said) \
                and not asks_advice(said):
            # "which version of nccl-tests produced the H200 collective numbers", "how many repetitions were the
            # mgbench copies averaged over": how the numbers were made, which the runs' settings answer (the
            # inventory's setup listing, app.intents.list_data), not a number of the measurement itself
            ruled_out.add(intent)
            intent, conf = "list_data", max(conf, model_conf, CONFIDENCE_FLOOR)
        place = _PLACE_ASKED.search(said)
        if place and re.match(r" ?(-? ?)(msg |message |transfer |buffer |gpu |node )?(sizes?|counts?)\b", said[place.end():]):
            place = None    # "at the second-largest message size": a place on the size axis, no ranking of values
        if place and intent in ("metric_lookup", "pair_matrix", "size_sweep", "compare_systems", "list_data",
                                "out_of_scope") and not slots.get("top_n") \
                and not slots.get("compare_with"):
            # "runner-up pair for bandwidth on the dgx2", "which size gives the second-highest busbw": one place
            # in the ranking (app.intents.metric_lookup answers it); across every machine it is their ranking
            n = ordinal(place.group("n")) if place.group("n") else 2
            word = (place.group("w") or "best").lower()
            slots["place"] = n
            if word in ("lowest", "smallest", "least"):
                slots["aggregate"] = "min"
            elif word in ("highest", "biggest", "largest", "greatest", "most"):
                slots["aggregate"] = "max"
            else:   # "second best latency" is the second lowest; "second worst bandwidth" the second lowest
                good = word in ("best", "fastest", "quickest")
                slots["aggregate"] = "min" if good == (slots.get("metric") in self.vocab.lower_is_better) else "max"
            if intent in ("out_of_scope", "list_data", "compare_systems") and not slots.get("system") and not systems:
                target = "compare_systems"
            else:
                target = "metric_lookup"
            if intent != target:
                ruled_out.add(intent)
                intent, conf = target, max(conf, model_conf, CONFIDENCE_FLOOR)
        if slots.get("metric") == "bandwidth":
            # "busbw allgather h200x2 1 GiB in GB/s": the unit says bandwidth, and the words say which one
            which = {f["metric"] for st, _, f in cands if f.get("metric") in ("busbw", "algbw")
                     and not _x_bus(words, st)}
            if len(which) == 1:
                slots["metric"] = which.pop()
        only = self._only_owner(slots) if intent == "compare_systems" and not systems \
            and not slots.get("compare_with") and _RANKS_SYSTEMS.search(said) else None
        if only:
            # "which systems get more than 300 GB/s of all-reduce busbw": one system stores it, so there is nothing
            # to rank; its best value answers (and the note says it is the only one)
            ruled_out.add(intent)
            intent = "metric_lookup"
            slots["system"] = only
            slots.setdefault("aggregate", "min" if slots.get("metric") in self.vocab.lower_is_better else "max")
            what = " ".join(str(slots[k]) for k in ("operation", "metric") if slots.get(k))
            notes.append(f"only {self.catalog.name(only)} stores {what}: its best value, nothing to rank it against")
        group, called = said_group(said) if not systems and not slots.get("system") and self.catalog is not None \
            else (0, "")
        owners = self._owners(slots, ("operation", "metric", "condition", "app")) if group else []
        if len(owners) > group and called:
            # "the three hey cai clients": of the four machines with speech-query latency, those the words call so
            owners = [o for o in owners if called in key(o) or called in key(self.catalog.name(o))]
        if group == -1 and len(owners) >= 2:
            group = len(owners)   # "the hey cai clients": every machine the shared name calls that stores it
        # (a machine named outside the description, "the DGX-2 and the NTNU desktops", is asked about too: left to
        # the rules for machines named)
        in_group = bool(plural_groups) and all(
            text.lower() in plural_groups[0][0].lower() or not self.norm.value("system", text)
            for slot, text in spans if slot == "system")
        if self.catalog is not None and plural_groups and in_group and not (group > 0 and len(owners) == group):
            # "How do the NTNU POWER9 servers compare on MD5Hash throughput": the machines the description fits
            # that store what is asked
            fit = []
            for keys in (("operation", "metric", "condition", "app"), ("operation", "metric", "app"),
                         ("operation", "app")):
                # (a condition said as people say it, "pinned", may be stored under another name, "pinned_wc"; a
                # link's efficiency is worked out from the copies' bandwidth)
                fit = [o for o in self._owners(slots, keys) if o in plural_groups[0][1]]
                if len(fit) >= 2:
                    break
            if len(fit) >= 2:
                owners, group = fit, len(fit)
        if group > 0 and len(owners) == group:
            # "incompact3d congestion impact on both clusters with cc off", "are the three hey cai clients within 2x
            # of each other": as many machines as the question counts store what it names, so those are the ones
            slots["system"], slots["compare_with"] = owners[0], owners[1:]
            if intent in ("out_of_scope", "metric_lookup", "pair_matrix", "list_data") or (
                    intent == "topology" and slots.get("metric")) or (
                    intent == "size_sweep" and slots.get("metric") in ("crossover_msg_size", "threshold")) or (
                    intent == "scaling" and not slots.get("count_kind") and _STACK_UP.search(said)):
                # (a crossover size is one number per machine, no curve: "compare the TACC clusters on ...")
                # (a measure named is no graph: "how do the Hey CAI clients stack up on speech-query latency")
                ruled_out.add(intent)
                intent, conf = "compare_systems", max(conf, model_conf, CONFIDENCE_FLOOR)
            notes.append("read as " + " and ".join(self.catalog.name(x) for x in owners)
                         + ", the ones that store what is asked")
        sid = slots.get("system")
        if self.catalog is not None and isinstance(sid, str) and intent in MEASUREMENT_INTENTS:
            held = self.catalog.op_metrics(sid, slots.get("operation"))
            if slots.get("metric") == "throughput" and slots.get("operation") in ("h2d", "d2h", "p2p", "d2d") \
                    and "throughput" not in held and "bandwidth" in held:
                # "the throughput of a 1 GB write-combined host-to-device copy": a copy's rate is its bandwidth
                slots["metric"] = "bandwidth"
            if slots.get("metric") is None and _PERF.search(said) and slots.get("precision") and "flops" in held:
                # "what's the perf of PIUMA on 128 cores in fp64": a precision said with "perf" asks for the flops
                slots["metric"] = "flops"
            if slots.get("metric") in (None, "busbw", "bandwidth") and _GOODPUT.search(said) and "algbw" in held:
                # "what goodput does the all-gather reach": the data moved per second, nccl-tests' algbw
                slots["metric"] = "algbw"
        if _TRAFFIC_GROWS.search(said) and self.catalog is not None \
                and "traffic_increase" in self.catalog.metrics.get(str(sid), set()) \
                and intent in ("out_of_scope", "metric_lookup", "congestion") and slots.get("metric") in (
                    None, "traffic_increase", "bandwidth"):
            # "how much does LLC-DRAM traffic grow with prefetching on": the increase the study states ("DRAM" is
            # where the traffic goes, no question about the machine's memory)
            if intent != "metric_lookup":
                ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
            for k in ("spec", "part"):
                slots.pop(k, None)
            slots["metric"] = "traffic_increase"
        if intent in ("metric_lookup", "out_of_scope", "list_data") and _BUSY_WITH.search(said) \
                and (TRACE_WORD.search(said) or _RECORDING.search(said)) and self.catalog is not None \
                and isinstance(sid, str) and getattr(self.catalog.systems.get(sid), "n_events", 0):
            # "in the H200 recording, what was the computer busy with most of the time": where a trace's time went
            ruled_out.add(intent)
            intent, conf = "trace_breakdown", max(conf, CONFIDENCE_FLOOR)
            for k in ("aggregate", "metric", "msg_bytes", "operation"):
                slots.pop(k, None)
        untraced = intent == "trace_breakdown" and self.catalog is not None and isinstance(sid, str) \
            and not getattr(self.catalog.systems.get(sid), "n_events", 0) and not TRACE_WORD.search(said)
        if (intent == "metric_lookup" or untraced) and slots.get("metric") in (None, "time") \
                and "conditions" not in slots \
                and _SPED_UP.search(said) and self.catalog is not None and isinstance(sid, str) \
                and "speedup" in self.catalog.metrics.get(sid, set()) \
                and slots.get("operation") in (None, *self.catalog.metric_ops(sid, "speedup")):
            # "by how much did the ExaHyPE time stepping speed up on Hamilton 8": how much faster it became, which
            # the paper states as a speedup (the "time" of "time stepping" is no time asked for); a trace reading
            # of a machine no trace is loaded for, with no word of a trace, is the same question
            if intent != "metric_lookup":
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
            slots["metric"] = "speedup"
        stores = (lambda what, kind: self.catalog is not None and isinstance(sid, str)
                  and what in getattr(self.catalog, kind).get(sid, set()))
        if slots.get("metric") in (None, "memory", "traffic", "bandwidth") and _TRAFFIC_RAISED.search(said) \
                and stores("traffic_increase", "metrics"):
            # "how much does prefetch raise the memory traffic of vector multiply": the extra traffic, stored as such
            slots["metric"] = "traffic_increase"
        if intent == "scaling" and slots.get("metric") in ("throughput", "bandwidth", "flops", "performance") \
                and isinstance(sid, str) and not stores(slots["metric"], "metrics") and stores("efficiency", "metrics") \
                and _PER_COUNTED.search(said):
            # "how does throughput per GPU hold up as Chifflot goes from 2 to 12 GPUs": a rate per GPU kept as the
            # count grows is the scaling efficiency the machine stores (no throughput is stored there)
            notes.append(f"{slots['metric']} per GPU is not stored for it: read as the scaling efficiency stored")
            slots["metric"] = "efficiency"
        reach = _REACHED_OVER_A_RANGE.search(said) if intent == "scaling" and slots.get("metric") in (
            "efficiency", "speedup") else None
        end = self.norm.integer(reach.group("end")) if reach else None
        if end and stores(slots["metric"], "metrics"):
            # "what parallel efficiency does the IPU reduction reach going from 1 to 19456 tiles": the one figure
            # the document states for the whole range, at its end (a curve is asked with "how does it grow")
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots["count"] = end
        if _FITS_IN_MEMORY.search(said) and slots.get("metric") in (None, "count", "size", "memory") \
                and stores("count", "metrics") and slots.get("operation") in self.catalog.metric_ops(sid, "count") \
                and intent in ("metric_lookup", "pair_matrix", "size_sweep", "out_of_scope", "scaling"):
            # "largest fp32 gemm matrix dimension that fits on one ipu": the size the document states, stored as a
            # count (n of an n x n matrix), not a pair grid or a sweep
            if intent != "metric_lookup":
                ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots["metric"] = "count"
            slots.pop("aggregate", None)
        if intent in ("metric_lookup", "list_data", "out_of_scope", "size_sweep") and _SIZE_USED.search(said) \
                and slots.get("metric") in (None, "latency", "bandwidth", "time", "message_size") \
                and stores("msg_size", "metrics"):
            # "what message length was used for the XMP-64 latency distributions": the size a document states it
            # used, a stored figure of its own (the latency named is what it was used for)
            slots["metric"] = "msg_size"
            if intent != "metric_lookup":
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent in ("size_sweep", "out_of_scope") and re.search(r"\b(msg|message) ?sizes?\b", said) \
                and not any(slots.get(k) for k in ("metric", "operation", "app", "msg_bytes", "src", "dst")) \
                and not (_OVER_SIZES.search(said) or _TREND.search(said)) and stores("msg_size", "metrics"):
            # "xmp64 message size 64 cores": nothing measured named, so no curve over sizes; the size a document
            # states it used is a stored figure of its own
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
            slots["metric"] = "msg_size"
        if intent in ("metric_lookup", "compare_systems", "out_of_scope", "topology", "trace_breakdown", "list_data",
                      "link_efficiency") \
                and slots.get("metric") in (None, "throughput") and _TENSOR_CORE_PEAK.search(said) \
                and stores("flops", "metrics"):
            # "yme tensor-core peak from the spec": the tensor cores' peak is a rate of mixed-precision arithmetic
            slots["metric"] = "flops"
            slots.setdefault("precision", "mixed")
            if intent not in ("metric_lookup", "compare_systems"):
                ruled_out.add(intent)
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent in ("link_efficiency", "metric_lookup", "out_of_scope") and not (slots.get("src") or slots.get("dst")) \
                and _BOTH_ENDS_OF_PAIRS.search(join_spelled(said)) and slots.get("metric") in (None, "bandwidth", "latency"):
            # "the lowest and highest bandwidth between any two GPUs on the DGX-2": the spread over the pairs, which
            # the pair matrix's answer states (from the lowest pair to the highest), not one extreme
            ruled_out.add(intent)
            intent, conf = "pair_matrix", max(conf, CONFIDENCE_FLOOR)
            slots.pop("aggregate", None)
            slots.setdefault("operation", "p2p")
        if intent == "topology" and slots.get("compare_with") and _WHICH_IS_FASTER.search(said) \
                and not re.search(r"\b(links?|wired|connect\w*|topolog\w*|graph|paths?|hops?)\b",
                                  re.sub(r"\b(envy|nv|n v) link\b", "nvlink", said)):
            # "which is faster in nvlink mode, yme, the dgx two or mini summit": machines ranked on a measure, the
            # link said as the mode the copies ran in
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, model_conf, CONFIDENCE_FLOOR)
            mode = re.search(r"\b(nvlink|pcie) (mode|copies|copy|transfers?)\b", join_spelled(said).replace("envy link", "nvlink"))
            if mode and self.catalog is not None and any(
                    mode.group(1) in self.catalog.conditions.get(x, set())
                    for x in [slots.get("system"), *slots["compare_with"]]):
                slots["condition"] = mode.group(1)
                slots.pop("link_type", None)
        info = self.catalog.systems.get(str(slots.get("system"))) if self.catalog is not None else None
        if (intent in ("out_of_scope", "metric_lookup") or intent == "link_efficiency" and not any(
                slots.get(k) for k in ("operation", "condition", "direction", "msg_bytes"))) \
                and info is not None and _HOW_ATTACHED.search(said) \
                and not slots.get("metric") and (info.n_links or info.n_components):
            # "walk me through how the Titan RTX desktop's GPU hangs off the host": how its parts are joined, the graph
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots = {k: v for k, v in slots.items() if k in ("system", "link_type")}
        if intent in ("metric_lookup", "out_of_scope") and isinstance(slots.get("system"), str) \
                and not (slots.get("src") or slots.get("dst")) and _EACH_DIRECTION.search(said) \
                and slots.get("operation") in (None, "p2p") and slots.get("metric") in (None, "bandwidth", "latency") \
                and not re.search(r"\b(sum|total|combined|added|self|own memory)\b", said) and self.catalog is not None \
                and self._parts_of_kind(slots["system"], "gpu") == 2:
            # "the p2p latency between the two H200 GPUs in both directions": on a two-GPU machine, each way between
            # them, the two cells of its grid
            ruled_out.add(intent)
            intent, conf = "pair_matrix", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots.setdefault("operation", "p2p")
            if slots.get("metric") == "latency":
                slots.pop("direction", None)    # a latency has no bidirectional figure: both ways, one at a time
        if intent == "metric_lookup" and slots.get("system") \
                and len({m.group(0).replace(" ", "") for m in _A_PAIR.finditer(join_spelled(said))}) >= 2:
            # "does GPU0 -> GPU1 get more P2P bandwidth than GPU0 -> GPU2 on Yme": pairs set against each other, the
            # pair matrix's reading ("which GPU pair has the lowest ..." stays the lookup that names the pair)
            ruled_out.add(intent)
            intent, conf = "pair_matrix", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots.pop("src", None)
            slots.pop("dst", None)
            # the pairs themselves, in the order said, for the answer to set side by side (no filter)
            said_pairs = [(f"{m.group(1)}{m.group(2)}", f"{m.group(4)}{m.group(5)}")
                          for m in _A_PAIR.finditer(join_spelled(said))]
            slots["pairs"] = [list(p) for p in dict.fromkeys(said_pairs)]
        if intent == "scaling" and _WITH_SIZE.search(said) and (
                not (slots.get("count") or slots.get("count_kind"))
                or not (_COUNT_RANGE.search(said) or _TWO_COUNTS.search(said) or _count_range(lw))):
            # "how does h200 sendrecv algbw grow with size": a curve over message sizes, nothing counted, or one
            # count held ("on 4 Yme GPUs")
            ruled_out.add(intent)
            intent, conf = "size_sweep", max(conf, model_conf, CONFIDENCE_FLOOR)
        over_counts_said = _AS_COUNTS_GROW.search(said) if intent in ("metric_lookup", "compare_systems") else None
        if over_counts_said and slots.get("system") and not slots.get("count") and self.catalog is not None:
            kind = self.norm.count_and_kind(over_counts_said.group("kind") or over_counts_said.group("kind2"))[1]
            if kind and slots["system"] in self.catalog.owners.get(("count_kind", kind), set()):
                # "piuma su3 speedup across its core counts", "efficiency as gpus go up": a curve over counts
                ruled_out.add(intent)
                intent, conf = "scaling", max(conf, model_conf, CONFIDENCE_FLOOR)
                slots["count_kind"] = kind
        sid_ = slots.get("system")
        if intent == "link_efficiency" and isinstance(sid_, str) and self.catalog is not None \
                and not slots.get("link_type") and not (slots.get("src") or slots.get("dst")) \
                and slots.get("operation") in COLLECTIVE_OPS \
                and slots["operation"] in self.catalog.metric_ops(sid_, "efficiency"):
            # "ipu bcast eff 19456 tiles": a collective's efficiency the system stores, over no one link
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "link_efficiency" and slots.get("link_type") and isinstance(sid_, str) \
                and re.search(r"\blinks\b", said) and not _asks_efficiency(said) \
                and not re.search(r"\b(efficien\w*|utili[sz]\w*|percent|%|share|fraction|use[sd]?|uses)\b", said) \
                and not (any(_REFERENCE.match(w) for w in lw) and rates_against(lw)) \
                and self._has_links(slots):
            # "ri2 infiniband links + rates": the links and their rated speeds, which the graph holds
            ruled_out.add(intent)
            intent, conf = "topology", max(conf, model_conf, CONFIDENCE_FLOOR)
            slots = {k: v for k, v in slots.items() if k in ("system", "link_type")}
        if intent in ("metric_lookup", "size_sweep") and not (slots.get("src") or slots.get("dst")) \
                and _MEASURE_MATRIX.search(said) and slots.get("system"):
            # "ipu bandwith matrix under load": the measure's matrix over pairs, as the tools print it
            ruled_out.add(intent)
            intent, conf = "pair_matrix", max(conf, model_conf, CONFIDENCE_FLOOR)
        if intent == "pair_matrix" and slots.get("src") and slots.get("dst") and slots["src"] != slots["dst"] \
                and _MATRIX_CELL.search(said):
            # "what's the entry in row GPU1, column GPU0 of the P2P=Disabled bandwidth matrix": one cell's value,
            # though the question names the matrix it sits in
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent == "congestion" and slots.get("metric") == "time" and not stores("time", "metrics") \
                and stores("congestion_impact", "metrics"):
            # "how much of the congestion-induced extra time does congestion control win back": the extra time is
            # what the congestion impact measures (run time under congestion over run time alone)
            slots["metric"] = "congestion_impact"
        if intent == "metric_lookup" and slots.get("metric") in (None, "time") and _SLOWED_DOWN.search(said) \
                and stores("slowdown", "metrics"):
            # "how much does compiler instrumentation slow Quicksilver down": the slowdown factor stated
            slots["metric"] = "slowdown"
        if intent in ("metric_lookup", "compare_systems") and slots.get("compare_with") \
                and slots.get("metric") in (None, "bandwidth", "latency", "time", "flops", "throughput") \
                and _SPEEDUP_ASKED.search(said) and stores("speedup", "metrics"):
            # "for the DGX-2's NVLink bandwidth, what speedup over Yme does the thesis state": the factor stated,
            # not the two bandwidths (app.ask answers a stated speedup over the other system)
            slots["metric"] = "speedup"
        if intent in MEASUREMENT_INTENTS and not slots.get("condition") and _ESTIMATED.search(said) \
                and stores("estimated", "conditions"):
            # "what barrier time does the model estimate for 64 cores": the model's estimate, stored beside the
            # measured times as the condition estimated
            slots["condition"] = "estimated"
        if intent in MEASUREMENT_INTENTS and not slots.get("metric") and _ENDS_ON_TIME.search(said) \
                and stores("time", "metrics"):
            # "yme allreduce 16MB 4 ranks time": a keyword query's last word names its measure ("time" alone is
            # too common a word for the vocabulary to read anywhere else)
            slots["metric"] = "time"
        if intent == "metric_lookup" and _LINK_SPEED.search(said) and not slots.get("dst") \
                and slots.get("operation") in (None, "p2p", "link_speed") and stores("link_speed", "operations"):
            # "mini summit link speed per nvlink brick": the links' own speed as nvidia-smi prints it, not a copy's
            # bandwidth over them ("nvlink" names the links, no mode of copying)
            slots["operation"] = "link_speed"
            if slots.get("condition") in CONDITION_LINK_TYPES:
                del slots["condition"]
        op = slots.get("operation")
        if op in WORD_FAMILY and self.catalog is not None and isinstance(sid, str) and not stores(op, "operations"):
            kin = [x for x in WORD_FAMILY[op] if stores(x, "operations")]
            if len(kin) == 1:
                # "strong scaling of the IPU reduction": the IPU stores its reductions as the reduce collective, and
                # a planner asked for "reduction" there would refuse (every intent, not only those that relax)
                slots["operation"] = kin[0]
                notes.append(f"{op} read as {kin[0]}, the name {self.catalog.name(sid)} stores it under")
        if intent in ("metric_lookup", "list_data", "topology", "trace_breakdown", "link_efficiency") \
                and _HOW_IT_LOOKS.search(said) and not TRACE_WORD.search(said) \
                and not re.search(r"effic|% of|percent|nominal|peak|utili[sz]", said) \
                and (slots.get("metric") or slots.get("operation")) and not _GRAPH_ASKED.search(said) \
                and not any(slots.get(k) for k in ("msg_bytes", "size_range", "aggregate", "count", "src", "dst")):
            # "How's the all-reduce busbw looking on the H200 node?": a collective's or a copy's whole curve over
            # sizes, not one value, nor the inventory or the graph (the lookup stays the runner-up where no sizes
            # are stored); another measure is looked up
            if intent != "metric_lookup":
                ruled_out.add(intent)
            sized = slots.get("operation") in (*COLLECTIVE_OPS, "h2d", "d2h", "p2p", "d2d")
            intent, conf = ("size_sweep" if sized else "metric_lookup"), max(conf, CONFIDENCE_FLOOR)
        if not slots.get("operation") and self.catalog is not None and isinstance(slots.get("system"), str):
            # "dgx-2 sgemm flops vs gpu count", "yme dgemm flops": "sgemm" names the GEMM program (or nothing the
            # vocabulary holds as an operation), and also which of its stored operations (sgemm_n, not dgemm_n, nor
            # the machine's highest flops of any kind); the first stored operation the word begins is taken
            ops = sorted(self.catalog.operations.get(slots["system"], ()))
            said_ops = app_spans + [(u[2], u[3]) for u in unresolved if u[0] == "operation"] + [
                (i, i + 1) for i, w in enumerate(lw) if len(w) > 3 and w not in self.speller.english
                and self.norm.named("app", w) is not None]     # "sgemm", never an English word ("reduction")
            for a, b in said_ops:
                said_op = "".join(lw[a:b]).replace("-", "").replace(" ", "")
                if said_op in self.speller.english:
                    continue
                named_op = next((o for o in ops if o.startswith(said_op + "_")), None)
                if named_op and said_op != str(slots.get("app") or "").lower():
                    slots["operation"] = named_op
                    notes.append(f"{words[a]} read as {named_op}, the operation {self.catalog.name(slots['system'])}"
                                 " stores it under")
                    break
        many = next((i + 2 for i in range(len(lw) - 1) if lw[i] == "how" and lw[i + 1] == "many"), None)
        info = self.catalog.systems.get(str(slots.get("system"))) if self.catalog is not None else None
        if intent == "trace_breakdown" and not slots.get("metric") and many is not None \
                and any(a == many for a, _ in op_spans) and not TRACE_WORD.search(said) \
                and info is not None and not info.n_events and "count" in self.catalog.metrics.get(slots["system"], ()):
            # "how many annealing steps does the SQA V100 node run": no trace of it is loaded and none is asked for
            ruled_out.add(intent)
            intent = "metric_lookup"
        if intent == "metric_lookup" and not slots.get("metric") and many is not None \
                and any(a == many for a, _ in op_spans) \
                and self.catalog is not None and "count" in self.catalog.metrics.get(str(slots.get("system")), ()):
            # "how many annealing steps does the SQA V100 machine run": a count the machine stores, not the
            # operation's default measure (its latency)
            slots["metric"] = "count"
        axis = _COUNT_AXIS.search(said) if intent == "scaling" else None
        if axis and isinstance(slots.get("msg_bytes"), int) and not re.search(
                r"byte|\b[kmgt]i?b\b|\d\s*[kmgt]i?b\b|kilo|mega|giga|\bmessage|\bsize", said):
            del slots["msg_bytes"]    # "as the gpu count goes from two to sixteen": counts on the axis, no size
        if intent == "scaling" and every_count and not axis:
            # "on one GPU, then on all sixteen, and every count in between": the counts are the curve's points (the
            # last one said is no count to pick), and the measure is the other metric word said, if any
            slots.pop("count", None)
            _count_as_axis(slots, cands)
        if intent == "scaling" and slots.get("metric") == "count" and axis:
            # "the qtc kernel time ... as the gpu count goes from 2 to 16": the count is the curve's axis, and the
            # measure is the other metric word said ("time"), if any
            slots.setdefault("count_kind", self.norm.count_and_kind(axis.group(1))[1] or "gpus")
            _count_as_axis(slots, cands)
        for text, fits in list(open_descriptions) if self.catalog is not None else []:
            op, app = slots.get("operation"), slots.get("app")
            stored = [f for f in fits if isinstance(op, str) and op in self.catalog.operations.get(f, ())
                      or isinstance(app, str) and app.lower() in self.catalog.app_ops.get(f, {})]
            if len(stored) != 1 or stored[0] == slots.get("system") or stored[0] in (slots.get("compare_with") or []):
                continue
            # "does SuperMUC-NG trail the AMD EPYC node on stream triad": of the machines the words fit, one alone
            # stores what the question asks about
            pick = stored[0]
            open_descriptions.remove((text, fits))
            notes.append(f"read “{text}” as {self.described.names.get(pick, pick)}: of the {len(fits)} machines "
                         f"it fits, the only one with {op or app} data")
            if not slots.get("system"):
                slots["system"] = pick
                continue
            slots["compare_with"] = [*(slots.get("compare_with") or []), pick]
            if intent in ("link_efficiency", "metric_lookup", "out_of_scope") and _DIFFERENCE.search(said):
                ruled_out.add(intent)
                intent, conf = "compare_systems", max(conf, CONFIDENCE_FLOOR)
        if intent in ("size_sweep", "congestion", "pair_matrix", "scaling") and isinstance(slots.get("msg_bytes"), int) \
                and not slots.get("size_range") and _ONE_POINT_ASKED.search(said):
            # "a line chart ... tops out around 32 MiB: what's the stored value right at 32 MiB?", "what value sits
            # at that point?": one point of the curve the asker saw, not the curve
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        extreme_any = _EXTREME_AT_ANY_SIZE.search(said) if intent == "size_sweep" else None
        if extreme_any and not slots.get("msg_bytes"):
            # "best pinned D2H bandwidth the Titan RTX reaches at any transfer size": the one extreme over the
            # sizes, looked up
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
            slots.setdefault("aggregate", self.norm.aggregate(extreme_any.group("x"), slots.get("metric")) or "max")
        if slots.get("condition") == "measured" and self.catalog is not None and isinstance(slots.get("system"), str) \
                and "measured" not in self.catalog.conditions.get(slots["system"], set()):
            # "the measured line peels away from the ideal line": every stored row is measured unless it says
            # otherwise; a machine that keys none as measured is not narrowed by the word
            del slots["condition"]
        if (intent in ("scaling", "size_sweep", "pair_matrix", "topology", "trace_breakdown")
                or intent == "list_data" and (slots.get("app") or slots.get("metric"))) and _CC_ON_AND_OFF.search(said) \
                and self.catalog is not None \
                and {"cc_on", "cc_off"} <= self.catalog.conditions.get(str(slots.get("system")), set()):
            # "grouped bars of Incompact3D on the in-house cluster, CC on next to CC off": the two congestion-control
            # settings set side by side are the congestion experiment, however the chart was described
            ruled_out.add(intent)
            intent, conf = "congestion", max(conf, CONFIDENCE_FLOOR)
        if intent == "metric_lookup" and slots.get("condition") == "under_load" and _HOLDS_UP_UNDER_LOAD.search(said) \
                and self.catalog is not None \
                and "congestion_free" in self.catalog.conditions.get(str(slots.get("system")), set()):
            # "how does IPU5-to-IPU4 bidirectional bandwidth hold up under load": what the load does to it, against
            # the idle system the same experiment measured
            ruled_out.add(intent)
            intent, conf = "congestion", max(conf, CONFIDENCE_FLOOR)
        if intent == "congestion" and slots.get("condition") == "under_load" and slots.get("src") and slots.get("dst") \
                and isinstance(slots.get("count"), int) and slots.get("count_kind") and slots.get("metric") \
                and not _LOAD_SET_AGAINST_IDLE.search(said):
            # "what bandwidth does IPU5 to IPU6 reach under load with 3 threads": one pair, one setting of the load,
            # one measure and no word that sets it against the idle system: the value under that load
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        as_paper = {(a, b, sid): words[b - 1].lower() in _PAPER_NOUNS or b < len(words)
                    and words[b].lower() in _PAPER_NOUNS or _in_the_comparison(words, a, b)
                    for a, b, sid in sys_spans + gaz_systems + settled}
        # a machine said only as a paper's name ("the IPU paper"), not also as itself ("the i p us ... in the graphcore
        # paper")
        named_papers = {k[2] for k, paper in as_paper.items() if paper} - {k[2] for k, p in as_paper.items() if not p}
        others = [x for x in [slots.get("system"), *(slots.get("compare_with") or [])] if x not in named_papers]
        if (intent == "compare_systems" or intent == "out_of_scope" and not asks_advice(said)) and named_papers \
                and len(others) == 1 and slots.get("compare_with"):
            # "the nominal power of the V100 that the IPU paper compares against": "the IPU paper" names a document,
            # and the one machine asked about is the other
            slots["system"] = others[0]
            slots.pop("compare_with", None)
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if intent == "metric_lookup" and _HOW_MUCH_CUT.search(said) and self.catalog is not None \
                and isinstance(slots.get("system"), str):
            # "by how much does ExaHyPE 2 cut the CCZ4 update time on Hamilton 8": the cut itself is asked, where
            # the machine stores it (not only a reading tried when the time is missing)
            cut = verb_readings(words, slots, self.catalog.metrics.get(slots["system"], set())).get("metric")
            if cut:
                slots["metric"] = cut[0]
        if intent == "metric_lookup" and slots.get("compare_with") and isinstance(slots.get("system"), str) \
                and _TIMES_MORE_THAN.search(said):
            # "How many times greater is the pinned bandwidth of Yme than of the GTX 980": one machine's figure as a
            # multiple of the other's, which the comparison states
            ruled_out.add(intent)
            intent, conf = "compare_systems", max(conf, CONFIDENCE_FLOOR)
        if slots.get("operation") in ("reduction", "reduce") and _TIME_REDUCTION.search(said) \
                and self.catalog is not None and isinstance(slots.get("system"), str) \
                and "time_reduction" in self.catalog.metrics.get(slots["system"], set()):
            # "What runtime reduction does ExaHyPE 2 give the CCZ4 finite-volume update": the time cut, which the
            # machine stores, not a reduction collective
            slots["metric"] = "time_reduction"
            slots.pop("operation")
            if intent == "out_of_scope":
                intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        if slots.get("metric") == "time_reduction" and intent in ("scaling", "size_sweep") \
                and _TIME_FALLS.search(said):
            # "How does the DGX-2's QTC kernel time drop as the GPU count rises": the time itself, falling along
            # the curve, not a stored cut of it ("time drop" is also the cut's name)
            slots["metric"] = "time"
        if "metric" not in slots and intent in ("metric_lookup", "compare_systems", "scaling") \
                and _HOW_MUCH_IMPROVES.search(said) and self.catalog is not None and "improvement" in \
                self.catalog.metrics.get(str(slots.get("system")), set()):
            # "how much does Hy-Fi improve ResNet-218v2 training on 8 GPUs": the improvement the paper states, not
            # the speedup the machine's rows also hold
            slots["metric"] = "improvement"
        # tiles sending at once, said of a pair on a machine that stores its load conditions
        loaded_pair = slots.get("src") and slots.get("dst") and _TILES_SEND_AT_ONCE.search(said) \
            and self.catalog is not None and self.catalog.conditions.get(str(slots.get("system")), set())
        if (intent == "scaling" and slots.get("count_kind") == "tiles"
                or intent in ("metric_lookup", "link_efficiency") and _HOW_MUCH_CHANGES.search(said)) \
                and "count" not in slots and loaded_pair and loaded_pair & CONGESTION_CONDITIONS:
            # "the more tiles send together, the longer the IPU5-to-IPU4 latency", "while the other tiles flood the
            # links, how much does the IPU5-to-IPU6 latency grow": tiles sending at once are the load, which the
            # congestion measurements set against the idle case for a pair (a value "while they flood" is one
            # looked up under load)
            ruled_out.add(intent)
            intent, conf = "congestion", max(conf, CONFIDENCE_FLOOR)
            slots.pop("count_kind", None)
        elif intent == "metric_lookup" and not slots.get("condition") and loaded_pair and "under_load" in loaded_pair:
            slots["condition"] = "under_load"   # "the IPU5-to-IPU4 latency while the other tiles flood the links"
        if intent == "metric_lookup" and not (slots.get("src") or slots.get("dst")) \
                and _BETWEEN_ALL_DEVICES.search(said) and slots.get("metric") in ("latency", "bandwidth") \
                and isinstance(slots.get("system"), str):
            # "the unified memory latency between the g p us of yme": every pair of them, the grid
            ruled_out.add(intent)
            intent, conf = "pair_matrix", max(conf, CONFIDENCE_FLOOR)
        if intent == "compare_systems" and slots.get("compare_with") and slots.get("src") \
                and slots.get("src") == slots.get("dst"):
            # "the FP32 MaxFlops of the DGX-2's GPU0 and Mini Summit's GPU0": one device on each machine, no copy
            # from a GPU to itself
            del slots["dst"]
        if slots.get("operation") in ("reduce", "reduction") and _REDUCE_AS_A_VERB.search(said) \
                and self.catalog is not None and isinstance(slots.get("system"), str) \
                and slots["operation"] not in self.catalog.operations.get(slots["system"], set()):
            # "how much does congestion control reduce the congestion impact": the verb, no reduce collective
            del slots["operation"]
        if intent == "compare_systems" and slots.get("compare_with") and _CONGESTION_SLOWS.search(said) \
                and slots.get("metric") in (None, "slowdown", "congestion_impact") and self.catalog is not None \
                and all(self.catalog.conditions.get(str(s), set()) & CONGESTION_CONDITIONS
                        for s in [slots.get("system"), *slots["compare_with"]]):
            # "how much does congestion slow down VASP on Azure compared to the in-house cluster": the congestion
            # experiment on each machine, its two settings side by side (not each machine's one best value)
            ruled_out.add(intent)
            intent, conf = "congestion", max(conf, CONFIDENCE_FLOOR)
        if intent == "link_efficiency" and slots.get("metric") == "bandwidth" and slots.get("src") \
                and slots.get("dst") and slots.get("condition") in CONDITION_LINK_TYPES \
                and not _LINK_OR_RATE_WORD.search(said) and not re.search(r"\befficien", said) \
                and not OF_PEAK.search(said):
            # "what unidirectional Tartan NVLink-mode bandwidth does the DGX-2 reach from GPU3 to GPU12": a transfer
            # mode and a pair's measured bandwidth, nothing set against the link's rate
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
            slots.pop("link_type", None)
        if intent == "link_efficiency" and slots.get("metric") == "efficiency" and not slots.get("link_type") \
                and isinstance(slots.get("system"), str) and self.catalog is not None \
                and not _LINK_OR_COPY.search(said) and not _LINK_OR_RATE_WORD.search(said) \
                and "efficiency" in self.catalog.op_metrics(slots["system"], slots.get("operation")):
            # "Chifflet's Tarantella training efficiency on 12 GPUs": an efficiency the machine stores, of no link
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
        op_, sid_ = slots.get("operation"), slots.get("system")
        if (intent == "topology" or intent == "out_of_scope" and all(i in covered or i in hit_words
                                                                    for i in range(len(words)))) \
                and isinstance(op_, str) and isinstance(sid_, str) and self.catalog is not None \
                and not (slots.get("link_type") or slots.get("src") or slots.get("dst")) \
                and not _GRAPH_ASKED.search(said) and not _LINK_OR_COPY.search(said) \
                and (measures := self.catalog.op_metrics(sid_, op_)):
            # "titan rtx bfs", "yme triad": a program the machine ran, named with nothing about its wiring (or
            # nothing else at all), is its measurement
            ruled_out.add(intent)
            intent, conf = "metric_lookup", max(conf, CONFIDENCE_FLOOR)
            if "metric" not in slots and len(measures) == 1:
                slots["metric"] = next(iter(measures))     # (what the program measures there)
        readings = other_readings(slots, cands)
        for k, alts in [*verb_readings(words, slots, self.norm.vocab.canonicals("metric")).items(),
                        *family_readings(slots).items(), *precision_readings(words, slots).items()]:
            readings.setdefault(k, []).extend(a for a in alts if a not in readings.get(k, []))
        return Understanding(intent, conf, slots, spans, [(u[0], u[1]) for u in unresolved], words, tags,
                             ms=(time.perf_counter() - t0) * 1000, notes=notes, readings=readings, spelled=spelled,
                             ranked=sorted(((i, p) for i, p in zip(self.labels["intents"], intent_probs)
                                            if i not in ruled_out), key=lambda x: -x[1]),
                             described=open_descriptions, asked=_text_without(text, [presented, reason]))


# "ipu5 to ipu4 bandwidth for big messages": the rate at the large end, one value; a sweep says both ends or a range
_LARGE_MESSAGES = re.compile(r"\bfor (very )?(big|large|huge|bigger|larger) (messages?|transfers?|payloads?)\b")
# "in the row where size is 2^27, what's the in-place time": one row of the tool's table, one value
_PEAK_VALUE_ASKED = re.compile(r"^(so )?what('s| is| was| would| will)( \w+)? (be )?the (peak|maximum|max|highest|top|"
                               r"lowest|minimum|min)\b(?!.{0,40}\b(at what|which|where)\b)")
_ONE_ROW = re.compile(r"\bthe (row|line) (where|for|with|at|of)\b|"
                      # "on the plot of ... against message size, what y value sits at x = 1 GB": one point read off
                      r"\b(what|which) (y|y-axis|y axis) value\b|\bat x ?(=|==|equals|of|is) ?\S")
_BOTH_ENDS = re.compile(r"\b(small|smaller|tiny|from|grows?|growing|curve|sweep|across|range|sizes)\b")
# "how well Heid uses its NVLinks", "how well does the AC922 use the X-Bus", "how efficiently does the TUM AC922 use
# its NVLink2 bandwidth"
_USES_ITS_LINK = re.compile(r"\bhow (well|efficiently)\b.{0,60}\b(uses?|using|exploits?|utili[sz]es?) (its|the|their) |"
                            r"\bhow well (are|is) (those|these|the|its|their|that|this) ([\w.-]+ ){0,2}links? (used|"
                            r"utili[sz]ed|exploited)\b")
# "slows it down", "slow Quicksilver down", "slowdown", "how much slower"
_SLOWED_DOWN = re.compile(r"\b(slow(s|ed|ing)? ([\w-]+ ){0,3}down|slowdown|slower|how (much )?slow (does|did|do|is|are|"
                          r"was|were|can|will)\b)\b")


# a question asked before, named as context ("I asked about all-reduce before; now the same thing for ..."): its
# words are not this question's
_PAST_QUESTION = re.compile(r"^(i|we) (asked|was asking|were asking|looked|enquired|inquired) (about|at|for) .{1,80}?"
                            r"\b(before|earlier|already|last time|just now)( [;,.:-])?( (now|but|and|so))?( [;,.:-])? ")


# what the asker is working on, said before the question ("I'm writing up our interconnect study. Which application
# suffers most ..."): the question starts after the clause's stop
_WORKING_ON = re.compile(r"^(i 'm|i am|im|we 're|we are|i 've been|we 've been) (\w+ ){0,2}(writing|preparing|putting|"
                         r"working|doing|drafting|compiling|building|making|reviewing|comparing|collecting|gathering)\b"
                         r"[^.,;:]{0,80}? "
                         r"[.,;:] (?=(which|what|how|is|are|does|do|did|can|could|where|when|show|give|list|plot|draw|"
                         r"compare|rank|tell)\b)")


def past_question(words: list[str], names_system: Callable[[list[str]], bool] = lambda ws: False) -> list[str]:
    """The leading words that name an earlier question, or what the asker is working on, when a question follows
    them; [] otherwise. A clause about the asker's work is context only where it names no system: in "I'm putting
    together numbers for the H200 node review. What ..." the machine of the question is said there."""
    said = " ".join(w.lower() for w in words) + " "
    m = _PAST_QUESTION.match(said)
    if not m:
        m = _WORKING_ON.match(said)
        if m and names_system(words[:len(m.group(0).split())]):
            return []
    if not m or len(m.group(0).split()) >= len(words) - 2:
        return []
    return words[:len(m.group(0).split())]


# what the asker already knows, said first ("I know the H200 pair joins GPU0 and GPU1 with NVLink; what ...")
# ("I remember X being near 4 TB/s, ...", "I read that the IPU ... 5x faster than a V100. Is that ...": a number to
# check, which the question asks about, is no such fact)
_KNOWN_FIRST = re.compile(r"^(i|we) (already )?(know|knew|understand)"
                          r"( that)? [^.;:?]{3,120}? [.;:,] (?=(which|what|how|is|are|does|do|did|can|could|where|when|"
                          r"show|give|list|plot|draw|compare|rank|tell|so|but|now|and)\b)")


def known_first(words: list[str], candidates) -> tuple[list[str], list[str]]:
    """(the question, the fact said before it): the fact's endpoints, links and measures are no part of what is
    asked, but a machine named only there is the question's machine, which is kept ("... what bandwidth does GPU1
    reach to GPU0" on the H200 pair). `candidates`: the vocabulary's readings of words (Gazetteer)."""
    m = _KNOWN_FIRST.match(" ".join(w.lower() for w in words) + " ")
    n = len(m.group(0).split()) if m else 0
    if not m or n >= len(words) - 2:
        return words, []
    fact, question = words[:n], words[n:]
    machine = [(a, b) for a, b, f in candidates(fact) if "system" in f]
    if machine and not any("system" in f for _, _, f in candidates(question)):
        a, b = max(machine, key=lambda ab: ab[1] - ab[0])
        named = ["on", *([] if fact[a].lower() == "the" else ["the"]), *fact[a:b]]
        question = [*question[:-1], *named, question[-1]] if question[-1] in ("?", ".") else [*question, *named]
    return question, fact


# the asker's own machine: "our A100 cluster", "my workstation's", "our new H100 nodes"
_OWN = {"our", "my"}
_MACHINE_NOUNS = {"cluster", "clusters", "machine", "machines", "system", "systems", "node", "nodes", "box", "boxes",
                  "server", "servers", "allocation", "supercomputer", "workstation", "laptop", "partition", "rig"}


def _count_across_name(words: list[str], spans, norm) -> Optional[int]:
    """"on eight d g x two g p us", "on 8 DGX-2 GPUs": a number before a machine's name and "GPUs" after it (spans:
    (start, end, system) of the names read) is how many of its GPUs ran; None where no name stands so ("the two H200
    GPUs" names the machine, "between the two H200 GPUs" a pair's ends)."""
    lw = [w.lower() for w in words]
    for a, b, _sid in spans:
        if b - a > 2 and norm.number(lw[a]) is not None and (a == 0 or lw[a - 1] not in ("the", "between", "both"))\
                and any(re.search(r" (gpus?|g p us)$", " ".join(lw[a:e])) for e in (b, b + 1)):
            n = norm.number(lw[a])          # the tagger took "8 DGX-2 GPUs" (nearly) whole as the machine
        elif a >= 2 and lw[a - 2] in ("on", "across", "using", "with") and norm.number(lw[a - 1]) is not None and (
                lw[b:b + 1] in (["gpus"], ["gpu"]) or lw[b:b + 3] == ["g", "p", "us"]):
            n = norm.number(lw[a - 1])
        else:
            continue
        return int(n) if float(n).is_integer() and n > 0 else None
    return None


def own_machine(words: list[str], named_at: set[int]) -> Optional[tuple[str, int, int]]:
    """The words of a machine the asker calls theirs ("our A100 cluster") when none of them is a stored system's
    name or already read as one: (surface, start, end), else None."""
    lw = [w.lower() for w in words]
    for i, w in enumerate(lw):
        if w not in _OWN:
            continue
        for j in range(i + 2, min(i + 6, len(lw))):
            if lw[j] in _MACHINE_NOUNS:
                if not named_at.intersection(range(i + 1, j + 1)) and any(
                        re.search(r"\d", x) for x in lw[i + 1:j]):
                    return " ".join(words[i + 1:j + 1]), i + 1, j + 1
                break
    return None


_TAG_QUESTION = re.compile(r"^(?P<said>.{8,}?) ,? (right|correct|yes|no|eh|true|innit|(is|are|was|were|do|does|did|has|have|"
                           r"had|wo|ca|could|would|should) ?n't (it|they|that|this|we|you|he|she|there|these|those)) \? "
                           r"(?P<asked>.+)$")


def after_tag_question(said: str) -> str:
    """What is asked after a statement confirmed with a tag ("..., right? what bandwidth did it get there"), or the
    whole question when it opens with none."""
    m = _TAG_QUESTION.match(said)
    return m.group("asked") if m and re.search(r"\b(what|which|how|is|are|does|did|do|can|show|give|list)\b",
                                                m.group("asked")) else said


def _traffic_is_load(said: str, slots: dict[str, Any]) -> bool:
    """Whether "traffic" said is load beside the copies asked about: "under heavy concurrent traffic" is; "traffic
    from GPU0 to GPU1", with that pair named, is the pair's own copies."""
    if not re.search(r"\btraffic\b", said):
        return False
    own = slots.get("src") and slots.get("dst") and re.search(r"\btraffic (from|between)\b", said)
    return not own or bool(re.search(r"\b(under|concurrent|background|heavy|other|competing|cross)\b[\w -]{0,20}"
                                     r"\btraffic\b", said))


def _stored_slowdown_only(slots: dict[str, Any], catalog) -> bool:
    """One system asked about that ran under no congestion condition but stores slowdown factors (for the
    application asked about, where one is; `Catalog.slowdown_without_congestion`, which the congestion planner
    answers with too): what slows it down is the stored factor, not a side-by-side of two conditions it never ran."""
    sid = slots.get("system")
    if not sid or slots.get("compare_with") or not catalog.slowdown_without_congestion(sid):
        return False
    app = str(slots.get("app") or "").lower()
    return not app or app in catalog.app_ops.get(sid, {})


def _place(systems: list[str], sid: str, at: Optional[int], spans) -> None:
    """Put `sid`, said at word `at`, before the first of `systems` said after it (at the end when none is, or
    when `at` is None). spans: (start, end, system id) of the names found."""
    later = [systems.index(v) for a, _, v in spans if at is not None and a > at and v in systems]
    systems.insert(min(later), sid) if later else systems.append(sid)


def _next_intent(intents: list[str], probs: list[float], ruled_out: set[str]) -> tuple[str, float]:
    """The likeliest intent not ruled out, with its probability renormalised over what is left."""
    i = max((k for k in range(len(intents)) if intents[k] not in ruled_out), key=lambda k: probs[k])
    return _renormalised(intents, probs, intents[i], ruled_out)


# "what's the stored value right at 32 MiB", "what value sits at that point": one point of a curve
_ONE_POINT_ASKED = re.compile(r"\b(value|number|figure|reading|point)\b.{0,25}\b(right at|exactly at|sits? at|at that "
                              r"(point|tick|size|mark))\b|\b(value|number|reading) (right |exactly )?at (the |that )?"
                              r"[\d.]+ ?[kmgt]i?b\b")
# "when it is as high as it gets", "at its peak": the extreme of what is asked
_AS_HIGH_AS_IT_GETS = re.compile(r"\bas (?P<x>high|fast|good|big|large|low|small|short) as (it|they) (gets?|goes|go|can "
                                 r"get)\b|\bat (its|their) (?P<y>highest|peak|best|maximum)\b")
# "best pinned D2H bandwidth ... at any transfer size": one extreme over every size
_EXTREME_AT_ANY_SIZE = re.compile(r"\b(?P<x>best|highest|peak|maximum|max|top|lowest|minimum|min|worst|fastest|"
                                  r"slowest)\b.{0,80}\b(at|over|across|for) (any|all) (transfer |message |buffer "
                                  r"|copy )?sizes?\b")
# words that set two machines side by side: "upgrade ... gain", "as two bars", "next to", "->"
_SET_SIDE_BY_SIDE = re.compile(r"\b(upgrad(e|es|ed|ing)|gains?|uplift|bars?|side by side|next to|both values|"
                               r"(the )?two (values|numbers|figures)|vs\.?|versus|compared?)\b|->")
# a document or a part of one named: "the DGX-2/AC922 report", "Listing 30", "Table 2 of the thesis"
_A_DOCUMENT = re.compile(r"\b(report|paper|thesis|listing|table|figure|fig\.|study|article|appendix)\b")
# "by roughly what factor does the DGX-2's bandwidth exceed Yme's": a ratio stated, asked by its factor
_BY_WHAT_FACTOR = re.compile(r"\b(what|which) factor\b|\bhow many times\b")
# "speedup over zmcintegral", "speed-up vs the CPU code": over another code or device, not over a count
_SPEEDUP_OVER_ANOTHER = re.compile(r"\bspeed ?-?ups? (over|vs\.?|versus|against|relative to|compared (to|with)) "
                                   r"(?!(a |the )?(single |one |two |three |four |\d))[a-z]")
# "speedup on 12 gpus vs 2", "efficiency at 8 nodes relative to 1": one count set against its base count
_RELATIVE_AT_COUNT = re.compile(r"\b(on|at|with|for|using) (?P<n>\d+) (gpus?|nodes?|cores?|ranks?|ipus?|processes|"
                                r"devices?|workers?) (vs\.?|versus|over|against|relative to|compared (to|with)) "
                                r"(the )?\d+\b")


def _unasked(systems: list[str], excluded: list[str], said: str) -> set[str]:
    """Readings to pass over when the model's first is ruled out: a comparison where one system or none is named
    and none is left out (it would ask back for the other side), a grid of pairs where no pair, grid or matrix is
    spoken of. A next choice must be one the words allow."""
    return ({"compare_systems"} if len(systems) < 2 and not excluded else set()) \
        | (set() if _PAIR_CUE.search(said) else {"pair_matrix"})


def _measures_named(cands) -> list[str]:
    """The measures the words name, in order, other than "count" (which, beside a count axis, is the axis)."""
    return [f["metric"] for _, _, f in cands if f.get("metric") not in (None, "count")]


def _count_as_axis(slots: dict[str, Any], cands) -> None:
    """"at what gpu count ...", "which tile count gives the highest gather bandwidth", "what effect does the GPU count
    have on ...": the count is the axis the measure is read along, not a measure called "count"; the measure is the
    first other one the words name, if any."""
    if slots.get("metric") == "count":
        slots.pop("metric")
        other = _measures_named(cands)
        if other:
            slots["metric"] = other[0]


def _renormalised(intents: list[str], probs: list[float], intent: str, ruled_out: set[str]) -> tuple[str, float]:
    """`intent` with its probability renormalised over the intents not ruled out (the words chose it)."""
    gone = sum(p for k, p in enumerate(probs) if intents[k] in ruled_out)
    return intent, probs[intents.index(intent)] / max(1e-9, 1 - gone)


# what a question for a grid of endpoint pairs names: pairs, a matrix, grid or heat map, every/each pair, a size
# of the grid ("16 by 16"), "between the GPUs", "GPU-to-GPU", values in the plural, the CUDA sample that prints one
_PAIR_CUE = re.compile(r"pair|matri|grid|heat ?map|combinations?|pairings?|all[- ]to[- ]all|(every|each)(?! (single |one )?(gpu|ipu|g p u|i p u|"
                       r"device|card|node|cpu|c p u|socket|board|chip)s?\b(?! ?(to|->|-|and|with|other|pairs?)\b))|"
                       r"between all|among|full|whole|table|"
                       r"\b\d+ ?(by|x) ?\d+\b|\b(sixteen|eight|four|two) by\b|all (the )?(gpus|ipus|cores)|"
                       r"between (the |which (two )?)?(gpus|ipus|cores|devices)|p2pbandwidthlatencytest|all of them|"
                       r"\b(gpu|ipu|core|tile)s? ?(-|to|->) ?(gpu|ipu|core|tile)s?\b|latencies|bandwidths")
# a measure's matrix ("bandwidth matrix", "latency matrices"), not a matrix computation ("matrix multiply")
_MEASURE_MATRIX = re.compile(r"\b(bandwidth|bandwith|bw|latency|latencies)( [\w-]+)? matri(x|ces)\b(?! (multipl|mult|"
                             r"product|size|dimension))")
_EACH_DIRECTION = re.compile(r"\b(both|each|either) (directions?|ways)\b")
_HOW_ATTACHED = re.compile(r"\bhow\b.{0,60}\b(hangs? off|(is|are) (attached|connected|hooked up|wired|plugged) (in)?to|"
                           r"plugs? into|hooks? up to|(connect|attach|link)s? (in)?to|"
                           # "how the GPUs of the DGX-2 reach the NVSwitches": the way there, not a share of a peak
                           r"reach(es)? (the |its |their )?(nv ?switch(es)?|switch(es)?|pcie switch(es)?|cpus?|host|"
                           r"nics?|network|other gpus))\b")
# ("according to NVIDIA, by what factor does ...": the vendor's word)
_VENDOR_CLAIM = re.compile(r"\b(nvidia|nvidia'?s|nvidias|vendor'?s?|graphcore'?s?|ibm'?s?|intel'?s?)\b(\s+[\w-]+){0,4}"
                           r"\s+claim(s|ed)?\b|\baccording to (nvidia|the vendor|graphcore|ibm|intel)\b")
_A_PAIR = re.compile(r"\b(gpu|ipu) ?(\d{1,2}) ?(- ?>|to|-|and) ?(gpu|ipu) ?(\d{1,2})\b")
_WITH_SIZE = re.compile(r"\b(grows?|grwo|growing|changes?|changing|varies|vary|scales?|scaling|evolves?) "
                        r"(with|over|across) (the )?(message |msg |transfer |buffer )?sizes?\b")
_AS_COUNTS_GROW = re.compile(r"\bacross (its|the|all|their) (?P<kind>cores?|gpus?|nodes?|ipus?|ranks?|threads?)"
                             r"( counts?)?\b|"
                             r"\bas (the )?(number of )?(?P<kind2>cores?|gpus?|nodes?|ipus?|ranks?|threads?) "
                             r"(go|goes|increase|grows?|rises?)( up)?\b")
_IN_BITS = re.compile(r"\b(giga|mega)bits?\b|\b[gm]bits?\s*/\s*s\b|\b[gm]bps\b")
_HOW_MUCH_FASTER = re.compile(r"\bhow (much|many times) (faster|quicker)\b")
_WHICH_IS_FASTER = re.compile(r"\bwhich (one |machine |system )?(is|was|runs|goes) (the )?(faster|quicker|slower|"
                              r"fastest|quickest|slowest)\b|"
                              # "is yme or mini summit faster for nvlink copies"
                              r"^(is|are|was) [\w -]{1,40} or [\w -]{1,40}? (faster|quicker|slower)\b")
# the matrix a value is read from ("in the p2pBandwidthLatencyTest matrix"), not a matrix asked for
_IN_THE_MATRIX = re.compile(r"\b(in|from|of|on) the ([\w-]+ ){0,2}matri(x|ces)\b")
# a picture of one value per endpoint pair: a heat map, a grid, "every GPU combination", "16 by 16" (not "matrix",
# which also names matrix-free solvers and matrix multiplies)
_GRID_WORD = re.compile(r"\bheat ?maps?\b|\bgrids?\b|\b(all|every|each) (\w+ )?(combinations?|pairings?)\b|"
                        r"\b\d+ ?(by|x) ?\d+\b|\b(sixteen|eight|four|two) by (sixteen|eight|four|two)\b")
# a grid named by its parts ("core x core", "gpu-by-gpu", "ipu by ipu") or by its size ("2x2", "16 x 16"; not a
# mesh or torus, which is the machine's layout)
_PART_BY_PART = re.compile(r"\b(gpu|ipu|core|tile|node|cpu|device|rank|g p u|i p u)s? ?,?[ -]?(x|by)[ -]?\1s?\b|"
                           r"\b(?P<n>\d{1,2}) ?x ?(?P=n)\b(?! (mesh|torus|array|layout))|"
                           # "source GPU on the rows and destination GPU on the columns": the grid laid out in words
                           r"\b(gpus?|ipus?|sources?|destinations?|senders?|receivers?)( \w+)? (on|as|down|along|in|"
                           r"across) (the )?(rows?|columns?)\b|"
                           # "lay out the IPU P2P latency under load by IPU pair", "pair by pair"
                           r"\b(by|for each|for every) (\w+ ){0,2}pair\b|\bpair by pair\b")
# the space the tokenizer leaves before a possessive ("Oak Ridge 's flagship"), taken out where words are quoted
_POSSESSIVE_GAP = re.compile(r" (?=['’]s\b)")
# a value asked as what was recorded ("what temperature did the database record for it")
_WHAT_VALUE_RECORDED = re.compile(r"\bwhat (\w+ ){1,2}(did|does|do|was|were) (the )?(database|db|data|it|they|you) "
                                  r"(record|recorded|store|stored|log|logged|measure|measured|show|give|read)\b")
# one value asked for by what is kept of it ("what host-to-device bandwidth is stored for the DGX-1 V100"); kinds
# of things stored ("what data is stored for ...", "what bandwidth measurements are stored") are the inventory
_WHAT_VALUE_STORED = re.compile(r"\bwhat (?!data\b|info\w*\b|kinds?\b|sorts?\b|types?\b|else\b)([\w-]+ ){1,8}"
                                r"(?<!measurements )(?<!results )(?<!numbers )(?<!values )(is|was) (stored|recorded|"
                                r"logged|held|kept|on (file|record)) (for|on|in|about)\b")
# a copy between the host and a GPU said in plain words ("the host push data into a GPU", "a GPU send its results
# back to the host")
_HOST_INTO_GPU = re.compile(r"\b(host|cpu|system memory|main memory|ram)\b.{0,25}\b(push\w*|send\w*|cop(y|ies|ied|ying)|"
                            r"mov(e|es|ed|ing)|transfer\w*|writ(e|es|ing)|stream\w*|feed\w*|load\w*|ship\w*)\b.{0,20}"
                            r"\b(in)?to (a|the|one|each|its|every) (gpu|g p u|device|card|accelerator)s?\b")
_GPU_INTO_HOST = re.compile(r"\b(gpu|g p u|device|card|accelerator)s?\b.{0,25}\b(push\w*|send\w*|cop(y|ies|ied|ying)|"
                            r"mov(e|es|ed|ing)|transfer\w*|writ(e|es|ing)|stream\w*|ship\w*)\b.{0,25}\b(back )?"
                            r"(in)?to (the )?(host|cpu|system memory|main memory|ram)\b")
# links listed by their kind ("one row per link type", "grouped by link type"); no measure named (_MEASURE_SAID)
_PER_LINK_TYPE = re.compile(r"\b(per|by|for each|each|every) (link|connection|interconnect) (types?|kinds?|class(es)?)\b")
# a value set aside ("..., not NVLink", "rather than the time"): its slots, and the words before it that set it aside
_CONTRASTED_SLOTS = ("link_type", "metric", "operation", "precision", "app", "library")
_CONTRASTING = re.compile(r"(?:^|\s)(not|rather than|instead of|other than|as opposed to)( (the|a|an|over|via|through|"
                          r"its|their))?$")


_CONCEDING = {"although", "though", "despite", "granted", "admittedly"}
_WHICH_LINK = re.compile(r"\b(what|which) (kind of |type of |sort of )?(links?|interconnects?|connections?|buses|bus)\b")


def _conceded(words: list[str], a: int) -> bool:
    """Position `a` lies in a clause granted before the question ("although ... , what links does it use?"), and the
    question asks which link."""
    lw = [w.lower() for w in words]
    start = 2 if lw[:2] == ["even", "though"] else 1 if lw[:1] and lw[0] in _CONCEDING else 0
    comma = lw.index(",") if start and "," in lw else -1
    return start <= a < comma and bool(_WHICH_LINK.search(" ".join(lw[comma + 1:])))


_MULTIPLE_BEFORE = {"many", "two", "three", "four", "five", "ten", "several", "few"}
# (not "faster", "slower", "longer": "how many times slower" is read from the time, as a slowdown, further on)
_COMPARATIVES = {"higher", "more", "lower", "larger", "bigger", "greater", "better", "smaller", "worse", "as", "over"}


def _times_as_a_multiple(words: list[str], a: int, b: int) -> bool:
    """words[a:b] is "times" of a multiple ("how many times higher", "3 times faster"), not a measured time."""
    if [w.lower() for w in words[a:b]] != ["times"] or a == 0 or b >= len(words):
        return False
    before = words[a - 1].lower()
    return (before in _MULTIPLE_BEFORE or before.replace(".", "", 1).isdigit()) and words[b].lower() in _COMPARATIVES


def _contrasted(words: list[str], a: int) -> bool:
    """The words just before position `a` set the value there aside ("not NVLink", "rather than the time")."""
    return bool(_CONTRASTING.search(" ".join(w.lower() for w in words[max(0, a - 4):a])))


# "number of nvlinks between the gpus", "count of IPU-Links": links counted, in plain words
_LINKS_COUNTED = re.compile(r"\b(number|count|no\.?|#|how many) (of )?(nv ?links?|nvlink\d?s|links|ipu-?links|lanes|"
                            r"cables|connections|bricks|x-?bus(es)?|upi links|pcie links)\b|"
                            # "how uneven are the dgx1 v100 nvlink counts across gpu pairs"
                            r"\b(nv ?link\d?|link|ipu-?link|connection) counts\b")
# the kind of link asked for ("link type", "what sort of connection")
_LINK_KIND_ASKED = re.compile(r"\b(link|connection|interconnect) (types?|kinds?)\b|"
                              r"\b(type|kind|sort)s? of (link|connection|interconnect)s?\b")
# words of a curve over sizes that the size-sweep rules above do not list ("sweep", "at every size", "sizes")
_CURVE_OF_SIZES_SAID = re.compile(r"\b(sweep\w*|sizes|every size|all sizes|each size|up to|until|onwards?|beyond|"
                                  r"above|below|under|over|past|from|between|crossover|cross|knee|saturat\w*|plateau\w*|"
                                  r"where|which size|what size|at what|stop\w*|peaks?)\b")
# number words that count a few devices ("the two IPUs"; not "hundred" of a spoken model name, "h two hundred cards")
_SMALL_NUMBERS = {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                  "thirteen", "fourteen", "fifteen", "sixteen"}
# plural device nouns a number before them counts
_DEVICES_COUNTED = {"gpus": "gpus", "ipus": "ipus", "cards": "gpus", "nodes": "nodes"}
# one figure asked for over a range of counts ("what efficiency does X reach going from 1 to 19456 tiles")
_REACHED_OVER_A_RANGE = re.compile(r"^(in |on |for )?(\S+ ){0,4}what (\w+ ){0,3}(efficiency|speedup) (does|did|do|can) "
                                   r".{0,60}\b(reach|achieve|attain|hit|get|manage)\b.{0,30}\bfrom \S+ (\w+ )?(up )?to "
                                   r"(?P<end>[\d,]+)\b")
# the largest problem a device's memory holds ("the largest GEMM dimension that fits on one IPU")
_FITS_IN_MEMORY = re.compile(r"\b(largest|biggest|max\w*) .{0,40}\b(dimension|matrix|problem|n)\b.{0,30}\bfits?\b|"
                             r"\bfits? (on|in|into) (one|a single|an?|the|each) (ipu|gpu|device|card|memory)\b.{0,40}"
                             r"\b(dimension|matrix)\b")
# parts that share a board with the one named ("on the same baseboard as GPU5", "share a tray with")
_SAME_BOARD = re.compile(r"\b(same|one) (base ?board|board|tray|socket|card|carrier|blade|node|chassis|switch)\b|"
                         r"\b(?P<share>shares?|sharing) (a|the|its) (base ?board|board|tray|socket|card|switch)\b")
# what load does, in plain words ("how much slower ... under background traffic", "degrades under contention")
_SLOWER_UNDER_LOAD = re.compile(r"\b(slow\w*|worse|degrad\w*|suffer\w*)\b.{0,40}\b(under|with) (\w+ )?(load|traffic|"
                                r"congestion|contention)\b")
# a rate between two parts asked in plain words ("how much traffic can cross between the two sockets")
_HOW_MUCH_TRAFFIC = re.compile(r"\bhow much (traffic|data)\b.{0,40}\b(cross|flow|move|go|pass|travel|get|push|send)\w*")
# all of a link's rate used ("does SU3_Bench max out its UPI link")
_MAXES_OUT_A_LINK = re.compile(r"\bmax(es|ed|ing)? ,? ?out (its|the|their|a|that|this) ([\w-]+ ){0,3}(links?|bus|fabric|"
                               r"interconnect|connection)\b")
# the size from which something is worth it ("where does compression pay off at a smaller message size")
_PAYS_OFF_AT_A_SIZE = re.compile(r"\b(pays? off|starts? (to )?pay(ing)? off|breaks? even|becomes? worth it|wins?|"
                                 r"crosses over)\b.{0,40}\b(msg|message|transfer|buffer|payload) ?sizes?\b|"
                                 r"\b(msg|message) ?sizes?\b.{0,40}\b(pays? off|breaks? even|wins?|starts? (winning|"
                                 r"to win|beating|to beat)|pulls? ahead)\b")
# a setting and its negation both said, "loaded and not loaded", "pinned or non-pinned": both sides asked for
_SIDE_AND_ITS_NEGATION = re.compile(r"\b([\w-]+) (and|or|vs\.?|versus|/) (not |non ?-? ?|un)\1\b")
# words that set a congestion-free value against something: the other side, or what load does to it
_SETS_AGAINST = re.compile(r"\b(vs\.?|versus|compar\w*|than|against|slow\w*|worse|impact\w*|effects?|affect\w*|hurt\w*|"
                           r"differ\w*|degrad\w*|drop\w*|cost\w*|chang\w*|penalt\w*|under[- ]?l\w+|loaded|busy|"
                           r"contention|congested|stress\w*)\b")
# words for whatever a benchmark measures, which some systems also store as a metric of that name
_GENERIC_MEASURES = {"result", "score", "value", "performance"}
# other traffic at the same time as the transfer asked about: load ("when other pairs are transferring at the same
# time", "while the other GPUs copy concurrently")
_OTHERS_AT_ONCE = re.compile(r"\b(when|while|with) (the )?(other|all the other|the rest of the|more|many|all|all the|"
                             r"\d[\d,]*) (\w+ (, )?|- ){0,4}"
                             r"(\w+ing|are \w+ing|run|send|copy|transfer|communicate|transmit|talk|write|push|fire|"
                             r"exchange)s?\b.{0,30}"
                             r"\b(at the same time|concurrently|simultaneously|at once|in parallel)\b")
# tensor cores named, and named as off
_TENSOR_CORES = re.compile(r"\btensor ?-? ?cores?\b")
_TENSOR_CORES_OFF = re.compile(r"\b(without|no|w/o|disabled?|off)\b.{0,12}\btensor ?-? ?cores?\b|"
                               r"\btensor ?-? ?cores?\b.{0,12}\b(off|disabled|not used|unused)\b")
# words that ask what is stored rather than for a value
_LISTS = re.compile(r"\b(list\w*|available|exists?|stored|loaded|inventory|catalog\w*|what (data|metrics|measurements|"
                    r"runs|benchmarks|tools|systems|traces)|which (data|metrics|measurements|runs|benchmarks|tools|"
                    r"systems|traces))\b")
# what a question over message sizes says: a size, sizes, messages, transfers, buffers, a sweep or a curve
# what a congestion question says: load, contention or traffic, congestion control, or what they do
# IBM's processors said aloud ("power nine", "the IBM Power machine"), and the words of power drawn, which keep the
# metric
_POWER_PROCESSOR = re.compile(r"\bpower ?(9|nine|8|eight|10|ten|system)\b|\bibm power\b")
_POWER_DRAWN = re.compile(r"\b(watts?|draws?|drawn|consum\w*|usage|envelope|budget|tdp|energy|power (use|cap))\b")
# "what connects the two sockets", "what links gpu0 and gpu1": how parts are joined
_WHAT_CONNECTS = re.compile(r"\bwhat (connects|links|joins|ties|sits between)\b|\bwhat (is|are) (\w+ )?(connecting|"
                            r"linking|joining)\b")
# the parts of a machine asked for ("what hardware is in", "what memories hang off", "which chips are inside")
_PARTS_ASKED = re.compile(r"\b(what|which) (hardware|parts|components|chips|processors|memor(y|ies)|devices)\b.{0,30}\b("
                          r"is in|are in|is inside|are inside|hangs? off|(is|are) attached to|sits? (in|on)|does .{1,60}"
                          r"\b(have|contain|hold))\b|\bwhat hangs off\b|\bwhat (is|'s) inside\b|"
                          # "what does a lassen node look like on the inside"
                          r"\blooks? like (on the )?inside\b|\bwhat (is|'s) in (a|an|the|one) [\w-]+( node| box)?\??$|"
                          # "what parts make up a Gemini node", "what is a chifflot node made of"
                          r"\b(what|which) (hardware|parts|components|chips|processors|devices) (make|makes|made) up\b|"
                          r"\bwhat (is|are) .{1,40}\b(made|built) (of|from|up of)\b")
# how parts are placed ("how PIUMA's cores, switches and chips are laid out", "the layout of the DGX-2's GPUs")
_LAID_OUT = re.compile(r"\b(laid out|layout|arranged|arrangement|organi[sz]ed|placed)\b")
# peer access named as a setting ("P2P-enabled", "with peer-to-peer off", "without p2p")
_P2P_SETTING = re.compile(r"\b(p2p|peer ?-? ?to ?-? ?peer|peer access) ?-? ?(enabled|disabled|on|off)\b|\b(with|"
                          r"without|no) (p2p|peer ?-? ?to ?-? ?peer|peer access)\b")
# links bundled between two parts ("the triple NVLink", "a double NVLink", "NVLink x3")
_BUNDLED_LINK = re.compile(r"\b(double|triple|quadruple|dual|two|three|four)[- ]?(nv ?links?|links?|nvlink2)\b|"
                           r"\bnv ?link2? ?x ?[234]\b")
# one pair at an extreme ("the slowest gpu pair", "which pair is fastest"), and the grid asked for beside it
_ONE_EXTREME_PAIR = re.compile(r"\b(slowest|fastest|best|worst|highest|lowest|weakest|strongest|quickest)( [\w-]+){0,5}"
                               r" pair\b(?!s)|\bwhich (\w+ )?pair\b(?!s)|"
                               # "between which GPUs of the DGX-2 is the ... bandwidth lowest"
                               r"\bbetween which (two )?(gpus|ipus|devices|cards|g p us|i p us)\b")
_WHOLE_GRID = re.compile(r"\b(matrix|grid|heat ?map|whole|every pair|all pairs|each pair|table)\b")
# measures of a machine or a device, never of a pair of endpoints
# the operations measured per endpoint pair (copies); a collective's figure is the whole group's
_PER_PAIR_OPERATIONS = frozenset({None, "p2p", "d2d", "h2d", "d2h"})
# "which matrix does lassen have": what a machine has, asked with "metrics" heard as "matrix"
_MATRIX_HELD = re.compile(r"\b(which|what|whc) matri(x|ces) (does|do|did) (the )?[\w -]{1,40}? (have|hold|store|"
                          r"carry)\b")
# more devices given to a job ("should I give AmoebaNet more GPUs on Lassen"), and advice asked for a choice
_MORE_DEVICES = re.compile(r"\bmore (gpus|g p us|nodes|ipus|i p us|ranks|cores)\b")
_SHOULD_I = re.compile(r"\bshould (i|we)\b|\bis it worth\b")
# whether two devices are joined directly ("for direct nvlink", "directly connected"), asked with no measure
# (_MEASURE_SAID)
_DIRECT_LINK_ASKED = re.compile(r"\b(for|with|over|by|via|get|have) (a )?direct (nv ?link\w*|links?|connections?|"
                                r"paths?|xlinks?)\b|\bdirectly (linked|connected|joined|attached|wired)\b")
# kinds of things that have rows ("inhouse applications with congestion impact rows", "which systems carry ... rows")
_KINDS_WITH_ROWS = re.compile(r"\b(applications|apps|systems|machines|benchmarks|codes|workloads) (with|that have|"
                              r"having|carrying|that carry) (\w+[ -]){0,4}(rows|entries|records)\b")
# a congestion condition said in words ("under load", "idle", "congestion control on"), not read off a measure's name
_CONDITION_SAID = re.compile(r"\b(under load|loaded|idle|quiet|congestion[- ]free|no congestion|with(out)? "
                             r"congestion control|cc (on|off)|congestion control (on|off|enabled|disabled))\b")
# load as the subject of a verb ("does load slow ...", "how does background traffic change ...")
_LOAD_DOES = r"\b(does|do|did|would|will) (the )?(load|background (load|traffic)|contention) "
# load said as what changes a measure, in no direction or by how much it raises it ("how much does load raise the
# latency"): the quiet and the loaded case set side by side
_LOAD_CHANGE_VERBS = r"change|alter|impact|raise|increase|inflate|lengthen"
# the measure reacting to load ("how does the latency from ipu5 to ipu4 react to background load"): the same pair
_REACTS_TO_LOAD = (r"\b(react|reacts|respond|responds|cope|copes)( \w+)? (to|with|under) (the )?(background )?"
                   r"(load|traffic|contention)\b")
_LOAD_CHANGES = re.compile(_LOAD_DOES + r"(" + _LOAD_CHANGE_VERBS + r")\w*\b|" + _REACTS_TO_LOAD)
# load on the machine described in words ("when all the other tiles are sending too", "while the rest are busy")
_LOAD_IN_WORDS = re.compile(_LOAD_DOES + r"(slow|hurt|degrade|cut|reduce|affect|" + _LOAD_CHANGE_VERBS + r")\w*\b|"
                            + _REACTS_TO_LOAD + r"|"
                            r"\b(when|while|with|if) (all )?(of )?(the )?(other|rest of the|remaining) (\w+ )?"
                            r"(tiles|ipus|gpus|"
                            r"nodes|links|cores|ranks|devices|i p us|g p us)\b.{0,20}\b(are |is )?(sending|busy|"
                            r"transmitting|communicating|talking|loaded|active|flooding|hammering|loads?|loading|"
                            r"saturat\w*|fill(s|ing)?|clog\w*|swamp\w*|congest\w*)\b|\b(when|while|with) "
                            r"(the )?rest (are |is )?(sending|busy|transmitting|communicating|active)\b|"
                            # "when all the tiles are sending": every one of them, the asked pair among the senders
                            r"\b(when|while|with|if) all (of )?(the )?(tiles|ipus|gpus|nodes|cores|ranks|i p us|"
                            r"g p us) (are |is )?(sending|busy|transmitting|communicating|flooding|hammering)\b|"
                            # "when every tile sends at once": each of them, the asked pair among the senders
                            r"\b(when|while|with|if) (every|each) (tile|ipu|gpu|node|core|rank|device|i p u|g p u) "
                            r"(sends|is sending|transmits|is transmitting|communicates|is busy)\b|"
                            # "with the link loaded by other traffic": a link busy with traffic that is not the pair's
                            r"\b(link|links|fabric|network|interconnect) (is |are )?(loaded|busy|shared|saturated) (by|with) "
                            r"(other|background|competing|extra) (traffic|transfers|jobs|messages)\b")
# the quiet side of the load pair said with "without" ("bandwidth without load", "latency w/o congestion")
_WITHOUT_LOAD = re.compile(r"\b(without|w/o|wo) (any )?(load|congestion|contention|background traffic|"
                           r"congestor traffic)\b|"
                           # "what idle bandwidth does the IPU system reach from IPU5 to IPU6" (not "idle power")
                           r"\bidle (p2p |p 2 p |p two p |peer[- ]to[- ]peer )?(bandwidth|bw|latency|latencies|"
                           r"throughput)\b|"
                           # "... from i p u five to i p u four idle", "ipu5 to ipu4 latency idle": said last
                           r"\b(bandwidth|bw|latency|latencies|throughput|(gpu|ipu|tile|core|node) ?\d+|"
                           r"(i p u|g p u) \w+) idle\W*$")
# words that ask for both sides of the load pair or for what load does
_LOAD_PAIR_WORDS = re.compile(r"\b(under load|loaded|congest\w*|contention|vs|versus|compar\w*|against|slow\w*|"
                              r"impact|effect|worse|drop\w*|with and without|both)\b")
# a difference between two numbers asked for ("by how many GB/s ... exceed", "how much smaller ... than", "minus")
_DIFFERENCE = re.compile(r"\bhow (much |many (\w+ ){0,3}?)(smaller|larger|bigger|lower|higher|longer|shorter|faster|"
                         r"slower|more|less)\b|\bby how (much|many)\b|\bexceeds?\b|\bminus\b|\bdifference\b|"
                         r"\bby what (percent(age)?|factor|margin)\b|\b(trails?|trailing|lags? behind)\b|"
                         r"\b(gap|delta) between\b")
# the one of several machines that does best ("which laptop answers quickest", "which of them is fastest")
_WHICH_OF_THEM = re.compile(r"\b(which|what) (one|of them|of the (two|three|four|machines|systems|boxes)|laptop|"
                            r"machine|"
                            r"system|box|node|client|cluster|gpu|card)\b.{0,40}\b(quickest|fastest|slowest|best|worst|"
                            r"highest|lowest|most|least|wins?|faster|slower|better|worse|quicker)\b")
# words of how close something comes to a rate: what a link's efficiency answers
_EFFICIENCY_SAID = re.compile(r"effic|utili[sz]|percent|%|fraction|\bshare\b|how close|nominal|theoretical|rated|"
                              r"\bpeak\b|line rate|link rate|saturat|headroom|how much of|\buse[sd]?\b|\busing\b")
# a host copy's device end said with the host ("host to GPU0", "gpu 3 -> host")
_HOST_COPY_END = re.compile(r"\bhost (to|->) (?P<dev>(gpu|device) ?\d+)\b|"
                            r"\b(?P<first>(?P<dev2>(gpu|device) ?\d+)) (to|->) "
                            r"(the )?host\b")
# parts of a document a number names ("Listing 30", "Table 4", "Fig. 7"), no size, count or ranking
_DOCUMENT_PARTS = {"listing", "table", "figure", "fig", "section", "appendix", "§", "page", "p", "pp", "chapter", "eq",
                   "equation"}
# a number of things a run did or tried ("how many code variants did the autotuner try")
_HOW_MANY_DONE = re.compile(r"\bhow many (\w+ ){0,2}(?P<what>\w+) (did|does|do|were|was)\b"
                            r"(?! (it|they|the \w+) (have|has)\b)")
# "how many runs of each permutation": the words of what is counted, to find among a system's stated counts' labels
_HOW_MANY_OF = re.compile(r"\bhow many (?P<what>\w+( (of|per) (each|every|the|a) \w+| \w+s\b)?)")
# words of a count too common to pick one stated count by ("how many runs", "how many measurements")
_COUNTED_GENERIC = {"runs", "run", "of", "each", "every", "the", "a", "per", "measurements", "measurement", "times",
                    "values", "data", "points", "tests", "results", "numbers", "gpus", "cores", "nodes", "ipus", "tiles",
                    "links", "did", "do", "does", "were", "was", "are", "is", "in", "on", "for", "there", "went",
                    "into", "go", "used", "latency", "bandwidth", "time", "seconds", "milliseconds", "microseconds",
                    "nanoseconds", "us", "ms", "ns", "bytes", "kilobytes", "megabytes", "gigabytes", "hops", "gb"}
# counted things that are parts or settings, not things a run did
_COUNTED_NOT_DONE = {"gpu", "ipu", "tile", "core", "chip", "board", "card", "processor", "thread", "lane", "brick",
                     "nvlink", "hop", "byte", "time", "second", "microsecond", "millisecond"}
# words of session 56's reader rules, each said with the rule that reads it (NLU.understand)
# "by how much does the ccz4 update time shrink": a stated reduction
_SHRINKS = re.compile(r"\b((by )?how much|by what (percent(age)?|fraction|factor|share)) (does|did|do|will|would) "
                      r".{0,60}\b(time|latency|energy) (shrinks?|drops?|falls?|decreases?|go(es)? down|reduces?|"
                      r"improves?)\b")
# "cut energy", "reduces the run time", "saves latency": a reduction asked by its verb (not "all reduce time")
_CUTS = re.compile(r"(?<!all )(?<!all-)(?<!all_)(?<!all - )\b(cuts?|reduces?|lowers?|saves?|trims?|slashes?) "
                   r"(the |its |their )?(run ?|execution |access )?"
                   r"(?P<what>energy|time|latency)\b|"
                   # "how much energy does the photonic memory cut": the measure before its verb
                   r"\bhow much (?P<before>energy|time|latency) (does|do|did|will|would|can)\b.{0,60}?\b(cut|reduce|"
                   r"lower|save|trim|slash)\b")
# what a machine spent its time on, asked in plain words of a trace ("the recording")
_BUSY_WITH = re.compile(r"\b(busy|occupied) (with|doing)\b|\bspen[dt] (most of )?(its|the|their) time\b|"
                        r"\bwhere (did|does) (the|its|all the) time go\b")
_RECORDING = re.compile(r"\brecordings?\b|\brecorded run\b")
# "which socket link is faster": a kind of link of two machines ranked on its rate
_WHICH_LINK_FASTER = re.compile(r"\b(which|what)( [\w-]+){0,2} (link|links|interconnect|bus) (is|are|was|were) "
                                r"(faster|quicker|slower|better|wider)\b")
# a kind of host memory and a GPU joined by an arrow: "wc->gpu0", "gpu1 -> pinned"
_HOST_KINDS = rf"({HOST_MEMORY_KINDS}|write_combined)( host)?( memory)?"
_KIND_ARROW = re.compile(rf"\b(?P<kind>{_HOST_KINDS}) ?(- ?>|→) ?(the )?(?P<dev>gpu ?\d+|gpu|device)\b|"
                         rf"\b(?P<dev2>gpu ?\d+|gpu|device) ?(- ?>|→) ?(the )?(?P<kind2>{_HOST_KINDS})\b")
# "what unit is that in": the value, which comes with its unit
_UNIT_ASKED = re.compile(r"\b(what|which) units?\b|\bin what units?\b")
# "reduce scatter in place time": the measure right after the placement
_PLACE_MEASURE = re.compile(r"\b(in|out ?-? ?of) ?-? ?place (?P<m>time|latency|busbw|algbw|bandwidth)\b")
# "every gpu to gpu link", "which DGX-2 GPU pairs have the highest ...": the grid of pairs
_EVERY_PAIR = re.compile(r"\b(every|each|all( of)?( the)?) (gpu|ipu|device|card)s? ?-? ?to ?-? ?(gpu|ipu|device|card)s? "
                         r"(links?|pairs?|connections?|paths?|bandwidths?)\b|\bwhich (\S+ ){0,4}?(gpu |ipu )?pairs (have|has|"
                         r"get|reach|show)\b.{0,30}\b(highest|lowest|fastest|slowest|best|worst)\b")
# words of a curve over counts ("double", which _TREND reads as growth, is a precision here)
_CURVE_SAID = re.compile(r"\b(scal\w*|curve|trend|plot|grows?|growth|change\w*|speed ?up|efficien\w*)\b")
# "MaxFlops double precision on all 4 GPUs": the value at the machine's full count
_ON_ALL_N = re.compile(r"\b(on|with|using|across|over) all (\d+|two|four|eight|sixteen) (gpus|ipus|nodes|cores|ranks)\b")
# a negation, as the reader joins its tokens ("ca n't", "are n't")
_NEGATED = (r"(ca ?n'?t|can ?not|(are|is) ?n'?t allowed to|(are|is) not allowed to|not allowed to|unable to|(do|does) ?n'?t|"
            r"(do|does) not|never)")
# peer access off in plain words: "the cards can't copy straight to each other", "aren't allowed to talk directly"
_NO_DIRECT_PATH = re.compile(rf"\b{_NEGATED} (\w+ )?(copy|talk|send|write|read|access|reach|communicate)\w* (\w+ )?"
                             rf"(straight|directly|direct)\b|\b{_NEGATED} (\w+ )?(copy|talk|send|communicate)\w* "
                             r"(straight |directly )?(to|with) each other directly\b")
# "does sending bigger chunks ... get faster": a curve over sizes
_BIGGER_CHUNKS = re.compile(r"\b(bigger|larger|smaller|bigger and bigger|growing) (chunks|pieces|blocks|messages|"
                            r"transfers|buffers|payloads)\b")
# "an IPU's own memory": a chip whose memory is on the die
_OWN_MEMORY = re.compile(r"\b(its|their) own (local |on-?chip )?memory\b")
# "which CPU does GPU2 hang off": where a part sits in the graph
_PART_HANGS_OFF = re.compile(r"\b(which|what) (cpu|socket|numa node|pcie switch|switch|nic|host)\b.{0,40}\b(hangs?|hanging|"
                             r"attached|attach(es)?|connected|connects?|sits?|belongs?|plugged|lives?|hooked)\b|"
                             # "which GPUs are neighbouring GPU0 over NVLink": the parts next to one in the graph
                             r"\b(which|what) (gpus|ipus|devices|cards|chips)\b.{0,20}\b(neighbou?r(s|ing)?|adjacent|"
                             r"next to)\b")
# "which GPUs does GPU0 have NVLink1 links to", "which gpu do the gpu0 nvlinks lead to": where one part's links go
_WHICH_PARTS_LINKED = re.compile(r"\b(which|what) (gpus?|ipus?|devices?)\b.{0,60}\b((nv ?links?|nvlink\d|links?|"
                                 r"connections?|cables?) (to|into)|lead to|leads to|go to|goes to|run to|runs to|"
                                 # "which GPUs does GPU0 of the DGX-1 P100 reach over NVLink1"
                                 r"reach(es)? (over|via|through|by) (nv ?links?|nvlink\d|([\w-]+ ){1,2}links?))\b")
# "how much of its UPI bandwidth does it use", "how much of the DGX-2's NVLink bandwidth does a copy use": a share of a
# link's rate
_HOW_MUCH_OF_RATE = re.compile(r"\bhow much of (its|the|their|a|an|that) ([\w'’-]+ ){0,6}(bandwidth|rate|capacity|peak)\b")
# "how close does the su three bench run come to the u p i limit", "how close do the pairs get to the rate of their
# NVLinks": a share of a link's rate, asked by its nearness
_NEAR_THE_LIMIT = re.compile(r"\bhow (close|near)\b.{0,60}\b(limit|ceiling|cap|max(imum)?|peak|bound|rate|speed)\b|"
                             # "dgx2 tartan nvlink p2p bandwidth enough to fill nvlink2": set against the link's rate
                             r"\benough to (fill|saturate|max out|use up) (the |its |their |an? )?(nv ?links?|nvlink\d|"
                             r"[\w-]+ links?|links?)\b|"
                             # "... still fall short of the NVLink2 rate", "what gap remains between ... and the
                             # NVLink2 rate"
                             r"\bfalls? short of (the |its |their )?(\S+ ){0,2}(rate|speed|peak|limit|max(imum)?)\b|"
                             r"\bgap\b.{0,100}\band (the |its |their )?(\S+ ){0,2}(rate|speed|peak|limit)\b|"
                             # "yme h2d near the nvlink2 rate": a terse "near" the link's rate
                             r"\b(near|close to|nearing|approach\w*) (the |its |their )?(nv ?links?\d?|[\w-]+ links?|"
                             r"pcie\d?|links?)( ?'s)? (rate|speed|peak|limit|max(imum)?)\b")
# "a 64-GPU H200 cluster": a count said with a hyphen
_HYPHEN_COUNT = re.compile(r"\b(\d+) ?- ?(gpu|ipu|node)s?\b")
# "GaspiLS paper: PETSc's ...": a library naming the paper, not what ran
_PAPER_NOUNS = {"paper", "papers", "study", "article", "thesis", "report"}


def _in_the_comparison(words: list[str], a: int, b: int) -> bool:
    """"the V100 in the Graphcore comparison": a machine named as the comparison a document made, in which another
    machine is the one asked about."""
    window = " ".join(words[max(0, a - 2):b + 1]).lower()
    return bool(re.search(r"\b(in|from|of) the \S+( \S+)? comparisons?\b", window))


# DeepBench's single-process all-reduce, said without a hyphen or with a typo
_SINGLE_PROCESS = re.compile(r"\bsingle ?-? ?proce?s+(es)? (nccl )?all ?-? ?reduce")
# "does the all-reduce slow down going from 1 to 16 GPUs": a time over counts (the verb only: "the slowdown from 1 to 16
# GPUs", which _SLOWED_DOWN also reads, asks for a slowdown figure)
_SLOWS_DOWN = re.compile(r"\b(slows?|slowing|slowed) down\b|\bget(s|ting)? slower\b")
# "cost" said of what a setting does to a run ("how much does disabling P2P cost the DGX-1"), not of a price
_COST_AS_A_VERB = re.compile(r"\b(does|do|did|would|will) \w+ing\b.{0,40}\bcost\b")
# the traces held asked for ("loaded traces + ranks", "which traces do you have"), not what is in them
_TRACES_HELD = re.compile(r"\b(loaded|available|stored) (\w+ )?traces\b|\btraces (are |were )?(loaded|available|stored)\b|"
                          r"\b(which|what) (\w+ )?traces (are|do|does|have|exist)\b|"
                          r"^(list|show)( me)? (the |all )?traces\b|"
                          # "the H200 pair has PyTorch profiler traces in the database?"
                          r"\btraces (are |were )?(in the (database|db|data ?base)|on file)\b|"
                          # "does the database hold any trace for the DGX-2?", "is there a trace of the Titan RTX"
                          r"\b(holds?|ha(s|ve)|contains?|stores?|includes?|is there|are there) (any |a |some )?"
                          r"(profiler |pytorch |profiling |loaded )?traces?\b(?! (events?|of (the|a|an) (\w+ )?(kernel|"
                          r"call|step)))")
# ... and what is in them ("which rank idles longest in the loaded traces")
_IN_THE_TRACES = re.compile(r"\b(idl\w*|busy|wait\w*|kernels?|longest|shortest|slowest|top|breakdown|overlap\w*|share|"
                            r"fraction|spen[dt]|memcpy|memset|ops|operators?|steps?|time)\b")
# parts said to be wired by something ("joined by two NVLinks", "connected through the NVSwitch")
_JOINED_BY = re.compile(r"\b(joined|connected|linked|wired|attached|tied|coupled) (to each other |together )?(by|with|"
                        r"through|via|over)\b|"
                        # "the GPUs of the DGX-1 P100 talk to each other over NVLink1 links?"
                        r"\b(talk|talks|talking|communicat\w*) (to|with) (each other|one another) (by|through|via|"
                        r"over)\b|"
                        # "which GPUs of the DGX-1 V100 reach each other over doubled NVLink2 connections?"
                        r"\b(reach|reaches|see|sees) (each other|one another) (by|through|via|over)\b")
_MEASURE_SAID = re.compile(r"\b(bandwidth|bw|latency|latencies|throughput|speed|fast\w*|slow\w*|time|gb/s|efficien\w*)\b")
# the applications run on a machine ("callgraph cluster apps profiled", "which codes were benchmarked on X")
_APPS_HELD = re.compile(r"\b(apps|applications|codes|benchmarks|workloads|programs) (in|stored in|loaded in) (the )?(db|"
                        r"database|data)\b|"
                        # "azure apps in db": the applications whose rows the database holds for that machine
                        r"\b(apps|applications|codes|benchmarks|workloads|programs)\b.{0,20}\b(profiled|run|ran|measured|"
                        r"tested|benchmarked|covered|studied|used|traced)\b|\b(which|what) (apps|applications|codes|"
                        r"benchmarks|workloads|programs) (were|are|have been|got)\b")
# "what is", "what's", "what data is": the opening of a question about what the database holds
_WHAT_IS = r"\bwhat ?(is|'s|s|are)? (data |measurements? )?(is |are )?"
# "loaded" as in held by the database ("what's loaded for ...", "which traces are loaded"), not a load on a link
_LOADED_AS_HELD = re.compile(_WHAT_IS + r"loaded\b|"
                             r"\bloaded (for|on|about|in|into|systems?|machines?|data|traces?|runs?|benchmarks?|"
                             r"results)\b|\b(is|are|was|were|got) loaded\b")
# which of some systems hold any data ("which of ... have data: A, B or C?")
_HAS_DATA = re.compile(r"^(which|what|do|does)\b.{0,80}\b(ha(s|ve)|holds?|stores?) (any )?([\w-]+ )?(data|measurements|"
                       r"results|numbers)\b|"
                       # "what is loaded for the sqa v100 machine and the tohoku gv100", "what's stored for each"
                       + _WHAT_IS + r"(loaded|stored|held|available|on file|in the (database|db))( data)? "
                       r"(for|on|about)\b|"
                       # "could you list what you have on the H200 node", "runs for mapredict sk, cs and cp"
                       r"\b(list|show|tell)( me)? what (you have|you 've got|you hold|is (stored|loaded|held|there)|"
                       r"there is)\b|"
                       r"^(runs|data|measurements|results|benchmarks|metrics)( stored| loaded| held)? (for|on|of)\b|"
                       # "is there anything loaded for the Minsky, ...", "every metric stored for A, B and C"
                       r"\banything (loaded|stored|held|on file|in the (database|db)) (for|on|about)\b|"
                       r"\b(every|all|each) (the )?(metrics?|measures?|measurements?|operations?|benchmarks?)"
                       r"( that (is|are))? "
                       r"(stored|loaded|held|recorded|available) (for|on|about)\b")
# where the numbers come from, asked with nothing measured named ("which paper are the ipu numbers taken from",
# "which trace files does the H200 kernel breakdown come from", "which ISC 2022 papers are covered", "what does the
# database hold on the piuma"): the inventory, which names each system's sources
_SOURCES_ASKED = re.compile(r"\b(which|what)( [\w-]+){0,3}? (papers?|documents?|sources?|publications?|files?|trace files?|tables?|"
                            r"articles?)\b.{0,60}\b(taken from|come from|comes from|came from|drawn from|cover(s|ed)?|cited|"
                            r"loaded|behind|included|in the (database|db))\b|\bwhat does (the|your|this) (database|db|data ?base|tool|data) (hold|"
                            r"have|store|contain|know|keep)( \w+){0,2} (on|for|about|of)\b")
# how much of a link's capacity an application or a transfer uses ("how much of the UPI link capacity does SU3_Bench
# use"; a spoken "p c i e" is four words); a share of the rate said outright ("% of link rate") is _OF_A_LINKS_RATE
_LINK_CAPACITY_USED = re.compile(r"\bhow much of (the |its )?([\w-]+ ){0,4}(link|line|port|bus)s? (capacity|bandwidth|"
                                 r"rate)\b|\bhow much of (the |its )?([\w.-]+ ){0,4}(capacity|bandwidth|rate)\b.{0,60}\b(use[sd]?|"
                                 r"using|takes?|consumes?|gets?)\b")
# a machine named by what it is for ("the annealing machine", "the PRNG box")
_PURPOSE_BEFORE_MACHINE = re.compile(r"\b\w+ (machine|box|node|testbed|system|rig)\b")
_CONGESTION_SAID = re.compile(r"\b(congest\w*|contention|incast)\b")
# the loaded side said, or both sides ("with and without load"): no quiet case alone (_NO_LOAD)
_LOAD_SAID = re.compile(rf"{LOADED_WORDS}|\bunder (\w+ )?load\b|\bcontended\b|\bunder (congestion|contention)\b|"
                        r"\bwith (and|or) without\b|\bwith load\b")


def _congestion_without_pairs(sid: Optional[str], catalog) -> bool:
    """The system ran under congestion conditions and holds no bandwidth or latency, so no grid of pairs."""
    return bool(sid) and bool(catalog.conditions.get(sid, set()) & CONGESTION_CONDITIONS) \
        and not catalog.metrics.get(sid, set()) & {"bandwidth", "latency"}
_LOAD_WORD = re.compile(r"cong\w*|load\w*|content\w*|traffic|busy|concurr\w*|simultan\w*|same time|\bcc\b|incast|"
                        r"stress\w*|slow\w*|idle|interfer\w*|at once|degrad\w*|impact\w*|contend\w*|hotspot|noisy|"
                        r"neighbou?rs?|bottleneck\w*|saturat\w*|suffer\w*")
# a place on the count axis asked for: "at what gpu count", "how many nodes before it stops improving"
_COUNTS_WORD = r"(gpus|ipus|nodes|ranks|cores|processes|devices|g p us|i p us)"
_WHERE_SCALING_STOPS = re.compile(rf"\bat what (\w+ ){{0,2}}(count|number of {_COUNTS_WORD})\b|"
                                  rf"\b(how many|what number of) {_COUNTS_WORD} (before|until)\b|"
                                  r"\bstops? (improving|scaling|growing|increasing|getting (faster|better))\b")
# the count named as what changes a measure ("what effect does the GPU count have on ...", "how does the tile count
# affect ...") or as the range a measure spans ("how many tile counts does ... span")
_COUNT_AS_CAUSE = re.compile(r"\b(effect|impact|influence|bearing) (of|does|do) (the |a )?(?P<kind>gpu|ipu|tile|node|"
                             r"rank|core|process|device|g p u|i p u) counts?\b|\b(how )?(does|do) (the |a )?"
                             r"(?P<kind2>gpu|ipu|tile|node|rank|core|process|device|g p u|i p u) counts? (affect|"
                             r"change|alter|impact|influence|shape|drive)\w*\b|\bhow many (?P<kind3>gpu|ipu|tile|node|"
                             r"rank|core) counts (does|do) |"
                             # "which tile count gives what gather latency": each count with its value
                             r"\b(which|whcih|whihc) (?P<kind4>gpu|ipu|tile|node|rank|core|g p u|i p u) counts? "
                             r"(\w+ ){1,3}?(what|waht|wat)\b|"
                             # "... speedup as a function of GPU count": the count as the axis, said as in mathematics
                             r"\bas an? func?tion of (the )?(?P<kind5>gpu|ipu|tile|node|rank|core|process|g p u|i p u) "
                             r"counts?\b")
# two machines joined as the subject of one verb ("what time do the DGX-2 and Yme spend on ...")
_BOTH_SUBJECTS = re.compile(r"\b(do|did|will|would) (the )?[\w-]+( [\w-]+){0,3} (and|&) (the )?[\w-]+")
# one device, a verb, "to" and another device ("i p u five see to i p u four", "gpu0 give to gpu1")
_ONE_TO_THE_OTHER = re.compile(r"\b(i p u|g p u|ipu|gpu) ?\w+ (\w+ ){0,2}(to|into|towards) (the )?"
                               r"(i p u|g p u|ipu|gpu) ?\w+\b")
# "... on the h200 pair and on yme", "... on azure and the in house cluster": one measure asked of each machine
_ON_EACH = re.compile(r"\b(on|in|for) (the )?[\w-]+( [\w-]+){0,3}( ,)? (and|&) ((on|in|for) )?(the )?[\w-]+")
# measures that are themselves message sizes (a crossover point, a size recorded), which no sweep over sizes draws
_SIZE_MEASURES = frozenset({"crossover_msg_size", "msg_size", "message_size"})
# one pair picked by an extreme ("gpu pair with the peak bandwidth", "the pair having the lowest latency")
_THE_PAIR_AT_AN_END = re.compile(r"\bpair (with|that has|having|showing|that shows|which has) (the )?(peak|highest|"
                                 r"lowest|best|worst|max\w*|min\w*|fastest|slowest|top|biggest|smallest|largest)\b")
# an extreme of the pairs' values: "peak pairwise bandwidth", "the lowest pairwise latency"
_EXTREME_PAIRWISE = re.compile(r"\b(peak|highest|largest|biggest|greatest|max|maximum|top|best|fastest|lowest|smallest|"
                               r"min|minimum|worst|slowest) pairwise\b")
# a grid named, matrix and all
_GRID_OR_MATRIX = re.compile(r"\b(grid|matrix|heat ?map)\b")
# a grid asked for in so many words
_GRID_ASKED = re.compile(r"\b(matri\w*|grids?|heat ?maps?|tables?|every|each|all (the )?(gpu |ipu )?pairs)\b")
# "which GPU pair shows what latency": each pair with its value, the grid
_WHICH_PAIR_WHAT = re.compile(r"\b(which|whcih|whihc) (\w+ ){0,3}?pairs? (\w+ ){1,3}?(what|waht|wat)\b|"
                              r"\bas an? func?tion of (the )?(gpu |ipu |g p u |i p u )?pairs?\b")
# what a load does to something, in plain words ("suffers most", "is hit hardest")
_SUFFERS = re.compile(r"\b(suffers?|suffering|suffered|hurts?|hurt most|hit (the )?hardest|worst hit|hardest hit)\b")
# the whole machine loaded, said in plain words ("when everything is loaded", "with all the links busy")
_ALL_LOADED = re.compile(r"\b(when|while|with|if) (everything|all|every ([\w-]+ ){0,2}|the (whole |entire )?(system|"
                         r"machine|chip|network|box|board)|all (the )?([\w-]+ ){0,2})('s| is| are)? (fully )?(loaded|busy|"
                         r"saturated)\b|"
                         # "how much does background traffic slow the IPU5 -> IPU6 latency": the load said as traffic
                         r"(?<!no )(?<!without )(?<!zero )(?<!free of )\b(background|cross|competing|neighbou?ring|"
                         r"contending) (traffic|load|transfers|flows)\b")
# the quiet side named alone ("no load", "zero load"; _LOAD_SAID names the other side), and words of two things set
# against each other
_NO_LOAD = re.compile(r"\b(no|zero|without) (load|background traffic|contention)\b")
_SET_AGAINST = re.compile(r"\b(vs\.?|versus|compar\w*|than|against|differ\w*|gap|slow\w*|worse|drop\w*)\b")
# words that ask what load changes, or set the loaded value against another ("how bad does it get", "vs idle")
_LOAD_CHANGE = re.compile(r"\b(vs\.?|versus|compar\w*|than|against|slow\w*|worse|impact\w*|effects?|affect\w*|"
                          r"hurt\w*|differ\w*|degrad\w*|drop\w*|cost\w*|chang\w*|penalt\w*|how bad|go(es)? up|"
                          r"cuts?|reduc\w*|lower\w*|decreas\w*|los(e|es|s|ing)|"
                          r"grow\w*|ris(e|es|ing)|increas\w*|heat ?map|idle|baseline|congestion[- ]free|without|no load|"
                          r"not|more|concurrent\w*|scal\w*|threads?|what happens|happen\w*)\b")
# a scaling curve named: strong or weak scaling, scalability
_SCALING_WORD = re.compile(r"\b(strong|weak) ?-? ?scal\w*|\bscalability\b")
# congestion said to do something to a measurement ("how much does congestion slow down ...")
_WHAT_CONGESTION_DOES = re.compile(r"\b(congestion|contention)\b.*\b(slow\w*|worse|hurt\w*|impact\w*|effects?|affect\w*|"
                                   r"degrad\w*|penalt\w*|cost\w*)\b|\b(slow\w*|worse|hurt\w*|impact|effects?|"
                                   r"degrad\w*|penalt\w*|cost)\b.*\b(congestion|contention)\b")
# what load does to a measurement, asked as a change ("how much does the latency go up under load")
_WHAT_LOAD_DOES = re.compile(r"\bhow much (does|do|did|is|are|will|would) .{0,60}\b(go up|goes up|rise|increase|grow|"
                             r"worsen|get worse|degrade|drop|fall|suffer|slow down|change)\b"
                             r"|\bhow much (higher|worse|slower|lower|longer|more)\b")
# a pair-matrix reading at least this likely, beside a grid word, is the question's intent
GRID_RUNNER_UP = 0.1
# a renormalised runner-up below this is no reading the model held, only what was left over
NO_SECOND_CHOICE = 0.5
# "both H200 GPUs", "the two H200s", "both h two hundred g p us" (a GPU model in the plural, or with "GPUs")
_BOTH_GPUS = re.compile(r"\b(both|two|2)( of)?( the)? (h ?100|h ?200|v ?100|p ?100|a ?100|h (one|two) hundred|"
                        r"[vpa] one hundred)(s\b| gpus\b| g p us\b| cards\b)")
# "with more threads per tile", "as the process count grows", "as the number of tiles increases": the count is
# the axis of a curve asked for
_OVER_COUNTS = re.compile(
    r"\b(more|fewer|increasing|growing|additional)\s+(\w+\s+)?"
    r"(?P<a>gpus|ipus|nodes|ranks|tiles|cores|threads|processes)\b"
    r"|\b(as|when|while)\s+the\s+(?P<b>gpu|ipu|node|rank|tile|core|thread|process)\s+(count|number)\s+"
    r"(grows|increases|rises|goes up)\b"
    r"|\bnumber of (?P<c>gpus|ipus|nodes|ranks|tiles|cores|threads|processes)\s+(grows|increases|rises|goes up)\b"
    # "how does it go as Lassen GPUs are added", "as you add nodes"
    r"|\bas (\w+ )?(?P<f>gpus|ipus|nodes|ranks|tiles|cores|threads|processes) (are|get) added\b"
    r"|\bas (you|we|one) add (more )?(?P<g>gpus|ipus|nodes|ranks|tiles|cores|threads|processes)\b"
    # "efficiency vs #gpus", "speedup against the number of nodes", "time vs gpu count"
    r"|\b(?:vs\.?|versus|against)\s+(?:the\s+)?(?:#\s*|number of |no\.? of )?"
    r"(?P<d>gpus|ipus|nodes|ranks|tiles|cores|threads|processes)\b"
    r"|\b(?:vs\.?|versus|against|over|across|by)\s+(?:the\s+)?(?:(?:whole|entire|full)\s+)?"
    r"(?P<e>gpu|ipu|node|rank|tile|core|thread|process) (counts?|range)\b"
    # "xeon 8280 su3 speedup across cores" (not "across GPUs", which may be a transfer between them)
    r"|\bacross (?:the\s+|its\s+)?(?:different\s+)?(?P<h>cores|nodes|ranks|processes|threads)\s*[?.]?$"
    # "how does the IPU P2P bandwidth under load change with the tile count", "vary with the number of nodes" (not
    # threads: "how does bandwidth under load change with the number of threads" is labelled the congestion
    # experiment, aa238, whose threads make the load)
    r"|\b(?:chang|var|grow|ris|fall|drop|scal|evolv|mov|shift)\w* (?:as|with) (?:the )?(?:number of (?P<i>gpus|ipus|"
    r"nodes|ranks|tiles|cores|processes)|(?P<j>gpu|ipu|node|rank|tile|core|process) (?:counts?|numbers?))\b")
# "how does the busbw change for small messages", "grow for big transfers": how the curve moves over a range of sizes
# named by an adjective (unlike "the bandwidth for big messages", the largest size's value)
_MOVES_OVER_NAMED_SIZES = (r"(changes?|grows?|behaves?|varies|vary|evolves?|develops?|rises?|falls?|drops?|climbs?) "
                           r"(for|with|at|over|across) (the )?(small|smaller|tiny|short|large|larger|big|bigger|huge) "
                           r"(msgs|messages|transfers|buffers|payloads|copies|sizes)")
# a message-size axis: "by msg size", "over message sizes", "vs size", "as the message size grows", "across sizes";
# a message size that grows needs no "as" ("bandwidth of message size grows", as a transcript hears it); nor do
# messages that grow ("as the messages grow", "as messages get bigger")
_OVER_SIZES = re.compile(r"\bas an? func?tion of (the )?((msg|message|transfer|buffer) )?sizes?\b|"
                         r"\b((by|over|vs|versus|across|against|per|for (all|every|each|different))( the)?"
                         r"( (msg|message|transfer|buffer))? sizes?|as (the )?((msg|message|transfer) )?size (grows|"
                         r"increases|goes up)|(msg|message|transfer) size (grows|increases|goes up)|as (the )?(msgs|"
                         r"messages|transfers|buffers|payloads) (grow|increase|get (bigger|larger))|"
                         # "when messages grow: gtx980 scope broadcast time"
                         r"(when|while|once) (the )?(msgs|messages|transfers|buffers|payloads|(msg|message|transfer) "
                         r"sizes) (grow|increase|get (bigger|larger))|"
                         # "as the message grows", "from the smallest to the biggest message"
                         r"as (the |a )?(msg|message|transfer|buffer|payload) (grows|increases|gets (bigger|larger))|"
                         r"(from )?(the )?smallest to (the )?(biggest|largest)( (msg|message|transfer|buffer|size)s?)?|"
                         # "how does the busbw grow with message size"
                         r"(grows?|growing|scales?|scaling|changes?|varies|vary|rises?) with (the )?(msg|message|"
                         r"transfer|buffer) sizes?|"
                         # "vary with the number of bytes each tile sends": the size said as what is sent
                         r"(grows?|growing|scales?|changes?|varies|vary|rises?|depends?) (with|on) (the )?(number|"
                         r"amount|count) of bytes|bytes (each|per|every) (tile|rank|gpu|process|node|thread) "
                         r"(sends?|moves?|transfers?|writes?)|"
                         # "does the pageable bandwidth stay awfully low for small transfers": how the curve behaves at
                         # its small end ("the latency for small messages" is a value there, looked up)
                         r"(stays?|remains?|keeps?) .{0,30}\b(for|with|at) (small|smaller|tiny|short|large|larger|big|"
                         r"bigger|huge) (msgs|messages|transfers|buffers|payloads|copies|sizes)|"
                         + _MOVES_OVER_NAMED_SIZES + r")\b")


def typed_shorthand(vocab) -> dict[str, list[str]]:
    """One-word typed shorthand (vocabulary `typed:` surfaces) -> the words of the value's first written surface."""
    from nlu.tokens import tokenize
    out: dict[str, list[str]] = {}
    for slot, surface in sorted(vocab.typed):
        if " " in surface.strip():
            continue
        canonical = next((c for c, ss in vocab.entries(slot).items() if surface in ss), None)
        written = vocab.surfaces(slot, canonical, "written") if canonical else []
        if written:
            out[surface.lower()] = [t.text for t in tokenize(written[0])]
    return out


def rewritten(before: list[str], after: list[str]) -> list[tuple[str, str]]:
    """The word runs a rewrite changed, as (before, after) texts: ("thetagpu8", "thetagpu 8")."""
    import difflib
    ops = difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes()
    out = []
    for op, i1, i2, j1, j2 in ops:
        if op == "equal":
            continue
        if j1 == j2 and i1 > 0 and i2 < len(before):   # a word dropped ("GPU , 11"): said with its neighbours
            i1, i2, j1, j2 = i1 - 1, i2 + 1, j1 - 1, j2 + 1
        out.append((" ".join(before[i1:i2]), " ".join(after[j1:j2])))
    return out


def system_words(vocab) -> frozenset[str]:
    """System names written as one word ("thetagpu", "ri2", "lassen"), lower-cased: what a transcript may glue a
    number to ("thetagpu8") or spell a digit of as a word ("RIto")."""
    parts = {s.lower() for c in vocab.canonicals("component_kind") for s in vocab.surfaces("component_kind", c)}
    parts |= {p + "s" for p in parts}    # "ipu5" is an endpoint of the IPU system, not its name and a number
    return frozenset(s.lower() for c in vocab.canonicals("system") for s in vocab.surfaces("system", c)
                     if re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", s) and len(s) >= 3 and s.lower() not in parts)


def split_names(vocab) -> dict[tuple[str, str], str]:
    """Words of system names that join a word another slot reads to a number ("POWER9": "power" is a metric), keyed
    by their two halves as a transcript writes them: ("power", "9") -> "POWER9"."""
    other = {w.lower() for sec in ("metric", "operation", "condition", "aggregate", "precision", "direction")
             for c in vocab.canonicals(sec) for s in vocab.surfaces(sec, c) for w in s.split()}
    out: dict[tuple[str, str], str] = {}
    surfaces = [s for c in vocab.canonicals("system") for s in vocab.surfaces("system", c)]
    surfaces += list(vocab.ambiguous.get("system", {}))
    for s in surfaces:
        for t in re.split(r"[^A-Za-z0-9]+", s):
            m = re.fullmatch(r"([A-Za-z]{2,})(\d+)", t)
            if m and m.group(1).lower() in other:
                out.setdefault((m.group(1).lower(), m.group(2)), t)
    return out


def spelled_bench_names(words: list[str], names: frozenset[str], number: Callable[[str], Any]) -> list[str]:
    """"which is faster at m d five hashing": a benchmark's name a speaker spelled out letter by letter, its digit
    said as a word, joined back ("MD5") where a stored benchmark or operation name begins with it."""
    out: list[str] = []
    i = 0
    while i < len(words):
        if 2 <= len(words[i]) <= 3 and words[i].isalpha() and i + 1 < len(words) and words[i + 1].isalpha():
            # "md five": the letters said as one word, the digit as a word ("MD5"; "md" alone stays SHOC's MD)
            n = number(words[i + 1])
            joined = f"{words[i].lower()}{int(n)}" if isinstance(n, (int, float)) and 0 <= n < 10 and n == int(n) \
                else ""
            if joined and any(x.startswith(joined) for x in names):
                out.append(joined.upper())
                i += 2
                continue
        j = i
        while j < len(words) and len(words[j]) == 1 and words[j].isalpha():
            j += 1
        if j - i >= 2 and j < len(words):
            n = number(words[j]) if words[j].isalpha() or words[j].isdigit() else None
            joined = "".join(words[i:j]).lower() + (str(int(n)) if isinstance(n, (int, float)) and 0 <= n < 10
                                                     and n == int(n) else "#")
            if "#" not in joined and any(x.startswith(joined) for x in names):
                out.append(joined.upper())
                i = j + 1
                continue
            # "r s bench", "x s bench": the letters and the word "bench" make a stored benchmark's name
            letters = "".join(words[i:j])
            if words[j].lower() in ("bench", "benchmark") and f"{letters.lower()}bench" in names:
                out.append(f"{letters.upper()}Bench")
                i = j + 1
                continue
        out.extend(words[i:max(j, i + 1)])
        i = max(j, i + 1)
    return out


def join_split_names(words: list[str], names: dict[tuple[str, str], str]) -> list[str]:
    """"the 2 power 9 sockets" -> "the 2 POWER9 sockets": a name a transcript wrote as a measurement word and a
    number (split_names), joined back."""
    return _join_pairs(words, lambda a, b: names.get((a.lower(), b)))


def _join_pairs(words: list[str], join: Callable[[str, str], Optional[str]]) -> list[str]:
    """`words` left to right, two neighbours replaced by `join(a, b)` where that gives a word."""
    out: list[str] = []
    i = 0
    while i < len(words):
        joined = join(words[i], words[i + 1]) if i + 1 < len(words) else None
        if joined:
            out.append(joined)
            i += 2
            continue
        out.append(words[i])
        i += 1
    return out


_GLUED = re.compile(r"(?P<name>[a-z][a-z0-9]*?[a-z])(?P<num>\d+)")
_DIGIT_WORDS = {"to": "2", "too": "2", "for": "4"}   # a digit heard as the word that sounds like it


def unglue_names(words: list[str], names: frozenset[str]) -> list[str]:
    """A one-word system name that speech recognition joined to the number said after it, or whose last digit it
    wrote as a word: "thetagpu8 to 120 GPUs" -> "thetagpu 8 to 120 GPUs", "on RIto" -> "on RI2". Only a word that
    is no name itself, and only onto a name the vocabulary holds as one word."""
    out: list[str] = []
    for w in words:
        lw = w.lower()
        if lw in names:
            out.append(w)
            continue
        glued = _GLUED.fullmatch(lw)
        if glued and glued.group("name") in names:
            out += [w[:glued.end("name")], w[glued.end("name"):]]
            continue
        tail = next((t for t in _DIGIT_WORDS if lw.endswith(t) and len(lw) > len(t)), None)
        if tail and lw[:-len(tail)] + _DIGIT_WORDS[tail] in names:
            out.append(w[:-len(tail)] + _DIGIT_WORDS[tail])
            continue
        out.append(w)
    return out


_ENDPOINT_WORD = re.compile(r"[a-z]+\d+")
# parts that a number names one of, in the endpoints of the stored systems ("GPU 11")
_NUMBERED_PARTS = set(DEVICE_PREFIXES)
# words that a part's number follows ("GPU 4", "tile 4", "node 4", "port #4")
_PART_WORDS = _NUMBERED_PARTS | {"node", "rank", "device", "socket", "cpu", "nic", "nvswitch", "switch", "port", "link",
                                 "#", "number", "no", "no."}


_RAN = re.compile(r"\b(run|ran|runs|benchmarked|tested|measured|results?|used|data from)\b")
_RANKS_PARTS = re.compile(r"\b((which|what) systems?|most|fewest|least|rank|more than|fewer than|each system|"
                          r"all (the )?systems|every system)\b")
_JOINS_OPERATIONS = {"vs", "vs.", "versus", "and", "or", "against", "compared", "with", ",", "/", "&"}


_SIDE_BY = r"(?:vs\.?|versus|and|or|compared (?:to|with))"
_BOTH_SETTINGS = re.compile(rf"\b(?:(enabled|on|with)\b.{{0,40}}?\b{_SIDE_BY}\s+(?:\w+\s+){{0,3}}?"
                            rf"(disabled|off|without)|(disabled|off|without)\b.{{0,40}}?\b{_SIDE_BY}\s+"
                            rf"(?:\w+\s+){{0,3}}?(enabled|on|with))\b")


_SETTING_PAIRS = ({"pinned", "pageable"}, {"in_place", "out_of_place"}, {"nvlink", "pcie"})


def held_condition(slots: dict[str, Any], cands, catalog) -> Optional[str]:
    """Where the condition read is not stored for the system named, the one other condition the question says
    that is; None otherwise."""
    cond, sid = slots.get("condition"), slots.get("system")
    if catalog is None or not isinstance(cond, str) or not isinstance(sid, str):
        return None
    have = catalog.conditions.get(sid, set())
    if cond in have or cond in ("under_load", "cc_on", "cc_off"):
        return None    # a load or congestion control is the experiment asked for: never swapped for a link mode
    said = {c for _, _, c in _slot_spans(cands, "condition") if isinstance(c, str) and c != cond and c in have}
    return next(iter(said)) if len(said) == 1 else None


def both_settings(said: str, condition: Any, named: set[str] = frozenset()) -> list[str]:
    """A switch's two settings named together ("tensor cores on vs off", "with peer access enabled vs disabled",
    "pinned vs pageable": `named`, the conditions the vocabulary found): [the condition read, the other]; [] unless
    the condition read is one of such a pair. Congestion control on and off is the congestion intent's pair."""
    if not isinstance(condition, str):
        return []
    for pair in _SETTING_PAIRS:
        read = next((c for c in pair if condition == c or condition.startswith(f"{c}_")), None)  # pinned(_wc)
        if read and pair <= named | {read}:
            return [condition, *(pair - {read})]
    if not condition.endswith(("_on", "_off")) or condition.startswith("cc_"):
        return []
    m = _BOTH_SETTINGS.search(said)
    if not m:
        return []
    base = condition.rsplit("_", 1)[0]
    on_first = m.group(1) is not None
    return [f"{base}_on", f"{base}_off"] if on_first else [f"{base}_off", f"{base}_on"]


# "device-to-host copies faster than host-to-device": the words a comparison may put between the two things it sets
# side by side (with "than" among them)
_COMPARATIVE_GAP = {"than", "faster", "slower", "quicker", "higher", "lower", "better", "worse", "more", "less",
                    "copies", "copy", "transfers", "bandwidth", "latency", "is", "are", "much", "the", "for"}


def _comparing(gap: list[str]) -> bool:
    return "than" in gap and len(gap) <= 5 and all(w in _COMPARATIVE_GAP for w in gap)


# "how's X looking", "what does X look like": the whole picture asked for, not one number
_HOW_IT_LOOKS = re.compile(r"\bhow ?('s|s| is| are| does| do)\b.{0,60}\blook(ing|s)?\b|"
                           r"\bwhat does\b.{0,60}\blook like\b")
# words that ask for a machine's graph rather than its measures
_GRAPH_ASKED = re.compile(r"\b(topolog\w*|wir\w*|connect\w*|networked|graph|links?|linked|layout|laid|interconnect\w*|parts|"
                          r"components?|draw|diagram|architecture|built|inside|nvswitch\w*|switch\w*)\b")
# "an NV1 pair", "one NVLink2 pair", "a PIX pair": one pair of a kind of connection
_ONE_PAIR_OF_A_CLASS = re.compile(r"\b(an?|one|a single) (nv\d+|nvlink ?\d?|pix|pxb|phb|pcie|sys|node)[- ]?(linked |connected )?"
                                  r"pair\b", re.I)
# "mini summit has two gpus", "the DGX-2 has sixteen GPUs": a fact about the machine
_HAS_N_DEVICES = re.compile(r"\b(has|have|got|contains|holds) (only |just )?(?P<n>\d+|one|two|three|four|six|eight|twelve|"
                            r"sixteen) (\w+ )?(gpus|ipus|g p us|i p us|nodes|cores|cards|devices)\b")
# "peer access ... with it disabled", "peer access switched off": no peer access
_PEER_ACCESS_OFF = re.compile(r"\b(with|when|while|once) (it|peer access|p2p|that|this) (is |was )?(disabled|switched off|"
                              r"turned off|off)\b|\bpeer[- ]to[- ]peer access\b.{0,30}\b(disabled|switched off|turned off)\b|"
                              r"\bpeer access\b.{0,30}\b(disabled|switched off|turned off)\b")
# "how fast was the fan spinning", "the fan's rpm": the fan's speed
_FAN_SPINNING = re.compile(r"\bfans?\b.{0,50}\b(spin\w*|rpm|turning|whirring|speed)\b|\bhow fast\b.{0,30}\bfans?\b.{0,40}"
                           r"\b(spin\w*|go(ing)?|run\w*|turn\w*)\b")
# "how many samples per second", "how many GB a second": a rate asked for as a number
_HOW_MANY_PER_TIME = re.compile(r"\bhow many\b.{0,40}\b(per|a|each|every) (second|sec|s|minute|hour)\b")
# "how does it hold up under load", "how does it fare when loaded": what the load does to a measure
_HOLDS_UP_UNDER_LOAD = re.compile(r"\b(holds?|holding|held|stands?|standing) up\b.{0,30}\b(under|with|when) (load|loaded|"
                                  r"congestion|congested|busy)\b|\b(fares?|copes?|survives?)\b.{0,30}\bunder (load|"
                                  r"congestion)\b|"
                                  # "does the IPU5 -> IPU6 latency still stay low under load"
                                  r"\b(stays?|stayed|remains?|keeps?) (low|high|fast|flat|steady|stable|the same|"
                                  r"unchanged)\b.{0,20}\bunder (load|congestion)\b")
# words that set a measure under load against the idle system, or ask what the load does to it
_LOAD_SET_AGAINST_IDLE = re.compile(r"\b(vs\.?|versus|compar\w*|than|idle|quiet|congestion[- ]free|no load|without load|"
                                    r"slow\w*|worse|drops?|dropp\w*|suffer\w*|holds? up|degrad\w*|grows?|growing|rises?|"
                                    r"chang\w*|affect\w*|impact\w*|hurts?|costs?|penalt\w*|how (much|bad|badly)|"
                                    r"happens?|lose|lost|loss|gap|factor|times)\b")
# "every count in between", "each GPU count": every point of a curve over counts
_EVERY_COUNT = re.compile(r"\b(every|each|all (the )?)(\w+ )?counts? (in )?between\b|\b(every|each) (gpu |node |core |ipu |"
                          r"device |rank )?count\b")
# the axis of a curve named as a count ("as the gpu count goes from 2 to 16")
_COUNT_AXIS = re.compile(r"\b(gpus?|nodes?|cores?|ranks?|process(es)?|ipus?|tiles?|devices?|g p us?) count\b")
# words that leave the system named right after them out ("every accelerator except the Arria 10")
_EXCLUDING = re.compile(r"\b(" + "|".join(" ".join(m) for m in EXCLUSION_MARKERS + (("exclusive", "of"), ("but", "not"),
                                                                                     ("minus",))) + ")$")


# words a speaker corrects a name with ("on yme, sorry, mini summit", "the dgx one no wait the dgx two"); "i mean" is
# read as "sorry" (without_i_mean)
_CORRECTING = {"sorry", "wait", "rather", "correction", "scratch", "meant", "actually"}
_BETWEEN_CORRECTION = _CORRECTING | {"no", "or", "i", "make", "that", "the", ",", "-", "on", "uh", "um"}


def corrected_systems(words: list[str], mentions) -> list[str]:
    """Systems the speaker named and then corrected: a mention followed, with only correcting words between, by
    another system ("h2d bandwidth on yme sorry mini summit" asks about the Mini Summit alone)."""
    lw = [w.lower() for w in words]
    ordered = sorted({(a, b, sid) for a, b, sid in mentions})
    out: list[str] = []
    for (a1, b1, s1), (a2, _, s2) in zip(ordered, ordered[1:]):
        gap = lw[b1:a2]
        if s1 != s2 and gap and set(gap) <= _BETWEEN_CORRECTION and (set(gap) & _CORRECTING or gap[0] == "no"
                                                                     and gap[1:] in ([], ["the"], ["a"], ["an"])) \
                and s1 not in out:
            # ("the yme no the mini summit": a bare "no" between two machines takes the first back)
            out.append(s1)
    return out


# slots whose value a speaker may take back and say again ("one megabyte sorry one gigabyte"); systems are taken back
# by corrected_systems, after they are resolved
_FUSED_DEVICE = re.compile(r"(gpu|ipu|cpu|core|tile|chip|node|socket)\d{1,5}")
_RETAKEN = {"endpoint", "msg_bytes", "count", "operation", "metric", "condition", "direction", "precision",
            "link_type", "app", "library"}
_STRONG_CORRECTING = {"sorry", "wait", "correction", "rather"}
_PAUSES = {",", "-", "—", "–", "?"}     # a comma or a dash, as a transcript writes a pause; a question mark
_CORRECTION_RUN = {"no", "wait", "sorry", "correction", "rather", "uh", "um", "make", "that", "scratch"} | _PAUSES


def _correction_runs(lw: list[str]) -> list[tuple[int, int]]:
    """[start, end) of each run of correcting words: one with "sorry" / "wait" / "correction" / "rather", or a "no"
    set off by commas or dashes (", no, " - not the "no" of "no congestion")."""
    out, i = [], 0
    while i < len(lw):
        if lw[i] not in _CORRECTION_RUN:
            i += 1
            continue
        j = i
        while j < len(lw) and lw[j] in _CORRECTION_RUN:
            j += 1
        run = lw[i:j]
        strong = set(run) & _STRONG_CORRECTING
        set_off = any(w == "no" and 0 < k < len(run) - 1 and run[k - 1] in _PAUSES and run[k + 1] in _PAUSES
                      for k, w in enumerate(run))
        # "the reduce no the broadcast": a "no" straight before an article, as a speaker restarts a phrase (no
        # sentence says "no the"; "no congestion", "no load" keep their "no")
        restart = run == ["no"] and j < len(lw) and lw[j] in ("the", "a", "an") and i > 0 and lw[i - 1] not in _PAUSES
        if restart:
            out.append((i, j + 1))
            i = j
            continue
        if (strong or set_off) and any(w not in _PAUSES for w in run):
            out.append((i, j))
        i = j
    return out


_RESTARTS = (("no", "sorry"), ("sorry",), ("no", "wait"), ("scratch", "that"), ("actually", "no"), ("no", ",", "sorry"),
             ("sorry", ",", "i", "mean"), ("no", "sorry", ",", "i", "mean"))


# words a question opens with: "no sorry, what temperature is stored ..." asks again; "... ? I mean the diagonal
# entry" says more about the question asked
_ASKS = {"what", "which", "how", "where", "when", "why", "who", "is", "are", "does", "do", "did", "can", "could",
         "show", "give", "list", "compare", "tell", "plot", "draw", "what's", "whats"}


def restarted(words: list[str]) -> tuple[list[str], str]:
    """(the question asked again, what was dropped): "DGX-2 temperature of the IPUs? no sorry, what temperature is
    stored for the Graphcore IPU system?" is the second question. Only a whole question ended by "?", "." or "--"
    and followed by words that take it back, then by a question of four words or more that opens as one, is
    dropped."""
    lw = [w.lower() for w in words]
    for i, w in enumerate(lw):
        if w not in ("?", ".", "--", ";") or i == 0:
            continue
        for opener in sorted(_RESTARTS, key=len, reverse=True):
            j = i + 1 + len(opener)
            if tuple(lw[i + 1:j]) == opener:
                j += 1 if j < len(lw) and lw[j] == "," else 0
                if len([x for x in lw[j:] if x.isalnum()]) >= 4 and j < len(lw) and lw[j] in _ASKS:
                    return words[j:], " ".join(words[:i])
    return words, ""


def taken_back(words: list[str], candidates) -> tuple[list[str], list[str]]:
    """(words without the values the speaker took back, those values as said): "all gather i mean an all to all"
    (without_i_mean wrote "sorry") -> "all to all"; "host to device, no, device to host" -> "device to host".
    Only a value followed, across correcting words alone, by another value of the same slot is dropped, and never a
    system (corrected_systems). `candidates(words)`: the vocabulary's readings of the words (Gazetteer)."""
    taken: list[str] = []
    for _ in range(3):                     # a question takes back three values at the most
        lw = [w.lower() for w in words]
        # (a device written with its number, "GPU0, sorry, GPU1", is an endpoint the vocabulary keys only apart)
        cands = candidates(words) + [(i, i + 1, {"endpoint": w}) for i, w in enumerate(lw)
                                     if _FUSED_DEVICE.fullmatch(w)]
        for r1, r2 in reversed(_correction_runs(lw)):
            start = r2 + (1 if r2 < len(lw) and lw[r2] in ("the", "a", "an") else 0)
            again = {slot for a, _, found in cands if a == start for slot in found if slot in _RETAKEN}
            left = [(a, b) for a, b, found in cands if b <= r1 and set(found) & again
                    and all(w in (",", "the", "a", "an", "-") for w in lw[b:r1])
                    and not any(w in (",", "-") for w in lw[a:b])]
            if left:
                a, b = min(left, key=lambda ab: (r1 - ab[1], ab[0]))     # the nearest, then the longest
                if a >= 2 and lw[a - 1] == "to" and start + 1 < len(lw) and lw[start + 1] == "to" \
                        and _FUSED_DEVICE.fullmatch(lw[a - 2]):
                    a -= 2    # "gpu3 to gpu9 sorry gpu3 to gpu10": the whole pair said again
                taken.append(" ".join(words[a:b]))
                words = words[:a] + words[start:]
                break
        else:
            break
    return words, taken


def excluded_systems(words: list[str], mentions) -> list[str]:
    """The systems named right after a word that leaves them out, in the order said; mentions are (start, end,
    system id). "which machines except the DGX-2" asks about every other machine."""
    lw = [w.lower() for w in words]
    out: list[str] = []
    for a, _, sid in sorted(mentions):
        k = a
        while k > 0 and lw[k - 1] in ("the", "a", "an"):
            k -= 1
        if _EXCLUDING.search(" ".join(lw[max(0, k - 3):k])) and sid not in out:
            out.append(sid)
    return out


def several_operations(words: list[str], cands) -> list[str]:
    """The operations a question sets side by side, in the order said ("d2h vs h2d", "allreduce, allgather and
    broadcast"): names of operations one or two joining words apart ("vs", "and", "or", a comma); [] unless two."""
    # a window may carry a joining word at its edge ("allreduce ,"): the name alone, so the comma is between
    trimmed = []
    for st, en, op in _slot_spans(cands, "operation"):
        while en - st > 1 and words[en - 1].lower() in _JOINS_OPERATIONS:
            en -= 1
        while en - st > 1 and words[st].lower() in _JOINS_OPERATIONS:
            st += 1
        if any(s <= st and en <= e and e - s > en - st and "condition" in found and "operation" not in found
               for s, e, found in cands):
            continue    # "host to device with P2P on": "P2P" is a word of the setting, not a second operation
        trimmed.append((st, en, op))
    return _joined(words, trimmed, comparative=True)


def _slot_spans(cands, slot: str) -> list[tuple[int, int, Any]]:
    """(start, end, value) of the vocabulary matches of one slot, leftmost-longest and not overlapping."""
    spans: list[tuple[int, int, Any]] = []
    for st, en, found in sorted(cands, key=lambda c: (c[0], c[0] - c[1])):
        if found.get(slot) is not None and (not spans or st >= spans[-1][1]):
            spans.append((st, en, found[slot]))
    return spans


def _joined(words: list[str], spans: list[tuple[int, int, Any]], comparative: bool = False) -> list[Any]:
    """The values of the longest run of spans (start, end, value) one or two joining words apart ("vs", "and",
    "or", a comma; with `comparative`, also "... faster than ..."), each value once; [] unless two."""
    run: list[tuple[int, int, Any]] = []
    best: list[Any] = []
    for sp in spans:
        gap = [w.lower() for w in words[run[-1][1]:sp[0]]] if run else []
        if run and (1 <= len(gap) <= 2 and all(w in _JOINS_OPERATIONS for w in gap) or comparative and
                    _comparing(gap)) and sp[2] not in (v for *_, v in run):
            run.append(sp)
        else:
            run = [sp]
        if len(run) > len(best):
            best = [v for *_, v in run]
    return best if len(best) > 1 else []


def _x_bus(words: list[str], i: int) -> bool:
    """Whether words[i] ("Bus") ends the POWER9 link's name "X-Bus" / "X Bus": its "bus bandwidth" is the link's."""
    prev = [w.lower() for w in words[max(0, i - 2):i]]
    return prev[-1:] == ["x"] or prev == ["x", "-"]


def _unknown_name(words: list[str], span, hit) -> bool:
    """Whether an unresolved span has, beside the vocabulary hit inside it, a word shaped like a product name
    (letters and digits: "MI300X", "B200", "GH200")."""
    return any(re.fullmatch(r"(?=.*[a-z])(?=.*\d)[a-z0-9-]{3,}", words[i].lower())
               for i in range(span[2], span[3]) if not hit.start <= i < hit.end)


def endpoints_in_order(words: list[str], cands, endpoints: frozenset[str]) -> list[str]:
    """The stored endpoints a question names, each once, in the order said."""
    at = [(st, f["endpoint"]) for st, _, f in cands if f.get("endpoint") and f["endpoint"] != "host"]
    at += [(i, w.lower()) for i, w in enumerate(words) if w.lower() in endpoints]
    out: list[str] = []
    for _, e in sorted(at):
        if e not in out:
            out.append(e)
    return out


def named_endpoints(words: list[str], cands, endpoints: frozenset[str]) -> set[str]:
    """The stored endpoints a question names: written as one word ("ipu5", "GPU0") or spelled out and found by the
    vocabulary ("i p u five")."""
    return set(endpoints_in_order(words, cands, endpoints))


_NUMBERED_END = re.compile(r"^(gpu|ipu|cpu|tile|core)\d+$", re.I)


def _part_by_model(said: str, parts: dict[str, dict[str, dict[str, Any]]]) -> Optional[tuple[str, str]]:
    """(system, component) of the one processor ("gpu"/"cpu" kinds) whose label holds the model said ("the K80" ->
    RI2's "NVIDIA K80"); None where no machine or several hold it. Only a model word counts: letters and digits."""
    models = [w for w in re.findall(r"[a-z0-9-]+", said.lower()) if re.search(r"[a-z]", w) and re.search(r"\d", w)]
    if len(models) != 1:
        return None
    found = {(sid, cid) for sid, comps in parts.items() for cid, c in comps.items()
             if c.get("kind") in ("gpu", "cpu") and models[0] in re.findall(r"[a-z0-9-]+", str(c.get("label")).lower())}
    return next(iter(found)) if len(found) == 1 else None


def family_with_model(words: list[str], system: Callable[[str], Any]) -> list[str]:
    """"the DGX-1 with Tesla V100", "the DGX-1 with P100s": a name several machines share, then the GPU model that
    tells them apart, read as the one machine's name ("DGX-1 V100"), not as a second machine (the reference V100)."""
    out = list(words)
    families: list[list[str]] = []
    for i in range(len(out) - 2, 0, -1):
        if out[i].lower() != "with":
            continue
        j = i + 1 + (out[i + 1].lower() in ("tesla", "nvidia") and i + 2 < len(out))
        model = re.sub(r"s$", "", out[j]) if re.search(r"\d", out[j]) else ""
        for n in (3, 2, 1):
            left = out[max(0, i - n):i]
            if model and len(left) == n and system(" ".join(left)) is None \
                    and system(" ".join(left + [model])) is not None:
                out[max(0, i - n):j + 1] = left + [model]
                families.append(left)
                break
    # "... the DGX-1 with P100s or the one with V100s": "the one" is the family said before, with the other model
    for i in range(len(out) - 2, 0, -1):
        if out[i].lower() != "one" or out[i + 1].lower() != "with" or i + 2 >= len(out) or not families:
            continue
        j = i + 2 + (out[i + 2].lower() in ("tesla", "nvidia") and i + 3 < len(out))
        model = re.sub(r"s$", "", out[j]) if re.search(r"\d", out[j]) else ""
        if model and system(" ".join(families[-1] + [model])) is not None:
            out[i:j + 1] = families[-1] + [model]
    return out


def hyphenated_ends(words: list[str]) -> list[str]:
    """"a pageable host-to-GPU2 copy", "GPU0-to-GPU1": two ends joined by hyphens, one of them a numbered part,
    read as "host to GPU2" (the tagger learnt ends with spaces around "to"; "host-to-device", the name of a copy,
    has no numbered end and stays)."""
    out = list(words)
    i = 0
    while i + 4 < len(out):
        a, h1, to, h2, b = out[i:i + 5]
        ends = [x for x in (a, b) if x.lower() == "host" or _NUMBERED_END.match(x)]
        if h1 == h2 == "-" and to.lower() == "to" and len(ends) == 2 and any(_NUMBERED_END.match(x) for x in ends):
            out[i:i + 5] = [a, "to", b]
        i += 1
    return out


_AN_END_AFTER = {"the", "host", "gpu", "gpus", "ipu", "ipus", "cpu", "device", "devices", "card", "cards", "node",
                 "tile", "core", "g", "i", "its", "their", "another", "other"}


def toward_as_to(words: list[str]) -> list[str]:
    """"from the host toward the gpus", "gpu0 towards gpu3": the end a copy goes to, said as the tagger learnt it
    ("to"); only before a part or an article, so "trends toward saturation" keeps its word."""
    return ["to" if w.lower() in ("toward", "towards") and i + 1 < len(words) and (
        words[i + 1].lower() in _AN_END_AFTER or _NUMBERED_END.match(words[i + 1])) else w
        for i, w in enumerate(words)]


def part_number_pause(words: list[str], size_bytes) -> list[str]:
    """"DGX-2 GPU, 11 to GPU, 4 NVLink bandwidth": speech recognition writes a pause between a part and its number
    as a comma; the number belongs to the part (GPU11), not to the next phrase (a count of 4). A number that makes a
    size with the word after it stays in its own phrase ("to the GPU, 1 GB pinned")."""
    return [w for i, w in enumerate(words)
            if not (w == "," and 0 < i < len(words) - 1 and words[i - 1].lower() in _NUMBERED_PARTS
                    and words[i + 1].isdigit() and not _size_at(words, i + 1, size_bytes))]


def _names_no_machine(text: str) -> bool:
    """A span tagged as a system that names a programming model or a code's version ("the Kokkos port", "the CUDA
    version"), or is only an article."""
    t = text.strip(" ,.?").lower()
    if t in ("the", "a", "an", "its", "their"):
        return True
    t = re.sub(r"^(the|a|an|its|their)\s+|\s+(version|versions|port|ports|implementation|code|backend)$", "", t)
    # "run from MCDRAM than from DDR4": a kind of memory a machine has, no machine of its own
    return bool(_PROGRAMMING_MODEL.fullmatch(t)) or bool(_MEMORY_KIND.fullmatch(t))


_MEMORY_KIND = re.compile(r"(l?p?ddr\d?x?|g?ddr\d[a-z]?|hbm\d?e?|mcdram|dram|nvram|optane|sram)( memory)?")


def number_run_into_size(words: list[str], size_bytes, endpoints: frozenset[str]) -> list[str]:
    """"GPU 0 -> GPU 832 MiB": speech recognition ran a GPU's number into the size said after it ("gpu eight,
    thirty two megabytes"). Where no device of that number exists anywhere and the digits split into a device that
    does and a power-of-two size, the split is taken (the shortest device number first)."""
    out = list(words)
    for i in range(len(out) - 2):
        part, num = out[i].lower(), out[i + 1]
        if part not in ("gpu", "ipu") or not num.isdigit() or len(num) < 3 or f"{part}{num}" in endpoints \
                or not _size_at(out, i + 1, size_bytes):
            continue
        for k in range(1, len(num)):
            head, tail = num[:k], num[k:]
            if f"{part}{head}" in endpoints and tail[0] != "0" and int(tail) & (int(tail) - 1) == 0:
                out[i + 1:i + 2] = [head, tail]
                break
    return out


def _size_at(words: list[str], i: int, size_bytes) -> bool:
    """Words i and i + 1 make a size ("1 GB", "32 MiB")."""
    return i + 1 < len(words) and size_bytes(f"{words[i]} {words[i + 1]}") is not None


_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_MAGNITUDES = ("hundred", "thousand", "million")


# "more fast", "most slow": a comparison said with "more"/"most" before a short adjective, as someone writing English
# as a second language may put it, is the comparative the model learnt ("faster", "slowest")
_PLAIN_ADJECTIVES = {"fast": ("faster", "fastest"), "quick": ("quicker", "quickest"), "slow": ("slower", "slowest"),
                     "big": ("bigger", "biggest"), "high": ("higher", "highest"), "low": ("lower", "lowest"),
                     "large": ("larger", "largest"), "small": ("smaller", "smallest")}


# a collective said as a verb ("broadcasting 128 MB", "all-reducing the gradients") -> its name
_COLLECTIVE_VERBS = {"broadcasting": "broadcast", "broadcasted": "broadcast", "allreducing": "allreduce",
                     "allgathering": "allgather", "reducescattering": "reducescatter"}
# ... and its second half after "all" or "reduce" ("all - reducing", "reduce scattering")
_COLLECTIVE_HALVES = {("all", "reducing"): "reduce", ("all", "gathering"): "gather",
                      ("reduce", "scattering"): "scatter"}


def collective_verbs(words: list[str]) -> list[str]:
    """"what algbw does the H200 pair reach broadcasting 128 MB": a collective said as what is being done, read as
    the collective's name the vocabulary knows ("broadcast"); "all-reducing" as "all-reduce"."""
    out = []
    for i, w in enumerate(words):
        low = w.lower()
        if low in _COLLECTIVE_VERBS:
            out.append(_COLLECTIVE_VERBS[low])
            continue
        prev = [x.lower() for x in words[max(0, i - 2):i] if x != "-"]
        half = _COLLECTIVE_HALVES.get((prev[-1], low)) if prev else None
        out.append(half or w)
    return out


def plain_comparatives(words: list[str]) -> list[str]:
    """"which one is more fast" -> "which one is faster"; "the most slow pair" -> "the slowest pair"."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i].lower()
        if w in ("more", "most") and i + 1 < len(words) and words[i + 1].lower() in _PLAIN_ADJECTIVES:
            out.append(_PLAIN_ADJECTIVES[words[i + 1].lower()][w == "most"])
            i += 2
            continue
        out.append(words[i])
        i += 1
    return out


def spoken_compound_numbers(words: list[str], number) -> list[str]:
    """"at two thousand forty eight g p us", "on two hundred fifty six nodes": a number said in words with a hundred,
    thousand or million in it is one number (2048, 256); the tagger had cut it into a size and a count ("2000
    bytes, 48 GPUs"). Runs without such a word ("one to sixteen", "g p u one two") are left to the tagger."""
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i].lower() in ("a", "an") and i + 1 < len(words) and words[i + 1].lower() in _MAGNITUDES:
            # "on a hundred and twenty eight cores": the article is the number's first word ("one hundred ...")
            rest = spoken_compound_numbers(["one"] + words[i + 1:], number)
            if rest and rest[0].isdigit():
                return out + rest
        j = i
        while j < len(words) and (words[j].lower() in _UNITS or words[j].lower() in _TENS
                                  or words[j].lower() in _MAGNITUDES
                                  or (words[j].lower() == "and" and j > i and words[j - 1].lower() in _MAGNITUDES
                                      and j + 1 < len(words) and (words[j + 1].lower() in _UNITS
                                                                  or words[j + 1].lower() in _TENS))):
            j += 1
        run = [w.lower() for w in words[i:j]]
        if len(run) > 1 and run[1] == "hundred" and i > 0 and len(words[i - 1]) == 1 and words[i - 1].isalpha():
            out.extend(words[i:i + 2])   # "h two hundred", "p one hundred one thousand megabyte": a GPU model's name
            i += 2
            continue
        value = number(" ".join(run)) if j - i > 1 and any(w in _MAGNITUDES for w in run) \
            and run[0] not in _MAGNITUDES else None
        if value is None and len(run) == 2 and run[0] in _TENS and run[1] in _UNITS[1:10] \
                and _counted_next(words, j) and not (i > 0 and (words[i - 1].isdigit() or words[i - 1].lower() in
                                                                 _UNITS or words[i - 1].lower() in _TENS)):
            # "on thirty two g p us", "with twenty four gpus": one count (the tagger read "two gpus" and a size 24)
            value = number(" ".join(run))
        if isinstance(value, int) and not isinstance(value, bool):
            out.append(str(value))
            i = j
        else:
            out.append(words[i])
            i += 1
    return out


# what a count counts, as a transcript writes it ("gpus", "g p us")
_COUNTED = frozenset("gpus gpu ipus ipu nodes node ranks cores tiles processes threads cards boards sockets chips "
                     "h200s v100s p100s a100s".split())


def _counted_next(words: list[str], j: int) -> bool:
    return j < len(words) and (words[j].lower() in _COUNTED
                               or (spelled_device(words, j) and words[j + 2].lower() == "us"))


def four_before_a_size(words: list[str], size_bytes) -> list[str]:
    """"on the H200 pair, 4 1 megabyte inplace": speech recognition writes the word "for" as the digit, and before
    a size ("1 megabyte") a 4 can only be that word. Left alone: a 4 after a number or a part ("1 2 4 8 GPUs",
    "GPU 4 1 GB") and a 4 that is itself the size or count ("4 GB", "4 GPUs")."""
    out = list(words)
    for i in range(1, len(words) - 2):
        prev = words[i - 1].lower()
        if words[i] == "4" and words[i + 1].isdigit() and not prev.isdigit() \
                and not _ENDPOINT_WORD.fullmatch(prev) and prev not in _PART_WORDS \
                and _size_at(words, i + 1, size_bytes):
            out[i] = "for"
    return out


# "Table 11", "(Table 4.2)", "Fig. 9(a)", "§4.1": a place in a paper, read before the names ("Table 4.2" is no machine)
_CITED = re.compile(r"(?P<open>\( )?\b(?P<kind>tables?|tab|figures?|figs?|fig|sections?|sec|§)( \.)?( ,)? §?"
                    r"(?P<num>\d+(\.\d+)*[a-z]?)( ?\( ?[a-z] \))?( \))?", re.I)


def without_citation(words: list[str]) -> tuple[list[str], str]:
    """"dgx2 d2h write-combined gpu15 Table 11", "... 5x its idle latency (Table 4.2)?": the question says where
    the number is printed. Every answer cites its source, so the place is no filter; read as a name it was a
    machine nobody has. Only a place written as one (in brackets, capitalised, numbered "4.2", or after "see",
    "from", "per" or a document's name, "hey cai paper table 5"): "in a table, 2 gpus only" and "latency per sec 2" keep their words. Returns the words without
    it and the place as said ("" when none)."""
    text = " ".join(words)
    for m in _CITED.finditer(text):
        before = text[:m.start()].split()[-1:]
        kind = m.group("kind")
        if kind.lower().startswith("sec") and not (m.group("open") or kind[0].isupper()):
            continue
        if m.group("open") or kind[0].isupper() or "." in m.group("num") \
                or (before and before[0].lower() in ("see", "from", "per", "in", "of", "according", "document", "'s",
                                                     *_PAPER_NOUNS)):
            left, right = text[:m.start()].split(), text[m.end():].split()
            return left + right, re.sub(r" ([.,)])|(\() ", r"\1\2", " ".join(m.group(0).strip("( )").split()))
    return words, ""


# the words between the two ends of such a range ("1 - to - 256 MB" is how "1-to-256 MB" is tokenised)
_UNIT_RANGE_JOIN = ("-", "to", "–", "..", "...", "through", "till", "until", "up")
# a number as typed, thousands separators and all ("1,048,576")
_TYPED_NUMBER = re.compile(r"\d{1,3}(,\d{3})+|\d+(\.\d+)?")




_FRACTIONS = {"half": 0.5, "quarter": 0.25, "eighth": 0.125, "third": None}
_FRACTION_OF = re.compile(r"(?:(\S+) and )?(?:(a|an|one|three) )?(half|quarter|eighth)s? (?:of )?(?:a |an |one )?"
                          r"(\S+)")
_UNIT_WORD = re.compile(r"[kmgt]i?b|bytes?|(kilo|mega|giga|tera|kibi|mebi|gibi|tebi)bytes?|gigs?|megs?")


def fraction_of_a_unit(words: list[str], size_bytes) -> list[str]:
    """"at half a gibibyte", "a quarter of a megabyte", "three quarters of a GiB": a size said as a fraction of a
    unit, written as the bytes it is ("536870912 bytes"), which every size reader knows. A third of a unit is no
    whole number of bytes and is left as said."""
    lw = [w.lower() for w in words]
    if not any(w.rstrip("s") in _FRACTIONS for w in lw):
        return words     # (every question passes here)
    out: list[str] = []
    i = 0
    while i < len(words):
        m = _FRACTION_OF.match(" ".join(lw[i:i + 8]))
        unit = size_bytes(f"1 {m.group(4)}") if m and _FRACTIONS[m.group(3)] and _UNIT_WORD.fullmatch(m.group(4)) \
            else None
        whole = size_bytes(f"{m.group(1)} {m.group(4)}") if m and m.group(1) else 0
        if m and isinstance(unit, int) and isinstance(whole, int) \
                and not (i > 0 and re.fullmatch(r"\d+(\.\d+)?|and|a|an", lw[i - 1])):
            part = _FRACTIONS[m.group(3)] * (3 if m.group(2) == "three" else 1)
            out += [str(int(whole + unit * part)), "bytes"]   # ("one and a half GB": 1.5 GiB)
            i += len(m.group(0).split())
            continue
        out.append(words[i])
        i += 1
    return out


def unit_of_a_range(words: list[str], size_bytes) -> list[str]:
    """"DGX-2 1-to-256 MB latency", "from 1 to 256 MB", "from 1,048,576 up to 1,073,741,824 bytes": a range whose unit
    is written once, after its second end; the first end gets that unit too (the tagger reads "1" alone as no size).
    Only where the unit makes both ends sizes and the first is the smaller."""
    out = list(words)
    i = 0
    while i + 3 < len(out):
        j = i + 1
        while j < len(out) and out[j].lower() in _UNIT_RANGE_JOIN:
            j += 1
        if j == i + 1 or j + 1 >= len(out) or not _TYPED_NUMBER.fullmatch(out[i]) \
                or not _TYPED_NUMBER.fullmatch(out[j]):
            i += 1
            continue
        unit = out[j + 1]
        hi, lo = size_bytes(f"{out[j]} {unit}"), size_bytes(f"{out[i]} {unit}")
        if isinstance(hi, int) and isinstance(lo, int) and 0 < lo < hi and re.fullmatch(r"[A-Za-z]+", unit):
            out[i + 1:j] = [unit, "to"]
            i += 3
            continue
        i += 1
    return out


_GROUP_NOUN = r"(clusters|clients|systems|machines|nodes|boxes|servers|sites|computers|platforms|supercomputers)"
_GROUP_COUNT = {"both": 2, "two": 2, "2": 2, "three": 3, "3": 3, "four": 4, "4": 4, "five": 5, "5": 5}
_SAID_GROUP = re.compile(rf"\b(both|(?:the|these|those|all) (?:two|three|four|five|[2-5]))( of)?( the)?"
                         rf"( [\w-]+){{0,3}}? {_GROUP_NOUN}\b")
# "how do the Hey CAI clients compare": machines named by what they share, not counted
_NAMED_GROUP = re.compile(rf"\b(the|all)(?P<name>( [\w-]+){{1,3}}?) (clients|clusters|nodes|servers)\b")
_GENERIC_NOUNS = {"machine", "system", "box", "computer", "platform"}
_NOT_A_NAME = {"other", "different", "same", "two", "three", "four", "five", "both", "these", "those", "all", "many",
               "several", "various", "given", "following", "above", "below", "listed", "its", "their", "our", "my"}


def said_group(said: str) -> tuple[int, str]:
    """How many machines "both clusters" / "the three hey cai clients" counts (0 when the question counts none; -1 for
    every machine a shared name calls, "the hey cai clients"), and what it calls them, as a vocabulary key of the words
    and the noun in the singular ("heycaiclient"; "the three hey cai client machines" also "heycaiclient")."""
    m = _SAID_GROUP.search(said)
    if not m:
        named = _NAMED_GROUP.search(said)
        if not named or set(named.group("name").split()) & _NOT_A_NAME:
            return 0, ""
        return -1, key(named.group("name") + " " + re.sub(r"s$", "", named.group(4)))
    words = [w for w in m.group(0).split()[len(m.group(1).split()):] if w not in ("of", "the")]
    words[-1] = re.sub(r"(?<=x)es$|s$", "", words[-1])   # "boxes", "machines", "clusters"
    if len(words) > 1 and words[-1] in _GENERIC_NOUNS:
        words = words[:-1]
    return _GROUP_COUNT.get(m.group(1).split()[-1], 0), key(" ".join(words))


# "write a one-line summary for our procurement report of ...", "draft a bullet for my slides on ...", "give me a
# caption for a figure of ...": a writing task wrapped around a question; the question is what follows
_WRITING_TASK = re.compile(
    r"^(please |could you |can you |would you |kindly )?(write|draft|compose|give me|make|prepare|suggest|produce)"
    r"( me)?( up)? (a|an|one|two|three|some)( [\w-]+){0,4}? (summary|sentence|bullet|bullet point|caption|paragraph|"
    r"blurb|note|statement|takeaway|title|headline)s?"
    r"(( for| in| to put in| to go in) ((my|our|the|a|an) )?([\w-]+ ){0,3}?(report|slides?|deck|thesis|paper|"
    r"presentation|poster|figure|plot|chart|talk|memo|readme|wiki|review))?"
    r"( (of|on|about|stating|saying|that says|that states|describing|summari[sz]ing|for|comparing|explaining))? ")


def without_writing_task(words: list[str]) -> tuple[list[str], list[str]]:
    """(the question, the writing task's words): the answer gives the facts, the asker writes the sentence."""
    m = _WRITING_TASK.match(" ".join(w.lower() for w in words) + " ")
    if not m:
        return words, []
    n = len(m.group(0).split())
    return (words[n:], words[:n]) if n < len(words) - 1 else (words, [])


# a reason or purpose said after the question ("..., since we're choosing hardware for a training cluster", "because i
# have to report link utilisation"): the conjunction, then the asker as its subject
_REASON_WORDS = {"since", "because", "cause", "cos", "coz", "as", "so"}
_REQUEST_VERBS = {"like", "want", "wanted", "wanna", "need", "needs", "wonder", "wondering", "asking", "ask"}
_ASKER = {"i", "we", "i'm", "we're", "im", "i've", "we've", "i'd", "we'd", "i'll", "we'll", "my", "our", "me", "us"}


def without_reason(words: list[str], names_system) -> tuple[list[str], list[str]]:
    """(the question, the reason given after it): the reason's words ("a training cluster", "direct GPU-to-GPU links")
    would be read as what is asked. "as" and "so" count only after a comma ("bandwidth as we add GPUs" is the
    question's axis), "so" also as "so that"; a reason that names a machine stays (it may be the machine asked about)."""
    lw = [w.lower() for w in words]
    for k in range(3, len(words) - 2):
        w, nxt = lw[k], lw[k + 1]
        after_comma = lw[k - 1] == ","
        if w not in _REASON_WORDS or (w in ("as", "so") and not after_comma):
            continue
        if w == "so" and nxt == "that":
            nxt = lw[k + 2]
        if nxt.replace("’", "'") not in _ASKER and not (nxt in ("i", "we") or lw[k + 1:k + 3] in (["i", "'m"],
                                                                                               ["we", "'re"])):
            continue
        if any(x in _REQUEST_VERBS for x in lw[k + 1:k + 5]):
            continue     # "..., so I would like to see how busbw grows": the request itself, after its reason
        if names_system(words[k:]):
            return words, []
        cut = k - 1 if after_comma else k
        return words[:cut], words[k:]
    return words, []


# what the answer need not hold, said as a clause of its own ("Leave out the chart.", ", no chart needed", "just the
# number, please"): words of presentation that the question's reading should not weigh
_ANSWER_SHAPE = re.compile(
    r"(?:^|(?<=[.,;:!?] ))((please )?(leave out|skip|omit|drop|no need for|don't need|do n't need|do not need|"
    r"don't want|do n't want|do not want|without|no) (the |a |an |any )?(chart|plot|graph|figure|picture|table|"
    r"visuali[sz]ation|sources?|citations?|explanation|details|breakdown)( is| are)?( needed| necessary| required)?"
    r"( please)?|(a |the )?(chart|plot|graph|table) (is )?(not needed|unnecessary|optional)|(just|only) (the )?(number|"
    r"value|figure)( please)?|text only)( [.!])?(?= [.,;:!?]|$)")


# exclamations before a question ("whoa", "wow, ...", "oh man"): no word of what is asked ("hey" is not one of them:
# "Hey CAI" is a paper's name)
_INTERJECTIONS = {"whoa", "woah", "wow", "oh", "ooh", "gosh", "yikes", "huh", "ugh", "argh", "geez", "jeez", "dang",
                  "damn", "phew", "aha", "oops", "yay", "omg", "blimey", "golly", "welp"}


def without_interjection(words: list[str]) -> list[str]:
    """The question without the exclamations it opens with."""
    i = 0
    while i < len(words) - 3 and (words[i].lower() in _INTERJECTIONS or i > 0 and words[i] in (",", "!", "...")):
        i += 1
    return words[i:]


# "remind me, which systems have IPU-Links", "I forget, how many GHash/s ...": the asker's memory, not the question
# ("remind me to rerun Scope on friday" is a reminder to set, and stays)
_MEMORY_OPENERS = (("remind", "me"), ("i", "forget"), ("i", "forgot"), ("refresh", "my", "memory"),
                   ("remind", "me", "again"), ("quick", "reminder"))
_ASKING_WORDS = {"what", "which", "how", "who", "where", "when", "why", "whether", "if", "is", "are", "was", "were",
                 "does", "do", "did", "can", "could", "has", "have", "the"}


def without_memory_opener(words: list[str]) -> list[str]:
    """The question without an opening "remind me" that is followed by the question itself."""
    lw = [w.lower() for w in words]
    for opener in sorted(_MEMORY_OPENERS, key=len, reverse=True):
        n = len(opener)
        if tuple(lw[:n]) != opener:
            continue
        k = n + (n < len(lw) and lw[n] in (",", ":", "-", "..."))
        if k < len(lw) - 2 and (lw[k] in _ASKING_WORDS or k > n):
            return words[k:]
    return words


# "dgx2 fp64 maxflops gpu7, 3 significant figures", "rounded to 2 decimals": how to print the number; its digit is
# no count of GPUs
_ROUNDING = re.compile(r"(^|(?<= ))((, )?(rounded |round (it |them )?|given |give (it |them )?)?(to |in |at |with )?"
                       r"([1-9]|one|two|three|four|five|six) (significant (figures?|digits?)|sig\.? ?figs?|s\.f\.|"
                       r"decimal (places?|points?|digits?)|decimals)\b( please)?)( ,)?(?=( |$))")


def _word_span(joined: str, start: int, end: int) -> tuple[int, int]:
    """The words [a, b) a match at joined[start:end] covers, where joined is the words joined by single spaces."""
    return joined[:start].count(" "), joined[:end].count(" ") + 1


def without_rounding(words: list[str]) -> list[str]:
    """The question without how many digits its answer should show."""
    joined = " ".join(w.lower() for w in words)
    m = _ROUNDING.search(joined)
    if not m:
        return words
    a, b = _word_span(joined, m.start(2), m.end(2))
    rest = words[:a] + words[b:]
    return rest if len(rest) >= 3 else words


def without_answer_shape(words: list[str]) -> tuple[list[str], list[str]]:
    """(the question, what it says the answer need not hold): "What text-query latency does the Surface Pro client see
    in Hey CAI? Leave out the chart." is the question before the second sentence."""
    joined = " ".join(w.lower() for w in words)
    m = _ANSWER_SHAPE.search(joined)
    if not m or m.start() == 0:
        return words, []
    a, b = _word_span(joined, m.start(), m.end())
    rest = words[:a] + words[b:]
    while rest and rest[-1] in (",", ";", ":"):
        rest = rest[:-1]
    return (rest, words[a:b]) if len(rest) >= 3 else (words, [])


def _text_without(text: str, tails: list[list[str]]) -> Optional[str]:
    """The question as typed without the tails the reader left out (what the answer need not hold, a reason given
    after the question), each found by its first two words and cut off there; None when nothing was cut."""
    asked = text
    for tail in tails:
        if len(tail) < 2:
            continue
        found = list(re.finditer(rf"[,;:]?\s*\b{re.escape(tail[0])}\s*{re.escape(tail[1])}", asked, re.I))
        if found:
            asked = asked[:found[-1].start()]
    return asked if asked != text else None


# two machines set side by side ("compare", "vs", "than"): "Titan" there is the Titan RTX desktop
_TITAN_SET_BESIDE = re.compile(r"\b(vs\.?|versus|compar\w*|than|against|and the titan|with the titan)\b")
# what follows "Tartan" where it names its copy mode ("Tartan NVLink-mode bandwidth", "tartan p c i e mode")
_TARTAN_MODE = re.compile(r"^(nvlink|nv|n|pcie|p|p2p|peer|blink|blimp)\b")
# "NVLink" said "en-vee link" and heard as one English word, before a copy mode or glued to its generation
_NVLINK_AS_A_WORD = re.compile(r"(blink|blimp)([12])?")
# the words after which a number word is a device's or a part's index ("g p u thirteen nvlink mode")
_BEFORE_AN_INDEX = _NUMBERED_PARTS | _DEVICE_SPELLINGS | {"u", "node", "rank", "to", "and", "from", "number", "#"}
# what a memory's read is measured by ("global memory red bandwidth": read)
_READ_MEASURES = {"bandwidth", "bw", "speed", "throughput", "latency", "rate"}


def misheard(words: list[str], names_system) -> list[str]:
    """Names and words the speech model writes as other words, put back where the words around them settle it: "the
    Titan NVLink mode bandwidth of Yme" (Tartan, the benchmark: "Titan" without "RTX" or "desktop", right before a copy
    mode and beside another machine named, or before "P2P enabled / disabled" where no second machine is set beside it;
    "Titan" alone names the Titan RTX desktop); "DGX-2 thirteen PCIe mode" (Tartan, not after a device word); "global
    memory, red bandwidth" (read); "AMD 5 hash" (MD5Hash); "fan sped" (speed, typed or heard); "tile cones" (counts);
    "XFlops" (MaxFlops); "which rock holds" (rack); "cuda sample speed 2p" (P2P); "the link 2 link", "the link to rate"
    (NVLink2); "the H200 traffic spend" (trace); "PtoP 1 of Yme", "vs PtoP count" (GPU); "latency good does Yme give"
    (grid); "BFS tips" (TEPS); "ri2text" (RI2 text); "if I sincerely" (efficiency); "from the host to word the GPUs"
    (toward); "could the samples" (cuda-samples); "benchMOCs" (benchmarks); "blimp mode", "Blink2" (NVLink).
    `names_system(words)`: whether the words name a loaded machine."""
    lw = [w.lower() for w in words]
    out = list(words)
    for i, w in enumerate(lw):
        if w == "titan" and i + 1 < len(lw) and _TARTAN_MODE.match(lw[i + 1]) and "mode" in lw[i + 1:i + 6] \
                and names_system(words[:i] + words[i + 1:]):
            out[i] = "Tartan"
        elif w == "titan" and lw[i + 1:i + 2] == ["p2p"] and set(lw[i + 2:i + 4]) & {"enabled", "disabled"} \
                and names_system(words[:i] + words[i + 1:]) and not _TITAN_SET_BESIDE.search(" ".join(lw)):
            out[i] = "Tartan"    # "DGX-2 Titan P2P enabled latency": Tartan's P2P setting, one other machine named
        elif w == "thirteen" and "mode" in lw[i + 1:i + 9] and any(_TARTAN_MODE.match(x) for x in lw[i + 1:i + 8]) \
                and (not i or lw[i - 1] not in _BEFORE_AN_INDEX) and names_system(words[:i] + words[i + 1:]):
            out[i] = "Tartan"    # "DGX-2 thirteen PCIe mode bandwidth", "the lowest thirteen latency NVLink mode",
            #                      "what thirteen bandwidth grid does Mini Summit give in NVLink mode"
        elif w == "thirteen" and i and lw[i - 1] in ("in", "from", "by") and "p2p" in lw[i + 1:i + 4] \
                and set(lw[i + 2:i + 6]) & {"enabled", "disabled", "on", "off"} and names_system(words):
            out[i] = "Tartan"    # "what pairwise latency does Yme give in thirteen, with P2P disabled"
        elif w == "red" and i + 1 < len(lw) and lw[i + 1] in _READ_MEASURES:
            out[i] = "read"
        elif w == "sped" and i and lw[i - 1] in ("fan", "fans", "clock", "link", "memory"):
            out[i] = "speed"     # "titan rtx fan sped": an English word, so no typo the speller repairs
        elif w == "cones" and i and re.fullmatch(r"(gpu|tile|node|ipu|rank|core|process|device)s?", lw[i - 1]):
            out[i] = "counts"    # "over gpu cones", "across tile cones"
        elif w == "xflops":
            out[i] = "MaxFlops"  # "Yme XFlops FP64 gpu 2": SHOC's MaxFlops, its first syllable lost
        elif w == "rock" and lw[i + 1:i + 2] != ["solid"]:
            out[i] = "rack"      # "which rock holds the IPU system": no rock is a part of a machine
        elif w == "speed" and lw[i + 1:i + 2] == ["2p"]:
            out[i], out[i + 1] = "P2P", None   # "cuda sample speed 2p bandwidth": the samples' P2P, a letter lost
        elif w == "ptop" and i + 1 < len(lw) and (re.fullmatch(r"\d{1,2}", lw[i + 1]) and lw[i + 2:i + 3] not in (
                ["links"], ["link"], ["lanes"], ["slots"]) or lw[i + 1] in ("count", "counts")):
            out[i] = "GPU"       # "what FP32 MaxFlops does PtoP 1 of Yme deliver", "vs PtoP count": a GPU, heard so
            if lw[i + 1] == "1" and re.fullmatch(r"[0-5]", "".join(lw[i + 2:i + 3])):
                out[i + 1], out[i + 2] = f"1{lw[i + 2]}", None   # "PtoP 1 4": GPU14, its digits heard apart
        elif i and lw[i - 1] in ("bandwidth", "latency", "bw") and (w == "good" and lw[i + 1:i + 2] in (
                ["does"], ["do"], ["is"]) or w == "crit"):
            out[i] = "grid"      # "what Titan PCIe mode latency good does Yme give": the grid, its vowel misheard
            #                      ("bandwidth crit under load": its first consonant, no English word)
            #                      ("is 327 GB/s of bus bandwidth good for ..." asks whether it is good)
        elif w == "tips" and i and lw[i - 1] == "bfs":
            out[i] = "TEPS"      # "Yme shock BFS tips on GPU 2": BFS's traversed edges per second
        elif re.fullmatch(r"bench(mo|om)[a-z]+", w):
            # "which benchMOCs does the database hold", "benchomics": "benchmarks", its second syllable misheard
            out[i] = "benchmarks" if w.endswith("s") else "benchmark"
        elif (m := _NVLINK_AS_A_WORD.fullmatch(w)) and (m.group(2) or lw[i + 1:i + 2] == ["mode"]
                                                         or re.fullmatch(r"[12]", "".join(lw[i + 1:i + 2]))):
            # "DGX-2 share of Blink2 rate", "Tartan blimp mode", "over blimp 2": NVLink (session 71: 6 transcripts
            # of the read sets' speech; no question says "blink mode")
            out[i] = "NVLink" + (m.group(2) or "")
        elif w == "traffic" and lw[i + 1:i + 2] in (["spend"], ["spends"], ["spent"]):
            out[i] = "trace"     # "what does the long H200 traffic spend in communication": a trace spends time
    for i in range(len(lw) - 2, 0, -1):
        if lw[i] == "link" and lw[i + 1] in ("2", "to", "two") and lw[i + 2:i + 3] in (["link"], ["links"], ["rate"],
                                                                                  ["rates"]):
            out[i:i + 2] = ["NVLink2"]   # "the rate of the link 2 link", "how close to the link to rate": NVLink2's
        elif lw[i] == "word" and lw[i - 1] in ("to", "the") and "from" in lw[:i - 1] and (
                lw[i + 1] in _AN_END_AFTER or _NUMBERED_END.match(lw[i + 1])):
            out[i - 1:i + 1] = ["toward"]   # "from the host to word the GPUs", "from GPU0, the word GPU1"
        elif lw[i - 1] == "could" and lw[i] in ("a", "the") and lw[i + 1] in ("sample", "samples"):
            out[i - 1:i + 2] = ["cuda", "samples"]   # "what could the samples P2P bandwidth do Yme give"
        elif lw[i - 1:i + 2] == ["if", "i", "sincerely"]:
            out[i - 1:i + 2] = ["efficiency"]   # "what if I sincerely does chifflet give": the measure, heard so
        elif lw[i - 1] == "amd" and lw[i] in ("5", "five") and lw[i + 1] in ("hash", "hashes", "hashing"):
            out[i - 1:i + 2] = ["MD5Hash"]
        elif i >= 2 and lw[i - 2] == "amd" and lw[i - 1] == "," and lw[i] in ("5", "five") \
                and lw[i + 1] in ("hash", "hashes", "hashing"):
            out[i - 2:i + 2] = ["MD5Hash"]     # "AMD, 5 HASH throughput": a pause heard inside the name
    split: list[str] = []
    for w in out:
        glued = _NAME_GLUED.fullmatch(w) if w is not None else None
        if glued and names_system([glued.group(1)]) and not names_system([w]):
            split += [glued.group(1), glued.group(2)]   # "ri2text query latency": RI2, its space not heard
        elif w is not None:
            split.append(w)
    return split


# a machine's name that ends in a digit run into the word after it ("ri2text")
_NAME_GLUED = re.compile(r"([A-Za-z][\w-]*\d)([A-Za-z]{3,})")


def without_i_mean(words: list[str]) -> list[str]:
    """"as cores go up i mean single precision": the speaker's "I mean" joins no words (read with its neighbours,
    "up i" would be the UPI link); written as the one word "sorry" where words follow it, which marks a correction
    as well (corrected_systems)."""
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i].lower() == "i" and i + 2 < len(words) and words[i + 1].lower() == "mean" and i > 0:
            out.append("sorry")
            i += 2
            continue
        out.append(words[i])
        i += 1
    return out


def four_before_an_operation(words: list[str], norm) -> list[str]:
    """"T4 reference GPU clock, 4 memory access": a transcript's digit for the word "for" between a measure (or a
    comma) and the operation it is for, named exactly (no count of anything, and no size, stands there)."""
    ops, metrics = norm._index["operation"], norm._index["metric"]
    out = list(words)
    for i in range(1, len(words) - 1):
        prev = words[i - 1].lower()
        if words[i] != "4" or not (prev == "," or metrics.get(key(prev)) is not None):
            continue
        if norm.size_bytes(" ".join(words[i:i + 2])) is not None or norm.named("count_kind", words[i + 1]):
            continue
        if any(ops.get(key(" ".join(words[i + 1:i + 1 + n]))) is not None for n in (3, 2, 1) if i + n < len(words)):
            out[i] = "for"
    return out


# a link's name and the generations it has: "PCIe3", "NVLink4"
_LINK_AND_NUMBER = re.compile(r"^(pcie|nvlink)(\d+)$", re.I)
_GENERATIONS = {"pcie": range(1, 7), "nvlink": range(1, 6)}


def link_run_into_size(words: list[str], size_bytes) -> list[str]:
    """"bidir PCIe32 MB BW": speech recognition ran a link's name into the size said after it ("pcie 32MB"); a
    number no generation of that link has, before a size unit, is the size's ("PCIe3 2 MB" is left alone)."""
    out: list[str] = []
    for i, w in enumerate(words):
        m = _LINK_AND_NUMBER.match(w)
        if m and int(m.group(2)) not in _GENERATIONS[m.group(1).lower()] and i + 1 < len(words) \
                and size_bytes(f"{m.group(2)} {words[i + 1]}"):
            out += [w[: m.start(2)], m.group(2)]
            continue
        out.append(w)
    return out


def join_split_endpoints(words: list[str], endpoints: frozenset[str]) -> list[str]:
    """An endpoint number that speech recognition cut in two: "tile64 6 to tile 0" -> "tile646 to tile 0", when
    no system has a tile64 and one has a tile646 (the stored components decide, so "GPU1 2 GB" stays)."""
    def join(a: str, b: str) -> Optional[str]:
        la = a.lower()
        cut = _ENDPOINT_WORD.fullmatch(la) and b.isdigit() and la not in endpoints and la + b in endpoints
        return a + b if cut else None
    return _join_pairs(words, join)


# words of a curve over counts of GPUs, nodes, ranks ...: without them and without a count, no scaling question
_COUNT_WORDS = re.compile(r"scal|grow|increas|\bmore\b|speed ?up|efficien|strong|weak|\bcounts?\b|\bfrom\b|->|\bto\b|"
                          r"\bvs\.?\b|versus|\bup to\b|\bper\b")
_COMPUTE_OR_MEMORY = re.compile(r"\b[tg]?flops?\b|\b[tg]?flop/s\b|\b[sdh]?gemm\w*|\bcompute\b|\bmemory\b|\btriad\b|"
                                r"\bstream\b|\bhbm\b|\bfp(16|32|64)\b|\b(single|double|half|mixed) precision\b")
# a copy or transfer named ("copies from a GPU back to the host")
# units of a figure a question states ("the IPU does GEMM at 100 TFLOP/s, right?"), never of a message size
_FIGURE_UNIT = re.compile(r"^([kmgtp]?flop[/-]?s|[kmgtp]?flops?|[kmgtpe]i?b/s|[kmgt]bps|[kmgt]?hz|w|watts?|kw|us|usecs?|"
                        r"ms|msecs?|ns|µs|seconds?|secs?|x|%|percent|°c|c|celsius)$", re.I)
_COPY_WORD = re.compile(r"\b(cop(y|ies|ying)|transfers?|transferring|memcpys?|moves?|moving|sends?|sending)\b")
# more memory traffic caused by something ("how much does prefetch raise the memory traffic")
_TRAFFIC_RAISED = re.compile(r"\b(rais|increas|add|boost|grow|inflat|bump|push)\w* (up )?(the |its |their )?(\S+ ){0,2}"
                             r"traffic\b")
# "the p2p efficiency of the DGX-1 P100", spoken "p two p efficiency"
_P2P_EFFICIENCY = re.compile(r"\b(p ?(2|two) ?p|peer[- ]to[- ]peer) efficiency\b")
_LINK_OR_COPY = re.compile(r"link|\bbus\b|pcie|nvswitch|infiniband|\bupi\b|\bqpi\b|fabric|network|\bhost\b|"
                           r"\bcop(y|ies)\b|transfer|p2p|\bp two p\b|peer|\bh2d\b|\bd2h\b|interconnect|\bport\b", re.I)
_LLM_WORK = {"training", "inference", "model", "models", "workload", "workloads", "serving", "fine-tuning",
             "finetuning", "pretraining", "jobs", "job"}
_REACHES = re.compile(r"\bhow (does|do|is|are|can|would) .{1,40}\b(reach|get to|talk to|connect(ed)? to|routed?|"
                      r"wired to|hooked up to)\b|\bwhich way\b|\bwhat route\b|\bhow many hops\b")
_HOW_FAST = re.compile(r"\b(how fast|how quick(ly)?|speed of|what speed|(faster|slower|quicker) than|"
                       r"how much (faster|slower|quicker))\b")
_SPEEDUP_ASKED = re.compile(r"\b(what|which|how much|how big|the|a) (\w+ )?speed ?-?ups?\b|\bspeed ?-?ups? (over|against|"
                            r"relative to|compared (to|with)|vs\.?|versus)\b|"
                            # "by what factor does the IPU beat the V100", "how many times faster is ..."
                            r"\b(by )?(what|which) factor\b.{0,60}\b(beats?|faster|quicker|outperforms?|ahead|exceeds?|"
                            r"surpass(es)?|outpaces?)\b|"
                            r"\bhow many times (faster|quicker)\b")
_ESTIMATED = re.compile(r"\bestimat\w*|\bmodell?ed\b|\bmodel('s)? (gives?|says?|predicts?|puts?|computes?|yields?)\b|"
                        r"\b(according to|from|by|per) the (\w+ )?model\b|\b(model|analytic\w*|predicted) (value|time|"
                        r"figure|number|estimate)s?\b")
# a place in a ranking other than the first: "second-highest", "3rd best", "runner-up", "next best"
_PLACE_ASKED = re.compile(r"\b(?P<n>second|third|fourth|fifth|2nd|3rd|4th|5th)( ?- ?| )?(?P<w>highest|biggest|largest|"
                          r"best|greatest|most|fastest|quickest|lowest|smallest|worst|slowest|least)\b"
                          r"|\brunner( ?- ?| )?ups?\b|\bnext( ?- ?| )best\b")
_TENSOR_CORE_PEAK = re.compile(r"\btensor( ?- ?| )?cores?( ?- ?| )(peak|throughput|rate|performance)\b|"
                               r"\bpeak (\w+ )?tensor( ?- ?| )?cores?\b")
_SIZE_USED = re.compile(r"\b(what|which) (msg |message |packet |payload |transfer )?(length|size)s? (of (msgs?|messages?|"
                        r"packets?) )?(was|were|is|are|did they|did it) (used|sent|chosen|picked)\b")
# one cell of a printed matrix asked for ("the entry in row GPU1, column GPU0", "what's in the ... matrix for GPU0 to
# GPU1")
_MATRIX_CELL = re.compile(r"\b(entry|cell|value)\b.{0,40}\brow\b|\brow \S+ ?,? (and )?col(umn)?\b|"
                          r"\bwhat( ?' ?s| is) in\b.{0,100}\bfor (gpu|ipu) ?\d")
# "the P100 one": a machine named by its GPU model after a machine of the same kind was named
_THE_MODEL_ONE = re.compile(r"\bthe (?P<m>[pvah]\d{3}) ones?\b")
# both extremes over the pairs: "the lowest and highest bandwidth between any two GPUs", "min and max over all pairs"
_BOTH_ENDS_OF_PAIRS = re.compile(r"\b(lowest and (the )?highest|highest and (the )?lowest|min(imum)? and max(imum)?|"
                                 r"max(imum)? and min(imum)?|range|spread)\b.{0,60}\b(between (any|all|every|each)( two)? "
                                 r"(gpus|ipus|devices|pairs)|(over|across|among) (all |every |the )?(gpu |ipu )?pairs|"
                                 r"any (gpu |ipu )?pair)\b")
_ENDS_ON_TIME = re.compile(r"\b(time|times|timing|timings) ?\?? ?$")
_LINK_SPEED = re.compile(r"\blink speeds?\b|\bper( - | |-)link (\w+ )?speeds?\b|\bspeed (of|per) (each |every |an? |one )?(\w+ )?(link|brick|lane)s?\b")
_LINK_RATE = re.compile(r"\b(rate|per[- ]port|line speed|link speed|signall?ing|how fast)\b")
_TOPO_TOOL = re.compile(r"\bnvidia ?- ?smi topo\b|\btopo -m\b|\btopo matrix\b")
# (or said as a keyword query: "systems with nvlink2 links")
# two lists paired element by element ("on GPU8 and GPU3, respectively")
_RESPECTIVELY = re.compile(r"\brespectively\b")
_WHICH_SYSTEMS = re.compile(r"^(((which|what)( \w+){0,2}|(list|show( me)?|name|give me)( all| the| every)*) )?"
                            # ("which systems' data include PyTorch traces": the systems by what their data holds)
                            r"(systems|machines|clusters|platforms)( ?' ?s?)?( (data|results|measurements|numbers))? "
                            r"((that|which) )?(have|has|had|with|offer|carry|store|come with|include|support|contain|"
                            r"hold)\b")


# "which systems have the highest ...": a ranking of systems, not a list of what is loaded
# things a number before counts out as a whole set ("3 apps"), not a top list, where no ranking word is said
_WHOLE_SETS = {"apps", "applications", "benchmarks", "codes", "workloads", "cases", "patterns", "models", "networks"}
# a year as people date a paper or a run ("the 2022 paper", "in 2019"), and the words it follows
_YEAR = re.compile(r"(199\d|20[0-3]\d)")
_BEFORE_A_YEAR = {"the", "in", "from", "since", "of", "circa", "its", "their", "our", "that", "this", "those", "these"}
# the words of a ranking's end that a count of the ranked things comes before ("the five slowest")
_SUPERLATIVES = {"highest", "lowest", "best", "worst", "fastest", "slowest", "largest", "smallest", "biggest",
                 "greatest", "longest", "shortest", "quickest"}
# the words a count of ranked things follows ("the five slowest", "dgx2 five lowest", "list 3 fastest")
_BEFORE_A_RANKING = {"the", "top", "its", "their", "my", "our", "are", "were", "me", "list", "show", "give", "find",
                     "name", "which", "what", "dgx2", "yme", "h200x2", "ipu16"}
_RANKING_WORDS = {"highest", "lowest", "best", "worst", "most", "least", "fastest", "slowest", "largest", "smallest",
                  "higher", "lower", "more", "less", "better", "worse", "faster", "slower", "top", "peak", "max",
                  "min", "maximum", "minimum", "biggest", "greatest"}


def part_of_an_app(span: str, catalog) -> bool:
    """"integrand fA" (vegas_fA): words of a stored application's name are no unknown machine; nor are those of
    a tool that made stored runs ("DeepBench")."""
    if catalog is None:
        return False
    words = [w.lower() for w in span.split() if w.lower() not in ("the", "a", "an")]   # "the s h o c suite"
    spelled = "".join(w for w in words if len(w) == 1)
    if len(spelled) >= 2 and spelled in catalog.tool_words:   # "o s u micro": OSU spelled out
        words = [w for w in words if len(w) > 1] + [spelled]
    return bool(words) and any(w in catalog.app_words or w in catalog.tool_words for w in words) \
        and all(w in catalog.app_words or w in catalog.tool_words or w in _A_TOOLS_KIND for w in words)


# the words after a tool's name that say what kind of tool it is ("OSU micro-benchmarks", "the SHOC suite")
_A_TOOLS_KIND = {"micro", "micro-benchmark", "micro-benchmarks", "microbenchmark", "microbenchmarks", "benchmark",
                 "benchmarks", "suite", "-", "bench", "tests"}


def unresolved_systems(unresolved) -> bool:
    """A system was named but is not in the database ("which Frontier nodes have ..."): not a list question."""
    return any(u[0] == "system" for u in unresolved)


_SIZE_METRICS = {"message_size", "msg_size", "size", "msg_bytes"}
# metrics whose names say "size" of something other than a message; a sweep over them is asked with sizes' words
_NOT_A_MESSAGE_SIZE = {"batch_size"}
_SWEPT_SIZE = re.compile(r"\b(message|msg|transfer|buffer|data|payload)[- ]?sizes?\b|\bsweep|\b(by|over|vs|versus|"
                         r"across|against) (the )?sizes?\b|\bsizes\b")
# a data rate as printed: upper-case B bytes, lower-case b bits
_RATE_UNIT = r"[GMT]B/s|[GMT]Bps|[GMT]bit/s|[GMT]b/s|[GMT]bps"
# "exceeds 100 GB/s", "stays under 5 us": a line the values cross. Only rates and times: "over 1 MB" is a size.
_THRESHOLD_OPS = (r"exceed(?:s|ed|ing)?|above|over|reach(?:es|ed|ing)?|pass(?:es|ed|ing)?|surpass(?:es|ed|ing)?|"
                  r"cross(?:es|ed|ing)?|hits?|tops?|more than|greater than|beyond|at least|below|under|less than|"
                  r"within|drops? below|falls? below|breaks?|breaking|longer than|shorter than")
_THRESHOLD = re.compile(r"(?:\b(?P<op>" + _THRESHOLD_OPS + r")\s+|(?<![-=<>])(?P<sym>[<>]=?)\s*)"
                        r"(?P<v>\d+(?:\.\d+)?)\s*(?P<u>" + _RATE_UNIT + r"|us|µs|usec|microseconds?|ms|msec|"
                        r"milliseconds?|ns|nanoseconds?|%|percent|x|times)(?![\w/])", re.I)
_RATE_WORD = re.compile(_RATE_UNIT, re.I)     # "25 GB/s": the unit as one word of the question
_RATE_UNITS = {"gb/s": 1.0, "gbps": 1.0, "mb/s": 1e-3, "mbps": 1e-3, "tb/s": 1e3, "tbps": 1e3}
_BIT_UNITS = {"gbit/s": 0.125, "gb/s": 0.125, "gbps": 0.125, "mbit/s": 1.25e-4, "mb/s": 1.25e-4, "mbps": 1.25e-4,
              "tbit/s": 125.0, "tb/s": 125.0, "tbps": 125.0}
_TIME_UNITS = {"us": 1.0, "µs": 1.0, "usec": 1.0, "microsecond": 1.0, "microseconds": 1.0, "ms": 1e3, "msec": 1e3,
               "millisecond": 1e3, "milliseconds": 1e3, "ns": 1e-3, "nanosecond": 1e-3, "nanoseconds": 1e-3}


# "how many GPUs until ...", "at what node count ...", "which GPU count ...": the answer is a count
# "how many bytes", "how much MB": a size asked for, which no connection graph holds
_ASKS_BYTES = re.compile(r"\bhow (?:many|much) (?:bytes|kilobytes|megabytes|gigabytes|kb|mb|gb|kib|mib|gib)\b")
_ASKS_COUNT = re.compile(r"\b(how many (?P<kind>gpus|nodes|ipus|ranks|cores|tiles|processes|threads|devices|g p us|"
                         r"i p us)|(?:what|which) (?P<kind2>gpu|g p u|node|ipu|i p u|rank|core|tile|process|thread) "
                         r"count)\b")
_PEAK = re.compile(r"\b(peak|max|maximum|top)\b", re.I)
# the word before a size that makes it an end of a sweep ("up to 4 GiB", "from 8 B")
_BOUND_WORDS = {"to", "until", "till", "through", "thru", "from"}
# "smallest transfer where ... breaks 100 GB/s", "from what copy size": the size is what is asked
_EFFICIENCY_ASKED = re.compile(r"\b(efficien\w*|utili[sz]\w*|percent\w*|fraction|share|how close|how near|"
                               r"how much of|reach(es)?|achieve[sd]?|get(s)? to|% of)\b|%")


# a measurement set against a stated figure: "how far below nominal", "close to their nominal rate", "compare with the
# NVLink nominal" (the figure is what it is set against, no condition of the rows)
_SET_AGAINST_A_REFERENCE = re.compile(r"\b(below|close|closer|near|nearer|far|against|compared?|compares|short of)\b")


def _asks_efficiency(said: str) -> bool:
    """Whether the words set a measurement against a rate ("how close to", "percent of", "of the nominal peak")."""
    return bool(_EFFICIENCY_ASKED.search(said) or OF_PEAK.search(said))


# a figure per counted part ("bw per node", "flops per gpu"), no count that varies
_PER_COUNTED = re.compile(r"\b(per|each|a|every) (gpu|ipu|node|core|tile|rank|socket|cpu|device|card|g p u|i p u|"
                          r"c p u)\b(?! counts?\b)")   # ("per gpu count": by the count, a curve)
_NOMINAL = re.compile(r"\bnominal\b")
_PERF = re.compile(r"\bperf(ormance)?\b")
# a question that opens by asking for the graph ("draw the interconnect of ... and tell me ...")
_DRAW_FIRST = re.compile(r"^(please )?(draw|sketch|show)( me)? the (interconnect|topology|wiring|connection graph|"
                         r"link graph|network)( \w+){0,6} (and|then) ")
_GOODPUT = re.compile(r"\bgoodput\b")
# a measurement set against the nominal rate ("how does the measured bandwidth compare with the NVLink nominal")
_SET_AGAINST_NOMINAL = re.compile(r"\b(measured|compar\w*|against|vs\.?|versus|relative|reach\w*|achiev\w*|gets?)\b")
# traffic said to grow ("how much does LLC-DRAM traffic grow"): MAPredict's traffic increase
_TRAFFIC_GROWS = re.compile(r"\btraffic (grows?|increases?|go(es)? up|rises?|climbs?|goes? higher)\b|"
                            r"\bhow much (more|extra|additional) (\w+ )?traffic\b")
_RATE_SAID = re.compile(r"\b(bandwidth|bw|rate|throughput|speed)\b")
# a thing said to have become faster ("speed up" as a verb, "how many times faster")
_SPED_UP = re.compile(r"\b(speed(s|ed)? up|sped up|how (many times|much) (faster|quicker))\b")
# a GPU's own memory named ("HBM2 bandwidth", "GDDR6", "memory bandwidth")
_DEVICE_MEMORY_SAID = re.compile(rf"\b(hbm\d?e?|gddr\d?x?)\b|{MEMORY_BANDWIDTH.pattern}")
# one machine set against another in a contrast ("... while the DGX-2 manages only 12", "whereas Yme gets ...")
_WHILE_THE_OTHER = re.compile(r"\bwhereas\b|\bwhile (the |its |their )?([\w-]+ ){1,3}(only |just |barely )?"
                              r"(manages?|gets?|gives?|reaches|reach|hits?|does|is|has|shows?|sees?|tops? out)\b")
# two machines as one subject of a verb of giving ("what overhead do(es) SuperMUC-NG and Summit give")
_BOTH_GIVE = re.compile(r"\b(do|does) (both )?(the )?[\w-]+( [\w-]+){0,3} and (the )?[\w-]+( [\w-]+){0,3} "
                        r"(give|get|reach|achieve|attain|hit|deliver|show|post|manage|see|offer|provide)\b")
# the other machine named as the alternative to the first ("as opposed to GPU0 of Mini Summit"), also where the
# model, misled by an endpoint said on each side, refused
_ALTERNATIVE = re.compile(r"\b(as opposed to|instead of|rather than|in contrast to)\b")
# two machines set side by side ("stack up against", "compared with", "which is faster")
_SETS_SIDE_BY_SIDE = re.compile(r"\b(stacks?|stacking|stacked|measures?|measuring) up\b|\bcompar(e|es|ed|ing|ison)\b|"
                                r"\b(vs\.?|versus)\b|\bfares?\b|\bhead[- ]to[- ]head\b|\bside by side\b|"
                                r"\b(faster|slower|quicker|better|worse|higher|lower|fatter|wider|bigger|smaller) "
                                r"(than|then)\b|\bbeats?\b|\b(below|above|behind|ahead of)\b(?! \d)|"
                                r"\boutperform\w*|"
                                # "how far apart are yme and mini summit on ...", "how are Yme and Mini Summit doing
                                # on FP32 MaxFlops"
                                r"\bhow far apart\b|\bhow (are|is|do|does) [\w' -]{1,30} and [\w' -]{1,30} "
                                r"(doing|faring|performing|getting on)\b|"
                                # "what FP64 MaxFlops do both the DGX-2 and Mini Summit reach", "does Yme reach enough
                                # ... to keep up with the DGX-2"
                                r"\bboth (the )?[\w' -]{1,30} and\b|\b(keep|keeps|keeping) up with\b|"
                                # "what is the gap between the DGX-2 and Yme in FP64 MaxFlops"
                                r"\b(gap|difference|delta|distance|margin) (is there |lies )?(between|separating)\b|"
                                # "what does the DGX-2 give ... as opposed to Yme", "how fast do Yme and Mini Summit
                                # run ...": the other machine as the alternative, or both in one manner question
                                + _ALTERNATIVE.pattern + "|"
                                + r"\bhow (fast|quick|quickly|well) (do|does|did|can) [\w' -]{1,30} and [\w' -]{1,30}\b")
# "nominal aggregate nvlink bw per gpu": a figure summed over a device's links, which the data stores as a figure
# of the machine, not one link's rate
_SUMMED_OVER_LINKS = re.compile(r"\b(aggregate|total|combined|summed|sum|per (gpu|device|ipu|node|socket))\b")
# slots that name something measured, or a part of the machine: with any of them a link's name is no longer a
# question about the link's own rate
_MEASURED_BY_NAME = ("operation", "app", "src", "dst", "msg_bytes", "condition", "count", "aggregate", "compare_with",
                     "library", "precision", "direction")
# a value stated of one machine and asked of another by an elided clause ("yme gets high fp64 max flops on gpu three but
# does mini summit on gpu one")
_ELIDED_VALUE = re.compile(r"\b(gets?|reach(es)?|hits?|achieves?|scores?|delivers?|sustains?|manages?|posts?) "
                           r".{3,80}? but (does|do|did|can|will) ")
# a comparative and its "than" with the measure between ("a lower cuda-samples P2P-enabled latency from GPU0 to GPU1
# than Yme"); read as a comparison only where two machines are named
_COMPARATIVE_ACROSS = re.compile(r"\b(faster|slower|quicker|better|worse|higher|lower|greater|bigger|smaller|larger) "
                                 r"([\w/'’-]+ ){1,12}(than|then)\b")
# the pair at an extreme, named as such ("the slowest pair", "the fastest GPU pair")
_THE_EXTREME_PAIR = re.compile(r"\bthe (slowest|fastest|best|worst|highest|lowest|quickest)( [\w-]+){0,2} pair\b")
# a copy set against another machine's ("is Yme's GPU2-to-GPU3 copy faster than the same copy on the DGX-2")
_COPY_COMPARED = re.compile(r"\b(faster|slower|quicker|better|worse|higher|lower) (than|then)\b")
# links set against each other by their speed ("fatter peer links than", "faster NVLinks than")
_LINKS_COMPARED = re.compile(r"\b(fatter|faster|wider|thicker|beefier|quicker|slower|thinner|narrower|better) "
                             r"([\w-]+ ){0,2}(links?|nvlinks?|interconnects?|pipes?|connections?) (than|then)\b")
# words of a curve over counts ("how does it scale", "up to 64 nodes", "as we add GPUs")
# "hanging node overhead over node(s)": the count axis named at the end of a question (_TREND, _OVER_COUNTS_AT_END)
_OVER_COUNTS_LAST = r"over (the )?(gpu|node|core|rank|ipu|tile|process)(s|es)?( counts?)? ?[?.]?$"
_TREND = re.compile(r"\b(scal\w*\b(?! efficiency)|curve|trend|plot|(?<!call - )(?<!call-)(?<!call )graph|chart|grows?|growth|increas\w*|decreas\w*|change\w*|"
                    r"vs\.?|versus|against|up to|as (we|you|i|they|the)|per (additional|extra)|each (additional|extra)|"
                    r"linear\w*|ideal|doubl\w*|from \d+|over (the )?(counts?|number)|"
                    # "hanging node overhead over node" (a transcript's singular): the axis at the end of the question
                    + _OVER_COUNTS_LAST + "|"
                    # "as GPUs are added", "as more nodes join": the count grows, said in the passive
                    r"as (more |extra |additional )?(gpus|nodes|ranks|processes|cores|ipus|tiles|devices|workers) "
                    r"(are|get|were|got) (added|used|thrown in)|as (more |extra )?(gpus|nodes|ranks|processes|cores|"
                    r"ipus|devices|workers) (join|come in)|"
                    r"as (the )?(number of )?(gpus|nodes|ranks|processes|cores|ipus|tiles|devices|workers)( count)? "
                    r"(go|goes|went) up)\b")
# "32 vs 56 cores", "from 2 to 12 gpus": two counts, the ends of a curve over counts
_OVER_COUNTS_AT_END = re.compile(r"\b" + _OVER_COUNTS_LAST)
# two counts joined by "and" / "or" / "vs", each may bring its own "on" / "with" and counted word
_COUNTED_WORD = r"(gpus?|g p us?|ipus?|i p us?|nodes?|cores?|ranks?|processes|threads?|tiles?)"
_SMALL_NUMBER = r"(one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|thirty two|sixty four)"
_AT_TWO_COUNTS = re.compile(rf"\b(on|with|at|using|for) (\d+|{_SMALL_NUMBER})(( - | |-){_COUNTED_WORD})? (and|or|vs\.?|"
                            rf"versus)( then| the)? ((on|with|at|using|for) )?(\d+|{_SMALL_NUMBER})( - | |-)"
                            rf"{_COUNTED_WORD}\b|"
                            # "one GPU against 2 GPUs": two counts, each with its noun, set against each other
                            rf"\b(\d+|{_SMALL_NUMBER}) {_COUNTED_WORD} (against|vs\.?|versus|compared (with|to)) "
                            rf"(\d+|{_SMALL_NUMBER}) {_COUNTED_WORD}\b")
_TWO_COUNTS = re.compile(r"\b\d+\s*(vs\.?|versus|to|and|or|->|-)( then)?\s*\d+\s*(gpus?|nodes?|cores?|ranks?|ipus?|"
                         r"tiles?|processes|threads?)\b")
# measures only a benchmark gives: no connection graph holds them
_MEASURED_ONLY = {"busbw", "algbw", "time", "flops", "throughput", "speedup", "efficiency", "slowdown"}
_SAID_NUMBER = (r"(\d+|one|two|three|four|five|six|eight|ten|twelve|sixteen|twenty|thirty|forty|fifty|sixty|seventy|"
                r"eighty|ninety|(a |one )?(hundred|thousand))")
_COUNT_RANGE = re.compile(rf"\bfrom {_SAID_NUMBER}( \w+)?( \( ?[^()]{{0,30}} ?\))? (up )?(to|till|until|through) "
                          rf"{_SAID_NUMBER}\b")
# the count a run was made on ("on 2 gpus", "with 4 ranks"), not a count the curve goes past
_ON_A_COUNT = re.compile(r"\b(on|with|using|across) (\d+|one|two|three|four|six|eight|twelve|sixteen) (gpus?|ipus?|"
                         r"ranks?|nodes?)\b")
# "lassen amoebanet-f416 speedup enough gpus to flatten": how many devices it takes, read from the curve over counts
_ENOUGH_DEVICES = re.compile(r"\b(enough|sufficient) (\w+ )?(gpus|ipus|nodes|ranks|tiles|cores)\b")
# "is sixty four megabytes a big enough message for ... to peak": whether the curve over sizes has peaked by then
_BIG_ENOUGH = re.compile(r"\b(big|large|long) enough\b.{0,80}\b(peak|saturate|level off|max out|top out|plateau)\b")
_LEVELS_OFF = re.compile(r"\b(stays?|remains?|stay(s|ed)?|keeps?) (flat|constant|level|steady)\b|\bsaturat\w*\b(?! (the|a|its|that|this) (\w+ )?(link|links|bus|interconnect|fabric|socket "
                         r"link|connection))|\bplateau\w*|\blevels? off\b|\bflattens?( out)?\b|\bstops? (growing|rising|"
                         r"increasing|improving)\b|\bkeeps? (growing|rising|increasing|improving|climbing)\b|"
                         # "still rising at 16 gpus?", "does it still grow past 1 GiB": whether the curve goes on up
                         r"\bstill (grow|ris|increas|improv|climb)\w*\b|"
                         # "yme fft sp flops already flat at 2 gpus"
                         r"\b(already|still|is|are|goes|gone|go|going) flat\b|\bflat (at|by|after|from|beyond|past)\b")
# where a curve falls away ("does the sendrecv busbw tank below 64 KB", "... or does it choke?"): a curve where a bound
# or a count is said with it ("tank at 128 bytes" asks for the value there)
_FALLS_AWAY = re.compile(r"\b(tank|choke|collapse|nosedive|crater)(s|d)?\b|\b(drop|fall)s? off\b")
# a curve over a count said with its growth ("keep growing with all tiles busy", "as more gpus join")
_CHANGES_WITH_COUNT = re.compile(r"\b(shrinks?|shrinking|shrank|drops?|falls?|declines?|decreases?|grows?|rises?|"
                                 r"increases?|changes?|scales?|varies|goes (down|up)) (\w+ )?(with|as|over|across) "
                                 r"(the |a )?(?P<part>gpu|node|rank|ipu|core|process|thread|tile)s? counts?\b")
_GROWS_WITH_COUNT = re.compile(r"\b(with|as|across|over) (all|more|the|extra|additional)?( the)? ?"
                               r"(tiles|gpus|nodes|ranks|ipus|cores|processes|threads)\b")
# the words that leave a range open above its lower end ("from 1 MiB upward", "from 8 GPUs onward")
_NO_UPPER_END = r"upwards?|onwards?|and up|and above|and beyond"
# a size said as where a curve starts: "from 4e5 bytes upward", "from 1 MB on"
_FROM_A_SIZE_ON = re.compile(r"\bfrom \d[\w.,]*( ?(bytes?|[kmgt]i?b|kilobytes?|megabytes?|gigabytes?))? ("
                             + _NO_UPPER_END + r")\b|\bfrom \d[\w.,]*( ?(bytes?|[kmgt]i?b))? on\s*[?.!]?\s*$|"
                             # "latency as the message grows from one byte": growing from a size, no end said
                             r"\b(grows?|growing|increases?|increasing|goes up|rises?|rising) from (?P<grown>(\d[\w.,]*|"
                             r"an?|one|two|four|eight|sixteen|thirty two|sixty four)"
                             r"( ?(bytes?|[kmgt]i?b|kilobytes?|megabytes?|gigabytes?))?)(?![\w.,])"
                             r"(?! ?(bytes?|[kmgt]i?b|kilobytes?|megabytes?|gigabytes?|to|through|until|till|-|->)\b)")
# a count with a lower end only ("from 8 GPUs onward", "from two g p us upward", "from 4 nodes and up")
_FROM_A_COUNT_ON = re.compile(r"\bfrom (?P<n>\d+|one|two|three|four|five|six|eight|sixteen|thirty two) (gpus?|g p us?|"
                              r"ipus?|i p us?|nodes?|ranks?|cores?|tiles?|process(es)?) (up|" + _NO_UPPER_END +
                              r"|or more|on)\b")
# from one device to more: "going from one IPU to more", "from a single node to several"
_FROM_ONE_TO_MORE = re.compile(r"\bfrom (one|a single|single|1|two|2) (?P<kind>gpu|ipu|node|core|rank|tile|g p u|i p u)s? "
                               r"(up )?(to|onto) (more|several|many|multiple|all( of them)?|the rest|bigger counts)\b")
# two counts as a range, the counted word once after them ("2-4 gpus", "8 to 64 nodes")
_COUNT_SPAN_ONLY = re.compile(r"\b\d+\s*(to|-|->|through)\s*\d+\s*(gpus?|ipus?|nodes?|ranks?|processes|cores?)\b")
# a count said as the end of a range: "up to 16 gpus", "all the way to 2048 gpus"
_UP_TO_A_COUNT = re.compile(r"\b(up|all the way( up)?|the whole way( up)?) to \d+ "
                            r"(gpus|ipus|nodes|ranks|cores|processes|tiles)\b")
# "which gpu count gives the best ...": the count where a curve peaks
_BEST_COUNT = re.compile(r"\b(which|what) (?P<kind>gpu|ipu|node|core|rank|tile|process|g p u|i p u) count (gives|yields|"
                         r"reaches|has|brings|achieves|delivers|is) (the )?([\w'’-]+ ){0,3}?(best|highest|top|peak|"
                         r"fastest|lowest|most)\b")
# a measure's curve over how many parts there are ("change with the number of cores"): the count is the axis, not a
# part's stated figure
_WITH_THE_NUMBER_OF = re.compile(r"\b(with|as|over|against|across|by) (the |a )?(number|count) of\b|"
                                 # "how does broadcasting change with the tile count"
                                 r"\b(change|changes|vary|varies|grow|grows|scale|scales) (with|as|over|by) (the )?"
                                 r"(tile|gpu|ipu|node|core|rank|process|g p u|i p u) counts?\b")
# machines set against each other in words ("how do the NTNU desktops stack up on ..."), no curve over counts
_STACK_UP = re.compile(r"\b(stacks? up|compare[sd]?|side by side|measure up|fare)\b")
# an order asked for: "sort the DGX-2 GPUs by FP32 MaxFlops", "ordered by busbw", "from highest to lowest"
_SORT_ORDER = re.compile(r"^(please |can you |could you )?(sort|order|rank)\b(?! (benchmark|test|kernel|rate|time|"
                         r"throughput|bandwidth|results?)\b)(?=.{0,80}\bby\b)|\b(sorted|ordered|ranked) by\b|"
                         r"\bfrom (highest|lowest|best|worst|fastest|slowest) to (highest|lowest|best|worst|fastest|"
                         r"slowest)\b|\bin (ascending|descending) order\b")
# how a machine is built, in plain words ("how is X put together", "how is it laid out")
_PUT_TOGETHER = re.compile(r"\bhow (is|are|was|were) (\w[\w'-]* ){0,8}(put together|built( up)?|laid out|organi[sz]ed|"
                           r"structured|assembled|architected|arranged)\b")
_WIRED = re.compile(r"\b(wired|cabled|hooked up|interconnected|connected together|linked together)\b|"
                    # "which GPUs does GPU3 link to over NVLink1", heard "... linked over NVLink 1": its neighbours
                    r"\b(which|what) (\w+ ){0,2}(gpus|ipus|cpus|devices|cards|nodes) (does|do|is|are) (\w+ ){1,8}?"
                    r"(link|links|linked|connect|connects|connected)( up)? (to|over|with|via)\b|"
                    # "which pairwise NVLink1 links join the GPUs of the DGX-1 P100": the links themselves
                    r"\b(which|what) ([\w-]+ ){0,3}(links|connections|cables) (join|connect|tie|couple|link)s?\b")
_PAST_A_SIZE = re.compile(r"\b(past|beyond|after|above|from)( the)? \S*\d")
_BEFORE_A_SIZE = re.compile(r"\b(before|by|until|till|below|under|up to|short of|ahead of)( the)? \S*\d")
# "how much does congestion control help", "the benefit of CC": what congestion control changes is asked
_CC_HELPS = re.compile(r"\b(congestion control|cc)\b.{0,40}\b(help\w*|benefit\w*|gain\w*|improv\w*|buy|matter\w*|"
                       r"do(es)? for|chang\w*|effect\w*|impact\w*)\b|\b(help|benefit|gain|improvement|effect|impact) "
                       r"(of|from) (turning on |enabling )?(congestion control|cc)\b|"
                       # "azure incompact3d cc on vs off", "with and without congestion control": both settings
                       r"\b(congestion control|c ?c)( (is|was))? (on|enabled)( (vs\.?|versus|and|or|against|compared "
                       r"(to|with)) (\w+ )?(off|disabled))\b|\bwith and without (congestion control|cc)\b|"
                       # "what happens to lammps when you turn congestion control on", "how much of the extra time
                       # does congestion control win back": what switching it does
                       r"\bwhat happens\b.{0,60}\b(turn|switch|flip|enable|disable)\w* (on |off )?(the )?(congestion control|"
                       r"cc)\b|\b(congestion control|cc)\b.{0,30}\b(wins?|gets?|claws?|buys?) (\w+ )?back\b")
_INVENTORY = re.compile(r"\b(traces|profiles|ops|operations|metrics|benchmarks|sizes|measurements|datasets|runs|"
                        r"collectives|apps|applications?|kernels)\b(\W+\w+){0,8}\W+(do you have|have you got|"
                        r"(are|is) (there|loaded|stored|available|in (here|there|the (database|db)))|loaded|stored|"
                        r"available|on (file|record)|(are|were|is|was) (in|covered (in|by)|part of|used in|studied in) the "
                        r"(\S+ ){0,3}(study|paper|papers|experiments?|dataset|data|thesis))\b|"
                        # "h200 pair trace runs in the database": the kind said, then where it is kept
                        r"\b(traces|profiles|benchmarks|measurements|datasets|runs) in (the )?(database|db)\b")
# "what does Lassen hold in the way of speedup measurements", "what is there in the way of data for yme"
_HELD_IN_THE_WAY_OF = re.compile(r"\b(hold|holds|store|stores|keep|keeps|have|has|there|stored|loaded|on file) "
                                 r"(\w+ ){0,3}(in|by) the way of\b|\bin the way of (\w+ ){0,3}(measurements|data|"
                                 r"numbers|results|runs|records|rows|benchmarks|figures|values)\b")
# "with its g p us spread across both numa nodes": a machine's devices said with no number
_ITS_DEVICES = re.compile(r"\b(its|their|all its|all of its|all their) (g p us|gpus|ipus|i p us|nodes|cores|cards)\b")
# "in its specification", "the datasheet", "the specs": the figure a spec sheet states
_SPECIFICATION = re.compile(r"\b(specification|specifications|specs|datasheet|data sheet)\b")
# the letter before a GPU model's number ("p one hundred", "v one hundred", "a one hundred", "h two hundred")
_MODEL_LETTERS = {"p", "v", "a", "h", "k", "t", "b"}
# "N variant", "the T version": a kernel's variant the tagger read as a machine's name
_A_VARIANT = re.compile(r"^(the )?\w{1,3} (variant|version|flavou?r)s?$", re.I)
# "a few hundred GPUs", "several thousand cores": a vague number, no count
_VAGUE_HUNDREDS = re.compile(r"\b(a few|several|a couple( of)?|some|many) (hundred|thousand)\b|\b(hundreds|thousands) of\b")
# "two bars", "the three values": things of a chart or an answer counted, not devices
_NOT_COUNTED = re.compile(r"\b(two|three|four|five|both|\d+) (bars?|values?|numbers?|lines?|curves?|points?|columns?|"
                          r"figures?|results?|readings?|answers?|cells?)\b")
# "from a GPU on one NUMA node", "copies into an IPU": a device as a copy's end ("a single GPU", "one GPU" count)
_FROM_A_DEVICE = re.compile(r"\b(from|to|into|out of|onto) an? (gpu|ipu|device|card|accelerator)\b")
_ONE_DEVICE = re.compile(r"\b(one|1|single|lone) (gpu|ipu|device|card|accelerator)\b|\ba (single|lone) ")
# "from the smallest transfer up to the largest", "the largest message down to the smallest": both ends of the sizes
_BOTH_SIZE_ENDS = re.compile(r"\b(smallest|minimum|tiniest)\b.{0,60}\b(largest|maximum|biggest)\b|"
                             r"\b(largest|maximum|biggest)\b.{0,60}\b(smallest|minimum|tiniest)\b")
# "the spec sheet says 672 GB/s", "spec sheets put the GTX 980 at 4.9 TFLOPS", "NVIDIA's datasheet puts ...": a stated
# figure quoted by the asker
_FIGURE_STATED = re.compile(r"\b(spec|specs|spec sheets?|specification|datasheets?|data sheets?)( '?s)? (says?|puts?|claims?|"
                            r"lists?|quotes?|gives?|states?|rates?|advertises?)\b")
# "what did MaxFlops actually measure", "what was measured", "what did shoc get": the measured value asked for
_MEASURED_ASKED = re.compile(r"\b(actually|really|in practice|measured?|what did \w+( \w+)? (get|reach|achieve|hit|see|"
                             r"measure|record|report))\b")
# "what percentage of it", "what fraction of that rate": a share of something named before
_SHARE_OF_IT = re.compile(r"\b(percent(age)?|fraction|share|proportion)( \w+)? of (it|that|this|that rate|this rate|"
                          r"the rate|that figure|this figure)\b")
# the runs or datasets of a machine asked for as keywords ("gtx980 shoc/scope/tartan runs?")
_RUNS_ASKED = re.compile(r"\b(runs|datasets|data sets|benchmarks run|tools)\s*\??\s*$")
# the size of a pipe in plain words ("how fat is the X-Bus pipe", "how wide is the link"): its rate
_PIPE_SIZE = re.compile(r"\bhow (fat|wide|big|thick|broad|large|beefy) (is|are) (the |that |this |its |their )?(\S+ ){0,3}"
                        r"(pipes?|links?|connections?|interconnects?|lanes?|buses|bus)\b")
# a figure a source lists ("what memory bandwidth does the spec sheet list", "which latency does the paper list")
_FIGURE_A_SOURCE_LISTS = re.compile(r"\b(what|which|how much) ([\w-]+ ){1,3}(does|do|did) (the |its |their |a |an )?"
                                    r"([\w'-]+ ){0,3}(list|state|quote|print|report|give)\b")
# one machine's figure as a multiple of another's ("how many times greater is ... than ...")
_TIMES_MORE_THAN = re.compile(r"\b(how many|what multiple|\d+(\.\d+)?) times (higher|greater|larger|bigger|more|faster|"
                              r"lower|smaller|slower|better|worse)\b.{0,120}\bthan\b")
# a cut of the time named as such ("runtime reduction"), not a reduction collective
_TIME_REDUCTION = re.compile(r"\b(run ?-?time|time|execution time|wall ?-?(clock )?time|walltime|compute time) "
                             r"reductions?\b")
# a time said to fall, as a verb ("how does the QTC kernel time drop as the GPU count rises")
# a library or setting said to improve a run, asked how much ("how much does Hy-Fi improve ... training")
_HOW_MUCH_IMPROVES = re.compile(r"\bhow much (does|do|did|would|will) .{1,60}\bimproves?\b")
_TIME_FALLS = re.compile(r"\b(time|runtime|run time) (drops?|falls?|shrinks?|goes down) (as|when|while|with|once|if)\b|"
                         r"\b(do|does|did|will) (\S+ ){0,6}(time|runtime) (drop|fall|shrink)\b")
# congestion said as what slows a run down ("how much does congestion slow down VASP")
_CONGESTION_SLOWS = re.compile(r"\b(congest\w*|contention|incast)\b.{0,30}\b(slow\w*|hurt\w*|degrad\w*)\b|"
                               r"\bslow(ed|s)? down by (congest\w*|contention)\b")
# words of a link itself or its rating ("links", "peak", "nominal"), beside a mode said as "NVLink-mode"
# (an efficiency named is one more such word, unless the machine stores that efficiency for a run)
_LINK_OR_RATE_WORD = re.compile(r"\b(links?|peak|nominal|rated|rating|theoretical|capacity|utili[sz]\w*|percent\w*|"
                                r"fraction|share|how close|how near|how much of)\b|%")
# every pair of a machine's devices ("the unified memory latency between the g p us of yme")
_BETWEEN_ALL_DEVICES = re.compile(r"\bbetween (the|all|all the|its|every|each of the) (?!two |both |2 )(\w+ ){0,2}"
                                  r"(gpus|g p us|ipus|"
                                  r"i p us|devices|cards|chips)\b|"
                                  # "... bw all sender and receiver gpus": every sender against every receiver
                                  r"\b(all|every|each) (sender|source|sending) (and|to|x|by) (receiver|destination|"
                                  r"receiving|target) (gpus|g p us|ipus|i p us|devices|cards)\b")
# "reduce" as what something does to a measure ("how much does congestion control reduce the impact")
_REDUCE_AS_A_VERB = re.compile(r"\b(does|do|did|will|would|can|could|to) (\S+ ){0,5}?reduce (the|its|their)\b")
# how much a measure changes ("how much does the bandwidth drop", "how much higher is the latency")
_HOW_MUCH_CHANGES = re.compile(r"\bhow much (\w+ ){0,8}(drops?|falls?|grows?|rises?|increases?|decreases?|degrades?|"
                               r"suffers?|changes?|worse|lower|higher|longer|shorter|slower)\b")
# tiles sending at once: the load on a pair ("the more tiles send together", "while the other tiles flood the links")
_TILES_SEND_AT_ONCE = re.compile(r"\b(more|other|all|many|rest of the) tiles (\w+ ){0,2}(send\w*|transmit\w*|talk\w*|"
                                 r"communicat\w*|flood\w*|saturat\w*|hammer\w*)\b|\btiles (send|talk|transmit|"
                                 r"communicate)\w* (together|at once|simultaneously|concurrently|all at once)\b")
# the size of a cut asked for ("by how much does X cut the time", "how much does compression lower the latency")
_HOW_MUCH_CUT = re.compile(r"\bby how much\b|\bhow much (\w+ ){0,6}(cut|cuts|reduces?|lowers?|shaves?|saves?|"
                           r"shortens?)\b")
# the size at which an extreme is reached ("at which message size does it peak", "which size gives the highest"), and
# words that ask for the curve itself
# words of a grid of endpoint pairs
_SIZE_CURVE_ASKED = re.compile(r"\b(how (does|do|did)|chang\w*|grows?|scal\w*|var(y|ies)|curve|plot|sweep|within|first|"
                               r"as (the )?sizes?)\b")
# DeepBench's two all-reduce programs by the word their names keep ("deepbench single allreduce", "deep bench mpi")
_DEEPBENCH_PROCESSES = re.compile(r"\b(?P<kind>single|mpi|multi)[- ]?process(es)? (version of |variant of )?(the )?"
                                  r"deep ?bench\b|\bdeep ?bench(?:'s)? (\w+ ){0,3}?(?P<kind2>single|mpi|multi)[- ]?"
                                  r"process")
_DEEPBENCH_KIND = re.compile(r"\bdeep ?bench(?:'s)? (?P<kind>single|mpi)\b(?! (gpu|node|rank|process(or)?)s?\b)")
# "how much of the n v link rate does tartan get": a share of a link's own rate, in plain words
_HOW_MUCH_OF_A_LINK = re.compile(r"\bhow much of (the |its |their |an? )?(?P<link>n ?v ?links?|pcie|p c i e|upi|qpi|"
                                 r"x-?bus|ipu-?links?|links?|interconnect)( ?'s)? (rate|speed|peak|bandwidth|capacity)\b")
# "pinned d2h % of pcie", "what fraction of its NVLink": a share of a kind of link named
_SHARE_OF_A_LINK = re.compile(r"(%|\bpercent(age)?|\bfraction|\bshare|\bproportion) of (the |its |their |a )?(pcie|"
                              r"pci express|p c i e|nv ?links?|n v links?|upi|qpi|x-?bus|ipu-?links?|infiniband|ib|"
                              r"slingshot|links?)( ?\d| (one|two|three|four|gen ?\d))?\b")
# "what percentage of the link rate", "how close to the link's speed": a share of a link's own rate
_OF_LINK_RATE = re.compile(r"\b(percent(age)?|fraction|share|how close)\b.{0,20}\b(the |its |their )?(links?|line|"
                           r"port|wire)( ?'s)? (rate|speed)\b")
# "CC on next to CC off", "congestion control off versus on": both settings of the switch
_CC_ON_AND_OFF = re.compile(r"\b(cc|congestion control)[ -_]?(on|enabled)\b.{0,60}\b(cc|congestion control)?[ -_]?(off|"
                            r"disabled)\b|\b(cc|congestion control)[ -_]?(off|disabled)\b.{0,60}\b(cc|congestion "
                            r"control)?[ -_]?(on|enabled)\b")
# a question that asks for a value: "what d2h bandwidth was measured", "how much ...", "give me ..." (not "is there
# anything besides ...", "were the numbers taken with writes or reads")
_VALUE_ASKED = re.compile(r"(what|how (much|many|fast|high|low|long|big)|give|show|tell)\b")
# "..., and what are they?", "and their values": the values asked with the listing
_AND_THEIR_VALUES = re.compile(r"\b(and )?(what are (they|those|the values|their values)|(and )?their values|"
                               r"with (their|the) values)\b")
# "lassen node components", "the azure infiniband network": a machine's parts and links
_PARTS_WORD = re.compile(r"\b(components?|parts|network|netwrok|fabric|interconnects?|hardware layout)\b")
# "what produced the h200 data", "which tools generated the yme numbers": the tools behind a machine's rows
_PRODUCED_THE_DATA = re.compile(r"\b(what|which (tools?|programs?|benchmarks?|software))( \w+)? (produced|generated|"
                                r"made|created|wrote|collected) (the |its |their |this |these )?(\S+ ){0,3}(data|numbers|"
                                r"results|measurements|files|logs)\b")
# "h200x2 inventory", "the catalogue for the DGX-2": the word for what is stored
_INVENTORY_ASKED = re.compile(r"\b(inventory|inventories|catalog(ue)?s?)\b|\bwhat( ?'s| is| do you have| have you got)? "
                              r"(on file|on record)\b|"
                              # "what has the dgx-1 p100 run": what the machine ran, which its runs list
                              r"^what (has|have|did) (the )?[\w -]{1,40}? (run|ran|measured|benchmarked|recorded)\W*$|"
                              # "what runs come from the nccl tests on the h200 pair": the runs stored, by their tool
                              r"\b(what|which) (\w+ )?runs (come|came|are|were) (from|made by|produced by)\b|"
                              # "what is the source of the h200 trace files": where a data set's files come from
                              r"\b(source|sources|origin) of (the |its |their |these |those )?([\w'-]+ ){0,5}(trace|"
                              r"profile|profiler|log|output|data|result)s? files?\b")
# "which pytorch trace is loaded": one of a kind asked for by which, as the speech model often writes the plural
_INVENTORY_ONE = re.compile(r"\b(which|what) (\w+ ){0,2}(trace|profile|dataset|benchmark)s?\b(\W+\w+){0,4}?\W+"
                            r"(is|are|was|were) (loaded|stored|available|there|in (the )?(database|db))\b")
_PROGRAMMING_MODEL = re.compile(r"cuda|kokkos|openmp|openacc|sycl|hip|opencl|raja|python|c\+\+|fortran|julia|numba|"
                                r"cupy|triton|thrust|oneapi|dpc\+\+|mpi|pytorch|tensorflow|jax")
_TIME_CATEGORY = re.compile(r"\b(compute|computation|communication|comms?|memory|memcpy|idle|overlap)\b")
# the tiles that make the load, counted ("when all 19456 tiles are sending", "across all 1216 tiles")
_ALL_TILES_SENDING = re.compile(r"\b(all|across all( the)?) \d+ tiles\b|\b\d+ tiles (are |were |all )?(sending|send|"
                                r"transmitting|communicating|talking|busy|active)\b")
# "what latency does the ipu system give / see / show ...": a value asked for, not a change
_WHAT_IT_GIVES = re.compile(r"\bwhat ([\w-]+ ){1,3}(does|do) ([\w-]+ ){1,6}(give|show|see|get|deliver|reach)\b")
# counts of what makes a load, not of the ends of a transfer
_LOAD_COUNTS = ("tiles", "threads")
_UNDER_SOME_LOAD = re.compile(r"\bunder (heavy|high|full|peak|maximum|max|some|real|a heavy|a high|a full|saturating|"
                              r"concurrent|background|network|link) (\w+ )?load\b|\bheavily loaded\b")
# a share of a link's own rate or bandwidth ("% of link rate", "what fraction of the NVSwitch bandwidth")
_OF_A_LINKS_RATE = re.compile(r"(\b(fraction|share|percent|percentage|proportion|portion)|%) of "
                              r"(the |its |their |an? )?(\S+ ){1,4}(bandwidth|bw|rate|capacity|speed)\b|"
                              # "what percent of InfiniBand EDR does Longhorn reach": the link named for its rate
                              r"(\b(fraction|share|percent|percentage|proportion|portion)|%) of (the |its |their |an? )?"
                              r"(\S+ ){1,3}(does|do|did|can) (\S+ ){1,4}(reach|get|hit|achieve|attain|use|sustain)\b|"
                              # "mini summit write-combined h2d gpu0 vs nvlink2 rate": a copy set against a link's rate
                              r"\b(vs\.?|versus|against|compared (to|with)) (the |its )?(nv ?link\d?|pcie\s?\d?|x-?bus|"
                              r"infiniband|upi|ipu-?link)( \w+)? (rate|peak|speed|bandwidth|bw)\b")
_SHARE_AS_VERB = re.compile(r"\b(share|shares|sharing) (?!of\b)(an?|the|one|their|its|same|a single|\w+ )?(same )?(\S+ )?"
                            r"(links?|nvlinks?|envy links?|x-?bus|switch(es)?|bus(es)?|bricks?|connections?|sockets?|"
                            r"cpus?|hosts?|nics?|ports?|root complex\w*)\b|\b(share|shares|sharing) (\S+ )?with\b")
_SHARES_A_LINK = re.compile(r"\b(which|what) (\w+ ){0,2}(gpus|ipus|cpus|devices|cards|nodes) "
                            r"(\w+ ){0,8}(share|are (directly )?(connected|linked|attached|wired)|(sit|hang|are) "
                            r"(behind|under|off|on)) (an?|the|one|\w+ )?"
                            r"(same )?(\w+ )?(links?|nvlinks?|envy links?|switch(es)?|bus(es)?|bricks?|connections?|sockets?|to)\b"
                            # "which pairs get 2 links": pairs by the number of links joining them
                            r"|\b(which|what) (\w+ ){0,2}pairs (\w+ ){0,3}(get|have|share|use|are joined by|are "
                            r"connected by) (one|two|three|four|a single|single|double|dual|\d{1,2}) (\w+ )?(links?|nvlinks?|"
                            r"connections?|bricks?)\b")
_PAIRS_BY_LINKS = re.compile(r"\bpairs\b(\s+[\w-]+){0,6}?\s+(get|have|has|share|use|are joined by|are connected by|"
                             r"with)\s+(?P<n>one|two|three|four|a single|single|double|dual|\d{1,2})\s+(\w+\s+)?(links?|nvlinks?|"
                             r"connections?|bricks?)\b")
_PAIRS_WITHOUT_LINK = re.compile(r"\bpairs\b(\s+[\w-]+){0,6}?\s+(have no|has no|with no|without|lack|lacking|"
                                 r"(are|is) not (joined|connected|linked) by|(aren't|isn't) (joined|connected|linked) "
                                 r"by|not (joined|connected|linked) by)\s+(an? |any )?(direct )?(\w+\s+)?"
                                 r"(links?|nvlinks?|connections?)\b")
_LINK_COUNT_WORDS = {"one": 1, "a single": 1, "single": 1, "two": 2, "double": 2, "dual": 2, "three": 3, "four": 4}
_EXISTS = re.compile(r"\bany\b.{0,40}\bat all\b|^(is|are) there\b|\bis there any\b|\bare there any\b")
_WHERE_PEAK = re.compile(r"\b(where|at what (msg |message |transfer )?size|at which (msg |message |transfer )?size)"
                         r"\b[^?]{0,60}\bpeaks?\b")
_ASKS_SIZE = re.compile(r"\b(smallest|largest|biggest|minimum|maximum|which|what|from what|at what)\s+"
                        r"((msg|message|transfer|copy|buffer) )?(size|transfer|message|copy)\b", re.I)
_RATIO_WORD = re.compile(r"\b(efficiency|speedup|slowdown)\b")


def rate_gbps(v: float, u: str) -> float:
    """A rate in GB/s from a value and its unit as printed (one of _RATE_UNIT): upper-case B is bytes and
    lower-case b bits, as networks print them ("100 Gb/s" and "100 Gbps" are 12.5 GB/s); all lower case, "gb/s" is
    taken as the GB/s every benchmark here prints."""
    low = u.lower()
    bits = "bit" in low or (u[1] == "b" and (u[0].isupper() or low.endswith("bps")))
    return v * (_BIT_UNITS if bits else _RATE_UNITS)[low]


def drop_numbers_read_in(slots: dict[str, Any], bounds, words: tuple[int, int]) -> None:
    """The tagger's counts and sizes inside a span a rule read as something else (a line to cross, a nominal):
    "under 20 us" is not 20 of anything."""
    at, to = words
    for slot, a, b in bounds:
        first = min(x for sl, x, _ in bounds if sl == slot)
        if a < to and b > at and slot in ("count", "count_kind", "msg_bytes") and a == first:
            # (only the value read first is the slot's: "at 256MiB ... under 9 GB/s" keeps the 256 MiB)
            slots.pop(slot, None)


def threshold_in(words: list[str]) -> Optional[dict[str, Any]]:
    """The line a value should cross, in the contract's units (GB/s, us, % or x for a speedup): {"op": ">" or
    "<", "value", "unit", "words": (first, last)}; rates read by rate_gbps."""
    text = " ".join(words)
    m = _THRESHOLD.search(text)
    if not m:
        return spoken_threshold(words)
    first = text[:m.start("v")].count(" ")          # the words of the number and its unit
    last = first + text[m.start("v"):m.end("u")].count(" ") + 1
    u, v = m.group("u"), float(m.group("v"))
    low = u.lower()
    if low in ("%", "percent"):
        value, unit = v, "%"
    elif low in ("x", "times"):
        value, unit = v, "x"
    elif low in _TIME_UNITS:
        value, unit = v * _TIME_UNITS[low], "us"
    else:
        value, unit = rate_gbps(v, u), "GB/s"
    op = m.group("sym")[0] if m.group("sym") else _line_op(m.group("op"))    # "busbw > 100 GB/s"
    return {"op": op, "value": round(value, 6), "unit": unit, "words": (first, last)}


def _line_op(said: str) -> str:
    """"<" for the words of a line from below ("below", "under", "less than", "within"), ">" otherwise."""
    said = said.lower()
    return "<" if said.split()[-1] in ("below", "under", "than", "within") and \
        not said.startswith(("more", "greater", "longer")) else ">"


_THRESHOLD_OP = re.compile(r"(?:" + _THRESHOLD_OPS + r")$", re.I)
# a unit said in words after a spoken number ("three hundred gigabytes per second", "seventy percent")
_SPOKEN_UNITS = ((("gigabytes", "gigabyte", "gigs", "gig"), "GB/s"), (("megabytes", "megabyte", "megs"), "MB/s"),
                 (("terabytes", "terabyte"), "TB/s"))
_PER_SECOND_WORDS = (("per", "second"), ("a", "second"), ("per", "sec"))
_SPOKEN_TIME_UNITS = {"microsecond", "microseconds", "millisecond", "milliseconds"}   # (keys of _TIME_UNITS)


def spoken_threshold(words: list[str]) -> Optional[dict[str, Any]]:
    """threshold_in for a line said in words, as a transcript has it: "go above three hundred gigabytes per second",
    "fall below seventy percent" (the number read by the vocabulary's number words, the unit spelt out)."""
    from nlu.vocab import norm_words
    lw = [w.lower() for w in words]
    for i in range(len(lw)):
        for k in (2, 1):
            if i + k > len(lw) or not _THRESHOLD_OP.match(" ".join(lw[i:i + k])):
                continue
            j = i + k
            # the longest run of words after the op that reads as one number ("three hundred")
            read = ((n, "".join(norm_words(" ".join(lw[j:j + n])))) for n in range(min(6, len(lw) - j), 0, -1))
            number = next(((n, t) for n, t in read if re.fullmatch(r"\d+(?:\.\d+)?", t)), None)
            if number is None:
                continue
            n, v = number[0], float(number[1])
            rest = lw[j + n:j + n + 3]
            unit = None
            if rest[:1] == ["percent"] or rest[:2] == ["per", "cent"]:
                value, unit, used = v, "%", 1 if rest[:1] == ["percent"] else 2
            elif rest[:1] and rest[0] in _SPOKEN_TIME_UNITS:
                value, unit, used = v * _TIME_UNITS[rest[0]], "us", 1
            else:
                for names, u in _SPOKEN_UNITS:
                    if rest[:1] and rest[0] in names and tuple(rest[1:3]) in _PER_SECOND_WORDS:
                        value, unit, used = rate_gbps(v, u), "GB/s", 3
            if unit is None:
                continue
            return {"op": _line_op(" ".join(lw[i:j])), "value": round(value, 6), "unit": unit,
                    "words": (j, j + n + used)}
    return None


def metric_by_unit(lw: list[str], unit: str) -> Optional[str]:
    """The metric a crossing line measures when the words name it beside the unit ("100 GB/s bus bandwidth")."""
    text = " ".join(lw)
    if unit == "GB/s":
        if re.search(r"\b(bus ?bandwidth|busbw|bus bw)\b", text):
            return "busbw"
        if re.search(r"\b(algbw|algorithm(ic)? bandwidth|alg bw)\b", text):
            return "algbw"
        return "bandwidth"
    return "latency" if re.search(r"\blaten", text) else "time"


# "against x8 Gen3", "relative to PCIe 3.0 x16", "as a percentage of 16 GB/s": a nominal the user gives
_AGAINST = r"(?:against|relative to|compared (?:to|with)|versus|vs\.?|of|out of)\s+(?:an?\s+|the\s+|its\s+)?" \
           r"(?:(?:nominal|theoretical|peak|rated|max(?:imum)?)\s+)?(?:(?:bandwidth|rate|speed)\s+)?(?:of\s+)?"
_GIVEN_RATE = re.compile(_AGAINST + r"(?P<v>\d+(?:\.\d+)?)\s*(?P<u>" + _RATE_UNIT + r")(?![\w/])", re.I)
_GIVEN_PCIE = re.compile(_AGAINST + r"(?:(?:pcie|pci-e|pci express)\s*)?(?:(?:gen\s*(?P<g1>\d)|(?P<g2>\d)\.0)\s*"
                         r"(?:pcie\s*)?x\s*(?P<w1>\d+)|x\s*(?P<w2>\d+)\s*(?:pcie\s*)?(?:gen\s*(?P<g3>\d)|"
                         r"(?P<g4>\d)\.0))\b", re.I)
# GB/s per lane and direction: transfer rate x line-code efficiency / 8 (8b/10b up to Gen2, 128b/130b for
# Gen3-5, 242/256 FLITs for Gen6)
PCIE_LANE_GBPS = {1: 2.5 * 8 / 10 / 8, 2: 5 * 8 / 10 / 8, 3: 8 * 128 / 130 / 8, 4: 16 * 128 / 130 / 8,
                  5: 32 * 128 / 130 / 8, 6: 64 * 242 / 256 / 8}


def nominal_in(words: list[str]) -> Optional[dict[str, Any]]:
    """A nominal bandwidth the question sets a measurement against, in GB/s per direction, with how it was
    said: {"value", "said", "words": (first, last)}. PCIe is given as a generation and a width."""
    text = " ".join(words)
    m = _GIVEN_PCIE.search(text)
    if m:
        gen = int(m.group("g1") or m.group("g2") or m.group("g3") or m.group("g4"))
        width = int(m.group("w1") or m.group("w2"))
        if gen not in PCIE_LANE_GBPS or width not in (1, 2, 4, 8, 12, 16, 32):
            return None
        value, said, start, end = PCIE_LANE_GBPS[gen] * width, f"PCIe Gen{gen} x{width}", m.start(), m.end()
    else:
        m = _GIVEN_RATE.search(text)
        if not m:
            return None
        value = rate_gbps(float(m.group("v")), m.group("u"))
        said, start, end = f"{m.group('v')} {m.group('u')}", m.start("v"), m.end()
    first = text[:start].count(" ")
    return {"value": round(value, 6), "said": said, "words": (first, first + text[start:end].count(" ") + 1)}


_SELF_PAIR = re.compile(r"\b(diagonal|(to|within|inside|in) itself|own memory|self ?-? ?cop(y|ies)|"
                        r"within (the same|one) (gpu|device)|local copy|"
                        r"copy (with)?in (the|its|one) (same )?(gpu|device)|(inside|within) (gpu|device) ?\d+|"
                        # "intra-gpu bandwidth on gpu1": inside one GPU
                        r"intra ?-? ?(gpu|device))\b")
# a question that ranks the systems: "which system/machine/GPU has the highest ...", "rank the systems by ...",
# "the fastest system for ..."
_SYSTEM_WORD = r"(systems?|machines?|gpus?|nodes?|clusters?|platforms?|servers?|boxe?s?|computers?|accelerators?)"
# one count as where a value is taken ("at 2048 gpus"), and words that ask for the curve instead
_AT_ONE_COUNT = re.compile(r"\b(at|on|with|using)\s+(\d[\d,]*|one|two|four|eight|sixteen)\s+(gpus?|ipus?|nodes?|ranks?|"
                           r"processes|cores?|devices?)\b", re.I)
_CURVE_ASKED = re.compile(r"\b(curve|plot|chart|trend|graph|grows?|increases?|up to|from\s+\S+\s+to|how (well )?"
                          r"(does|do|did)\b.*\bscale|across|versus|vs\.?|counts)\b", re.I)
SCALING_POINT_RUNNER_UP = 0.3   # the lookup's share of the model's belief for the words to settle it
# counts as a range ("1 to 4 gpus", "8 -> 2048 gpus", "up to 16 nodes"): the count is the axis after all
_COUNT_SPAN = re.compile(r"\b\d+\s*(to|-|->|through|and)\s*\d+\s*(gpus?|ipus?|nodes?|ranks?|processes|cores?)\b"
                         r"|\bup to\b|\bcounts\b", re.I)

_RANKS_SYSTEMS = re.compile(
    rf"\b(which|what) (gpu |ipu |cpu |hpc |single |multi-?gpu )?{_SYSTEM_WORD} (has|have|had|gets?|got|reach(es)?|"
    rf"achieves?|gives?|is|are|was|shows?|delivers?"
    rf"|offers?)( the)? (highest|lowest|best|worst|fastest|slowest|most|least|largest|smallest|greatest|top|biggest)\b"
    rf"|\b(which|what) {_SYSTEM_WORD} is (the )?(fastest|slowest|best|quickest)\b"
    rf"|\brank(s|ing|ed)? (the |all )?(the )?(\w+ )?{_SYSTEM_WORD}\b"
    rf"|\b(fastest|slowest|best|worst) {_SYSTEM_WORD} (for|at|in|on)\b"
    rf"|\b(across|over|among) (all )?(the )?{_SYSTEM_WORD}\b"
    # "top 3 machines by STREAM triad": a ranking of systems cut at N
    rf"|\btop (\d+|three|five|ten|two|four) {_SYSTEM_WORD} (by|for|on|in)\b"
    # "which systems get more than 300 GB/s of all-reduce busbw": every system that stores it, set against the line
    rf"|\b(which|what) {_SYSTEM_WORD} ([\w-]+ ){{1,3}}(more than|less than|fewer than|over|above|under|below|beyond|"
    rf"at least|at most|upwards of) (\d|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|"
    rf"sixty|seventy|eighty|ninety|a hundred|one hundred)")
_PAIR_WORD = re.compile(r"\bpairs?\b|\bpeers?\b|\bbetween\b|matri|\bgrid\b|heat ?map|->|\bto (gpu|ipu|each|every|all)")
# measures no link carries: a link efficiency sets a transfer's bandwidth against the link's rate
_NO_LINK_MEASURE = {"flops", "time", "speedup", "slowdown", "memory", "power", "temperature", "clock", "count",
                    "batch_size", "accuracy", "error"}
# the names of network shapes: a question naming one asks for the connection graph
_SHAPE = re.compile(r"\b(hybrid )?cube ?-? ?mesh\b|\bhyper ?-? ?cubes?\b|\btorus\b|\bfat ?-? ?trees?\b|\bdragonfly\b")
_TOPOLOGY_WORD = re.compile(r"^(topolog\w*|graph|graphs|paths?|routes?|routing|hops?|links?|linked|connect\w*|"
                            r"networked|wired|wiring|attach\w*|switch\w*|interconnect\w*|layout|diagram|map|neighbou?rs?)$")
# plain words (gazetteer.WEAK) that name a metric when they follow an operation: "all to all time"
_OP_METRIC_WORDS = {"time": "time", "times": "time", "speed": "bandwidth"}
# "single", "double" or "half" before a thing counted: one (or two) of it, no floating-point precision
_ONE_OF = re.compile(r"^(single|double|half) (hops?|nodes?|gpus?|ipus?|cores?|pairs?|links?|messages?|runs?|copy|"
                     r"copies|transfers?|kernels?|ranks?|threads?|sockets?|boards?|chips?|tiles?|steps?|iterations?|"
                     r"directions?|ports?|switch(es)?|nvlinks?|envy|xlinks?|bricks?)$", re.I)
def _as_a_verb(words: list[str], i: int) -> bool:
    """"if we double the clock", "halve it": doubling something, no floating-point precision."""
    w = words[i].lower()
    return w in ("double", "half", "halve", "triple") and (
        (i + 1 < len(words) and words[i + 1].lower() in ("the", "it", "its", "our", "their", "this", "that", "my"))
        or (i > 0 and words[i - 1].lower() in ("we", "you", "i", "they", "to", "would", "could")))


# Words around a system's distinguishing part that are not part of any name: "the V100 version", "P100 machines".
_HEAD_FILLER = {"the", "a", "an", "version", "versions", "machine", "machines", "system", "systems", "box",
                "boxes", "model", "variant", "flavour", "flavor", "ones"}


def shared_head_systems(words: list[str], unresolved: list[tuple[str, str, int, int]],
                        sys_spans: list[tuple[int, int, str]], norm) -> list[tuple[tuple[str, str, int, int], str]]:
    """Systems named by a part that shares the rest of its name with a system named beside it.

    "p100 vs v100 dgx1" and "the P100 and V100 DGX-1 machines" name two DGX-1s, but "p100" alone names none:
    put it in place of the matching part of the other name ("v100 dgx1" -> "p100 dgx1") and keep it if that
    is another system's name. Returns (unresolved span, system id) pairs.
    """
    out = []
    for u in unresolved:
        if u[0] != "system":
            continue
        part = [w for w in words[u[2]:u[3]]]
        while part and part[0].lower() in _HEAD_FILLER:
            part = part[1:]
        while part and part[-1].lower() in _HEAD_FILLER:
            part = part[:-1]
        if not part:
            continue
        found = None
        for ta, tb, sid in sys_spans:
            name = [w for w in words[ta:tb]]
            for width in range(1, len(name)):
                for i in range(0, len(name) - width + 1):
                    if [w.lower() for w in name[i:i + width]] == [w.lower() for w in part]:
                        continue
                    # the whole name must be a system's ("SHOC" in place of "Mini" makes "SHOC Summit", which
                    # only contains one)
                    v = norm.named_whole("system", " ".join(name[:i] + part + name[i + width:]))
                    if v is not None and v != sid:
                        found = v
                        break
                if found:
                    break
            for joined in ([] if found else (name + part, part + name)):
                # "P100 vs V100, DGX-1": the shared head alone ("DGX-1") with the part said apart from it
                v = norm.value("system", " ".join(joined))
                if v is not None and v != sid:
                    found = v
                    break
            if found:
                break
        if found:
            out.append((u, found))
    return out
READING_SLOTS = ("metric", "operation", "app", "condition")


def other_readings(slots: dict[str, Any], cands) -> dict[str, list[Any]]:
    """For each filled slot of READING_SLOTS, the other values that the words naming it also give ("triad bw"
    read as the operation triad_bw: its word "triad" names the operation triad). Only words inside the phrase
    the value was read from count: another word elsewhere in the question was left out for a reason."""
    out: dict[str, list[Any]] = {}
    for k in READING_SLOTS:
        if slots.get(k) is None or (k == "metric" and slots[k] in NOT_PER_PAIR - {"flops"}):
            # a reading of a device's sensor is the whole phrase: the "speed" of "fan speed" is no bandwidth, the
            # "memory" of "memory used" no memory bandwidth
            continue
        where = [(s, e) for s, e, found in cands if found.get(k) == slots[k]]
        alts = []
        for s, e, found in sorted(cands, key=lambda c: (c[0], c[0] - c[1])):
            v = found.get(k)
            if v is not None and v != slots[k] and v not in alts and any(a <= s and e <= b for a, b in where) \
                    and not (k == "operation" and {v, slots[k]} <= set(COLLECTIVE_OPS)):
                # (the "reduce" of "all-reduce" is another collective, not another reading of the words)
                alts.append(v)
        if alts:
            out[k] = alts
    return out


_JOINERS = {"of", "on", "in", "at", "for", "the", "to", "from", "with", "and"}


def stray_joiners(tags: list[str], words: list[str]) -> list[str]:
    """"gpu one | of | mini summit" tagged B-src I-src I-system B-system: a function word tagged as the inside of a
    span that starts only after it is no word of that span (it made "of" a second machine, and "summit" a third)."""
    out = list(tags)
    for i in range(len(out) - 1):
        t = out[i]
        if t.startswith("I-") and words[i].lower() in _JOINERS and out[i + 1] == "B-" + t[2:] \
                and (i == 0 or out[i - 1][2:] != t[2:]):
            out[i] = "O"
    return out


def repair_tags(tags: list[str], cands) -> list[str]:
    """One vocabulary phrase tagged as pieces of several slots ("tensor | cores | disabled" as condition,
    count_kind, condition) is one span: retag the phrase with the slot of its first word when the
    vocabulary says the whole phrase names that slot and every word of it was tagged."""
    out = list(tags)
    for s, e, found in sorted(cands, key=lambda c: c[0] - c[1]):
        if e - s < 2 or not out[s].startswith("B-"):
            continue
        slot = out[s][2:]
        if slot not in found:
            # "speech | query" tagged B-app I-condition: the I- tag says the tagger read a condition going on
            # there, and the vocabulary says the whole phrase is one: the broken run is that condition
            cont = [t[2:] for t in out[s + 1:e] if t.startswith("I-") and t[2:] in found]
            if not cont:
                continue
            slot = cont[0]
        inner = out[s:e]
        if "O" in inner or all(t[2:] == slot for t in inner):
            continue
        if e < len(out) and out[e] == f"I-{inner[-1][2:]}":
            continue                              # the last slot goes on past the phrase: leave it
        out[s:e] = [f"B-{slot}"] + [f"I-{slot}"] * (e - s - 1)
    return out


def measure_ending_in_a_count_word(tags: list[str], cands) -> list[str]:
    """ "how many call-tree (CCT) nodes": a measure the vocabulary names whose last word is a count's kind
    ("nodes"), the tagger having read that word as a count's kind (and the words before as anything but a number or
    a device): the whole phrase is the measure."""
    out = list(tags)
    for s, e, found in sorted(cands, key=lambda c: c[0] - c[1]):
        if set(found) == {"metric"} and e - s >= 2 and out[e - 1][2:] == "count_kind" \
                and not any(t[2:] in ("count", "msg_bytes", "src", "dst") for t in out[s:e - 1]) \
                and (e == len(out) or not out[e].startswith("I-")):
            out[s:e] = ["B-metric"] + ["I-metric"] * (e - s - 1)
    return out


_HOP_QUALIFIERS = {"off", "on", "-", "chip", "network", "link", "switch", "more", "extra", "additional"}


def _counts_hops(words: list[str], b: int) -> bool:
    """The number ending at `b` counts hops: "2 off-chip hops", "3 hops" (XMP-64's Table 1, the IPU's per-hop
    latency). The tagger has no slot for a hop count; the planner matches it against the row's label."""
    for w in words[b:b + 5]:
        w = w.lower()
        if w in ("hop", "hops"):
            return True
        if w not in _HOP_QUALIFIERS:
            return False
    return False


def _counts_links(words: list[str], i: int) -> bool:
    """Word i counts links ("double-NVLink pairs", "single NVLink"): "double" said of a link is a link's
    multiplicity (the DGX-1 V100's GPU pairs joined by one or by two NVLinks), not a precision."""
    if words[i].lower() not in ("double", "single", "dual"):
        return False
    nxt = [w.lower() for w in words[i + 1:i + 3] if w != "-"][:1]
    return bool(nxt) and "link" in nxt[0]


def _matrix_shape(words: list[str], a: int, b: int) -> bool:
    """The number at a:b is a side of "16 by 16" (a matrix's shape), or a benchmark's parameter ("hidden size
    1760", "batch 16", "k = 32"), not a size or a count."""
    before = a >= 2 and words[a - 1].lower() in ("by", "x") and _bare_number(words[a - 2:a - 1])
    after = b + 1 < len(words) and words[b].lower() in ("by", "x") and _bare_number(words[b + 1:b + 2]) \
        or b < len(words) and re.fullmatch(r"x\d+", words[b].lower()) is not None   # "4x4", split as "4" "x4"
    named = a >= 1 and (words[a - 1].lower() in _PARAM_WORDS or (
        words[a - 1] in ("=", ":") and a >= 2 and words[a - 2].lower() in _PARAM_WORDS | set("mnkwhc")) or (
        a >= 2 and words[a - 1].lower() == "size" and words[a - 2].lower() in ("hidden", "batch")))
    return before or after or named


# words a benchmark's parameter follows ("hidden 512", "batch 4", "timesteps 25")
_PARAM_WORDS = {"hidden", "batch", "timesteps", "timestep"}


# the words after a bare number that make it a run's length: "the 40-step trace", "100 iterations"
_STEPS = re.compile(r"^(- )?(steps?|iterations?|iters?|epochs?)\b")
# words after which a number before a GPU model's plural counts GPUs ("for 64 h200s"), not a machine's own parts
_COUNTED_AFTER = ("on", "for", "with", "across", "over", "using", "to")
# "12 of the GPUs", "2048 of its GPUs": the words that make a number before "of" a count of a machine's parts
_OWNERS_OF = ("the", "its", "their", "our", "those", "these")
# units no size or count is written in: a clock, a power, a temperature, a share
_OTHER_UNIT = re.compile(r"[kmg]hz|hertz|megahertz|gigahertz|w|watts?|kw|kilowatts?|°c|celsius|degrees?|%|percent")
# nouns a number counts that are no size and no device: "one number?", "the top 5 results", "in two words"
_NO_QUANTITY = re.compile(r"numbers?|values?|figures?|words?|sentences?|digits?|answers?|results?")
# words that make the number before them a factor ("5x", "two times")
_FACTOR_WORDS = ("x", "times", "fold", "-fold")


def _per_second(words: list[str], b: int) -> bool:
    """The size that ends before word b is said per second ("25 gigabytes per second", "327 GB / s", "944 billion
    samples per second"): a rate."""
    if b < len(words) and words[b].lower() in _COUNTED_THINGS:
        b += 1
    return b + 1 < len(words) and words[b].lower() in ("per", "a", "/") \
        and words[b + 1].lower() in ("second", "sec", "s")


# things a rate counts: "944 billion samples per second", "operations a second"
_COUNTED_THINGS = {"samples", "operations", "ops", "numbers", "messages", "requests", "images", "tokens",
                   "transactions", "updates", "elements", "values", "flops"}


def _bare_number(ws: list[str]) -> bool:
    """One number alone: "2048", "1,024", "1.3" or a number word ("one" of "one gigabyte")."""
    return len(ws) == 1 and (re.fullmatch(r"\d+(\.\d+)?", ws[0].replace(",", "")) is not None
                             or _NUMBER_WORD.match(ws[0].lower()) is not None)


# the destination said before the source: "to gpu1 from gpu0", "into ipu4 from ipu5"
_TO_THEN_FROM = re.compile(r"\b(to|into) (the )?((gpu|ipu|tile|core) ?\d+|[gi] p u \w+) from\b")


def _unpunctuated(said: str) -> str:
    """The question's words without the commas and stops a transcript puts between them ("share, the PCIe switch")."""
    return re.sub(r" [,.;:!?]+(?= |$)", "", said)


def drop_own_name(slots: dict[str, Any], parts: Optional[set[str]]) -> None:
    """"ipu16 which ipus link to ipu4", "IPU-16 ...": the system's own name has the shape of a part's ("ipu" + a
    number) but names no part of it (`parts`: the system's components; None when unknown); the other end named
    stays the one asked about."""
    own = [k for k in ("src", "dst") if parts is not None and slots.get(k) and slots[k] == slots.get("system")
           and slots[k] not in parts]
    for k in own:
        del slots[k]
    if own and "dst" in slots and "src" not in slots:
        slots["src"] = slots.pop("dst")


def device_end(slots: dict[str, Any]) -> None:
    """A host transfer has one device end: the GPU of "h2d ... gpu2" is the destination, of "d2h ... gpu1"
    the source, whichever side the tagger put it on; "host" itself is implied by the operation."""
    op = slots.get("operation")
    if op and op not in _MOVES_DATA and "dst" in slots and "src" not in slots:
        slots["src"] = slots.pop("dst")   # "triad_bw ... gpu15" runs on one device: the stored end is src
        return
    if op not in ("h2d", "d2h"):
        return
    for k in ("src", "dst"):
        if slots.get(k) == "host":
            del slots[k]
    dev, other = ("dst", "src") if op == "h2d" else ("src", "dst")
    if other in slots and dev not in slots:
        slots[dev] = slots.pop(other)


_SIZE_RANGE_JOIN = {"to", "-", "–", "—", "->", "→", "through", "till", "until", "and", *_ELLIPSES}


_ROUGHLY = {"about", "around", "roughly", "approximately", "approx", "~", "circa", "ca."}


def size_range(words: list[str], cands) -> Optional[tuple[Any, Any]]:
    """The two ends of a size range ("256B-1GB", "from 8 bytes to 128 MB", "between 1 KB and 1 GB", "64B..256MB"):
    two message sizes, the first the smaller, one or two range words apart ("up to"); an "and" only after
    "between". None for sizes set side by side ("64M vs 1G"), which several_values reads."""
    spans = _slot_spans(cands, "msg_bytes")
    for (s1, e1, a), (s2, e2, b) in zip(spans, spans[1:]):
        # a comma heard at a pause ("from 256 bytes, to 8GB") and "all the way up to" join as "to" does
        # and an end said roughly ("from about a kilobyte up to about a gigabyte") is still an end
        gap = [w.lower() for w in words[e1:s2] if w != "," and w.lower() not in _ROUGHLY]
        if gap[:4] == ["all", "the", "way", "up"]:
            gap = gap[3:]
        if not (0 < len(gap) <= 2 and isinstance(a, int) and isinstance(b, int) and a < b):
            continue
        if gap[-1] in _SIZE_RANGE_JOIN and all(g in _SIZE_RANGE_JOIN or g == "up" for g in gap) and (
                gap[-1] != "and" or (s1 > 0 and words[s1 - 1].lower() == "between")):
            return a, b
    return None


def several_values(words: list[str], cands, slot: str) -> list[Any]:
    """Two or more values of one slot set side by side ("64M vs 1G", "algbw and busbw"): vocabulary matches one or
    two joining words apart ("vs", "and", "or", a comma), in the order said; [] unless two different ones."""
    return _joined(words, _slot_spans(cands, slot))

