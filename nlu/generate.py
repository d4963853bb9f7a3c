"""Training data: thousands of labelled questions from templates x vocabulary x the database catalog.

Slot values are drawn from what the database really holds (a measurement's system, metric,
operation, pair, size, condition), so the tagger learns the combinations people will ask about;
surface forms come from nlu.surface (typed, spoken, abbreviated), and typos and filler words are
added on top. Deterministic for a given seed.
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional

from nlu.templates import INTENT_MODIFIERS, MODIFIERS, PREFIXES, SUFFIXES, TEMPLATES

PLACEHOLDER = re.compile(r"\{(\w+)\}")
SLOT_OF = {"system2": "system", "system3": "system"}  # tag name of a placeholder


@dataclass
class Example:
    text: str
    tokens: list[str]
    tags: list[str]
    intent: str
    slots: dict[str, Any] = field(default_factory=dict)


class Frames:
    """Canonical slot combinations that exist in the database."""

    def __init__(self, con, sample: int = 40000, seed: int = 0):
        cols = ["system_id", "metric", "operation", "src", "dst", "direction", "msg_bytes", "count",
                "count_kind", "condition", "precision", "app"]
        # up to `per_system` distinct combinations per system, so small systems are asked about too
        per_system = max(50, sample // 60)
        rows = con.execute(f"""SELECT {', '.join(cols)} FROM (SELECT DISTINCT {', '.join(cols)} FROM measurements)
                               QUALIFY row_number() OVER (PARTITION BY system_id
                                                          ORDER BY hash({', '.join(cols)})) <= {int(per_system)}
                               ORDER BY system_id, hash({', '.join(cols)})""").fetchall()
        self.meas = [dict(zip(["system"] + cols[1:], r)) for r in rows]
        self.systems = [r[0] for r in con.execute("SELECT system_id FROM systems ORDER BY 1").fetchall()]
        self.link_types: dict[str, list[str]] = {}
        for sid, lt in con.execute("SELECT DISTINCT system_id, link_type FROM links ORDER BY 1, 2").fetchall():
            self.link_types.setdefault(sid, []).append(lt)
        self.components: dict[str, list[str]] = {}
        for sid, cid in con.execute("""SELECT system_id, component_id FROM components
                                       WHERE kind IN ('gpu','ipu','cpu','core','tile','node','nic','host')
                                       ORDER BY 1, 2""").fetchall():
            self.components.setdefault(sid, []).append(cid)
        self.trace_systems = [r[0] for r in con.execute(
            "SELECT DISTINCT r.system_id FROM runs r WHERE r.tool IN ('pytorch_profiler','chrome_trace') ORDER BY 1").fetchall()]
        self.by_system: dict[str, list[dict]] = {}
        for m in self.meas:
            self.by_system.setdefault(m["system"], []).append(m)


AGGREGATES = ["max", "min", "mean"]
DIRECTIONS = ["uni", "bi"]


def _frame(intent: str, names: set[str], fr: Frames, rng: random.Random) -> Optional[dict[str, Any]]:
    """Pick canonical values for the placeholders `names`, consistent with the data; None if impossible."""
    base: dict[str, Any] = {}
    meas_fields = names & {"metric", "operation", "src", "dst", "direction", "msg_bytes", "count",
                           "count_kind", "condition", "precision", "app"}
    if intent == "trace_breakdown":
        meas_fields = set()
    if meas_fields:
        systems = sorted(fr.by_system)
        for _ in range(60):
            m = rng.choice(fr.by_system[rng.choice(systems)])
            if all(m.get(k) is not None for k in meas_fields):
                base = {k: m[k] for k in meas_fields}
                base["system"] = m["system"]
                break
        else:
            return None
    elif "system" in names or intent in ("topology", "link_efficiency", "trace_breakdown"):
        pool = fr.trace_systems if intent == "trace_breakdown" and fr.trace_systems else fr.systems
        base["system"] = rng.choice(pool)
    sid = base.get("system")
    if intent in ("topology", "link_efficiency") and ({"src", "dst"} & names):
        comps = fr.components.get(sid) or []
        if len(comps) < 2:
            sid = rng.choice([s for s, c in fr.components.items() if len(c) >= 2])
            base["system"], comps = sid, fr.components[sid]
        a, b = rng.sample(comps, 2)
        base["src"], base["dst"] = a, b
    if "link_type" in names:
        lts = fr.link_types.get(sid) or [lt for v in fr.link_types.values() for lt in v]
        base["link_type"] = rng.choice(lts)
    if "aggregate" in names:
        base["aggregate"] = rng.choice(AGGREGATES)
    if "direction" in names and not base.get("direction"):
        base["direction"] = rng.choice(DIRECTIONS)
    if "top_n" in names:
        base["top_n"] = rng.choice([3, 5, 5, 10, 10, 15, 20])
    if "count" in names and not base.get("count"):
        base["count"] = rng.choice([0, 1, 2, 4, 8, 16])
    if "count_kind" in names and not base.get("count_kind"):
        base["count_kind"] = rng.choice(["gpus", "nodes", "ipus", "ranks", "cores"])
    for extra in ("system2", "system3"):
        if extra in names:
            others = [s for s in fr.systems if s != base.get("system") and s not in base.values()]
            base[extra] = rng.choice(others)
    if "system" in names and "system" not in base:
        base["system"] = rng.choice(fr.systems)
    return base


def _typo(word: str, rng: random.Random) -> str:
    if len(word) < 4 or not word.isalpha():
        return word
    i = rng.randrange(1, len(word) - 1)
    op = rng.random()
    if op < 0.4:
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if op < 0.7:
        return word[:i] + word[i + 1:]
    return word[:i] + word[i] + word[i:]


def render(template: str, values: dict[str, Any], rng: random.Random, style: str,
           prefix_share: float = 1.0, force: Optional[dict[str, str]] = None) -> Optional[Example]:
    """One question in `style`: "typed" (written forms, sometimes lower-cased), "spoken" (a transcript: lower
    case, numbers in words, no punctuation), "typo" (typed with misspellings) or "written" (written forms, case
    and punctuation kept, and `text` spaced as typed, "DGX-2?" not "DGX - 2 ?": what a voice reading a typed
    question says, and the transcript the speech model should write for it). `prefix_share` < 1 leaves out the
    opening filler ("um", "i'd like to know") of the other questions: a speech model trained with one on four
    questions out of five learns to hear it where nobody said it. `force`: placeholder -> the surface to write
    for it (the speech model's coverage questions, asr.speech_data.coverage_questions)."""
    from nlu.surface import forms
    from nlu.tokens import tokenize
    tokens: list[str] = []
    tags: list[str] = []
    raw: list[str] = []
    pos = 0
    pieces = []
    for m in PLACEHOLDER.finditer(template):
        pieces.append(("O", template[pos:m.start()]))
        pieces.append((m.group(1), None))
        pos = m.end()
    pieces.append(("O", template[pos:]))
    prefix, suffix = rng.choice(PREFIXES), rng.choice(SUFFIXES)
    if prefix_share < 1 and rng.random() >= prefix_share:
        prefix = ""
    pieces = [("O", prefix)] + pieces + [("O", suffix)]
    for name, text in pieces:
        if name == "O":
            raw.append(text)
            words = [t.text for t in tokenize(text)]
            if style == "typo":
                words = [_typo(w, rng) if rng.random() < 0.15 else w for w in words]
            tokens += words
            tags += ["O"] * len(words)
            continue
        slot = SLOT_OF.get(name, name)
        if name not in values:
            return None
        value = values[name]
        options = forms(slot, value, rng, kind="spoken" if style == "spoken" else "written") \
            or forms(slot, value, rng)
        if not options:
            return None
        surface = rng.choice(options)
        if force and name in force:
            surface = force[name]
        raw.append(surface)
        words = [t.text for t in tokenize(surface)]
        if not words:
            return None
        if style == "typo" and slot not in ("msg_bytes", "count", "src", "dst", "top_n") and rng.random() < 0.1:
            words = [_typo(words[0], rng)] + words[1:]
        tokens += words
        tags += [f"B-{slot}"] + [f"I-{slot}"] * (len(words) - 1)
    if style == "written":
        return Example(text=re.sub(r"\s+", " ", "".join(raw)).strip(), tokens=tokens, tags=tags, intent="",
                       slots={})
    if style in ("spoken", "typo") or rng.random() < 0.4:
        tokens = [t.lower() for t in tokens]
    if style == "spoken":
        keep = [i for i, t in enumerate(tokens) if t not in {"?", ".", ",", ":", "!"}]
        tokens, tags = [tokens[i] for i in keep], [tags[i] for i in keep]
    return Example(text=" ".join(tokens), tokens=tokens, tags=tags, intent="", slots={})


def generate(con, n_per_intent: int = 600, seed: int = 13, vocab_examples: Optional[list[dict]] = None,
             templates: Optional[dict[str, list[str]]] = None) -> list[Example]:
    """`templates`: intent -> templates; default nlu.templates.TEMPLATES (the recipe study passes
    templates(written=True) for its "w" draws)."""
    rng = random.Random(seed)
    fr = Frames(con, seed=seed)
    out: list[Example] = []
    for intent, pool in (templates or TEMPLATES).items():
        made = 0
        tries = 0
        while made < n_per_intent and tries < n_per_intent * 20:
            tries += 1
            # one random stream per attempt: a new alias or template word changes the examples that use it,
            # not every example drawn after it
            r = random.Random(f"{seed}:{intent}:{tries}")
            t = _with_modifiers(r.choice(pool), intent, r)
            names = set(PLACEHOLDER.findall(t))
            values = _frame(intent, names, fr, r)
            if values is None:
                continue
            style = r.choices(["typed", "spoken", "typo"], weights=[5, 4, 1])[0]
            ex = render(t, values, r, style)
            if ex is None:
                continue
            ex.intent = intent
            ex.slots = _slots_of(values, names)
            out.append(ex)
            made += 1
    rng.shuffle(out)
    return out


def _with_modifiers(template: str, intent: str, rng: random.Random) -> str:
    """Append 0-3 optional modifiers (sizes, pairs, conditions, counts) the template does not have yet."""
    kinds = [k for k in INTENT_MODIFIERS.get(intent, [])
             if not (set(PLACEHOLDER.findall("".join(MODIFIERS[k]))) & set(PLACEHOLDER.findall(template)))]
    n = rng.choices([0, 1, 2, 3], weights=[3, 4, 3, 1])[0]
    rng.shuffle(kinds)
    for k in kinds[:n]:
        template += rng.choice(MODIFIERS[k])
    return template


def _slots_of(values: dict[str, Any], names: set[str]) -> dict[str, Any]:
    slots = {k: v for k, v in values.items() if k in names and k not in ("system2", "system3")}
    cw = [values[k] for k in ("system2", "system3") if k in names]
    if cw:
        slots["compare_with"] = cw
    return slots


def save(examples: list[Example], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        for e in examples:
            f.write(json.dumps(asdict(e)) + "\n")


def load(path: Path) -> list[Example]:
    return [Example(**json.loads(l)) for l in open(path) if l.strip()]
