"""The corrector's own dev set: new generated questions spoken by TRAINING-pool voices, and their raw transcripts.

The transcript corrector (asr/correct.py) has thresholds; tuning them on the hand-written evaluation questions
would make the benchmark meaningless, so they are tuned here instead: questions from the NLU generator (seed
distinct from the speech model's, none equal to a training or evaluation sentence), read by voices drawn from the
training pool (asr.speech_data.train_voice) with the training augmentation, transcribed once by the fine-tuned
model. Cached as models/asr/build/correct_dev/dev.json (reference, voice, raw transcript, word probabilities).

`.venv/bin/python -m asr.correct_dev [--n 150]` builds it (a few minutes on 2 cores) and prints WER and
HPC-term recall with and without correction; `--sweep` also tries a grid of thresholds.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from asr.weights import BUILD

DEV_DIR = BUILD / "correct_dev"
SEED = 2311               # not the speech model's seed (7): other questions, other voices
TRAIN_SEED, TRAIN_QUESTIONS = 7, 840


def build(n: int, out: Path = DEV_DIR) -> list[dict]:
    """Speak and transcribe `n` dev questions (cached: an existing dev.json of that size is reused)."""
    path = out / "dev.json"
    if path.exists():
        rows = json.loads(path.read_text())
        if len(rows) >= n and all("probs" in r for r in rows):
            return rows[:n]
    import duckdb
    from tqdm import tqdm

    from app import paths
    from asr import finetune, speech_data as S
    from asr.transcribe import Transcriber
    con = duckdb.connect(str(paths.default_db()), read_only=True)
    try:
        exclude = S.eval_keys()
        exclude |= {S._sentence_key(q.text) for q in S.spoken_questions(con, TRAIN_QUESTIONS, TRAIN_SEED,
                                                                          exclude=set(exclude))}
        qs = S.spoken_questions(con, n, SEED, exclude=exclude)
    finally:
        con.close()
    with tqdm(total=len(qs), desc="speaking dev questions (training voices)", unit="q", file=sys.stderr) as bar:
        clips = finetune.synthesize_clips(qs, SEED, 0.4, lambda s, d, t, i: bar.update(d - bar.n))
    tr = Transcriber("finetuned")
    rows = []
    for (text, voice, wav), q in tqdm(list(zip(clips, qs)), desc="transcribing", unit="q", file=sys.stderr):
        t = tr.transcribe(wav)
        rows.append({"text": text, "intent": q.intent, "voice": voice, "raw": t.raw_text, "probs": t.word_probs})
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows, indent=1))
    return rows


def score(rows: list[dict], corrector) -> dict:
    """WER and term recall of the raw and the corrected transcripts, and how many transcripts changed."""
    from asr import metrics
    raw = [(r["text"], r["raw"]) for r in rows]
    fixed = [(r["text"], corrector.correct(r["raw"], r.get("probs")).text) for r in rows]
    return {"wer_raw": metrics.wer(raw), "wer_fixed": metrics.wer(fixed),
            "recall_raw": metrics.term_recall(raw), "recall_fixed": metrics.term_recall(fixed),
            "changed": sum(a[1] != b[1] for a, b in zip(raw, fixed))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=150, help="dev questions (default 150)")
    ap.add_argument("--sweep", action="store_true", help="also score a grid of thresholds")
    ap.add_argument("--show", action="store_true", help="print every transcript the corrector changes")
    a = ap.parse_args()
    from asr.correct import Corrector
    rows = build(a.n)
    c = Corrector()
    s = score(rows, c)
    print(f"dev set: {len(rows)} questions, training-pool voices")
    print(f"default  WER {s['wer_raw']:.2%} -> {s['wer_fixed']:.2%}   term recall {s['recall_raw']:.2%} -> "
          f"{s['recall_fixed']:.2%}   changed {s['changed']}")
    if a.show:
        for r in rows:
            got = c.correct(r["raw"], r.get("probs"))
            if got.text != r["raw"]:
                print(f"  ref  {r['text']}\n  raw  {r['raw']}\n  new  {got.text}\n")
    if a.sweep:
        base = Corrector()
        for thr in (0.15, 0.2, 0.25, 0.3, 0.35):
            for short in (0, 2, 4):
                base.threshold, base.short = thr, short
                s = score(rows, base)
                print(f"threshold {thr:.2f} short {short}  WER {s['wer_fixed']:.2%}  term recall "
                      f"{s['recall_fixed']:.2%}  changed {s['changed']}")
        for unsure in (0.0, 0.5, 0.7, 0.8, 0.9, 0.95):
            base.threshold, base.short, base.unsure = c.threshold, c.short, unsure
            s = score(rows, base)
            print(f"unsure below {unsure:.1f}  WER {s['wer_fixed']:.2%}  term recall {s['recall_fixed']:.2%}  "
                  f"changed {s['changed']}")
        base.threshold, base.short, base.keep_english, base.unsure = c.threshold, c.short, False, c.unsure
        s = score(rows, base)
        print(f"English words may change too:  WER {s['wer_fixed']:.2%}  term recall {s['recall_fixed']:.2%}  "
              f"changed {s['changed']}")


if __name__ == "__main__":
    main()
