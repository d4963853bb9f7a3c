"""Decoder-only fine-tuning of Whisper on synthesized HPC questions, on a CPU, in minutes.

The encoder stays frozen, so each clip is encoded once (by the CTranslate2 int8 encoder that also serves it,
in the same short window) and every epoch only runs the decoder. The tied token embedding / output projection
and the cross-attention key/value projections stay frozen too (most of the weights and most of the gradient
cost); self-attention, cross-attention queries and outputs, feed-forward layers, layer norms and positions
learn the HPC words. Targets are the questions as typed ("NVLink bandwidth on the DGX-2 at 16 MB?"): the
written forms a voice reads aloud, and the transcript style Whisper already leans to; the NLU reads it as typed.
"""
from __future__ import annotations

import json
import math
import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import numpy as np

Progress = Callable[[str, int, int, dict], None]   # (stage, done, total, info)


@dataclass
class Clip:
    text: str
    voice: str
    enc: np.ndarray          # [frames, d_model] float16 encoder output


def synthesize_clips(questions, seed: int, augment_p: float, progress: Optional[Progress] = None,
                     voice_fn=None) -> list[tuple[str, str, np.ndarray]]:
    """(text, voice label, 16 kHz samples) for each question, with a training voice and maybe augmentation."""
    from asr import speech_data as S
    rng = random.Random(seed)
    plans = []
    for i, q in enumerate(questions):
        v = (voice_fn or S.train_voice)(rng)
        plans.append((i, q.text, v, rng.random() < augment_p))

    def one(p):
        i, text, v, aug = p
        wav = S.synthesize(text, v)
        if aug:
            wav = S.augment(wav, np.random.default_rng(seed * 100003 + i))
        return text, v.label + ("+aug" if aug else ""), wav

    out = []
    with ThreadPoolExecutor(max_workers=2) as pool:   # the engines are subprocesses: two run side by side
        for n, r in enumerate(pool.map(one, plans), 1):
            out.append(r)
            if progress:
                progress("speech", n, len(plans), {})
    return out


def encode_clips(transcriber, clips: list[tuple[str, str, np.ndarray]], batch: int = 8,
                 progress: Optional[Progress] = None) -> list[Clip]:
    """Encoder outputs in each clip's serving window, batched by window length."""
    mels = [transcriber.mel(w) for _, _, w in clips]
    order = sorted(range(len(clips)), key=lambda i: mels[i].shape[1])
    out: list[Optional[Clip]] = [None] * len(clips)
    done = 0
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and j - i < batch and mels[order[j]].shape[1] == mels[order[i]].shape[1]:
            j += 1
        idx = order[i:j]
        enc = np.array(transcriber.encode(np.stack([mels[k] for k in idx])))
        for k, e in zip(idx, enc):
            out[k] = Clip(text=clips[k][0], voice=clips[k][1], enc=e.astype(np.float16))
        done += len(idx)
        if progress:
            progress("encode", done, len(clips), {})
        i = j
    return out  # type: ignore[return-value]


def target_ids(tokenizer, text: str) -> tuple[list[int], int]:
    """Decoder input [sot (lang task) notimestamps, text..., eot] and how many leading tokens are the prefix."""
    prefix = list(tokenizer.sot_sequence) + [tokenizer.no_timestamps]
    return prefix + tokenizer.encode(" " + text.strip()) + [tokenizer.eot], len(prefix)


def train_decoder(model, tokenizer, clips: list[Clip], *, epochs: int, batch_size: int, lr: float, seed: int,
                  threads: int = 2, progress: Optional[Progress] = None) -> dict:
    """Fine-tune model.model.decoder (minus the tied embedding) on cached encoder outputs; returns stats."""
    import torch
    # Two threads sum some gradients (the trainable position embedding's, among others) in whatever order the
    # threads finish: two builds of one config started alike and ended at other weights (WER 15.89 vs 16.77%).
    # Deterministic kernels fix the order, for about a tenth more training time.
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True)
    try:
        return _train(model, tokenizer, clips, epochs=epochs, batch_size=batch_size, lr=lr, seed=seed,
                      threads=threads, progress=progress)
    finally:
        torch.use_deterministic_algorithms(was_deterministic)


def _train(model, tokenizer, clips: list[Clip], *, epochs: int, batch_size: int, lr: float, seed: int,
           threads: int, progress: Optional[Progress]) -> dict:
    import torch
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    dec = model.model.decoder
    for p in model.parameters():
        p.requires_grad_(False)
    # frozen: the tied embedding and the cross-attention k/v projections of the (constant) encoder states,
    # so no gradient flows through either: that halves the cost of a step
    train_params = [p for n, p in dec.named_parameters() if not n.startswith("embed_tokens")
                    and ".encoder_attn.k_proj" not in n and ".encoder_attn.v_proj" not in n]
    for p in train_params:
        p.requires_grad_(True)
    seqs = [target_ids(tokenizer, c.text) for c in clips]
    # batches of equal window length (no padding of encoder states), shuffled deterministically
    rng = random.Random(seed)
    by_len: dict[int, list[int]] = {}
    for i, c in enumerate(clips):
        by_len.setdefault(c.enc.shape[0], []).append(i)
    steps_per_epoch = sum(math.ceil(len(v) / batch_size) for v in by_len.values())
    total = steps_per_epoch * epochs
    opt = torch.optim.AdamW(train_params, lr=lr, weight_decay=0.01)
    warm = max(1, total // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / (total - warm))))
    dec.train()
    step = 0
    losses: list[float] = []
    t0 = time.perf_counter()
    for _epoch in range(epochs):
        batches = []
        for ids in by_len.values():
            ids = ids[:]
            rng.shuffle(ids)
            batches += [ids[k:k + batch_size] for k in range(0, len(ids), batch_size)]
        rng.shuffle(batches)
        for b in batches:
            L = max(len(seqs[i][0]) for i in b)
            inp = torch.full((len(b), L - 1), tokenizer.eot, dtype=torch.long)
            lab = torch.full((len(b), L - 1), -100, dtype=torch.long)
            for r, i in enumerate(b):
                s, npre = seqs[i]
                inp[r, : len(s) - 1] = torch.tensor(s[:-1])
                lab[r, npre - 1: len(s) - 1] = torch.tensor(s[npre:])
            enc = torch.from_numpy(np.stack([clips[i].enc for i in b]).astype(np.float32))
            hid = dec(input_ids=inp, encoder_hidden_states=enc).last_hidden_state
            logits = model.proj_out(hid)
            loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), lab.reshape(-1),
                                                     ignore_index=-100)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(train_params, 1.0)
            opt.step()
            sched.step()
            opt.zero_grad(set_to_none=True)
            step += 1
            losses.append(float(loss.detach()))
            if progress:
                progress("train", step, total, {"loss": sum(losses[-20:]) / len(losses[-20:])})
    dec.eval()
    return {"steps": step, "seconds": round(time.perf_counter() - t0, 1),
            "first_loss": round(float(np.mean(losses[:10])), 4), "last_loss": round(float(np.mean(losses[-10:])), 4)}


def write_manifest(path: Path, clips, extra: dict) -> None:
    path.write_text(json.dumps({**extra, "clips": len(clips),
                                "voices": sorted({c.voice.split("@")[0] for c in clips})}, indent=1))
