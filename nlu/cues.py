"""Slots a question states without naming them: cue phrases the vocabulary cannot hold as one alias.

"What fraction of the NVLink 2.0 peak does GPU0 to GPU1 reach?" asks for efficiency, though no word is
"efficiency": a ratio word and a reference word, far apart, say it together. "Which GPU pair is slowest"
asks about peer-to-peer transfers. These rules run after the tagger and the vocabulary matches, and only
fill a slot that is still empty (or replace the plain metric that the ratio phrase was built around).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Optional

from nlu.vocab import NUMBER_WORDS

_REFERENCE = re.compile(r"^(nominal|peak|theoretical|theoretically|spec|specs|specified|rated|advertised|max(imum)?)$")
_RATIO = re.compile(r"^(percent|percentage|pct|%|fraction|share|proportion|efficient|efficiency|relative|against|"
                    r"close|closer|achieve[sd]?|reach(es|ed)?|utili[sz]ation|vs|versus|compared)$")
_SIDE_BY_SIDE = {"vs", "versus", "compared", "against"}
_PAIRWISE = re.compile(r"^(pair|pairs|peer|peers|pairwise|gpu-to-gpu|ipu-to-ipu)$")
# the word before "pair" where the pair is a machine ("the H200 pair", "the h two hundred pair")
_PAIR_NAMED_AFTER = {"h200", "h200s", "hundred"}
_DEVICES = re.compile(r"^(gpus|ipus|devices|v100s|p100s|h100s|h200s|cards|accelerators)$")
_HOST = re.compile(r"^(host|cpu|cpus|h2d|d2h|memory)$")
_TO_DEVICE = re.compile(r"\b(the )?host( memory)? ?(to|->|→|2) ?(the |a |its )?(gpu|ipu|device)")
_TO_HOST = re.compile(r"\b(gpu|ipu|device)[0-9a-z]* ?(to|->|→|2) ?(the |its )?host\b")
# a question about traces ("which systems have PyTorch traces?"): their library is the trace tool's
TRACE_WORD = re.compile(r"\b(traces?|traced|profiles?|profiler|profiling|timelines?|nsys|nsight systems|"
                        r"cuda api (summary|calls?|stats))\b", re.I)
# what a connection graph answers besides its shape: its links' rated bandwidth and how many there are; a
# latency or time asked about a system is measured, not drawn (the reader and the topology planner share it)
GRAPH_MEASURES = ("bandwidth", "count")
# two names for one measure, in the same units: GEMM and convolution "throughput" is stored as a FLOP rate (SHOC,
# DeepBench, the IPU report); the reader renames the slot, and app.ask tries the other name when nothing matches
SAME_MEASURE = {"throughput": ("flops",), "flops": ("throughput",), "message_size": ("size",)}
MEASUREMENT_INTENTS = {"metric_lookup", "size_sweep", "pair_matrix", "compare_systems", "scaling", "congestion",
                       "link_efficiency"}
# "how much of LAMMPS' MPI time goes to allreduce": a part of a time is a share, whatever the tagger read
_PART_OF_TIME = re.compile(r"\b(how much|what part|what portion|what fraction|what share|what percent(age)?|"
                           r"which fraction|which part|(spends?|spent|spending) (more|less|most|least)) of\b.*"
                           r"\b(time|runtime|run time|makespan|wall ?time|wall-clock time|execution time)\b|"
                           # "the communication share of VASP's run time"
                           r"\b(share|fraction|portion|proportion|percentage) of (the |its |their )?(\S+ ){0,2}"
                           r"(time|runtime|run time|makespan|wall ?time|execution time)\b")
# "what fraction of GEMM training ops used tensor cores": a part of a count of operations is a share
_PART_OF_OPS = re.compile(r"\b(what|which|the) (fraction|share|percentage|percent|portion|proportion) of (the |all )?"
                          r"(\S+ ){0,3}(ops|operations|kernels|kernel calls|calls|instructions)\b")
# "ipu p2p bandwidth share under load": a rate's share named as a compound, the part of it kept
RATE_SHARE = re.compile(r"\b(bandwidth|bw|throughput) (share|fraction|proportion)\b")
# the part of a rate that is kept: "what share of the p2p bandwidth remains under load", "what fraction of its
# bandwidth is left"
_SHARE_KEPT = re.compile(r"\b(what|which|the) (share|fraction|percentage|percent|portion|proportion|part) of "
                         r"(the |its |their )?(\S+ ){0,3}(bandwidth|bw|throughput)\b.{0,30}\b(remains?|remaining|"
                         r"is left|are left|survives?|stays?|is kept|is retained|is preserved)\b|" + RATE_SHARE.pattern)
# a time asked for by its unit: "how many microseconds does it take", "in milliseconds, how long"
_UNITS_OF_TIME_ASKED = re.compile(r"\bhow many (micro|milli|nano)?(seconds|secs)\b|\bhow many (us|ms|ns)\b")
# a time asked as how long something takes: "how long does X take", "the time it takes yme to copy ...", "what time
# does the H200 pair record for ..." (the measured time, not the hour of the day)
_TIME_IT_TAKES = re.compile(r"\bhow long\b|\btime (that )?(it )?([\w-]+ ){0,4}(takes?|took|needs?)\b|"
                            r"\bwhat (time|times|duration|runtime) (does|do|did|will|would)\b")
# BFS's rate said by its unit ("bfs teps", "traversed edges per second")
_TEPS = re.compile(r"\b(g|m)?teps\b|\bbfs_teps\b|\btraversed edges\b|\bedges per second\b")
# how fast a copy goes, asked with no measure word: "how quickly does a pageable scope copy to gpu0 go"
_HOW_FAST = re.compile(r"\bhow (fast|quick|quickly|rapidly|speedily)\b")
_COPY_WORDS = re.compile(r"\b(cop(y|ies|ying)|transfers?|memcpy|move[sd]?|push(es)?|send[s]?|traffic)\b")
# "how much longer does it take", "how many times slower": a slowdown, not a time
_HOW_MUCH_SLOWER = re.compile(r"\bhow (much|many times) (longer|slower)\b")
_PLAIN_METRICS = {None, "bandwidth", "share", "utilization", "throughput"}
_REFERENCE_CONDITIONS = {"nominal", "theoretical", "measured", "spec"}


# "of the NVLink 2.0 peak", "of its nominal": a reference a few words after "of"; "the peak fp16 tensor core
# throughput of the V100" names the V100 there, which is no reference
# (not "which gpu pair of the dgx2 gives the peak ... bandwidth": a verb between makes "peak" the extreme asked for)
_OF_A_REFERENCE = re.compile(r"\bof (the |its |their )?((?!(gives?|givs|has|have|shows?|reach\w*|gets?|with|is|are|"
                             r"does|do)\b)\S+ ){0,3}(nominal|peak|theoretical|spec|specs|specified|rated|advertised|"
                             r"max|maximum)\b")


# "how far below the nominal", "falls short of its peak": a distance from a reference
_HOW_FAR = re.compile(r"\bhow far (below|under|short of|from|off)\b|\bfalls? short of\b")


def rates_against(lw: list[str]) -> bool:
    """Do the (lower-case) words set a value against something ("percent", "how close", "of the peak")?"""
    joined = " ".join(lw)
    return any(_RATIO.match(w) for w in lw) or "how close" in joined or bool(_OF_A_REFERENCE.search(joined)) \
        or bool(_HOW_FAR.search(joined))


# the OSU micro-benchmarks named by their program: what each one measures ("osu_latency output for ...")
_OSU_MEASURE = ((re.compile(r"\bosu_(\w+_)?(latency|lat)\b"), "latency"),
                (re.compile(r"\bosu_(bw|bibw|mbw_mr)\b"), "bandwidth"))


# a unit of time said as what is wanted ("... in microseconds", "how many ms"), not a number of them ("under 5 us")
_TIME_UNIT_ASKED = re.compile(r"(?<![\d.] )(?<![\d.])\b(microseconds?|usecs?|milliseconds?|msecs?|nanoseconds?|"
                              r"seconds)\b(?!\s*(per|/))")


# a device's own measures, which no pair of devices has ("the H200 pair's temperature" is each GPU's)
NOT_PER_PAIR = frozenset({"memory", "power", "clock", "temperature", "utilization", "fan_speed", "flops"})


def apply_cues(intent: str, words: list[str], slots: dict[str, Any]) -> None:
    lw = [w.lower() for w in words]
    joined = " ".join(lw)
    if intent in MEASUREMENT_INTENTS and slots.get("metric") is None:
        measure = next((m for rx, m in _OSU_MEASURE if rx.search(joined)), None)
        if measure:
            slots["metric"] = measure   # the program's measure, whether or not it is stored for the system
        elif _TIME_UNIT_ASKED.search(joined):
            # "h200 reduce 8 bytes in-place microseconds": the measure named by its unit alone; a copy between two
            # ends is timed as its latency, anything else as its time
            copy = slots.get("operation") in ("p2p", "d2d", "h2d", "d2h") or (slots.get("src") and slots.get("dst"))
            slots["metric"] = "latency" if copy else "time"
    if intent in MEASUREMENT_INTENTS and slots.get("metric") in (None, "throughput") and slots.get("precision") \
            and "operation" not in slots \
            and any(w in ("peak", "max", "maximum", "theoretical", "nominal", "spec", "specs", "rated", "datasheet")
                    for w in lw):
        # "peak double precision of the V100s", "peak fp16 throughput", "titan rtx vs gtx980 fp64 spec": a
        # precision's peak or spec-sheet figure is a FLOP rate, not a ratio to a peak
        slots["metric"] = "flops"
    if intent in ("compare_systems", "metric_lookup") and slots.get("metric") is None and slots.get("precision") \
            and "operation" not in slots and "app" not in slots \
            and any(w in ("best", "highest", "fastest", "most", "top", "peak", "max", "maximum", "faster", "better",
                          "quicker", "quickest") for w in lw):
        # "which has the best FP64 per GPU: DGX-1 P100, DGX-1 V100 or DGX-2?", "which is faster at single precision,
        # the titan rtx or the gtx 980": a precision's best is a FLOP rate
        slots["metric"] = "flops"
    if intent in MEASUREMENT_INTENTS and slots.get("metric") == "flops" and not slots.get("precision") \
            and not slots.get("condition") and "operation" not in slots and "app" not in slots \
            and any(w in ("peak", "max", "maximum", "theoretical", "nominal") for w in lw) \
            and any(w.startswith("tensor") for w in lw):
        # "peak tensor tflops of the dgx-1 v100": the spec sheets' "Tensor TFLOP/s" are mixed precision (fp16
        # products, fp32 sums); with no precision the highest stored, "960 TFLOPS single-precision", had answered
        slots["precision"] = "mixed"
    if (intent in ("link_efficiency", "metric_lookup", "compare_systems") and slots.get("metric") in _PLAIN_METRICS
            and any(_REFERENCE.match(w) for w in lw)
            and rates_against([w for w in lw if not (slots.get("compare_with") and w in _SIDE_BY_SIDE)])):
        # ("peak pinned h2d bandwidth yme vs mini summit": "vs" between two systems sets them side by side, and
        # "peak" is the value asked for, not a reference to rate against)
        slots["metric"] = "efficiency"
        if slots.get("condition") in _REFERENCE_CONDITIONS:
            del slots["condition"]
    if intent in ("metric_lookup", "compare_systems") and slots.get("metric") == "time" and _PART_OF_TIME.search(joined):
        slots["metric"] = "share"
    if intent in ("metric_lookup", "compare_systems") and slots.get("metric") in (None, "bandwidth", "throughput") \
            and _SHARE_KEPT.search(joined) and not (slots.get("src") or slots.get("dst")):
        # "what share of the p2p bandwidth remains under load": the part kept, a share, not the bandwidth itself (of
        # one pair none is stored: its bandwidth under load answers)
        slots["metric"] = "share"
    if intent in ("metric_lookup", "compare_systems", "link_efficiency") and slots.get("metric") is None \
            and "link_type" not in slots and _PART_OF_TIME.search(joined):
        # "what fraction of the makespan is initialization": a part of a run's time, named by no metric word
        slots["metric"] = "share"
    if intent in ("metric_lookup", "compare_systems") and slots.get("metric") in (None, "time", "count") \
            and _PART_OF_OPS.search(joined):
        slots["metric"] = "share"
    if intent in MEASUREMENT_INTENTS and "metric" not in slots and _UNITS_OF_TIME_ASKED.search(joined):
        # "how many microseconds does a 64 KB all-reduce take": a time, asked by its unit
        slots["metric"] = "time"
    if intent in MEASUREMENT_INTENTS and "metric" not in slots and _TIME_IT_TAKES.search(joined) \
            and not _HOW_MUCH_SLOWER.search(joined):
        # "time it takes yme to copy host to gpu1": a time, asked as how long something takes
        slots["metric"] = "time"
    if intent in MEASUREMENT_INTENTS and slots.get("operation") == "bfs" and _TEPS.search(joined):
        # "yme shoc bfs teps on gpu2": BFS's rate in traversed edges per second, stored apart from its bandwidth
        slots["operation"], slots["metric"] = "bfs_teps", "throughput"
    if intent in MEASUREMENT_INTENTS and "metric" not in slots and _HOW_FAST.search(joined) \
            and (slots.get("operation") in ("h2d", "d2h", "p2p", "d2d") or _COPY_WORDS.search(joined)):
        # "how quickly does a pageable scope copy to gpu0 go on yme": a copy's speed is its bandwidth
        slots["metric"] = "bandwidth"
    if intent in MEASUREMENT_INTENTS and "metric" not in slots and _HOW_MUCH_SLOWER.search(joined):
        # "how much longer does a GPU0-GPU1 exchange take ... compared with other pairs": with no quantity named, a
        # ratio of times (a time the tagger read stays: "how much longer does the allreduce take" may be a time)
        slots["metric"] = "slowdown"
    if intent in MEASUREMENT_INTENTS and "operation" not in slots:
        # "host to GPU15", "from gpu2 to the host": the word order names the copy, however the ends were tagged
        if _TO_DEVICE.search(joined):
            slots["operation"] = "h2d"
        elif _TO_HOST.search(joined):
            slots["operation"] = "d2h"
    if intent in MEASUREMENT_INTENTS and "operation" not in slots:
        # (not "pair" in "the H200 pair", a machine's name: "which timer was used for the nccl tests on the h200 pair")
        pairwise = any(_PAIRWISE.match(w) and not (w == "pair" and i and lw[i - 1] in _PAIR_NAMED_AFTER)
                       for i, w in enumerate(lw))
        # "between the gpus", not "between Chifflot, Chifflet and Gemini ... at 12 GPUs": the devices are what
        # "between" joins, a few words on, as
        # devices; "between 2 and 12 GPUs" is a range of counts
        between = any(w == "between" and any(_DEVICES.match(x) for x in lw[i + 1:i + 5])
                      and not (i + 1 < len(lw) and lw[i + 1].isdigit()) for i, w in enumerate(lw))
        to_pair = re.search(r"\b(gpu|ipu)s? ?- ?to ?- ?(gpu|ipu)\b", joined) is not None
        if (pairwise or between or to_pair) and not any(_HOST.match(w) for w in lw) \
                and slots.get("metric") not in NOT_PER_PAIR:
            slots["operation"] = "p2p"
    if intent == "scaling" and "count" in slots and _count_range(lw):
        # "from 1 to 16 GPUs", "2 vs 12 gpus", "1, 2, 4, 8 and 16": the counts are the curve's axis, not a filter
        del slots["count"]
    if intent == "pair_matrix" and "count" in slots and re.search(r"\b(\w+) ?(by|x) ?\1\b", joined):
        # "the sixteen by sixteen grid", "8x8": the matrix's shape, not a device count to filter on
        slots.pop("count")
        slots.pop("count_kind", None)
    if intent in ("metric_lookup", "compare_systems") and "count" not in slots and _ALONE.search(joined):
        # "GPU 2 on its own", "gpu1 alone": the single-device run (SHOC runs each GPU alone and all together)
        if "gpu" in lw or any(w.startswith("gpu") or w in ("gpus", "v100s", "p100s") for w in lw) or \
                re.search(r"\bg p u\b", joined) or str(slots.get("src", "")).startswith("gpu"):
            slots["count"], slots["count_kind"] = 1, "gpus"
    if isinstance(slots.get("count"), int) and 1990 <= slots["count"] <= 2035 and _A_YEAR.search(joined):
        # "the 2019 GPU interconnect thesis": a year before a singular noun, not 2019 GPUs
        slots.pop("count")
        slots.pop("count_kind", None)
    if intent == "list_data" and slots.get("condition") == "under_load" and _DATA_LOADED.search(joined):
        # "which systems are loaded?": data loaded into the database, not a network under load
        del slots["condition"]
    if intent == "topology" and "host" in lw and "host" not in (slots.get("src"), slots.get("dst")) \
            and not ("src" in slots and "dst" in slots):
        # "what connects the DGX-1 V100 to its host": the word says which end, however "its host" was tagged
        slots["dst" if "src" in slots or "dst" not in slots else "src"] = "host"


_A_YEAR = re.compile(r"\b(the|a|an|our|their|this|that|in|from|of|since) (19[89]\d|20[0-3]\d) (gpu|ipu|node|core|"
                     r"tile|rank|process|thread|cpu|socket)\b(?!s)")
_DATA_LOADED = re.compile(r"\b(is|are|was|were|been|got|get|gets|data|measurements|results|runs|traces|outputs)"
                          r"( (already|currently|all|now))? loaded\b")
_ALONE = re.compile(r"\b(alone|by itself|on its own|in isolation|by its lonesome|solo)\b")
_NUMBER_WORDS = (NUMBER_WORDS - {"million", "billion"}) | {"a"}
_ELLIPSES = ("..", "...", "…")   # "1..16 gpus": a range written as a programmer writes one
_RANGE_JOIN = {"to", "-", "->", ">", "→", "vs", "vs.", "versus", "through", "till", "until", "or", ",", *_ELLIPSES}
_COUNTED = re.compile(r"^(gpus?|ipus?|nodes?|cores?|ranks?|processes|process|sockets?|tiles?|devices?|cards?|"
                      r"machines?|workers?|threads?)$")


def count_series(words: list[str]) -> Optional[str]:
    """The count word after two or more rising bare numbers ("1 2 3 4 GPUs", "8, 2048 GPUs", "1, 2 and 4 nodes",
    "1..16 gpus") or before a rising range ("gpus 2..16"), not after a name's number ("DGX-2 16 GPUs"); None when
    there is no such list. Unlike _count_range this needs the
    count word, and so may turn a lookup into a scaling question ("8 2048 GPUs": a spoken arrow lost)."""
    for i, w in enumerate(words):
        if i < 2 or not _COUNTED.match(w.lower()):
            continue
        nums: list[int] = []
        j = i - 1
        while j >= 0 and (words[j].isdigit() or words[j] in (",", "and", *_ELLIPSES)):
            if words[j].isdigit():
                nums.insert(0, int(words[j]))
            j -= 1
        if j >= 0 and (words[j] in ("-", "x") or re.search(r"\d$", words[j])):
            continue
        if len(nums) >= 2 and all(a < b for a, b in zip(nums, nums[1:])):
            return w
    for i, w in enumerate(words[:-3]):
        # "over ipus 1-16", "vs gpus 2..16": the plural count word first, then a rising range
        if _COUNTED.match(w.lower()) and w.lower().endswith("s") and words[i + 1].isdigit() \
                and words[i + 2] in ("-", "to", *_ELLIPSES) and words[i + 3].isdigit() \
                and int(words[i + 1]) < int(words[i + 3]):
            return w
    return None


def _count_range(lw: list[str]) -> bool:
    """Two counts joined as a range or list ("1 to 4", "2-16", "8 -> 2048", "1 node vs 16 nodes", "2, 3 and 4");
    "up to 64" is one bound, not a range. The "and" of "two thousand and forty eight" joins nothing: only digits
    on both sides make a list of it. Three numbers in a row ("1 2 4 8") are a list too."""
    def num(i: int) -> bool:
        return 0 <= i < len(lw) and (lw[i].replace(",", "").isdigit() or (lw[i] in _NUMBER_WORDS and lw[i] != "a"))
    digits = [w.isdigit() for w in lw]
    if any(all(digits[i:i + 3]) for i in range(len(lw) - 2)):
        return True                                  # "1 2 3 4 gpus": a list said without commas
    for i, w in enumerate(lw):
        join = w in _RANGE_JOIN or (w == "and" and num(i - 1) and lw[i - 1].isdigit() and num(i + 1))
        if not join or not num(i + 1):
            continue
        j = i - 1
        if w == ">" and j >= 0 and lw[j] in ("-", "="):
            j -= 1                                   # "8 -> 2048" tokenised as "8 - > 2048"
        elif w == ">":
            continue
        if j >= 0 and _COUNTED.match(lw[j]):
            j -= 1                                   # "1 node vs 16 nodes"
        elif j >= 2 and lw[j] in ("u", "us") and lw[j - 1] == "p" and lw[j - 2] in ("g", "i"):
            j -= 3                                   # "one g p u to two g p us"
        if num(j):
            return True
    return False


# "by how much does compression cut the latency": a cut in a quantity is its reduction, when one is measured
_REDUCING = re.compile(r"^(cut|cuts|cutting|reduces|reduced|reducing|reduction|reductions|lower|lowers|lowered|"
                       r"lowering|shave|shaves|shaved|saves|saved|saving|savings|shorten|shortens|shortened)$")
_REDUCING_OR_REDUCE = re.compile(_REDUCING.pattern.replace("^(", "^(reduce|", 1))
_REDUCIBLE = ("latency", "time", "energy")


def verb_readings(words: list[str], slots: dict[str, Any], metrics) -> dict[str, list[Any]]:
    """Other readings of the metric that the question's verbs give ("cut the latency" -> latency_reduction,
    where `metrics` holds that metric). Only a reading: tried when the data has nothing for the metric as
    tagged. The bare word "reduce" counts only when the question names another operation: it is also the
    collective ("latency of reduce")."""
    m = slots.get("metric")
    verb = _REDUCING if slots.get("operation") in (None, "reduce") else _REDUCING_OR_REDUCE
    if m not in _REDUCIBLE or not any(verb.match(w.lower()) for w in words):
        return {}
    alt = f"{m}_reduction"
    return {"metric": [alt]} if alt in metrics else {}


# operations a word of one family names on different systems: SHOC's "reduction" kernel and the "reduce"
# collective of the IPU, NCCL and MPI. Asked on a system that stores only the other, the other is what was meant.
WORD_FAMILY = {"reduction": ("reduce",), "reduce": ("reduction",)}


def family_readings(slots: dict[str, Any]) -> dict[str, list[Any]]:
    """"reduction latency on the IPU": a reading of the operation as the other member of its word family,
    tried only when the data has nothing for the operation as tagged."""
    alts = WORD_FAMILY.get(str(slots.get("operation")), ())
    return {"operation": list(alts)} if alts else {}


# both sides of the load pair in plain words ("the loaded p2p latency ... its idle latency", "idle vs under load")
LOADED_WORDS = r"\b(loaded|under load|busy|congested)\b"
IDLE_WORDS = r"\b(idle|unloaded|quiet|congestion[- ]free|not loaded|non ?-? ?loaded|without (any )?load|no load)\b"
LOADED_AND_IDLE = re.compile(rf"{LOADED_WORDS}.*{IDLE_WORDS}|{IDLE_WORDS}.*{LOADED_WORDS}")
# the time a trace spends on memory operations (copies and sets): "memory time", "memory-op share"
MEMORY_TIME = re.compile(r"\bmemory[ -](ops? |operations? |copy |copies |transfers? )?(time|share|duration)s?\b")
# What a profiler trace can tell: when each kernel, op and copy ran and for how long, so times, shares of the
# window, counts and overheads (the trace planner refuses other measures; the reader takes the next reading)
TRACE_MEASURES = {"time", "latency", "share", "utilization", "overhead", "count", "duration"}
# a measured figure set against the peak a spec sheet or paper states: "what fraction of theoretical peak",
# "measured versus theoretical", "percent of peak fp64" (app.intents.metric_lookup adds the stated peak; a link's
# is link_efficiency's)
OF_PEAK = re.compile(r"(\b(fraction|percent(age)?|share|how close)\b|%).{0,30}\b(theoretical|nominal|rated|stated|spec|"
                     r"peak|(link|line|port|wire) (rate|speed))\b|\b(measured )?(vs\.?|versus|against|compared (to|with)) (the |its )?"
                     r"(theoretical|nominal|rated|stated|spec(ified)?)( peak)?\b|\bof (the |its )?(theoretical|nominal) "
                     r"peak\b", re.I)
# a word of message sizes: a size with its unit, "message", "transfer", "sweep"
SIZE_WORD = re.compile(r"size|\bsz\b|byte|\d\s*[kmgt]i?b?\b|\b[kmgt]i?b\b|message|msg|transfer|buffer|payload|sweep|"
                       r"curve|kilo|mega|giga|\d+[kmg]\b")
# words of pairs of devices or of a grid of them ("between", "pairwise", "heat map"): where one is said, a question
# may be about each pair (a grid); GRID_OF_PAIRS adds the point-to-point names, which mean transfers between pairs
_PAIR_NOUNS = r"pairs?|pairwise|peers?|between|matri\w*|grids?|heat ?maps?|all[- ]to[- ]all"
PAIR_WORDS = re.compile(rf"\b({_PAIR_NOUNS})\b")
GRID_OF_PAIRS = re.compile(rf"\b({_PAIR_NOUNS}|p2p|peer[- ]to[- ]peer)\b")
# the size at which a measure is at its extreme, asked for ("at which message size does the H200 pair reach its
# highest all-reduce busbw", "allgather busbw peak size", "gtx980 best scope pageable h2d bandwidth message size"):
# one value over every size and the size it is at, no size picked first and no curve
SIZE_OF_THE_EXTREME = re.compile(r"\b(at )?(which|what) (message |msg |transfer |buffer )?size\b.{0,80}\b(?P<x>"
                                 r"highest|lowest|peaks?|peaking|maximum|minimum|max|min|best)\b|"
                                 # "minisummit pinned h2d into gpu0: size with the highest bw"
                                 r"\bsize (with|of|giving|that gives|that yields|at) (the )?(?P<y>highest|lowest|"
                                 r"peak|maximum|minimum|max|min|best)\b|"
                                 # "busbw 2 gpus: winning message size", "allgather busbw peak size"
                                 r"\b(?P<z>winning|best|peak|optimal|top|fastest) (message |msg |transfer |buffer )?"
                                 r"size\b|"
                                 # "gtx980 best scope pageable h2d bandwidth message size": terse, the size last
                                 r"\b(best|peak|optimal|top|fastest|highest|lowest)( [\w-]+){1,5} (message|msg|"
                                 r"transfer|buffer) size\W*$", re.I)
# "at any message size", "over all sizes": an extreme asked over every size, no size picked first and no curve
ANY_SIZE = re.compile(r"\b(at|over|across|for) (any|all|every) (message |transfer |buffer |data )?sizes?\b")
# "memory bandwidth" said of a GPU: its device memory's (app.intents.metric_lookup), never a pair of GPUs
MEMORY_BANDWIDTH = re.compile(r"\bmemory (read )?(bandwidth|bw)\b", re.I)

# "all collectives", "every NCCL collective", "which collective is fastest": each collective the system stores
COLLECTIVE_OPS = ("allreduce", "allgather", "alltoall", "broadcast", "reduce", "reduce_scatter", "gather", "scatter",
                  "sendrecv")
ALL_COLLECTIVES = re.compile(r"\b(all|every|each|which|what|the)( of)?( the)?( nccl| mpi)? collectives?\b|"
                             r"\bcollectives\b")


def precision_readings(words: list[str], slots: dict[str, Any]) -> dict[str, list[Any]]:
    """"peak fp16 tensor core throughput of the V100": tensor cores multiply fp16 and accumulate in fp32, which
    the V100's spec sheet states as mixed precision; tried only when nothing is stored as fp16."""
    if slots.get("precision") == "fp16" and any(w.lower().startswith("tensor") for w in words):
        return {"precision": ["mixed"]}
    return {}


# transport conditions (Tartan's "over PCIe" / "over NVLink" runs) and the link type each names
CONDITION_LINK_TYPES = {"pcie": "PCIe", "nvlink": "NVLink"}

# a condition and its counterpart: named together, the question is about the difference (the congestion intent)
CONDITION_PAIRS = ({"congestion_free", "under_load"}, {"cc_on", "cc_off"})
# the conditions of the congestion experiments, both sides of each pair
CONGESTION_CONDITIONS = frozenset().union(*CONDITION_PAIRS)


# each condition's other side: "not pinned" is pageable, "other than in-place" out-of-place, "excluding the loaded
# case" congestion-free, "when it does not go over NVLink" the PCIe mode
COMPLEMENTS = {"pinned": "pageable", "in_place": "out_of_place", "under_load": "congestion_free", "nvlink": "pcie",
               "p2p_on": "p2p_off", "cc_on": "cc_off"}
COMPLEMENTS.update({v: k for k, v in list(COMPLEMENTS.items())})
# conditions named by a switch alone ("congestion control"), which "off" after the name turns to the other side
_SWITCHES = {"cc_on"}
# the words that turn a switch off
_OFF = r"(off|disabled|deactivated)\b"
SWITCHED_OFF = re.compile(r"\b" + _OFF)
_NEGATION = (r"\b(not|non|isn'?t|aren'?t|wasn'?t|weren'?t|other than|excluding|except( for)?|besides)\s*-?\s*"
             r"(the |that |go |going |run |runs |be )?(over |via |through |using |in )?")


def negated_condition(said: str, cond: str, surfaces: list[str]) -> Optional[str]:
    """The other side of `cond` where the question says it negated ("memory that isn't pinned", "the one that's not
    in-place", "non-NVLink mode", "congestion control off"); None where it is not negated or has no other side."""
    if cond not in COMPLEMENTS:
        return None
    forms = {re.sub(r"[\s-]+", r"\\s*-?\\s*", re.escape(f.lower()).replace("\\ ", " ").replace("\\-", "-"))
             for f in [cond.replace("_", " "), *surfaces]}
    said = re.sub(r"\b(\w+) n't\b", r"\1n't", re.sub(r"\s*'\s*", "'", said))   # "isn ' t", "is n't" as typed
    said_forms = "(" + "|".join(sorted(forms)) + ")"
    # "with congestion control off", "congestion control turned off": a switch said off after its name (not where
    # the speaker takes it back: "off no on i mean on")
    return COMPLEMENTS[cond] if re.search(_NEGATION + said_forms + r"\b", said) or cond in _SWITCHES and re.search(
        r"\b" + said_forms + r"\s+(is |was |being )?(turned |switched |left )?" + _OFF
        + r"(?!\s*,?\s*(no|sorry|i mean|wait)\b)", said) else None


def names_a_condition_pair(conditions: set[str]) -> bool:
    return any(pair <= conditions for pair in CONDITION_PAIRS)


# ---- what a part is (memory per GPU, cores, models): stated in the components table, read by app.intents._specs ----

# a measured quantity named beside the memory ("memory bandwidth", "memory usage") is no capacity
_MEASURED_NEAR = re.compile(r"\b(bandwidth|bw|throughput|latency|latencies|speed|fast|faster|slower|copy|copies|"
                            r"usage|used|utili[sz]ation|read|write|reads|writes|transfer|transfers|triad|stream|"
                            r"access|clock|power|energy|time|runtimes?|[gtpm]?flops|gflop/s|tflop/s|watts?|overhead|"
                            r"speedup|slowdown|maxflops|rates?|peak)\b")
_G_P_U = r"(g ?p ?us?|gpus?|graphics cards?|cards?|devices?|accelerators?)"
_I_P_U = r"(i ?p ?us?|ipus?)"
_CAPACITY = re.compile(r"\b(how much|how many (gb|gigabytes|gib|mb|mib)( of)?|amount of|size of( the)?|capacity|"
                       r"total)\b.{0,40}\b(memory|ram|hbm2?|vram|dram)\b|\b(memory|ram|hbm2?|vram) (capacity|size|"
                       r"per)\b|\b(gpu|device|host|system|main|ipu|on-chip|in-processor) memory\b|\b(memory|ram)"
                       r" (does|do|is|has)\b|^(gpu )?memory\b|\bram\b|\bvram\b")
_HOST_MEMORY = re.compile(r"\b(host|system|main|cpu|node) (memory|ram)\b|\bram\b|\bdram\b|\bddr4?\b")
_TOTAL = re.compile(r"\b(total|in all|altogether|combined|aggregate|all (the )?(gpus|ipus) together)\b")
# one part named as what holds the total ("one IPU", "a single GPU", "each card")
_ONE_PART = re.compile(r"\b(one|a single|single|each|every|per|an?) (gpu|ipu|i p u|g p u|card|device|chip|"
                       r"accelerator)\b")
_COUNTING = re.compile(r"\b(how many|number of|count of|core count|cores per|per (socket|cpu|node))\b")
# (the words between are skipped lazily: "how many NVSwitch chips" counts NVSwitches, the first part named)
_COUNTED_PART = re.compile(r"\b(how many|number of|count of)\b( \w+)??( \w+)?? (?P<part>" + _G_P_U + "|" + _I_P_U +
                           r"|cpus|sockets|processors|nvswitch(es)?|pcie switches|tiles|boards|cores|chips)\b"
                           r"|\b(?P<part2>gpus|ipus|g p us|i p us) per node\b"
                           r"|\b(most|fewest|least|more than \w+|fewer than \w+) "
                           r"(?P<part3>gpus|ipus|g p us|i p us|cores)\b"
                           # "dgx2 nvswitch count": the count said after the part, as in a search box
                           r"|\b(?P<part4>nvswitch(es)?|pcie switch(es)?|gpus?|ipus?|g p us?|i p us?|sockets?|boards?|"
                           r"chips?|tiles?) (count|counts)\b")
_LINKS_PER_PART = re.compile(r"\b(nvlinks?|nvlink (ports|connections|bricks|links|interfaces)|envy links?|"
                             r"ipu[- ]?links?( interfaces)?|link interfaces|links)\b.{0,30}\b(each|per|one|a single|"
                             r"every) (gpu|ipu|g p u|i p u|[pvha]\d{3}s?)\b")
# a network switch or adapter (not the NVSwitch or a PCIe switch inside a node)
_NETWORK_PART = (r"((network|infiniband|ib|ethernet|edr|hdr) )?(switch(es)?|nics?|hcas?|(network )?adapters?|"
                 r"network cards?)")
_MODEL = re.compile(r"\b(cpu|gpu|processor|ipu|chip)s? models?\b|\bmodel of (the |its )?(cpus?|gpus?|processors?)\b"
                    r"|\b(what|which) (kind of |type of |sort of )?(cpus?|gpus?|processors?)\b"
                    r"( (does|do|is|are|did|has|have|in|on)\b| \w+ (use|uses|run|runs|have|has)\b)"
                    r"|\bwhat (cpus?|gpus?|processors?) (is|are) in\b|"
                    # "ri2 network switch brand", "which NIC does the azure cluster use": the network parts' maker
                    r"(?<!pcie )\b" + _NETWORK_PART
                    + r" (models?|brands?|makes?|vendors?|manufacturers?|makers?)\b|"
                    r"\b(models?|brands?|makes?|vendors?|manufacturers?|makers?) of (the |its |their )?(\w+ )?"
                    + _NETWORK_PART + r"\b|\b(what|which) (kind of |type of |sort of |brand of )?" + _NETWORK_PART
                    + r" (does|do|is|are|has|have)\b")
_SOFTWARE = re.compile(r"\b(os|operating system|driver( version)?|cuda version|software stack|nvidia driver)\b")
# "which GPUs in the DGX-1 P100 have no direct NVLink to GPU0": a question about the graph, not the parts
_GRAPH_WORDS = re.compile(r"\b(connect(ed|s|ion|ions)?|direct|hops?|path|link(s|ed)? (to|over|with|via)|reach|attached|"
                          r"topology|between|joins?|wired|shar(e|es|ing) (an?|the|one|their|its)|"
                          # "which gpus sit behind the same pcie switch": parts grouped by what they hang off
                          r"behind (an?|the|one|its|their)|(the )?same (\w+ )?(switch|socket|root complex|board|nic|bus))\b")


# "GaspiLS speedup vs number of cores", "how many gpus did hy-fi scale to": a count as the axis of a measurement
_OVER_COUNTS = re.compile(r"\b(scal\w*|speedup|efficiency|vs|versus|against|grows?|goes|going|run|runs|ran|used|"
                          r"measured|benchmarked|tested|linear\w*)\b|\bfrom \S+ to \S+|\b(by|over|across|per|with) (the |their )?(gpu|ipu|node|core|rank|"
                          r"process|g p u|i p u) counts?\b|\bas an? func?tion of\b")


def _part_of(said: str, default: str = "gpu") -> str:
    if re.search(r"\b" + _I_P_U + r"\b", said):
        return "ipu"
    network = re.search(r"(?<!pcie )\b" + _NETWORK_PART + r"\b", said)
    if network:
        return "switch" if "switch" in network.group(0) else "nic"
    gpu_said = re.search(r"\b" + _G_P_U + r"\b", said)
    if re.search(r"\b(cpus?|processors?|sockets?)\b", said) and not gpu_said:
        return "cpu"
    if not gpu_said:
        # "how much memory does an XMP-64 core have": the part named, where no GPU is ("cuda cores" are a GPU's)
        for word, part in (("core", "core"), ("chip", "chip"), ("tile", "tile"), ("board", "board")):
            if re.search(rf"\b(?<!cuda )(?<!tensor ){word}s?\b", said):
                return part
    return default


# "when tensor cores are on", "with tensor cores": how a kernel was run, not the cores a GPU has
_TENSOR_CORE_SETTING = re.compile(r"\btensor cores? (are |is |were |was )?(turned )?(on|off|enabled|disabled)\b|"
                                  r"\b(with|without|using|no) (the )?tensor cores?\b")


# A copy between host memory and a GPU said in words: "hand 16 MB of results back to pageable host memory", "stage a
# checkpoint from pageable host memory onto GPU 15", "uploaded to the Titan RTX from pinned write-combined memory"
# the kinds of host memory a copy names (Scope's "wc" is write-combined)
HOST_MEMORY_KINDS = r"pageable|pinned|page ?-? ?locked|write ?-? ?combined|wc"
_HOST_KIND = rf"(({HOST_MEMORY_KINDS}) )"
# (where the data lands, said as memory or as coming back: "gpu one to host pageable" is a pair of ends, as labelled)
_BACK_TO_HOST = re.compile(r"\bback (to|into|onto) (the )?" + _HOST_KIND + r"*(host|cpu|memory)\b|"
                           r"\b(to|into|onto) (the )?" + _HOST_KIND + r"*(host|cpu) (memory|ram|buffers?)\b|"
                           r"\b(to|into|onto) (the )?" + _HOST_KIND + r"+(host|cpu|memory)\b")
_FROM_HOST = re.compile(r"\bfrom (the )?" + _HOST_KIND + r"*(host )?(memory|host|ram)\b|\buploa(d|ded|ding|ds)\b|"
                        r"\bstag(e|ed|es|ing) .{0,40}\b(onto|to|into) (the )?(gpu|device|card)")
_HOST_KIND_SAID = re.compile(r"\b(pageable|pinned|page ?-? ?locked|write ?-? ?combined)\b")


def host_copy_direction(said: str) -> Optional[str]:
    """"h2d" or "d2h" where the words move data between a kind of host memory (pageable, pinned, write-combined) and
    a GPU without naming the copy, else None. Only those host-memory kinds make it a copy: "how much host memory"
    is the part's size (spec_question), "to the host" alone may be a link of the graph."""
    if not _HOST_KIND_SAID.search(said):
        return None
    back, up = _BACK_TO_HOST.search(said), _FROM_HOST.search(said)
    if bool(back) == bool(up):
        return None
    return "d2h" if back else "h2d"


# a memory size asked for in a unit ("..., in bytes?", "how many bytes of memory")
_SIZE_UNITS = {"bytes": "bytes", "kib": "KiB", "kb": "KB", "kilobytes": "KB", "mib": "MiB", "mb": "MB",
               "megabytes": "MB", "gib": "GiB", "gb": "GB", "gigabytes": "GB"}
_IN_A_UNIT = re.compile(r"\b(?:in|as|into) (bytes|kib|kb|kilobytes|mib|mb|megabytes|gib|gb|gigabytes)\b|"
                        r"\bhow many (bytes|kib|kilobytes|mib|megabytes|gib|gigabytes)\b")


def spec_question(said: str) -> Optional[dict[str, Any]]:
    """The property of a part a question asks for, as slots ({"spec", "part"[, "spec_total"]}), or None when it
    asks for a measurement, a graph or anything else. `said` is the question's lower-cased words."""
    out: Optional[dict[str, Any]] = None
    said = _TENSOR_CORE_SETTING.sub(" ", said)   # a setting of the run names no part
    graph = _GRAPH_WORDS.search(said)
    if _CAPACITY.search(said) and not _MEASURED_NEAR.search(said):
        part = "host" if _HOST_MEMORY.search(said) else _part_of(said)
        out = {"spec": "memory", "part": part if part != "cpu" else "host"}
        unit = _IN_A_UNIT.search(said)
        if unit:   # "how much on-chip memory does one IPU have, in bytes?": the amount in that unit
            out["spec_unit"] = _SIZE_UNITS[unit.group(1) or unit.group(2)]
    elif _LINKS_PER_PART.search(said) and not re.search(r"\b(bandwidth|bw|rate|speed|nominal|gb/s|latency|latencies)\b|"
                                                       r"\b(every|each|all|both) (g p u |gpu |ipu |i p u )?pairs?\b",
                                                       said) \
            and not re.search(r"\bconnect\w* (each |every |a |the )?(gpu|ipu|g p u|i p u)s? to\b", said):
        # ("how many NVLink bricks connect each GPU to its CPU" is the graph's: the links between two parts)
        out = {"spec": "links", "part": _part_of(said)}
    elif re.search(r"\bcuda cores\b", said) and not _MEASURED_NEAR.search(said):
        out = {"spec": "cuda_cores", "part": "gpu"}
    elif re.search(r"\b(how many|number of|count of)( \w+){0,2} tensor cores\b|\btensor cores? (count|per)\b", said):
        # ("how many spins ... when tensor cores are on": a setting of the run, not the cores counted)
        out = {"spec": "tensor_cores", "part": "gpu"}
    elif re.search(r"\btiles (per|does|on|of) (each |an? |one )?(ipu|i p u)\b|\bhow many tiles\b", said) \
            and not _MEASURED_NEAR.search(said):
        out = {"spec": "tiles", "part": "ipu"}
    elif re.search(r"\bcore counts?\b|\bhow many cores\b|\bnumber of cores\b", said) and not graph \
            and not re.search(r"\b(cuda|tensor)\b", said) and not _MEASURED_NEAR.search(said) \
            and not _OVER_COUNTS.search(said):
        # "which cpu does the titan rtx box use and how many cores", "compare CPU core counts": the CPUs' cores (or
        # the cores listed as parts, where no CPU states them)
        out = {"spec": "cores", "part": "cpu"}
    elif _COUNTING.search(said) and re.search(r"\bcores\b", said) and not graph \
            and re.search(r"\b(each|per|one|a single|every|the) (cpu|socket|processor|node|chip)\b|cores (does|do|"
                          r"are|in|has)\b", said) and not _MEASURED_NEAR.search(said):
        out = {"spec": "cores", "part": "cpu"}
    elif (m := _COUNTED_PART.search(said)) and not graph and not _MEASURED_NEAR.search(said) \
            and not _OVER_COUNTS.search(said):
        word = (m.group("part") or m.group("part2") or m.group("part3") or m.group("part4") or "").replace(" ", "")
        kinds = {"gpu": "gpu", "car": "gpu", "dev": "gpu", "acc": "gpu", "gra": "gpu", "ipu": "ipu", "cpu": "cpu",
                 "soc": "cpu", "pro": "cpu", "nvs": "nvswitch", "pci": "pcie_switch", "til": "tile",
                 "boa": "board", "cor": "core", "chi": "chip"}
        out = {"spec": "count", "part": kinds.get(word[:3], "gpu")}
    elif _MODEL.search(said) and not graph and not _MEASURED_NEAR.search(said) \
            and not re.search(r"\b(pairs?|fastest|slowest|best|worst|highest|lowest|most|least)\b", said):
        out = {"spec": "model", "part": _part_of(said)}
    elif _SOFTWARE.search(said) and re.search(r"\b(version|run|runs|running|installed|use|uses|what|which)\b", said) \
            and not _MEASURED_NEAR.search(said):
        out = {"spec": "software", "part": "host"}
    if out and out["spec"] == "memory" and _TOTAL.search(said) and out["part"] != "host" \
            and not _ONE_PART.search(said):
        # ("how much memory does one IPU hold in total": one part's whole memory, not the machine's)
        out["spec_total"] = True
    return out


# an end of the size axis named as the point asked for ("a minimum size message", "at the largest message size"):
# a value at the smallest or the largest size stored, not a sweep and not the lowest or highest value
SIZE_END = re.compile(r"\b(?P<end>smallest|minimum|min|minimal|tiniest|tiny|largest|maximum|max|biggest)( possible)?"
                      r"[ -](size[ -])?(messages?|msgs?|transfers?|buffers?|packets?|payloads?|message sizes?|"
                      r"msg sizes?|transfer sizes?)\b")
# "which NCCL environment variables should I set", "how do I enable peer access in my code": advice, which no stored
# measurement answers (a derivation from the data would be a confident answer to another question)
ADVICE = re.compile(r"\b(environment variables?|env vars?|"
                    # (not a setting the data has both sides of: "should I enable P2P for copies from GPU0 to GPU1")
                    r"should i (set|use|enable(?! (p2p|peer|congestion control|cc)\b)|tune|install|configure)|"
                    r"how (do|can|should) i (enable|set|configure|install|tune|fix|speed up|optimi[sz]e|improve|write|"
                    r"compile|build|debug)|"
                    # "fix my CUDA out of memory error": a request for help with the asker's own code or setup
                    r"(fix|debug|troubleshoot) (my|our|this|the) (\w+ ){0,5}(errors?|crash\w*|bugs?|issues?|problems?"
                    r"|failures?|hangs?|code|program|job|setup|config\w*)|help me (fix|debug|troubleshoot)|"
                    # an action on the asker's files or machines ("convert this trace to perfetto format"), and the
                    # live state of a machine ("how many users are logged into the h200 node right now"): no stored
                    # measurement is either
                    r"^(please )?((convert|export|upload|delete|rename) (this|that|these|those|the|my|our) "
                    r"(\w+ )?(traces?|files?|profiles?|outputs?|logs?|reports?|results?|runs?)|reboot|restart|kill|"
                    r"submit|schedule)|"
                    # a machine's setting to be changed ("please lower the power limit of the DGX-2 GPUs"): an action
                    r"^(please |(can|could|would) you (please )?)?(lower|raise|set|change|increase|decrease|cap|"
                    r"throttle|overclock|underclock|adjust|bump) (the |its |their |our |my )?(\S+ ){0,5}(power|clock|"
                    r"fan|frequency|voltage)s?( limits?| caps?| speeds?| settings?)?\b|"
                    # results to be sent somewhere ("email these DGX-2 NVLink results to my supervisor")
                    r"^(please )?(e ?-? ?mail|mail|send|forward|share) (this|that|these|those|the|my|our) (\S+ ){0,4}"
                    r"(traces?|files?|profiles?|outputs?|logs?|reports?|results?|runs?|numbers|plots?|charts?|"
                    r"tables?)\b|"
                    # the batch queue's live state ("what's the current queue wait time on ThetaGPU"): no measurement
                    r"\bqueue (wait|waiting|time|length|depth|position|status)|\bwait(ing)? (time )?in the queue\b|"
                    r"logged (in|into|on)( to)?|currently (running|logged|online|free|idle)|"
                    # a what-if about hardware nobody measured ("what would the allreduce bandwidth be if we added a
                    # third h200"): a prediction, which no stored measurement is
                    r"(would|will) .{1,60} (be|b|get|look|reach) if (we|i|you|they) (add|added|buy|bought|upgrade|"
                    r"upgraded|double|doubled|triple|tripled|swap|swapped|replace|replaced)|"
                    r"if (we|i) (added|add|bought|buy|upgraded|upgrade) (a|an|one|two|three|four|another|more|extra)\b"
                    r".{0,40}\bwhat would|"
                    # "if we swapped the PCIe 3 switches for PCIe 5, how much faster would ...": the what-if first
                    r"\bif (we|i|you|they) (swapped|swap|replaced|replace|upgraded|upgrade|doubled|double|tripled|"
                    r"triple|added|add|bought|buy) .{1,100}\b(would|will)|"
                    # "predict dgx2 allreduce bw with 32 gpus", "can you forecast ...": a prediction asked for (a stored
                    # prediction, "what does MAPredict predict", is not: the verb is not the request there)
                    r"^(please |(can|could|would) you (please )?)?(predict|forecast|extrapolate)|"
                    # "will Graphcore's next chip beat the H200 pair": a machine nobody has measured yet
                    r"\b(will|would|could)\b.{0,40}\b(next|upcoming|future|coming|new) (chip|generation|gen|gpu|ipu|card|"
                    r"model|machine|system|node|version)s?\b|"
                    # "what will the H200 pair's bandwidth be after the next driver update": a change not yet made
                    r"\b(will|would|gonna)\b.{0,60}\b(after|once|when|with|at|in|during) (the |a |an |its |our )?"
                    r"(next|upcoming|"
                    r"future|coming|new|planned|latest) ([\w-]+ ){0,2}(updates?|upgrades?|releases?|versions?|drivers?|"
                    r"firmware|patch(es)?)\b|"
                    # "what will the bandwidth be once NCCL 3.0 is out": a release nobody has measured yet
                    r"\b(will|would)\b.{0,60}\b(once|when|after) .{1,30} (is|are|gets?|comes?) (out|released|"
                    r"shipped|available)\b|"
                    # "ssh session to the ipu host", "log me in to Yme": a shell on the machine, no data question
                    # ("which Slurm partition holds the DGX-2 nodes": the scheduler's set-up, no measurement)
                    r"\bslurm\b|\b(which|what) (batch |job )?(partition|queue)s?\b|"
                    # "what priority does the Lassen job scheduler give a Hy-Fi training job": the batch system's
                    # policy ("a placement scheduler" of the asker's own is no such thing)
                    # (the speller reads "scheduler", no word of the vocabulary, as "schedule")
                    r"\bjob schedul(e|er|ers)\b|\b(job|queue|scheduling|scheduler|schedule) priorit(y|ies)\b|"
                    r"\bpriorit(y|ies)\b.{0,60}\b(schedul(e|er|ers)|queues?|jobs?)\b|"
                    # "xeon 8280 server bios version": the board's firmware, which no document here states
                    r"\b(bios|vbios|uefi)\b|"
                    # "which Linux kernel does Mini Summit boot": the operating system's kernel, which no document
                    # here states; "reserve whichever GPU is free next week": a booking
                    r"\blinux kernel\b|\bkernel (version|release)s?\b|\b(os|operating system)\b.{0,20}\bkernel\b|"
                    r"\bboots?\b|^(please )?(reserve|book|allocate)\b|\bfree next (week|month|day)\b|"
                    # "in a power-outage scenario does the DGX-2 shut down cleanly", "how long does compiling NCCL
                    # from source take": operations and builds, which no benchmark here measured
                    r"\bshut(s|ting)? ?down\b|\bpower[- ]?(outage|failure|cut)s?\b|\bcompil(e|es|ed|ing|ation|ers)\b|"
                    r"\b(which|what) compiler\b(?! instrumentation)|"
                    r"\bfrom source\b|"
                    r"\bssh\b|\blog (me |us )?(in|on) ?to\b|\b(remote|shell|terminal|login) sessions?\b|"
                    # "where does Lassen's login node sit", "how do i book time on the h two hundred pair": access to
                    # a machine, no measurement
                    r"\blogin nodes?\b|\b(book|reserve|schedule) (\w+ )?(time|hours|slots?|a slot)\b|"
                    # "what latencies does the campus VPN add for logins to Yme", "what latency does yme show for a
                    # zoom call": the network to reach a machine, a meeting's call
                    r"\b(vpn|vpns|logins?|log-?ins?)\b|\b(zoom|teams|skype|video|phone|conference) calls?\b|"
                    # "who wrote the scope benchmark": a tool's authors, which no row stores
                    r"\bwho (wrote|developed|created|authored|maintains|designed|built)\b|"
                    # "how much do both the H200 pair and the DGX-2 weigh": a machine's mass
                    # (not "... wait for each other", heard as "weight for")
                    r"\bweighs?\b|\bhow heavy\b|\b(weight|mass) of\b|\bweights? (in|kg|kilos?|pounds|lbs)\b|"
                    # "what cable length separates GPUs 0 and 15": the cabling's size, not the path's hops
                    r"\b(cable|cables|cabling|wire|wires) (lengths?|distances?)\b|"
                    r"\blengths? of (the )?(cable|cables|wire|wires)\b|"
                    r"\bhow long (is|are) the (cable|cables|wire|wires)\b|"
                    # "ipu system rack airflow": the room around a machine
                    r"\b(airflow|air flow|air ?cooling|cooling|rack space|floor space)\b|"
                    # "can you email me these results": a delivery, no data question
                    r"\b(e-?mail|mail|text|slack) (me|us|them|it|this|these|the results)\b|"
                    # "what's the best compiler flag for gromacs on epyc": build advice, which no benchmark here measured
                    r"\b(best|optimal|fastest|right|recommended|ideal|good) (compiler|compile|build|gcc|nvcc|icc|clang|"
                    r"linker|optimi[sz]ation) (flags?|options?|settings?|switches)\b|"
                    r"\b(compiler|compile|build|gcc|nvcc|icc|clang|linker) (flags?|options?|switches)\b.{0,30}\b(best|"
                    r"optimal|fastest|right|recommended|ideal|should)\b|"
                    # "can you open my perfetto trace from last night": the asker's own file, which is not loaded
                    r"^(please |(can|could|would) you (please )?)?(open|load|import|read|analy[sz]e|look at) (my|our) |"
                    r"\b(my|our) (own )?(\w+ ){0,2}(traces?|profiles?|recordings?|logs?|captures?|runs?) from (last|"
                    r"yesterday|this (morning|afternoon|week)|earlier|today|tonight)\b|"
                    # "DROP TABLE measurements;": a statement that would change the data, never run, no question
                    r"^\s*(drop|delete|truncate|insert|update|alter|create|grant|revoke)\s+(table|from|into|database|"
                    r"view|index|schema|\w+\s+set)\b|"
                    # "translate the DGX-2 latency summary into German": a service on the answer, no measurement
                    r"^(please |(can|could|would) you (please )?)?translate\b|\b(translated? )?(in|into|to) (german|"
                    r"french|spanish|italian|chinese|japanese|korean|norwegian|swedish|dutch|portuguese|russian|"
                    r"hindi|arabic)\b|"
                    # "memory bandwidth per dollar": prices, which no benchmark here stores
                    r"\bper (dollar|euro|buck|pound|yen|\$|€)|\b(price|cost)[- ](performance|efficien\w*)\b|"
                    r"\bbang for (the|your|our) buck\b|"
                    # "export every measurement to an Excel workbook": an office file to be made, not a question (the
                    # rows of an answer come as CSV from the UI and `hpcask report`)
                    r"\bexport\b.{0,60}\b(to|into|as) (an? |the )?(excel|xlsx|spreadsheet|workbook|pdf|powerpoint|"
                    r"word document)\b|"
                    # "which is better for gaming, the Titan RTX or the GTX 980": a use no benchmark here measured
                    r"\bfor (gaming|games|playing games|video editing|crypto ?mining|mining)\b|"
                    # "draft an email to my supervisor saying the benchmarks are done": a message to someone
                    r"\b(draft|write|compose|send) (me )?(an? )?(e-?mail|letter|message|reply|slack message) to\b|"
                    # "what busbw will the next NVIDIA generation reach": hardware nobody has measured yet
                    r"\b(will|would|going to)\b.{0,60}\b(next|future|upcoming|unreleased|coming) (\w+ )?(generation|gen|"
                    r"gpus?|cards?|chips?|hardware)\b|\b(next|future|upcoming|unreleased) (\w+ )?(generation|gen|gpus?|"
                    r"cards?|chips?|hardware)\b.{0,60}\b(will|would)\b|"
                    # "delete the Titan RTX rows from the database": a change to the data, never made from a question
                    r"^(please |(can|could|would) you (please )?)?(delete|remove|erase|wipe|purge|drop) (\S+ ){0,6}?"
                    r"(rows?|data|measurements?|runs?|records?|entries|entry|tables?|numbers|results?)\b|"
                    # "what will the all-reduce busbw be once NCCL 3 ships": a release nobody has measured yet
                    r"\b(once|when|after) (the )?[\w.-]+( [\w.-]+){0,2} (ships|is released|comes out|is out|lands|"
                    r"gets released)\b|"
                    # "email the DGX-2 P2P matrix to my advisor": the answer sent to someone, which no query does
                    r"^(please |(can|could|would) you (please )?)?(e-?mail|mail|send|forward|slack|post) (\S+ ){1,8}?"
                    r"to (my|our|the|his|her|their) (advisor|adviser|supervisor|boss|manager|team|group|colleagues?|"
                    r"professor|prof|pi|lab|channel|mailing list)\b|"
                    # "can you optimise my CUDA kernel for the Titan RTX": work on the asker's own code
                    r"\b(optimi[sz]e|tune|rewrite|speed up|port|profile) (my|our) (\w+ ){0,3}(kernels?|code|program|"
                    r"application|app|script|job|model)\b|"
                    # "can you explain what a roofline model is": a definition, which no stored number gives
                    r"\b(explain|define|describe) (to me )?what (an? |the )?[\w -]{2,40} (is|are|means?)\b"
                    r"(?!.{0,40}\b(stored|loaded|measured|recorded|in the (database|data))\b)|"
                    # "Turn tensor cores on for the DGX-2 convolution runs": a setting to change, said as an order
                    r"^(please )?(turn|switch|flip) (\S+ ){1,4}?(on|off)\b(?! (the|a|an) )|^(please )?(turn|switch|flip) "
                    r"(on|off) (\S+ ){1,4}?(for|on|in) |^(please )?(enable|disable|reboot|restart|reinstall|"
                    r"upgrade|downgrade|overclock|underclock) (the |its |their )?\S+|"
                    # "Start a new Scope run on the Titan RTX": a run to begin, which the tool never does
                    r"^(please |(can|could|would|will) you (please )?|let's |lets )?(start|launch|kick off|begin|queue|"
                    r"submit|schedule|fire off|trigger) (up )?(a |an |the |another )?(new |fresh |quick |second )?"
                    r"(\S+ ){0,3}?(run|job|benchmark|test|measurement|sweep|profile|trace)s?\b|"
                    # "gtx980 driver download link": where to get software, no measurement
                    r"\b(download (link|page|site|url)|driver downloads?|where (can|do) (i|we) (download|get|buy|order))\b|"
                    # "could you run Scope again on Yme tonight": a benchmark run asked for, which the tool never does
                    r"^(please |(can|could|would|will) you (please )?)(re-?run|run|launch|start|repeat|redo) (\S+ ){0,4}?"
                    r"(again|tonight|tomorrow|today|now|later|overnight|this (evening|week|weekend))\b|"
                    # "which of these machines will nvidia stop supporting first": a vendor's plans, nobody's measurement
                    r"\b(will|going to)\b.{0,40}\b(stop supporting|drop support|end support|deprecate|discontinue|"
                    r"retire|go end of life|reach end of life)\b|"
                    # "convert this CSV of our own benchmark results into a chart": the asker's own file
                    r"^(please |(can|could|would) you (please )?)?(convert|turn|plot|chart|graph|load|import) (this|that|"
                    r"these|my|our) (\w+ )?(csv|spreadsheet|excel|json|file|table)s?\b|"
                    # "remind me to rerun the scope benchmark on friday": a reminder or a calendar entry, no data
                    r"^(please |(can|could|would) you (please )?)?(remind me|set (a|an) (reminder|alarm)|schedule a|"
                    r"add (it|this|that) to my calendar)\b|"
                    # "draw a roofline for my own CUDA kernel": a chart of the asker's own code, which nobody measured
                    r"\b(for|of) my (own|on) (\w+ ){0,2}(kernels?|code|program|application|app|script|job)\b|"
                    # "can you set the NCCL_ALGO variable to Tree on the H200 box for me": an action on a machine
                    r"^(please |(can|could|would) you (please )?)(set|change|install|configure|enable|disable|switch|"
                    r"flip|turn|update|upgrade|reserve|book|allocate)\b.{0,80}\b(for me|on (the|my|our) )|"
                    # "how long until the H200s are returned", "how many staff does Graphcore employ": a loan's
                    # schedule, a company's facts
                    r"\bhow long (until|till|before) ([\w-]+ ){0,6}(returned|given back|back|available|free|shipped)\b|"
                    r"\b(staff|employees|headcount|revenue|share price|stock price|market cap\w*)\b|"
                    r"\bhow many people (does|do) \S+ employ\b|"
                    # "what does one share of graphcore stock cost": a company's shares, no measured share
                    r"\bshares? of ([\w-]+ )?stock\b|\b(stock|shares) (trade|trades|traded|sell|sells|sold)\b|"
                    # "can you put some tunes on": a service no benchmark data gives
                    r"\b(play|put on|put) (some |a |the )?(music|tunes?|songs?|playlist|radio|podcast)\b|"
                    # "what will the h200 bus bandwidth be next year with a newer nccl": a future nobody measured
                    r"\bwhat will .{1,80}\bbe\b.{0,40}\bnext (year|month|release|generation)\b|"
                    r"\bwhat will .{1,80}\bbe (in the future|with (a |the )?(newer|next|"
                    r"future)|(once|when|after|if) (we|i|you|they) (upgrade|update|switch|move|install|add|buy|"
                    r"replace|swap)\w*)|"
                    # an account of what a machine used over a period ("how many kilowatt-hours did the IPU system
                    # use last month"): metering, which no benchmark measurement is
                    r"\b(kilowatt[- ]?hours?|kwh|megawatt[- ]?hours?|mwh)\b|\b(use|used|draw|drew|drawn|consumed?|"
                    r"emit|emitted|spen[dt]|burn(ed|t)?)\b.{0,40}\b(last|past|previous) (month|week|quarter|year|"
                    r"night)\b|"
                    # reliability and uptime: no performance measurement holds them
                    r"\bmean time (between|to) failures?\b|\bmtbf\b|\buptime\b|"
                    # a service to be done ("can you install NCCL 2.21 on the H200 node for me", "can you write me a
                    # cuda kernel"): work on the asker's machines or code, not a measurement
                    r"(can|could|would|will) you (please )?(install|reinstall|upgrade|deploy|set up|configure|update|"
                    r"write|implement|code up|re ?-? ?run|execute|launch|submit|redo|repeat|tune|start|stop|kill|"
                    r"reboot|restart|reset|cap|lock|schedule|profile|benchmark|book|reserve|allocate)\b|"
                    # compute time to be booked ("book me two nodes on ThetaGPU for tomorrow morning")
                    r"^(please )?(book|reserve|allocate) (me )?(a|an|one|two|three|four|for|\d+|some|the)\b|"
                    # a run to be made and handed over ("run nccl-tests all_reduce_perf on the H200 node for me")
                    r"^(please )?run\b.{1,100}\bfor me\b|"
                    # ... or now ("run nccl-tests on the H200 pair now"), and work on the asker's own code ("optimise
                    # my PyTorch training loop") or a setting to be changed on a machine ("turn on p2p on the titan")
                    r"^(please )?(re-?)?run\b.{1,100}\b(now|again|tonight|today)\b|"
                    r"^(please )?(optimi[sz]e|tune|speed up|profile) (my|our)\b|"
                    r"^(please )?(turn|switch) (on|off)\b|^(please )?(enable|disable) (p2p|peer|nvlink|ecc|mig|"
                    r"congestion control|cc)\b|"
                    # a profiler to be started now ("start profiling rank zero now and stream the trace to perfetto")
                    r"^(please )?(start|stop|begin|kick off|launch) (profiling|tracing|recording|a profile|a trace|the "
                    r"profiler|(an? )?(nsys|n sys|ncu|n c u|nsight)( capture| profile| trace| run)?)\b|"
                    # a file to be sent ("email me the h200 csv")
                    r"^(please )?(email|e-mail|mail|send|text|slack|message) (me|us|them|it)\b|"
                    # a file to be opened in another tool ("open the H200 trace in the Perfetto UI for me")
                    r"^(please |(can|could|would) you (please )?)?(open|load|import|view|display) .{0,60}\b(in|into|"
                    r"with) (the )?(perfe(c|t)t?[oa]\w*|chrome|nsight|tensorboard|hta|hatchet|speedscope|vampir|"
                    r"snakeviz)\b|"
                    # a limit to be put on a machine ("set a 250 W power cap on all the Yme GPUs")
                    r"^(please )?(set|put|apply|enforce) (a|an|the) .{0,60}\b(cap|limit|governor)\b|"
                    # a future nobody measured ("will the IPU's power draw over the next year fit our rack budget")
                    r"\b(over|during|in) the (next|coming) (few )?(years?|months?|quarters?|weeks?)\b|"
                    # ... or support, lifetime and footprint nobody measured ("which systems will still get vendor
                    # support in five years", "the carbon footprint of the lassen training runs")
                    r"\b(in|within|for|after) (\w+ )?(years?|months?)( time)?\b.{0,20}$|\b(vendor |product )?support "
                    r"(lifetime|life ?cycle|ends?|window)\b|\b(end of life|eol|warranty|carbon|co2|emissions?)\b|"
                    # the people who run a machine, asked about ("do the admins of yme and mini summit talk to one
                    # another"; not the asker's own job: "sysadmin here: ...", "our admins keep arguing about ...")
                    r"\b(do|does|did|are|were|will|who are|who is) (the|its|their) (\w+ )?(admins?|administrators?|"
                    r"sysadmins?)\b|\bthe (admins?|administrators?|sysadmins?) (of|for)\b|"
                    # where a machine stands and what it looks like ("the rack location of the IPU system", "what
                    # color are the front panels of the DGX-2"), and how one reaches it ("the hostname for logging
                    # in to Mini Summit")
                    r"\brack (location|position|number|slot|row)s?\b|\b(which|what) rack\b|\bracked\b|"
                    r"\bphysically (sits?|sitting|located|placed|housed|installed|stands?|standing|kept|stored)\b|"
                    r"\bwhat colou?rs? (is|are|does|do)\b|\b(colou?r|paint) of (the|its|their)\b|"
                    r"\bhost ?names?\b|\bip address(es)?\b|\blogging (in|on) ?to\b|"
                    # "how many users share Mini Summit": who uses a machine, which no run records
                    r"\bhow many (users|people|researchers|students|accounts|groups|teams)\b|"
                    # "what software licences does yme hold": what the site bought, which no run records
                    r"\blicen[cs](es?|ing|ed)\b|"
                    # "which compiler builds the SHOC binaries on Mini Summit": no run here records its compiler
                    r"\b(which|what) compilers? (\w+ )?(builds?|built|compiles?|compiled|was|were|is|are|did|does|"
                    r"do)\b|"
                    # "which compiler flags speed up LAMMPS": build settings, which no benchmark here varied
                    r"\b(which|what) (compiler|compile|build|gcc|nvcc|icc|clang|linker) (flags?|options?|switches) "
                    r"((would|will|should|could|can|might) )?(speed|make|improve|help|boost|give|get|yield|maximi[sz]e|"
                    r"optimi[sz]e)\w*\b|"
                    # GPU generations after the newest stored (Hopper's H200): "will Rubin-generation NVLink double
                    # the H200's bandwidth" asks about hardware nothing here measured
                    r"\b(rubin|blackwell|feynman)\b|"
                    # prices: no benchmark stores what hardware costs ("h200 price per gpu")
                    r"\b(price|prices|pricing|msrp|list price|discounts?|rebates?|fees?|subscriptions?)\b|"
                    r"\bcharges? (\w+ ){0,2}for (a|an|one|each|the) \w+|"
                    r"\bcosts? (new|to buy|to purchase|brand new|at retail)\b|"
                    r"\bcost per (gpu|node|hour|card|unit|ipu)\b|"
                    # "the monthly power bill of the dgx2": what the power costs, no measured draw
                    # "what electricity does an hour of all-reduce traffic use": energy over a time, no stored draw
                    r"\b(electricity|energy)\b.{0,60}\b(an|per|one|each|a full) (hour|day|month|year)\b|"
                    r"\b(kwh|kilowatt[- ]hours?|megawatt[- ]hours?)\b|"
                    # "which of the IPU system boards carries the oldest firmware", "what keyboard layout does the GTX
                    # 980 desktop use": software versions and desk hardware, which no benchmark here records
                    r"\b(oldest|newest|latest|which|what) (\w+ )?firmware\b|\bfirmware (version|release|level)s?\b|"
                    r"\bkeyboards?\b|\bmouse\b|\bmice\b|"
                    # "what noise level does the GTX 980 desktop give", "what power cable goes into the Titan RTX
                    # desktop", "which thermal paste sits on the GPUs", "which airline ships spare parts", "github stars
                    # of the scope repo", "what money does Azure spend on electricity": no benchmark records these
                    r"\b(noise|loudness|decibels?|dba)\b|\bpower (cables?|cords?|plugs?|sockets?|outlets?)\b|"
                    r"\bthermal (paste|pads?|compound)\b|\bairlines?\b|\bspare parts?\b|\bgithub\b|\bstars? (on|of)\b|"
                    r"\b(what|how much) money\b|"
                    # "what memory error rate does gpu0 see", "what power supply does the titan rtx desktop use", "which
                    # vendor supplies the network cables of ri2": faults, power units and cabling no benchmark records
                    # (a stored prediction "error" is not a device's fault)
                    r"\b(memory|ecc|dram|hbm|bit|correctable|uncorrectable) errors?\b|\bpower suppl(y|ies)\b|\bpsus?\b|"
                    # "which company supplies the power distribution units for yme": the rack's power strips
                    r"\bpower distribution( units?)?\b|\bpdus?\b|\bpower strips?\b|"
                    r"\b(network|ethernet|fibre|fiber|optical|copper|infiniband|ib) (cables?|cabling)\b|"
                    # "which screw size fits the dgx-1 v100 rails": mounting hardware
                    r"\bscrews?\b|\b(rack|mounting|slide) rails?\b|"
                    # "which ups model protects the ri2 racks": the room's power backup
                    r"\b(ups|u p s) (models?|modles?|units?|systems?|batter(y|ies))\b|\buninterruptible\b|"
                    # "what battery life does client 3 give": no machine here runs on a battery
                    r"\bbatter(y|ies)\b|"
                    r"\b(which|what) ups\b|"
                    # "which fan model cools the titan rtx desktop": the cooling parts (a fan's speed is stored; "TACC's
                    # liquid-cooled system" is Frontera Liquid)
                    r"\bfans? (models?|brands?|makes?|types?|vendors?|manufacturers?)\b|"
                    # "lassen coolant pump model": the liquid cooling's parts
                    r"\b(coolant|chillers?|radiators?|cold plates?|heat exchangers?)\b|"
                    r"\b(coolant|water|cooling|liquid) pumps?\b|\bpumps? (models?|brands?|makes?|types?|vendors?)\b|"
                    # "which vendor supplies the HBM2 stacks of the DGX-2 GPUs": who makes a part, no measurement
                    r"\b(suppl(y|ies|ied)|suppliers?|manufactures?|manufactured|fabricates?)\b.{0,30}\b(hbm\w*|memory|"
                    r"dram|stacks?|chips?|dies?)\b|"
                    r"\b(hbm\w*|memory|dram) (suppliers?|vendors?|makers?|manufacturers?)\b|"
                    # "what delivery lead time does nvidia give for the h200 pair": a vendor's order book
                    r"\b(delivery|lead|shipping|procurement) times?\b|\blead[- ]times?\b|\bdeliver(y|ies)\b|"
                    # "what rack space is free in the Lassen machine room" (heard "what tracks spaces ..."): the room
                    r"\b(machine|server|computer) rooms?\b|"
                    # "which datacenter hosts the h200 pair", "what campus houses summit": where a machine stands
                    r"\bdata ?cent(er|re)s?\b|\b(which|what) (city|country|building|campus|facility|institution|"
                    r"university|lab|site)s? (hosts?|houses?|runs?|operates?|owns?)\b|"
                    r"\b(power|energy|electricity|electric|utility|utilities|cooling) (bills?|invoices?|costs?|"
                    r"tariffs?|expenses?)\b|\b(monthly|yearly|annual|weekly|daily) (power |energy |electricity )?"
                    r"(bills?|costs?|spend)\b|"
                    # "who rents out time on the 16-GPU V100 server": a provider, no measurement
                    r"\bwho (rents?|sells?|leases?|hosts?|offers?)\b|\brent(s|ing)? out\b|\b(rent|lease) (\w+ )?(time|"
                    r"hours|nodes)\b|"
                    # (not what a setting costs a run: "how much does disabling P2P cost the DGX-1 on 1000 MB copies")
                    r"\bhow much (does|do|did|would) (?!\w+ing\b).{1,40}\bcost\b|"
                    # "is Azure cheaper per node-hour than the in-house cluster": what time on a machine costs
                    r"\b(cheaper|pricier|costlier|(more|less) expensive)\b|\bper (node|gpu|core|ipu)[- ]?hours?\b|"
                    r"write me (a|an|some|the)\b|^(please )?(write|implement|code up|generate) (me )?(a|an|some)\b|"
                    # code asked for ("cuda tiled matmul kernel code", "source code for a ring all-reduce")
                    r"(kernel|source|sample|example|starter|boilerplate) code\b|\bcode (for|to|that) (a|an|the|my)\b|"
                    # the same service asked for with the verb first ("Install NCCL 2.21 on the H200 node for me",
                    # "rerun the Tartan benchmark on Yme with 64 MB messages")
                    r"^(please )?(install|reinstall|deploy|set up|configure|re ?-? ?run|run (it |them )?again|redo|"
                    r"launch|execute|upgrade|update(?! me\b)|downgrade|patch|uninstall)\b|"
                    # the asker's own machine to be measured ("benchmark my laptop", "profile our new cluster")
                    r"^(please )?(benchmarks?|profile|measure|test|stress ?-?test) (my|our|this|the new)\b|"
                    # a number to be worked out that nobody measured ("estimate the allreduce time for 64 h200s")
                    r"^(please )?(estimate|extrapolate|simulate|project)\b|"
                    # a setting to be changed ("set heid gpu clocks to 1500 MHz", "lock the h200 clocks at 1980"):
                    # an action on a machine, not a measurement
                    r"^(please )?(set|change|lower|raise|overclock|underclock|lock|cap|limit|reset|pin) (?!of\b).{1,60}"
                    r"\b(to|at) \d+|^(please )?(overclock|underclock)\b|"
                    # "what would the H200 all-reduce curve look like if NVLink were twice as fast": a counterfactual
                    # machine (a stored condition, "if P2P was off", is not one: the magnitude word is the cue)
                    r"\b(would|will)\b.{1,80}\bif\b.{1,60}\b(were|was|got|became|had)\b.{0,30}\b(twice|half|"
                    r"\d+ ?x|\d+ times|(two|three|four|ten) times|faster|slower|bigger|smaller|doubled|halved|"
                    r"wider|more|fewer)\b)\b")
# words that ask what is stored rather than for a value
LISTING = re.compile(r"\b(list|lists|listing|which|available|exist|exists|stored|loaded|inventory|catalog|"
                     r"what (data|metrics|measurements|runs|benchmarks|tools|systems|traces))\b")
# the live state of a machine ("is the dgx2 busy right now") is no stored measurement; the data held now ("which
# systems have you got data for right now", "what data do you have at the moment") is the inventory, and a stored
# measure asked "at the moment" ("what BusSpeedReadback bandwidth does the Titan RTX reach at the moment", "how are
# Yme's GPUs and CPUs connected at the moment") is answered from what is stored
_NOW = re.compile(r"\b(right now|at the moment)\b")
_LIVE_STATE = re.compile(r"\b(busy|free|idle|in use|available|online|offline|up|down|running|utili[sz]\w*|load|loaded|"
                         r"temp\w*|hot|users?|queue\w*|jobs?|time is it|happening|doing|say|says|reads?)\b")
_DATA_HELD = re.compile(r"\b(data|datasets?|loaded|stored|measurements?|results|benchmarks|traces|runs|(in|on) (the )?"
                        r"(database|db|catalog))\b")


# how a measurement was made: the tool's version and settings, the repetitions averaged, the timer, the programs
# that produced the numbers ("which version of nccl-tests produced the H200 numbers", "how many timed iterations
# per size", "which timer was used", "which deepbench programs produced the yme times")
_SETUP_ASKED = re.compile(
    r"\b(which|what) ([\w-]+ ){0,3}(vers?is?ons?|verison|timers?|settings|parameters|flags|options|builds?|command"
    r"( line)?|compiler(?![ -]instrument)( flags)?)\b"     # (instrumentation by the compiler is a condition)
    r"|\bhow many ([\w-]+ ){0,2}(iterations|repetitions|reps|warm ?-? ?ups?|trials)\b"
    r"|\b(averaged|repeated) over\b"
    r"|\b(which|what) ([\w-]+ ){0,2}(programs?|progams?|binaries|executables?) (produced|generated|gave|made|measured)\b"
    r"|\b(recorded|run|measured|produced|compiled) with (which|what)\b"
    # "ipu16 tools + versions": a terse request for the tools and their versions
    r"|\b(tools?|benchmarks?) ?(\+|&|and|with( their)?) ?(vers?ions?|settings|flags)\b"
    r"|\bhow (was|were) (it|they|that|those|these|the [\w -]{1,40}?) (measured|timed|recorded|obtained|collected)\b")


# versions of what a machine runs, not of what measured it ("what bios version does the gtx980 box have")
_MACHINE_SOFTWARE = re.compile(r"\b(bios|firmware|driver|drivers|os|operating system|kernel|microcode|vbios)\b")


def asks_setup(said: str) -> bool:
    """Whether the question asks how a measurement was made (its runs' settings), not for a measured value. A
    second question joined on ("how does busbw evolve with size, and which NCCL version was it run with") leaves
    the first one asked."""
    m = _SETUP_ASKED.search(said)
    return bool(m) and not _MACHINE_SOFTWARE.search(said) and not re.search(r"(,|\?) ?(and|also)\b|\b(and|also) ?$",
                                                                          said[:m.start()])


@lru_cache(maxsize=8)
def asks_advice(said: str) -> bool:
    """Advice, a service, a prediction or a machine's live state: what no stored measurement answers.

    The reader asks this of one question's words about three times, and ADVICE (some 13,000 characters of
    alternatives) takes about a quarter of a millisecond each time on a laptop core: the last few answers are kept.
    So few that a question asked again later is searched again, as a new question would be."""
    return bool(ADVICE.search(said)) or bool(_NOW.search(said) and _LIVE_STATE.search(said)
                                             and not _DATA_HELD.search(said))
