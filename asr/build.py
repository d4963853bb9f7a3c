"""The default speech model: tiny.en fine-tuned on HPC questions, at models/asr/build/current.

`hpcask retrain --asr` (and `make setup`, when it is missing) runs: generate 6000 questions as people type them
(`questions` in train_config.json; NLU generator, "written" style, evaluation sentences excluded), plus one question
for each written vocabulary form none of them says (`cover_forms`; about 200), plus 1000 sentences of the source
documents that say a vocabulary word (`prose`, asr/prose.py) -> speak them with training voices (espeak-ng, flite)
and roughen some -> log-mel features in each clip's serving window -> fine-tune encoder and decoder
(asr/finetune.py; `train_encoder: 0` in models/asr/train_config.json gives session 19's decoder-only recipe over the
frozen int8 encoder's outputs) -> convert back to CTranslate2 (asr/convert.py) -> check on a small dev set spoken by
held-out voices -> count the wording model that ranks the beam (asr/lm.py, ~20 s) -> install (the previous model is
kept at build/previous). Deterministic for a given config on one machine: the training runs with PyTorch's
deterministic kernels (asr/finetune.py), since without them two builds in session 11 started with the same losses
and ended at other weights (WER 15.89 vs 16.77%). On a GPU (CUDA present) the training takes a minute or two; on 2
CPU cores about 46 minutes in float32 (less in bfloat16, where the processor has it), the whole build about 57
(bench/RESULTS.md has the measured build).
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Callable, Optional

from asr.weights import ASR_MODELS, BUILD, CURRENT

CONFIG = ASR_MODELS / "train_config.json"
PREVIOUS = BUILD / "previous"
Log = Callable[[str], None]


def torch_version() -> str:
    import torch
    return torch.__version__


def config() -> dict:
    return json.loads(CONFIG.read_text())


def present() -> bool:
    return (CURRENT / "model.bin").exists() and (CURRENT / "train.json").exists()


def build(*, db: Optional[Path] = None, vocab: Optional[Path] = None, force: bool = False,
          overrides: Optional[dict] = None, build_dir: Optional[Path] = None, progress=None,
          log: Log = print) -> dict:
    """Fine-tune and install; returns the summary written to train.json. Skips when present unless `force`."""
    import duckdb

    from app.paths import default_db
    from asr import convert, finetune, metrics, speech_data, weights
    from asr.transcribe import Transcriber
    build_root = Path(build_dir or BUILD)
    current = build_root / "current"
    if not force and (current / "model.bin").exists() and (current / "train.json").exists():
        log(f"speech model present at {current}")
        summary = json.loads((current / "train.json").read_text())
        # a model built before the wording model existed gets one (about 20 s)
        build_lm(current, db=db, seed=summary.get("config", {}).get("seed", config()["seed"]), vocab=vocab, log=log)
        return summary
    cfg = {**config(), **(overrides or {})}
    t_start = time.perf_counter()
    dbp = Path(db or default_db())
    from nlu import surface
    nlu_extra = weights.MODELS / "nlu" / "build" / "current" / "extra_vocabulary.yaml"
    vocab = vocab or (nlu_extra if nlu_extra.exists() else None)
    surface.use_extra_vocabulary(vocab, db=dbp)          # NEW.yaml words are spoken in training too
    con = duckdb.connect(str(dbp), read_only=True)
    try:
        qs = speech_data.spoken_questions(con, cfg["questions"] + cfg["dev_questions"], seed=cfg["seed"],
                                          written_share=cfg.get("written_share", speech_data.WRITTEN_SHARE),
                                          prefix_share=cfg.get("prefix_share", 1.0),
                                          terse_share=cfg.get("terse_share", 0.0))
        # vocabulary forms none of those questions says, each put into a question of its own
        cover = speech_data.coverage_questions(con, qs, cfg["seed"], per_form=cfg["cover_forms"]) \
            if cfg.get("cover_forms") else []
    finally:
        con.close()
    # sentences from the source documents: the same words in the authors' own phrasing (asr/prose.py)
    from asr import prose
    said = prose.load(cfg["prose"], cfg["seed"]) if cfg.get("prose") else []
    train_q, dev_q = qs[: cfg["questions"]] + cover + said, qs[cfg["questions"]:]
    log(f"{len(train_q)} training texts ({len(cover)} questions saying vocabulary forms the others do not, "
        f"{len(said)} sentences of the source documents) and {len(dev_q)} dev questions (evaluation sentences "
        "excluded)")

    base = Transcriber(cfg["base_model"], bias=False, window="short", threads=cfg["threads"])
    clips = finetune.synthesize_clips(train_q, cfg["seed"], cfg["augment_p"], progress)
    inputs_record = {"clips_sha256": finetune.clips_digest(clips), "engines": speech_data.engine_versions(),
                     "torch": torch_version()}
    full = bool(cfg.get("train_encoder", 0))
    inputs = finetune.mel_clips(base, clips, progress=progress) if full else \
        finetune.encode_clips(base, clips, progress=progress)
    dev_voices = speech_data.eval_voices()
    heldout = [v for v in dev_voices if v.engine != "festival"]   # festival stays for the benchmark
    dev_clips = [(q.text, speech_data.synthesize(q.text, heldout[i % len(heldout)])) for i, q in enumerate(dev_q)]
    log(f"speech ready in {time.perf_counter() - t_start:.0f} s ({len(inputs)} clips)")

    model = convert.load_hf_from_ct2(base.dir)
    if full:
        stats = finetune.train_full(model, base.tokenizer, inputs, epochs=cfg["epochs"], batch_size=cfg["batch_size"],
                                    lr=cfg["lr"], encoder_lr=cfg["encoder_lr"], seed=cfg["seed"],
                                    threads=cfg["threads"], progress=progress, device=cfg.get("device", "auto"),
                                    precision=cfg.get("precision", "auto"),
                                    spec_augment=cfg.get("spec_augment", 0))
    else:
        stats = finetune.train_decoder(model, base.tokenizer, inputs, epochs=cfg["epochs"],
                                       batch_size=cfg["batch_size"], lr=cfg["lr"], seed=cfg["seed"],
                                       threads=cfg["threads"], progress=progress)
    log(f"{stats['trains']} fine-tuned ({stats['device']}, {stats['precision']}): {stats['steps']} steps in "
        f"{stats['seconds']:.0f} s, loss {stats['first_loss']:.3f} -> {stats['last_loss']:.3f}")
    cand = build_root / "candidate"
    hf_dir = build_root / "candidate-hf"
    for d in (cand, hf_dir):
        if d.exists():
            shutil.rmtree(d)
    convert.save_hf(model, base.dir, hf_dir)
    convert.hf_to_ct2(hf_dir, cand, source_ct2=base.dir)
    shutil.rmtree(hf_dir)
    stats_more = None
    if full and cfg.get("decoder_epochs"):
        stats_more = more_decoder_epochs(cand, base.dir, clips, cfg, progress=progress, log=log)

    def dev_wer(t: Transcriber) -> float:
        return metrics.wer((ref, t.transcribe(w).text) for ref, w in dev_clips)
    before = dev_wer(base)
    after = dev_wer(Transcriber(str(cand), bias=False, window="short", threads=cfg["threads"]))
    log(f"dev WER on held-out voices: {before:.2%} (tiny.en) -> {after:.2%} (fine-tuned)")
    build_lm(cand, db=dbp, seed=cfg["seed"], log=log)        # NEW.yaml's words are in use already (above)
    summary = {"config": cfg, "train": stats, **({"train_decoder": stats_more} if stats_more else {}),
               "dev_wer_before": round(before, 4), "dev_wer_after": round(after, 4),
               "train_clips": len(inputs), "coverage_questions": len(cover), "prose_sentences": len(said),
               "train_voices": sorted({c.voice.split("@")[0] for c in inputs}),
               "dev_voices": sorted({v.label for v in heldout}), "vocab": str(vocab) if vocab else None,
               "inputs": inputs_record, "seconds": round(time.perf_counter() - t_start, 1)}
    (cand / "train.json").write_text(json.dumps(summary, indent=1))
    if current.exists():
        if (build_root / "previous").exists():
            shutil.rmtree(build_root / "previous")
        current.rename(build_root / "previous")
    cand.rename(current)
    log(f"installed the speech model at {current} ({summary['seconds']:.0f} s in all)")
    return summary


def more_decoder_epochs(cand: Path, source_ct2: Path, clips, cfg: dict, *, progress=None, log: Log = print) -> dict:
    """Train the decoder of the fine-tuned candidate further, `decoder_epochs` more passes over the same clips,
    with the encoder fixed: each clip is encoded once, by the candidate's own int8 encoder as it will serve, and
    only the decoder runs per step (a fraction of a full step's cost). Off by default: session 53 measured two such
    epochs (lr 5e-5) after the one full epoch on 22 spoken sets, and the mean WER moved 7.54 -> 7.40% (the first set
    6.48 -> 5.40%, others up to +0.7), within two draws' spread, for about a quarter more build time (model card).
    Set `decoder_epochs` (and `decoder_lr`) in train_config.json to use it. The model is read back from the
    candidate's stored (float16) weights, the ones that serve; the candidate is replaced in place."""
    from asr import convert, finetune
    from asr.transcribe import Transcriber
    tuned = Transcriber(str(cand), bias=False, window="short", threads=cfg["threads"])
    enc = finetune.encode_clips(tuned, clips, batch=8, progress=progress)
    model = convert.load_hf_from_ct2(cand)
    stats = finetune.train_decoder(model, tuned.tokenizer, enc, epochs=cfg["decoder_epochs"],
                                   batch_size=cfg["batch_size"], lr=cfg.get("decoder_lr", cfg["lr"]),
                                   seed=cfg["seed"], threads=cfg["threads"], progress=progress)
    del enc, tuned
    log(f"then the decoder alone ({stats['precision']}): {stats['steps']} steps in {stats['seconds']:.0f} s, loss "
        f"{stats['first_loss']:.3f} -> {stats['last_loss']:.3f}")
    hf_dir = Path(str(cand) + "-hf")
    if hf_dir.exists():
        shutil.rmtree(hf_dir)
    convert.save_hf(model, source_ct2, hf_dir)
    convert.hf_to_ct2(hf_dir, cand, source_ct2=source_ct2)
    shutil.rmtree(hf_dir)
    return stats


def build_lm(model_dir: Path, *, db: Optional[Path] = None, seed: int = 7, vocab: Optional[Path] = None,
             force: bool = False, log: Log = print) -> None:
    """Count the wording model (asr/lm.py) and store it beside the speech model in `model_dir`."""
    import duckdb

    from app.paths import default_db
    from asr import lm
    path = Path(model_dir) / lm.FILE
    if path.exists() and not force:
        return
    t0 = time.perf_counter()
    dbp = Path(db or default_db())
    if vocab is not None:
        from nlu import surface
        surface.use_extra_vocabulary(vocab, db=dbp)
    con = duckdb.connect(str(dbp), read_only=True)
    try:
        model = lm.build(con, seed)
    finally:
        con.close()
    model.save(path)
    log(f"wording model for the beam: {len(model.c3)} word trigrams of {lm.QUESTIONS} generated questions, "
        f"{time.perf_counter() - t0:.0f} s")
