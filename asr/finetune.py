"""Fine-tuning Whisper on synthesized HPC questions: the whole model (the default), or the decoder alone.

Whole model (`train_full`): encoder and decoder learn from each clip's log-mel in its short serving window; only
the tied token embedding / output projection and the encoder's fixed sinusoidal positions stay frozen. Session 20
measured on a GPU what the encoder is worth: with the same clips, epochs and decoding, training the encoder too
took the first hand-written spoken set from 13.2% to 8.6% WER (top encoder layer only: 12.6%, top two: 10.5%).
The frozen int8 encoder, not the decoder's phrasing, was the larger part of the remaining error.

Decoder only (`train_decoder`, `train_encoder: 0` in train_config.json; sessions 7-19): each clip is encoded
once by the CTranslate2 int8 encoder that also serves it, and every epoch only runs the decoder, with the
cross-attention key/value projections frozen as well. Less than half the training time on a CPU (session 20,
4000 questions: 637 s against 1399-1523 s on 2 AMD EPYC cores in bfloat16).

Targets are the questions as typed ("NVLink bandwidth on the DGX-2 at 16 MB?"): the written forms a voice reads
aloud, and the transcript style Whisper already leans to; the NLU reads it as typed.
"""
from __future__ import annotations

import hashlib
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


@dataclass
class MelClip:
    text: str
    voice: str
    mel: np.ndarray          # [n_mels, frames] float16 log-mel in the clip's serving window


def clips_digest(clips: list[tuple[str, str, np.ndarray]]) -> str:
    """One sha256 over the training clips in order (text, voice, samples): two builds whose weights differ can then
    be told apart by their input (the day's TTS engines) or by the arithmetic (another CPU's kernels)."""
    h = hashlib.sha256()
    for text, voice, wav in clips:
        h.update(text.encode() + b"\0" + voice.encode() + b"\0")
        h.update(np.ascontiguousarray(wav, dtype=np.float32).tobytes())
    return h.hexdigest()


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


def mel_clips(transcriber, clips: list[tuple[str, str, np.ndarray]],
              progress: Optional[Progress] = None) -> list[MelClip]:
    """Log-mels in each clip's serving window, by the feature extractor that serves it (for full fine-tuning)."""
    out = []
    for n, (text, voice, wav) in enumerate(clips, 1):
        out.append(MelClip(text=text, voice=voice, mel=transcriber.mel(wav).astype(np.float16)))
        if progress:
            progress("features", n, len(clips), {})
    return out


def encode_window(encoder, mel):
    """The Whisper encoder over a window shorter than 30 s, as CTranslate2 runs it at serving time (positions
    [0, frames/2)). Transformers' own forward accepts only the full 3000-frame window."""
    import torch.nn.functional as F
    x = F.gelu(encoder.conv1(mel))
    x = F.gelu(encoder.conv2(x)).permute(0, 2, 1)
    x = x + encoder.embed_positions.weight[: x.shape[1]]
    for layer in encoder.layers:
        out = layer(x, None)
        x = out[0] if isinstance(out, tuple) else out
    return encoder.layer_norm(x)


def bf16_native(device) -> bool:
    """Whether bfloat16 matrix products run in hardware here (CUDA, or a CPU with AVX512-BF16 / AMX): there
    mixed precision halves the time of full fine-tuning; elsewhere bfloat16 is emulated and slower than float32."""
    import torch
    if device.type == "cuda":
        return torch.cuda.is_bf16_supported()
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return " avx512_bf16" in flags or " amx_bf16" in flags


def target_ids(tokenizer, text: str) -> tuple[list[int], int]:
    """Decoder input [sot (lang task) notimestamps, text..., eot] and how many leading tokens are the prefix."""
    prefix = list(tokenizer.sot_sequence) + [tokenizer.no_timestamps]
    return prefix + tokenizer.encode(" " + text.strip()) + [tokenizer.eot], len(prefix)


def train_decoder(model, tokenizer, clips: list[Clip], *, epochs: int, batch_size: int, lr: float, seed: int,
                  threads: int = 2, progress: Optional[Progress] = None) -> dict:
    """Fine-tune model.model.decoder (minus the tied embedding) on cached encoder outputs; returns stats."""
    return _deterministic(model, tokenizer, clips, full=False, epochs=epochs, batch_size=batch_size, lr=lr,
                          encoder_lr=0.0, seed=seed, threads=threads, progress=progress, device="cpu",
                          precision="fp32")


def train_full(model, tokenizer, clips: list[MelClip], *, epochs: int, batch_size: int, lr: float,
               encoder_lr: float, seed: int, threads: int = 2, progress: Optional[Progress] = None,
               device: str = "auto", precision: str = "auto", spec_augment: int = 0) -> dict:
    """Fine-tune encoder and decoder (minus the tied embedding and the fixed encoder positions) on log-mels.
    device: "auto" (CUDA when present), "cpu" or "cuda". precision: "auto" (bfloat16 autocast where the
    hardware has it, see bf16_native), "bf16" or "fp32". spec_augment: masks of frequency bands and of time
    spans per clip (spec_masks). The model is left on the CPU."""
    return _deterministic(model, tokenizer, clips, full=True, epochs=epochs, batch_size=batch_size, lr=lr,
                          encoder_lr=encoder_lr, seed=seed, threads=threads, progress=progress, device=device,
                          precision=precision, spec_augment=spec_augment)


def spec_masks(mel: np.ndarray, rng: np.random.Generator, n: int) -> np.ndarray:
    """SpecAugment (Park et al. 2019) on one clip's log-mel [80, frames]: `n` bands of up to 10 mel channels and `n`
    spans of up to 5% of the frames set to the clip's mean. A voice never heard differs from the training voices
    most in its spectrum; hiding parts of it makes the model read the rest."""
    out = mel.copy()
    fill = float(mel.mean())
    bins, frames = mel.shape
    for _ in range(n):
        w = int(rng.integers(0, 11))
        f0 = int(rng.integers(0, bins - w + 1))
        out[f0:f0 + w, :] = fill
        t = int(rng.integers(0, max(1, int(0.05 * frames)) + 1))
        t0 = int(rng.integers(0, frames - t + 1))
        out[:, t0:t0 + t] = fill
    return out


def _deterministic(model, tokenizer, clips, **kw) -> dict:
    import os

    import torch
    # Two threads sum some gradients (the trainable position embedding's, among others) in whatever order the
    # threads finish: two builds of one config started alike and ended at other weights (WER 15.89 vs 16.77%).
    # Deterministic kernels fix the order, for about a tenth more training time.
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")     # what CUDA's deterministic GEMMs need
    torch.use_deterministic_algorithms(True)
    try:
        return _train(model, tokenizer, clips, **kw)
    finally:
        torch.use_deterministic_algorithms(was_deterministic)


def _trainable(model, full: bool) -> tuple[list, list]:
    """(decoder parameters, encoder parameters) that learn. Always frozen: the tied token embedding (half the
    model, and the output projection). Decoder only: also the cross-attention k/v, which only see the constant
    encoder states. Full: the encoder too, except its fixed sinusoidal positions."""
    dec = [p for n, p in model.model.decoder.named_parameters() if not n.startswith("embed_tokens")
           and (full or (".encoder_attn.k_proj" not in n and ".encoder_attn.v_proj" not in n))]
    enc = [p for n, p in model.model.encoder.named_parameters() if full and not n.startswith("embed_positions")]
    return dec, enc


def _train(model, tokenizer, clips, *, full: bool, epochs: int, batch_size: int, lr: float, encoder_lr: float,
           seed: int, threads: int, progress: Optional[Progress], device: str, precision: str,
           spec_augment: int = 0) -> dict:
    import torch
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    dev = torch.device(device)
    amp = precision == "bf16" or (precision == "auto" and full and bf16_native(dev))
    model.to(dev)
    dec, encoder = model.model.decoder, model.model.encoder
    for p in model.parameters():
        p.requires_grad_(False)
    dec_params, enc_params = _trainable(model, full)
    for p in dec_params + enc_params:
        p.requires_grad_(True)
    seqs = [target_ids(tokenizer, c.text) for c in clips]
    # batches of equal window length (no padding of encoder states), shuffled deterministically
    rng = random.Random(seed)
    by_len: dict[int, list[int]] = {}
    for i, c in enumerate(clips):
        by_len.setdefault(c.mel.shape[1] if full else c.enc.shape[0], []).append(i)
    steps_per_epoch = sum(math.ceil(len(v) / batch_size) for v in by_len.values())
    total = steps_per_epoch * epochs
    groups = [{"params": dec_params, "lr": lr}] + ([{"params": enc_params, "lr": encoder_lr}] if enc_params else [])
    opt = torch.optim.AdamW(groups, weight_decay=0.01)
    warm = max(1, total // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.0, (total - s) / (total - warm))))
    # Plain matmul-softmax-matmul attention: on 2 CPU cores in bfloat16 a step takes about a sixth less time than
    # with PyTorch's fused CPU attention kernel (measured session 34: 1.51 against 1.72-1.96 s for 16 clips in a
    # 6-second window). The probabilities are rounded to bfloat16 before the value product, as under CUDA autocast.
    attn_was = model.config._attn_implementation
    model.set_attn_implementation("eager")
    model.train()
    if not full:
        encoder.eval()
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
            # the 51864-word projection only where a token is scored (not the prompt, not the padding)
            scored = (lab != -100).reshape(-1)
            targets = lab.reshape(-1)[scored].to(dev)
            scored = scored.to(dev)
            with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=amp):
                if full:
                    mels = [clips[i].mel for i in b]
                    if spec_augment:
                        masks = np.random.default_rng(seed * 100003 + step)
                        mels = [spec_masks(m, masks, spec_augment) for m in mels]
                    mel = torch.from_numpy(np.stack(mels).astype(np.float32)).to(dev)
                    states = encode_window(encoder, mel)
                else:
                    states = torch.from_numpy(np.stack([clips[i].enc for i in b]).astype(np.float32)).to(dev)
                hid = dec(input_ids=inp.to(dev), encoder_hidden_states=states).last_hidden_state
                logits = model.proj_out(hid.reshape(-1, hid.shape[-1])[scored]).float()
            loss = torch.nn.functional.cross_entropy(logits, targets)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(dec_params + enc_params, 1.0)
            opt.step()
            sched.step()
            opt.zero_grad(set_to_none=True)
            step += 1
            losses.append(float(loss.detach()))
            if progress:
                progress("train", step, total, {"loss": sum(losses[-20:]) / len(losses[-20:])})
    model.eval()
    model.set_attn_implementation(attn_was)
    model.to("cpu")
    return {"steps": step, "seconds": round(time.perf_counter() - t0, 1), "device": dev.type,
            "precision": "bf16" if amp else "fp32", "trains": "encoder and decoder" if full else "decoder",
            "first_loss": round(float(np.mean(losses[:10])), 4), "last_loss": round(float(np.mean(losses[-10:])), 4)}


def write_manifest(path: Path, clips, extra: dict) -> None:
    path.write_text(json.dumps({**extra, "clips": len(clips),
                                "voices": sorted({c.voice.split("@")[0] for c in clips})}, indent=1))
