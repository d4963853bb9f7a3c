"""How HPC questions are worded, as a word trigram model: it chooses among the speech model's beam hypotheses.

Why: the beam of five that the fine-tuned model decodes often holds the right words below the top
("compare congestion-free ..." under "compute congestion free ..."; "NVLink" under "in link"): on the
hand-written evaluation sets the best of the five has 6.0 / 5.5% WER where the top one has 7.9 / 7.3%
(session 22). The decoder has learned the wording of its training text, but only as much as tiny.en's
decoder holds; a count-based model of five times as much of that text (40000 generated questions) adds what it
missed. (Counting the source documents' sentences too, asr/prose.py, gave the same WER and put their openings
into questions: "Yme: time of ..." -> "In addition, time of ...".) Each hypothesis is scored by the speech model's own
length-normalised log-probability plus `weight` x this model's mean log-probability per word
(asr.transcribe.LM_WEIGHT).

Interpolated Kneser-Ney (absolute discount 0.75) over the words of asr.metrics.words ("GPU0" -> "gpu 0",
"two" -> "2"), so spelling conventions do not count as wording. Words it has never seen get the share of a word
seen once; every vocabulary term (also those `hpcask retrain --vocab` adds later) is added as a sentence of its
own when the model is loaded (`with_terms`), so a new system name is not pushed out of the beam by a common
English word. Built with the speech model (asr/build.py), stored beside it as lm.json.gz.
"""
from __future__ import annotations

import gzip
import json
import math
from collections import Counter
from pathlib import Path
from typing import Iterable, Optional

DISCOUNT = 0.75
FILE = "lm.json.gz"
QUESTIONS = 40000        # generated questions it counts (about 15 s to generate on 2 cores)
BOS, EOS = "<s>", "</s>"


class TrigramLM:
    """Counts of word trigrams (everything else is derived from them when loaded)."""

    def __init__(self, trigrams: Counter):
        self.c3 = trigrams
        self._derive()

    @classmethod
    def train(cls, sentences: Iterable[list[str]]) -> "TrigramLM":
        c3: Counter = Counter()
        for s in sentences:
            w = [BOS, BOS] + list(s) + [EOS]
            for i in range(2, len(w)):
                c3[(w[i - 2], w[i - 1], w[i])] += 1
        return cls(c3)

    def _derive(self) -> None:
        self.c2: Counter = Counter()
        self.ctx2: Counter = Counter()
        self.f2: Counter = Counter()
        for (a, b, c), n in self.c3.items():
            self.c2[(b, c)] += n
            self.ctx2[(a, b)] += n
            self.f2[(a, b)] += 1
        self.ctx1: Counter = Counter()
        self.f1: Counter = Counter()
        self.cont: Counter = Counter()
        for (b, c), n in self.c2.items():
            self.ctx1[b] += n
            self.f1[b] += 1
            self.cont[c] += 1
        self.n_cont = sum(self.cont.values())
        self.n_words = len(self.cont) + 1

    def with_terms(self, terms: Iterable[list[str]]) -> "TrigramLM":
        """This model plus each term as a sentence of its own (terms it already holds are left as they are)."""
        extra = [t for t in terms if t and any(w not in self.cont for w in t)]
        if not extra:
            return self
        c3 = Counter(self.c3)
        c3.update(TrigramLM.train(extra).c3)
        return TrigramLM(c3)

    def _p1(self, w: str) -> float:
        return (self.cont.get(w, 0) + 0.5) / (self.n_cont + 0.5 * self.n_words)

    def _p2(self, b: str, w: str) -> float:
        n = self.ctx1.get(b, 0)
        if not n:
            return self._p1(w)
        return (max(self.c2.get((b, w), 0) - DISCOUNT, 0.0) + DISCOUNT * self.f1[b] * self._p1(w)) / n

    def _p3(self, a: str, b: str, w: str) -> float:
        n = self.ctx2.get((a, b), 0)
        if not n:
            return self._p2(b, w)
        return (max(self.c3.get((a, b, w), 0) - DISCOUNT, 0.0) + DISCOUNT * self.f2[(a, b)] * self._p2(b, w)) / n

    def logprob(self, words: list[str]) -> float:
        """Natural-log probability of the whole sentence, end included."""
        w = [BOS, BOS] + list(words) + [EOS]
        return sum(math.log(self._p3(w[i - 2], w[i - 1], w[i])) for i in range(2, len(w)))

    def mean_logprob(self, words: list[str]) -> float:
        """Per word (the end counts as one), so that long and short hypotheses compare."""
        return self.logprob(words) / (len(words) + 1)

    def save(self, path: Path) -> None:
        rows = [[a, b, c, n] for (a, b, c), n in sorted(self.c3.items())]
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        # mtime 0: the gzip header would otherwise carry the build time, and two builds of the same counts differ
        with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
            gz.write(json.dumps({"format": "hpcask-trigram-1", "trigrams": rows}).encode("utf-8"))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> "TrigramLM":
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        if data.get("format") != "hpcask-trigram-1":
            raise ValueError(f"{path} is not an hpcask word trigram model")
        return cls(Counter({(a, b, c): n for a, b, c, n in data["trigrams"]}))


def build(con, seed: int, n_questions: int = QUESTIONS) -> TrigramLM:
    """Count the words of `n_questions` generated questions (evaluation sentences excluded, as for the speech
    model's training text)."""
    from asr import speech_data
    from asr.metrics import words
    return TrigramLM.train([words(q.text) for q in speech_data.spoken_questions(con, n_questions, seed=seed)])


def load_beside(model_dir: Path) -> Optional[TrigramLM]:
    """The model stored with a speech model, if that build made one."""
    p = Path(model_dir) / FILE
    return TrigramLM.load(p) if p.exists() else None
