"""`hpcask retrain`: regenerate training data (with new words), fine-tune, evaluate, and install the
new model only if it is not worse on the hand-written evaluation set; the previous one is kept."""
from __future__ import annotations

import json
import shutil
import time
from dataclasses import asdict
from pathlib import Path
from typing import Callable, Optional

import duckdb

from app.paths import MODELS, default_db

BUILD = MODELS / "nlu" / "build"
CURRENT = BUILD / "current"
PREVIOUS = BUILD / "previous"
CONFIG = MODELS / "nlu" / "train_config.json"
ASR_EXAMPLES = MODELS / "nlu" / "asr_examples.jsonl"


def config() -> dict:
    return json.loads(CONFIG.read_text())


def extra_examples(path: Optional[Path]):
    """User-supplied labelled questions (JSON lines: text, intent, and tokens+tags, or spans)."""
    from nlu.generate import Example
    from nlu.tokens import tokenize
    if not path:
        return []
    out = []
    for line in open(path):
        if not line.strip():
            continue
        d = json.loads(line)
        tokens = d.get("tokens") or [t.text for t in tokenize(d["text"])]
        tags = d.get("tags") or ["O"] * len(tokens)
        out.append(Example(text=d["text"], tokens=tokens, tags=tags, intent=d["intent"], slots=d.get("slots", {})))
    return out


def asr_transcripts(n: int, db: Path, log: Callable[[str], None] = print, path: Path = ASR_EXAMPLES
                    ) -> Optional[Path]:
    """Generated questions as the speech model writes them, with their labels (asr.nlu_examples), so the question
    model also learns what the recogniser really writes ("NVLink" heard as "and the link"). The file is
    committed: speech builds differ slightly between machines, and the question model should not. When it is
    missing, `n` questions are spoken and transcribed by the installed speech model (`python -m
    asr.nlu_examples --n 600 --out models/nlu/asr_examples.jsonl` remakes it). None (with a note) when neither
    the file nor a speech model is there."""
    from asr import build as asr_build
    from asr import nlu_examples
    if path.exists():
        log(f"ASR transcripts for training: {path}")
        return path
    if not asr_build.present():
        log("no speech model installed yet: training without ASR transcripts (`make asr`, then retrain)")
        return None
    nlu_examples.make(n, path, db=db, log=log)
    return path


def retrain(*, db: Optional[Path] = None, vocab: Optional[Path] = None, examples: Optional[Path] = None,
            force_install: bool = False, progress: Optional[Callable[[int, int, float], None]] = None,
            log: Callable[[str], None] = print, evaluate_after: bool = True, build_dir: Optional[Path] = None,
            overrides: Optional[dict] = None, incremental: bool = False) -> dict:
    """incremental: start from the installed model (minutes become seconds for a few new words)."""
    from nlu import generate, train
    cfg = {**config(), **(overrides or {})}
    build = Path(build_dir or BUILD)
    current, previous = build / "current", build / "previous"
    dbp = Path(db or default_db())
    con = duckdb.connect(str(dbp), read_only=True)
    try:
        from nlu import surface
        surface.use_extra_vocabulary(vocab, db=dbp)  # the words of this database (and NEW.yaml)
        t0 = time.perf_counter()
        data = generate.generate(con, n_per_intent=cfg["examples_per_intent"], seed=cfg["seed"])
        data += extra_examples(examples)
        log(f"generated {len(data)} training questions in {time.perf_counter() - t0:.1f} s")
    finally:
        con.close()
    if cfg.get("asr_examples") and not incremental:
        data += extra_examples(asr_transcripts(cfg["asr_examples"], dbp, log=log))
    cand = build / "candidate"
    if cand.exists():
        shutil.rmtree(cand)
    rep = train.train(data, cand, epochs=cfg["epochs"], batch_size=cfg["batch_size"], lr=cfg["lr"],
                      seed=cfg["seed"], max_len=cfg["max_len"], progress=progress, threads=cfg.get("threads"),
                      init_dir=(CURRENT if incremental else None), frozen_layers=cfg.get("frozen_layers", 0))
    from nlu import onnx_runtime
    onnx_runtime.prepare(cand, log=lambda s: None)   # the ONNX copy is made now, not at the first question
    log(f"trained in {rep.seconds:.0f} s on {rep.examples} questions: dev intent {rep.dev_intent_acc:.2%}, "
        f"dev tags {rep.dev_tag_acc:.2%}")
    summary = {"train": asdict(rep), "vocab": str(vocab) if vocab else None}
    if vocab:
        shutil.copy(vocab, cand / "extra_vocabulary.yaml")
    new_score = old_score = None
    if evaluate_after:
        new_score = _score(cand, dbp)
        summary["eval"] = new_score
        if (current / "eval.json").exists():
            old_score = json.loads((current / "eval.json").read_text())
        log("candidate: " + ", ".join(f"{k} {v:.4f}" for k, v in new_score.items() if isinstance(v, float)))
    (cand / "eval.json").write_text(json.dumps(new_score or {}, indent=1))
    (cand / "train.json").write_text(json.dumps(summary, indent=1, default=str))
    better = old_score is None or new_score is None or force_install or (
        new_score["intent_acc"] >= old_score.get("intent_acc", 0) - 1e-9
        and new_score["slot_f1"] >= old_score.get("slot_f1", 0) - 1e-9)
    if better:
        if current.exists():
            if previous.exists():
                shutil.rmtree(previous)
            current.rename(previous)
        cand.rename(current)
        log(f"installed the new model at {current}" + (f" (previous kept at {previous})" if previous.exists() else ""))
    else:
        log(f"kept the current model: the candidate is worse on the evaluation set "
            f"(intent {new_score['intent_acc']:.4f} vs {old_score['intent_acc']:.4f}, "
            f"slot F1 {new_score['slot_f1']:.4f} vs {old_score['slot_f1']:.4f}); candidate left at {cand}")
    summary["installed"] = better
    summary["model_dir"] = str(current if better else cand)
    return summary


def _score(model_dir: Path, db: Path) -> dict:
    from app.ask import Asker
    from nlu.evaluate import evaluate, load_set
    extra = model_dir / "extra_vocabulary.yaml"
    asker = Asker(db, model_dir, extra_vocab=extra if extra.exists() else None)
    try:
        rep = evaluate(asker.ask, load_set())
    finally:
        asker.close()
    return {"intent_acc": rep.intent_acc, "slot_f1": rep.slot_f1, "answer_acc": rep.answer_acc or 0.0,
            "oos_precision": rep.oos_precision, "oos_recall": rep.oos_recall, "n": rep.n}


def rollback(log: Callable[[str], None] = print) -> bool:
    if not PREVIOUS.exists():
        log("no previous model to roll back to")
        return False
    tmp = BUILD / "rollback-tmp"
    CURRENT.rename(tmp)
    PREVIOUS.rename(CURRENT)
    tmp.rename(PREVIOUS)
    log(f"rolled back: {CURRENT} is the previous model again")
    return True
