"""Under load vs congestion-free, congestion control on vs off: slowdown factors.

Two conditions of one experiment are put side by side: rows of the same run with the same metric, case
(the table's experiment label such as IPU Table 4.2 (c), or the congestor pattern such as x12), app,
endpoints, direction and quantity. slowdown = stressed / baseline for time-like metrics (latency, time,
congestion impact) and baseline / stressed for bandwidth, so it is > 1 when the stressed condition is worse.
For congestion control the stressed condition is cc_off (the CC paper's congestion impact is itself a
slowdown vs an isolated run; the ratio says how much worse it is without CC). Where the document prints
its own slowdown for the case, it comes along as reported_slowdown. One named condition names its pair; a
system without that pair is answered with the pair it has (said so), and when nothing pairs up the answer
lists what is stored under each condition for the operation.

A question may name cases by their label ("on the same board", "different boards, no direct link", "the put
incast congestor"): the answer then reports those cases instead of the worst of all. A case is named when a
whole phrase of its label is in the question; the cases with the most label words said win, so "no direct link"
picks (d) over (c), whose "direct IPU link" is said too, and "same board vs cross board" keeps (b), (c) and (d).
"""
from __future__ import annotations

import re
from typing import Any

from app.catalog import Catalog
from app.intents import OutOfScope, Plan
from app.intents._common import (cap, cite, condition_words, endpoint, fmt_ratio, fmt_value, require_ints,
                                 require_system, systems_with, what_words, where_plus)

NAME = "congestion"
WANTS_QUESTION = True     # app.ask passes the question text: case labels ("same board") reach no slot
FILTERS = ("system", "metric", "operation", "src", "dst", "direction", "msg_bytes", "precision", "app", "library")
# (baseline, stressed) condition pairs
PAIRS = {"congestion_free": ("congestion_free", "under_load"), "under_load": ("congestion_free", "under_load"),
         "cc_on": ("cc_on", "cc_off"), "cc_off": ("cc_on", "cc_off")}
PAIR_WORDS = {("congestion_free", "under_load"): ("congestion-free", "under load"),
              ("cc_on", "cc_off"): ("with congestion control", "without congestion control")}
# what measurements of each pair are called in a sentence ("Azure has no congestion-free vs under-load measurements")
PAIR_NAMES = {("congestion_free", "under_load"): "congestion-free vs under-load",
              ("cc_on", "cc_off"): "congestion-control"}

# the rows of both conditions with what pairs them up (the case: a table's experiment label or a congestor
# pattern; the quantity; the case's words); the pairs, slowdowns and the document's own slowdowns are put
# together in Python (_narrow.congestion), which spares DuckDB a self-join and an aggregate over every stored
# slowdown for each question
_SQL = """SELECT m.system_id, m.metric, m.operation, m.app, m.src, m.dst, m.direction, m.count, m.count_kind,
       m.condition, m.statistic, m.value, m.unit, m.source, m.run_id,
       coalesce(m.params->>'experiment_label', m.params->>'pattern', '') AS case_key,
       coalesce(m.params->>'quantity', '') AS quantity,
       coalesce(m.params->>'proximity', m.params->>'congestors', '') AS case_label
FROM measurements m{join}{where}"""

# the slowdowns a document prints itself, per run and case, for the runs that paired up
REPORTED_SQL = """SELECT run_id, coalesce(params->>'experiment_label', params->>'pattern', '') AS case_key,
       any_value(value) AS value
FROM measurements WHERE metric = 'slowdown' AND unit = 'x' AND list_contains($runs, run_id) GROUP BY ALL"""


def _pair_for(s: dict[str, Any], sid: str, cat: Catalog, notes: list[str]) -> tuple[str, str]:
    """The condition pair to put side by side: the one the question names (either side of it names both),
    else the first the system has. A named pair the system lacks gives way to the one it has, said so."""
    have = cat.conditions.get(sid, set())
    if s.get("condition") and s["condition"] not in PAIRS and any(set(p) <= have for p in PAIR_WORDS):
        raise OutOfScope(f"{condition_words(s['condition'])} is not a congestion condition; I compare congestion-free "
                         "with under-load runs and congestion control on with off.")
    if s.get("condition") in PAIRS:
        # (a condition of another kind on a machine with no pair, "ri2 jointbert text query latency idle vs under
        # load", is answered below: no congestion pair there, and where there are some)
        pair = PAIRS[s["condition"]]
        if set(pair) <= have:
            return pair
        other = next((p for p in PAIR_WORDS if p != pair and set(p) <= have), None)
        if other:
            notes.append(f"{cat.name(sid)} has no {PAIR_NAMES[pair]} measurements; what it has is "
                         f"{' vs '.join(PAIR_WORDS[other])}, shown instead")
            return other
        if have & set(pair):
            return pair    # one side is stored: the empty answer then says what is there

    for pair in (("congestion_free", "under_load"), ("cc_on", "cc_off")):
        if set(pair) <= have:
            return pair
    hints = [f"{cat.name(x)} ({' vs '.join(PAIR_WORDS[p])})"
             for p in PAIR_WORDS for x in systems_with(cat, conditions=p)]
    raise OutOfScope(f"{cat.name(sid)} has no measurements under two congestion conditions. Congestion "
                     f"comparisons exist for: {', '.join(hints) or 'no system'}.")


# words of case labels that say nothing on their own, and what people say for a label's word
_LABEL_FILLER = {"ipu", "ipus", "link", "links", "the", "a", "an", "prose"}
_SAID_AS = {"cross": "different", "across": "different", "separate": "different", "distinct": "different",
            "another": "different", "onchip": "on chip", "not": "no", "without": "no", "non": "no",
            "broadcast": "bcast", "congestors": "congestor"}
# "the alltoall congestor", "the bcast congestor": one word names a congestor when the question says congestor
_CONGESTOR = re.compile(r"\bcongestors?\b", re.I)
# a case named by its key: a congestor pattern ("x12") or a table's experiment ("case c")
_CASE_KEY = re.compile(r"\b(x\d+)\b|\bcase \(?([a-z]\*?)\)?(?![\w-])", re.I)


def _label_words(text: str) -> list[str]:
    out = []
    for w in re.split(r"[^a-z0-9]+", re.sub(r"\ball[- ]to[- ]all\b", "alltoall", text.lower())):
        w = _SAID_AS.get(w, w)
        for x in w.split():
            x = x[:-1] if len(x) > 3 and x.endswith("s") else x
            if x and x not in _LABEL_FILLER:
                out.append(x)
    return out


def _said(phrase: list[str], words: list[str]) -> bool:
    n = len(phrase)
    return n > 0 and any(words[i:i + n] == phrase for i in range(len(words) - n + 1))


def named_cases(rows: list[dict[str, Any]], question: str) -> list[dict[str, Any]]:
    """The rows whose case the question names by its key ("x12", "case c") or label (see the module docstring); []
    when none is named. Only phrases of two words or more count, unless the question says congestor: a lone
    "alltoall" is more likely the operation than a congestor, "the alltoall congestor" is one."""
    keys = {(a or b).lower() for a, b in _CASE_KEY.findall(question or "")}
    by_key = [r for r in rows if (r.get("case_key") or "").lower() in keys]
    if by_key:
        return by_key
    words = _label_words(question)
    one_word = bool(_CONGESTOR.search(question or ""))
    scored = []
    for r in rows:
        phrases = [p for p in (_label_words(x) for x in re.split(r"[,()]", r.get("case_label") or "")) if p]
        said = [p for p in phrases if _said(p, words)]
        if any(len(p) >= 2 or one_word for p in said):
            scored.append((sum(len(p) for p in said), frozenset(map(tuple, said)), len(phrases) - len(said), r))
    best = max((n for n, *_ in scored), default=0)
    # of cases named by the same phrases, the ones with least else in their label: "put incast" is x11 (put
    # incast alone), not x2 (put incast, p2p incast)
    fewest = {}
    for n, said, unsaid, _ in scored:
        if n == best:
            fewest[said] = min(unsaid, fewest.get(said, unsaid))
    return [r for n, said, unsaid, r in scored if n == best and unsaid == fewest[said]]


# a question about congestion control itself, which a machine without cc_on / cc_off rows cannot answer
_CONGESTION_CONTROL = re.compile(r"\bcongestion[- ]control\b|\bcc\b", re.I)


def plan(slots: dict[str, Any], cat: Catalog, question: str | None = None) -> Plan:
    s = dict(slots)
    require_ints(s)
    sid = require_system(s, cat)
    notes: list[str] = []
    if cat.slowdown_without_congestion(sid):
        if s.get("condition") == "under_load":
            # "the DGX-1 V100's p2p bandwidth under concurrent traffic": nothing was measured under load there; the
            # stored slowdown (a full-duplex exchange) is no answer to a load it never ran under
            raise OutOfScope(f"{cat.name(sid)} was measured under no load or congestion condition; what it stores "
                             "is a slowdown of a full-duplex exchange (ask for its slowdown to see it).")
        if s.get("condition") in ("cc_on", "cc_off") or _CONGESTION_CONTROL.search(question or ""):
            # "does congestion control do anything for ThetaGPU offloading": it never ran with congestion control
            # on or off; its stored slowdown (of offloading) answers another question
            raise OutOfScope(f"{cat.name(sid)} was measured with congestion control neither on nor off; what it "
                             "stores is a slowdown factor (ask for its slowdown to see it).")
        return _stored_slowdown(s, sid, cat)
    base, stress = _pair_for(s, sid, cat, notes)
    op = s.get("operation")
    if isinstance(op, str) and not cat.op_metrics(sid, op, stress) and "slowdown" in cat.op_metrics(sid, op) \
            and s.get("metric") in (None, "slowdown") and not s.get("count") \
            and not re.search(r"\b\d[\d,]*\s*(tiles|ipus|gpus)\b", question or "", re.I):
        # "how bad does the IPU scatter get under contention": no scatter was measured under load, but the
        # document states the slowdown contention causes it; that factor answers, said so (with a tile count
        # named, "how much does gather slow down at 19,456 tiles", the figure itself is looked up instead)
        plan = _stored_slowdown(s, sid, cat)
        plan.notes[0] = (f"no {what_words(op, None)} measurements {PAIR_WORDS[(base, stress)][1]} on "
                         f"{cat.name(sid)}; the slowdown stored for it is shown instead")
        return plan
    swapped = bool(notes)                      # the named pair gave way to the one the system has
    if s.get("metric") == "slowdown":          # the slowdown is what we compute; filter nothing on it
        s.pop("metric")
    if s.get("operation") and _CONGESTOR.search(question or ""):
        # "the alltoall congestor": the traffic that congests, a case of the experiment (named_cases), not the
        # operation measured
        notes.append(f"{s['operation']} read as the congestor, not the operation measured")
        s.pop("operation")
    # "on the in-house cluster and on Azure": each system named beside the first that has the same pair
    others = [x for x in s.get("compare_with") or [] if x != sid and x in cat.systems]
    fixed = ["m.condition IN ($base_condition, $stress_condition)"]
    filters: tuple[str, ...] = FILTERS
    also = [x for x in others if {base, stress} <= cat.conditions.get(x, set())]
    for x in others:
        if x not in also:
            notes.append(f"{cat.name(x)} has no {PAIR_NAMES[(base, stress)]} measurements")
    if also:
        filters = tuple(k for k in FILTERS if k != "system")
        fixed.append("list_contains($systems, m.system_id)")
    cond, params = where_plus(s, filters, fixed=fixed)
    if also:
        params["systems"] = [sid] + also
    params["base_condition"], params["stress_condition"] = base, stress
    sql = _SQL.format(join=" JOIN runs r USING (run_id)" if "r.tool" in cond else "", where=cond)
    chart = {"kind": "grouped_bar", "x": "case_key", "series": ["base_value", "stress_value"],
             "labels": list(PAIR_WORDS[(base, stress)]), "y2": "slowdown"}
    return Plan(sql=sql, params=params, chart=chart, slots=s, notes=notes,
                extra={"pair": (base, stress), "swapped": swapped, "systems": [sid] + also, "question": question or "",
                       "run_tools": cat.run_tools, "reported_sql": REPORTED_SQL},
                narrow={"kind": "congestion"})


def _stored_slowdown(s: dict[str, Any], sid: str, cat: Catalog) -> Plan:
    """"DGX-1 V100: how much contention does a full-duplex GPU0<->GPU1 exchange suffer": a system that ran under
    no congestion condition at all but whose document states a slowdown (full duplex against one direction) is
    answered with that stored factor, looked up as such and said so."""
    from app.intents import metric_lookup
    want = {k: v for k, v in s.items() if k not in ("metric", "condition")}
    plan = metric_lookup.plan(dict(want, metric="slowdown"), cat)
    plan.notes.insert(0, f"{cat.name(sid)} was measured under no congestion condition; the slowdown stored for "
                         "it is shown instead")
    plan.extra["stored_slowdown"] = True
    return plan


def _stored(sid: str, op: Any, pair: tuple[str, str], cat: Catalog) -> str:
    """What the system stores under each condition of the pair for the operation (and metric): why nothing
    pairs up, e.g. an under-load bandwidth whose congestion-free counterpart is only a slowdown or a share."""
    words = dict(zip(pair, PAIR_WORDS[pair]))
    bits = []
    for c in pair:
        ms = sorted(cat.op_metrics(sid, op or None, c))
        bits.append(f"{words[c]}: {', '.join(ms) or 'nothing'}")
    return "; ".join(bits)


def _case(r: dict[str, Any]) -> str:
    bits = [x for x in (r.get("app"), f"case {r['case_key']}") if x]  # case: table label (a-d) or pattern (x2)
    if r.get("src") and r.get("dst"):
        bits.append(f"{endpoint(r['src'])} -> {endpoint(r['dst'])}")
    if r.get("case_label"):
        bits.append(r["case_label"])
    if r.get("quantity"):
        bits.append(r["quantity"])
    return ", ".join(bits)


def answer(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    if plan.extra.get("stored_slowdown"):
        from app.intents import metric_lookup
        return metric_lookup.answer(rows, plan, cat)
    s = plan.slots
    base_w, stress_w = PAIR_WORDS[plan.extra["pair"]]
    if not rows:
        what = what_words(s.get('operation'), s.get('metric')) or 'anything'
        raise OutOfScope(f"No measurements of {what} on {cat.name(s['system'])} pair {base_w} with {stress_w} "
                         f"in one experiment for that selection. Stored for "
                         f"{what_words(s.get('operation'), None) or 'it'} there: "
                         f"{_stored(s['system'], s.get('operation'), plan.extra['pair'], cat)}.")
    systems = [x for x in plan.extra.get("systems", []) if any(r["system_id"] == x for r in rows)]
    if len(systems) > 1:
        # one sentence per system, in the order named (the chart draws each system's cases in panels of its own)
        said = [cap(_per_system([r for r in rows if r["system_id"] == x], plan, cat)) for x in systems]
        _common_notes(rows, plan)
        return " ".join(said)
    text = _per_system(rows, plan, cat)
    _common_notes(rows, plan)
    lead = ""
    if plan.extra.get("swapped"):
        asked = PAIR_NAMES[PAIRS[s["condition"]]]     # the pair the question named (_pair_for)
        lead = f"{cat.name(rows[0]['system_id'])} has no {asked} measurements; instead: "
    n, kind = s.get("count"), s.get("count_kind") or ""
    # the counts of the kind asked ("all 16 IPUs" is no count of the 1216 tiles the rows count)
    counts = sorted({c for r in rows for c in (r.get("base_count"), r.get("stress_count")) if c is not None
                     and r.get("count_kind") in (None, kind)})
    if isinstance(n, int) and not isinstance(n, bool) and counts and n not in counts:
        # "VASP on the in-house cluster at 80 nodes": the experiments ran at other counts; said up front, as a
        # relaxed lookup says what it left out
        lead += f"Nothing was measured at {n} {kind}".rstrip() + \
            f"; the experiments ran at {', '.join(str(c) for c in counts)} {kind}".rstrip() + ": "
        plan.notes.append(f"no data at {n} {kind}".rstrip() + ": answered at the counts measured")
    return cap(lead + text)


def _per_system(rows: list[dict[str, Any]], plan: Plan, cat: Catalog) -> str:
    """The sentence for one system's paired rows: the worst case per metric (or the cases the words name)."""
    base_w, stress_w = PAIR_WORDS[plan.extra["pair"]]
    by_metric: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_metric.setdefault(r["metric"], []).append(r)
    parts = []
    for metric, rs in by_metric.items():
        named = named_cases(rs, plan.extra.get("question", ""))
        shown = named[:3] or rs[:1]        # ordered by slowdown, largest first
        lo, hi = min(r["slowdown"] for r in rs), max(r["slowdown"] for r in rs)
        spread = f"; over {len(rs)} cases the slowdown ranges {fmt_ratio(lo)}-{fmt_ratio(hi)}" \
            if len(rs) > 1 else ""
        cases = "; ".join(
            f"{'' if named else 'worst '}{_case(r)}: {fmt_value(r['base_value'], r['unit'])} {base_w} vs "
            f"{fmt_value(r['stress_value'], r['unit'])} {stress_w}, a {fmt_ratio(r['slowdown'])} slowdown"
            + (f" (the source prints {r['reported_slowdown']:g}x)" if r.get("reported_slowdown") is not None else "")
            for r in shown)
        parts.append(f"{what_words(shown[0].get('operation'), metric).replace('_', ' ')}: {cases}{spread}"
                     f"{cite(shown)}")
        if named:
            plan.notes.append(f"{metric}: the case{'s' if len(named) > 1 else ''} your words name "
                              f"({'; '.join(sorted({r['case_label'] for r in named}))}), not the worst of all")
    return f"{base_w} vs {stress_w} on {cat.name(rows[0]['system_id'])}: " + "; ".join(parts) + "."


def _common_notes(rows: list[dict[str, Any]], plan: Plan) -> None:
    base_w, stress_w = PAIR_WORDS[plan.extra["pair"]]
    plan.notes.append(f"slowdown = {stress_w} / {base_w} for time-like metrics, the inverse for bandwidth; "
                      "only rows of one experiment (same run, case, endpoints) are paired")
    if any(r["metric"] == "congestion_impact" for r in rows):
        plan.notes.append("congestion impact = run time under congestion / run time in isolation (as the source "
                          "defines it); the slowdown is how much larger it is without congestion control")
