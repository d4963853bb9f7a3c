"""Vocabulary bias for Whisper: an initial prompt of HPC terms, built from the NLU's own vocabulary.

Whisper conditions on "previous text"; a prompt that spells "NVLink, DGX-1 V100, all-reduce, busbw" makes
those spellings likely. The words come from the same vocabulary the NLU uses (nlu/vocabulary.yaml + the
database catalog + the extra yaml that `hpcask retrain --vocab NEW.yaml` installs beside the NLU model), so
teaching a word once reaches both. Whisper keeps at most 223 prompt tokens; jargon goes first (names with
capitals, digits or hyphens: the words an English model gets wrong), plain English words are left out.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from app.paths import MODELS

NLU_EXTRA = MODELS / "nlu" / "build" / "current" / "extra_vocabulary.yaml"
MAX_PROMPT_TOKENS = 150          # of Whisper's 223; the rest is room for the transcript context
# sections in order of how much a transcript depends on them
SECTIONS = (("link_type", 1), ("library", 1), ("metric", 1), ("operation", 1), ("system", 1),
            ("component_kind", 1), ("app", 1), ("condition", 1))
_JARGON = re.compile(r"[A-Z].*[A-Z0-9]|\d|-|^[a-z]+[A-Z]")


def _is_jargon(surface: str) -> bool:
    return bool(_JARGON.search(surface)) and "_" not in surface and len(surface) <= 24


def terms(extra_vocab: Optional[Path] = None, db: Optional[Path] = None) -> list[str]:
    """Written HPC terms, most important first, each once (NEW.yaml's words first within a section)."""
    from nlu.vocab import EXTRA, catalog_from_db, load_vocabulary
    extra = extra_vocab if extra_vocab is not None else (NLU_EXTRA if NLU_EXTRA.exists() else None)
    vocab = load_vocabulary(Path(extra) if extra else None, catalog=catalog_from_db(db))
    out: list[str] = []
    seen: set[str] = set()
    new_words: list[str] = []
    for section, per_value in SECTIONS:
        for canonical in vocab.canonicals(section):
            got = 0
            for s in vocab.surfaces(section, canonical, "written"):
                if got >= per_value:
                    break
                if not _is_jargon(s) or s.lower() in seen:
                    continue
                seen.add(s.lower())
                got += 1
                if vocab.layers.get((section, canonical, s)) == EXTRA:
                    new_words.append(s)
                else:
                    out.append(s)
    return new_words + out


def initial_prompt(extra_vocab: Optional[Path] = None, db: Optional[Path] = None, tokenizer=None,
                   max_tokens: int = MAX_PROMPT_TOKENS) -> str:
    """"NVLink, DGX-2, ..." cut to `max_tokens` Whisper tokens (counted with `tokenizer` when given)."""
    words = terms(extra_vocab, db)
    kept: list[str] = []
    used = 0
    for w in words:
        n = len(tokenizer.encode(" " + w + ",")) if tokenizer is not None else max(1, len(w) // 3 + 1)
        if used + n > max_tokens:
            break
        kept.append(w)
        used += n
    return ", ".join(kept) + "."
