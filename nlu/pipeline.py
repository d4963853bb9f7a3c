"""Question -> intent + canonical slots: tokenise (spaCy), tag and classify (the joint model),
normalise each tagged span (spaCy rules + vocabulary). The one place the NLU's parts meet."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import torch

from nlu import model as M

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


def decode_spans(tokens: list[str], tags: list[str]) -> list[tuple[str, str]]:
    spans, cur, words = [], None, []
    for tok, tag in zip(tokens, tags):
        if tag.startswith("B-") or (tag.startswith("I-") and cur != tag[2:]):
            if cur:
                spans.append((cur, " ".join(words)))
            cur, words = tag[2:], [tok]
        elif tag.startswith("I-") and cur == tag[2:]:
            words.append(tok)
        else:
            if cur:
                spans.append((cur, " ".join(words)))
            cur, words = None, []
    if cur:
        spans.append((cur, " ".join(words)))
    return spans


class NLU:
    def __init__(self, model_dir: Path, catalog=None, extra_vocab: Optional[Path] = None, threads: int = 1):
        from nlu.normalize import Normalizer
        from nlu.vocab import load_vocabulary
        torch.set_num_threads(threads)  # single short sequences: one thread is fastest and steadiest
        self.model, self.tok, self.labels = M.load(model_dir)
        self.vocab = load_vocabulary(extra_vocab, catalog=catalog)
        self.norm = Normalizer(self.vocab)
        self.catalog = catalog
        with torch.inference_mode():  # warm up
            self._infer(["warm", "up"])

    @torch.inference_mode()
    def _infer(self, words: list[str]) -> tuple[str, float, list[str]]:
        enc, firsts = M.encode_words(self.tok, [words])
        li, ls = self.model(enc["input_ids"], enc["attention_mask"])
        probs = torch.softmax(li[0], -1)
        conf, idx = float(probs.max()), int(probs.argmax())
        tag_ids = ls[0].argmax(-1).tolist()
        tags = [self.labels["tags"][tag_ids[j]] for j in firsts[0]]
        tags += ["O"] * (len(words) - len(tags))  # words past max_len
        return self.labels["intents"][idx], conf, tags

    def understand(self, text: str) -> Understanding:
        from nlu.tokens import tokenize
        t0 = time.perf_counter()
        words = [t.text for t in tokenize(text)]
        if not words:
            return Understanding("out_of_scope", 1.0, {}, ms=0.0)
        intent, conf, tags = self._infer(words)
        spans = decode_spans(words, tags)
        slots: dict[str, Any] = {}
        unresolved = []
        systems: list[str] = []
        for slot, surface in spans:
            if slot == "count":
                ck = self.norm.count_and_kind(surface) if hasattr(self.norm, "count_and_kind") else None
                if ck and ck[0] is not None:
                    slots.setdefault("count", ck[0])
                    if ck[1]:
                        slots.setdefault("count_kind", ck[1])
                    continue
            value = self.norm.value(slot, surface)
            if value is None:
                unresolved.append((slot, surface))
                continue
            if slot == "system":
                if value not in systems:
                    systems.append(value)
            elif slot not in slots:
                slots[slot] = value
        if systems:
            slots["system"] = systems[0]
            if len(systems) > 1:
                slots["compare_with"] = systems[1:]
        infer_implicit(intent, slots, self.catalog)
        return Understanding(intent, conf, slots, spans, unresolved, words, tags,
                             ms=(time.perf_counter() - t0) * 1000)


MEASUREMENT_INTENTS = {"metric_lookup", "size_sweep", "pair_matrix", "compare_systems", "scaling", "congestion"}
DEVICE_PREFIXES = ("gpu", "ipu", "tile", "core")


def infer_implicit(intent: str, slots: dict[str, Any], catalog) -> None:
    """Slots a question implies without naming them, from what the database holds.

    - "from IPU5 to IPU4" names no system, but only one system has an ipu5: that one.
    - a device-to-device pair with no operation is a peer-to-peer transfer.
    - "over NVLink" / "PCIe mode" in a measurement question is the condition the benchmarks
      recorded (Tartan, Comm|Scope), when the system has such measurements.
    """
    if catalog is None:
        return
    if "system" not in slots:
        owners = None
        for k in ("src", "dst"):
            cid = slots.get(k)
            if cid and cid != "host":
                have = {sid for sid, comps in catalog.components.items() if cid in comps}
                owners = have if owners is None else owners & have
        if owners and len(owners) == 1:
            slots["system"] = next(iter(owners))
    src, dst = slots.get("src"), slots.get("dst")
    if (intent in MEASUREMENT_INTENTS | {"link_efficiency"} and "operation" not in slots and src and dst
            and src.startswith(DEVICE_PREFIXES) and dst.startswith(DEVICE_PREFIXES)):
        slots["operation"] = "p2p"
    lt = slots.get("link_type")
    if intent in MEASUREMENT_INTENTS and lt and "condition" not in slots:
        cond = "nvlink" if lt.lower().startswith("nvlink") else "pcie" if lt.lower().startswith("pcie") else None
        sid = slots.get("system")
        if cond and sid and cond in catalog.conditions.get(sid, set()):
            slots["condition"] = cond
            del slots["link_type"]
