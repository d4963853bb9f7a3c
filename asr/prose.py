"""Sentences from the source documents, read aloud in speech training so the decoder keeps plain English.

Fine-tuned on generated questions alone, tiny.en's decoder learns the generator's phrasing as well as the HPC
words: on its own dev set (generated questions, held-out voices) it reaches about 4% WER, on hand-written
questions about 16%, and its errors there are template phrases put where a person said something else ("tell
me all pairs of the DGX-2 report" for "who are the authors of ..."). Sentences the authors of the seed papers
wrote use the same words in other company. They are committed (datasets/speech/seed_sentences.tsv, each with
its document and line) because the papers are not part of a clone; `python -m asr.prose SEEDS_DIR` rebuilds
the file from the documents.
"""
from __future__ import annotations

import csv
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

SENTENCES = Path(__file__).resolve().parent.parent / "datasets" / "speech" / "seed_sentences.tsv"
MIN_WORDS, MAX_WORDS = 6, 26


@dataclass(frozen=True)
class Sentence:
    text: str
    source: str          # "seed 000, line 123": the document and the line its paragraph starts on


def load(n: int, seed: int, path: Path = SENTENCES) -> list[Sentence]:
    """`n` sentences drawn (seeded) from the committed file; all of them when it holds fewer."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = [Sentence(text=r["sentence"], source=r["source"]) for r in csv.DictReader(f, delimiter="\t")]
    rng = random.Random(f"{seed}:prose")
    return rng.sample(rows, min(n, len(rows)))


# ----------------------------------------------------------------------------------- building the file

_CITATION = re.compile(r"\s*\[\d+[^\]]*\]")
_BROKEN_WORD = re.compile(r"([a-z])- ([a-z])")           # "corre- sponds", a line break in the PDF
_NOT_SPEECH = re.compile(r"[$\\{}<>=_^~@#%&*()\[\]|]|http|et al|Fig\.|Eq\.|Sect\.|i\.e\.|e\.g\.|[^\x00-\x7f]")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")


def _sentences(paragraph: str) -> list[str]:
    p = " ".join(paragraph.split())
    if not p or p[0] in "|#$![" or "|" in p:
        return []
    p = _BROKEN_WORD.sub(r"\1\2", _CITATION.sub("", p.replace("**", "").replace("`", "")))
    return [s.strip() for s in _SENTENCE_END.split(p)]


def speakable(s: str) -> bool:
    """A whole prose sentence a voice can read as written: no formulae, references, tables or odd characters,
    few digits, a capital first and a full stop or question mark last."""
    return (MIN_WORDS <= len(s.split()) <= MAX_WORDS and not _NOT_SPEECH.search(s)
            and s[:1].isupper() and s.endswith((".", "?")) and sum(c.isdigit() for c in s) <= 8)


def extract(seeds: Path, terms: set[str]) -> list[Sentence]:
    """Speakable sentences of every seed document that say at least one vocabulary term (normalised words)."""
    from asr import metrics
    out: list[Sentence] = []
    seen: set[str] = set()
    for doc in sorted(Path(seeds).glob("*.txt")):
        lines = doc.read_text(encoding="utf-8").split("\n")
        start, para = 0, []
        for i, line in enumerate(lines + [""]):
            if line.strip():
                if not para:
                    start = i + 1
                para.append(line)
                continue
            for s in _sentences("\n".join(para)) if para else []:
                said = " " + " ".join(metrics.words(s)) + " "
                if speakable(s) and s not in seen and any(f" {t} " in said for t in terms):
                    seen.add(s)
                    out.append(Sentence(text=s, source=f"seed {doc.name[:3]}, line {start}"))
            para = []
    return out


def vocabulary_terms() -> set[str]:
    """Written forms of the NLU vocabulary (3+ characters, no ids) as normalised words."""
    from asr import metrics
    from nlu.surface import default_surface, forms
    vocab = default_surface().vocab
    terms = set()
    for slot in ("system", "link_type", "operation", "metric", "library", "app", "condition"):
        for canonical in vocab.canonicals(slot):
            for form in forms(slot, canonical, kind="written"):
                ws = " ".join(metrics.words(form))
                if "_" not in form and len(ws) >= 3:
                    terms.add(ws)
    return terms


def write(rows: list[Sentence], path: Path = SENTENCES) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(["source", "sentence"])
        for r in rows:
            w.writerow([r.source, r.text])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m asr.prose SEEDS_DIR   (rewrites datasets/speech/seed_sentences.tsv)")
    rows = extract(Path(sys.argv[1]), vocabulary_terms())
    write(rows)
    print(f"{len(rows)} sentences -> {SENTENCES}")
