"""Slots the stored data implies where the question leaves them out: the metric an operation was only ever measured
as, the operation an app or library was measured with, a link named where a copy mode is meant, the precision or
family of kernels stored, the system a tool or an application points to. The reader (nlu.pipeline) calls these
after it has read the words; each looks at the catalog (app.catalog.Catalog), never at the question's SQL."""
from __future__ import annotations

import re
from typing import Any, Optional

from nlu.cues import CONDITION_PAIRS, SAME_MEASURE

POINT_TO_POINT = {"p2p", "h2d", "d2h", "d2d"}

MEASUREMENT_INTENTS = {"metric_lookup", "size_sweep", "pair_matrix", "compare_systems", "scaling", "congestion"}
# operations that move data to a destination; any other (a kernel, a benchmark) runs on the one device named
_MOVES_DATA = POINT_TO_POINT | {"allreduce", "allgather", "alltoall", "broadcast", "reduce", "reduce_scatter",
                                "gather", "scatter", "send", "recv", "sendrecv", "exchange"}
# parts that a number names one of in the stored endpoints ("gpu3", "tile 646"); the reader's _NUMBERED_PARTS too
DEVICE_PREFIXES = ("gpu", "ipu", "tile", "core")


def _only_metric(intent: str, slots: dict[str, Any], catalog) -> None:
    """"titan rtx pageable h2d 1GB" names no metric, but every host-to-device row stored for the Titan RTX
    is a bandwidth: the operation implies the metric when, on each system asked about, it was measured as one
    metric only (the same one). Where it was measured several ways, the metric stays open for the planner."""
    op, sid = slots.get("operation"), slots.get("system")
    if intent not in MEASUREMENT_INTENTS or "metric" in slots or not op or not sid:
        return
    found: set[str] = set()
    for s in [sid, *(slots.get("compare_with") or [])]:
        found |= catalog.op_metrics(s, op)
    if intent == "congestion":
        # "LAMMPS slowed by an all-to-all congestor": only what was measured under congestion says what a
        # congestion question asks (the in-house cluster's all-to-all rows are a share of MPI time, no slowdown)
        congested = set().union(*CONDITION_PAIRS)
        found = {m for (s, m, o, c) in catalog.combos if m in found and o == op and c in congested
                 and s in (sid, *(slots.get("compare_with") or []))}
    if len(found) == 1:
        slots["metric"] = next(iter(found))


def _max_flops(intent: str, slots: dict[str, Any], catalog) -> None:
    """"the max single precision flops of GPU0 on Yme": where every system asked about ran SHOC's MaxFlops, the
    "max" of a FLOP rate at one precision names that benchmark (maxspflops / maxdpflops, built to reach the peak),
    not the highest of whatever kernels were measured (a DGEMM's 7.2 TFLOP/s beside MaxFlops' 8.1)."""
    sid, prec = slots.get("system"), slots.get("precision")
    if intent not in MEASUREMENT_INTENTS or "operation" in slots or slots.get("aggregate") != "max" \
            or slots.get("metric") not in (None, "flops") or prec not in _PRECISION_OPS or not sid \
            or slots.get("condition") in ("spec", "theoretical", "nominal"):
        # ("the fp64 peak spec tflops": the figure a spec sheet states, which no benchmark measured)
        return
    op = f"max{_PRECISION_OPS[prec]}flops"
    if all(op in catalog.operations.get(s, set()) for s in [sid, *(slots.get("compare_with") or [])]):
        slots["operation"] = op
        slots["metric"] = "flops"
        del slots["aggregate"]


# (SAME_MEASURE, nlu/cues.py. A time asked as a latency, or the other way round, is left to the planner, whose
# answer then says which name the tool used: the two differ in what they time.)


def _metric_as_stored(intent: str, slots: dict[str, Any], catalog) -> None:
    """"ipu gemm throughput on one versus two ipus": where the operation was never measured under the metric
    named but only under its other name, the slot takes the stored name, so the reading says what is answered
    (the planner would otherwise answer under the other name after a "nothing is stored" preamble)."""
    m, op, sid = slots.get("metric"), slots.get("operation"), slots.get("system")
    if intent not in MEASUREMENT_INTENTS or not (m and op and sid) or m not in SAME_MEASURE:
        return
    have: set[str] = set()
    for s in [sid, *(slots.get("compare_with") or [])]:
        have |= catalog.op_metrics(s, op)
    if m in have:
        return
    alts = [a for a in SAME_MEASURE[m] if a in have]
    if len(alts) == 1:
        slots["metric"] = alts[0]


# words that begin a stored operation's name but name a thing of the graph: "link" of link_speed is said of any
# link ("the 25 GB/s per-link nominal"); the links' speed is read by its own rule (nlu.pipeline, _LINK_SPEED)
_NO_FAMILY = frozenset({"link", "links"})


def _stored_family(name: str, ops) -> list[str]:
    """The system's stored operations named `name` plus a suffix ("sgemm" -> sgemm_n, sgemm_t, ...), plainest
    first."""
    if name in _NO_FAMILY:
        return []
    return sorted((o for o in ops if o.startswith(f"{name}_")), key=lambda o: (len(o), o))


def family_spans(words: list[str], slots: dict[str, Any], catalog) -> list[tuple[int, int, dict[str, Any]]]:
    """"sgemm vs dgemm flops on the dgx2": each word that names a family of the system's stored operations, as a
    vocabulary match of that family's plainest member, whatever the tagger made of the word (for
    several_operations, which sets such names side by side)."""
    sid = slots.get("system")
    if catalog is None or not isinstance(sid, str):
        return []
    ops = catalog.operations.get(sid, set())
    out = []
    for i, w in enumerate(words):
        lw = w.lower()
        family = _stored_family(lw, ops) if len(lw) >= 4 and lw.isalnum() else []
        if family:
            out.append((i, i + 1, {"operation": family[0]}))
    return out


def operation_family(intent: str, words: list[str], taken: set[int], slots: dict[str, Any], catalog
                     ) -> Optional[str]:
    """"the mean sgemm throughput on yme": a word no slot took that names a family of the system's stored
    operations (SHOC's sgemm_n, sgemm_t, ..._pcie) is that operation; the plainest member is read, and the note
    says which others exist. Without this the metric alone would pick any operation's throughput."""
    sid = slots.get("system")
    if catalog is None or "operation" in slots or not sid or intent not in MEASUREMENT_INTENTS | {"link_efficiency"}:
        return None
    ops = catalog.operations.get(sid, set())
    for i, w in enumerate(words):
        lw = w.lower()
        if i in taken or len(lw) < 4 or not lw.isalnum():
            continue
        family = _stored_family(lw, ops)
        if family:
            said = " ".join(words).lower()
            # "sgemm, T variant", "the transposed sgemm": the member that variant names
            variant = f"{family[0][:-2]}_t" if family[0].endswith("_n") and _T_VARIANT.search(said) else None
            # the member that has rows under the condition asked ("the IPU's nominal local-memory bandwidth": only
            # local_memory_access has a nominal figure), else the plainest
            cond = slots.get("condition")
            with_cond = [f for f in family if cond and (ms := catalog.op_metrics(sid, f, cond))
                         and slots.get("metric") in (None, *ms)]
            pick = variant if variant in family else with_cond[0] if with_cond else family[0]
            slots["operation"] = pick
            others = ", ".join([f for f in family if f != pick][:3]) + (" ..." if len(family) > 4 else "")
            return f"{w} read as {pick}" + (f" (also stored: {others})" if others else "")
    return None


# "T variant", "the T version", "transposed": SHOC's GEMM with the matrix transposed (sgemm_t, dgemm_t)
_T_VARIANT = re.compile(r"\bt (variant|version|flavou?r)\b|\btransposed\b")


def app_family(unresolved, slots: dict[str, Any], catalog) -> list[str]:
    """"hy-fi speedup for resnet on lassen": "resnet" begins several applications and names none of them.
    On a named system the answer keeps to that family (ResNet-110 and ResNet-218v2 there), never to another
    application; the notes say so. Returns the notes."""
    from nlu.vocab import key
    sid = slots.get("system")
    stored = sorted(catalog.app_ops.get(sid, {})) if sid else []
    for slot, surface, _a, _b in unresolved:
        k = key(surface)
        if slot != "app" or len(k) < 3:
            continue
        family = [a for a in stored if key(a).startswith(k) and key(a) != k]
        if family:
            slots["app"] = family if len(family) > 1 else family[0]
            return [f"'{surface}' read as any of {', '.join(family)}" if len(family) > 1
                    else f"'{surface}' read as {family[0]}"]
    return []


def _version_free(name: str) -> str:
    from nlu.vocab import key
    return re.sub(r"v(?=\d)", "", key(name))


def app_spelled_otherwise(slots: dict[str, Any], catalog) -> list[str]:
    """"the batch size the DGX-1 V100 used for Inception-v3": one network stored under two names by two documents
    (inception3 beside inception_v3); where the system has only the other spelling, that is the one meant. Returns
    the notes."""
    sid, app = slots.get("system"), slots["app"]
    stored = catalog.app_ops.get(sid, {}) if isinstance(sid, str) else {}   # lower-cased names
    if not stored or app.lower() in stored:
        return []
    same = [a for a in stored if _version_free(a) == _version_free(app)]
    if len(same) != 1:
        return []
    # the name as the data writes it (the catalog's keys are lower-cased)
    written = next((a for a in sorted(catalog.apps) if a.lower() == same[0]), same[0])
    slots["app"] = written
    return [f"{app} read as {written}, as {catalog.name(sid)}'s source writes it"]


def copy_bandwidth(intent: str, slots: dict[str, Any], catalog, words: Optional[list[str]] = None) -> bool:
    """"yme h2d write-combined 1GiB gpu2", "which pairs of GPUs are slow": a copy named without a metric is
    asked about by its bandwidth, where the benchmarks also logged its time or latency (SHOC, Scope). Only
    where every system asked about has that bandwidth; a congestion question stays open (its measure is the
    slowdown). True when the metric was set."""
    op, sid = slots.get("operation"), slots.get("system")
    if catalog is None or intent not in _COPY_INTENTS or "metric" in slots or op not in POINT_TO_POINT or not sid:
        return False
    if words is not None and any(w.lower() in _TIME_WORDS for w in words):
        return False   # "how much longer does a GPU0-GPU1 exchange take": a time, whichever one
    if not all("bandwidth" in catalog.op_metrics(s, op) for s in [sid, *(slots.get("compare_with") or [])]):
        return False
    slots["metric"] = "bandwidth"
    return True


_LEADING_AGGREGATE = {"best", "highest", "max", "maximum", "fastest", "worst", "lowest", "min", "minimum", "slowest"}


def items_per_second(said: str, slots: dict[str, Any], catalog) -> bool:
    """"how many random numbers per second can the IPU's PRNG produce": things counted per second are a
    throughput (bytes or flops per second are the vocabulary's bandwidth and flop rate), where every system asked
    about measured the operation as one. True when the metric was set."""
    op, sid = slots.get("operation"), slots.get("system")
    m = _PER_SECOND.search(said)
    if catalog is None or "metric" in slots or not m or not sid or m.group(1) in _RATE_NOUNS:
        return False
    have = [catalog.op_metrics(s, op) if op else catalog.metrics.get(s, set())
            for s in [sid, *(slots.get("compare_with") or [])]]
    if not all("throughput" in h for h in have):
        return False
    slots["metric"] = "throughput"
    return True


_PER_SECOND = re.compile(r"\b([a-z]+) (?:per|a|each) (?:second|sec)\b")
_RATE_NOUNS = {"bytes", "byte", "kilobytes", "megabytes", "gigabytes", "terabytes", "bits", "gigabits", "megabits",
               "flops", "flop", "gigaflops", "teraflops", "operations", "ops", "times", "cycles", "hz"}
_TIME_WORDS = {"take", "takes", "took", "taking", "long", "longer", "duration", "wait", "waits"}
_COPY_INTENTS = MEASUREMENT_INTENTS - {"congestion"}


def _could_be(sid: str, surfaces: list[str], catalog) -> bool:
    """Every system name the question said that we could not resolve shares a word with this system's names
    ("the xeon 6148 cluster" and "Xeon Gold 6148 EDR InfiniBand cluster"; not "Aurora Xe" and the IPU system)."""
    info = catalog.systems.get(sid)
    names = [info.name, *info.aliases] if info else [sid]
    theirs = {w for n in names for w in _name_words(n)} - _GENERIC_NAME_WORDS
    # ("an NVIDIA B300 node" is no H200 node: a model number said that the system's names lack rules it out)
    return all(_name_words(s) & theirs and not any(
        re.fullmatch(r"[a-z]+\d+[a-z]*", w) and w not in theirs for w in _name_words(s)) for s in surfaces)


def _name_words(text: str) -> set[str]:
    """The words of a name that can tell systems apart, singular ("a C2 board" shares "c2" and "board" with
    "8 C2 PCIe boards"): three letters or more, or a letter and a digit."""
    out = set()
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        if len(w) >= 3 or (re.search(r"[a-z]", w) and re.search(r"\d", w)):
            out.add(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


# ("an A100 pair" shares no more than "pair" with "the H200 pair")
_GENERIC_NAME_WORDS = {"the", "system", "systems", "cluster", "node", "nodes", "machine", "test", "with", "and",
                       "gpu", "gpus", "cpu", "cpus", "pair", "pairs", "box", "duo",
                       # a vendor is shared by many machines ("an NVIDIA B300 node", "2x NVIDIA H200 node")
                       "nvidia", "amd", "intel", "ibm"}


# how that note begins, for the asker to tell an implied machine from a named one
IMPLIED_SYSTEM = "no system named:"


def only_system_note(name: str) -> str:
    """The note an answer carries when no machine was named and the one machine that has what the words name was
    taken (by the reader here, or by the asker for an application only one machine ran): said the same either way."""
    return f"{IMPLIED_SYSTEM} {name} is the only loaded system with what the question names"


def infer_implicit(intent: str, slots: dict[str, Any], catalog, unknown: Optional[list[str]] = None,
                   traces: bool = False) -> None:
    """Slots a question implies without naming them, from what the database holds.

    - "from IPU5 to IPU4" names no system, but only one system has an ipu5: that one (likewise a link type,
      library, app or counted part only one system has, unless the question names an unknown system that is
      not that one).
    - a device-to-device pair with no operation is a peer-to-peer transfer.
    - "over NVLink" / "PCIe mode" in a measurement question is the condition the benchmarks
      recorded (Tartan, Comm|Scope), when the system has such measurements.
    - an operation measured one way only on the system ("h2d" on the Titan RTX: bandwidth) gives the metric.
    """
    if catalog is None:
        return
    if "system" not in slots:
        # the devices first: "tile646 to tile0 latency on chip" is the IPU's (only it has a tile646), whatever
        # other system has on-chip links
        owners = None
        for k in ("src", "dst"):
            cid = slots.get(k)
            if cid and cid != "host":
                have = {sid for sid, comps in catalog.components.items() if cid in comps}
                owners = have if owners is None else owners & have
        if owners and len(owners) == 1:
            slots["system"] = next(iter(owners))
    if "system" not in slots:
        # "IPU links", "GaspiLS", "destination tiles": a word only one system has names that system (unless the
        # question named a system we do not know that is not it: "Aurora ... two PVC tiles" is not the IPU)
        for k in ("link_type", "library", "app", "count_kind"):
            v = slots.get(k)
            own = "trace_library" if k == "library" and traces else k   # "PyTorch traces": the trace tool's
            have = (catalog.link_owners(str(v)) if k == "link_type" else
                    catalog.owners.get((own, v if k == "count_kind" else str(v).lower()))) if v else None
            if have and len(have) == 1 and _could_be(next(iter(have)), unknown or [], catalog):
                slots["system"] = next(iter(have))
                break
    if "system" not in slots and slots.get("metric") and intent in MEASUREMENT_INTENTS and \
            any(slots.get(k) for k in ("count_kind", "operation")):
        # "call-graph profiler slowdown as the process count grows": together, what is measured and what it is
        # measured over name the one system that has both
        have = {sid for sid, ms in catalog.metrics.items() if slots["metric"] in ms}
        if slots.get("count_kind"):
            have &= catalog.owners.get(("count_kind", slots["count_kind"]), set())
        if slots.get("operation"):
            have &= {sid for sid in have if slots["operation"] in catalog.operations.get(sid, set())}
        if len(have) == 1 and _could_be(next(iter(have)), unknown or [], catalog):
            slots["system"] = next(iter(have))
    app_operation(slots, catalog)
    library_as_app(slots, catalog)
    op, sid = slots.get("operation"), slots.get("system")
    if op and sid and op not in catalog.operations.get(sid, set()):
        # "triad" on Yme, where SHOC's triad is stored as triad_bw: the one operation of that name there
        stored = catalog.operations.get(sid, set())
        # ... or "triad_bw" (SHOC's name) on SuperMUC-NG, where STREAM's triad is stored: the stored parent name
        named = _stored_family(op, stored) or [o for o in stored if op.startswith(f"{o}_")]
        if len(named) == 1:
            slots["operation"] = named[0]
    src, dst = slots.get("src"), slots.get("dst")
    if slots.get("operation") == "memcpy" and sid and "memcpy" not in catalog.operations.get(sid, set()) \
            and "p2p" in catalog.operations.get(sid, set()) and (
                str(slots.get("link_type") or "").lower().startswith("nvlink")
                or (str(src).startswith(DEVICE_PREFIXES) and str(dst).startswith(DEVICE_PREFIXES))):
        # "the NVLink x2 pairs on the DGX-1 V100, halfduplex memcpy": a copy between two GPUs, which the system
        # stores as its peer-to-peer transfers
        slots["operation"] = "p2p"
    if (intent in MEASUREMENT_INTENTS | {"link_efficiency"} and "operation" not in slots and src and dst
            and src.startswith(DEVICE_PREFIXES) and dst.startswith(DEVICE_PREFIXES)):
        slots["operation"] = "p2p"
    _link_generation(slots, catalog)
    implied_by_intent(intent, slots, catalog)


def implied_by_intent(intent: str, slots: dict[str, Any], catalog) -> None:
    """What a measurement question implies once its intent is known (the metric an operation was measured by, the
    benchmark "max flops" names, the mode a link names): also run by the asker when an unsure reading is answered
    as the intent the data backs ("wat is the gtx980 maxflops sp": read out of scope, answered as a lookup)."""
    _max_flops(intent, slots, catalog)
    _only_metric(intent, slots, catalog)
    _metric_as_stored(intent, slots, catalog)
    _congested_operation(intent, slots, catalog)
    if intent in MEASUREMENT_INTENTS:
        link_as_mode(slots, catalog)


def link_as_mode(slots: dict[str, Any], catalog) -> None:
    """"over NVLink" / "PCIe mode" in a measurement question: the condition the benchmarks recorded (Tartan,
    Comm|Scope) in place of the link, when the system has measurements in that mode."""
    lt = slots.get("link_type")
    if not lt:
        return
    cond = "nvlink" if lt.lower().startswith("nvlink") else "pcie" if lt.lower().startswith("pcie") else None
    sid = slots.get("system")
    if cond and "condition" not in slots and sid and cond in catalog.conditions.get(sid, set()):
        slots["condition"] = cond
        del slots["link_type"]
    elif cond and slots.get("condition") == cond:
        # "fastest gpu pair on yme over nvlink", read both as the mode and as a link: the mode the benchmark
        # recorded is what the measurement query filters on; the link says nothing more
        del slots["link_type"]


def _link_generation(slots: dict[str, Any], catalog) -> None:
    """"gtx980 pcie efficiency": PCIe on a system whose PCIe links are all one generation is that generation
    (PCIe3), the link type the connection graph stores and nlu/SLOTS.md names; a system with several
    generations, or none, keeps the family name and the planner takes every generation."""
    lt, sid = slots.get("link_type"), slots.get("system")
    if not lt or not sid or str(lt).lower() != "pcie":
        return
    gens = [v for v in catalog.link_family("PCIe") if v != "pcie" and sid in catalog.owners.get(("link_type", v), ())]
    if len(gens) == 1 and gens[0][4:].isdigit():
        slots["link_type"] = f"PCIe{gens[0][4:]}"


def _congested_operation(intent: str, slots: dict[str, Any], catalog) -> None:
    """"ipu latency under load with 1216 tiles": a congestion question that names what is measured but not the
    transfer is about the one operation the system measured under load with that metric (the IPU's
    point-to-point transfers); with several such operations it stays open for the planner."""
    sid, metric = slots.get("system"), slots.get("metric")
    if intent != "congestion" or "operation" in slots or not sid or not metric:
        return
    ops = {o for (s, m, o, c) in catalog.combos if s == sid and m == metric and c == "under_load" and o}
    if len(ops) == 1:
        slots["operation"] = next(iter(ops))


_PRECISION_OPS = {"fp32": "sp", "fp64": "dp"}


_REDUCING_COLLECTIVES = re.compile(r"\ball ?-? ?reduc\w*|\breduce ?-? ?scatter\w*")
_CHANGE_WORDS = {"improvement": r"gain|gains|improvement|improved|improves?|increase|increases|boost|speed ?up",
                 "increase": r"increase|increases|growth|grows|more|extra|additional|go(es)? up|went up|rises?|rose",
                 "reduction": r"reduction|reduce|reduced|reduces|saving|savings|saves?|saved|decrease|cut|lower",
                 "drop": r"drop|drops|loss|decrease|falls?",
                 "difference": r"apart|gap|differs?|difference"}


# the change said with a verb or a comparative beside the metric's own word: "cut the FV update time", "how much
# less time", "how many percentage points apart are the ... efficiencies"
_CHANGE_SAID = {
    "improvement": lambda base: re.compile(rf"\b(improve[sd]?|boost(s|ed)?|raise[sd]?)\b(\s+[\w-]+){{0,3}}\s+{base}\b|"
                                           rf"\b(more|higher|better) {base}\b"),
    "increase": lambda base: re.compile(rf"\b(increase[sd]?|raise[sd]?)\b(\s+[\w-]+){{0,3}}\s+{base}\b"),
    "reduction": lambda base: re.compile(rf"\b(cut|cuts|reduce[sd]?|save[sd]?|shave[sd]?|trim(s|med)?)\b"
                                         rf"(\s+[\w-]+){{0,4}}\s+{base}\b|\b(less|lower|shorter) {base}\b"),
    "drop": lambda base: re.compile(rf"\b(drop|drops|dropped|fall|falls|fell)\b(\s+[\w-]+){{0,3}}\s+{base}\b"),
    "difference": lambda base: re.compile(rf"\bapart\b.{{0,50}}\b{base[:-1] if base.endswith('y') else base}"
                                          rf"(y|ies|s)?\b|\b(gap|difference) (between|in)\b.{{0,50}}\b{base}"),
}


def change_metric(said: str, slots: dict[str, Any], catalog) -> Optional[str]:
    """"lassen deepspeed a2a thruput gain": the metric named (throughput) was never stored on the system, but its
    change was (throughput_improvement, as the paper states it): a word for that change reads the stored metric.
    Returns the note, or None."""
    m, sid = slots.get("metric"), slots.get("system")
    if not sid:
        return None
    said = _REDUCING_COLLECTIVES.sub(" ", said)   # "all-reduce time": a collective's time, no time reduction
    held = catalog.metrics.get(sid, set())
    if not m:
        for stored in sorted(held):
            # "how much do the improved kernels cut the FV update time": no metric read (the tagger took "time" into
            # the operation's words), but the change of one the system stores is said with its verb
            base, _, suffix = stored.rpartition("_")
            if suffix in _CHANGE_SAID and base and _CHANGE_SAID[suffix](base.replace("_", " ")).search(said):
                slots["metric"] = stored
                _drop_change_verb(slots, catalog, sid)
                return f"the {suffix} of {base} asked: {stored}"
        return None
    for suffix in _CHANGE_WORDS:
        # "cut CCZ4 runtime ... (percent time reduction)": the change itself said, beside a plainer word for the
        # metric that the tagger read first
        stored, base = f"{m}_{suffix}", m.replace("_", " ")
        if stored in held and (re.search(rf"\b{base} {suffix}s?\b|\b{suffix}s? (in|of) (the )?{base}\b", said)
                               or _CHANGE_SAID[suffix](base).search(said)):
            slots["metric"] = stored
            _drop_change_verb(slots, catalog, sid)
            return f"the {suffix} of {m} asked: {stored}"
    if m in held:
        return None
    for stored in sorted(held):
        # "how much extra LLC-DRAM traffic": a word of another metric's base (traffic) with its change, where
        # the metric read (bandwidth) was never stored on the system
        base, _, suffix = stored.rpartition("_")
        if suffix in _CHANGE_WORDS and base and re.search(rf"\b{base.replace('_', ' ')}\b", said) \
                and re.search(rf"\b({_CHANGE_WORDS[suffix]})\b", said):
            slots["metric"] = stored
            return f"{m} was never stored there; the {suffix} of {base} asked: {stored}"
    for suffix, words in _CHANGE_WORDS.items():
        stored = f"{m}_{suffix}"
        if stored in catalog.metrics.get(sid, set()) and re.search(rf"\b({words})\b", said):
            slots["metric"] = stored
            return f"{m} is stored there only as its {suffix}: {stored}"
    return None


def _drop_change_verb(slots: dict[str, Any], catalog, sid: str) -> None:
    """"how much did fusion reduce the run time", "llm sim energy reduction": the word for the change read as the
    reduce collective too, where the system stores no reduce: the verb, not the collective."""
    op = slots.get("operation")
    if op in ("reduce", "reduction") and op not in catalog.operations.get(sid, set()):
        del slots["operation"]


def unsaid_precision(slots: dict[str, Any], catalog) -> Optional[str]:
    """"SHOC MaxFlops on the DGX-2 with 1 to 16 GPUs" names no precision, and MaxFlops measures two: its headline
    figure is single precision (maxspflops, the line SHOC prints first), so that is read, and the note says so
    (the planner would otherwise take whichever row came first). Returns the note, or None."""
    app, sid = slots.get("app"), slots.get("system")
    if not app or not sid or "operation" in slots or "precision" in slots:
        return None
    name = re.sub(r"[^a-z0-9]", "", str(app).lower())
    ops = catalog.app_ops.get(sid, {}).get(str(app).lower()) or set()
    sp, dp = f"maxsp{name[3:]}", f"maxdp{name[3:]}"
    if not name.startswith("max") or sp not in ops or dp not in ops:
        return None
    slots["operation"] = sp
    del slots["app"]
    return f"no precision given: single precision ({sp}; ask for double precision for {dp})"


# a library's API call as written in code and in transcripts: "ncclAllReduce", "MPI_Allreduce"
_API_CALL = re.compile(r"(?P<lib>nccl|mpi)_?[A-Z][A-Za-z]+", re.I)


def api_library(words: list[str], vocab) -> Optional[str]:
    """The library whose API call the question names ("how does ncclAllReduce bandwidth scale"), when the
    vocabulary knows it as a library."""
    for w in words:
        m = _API_CALL.fullmatch(w)
        if m and m.group("lib").lower() in vocab.canonicals("library"):
            return m.group("lib").lower()
    return None


def library_as_app(slots: dict[str, Any], catalog) -> None:
    """"DeepBench MPI allreduce on Heid": no row of the system says library MPI, but one benchmark of that operation
    is named for it (nccl_mpi_all_reduce, which runs NCCL under MPI): that benchmark is what the word picks."""
    lib, sid, op = slots.get("library"), slots.get("system"), slots.get("operation")
    if not isinstance(lib, str) or not isinstance(sid, str) or "app" in slots \
            or sid in catalog.owners.get(("library", lib.lower()), set()):
        return
    apps = [a for a, ops in catalog.app_ops.get(sid, {}).items()
            if (op is None or op in ops) and lib.lower() in a.lower().split("_")]
    if len(apps) == 1:
        slots["app"] = next((a for a in sorted(catalog.apps) if a.lower() == apps[0]), apps[0])
        del slots["library"]
    elif not catalog.held("library", sid):
        # "the compressed MPI_Alltoall on Longhorn": no row of the system names any library (the paper's rows are
        # all MPI's), so the word filters nothing out and must not filter everything out
        del slots["library"]


def app_operation(slots: dict[str, Any], catalog) -> None:
    """A benchmark named after its kernel names the operation: SHOC's "Triad" measures triad_bw, "MD5Hash"
    md5hash, "MaxFlops" maxspflops/maxdpflops (the precision picks). With no operation tagged, the one the
    system's runs of that app store under the app's own name becomes the operation, and the app, now saying
    nothing more, is dropped; an app with several unrelated operations (GEMM, Stencil2D) stays as it is. An app
    whose only operation is a host copy (Scope's Comm_Memcpy_HostToGPU) names that copy and stays."""
    app, sid = slots.get("app"), slots.get("system")
    if not app or not sid:
        return
    name = re.sub(r"[^a-z0-9]", "", str(app).lower())
    ops = catalog.app_ops.get(sid, {}).get(str(app).lower())
    if not ops:
        if "operation" not in slots and name in catalog.operations.get(sid, set()):
            slots["operation"] = name    # "triad" on SuperMUC-NG: STREAM's triad, no app there
            del slots["app"]
            return
        parts = [p for p in re.split(r"[^a-z0-9]+", str(app).lower()) if p in catalog.operations.get(sid, set())]
        if "operation" not in slots and len(parts) == 1:
            slots["operation"] = parts[0]    # "stream triad" on SuperMUC-NG: the kernel STREAM's name says
            del slots["app"]
            return
        longer = _stored_family(str(app).lower(), catalog.app_ops.get(sid, {}))
        if len(longer) == 1:
            # "lenet5" on Chifflot, which stores lenet5_mnist only; "ResNet-50 convolution" on the IPU, which
            # stores resnet50_v1.5: the name stored (whether or not an operation is named too)
            slots["app"] = next((a for a in sorted(catalog.apps) if a.lower() == longer[0]), longer[0])
        return
    if "operation" in slots:
        return
    exact = [o for o in ops if re.sub(r"[^a-z0-9]", "", o) == name]
    named = exact or [o for o in ops if o.startswith(name) and o[len(name):len(name) + 1] in ("_", "")]
    if not named and name.startswith("max") and slots.get("precision") in _PRECISION_OPS:
        want = f"max{_PRECISION_OPS[slots['precision']]}{name[3:]}"
        named = [o for o in ops if o == want]
    if len(named) == 1:
        slots["operation"] = named[0]
        del slots["app"]
    elif not named and len(ops) == 1 and next(iter(ops)) in ("h2d", "d2h"):
        # "minisummit Comm_Memcpy_HostToGPU pageable into gpu0": a benchmark of one host copy names that copy (and
        # so which end the GPU named is); the app stays, as the rows are keyed by it
        slots["operation"] = next(iter(ops))
