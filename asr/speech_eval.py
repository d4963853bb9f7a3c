"""Spoken evaluation: the hand-written evaluation questions (nlu/eval/questions.jsonl), read by voices that never
spoke a training clip, through ASR and the whole question pipeline.

Voices rotate over festival (an engine never used for training) and the held-out espeak-ng/flite voices
(asr.speech_data.eval_voices). The audio is synthesized once and cached under models/asr/build/eval_audio/
(keyed by engine, voice and text). Underscores in the written questions ("reduce_scatter") are read as spaces:
nobody says "underscore". Scores: corpus WER and HPC-term recall (asr.metrics), and the NLU evaluation's own
intent accuracy, slot F1 and answer accuracy (nlu.evaluate) on the transcripts; latency per question.
"""
from __future__ import annotations

import hashlib
import json
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from asr.weights import BUILD

EVAL_AUDIO = BUILD / "eval_audio"


def speakable(text: str) -> str:
    return text.replace("_", " ")


def said(item: dict) -> str:
    """The reference a transcript is scored against: the question as written, except that a question written
    with typos on purpose ("waht systems r loaded") has its misspellings spelled right (`said`, nlu/eval/README.md).
    The voice reads the typo and a good transcript writes the word: scoring "what" against "waht" counted the
    right transcript as an error."""
    return item.get("said") or item["text"]


@dataclass
class SpeechItem:
    item: dict
    audio: Path
    voice: str
    seconds: float


def eval_audio(items: list[dict], progress: Optional[Callable[[int, int], None]] = None,
               cache: Path = EVAL_AUDIO, skipped: Optional[list[tuple[str, str]]] = None) -> list[SpeechItem]:
    """One clip per evaluation question (voice i mod number of eval voices), synthesized once. A question whose
    speech runs past what the recogniser accepts (30 s: a pasted line of benchmark output read aloud) cannot be
    asked by voice; it is left out, and (id, reason) goes to `skipped` so the caller can say so."""
    from asr import speech_data as S
    from asr.audio import AudioError, save_wav
    voices = S.eval_voices()
    cache.mkdir(parents=True, exist_ok=True)
    out = []
    for i, it in enumerate(items):
        v = voices[i % len(voices)]
        h = hashlib.sha1(f"{v.label}|{it['text']}".encode()).hexdigest()[:16]
        p = cache / f"{it.get('id', i)}_{h}.wav"
        if not p.exists():
            try:
                wav = S.synthesize(speakable(it["text"]), v)
            except AudioError as e:
                if "too long" not in str(e):
                    raise
                if skipped is not None:
                    skipped.append((str(it.get("id", i)), f"its speech is too long for one question ({v.label})"))
                if progress:
                    progress(i + 1, len(items))
                continue
            save_wav(p.with_suffix(".tmp.wav"), wav)
            p.with_suffix(".tmp.wav").rename(p)
        out.append(SpeechItem(it, p, v.label, (p.stat().st_size - 44) / 2 / 16000))
        if progress:
            progress(i + 1, len(items))
    return out


@dataclass
class SpeechReport:
    model: str
    n: int
    wer: float
    term_recall: float
    intent_acc: float
    slot_f1: float
    answer_acc: Optional[float]
    n_answers: int
    p50_ms: float
    p95_ms: float
    p50_5s_ms: Optional[float]       # questions of 4-6 s of audio
    rtf: float
    wer_by_engine: dict[str, float] = field(default_factory=dict)
    # by the style its writer gave each question: whole sentences (typed, spoken) are what people say; terse
    # keyword queries ("allgathr algbw 16M oop h200") and typos are typed forms a voice reads letter for letter
    wer_by_style: dict[str, tuple[int, float]] = field(default_factory=dict)
    errors: list[dict] = field(default_factory=list)
    strict_intent_acc: Optional[float] = None   # a right refusal of data the set marks missing held as a miss
    # WER against the questions as written, misspellings and all (`wer` takes a typo question's `said`)
    wer_written: Optional[float] = None

    def engine_text(self) -> str:
        """'espeak-ng 6.60%, festival 11.15%, ...': one wording for the CLI and the bench."""
        return ", ".join(f"{k} {v:.2%}" for k, v in self.wer_by_engine.items())

    def style_text(self) -> str:
        """'spoken 4.70% (45), terse 14.08% (63), ...': one wording for the CLI and the bench."""
        return ", ".join(f"{k} {w:.2%} ({n})" for k, (n, w) in self.wer_by_style.items())

    def lines(self) -> list[str]:
        out = [f"speech model         {self.model}",
               f"questions            {self.n} (voices never used in training)",
               f"WER                  {self.wer:.2%}  ({self.engine_text()})",
               *([f"WER as written       {self.wer_written:.2%}  (misspelt words of typo questions as the "
                  "reference)"] if self.wer_written is not None and self.wer_written != self.wer else []),
               *([f"WER by style         {self.style_text()}"] if self.wer_by_style else []),
               f"HPC-term recall      {self.term_recall:.2%}",
               f"intent accuracy      {self.intent_acc:.2%}"
               + (f" (strict {self.strict_intent_acc:.2%}: refusals of missing data as misses)"
                  if self.strict_intent_acc is not None else ""),
               f"slot F1              {self.slot_f1:.4f}"]
        if self.answer_acc is not None:
            out.append(f"answer accuracy      {self.answer_acc:.2%} of {self.n_answers} with an expected number")
        out.append(f"ASR latency          p50 {self.p50_ms:.0f} ms, p95 {self.p95_ms:.0f} ms"
                   + (f", p50 {self.p50_5s_ms:.0f} ms for 4-6 s questions" if self.p50_5s_ms else "")
                   + f"; real-time factor {self.rtf:.3f}")
        return out


def evaluate_speech(asker, transcriber, clips: list[SpeechItem], progress: Optional[Callable[[int, int], None]] = None,
                    *, raw: bool = False, transcripts: Optional[dict] = None) -> SpeechReport:
    """Transcribe every clip with `transcriber`, answer the transcript with `asker`, score like nlu.evaluate.
    raw: score the speech model's own text (Transcript.raw_text), not the vocabulary-corrected one.
    transcripts: audio path -> Transcript, reused where present and filled in, so that one decode can be scored
    with and without correction (the latency of a raw row leaves the correction's time out)."""
    from asr import metrics
    from nlu.evaluate import evaluate
    heard: dict[str, tuple[str, float, float]] = {}
    answers: dict[str, object] = {}
    cache = transcripts if transcripts is not None else {}
    for i, c in enumerate(clips):
        t = cache.get(str(c.audio)) or transcriber.transcribe(c.audio)
        cache[str(c.audio)] = t
        ms = t.timings_ms["total"] - (t.timings_ms.get("correct", 0.0) if raw else 0.0)
        text = (t.raw_text or t.text) if raw else t.text
        try:
            if raw:
                answers[c.item["text"]] = asker.ask(text, transcript=text)
            else:
                # as `hpcask ask --audio` reads it (a hesitation-free reading where the text cannot be answered)
                answers[c.item["text"]] = asker.ask_transcript(t)
                text = answers[c.item["text"]].transcript or text
        except Exception as e:  # noqa: BLE001 - scored as a miss by nlu.evaluate, as a typed question's crash is
            answers[c.item["text"]] = e
        heard[c.item["text"]] = (text, ms, t.audio_s)
        if progress:
            progress(i + 1, len(clips))
    rep = evaluate(lambda text: _answered(answers[text]), [c.item for c in clips])
    pairs = [(c.item["text"], heard[c.item["text"]][0]) for c in clips]
    refs = [(said(c.item), h) for c, (_, h) in zip(clips, pairs)]
    by_engine: dict[str, list] = {}
    by_style: dict[str, list] = {}
    for c, pr in zip(clips, refs):
        by_engine.setdefault(c.voice.split(":")[0], []).append(pr)
        if c.item.get("style"):
            by_style.setdefault(c.item["style"], []).append(pr)
    ms = [heard[c.item["text"]][1] for c in clips]
    five = [heard[c.item["text"]][1] for c in clips if 4.0 <= heard[c.item["text"]][2] <= 6.0]
    q = statistics.quantiles(ms, n=20) if len(ms) >= 2 else ms * 19
    errors = [{"text": r, "heard": h, **{k: e[k] for k in ("gold", "pred") if k in e}}
              for e in rep.errors for r, h in pairs if r == e["text"]]
    return SpeechReport(
        model=transcriber.name + (" + vocabulary prompt" if transcriber.bias else "") + f" ({transcriber.window} window)"
        + (" + vocabulary correction" if getattr(transcriber, "corrector", None) is not None and not raw else ""),
        n=len(clips), wer=metrics.wer(refs), wer_written=metrics.wer(pairs), term_recall=metrics.term_recall(refs),
        intent_acc=rep.intent_acc,
        strict_intent_acc=rep.strict_intent_acc, slot_f1=rep.slot_f1, answer_acc=rep.answer_acc, n_answers=rep.n_answers,
        p50_ms=statistics.median(ms), p95_ms=q[18], p50_5s_ms=statistics.median(five) if five else None,
        rtf=sum(ms) / 1000 / max(1e-9, sum(heard[c.item["text"]][2] for c in clips)),
        wer_by_engine={k: metrics.wer(v) for k, v in sorted(by_engine.items())},
        wer_by_style={k: (len(v), metrics.wer(v)) for k, v in sorted(by_style.items())}, errors=errors)


def _answered(res):
    """The answer kept for a clip, or the exception its question raised (nlu.evaluate counts it)."""
    if isinstance(res, Exception):
        raise res
    return res


def save(rep: SpeechReport, path: Path) -> None:
    path.write_text(json.dumps(rep.__dict__, indent=1, default=str))
