"""Speech -> text with faster-whisper's pieces (CTranslate2 int8 on CPU). Load once, transcribe many.

A question is one short utterance, so it is decoded as one window, with beam search and without timestamps; the
fine-tuned model's eight hypotheses are ranked with a word trigram model of how HPC questions are worded (asr/lm.py,
counted with the speech model: "compare congestion-free ..." over "compute congestion free ..."). Two window
modes:
- "full": the audio padded to Whisper's 30-second window, as Whisper was trained (off-the-shelf models).
- "short": the audio plus at least one second of padding, rounded up to 2 s (a 5-second question -> 8 s).
  The encoder's cost grows faster than linearly with the window, so this is ~5x faster on a CPU; the
  fine-tuned model (asr/finetune.py) is trained on exactly these windows, so it is served with them.
Generated tokens are capped (a vocabulary prompt can make Whisper loop: "NVLink, NVLink, NVLink, ...") and a
repeated tail is cut. A transcript that opens with a hesitation ("um") gets a second decode without hesitations
(`filler_tokens`) in every play, kept unless it scores clearly worse. The text is then corrected toward the HPC vocabulary
(asr.correct: "b g x one" -> "d g x one"); the decoder's own text stays in `raw_text`. $HPCASK_ASR_CORRECT=0 (or correct=False) turns that off.
"""
from __future__ import annotations

import math
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np

from asr import audio as audio_mod
from asr.audio import AudioError, AudioInput
from asr.metrics import HESITATIONS, words

DEFAULT_MODEL = "finetuned"
MAX_NEW_TOKENS = 96          # a 30-second question is ~80 tokens; loops end here
MAX_PROMPT_TOKENS = 223      # Whisper's limit for "previous text"
THREADS = 2
# Beam search: over 5 hypotheses (session 8) WER 23.1 -> 18.2%, spoken intent 70.9 -> 74.1% against greedy decoding,
# for about a third more decoding time. Over 8 since session 50: with the two plays below, on the fifteen read sets
# (cached audio, same model, reader and corrector) WER lower on thirteen and level on two (mean 7.62 -> 7.42%; first
# set 6.89 -> 6.60%), spoken intent up on ten, level on three, down on two (mean 92.59 -> 93.03%), for p50 0.36 ->
# 0.38 s on the first 120 clips with nothing else running (session 22 had judged a beam of eight, one play and
# another model, 0.1 point better and not worth its time). Greedy decoding (beam_size=1) also gives the decoder's
# word confidences that the corrector can use.
DEFAULT_BEAM = 8
# How much the wording model (asr/lm.py) counts against the speech model when the beam's hypotheses are
# ranked: score = speech model's mean log-probability per token + LM_WEIGHT x wording model's per word. Chosen on
# the first hand-written set in session 22 from 0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3 and 0.5 (WER 7.92% at 0; 7.61,
# 7.57, 7.44% at 0.1, 0.15, 0.2; no better above); the second set, seen in the same grid, went 7.23 -> 6.41%.
# (Chosen with a beam of five; with eight, 0.1 and 0.3 were no better on the first two sets: session 50.)
LM_WEIGHT = 0.2
# Each clip is also decoded played 8% slower, and the best-scoring hypothesis of both decodes (speech model plus
# wording model, as within one beam) is taken. Measured in session 48 on the eleven read sets (cached audio, same
# model, reader and corrector): WER lower on ten of eleven (mean -0.32 points; first set 7.21 -> 6.89%), spoken
# intent +0.8 points on average (first set 96.36 -> 97.73%), answers higher on eight; the decode costs about twice the
# time (p50 about 0.2 -> 0.4 s on two busy cores, under the 0.6 s aim). $HPCASK_ASR_SPEEDS=1.0 decodes once.
DEFAULT_SPEEDS = (1.0, 0.92)
HOP = 160                    # mel frames are 10 ms


def window_seconds(audio_s: float, mode: str) -> float:
    """The window a clip is padded to: shared by serving and training, so both see the same encoder input."""
    if mode == "full":
        return 30.0
    return float(min(30.0, 2 * math.ceil((audio_s + 1.0) / 2)))


@dataclass
class Transcript:
    text: str                # what the question pipeline reads (corrected toward the vocabulary)
    audio_s: float
    timings_ms: dict[str, float] = field(default_factory=dict)   # decode (file -> samples), asr, correct, total
    raw_text: str = ""       # what the speech model wrote
    corrections: list = field(default_factory=list)             # asr.correct.Change, one per rewritten span
    word_probs: Optional[list[float]] = None    # per word of raw_text: how sure the decoder was of it (0-1)
    # "um p2p BW matrix in link" may be "Yme p2p BW matrix ...": when the text opens with a hesitation, the best
    # text decoded without hesitations (corrected like `text`) and how far below it scored; the question pipeline
    # reads it when the text as heard cannot be answered (app.ask.Asker.ask_transcript)
    hesitation_free: Optional[str] = None
    hesitation_gap: Optional[float] = None
    # the beam's other hypotheses (corrected like `text`, each once, best first) and how far below `text` each
    # scored: "DGX2D2D latency ..." cannot be answered where "DGX-2D2D latency ..." just below it can; the question
    # pipeline reads them only when `text` is understood but cannot be answered (app.ask.Asker.ask_transcript)
    alternatives: list[tuple[str, float]] = field(default_factory=list)
    speed: float = 1.0       # the play speed whose decode gave `text` (Transcriber's speeds; 1.0 as recorded)

    @property
    def rtf(self) -> float:
        """Real-time factor: seconds of compute per second of audio."""
        return self.timings_ms["total"] / 1000.0 / max(self.audio_s, 1e-9)


class Transcriber:
    """One loaded Whisper model. model: "finetuned" (default), "tiny.en", "base" or a CTranslate2 directory.
    bias: use the HPC vocabulary prompt (asr.hints); default: only for the off-the-shelf models (the fine-tuned
    one has the words built in). window: "short" or "full"; default: short for the fine-tuned model only.
    correct: rewrite near-misses of vocabulary terms (asr.correct); default on unless $HPCASK_ASR_CORRECT=0."""

    def __init__(self, model: str = DEFAULT_MODEL, *, bias: Optional[bool] = None, window: Optional[str] = None,
                 threads: int = THREADS, compute_type: str = "int8", beam_size: int = DEFAULT_BEAM,
                 extra_vocab: Optional[Path] = None, max_new_tokens: int = MAX_NEW_TOKENS,
                 correct: Optional[bool] = None, second_opinion_on_fillers: bool = True,
                 rescore: Optional[bool] = None, lm_weight: float = LM_WEIGHT,
                 speeds: Optional[tuple[float, ...]] = None):
        from faster_whisper import WhisperModel
        from faster_whisper.tokenizer import Tokenizer

        from asr import weights
        self.name = model
        # the clip also decoded played at other speeds (DEFAULT_SPEEDS); the best-scoring hypothesis of all wins
        if speeds is None:
            env = os.environ.get("HPCASK_ASR_SPEEDS", "").strip()
            speeds = tuple(float(x) for x in env.split(",")) if env else DEFAULT_SPEEDS
        if not speeds or any(not 0.5 <= f <= 2.0 for f in speeds):
            raise ValueError(f"speeds must lie between 0.5 and 2.0, got {speeds}")
        self.speeds = tuple(dict.fromkeys((1.0, *speeds)))     # the clip as recorded is always decoded
        self.dir = weights.model_dir(model)
        fw = WhisperModel(str(self.dir), device="cpu", compute_type=compute_type, cpu_threads=threads,
                          num_workers=1, local_files_only=True)
        self.ct2 = fw.model
        self.features = fw.feature_extractor
        self.tokenizer = Tokenizer(fw.hf_tokenizer, fw.model.is_multilingual, task="transcribe", language="en")
        self.beam_size = beam_size
        self.max_new_tokens = max_new_tokens
        tuned = model not in ("tiny.en", "base")
        self.window = window or ("short" if tuned else "full")
        self.bias = (not tuned) if bias is None else bias
        self.prompt_text: Optional[str] = None
        self.prefix = list(self.tokenizer.sot_sequence) + [self.tokenizer.no_timestamps]
        self.fillers = filler_tokens(self.tokenizer) if second_opinion_on_fillers else []
        if correct is None:
            correct = os.environ.get("HPCASK_ASR_CORRECT", "1").strip().lower() not in ("0", "no", "off", "false")
        self.corrector = None
        if correct:
            from asr.correct import default_corrector
            self.corrector = default_corrector(extra_vocab)
        # the wording model stored with the speech model ranks the beam's hypotheses (off with rescore=False or
        # $HPCASK_ASR_RESCORE=0, and for models built without one: the off-the-shelf ones)
        if rescore is None:
            rescore = os.environ.get("HPCASK_ASR_RESCORE", "1").strip().lower() not in ("0", "no", "off", "false")
        self.lm = None
        self.lm_weight = lm_weight
        if rescore:
            from asr import lm as lm_mod
            self.lm = lm_mod.load_beside(self.dir)
            if self.lm is not None:
                self.lm = self.lm.with_terms(_term_words(self.corrector, extra_vocab))
        if self.bias:
            from asr.hints import initial_prompt
            self.prompt_text = initial_prompt(extra_vocab, tokenizer=fw.hf_tokenizer)
            ids = self.tokenizer.encode(" " + self.prompt_text.strip())[-(MAX_PROMPT_TOKENS - 1):]
            self.prefix = [self.tokenizer.sot_prev] + ids + self.prefix

    def mel(self, wav: np.ndarray) -> np.ndarray:
        """Log-mel features of one clip in its window: [80, frames]."""
        frames = int(window_seconds(len(wav) / audio_mod.SAMPLE_RATE, self.window) * audio_mod.SAMPLE_RATE) // HOP
        return mel_features(self.features, wav, frames)

    def encode(self, mels: np.ndarray):
        """CTranslate2 encoder output for a batch of equal-length mels (kept on the CPU as a StorageView)."""
        import ctranslate2
        return self.ct2.encode(ctranslate2.StorageView.from_array(np.ascontiguousarray(mels, dtype=np.float32)),
                               to_cpu=True)

    def _generate(self, enc, suppress: list[int]):
        return self.ct2.generate(enc, [self.prefix], beam_size=self.beam_size, max_length=len(self.prefix)
                                 + self.max_new_tokens, suppress_blank=True, suppress_tokens=suppress,
                                 return_scores=True, num_hypotheses=self.beam_size if self.lm is not None else 1,
                                 return_logits_vocab=self.corrector is not None and self.beam_size == 1)

    def _hypotheses(self, res, bonus: float = 0.0) -> list[tuple[float, list[int], str, list]]:
        """(score, token ids, text, per-step logits or []) of each hypothesis of one decode: the speech model's
        length-normalised log-probability (+ `bonus`), plus LM_WEIGHT x the wording model's mean log-probability
        per word (asr/lm.py)."""
        out = []
        logits = res[0].logits or []
        for k, (ids, score) in enumerate(zip(res[0].sequences_ids, res[0].scores)):
            text = clean(self.tokenizer.decode(ids))
            if self.lm is not None:
                score += self.lm_weight * self.lm.mean_logprob(words(text))
            out.append((score + bonus, ids, text, logits[k] if k < len(logits) else []))
        return out

    def transcribe(self, audio: AudioInput, *, name: Optional[str] = None) -> Transcript:
        """Text of one spoken question; AudioError when the audio is unusable or holds no words."""
        t0 = time.perf_counter()
        wav = audio_mod.load(audio, name=name)
        t1 = time.perf_counter()
        enc = self.encode(self.mel(wav)[None])
        res = self._generate(enc, [-1])
        hyps = self._hypotheses(res)
        speed_of = {id(h): 1.0 for h in hyps}
        plays = [(1.0, enc)]
        for f in self.speeds[1:]:
            if len(wav) / f / audio_mod.SAMPLE_RATE + 1.0 > 30.0:
                continue          # played slower it would not fit the 30-second window whole
            plays.append((f, self.encode(self.mel(played_at(wav, f))[None])))
            more = self._hypotheses(self._generate(plays[-1][1], [-1]))
            speed_of.update({id(h): f for h in more})
            hyps += more
        best = max(hyps, key=lambda h: h[0])
        pool, runner_up = hyps, None
        if best[1] and best[1][0] in self.fillers:
            # "um Yme, what fraction ...": a hesitation the speaker may not have made; decode again without
            # hesitations, in every play (the slower play may hear the soft word where the first did not), and keep
            # that text unless it scores clearly worse (a real "uh" does)
            alt = []
            for f, e in plays:
                more = [h for h in self._hypotheses(self._generate(e, [-1] + self.fillers), FILLER_MARGIN) if h[1]]
                speed_of.update({id(h): f for h in more})
                alt += more
            if alt:
                top_alt = max(alt, key=lambda h: h[0])
                pool = hyps + alt
                best = max(pool, key=lambda h: h[0])
                if best is not top_alt and _has_words(top_alt[2]):
                    runner_up = top_alt   # kept for the reader: the meaning may settle a near tie
        ids, raw = best[1], best[2]
        t2 = time.perf_counter()
        label = name or (str(audio) if isinstance(audio, (str, Path)) else "the audio")
        if not _has_words(raw):
            raise AudioError(f"no words were recognised in {label}")
        text, changes, probs = raw, [], None
        if self.corrector is not None:
            probs = word_probs(self.tokenizer, ids, best[3], raw)
            fixed = self.corrector.correct(raw, probs)
            text, changes = fixed.text, fixed.changes
        alternatives = self._alternatives(best, pool, text)
        free = gap = None
        if runner_up is not None:
            free = runner_up[2]
            if self.corrector is not None:
                free = self.corrector.correct(free, word_probs(self.tokenizer, runner_up[1], runner_up[3], free)).text
            gap = round(best[0] - runner_up[0], 4)
        t3 = time.perf_counter()
        return Transcript(text=text, audio_s=len(wav) / audio_mod.SAMPLE_RATE, raw_text=raw, corrections=changes,
                          word_probs=probs, hesitation_free=free, hesitation_gap=gap, alternatives=alternatives,
                          speed=speed_of.get(id(best), 1.0),
                          timings_ms={"decode": round((t1 - t0) * 1000, 2), "asr": round((t2 - t1) * 1000, 2),
                                      "correct": round((t3 - t2) * 1000, 2), "total": round((t3 - t0) * 1000, 2)})


    def _alternatives(self, best, pool, text: str) -> list[tuple[str, float]]:
        """(corrected text, score gap below `best`) of every other hypothesis in `pool` that reads differently."""
        out, seen = [], {text}
        for h in sorted(pool, key=lambda h: -h[0]):
            if h is best or not _has_words(h[2]):
                continue
            t = self.corrector.correct(h[2]).text if self.corrector is not None else h[2]
            if t not in seen:
                seen.add(t)
                out.append((t, round(best[0] - h[0], 4)))
        return out


def played_at(wav: np.ndarray, speed: float) -> np.ndarray:
    """The clip played `speed` times as fast (pitch moves with it), by linear interpolation."""
    n = int(len(wav) / speed)
    return np.interp(np.arange(n) * speed, np.arange(len(wav)), wav).astype(np.float32)


FILLERS = HESITATIONS       # the words WER leaves out are the tokens a second decode suppresses
# How much lower (length-normalised log-probability) the text decoded without hesitations may score and still be
# taken over one that opens with a hesitation. Chosen on generated dev questions spoken by held-out voices
# (9 of 150 open with a real "uh"/"um"): 0.05 kept their WER (4.81 -> 4.77%); suppressing hesitations outright
# cost 0.17 points there ("uh schedule a job" -> "hey schedule a job").
FILLER_MARGIN = 0.05


def _term_words(corrector, extra_vocab: Optional[Path]) -> list[list[str]]:
    """Every vocabulary term in the wording model's words (from the corrector's vocabulary when there is one)."""
    if corrector is None:
        from asr.correct import default_corrector
        corrector = default_corrector(extra_vocab)
    return [words(s) for s in corrector.surfaces]


def filler_tokens(tokenizer) -> list[int]:
    """Token ids that are a hesitation on their own (" uh", " Um", "Uh"), never a piece of a longer word.
    The fine-tuned model learnt hesitant openings from the generator's spoken style and writes "um" for a soft
    first word it did not catch ("um Yme, what fraction ..." for "On Yme, ..."); a transcript that opens with
    one is decoded a second time without them (`Transcriber.transcribe`)."""
    out: list[int] = []
    for w in sorted(FILLERS):
        for form in (" " + w, " " + w.capitalize(), w.capitalize()):
            ids = tokenizer.encode(form)
            if len(ids) == 1 and ids[0] not in out:
                out.append(ids[0])
    return out


def word_probs(tokenizer, ids: list[int], logits, text: str) -> Optional[list[float]]:
    """Per word of `text`, how sure the greedy decoder was of its least sure token (greedy decoding only: beam
    search returns no per-step logits, and the corrector then works without them): 1 / (1 + e^(runner-up logit -
    chosen logit)), the chosen token's probability if only the runner-up competed (an upper bound of the softmax
    probability at a tenth of its cost: two maxima per step over the log-probabilities CTranslate2 returns with the
    result, no softmax over 52k tokens, no second pass). None when the words of the tokens are not those of `text`
    (a loop was cut)."""
    if not ids or len(logits) < len(ids):
        return None
    sure: list[float] = []
    for step, tok in zip(logits, ids):
        a = np.asarray(step).ravel()
        chosen = float(a[tok])
        rival = max(float(a[:tok].max()) if tok > 0 else -np.inf,
                    float(a[tok + 1:].max()) if tok + 1 < a.size else -np.inf)
        sure.append(1.0 / (1.0 + math.exp(min(50.0, max(-50.0, rival - chosen)))))
    words: list[str] = []
    probs: list[float] = []
    for tok, pr in zip(ids, sure):
        piece = tokenizer.decode([tok])
        if piece.startswith(" ") or not words:
            words.append(piece.strip())
            probs.append(pr)
        else:
            words[-1] += piece
            probs[-1] = min(probs[-1], pr)
    pairs = [(w, q) for w, q in zip(words, probs) if w]
    if [w for w, _ in pairs] != text.split():
        return None
    return [round(q, 4) for _, q in pairs]


def mel_features(extractor, wav: np.ndarray, frames: int) -> np.ndarray:
    """Whisper's log-mel of `wav` zero-padded (or cut) to exactly `frames` 10-ms frames."""
    n = frames * HOP
    padded = np.zeros(n, dtype=np.float32)
    padded[: min(n, len(wav))] = wav[:n]
    return extractor(padded, padding=0)[:, :frames].astype(np.float32)


_REPEAT = re.compile(r"(\b.{3,40}?\b)(?:[\s,.]+\1){2,}", re.I)


_SPLIT_PLURAL = re.compile(r"\b([A-Za-z]+\d+) [sS]\b(?!')")


def clean(text: str) -> str:
    """One line, no loops: "a b NVLink, NVLink, NVLink, NVLink" -> "a b NVLink"; a plural split off a model
    number joined again ("each pair of V100 S" -> "V100s", which the reader knows)."""
    text = re.sub(r"\s+", " ", text).strip()
    text = _SPLIT_PLURAL.sub(r"\1s", text)
    return _REPEAT.sub(r"\1", text).strip()


def _has_words(text: str) -> bool:
    return bool(re.search(r"[A-Za-z0-9]", text))
