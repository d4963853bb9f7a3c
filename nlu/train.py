"""Fine-tune the joint intent + slot model on CPU (deterministic, seeded; a few minutes on 2 cores)."""
from __future__ import annotations

import random
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import torch
from torch import nn

from nlu import model as M
from nlu.generate import Example
from nlu.templates import TEMPLATES

SLOT_NAMES = ["system", "metric", "operation", "src", "dst", "direction", "msg_bytes", "count",
              "count_kind", "condition", "numa_node", "precision", "aggregate", "app", "library",
              "top_n", "link_type"]


def label_space() -> dict:
    intents = sorted(TEMPLATES)
    tags = ["O"] + [f"{p}-{s}" for s in SLOT_NAMES for p in ("B", "I")]
    return {"intents": intents, "tags": tags}


@dataclass
class TrainReport:
    seconds: float
    examples: int
    epochs: int
    dev_intent_acc: float
    dev_tag_acc: float


def train(examples: list[Example], out: Path, *, epochs: int = 3, batch_size: int = 32, lr: float = 8e-5,
          seed: int = 13, max_len: int = 48, progress: Optional[Callable[[int, int, float], None]] = None,
          threads: Optional[int] = None, init_dir: Optional[Path] = None, frozen_layers: int = 0,
          device: str = "cpu", encoder_dir: Optional[Path] = None, label_smoothing: float = 0.0,
          ema: float = 0.0) -> TrainReport:
    """`device` and `encoder_dir` let bench/nlu_recipes.py run the same recipe on a GPU node, where many
    seeds fit in the minutes one CPU training takes; the product trains on CPU from the shipped encoder."""
    args = dict(locals())
    with _deterministic_kernels():
        return _train(**args)


@contextmanager
def _deterministic_kernels():
    """PyTorch's deterministic kernels for the training only: a process that trains the question model and then
    the speech model (a test run, `hpcask retrain` twice) gets its own setting back."""
    was, warn_only = torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(was, warn_only=warn_only)


def _train(examples: list[Example], out: Path, *, epochs: int, batch_size: int, lr: float, seed: int, max_len: int,
           progress: Optional[Callable[[int, int, float], None]], threads: Optional[int], init_dir: Optional[Path],
           frozen_layers: int, device: str, encoder_dir: Optional[Path], label_smoothing: float,
           ema: float) -> TrainReport:
    t0 = time.perf_counter()
    random.seed(seed)
    torch.manual_seed(seed)
    if threads:
        torch.set_num_threads(threads)
    labels = label_space()
    i_idx = {x: i for i, x in enumerate(labels["intents"])}
    t_idx = {x: i for i, x in enumerate(labels["tags"])}
    model = None
    if init_dir and (init_dir / "labels.json").exists():
        model, tok, old = M.load(init_dir)  # continue from an installed model: new words train fast
        if old != labels:
            model = None
    if model is None:
        model, tok = M.build(len(labels["intents"]), len(labels["tags"]), encoder_dir)
    model.to(device)
    data = list(examples)
    random.Random(seed).shuffle(data)
    n_dev = max(50, len(data) // 20)
    dev, train_set = data[:n_dev], data[n_dev:]
    # The word-embedding table is most of the encoder's weights (30k x 384) and barely needs to move for
    # a few hundred new words; freezing it makes each CPU step about a third cheaper.
    for p in model.encoder.embeddings.parameters():
        p.requires_grad = False
    # Frozen bottom layers make a step cheaper (no backward below the lowest trainable layer), but tagging
    # suffered in every trial (models/nlu/MODEL_CARD.md): the shipped config keeps 0.
    for layer in model.encoder.encoder.layer[:frozen_layers]:
        for p in layer.parameters():
            p.requires_grad = False
    params = [{"params": [p for p in model.encoder.parameters() if p.requires_grad], "lr": lr},
              {"params": list(model.intent_head.parameters()) + list(model.slot_head.parameters()), "lr": lr * 20}]
    opt = torch.optim.AdamW(params, weight_decay=0.01)
    steps = epochs * ((len(train_set) + batch_size - 1) // batch_size)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / (0.06 * steps)) * max(0.0, 1 - s / steps))
    ce = nn.CrossEntropyLoss(ignore_index=-100, label_smoothing=label_smoothing)
    step = 0
    # ema > 0: the weights kept are an exponential moving average of the steps' (a study in bench/nlu_recipes.py
    # of whether averaging narrows the spread between draws); 0, the shipped recipe, keeps the last step's
    # (begun halfway, so that neither the pretrained encoder nor the freshly drawn heads weigh in)
    trained = [p for p in model.parameters() if p.requires_grad]
    avg = None
    model.train()
    for ep in range(epochs):
        for batch in _length_batches(train_set, batch_size, random.Random(seed + ep)):
            enc, firsts = M.encode_words(tok, [e.tokens for e in batch], max_len)
            tag_t = torch.full(enc["input_ids"].shape, -100, dtype=torch.long)
            for i, e in enumerate(batch):
                for w, j in enumerate(firsts[i]):
                    if w < len(e.tags):
                        tag_t[i, j] = t_idx[e.tags[w]]
            int_t = torch.tensor([i_idx[e.intent] for e in batch])
            li, ls = model(enc["input_ids"].to(device), enc["attention_mask"].to(device))
            loss = ce(li, int_t.to(device))
            if (tag_t != -100).any():   # (a batch of questions labelled with an intent only has no tag loss)
                loss = loss + ce(ls.reshape(-1, ls.shape[-1]), tag_t.to(device).reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            if ema > 0 and step >= steps // 2:
                with torch.no_grad():
                    if avg is None:
                        avg = [p.detach().clone() for p in trained]
                    for a, p in zip(avg, trained):
                        a.mul_(ema).add_(p.detach(), alpha=1 - ema)
            step += 1
            if progress:
                progress(step, steps, float(loss))
    if avg is not None:
        with torch.no_grad():
            for a, p in zip(avg, trained):
                p.copy_(a)
    model.eval()
    ia, ta = _dev_scores(model, tok, dev, labels, max_len, device)
    M.save(model.to("cpu"), tok, labels, out)
    return TrainReport(seconds=time.perf_counter() - t0, examples=len(train_set), epochs=epochs,
                       dev_intent_acc=ia, dev_tag_acc=ta)


def _length_batches(data: list[Example], batch_size: int, rng: random.Random) -> list[list[Example]]:
    """Shuffled batches of similar length: padding is most of the work on short questions, and batches
    drawn from a shuffled window of 16 batches keep the order random enough for SGD."""
    data = list(data)
    rng.shuffle(data)
    window = batch_size * 16
    batches = []
    for w in range(0, len(data), window):
        chunk = sorted(data[w:w + window], key=lambda e: len(e.tokens))
        batches += [chunk[b:b + batch_size] for b in range(0, len(chunk), batch_size)]
    rng.shuffle(batches)
    return batches


@torch.no_grad()
def _dev_scores(model, tok, dev: list[Example], labels: dict, max_len: int, device: str = "cpu"
                ) -> tuple[float, float]:
    ok_i = ok_t = n_t = 0
    for b in range(0, len(dev), 64):
        batch = dev[b:b + 64]
        enc, firsts = M.encode_words(tok, [e.tokens for e in batch], max_len)
        li, ls = model(enc["input_ids"].to(device), enc["attention_mask"].to(device))
        pi = li.argmax(-1).tolist()
        pt = ls.argmax(-1).tolist()
        for i, e in enumerate(batch):
            ok_i += labels["intents"][pi[i]] == e.intent
            for w, j in enumerate(firsts[i]):
                if w < len(e.tags):
                    n_t += 1
                    ok_t += labels["tags"][pt[i][j]] == e.tags[w]
    return ok_i / max(1, len(dev)), ok_t / max(1, n_t)
