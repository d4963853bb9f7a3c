"""NLU training examples from ASR output: what the recogniser really writes, with the original labels.

Generated spoken questions are synthesized with training voices (never the evaluation voices or sentences),
transcribed by the installed speech model, and each transcript is aligned word by word to the question it came
from (edit-distance alignment on normalised words), so the slot tags travel to the words the ASR wrote
("envy link" -> "NVLink" keeps B-link_type). Transcripts that lost a slot entirely are dropped, since their
labels would be wrong. Output: JSON lines {text, intent, tokens, tags, slots, source} — the format
`hpcask retrain --examples FILE` (nlu.retrain.extra_examples) reads.

    .venv/bin/python -m asr.nlu_examples --n 600 --out models/asr/build/nlu_examples.jsonl
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Optional

from asr.weights import BUILD

DEFAULT_OUT = BUILD / "nlu_examples.jsonl"
SEED = 1234   # not the speech model's seed: other questions than the ASR was trained on


def _norm(w: str) -> str:
    from asr.metrics import words
    return " ".join(words(w)) or w.lower()


def align_tags(src_tokens: list[str], src_tags: list[str], hyp_tokens: list[str]) -> Optional[list[str]]:
    """Tags for `hyp_tokens` carried over from the aligned source tokens; None if a slot span vanished."""
    a, b = [_norm(t) for t in src_tokens], [_norm(t) for t in hyp_tokens]
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    hyp_src: list[Optional[int]] = [None] * m
    i, j = n, m
    while i > 0 and j > 0:
        if d[i][j] == d[i - 1][j - 1] + (a[i - 1] != b[j - 1]):
            hyp_src[j - 1] = i - 1
            i, j = i - 1, j - 1
        elif d[i][j] == d[i][j - 1] + 1:
            j -= 1
        else:
            i -= 1
    tags: list[str] = []
    for j in range(m):
        s = hyp_src[j]
        if s is not None:
            tags.append(src_tags[s])
            continue
        # an inserted word inside a span ("n v link" for "nvlink") belongs to that span
        prev = next((src_tags[hyp_src[k]] for k in range(j - 1, -1, -1) if hyp_src[k] is not None), "O")
        nxt = next((src_tags[hyp_src[k]] for k in range(j + 1, m) if hyp_src[k] is not None), "O")
        inside = prev != "O" and nxt.startswith("I-") and nxt[2:] == prev[2:]
        tags.append("I-" + prev[2:] if inside else "O")
    for j in range(m):                       # repair BIO: a span starts with B-
        if tags[j].startswith("I-") and (j == 0 or tags[j - 1] == "O" or tags[j - 1][2:] != tags[j][2:]):
            tags[j] = "B-" + tags[j][2:]
    want = sum(t.startswith("B-") for t in src_tags)
    got = sum(t.startswith("B-") for t in tags)
    return tags if got == want else None


def make(n: int, out: Path = DEFAULT_OUT, *, model: str = "finetuned", db: Optional[Path] = None,
         seed: int = SEED, log=print) -> dict:
    import duckdb

    from app.paths import default_db
    from asr import speech_data as S
    from asr.transcribe import Transcriber
    from nlu.tokens import tokenize
    con = duckdb.connect(str(Path(db or default_db())), read_only=True)
    try:
        qs = S.spoken_questions(con, n, seed=seed)
    finally:
        con.close()
    tr = Transcriber(model)
    rng = random.Random(seed)
    kept = dropped = 0
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    from tqdm import tqdm
    with open(tmp, "w") as f:
        for i, q in enumerate(tqdm(qs, desc="ASR transcripts", unit="question", file=sys.stderr)):
            v = S.train_voice(rng)
            wav = S.synthesize(q.text, v)
            if rng.random() < 0.3:
                import numpy as np
                wav = S.augment(wav, np.random.default_rng(seed + i))
            text = tr.transcribe(wav).text
            tokens = [t.text for t in tokenize(text)]
            tags = align_tags(q.tokens, q.tags, tokens)
            if tags is None:
                dropped += 1
                continue
            f.write(json.dumps({"text": text, "intent": q.intent, "tokens": tokens, "tags": tags,
                                "slots": q.slots, "source": q.text, "voice": v.label}) + "\n")
            kept += 1
    tmp.rename(out)
    log(f"wrote {kept} transcript examples to {out} ({dropped} dropped: a slot was lost in transcription)")
    return {"kept": kept, "dropped": dropped, "out": str(out)}


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m asr.nlu_examples", description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=600, help="questions to speak and transcribe (default 600)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"JSON lines to write (default {DEFAULT_OUT})")
    ap.add_argument("--model", default="finetuned", help="speech model (default: the fine-tuned one)")
    args = ap.parse_args(argv)
    make(args.n, args.out, model=args.model)
    return 0


if __name__ == "__main__":
    sys.exit(main())
