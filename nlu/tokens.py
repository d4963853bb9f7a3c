"""Word tokenisation for questions: one spaCy blank English tokenizer, tuned for HPC words.

Every consumer (the tagger's word-level BIO labels, the training-data generator, the normaliser) splits
text with `tokenize`, so a word is cut the same way everywhere. Offsets are character offsets into the
original text; whitespace is never a token.

Decisions (fixed; the tagger is trained on them):

- A hyphen between letters or digits is always its own token: "DGX-2" -> DGX | - | 2, "all-reduce" ->
  all | - | reduce, "ResNet-50" -> ResNet | - | 50, "16-IPU" -> 16 | - | IPU, "0-15" -> 0 | - | 15. Written
  and spoken forms then line up ("DGX 2", "d g x two"), and a span never has to start inside a token.
- A number that starts a word is cut from the letters that follow it: "8KiB" -> 8 | KiB, "1.5GB/s" ->
  1.5 | GB/s, "16GPUs" -> 16 | GPUs, "2-8GB" -> 2 | - | 8 | GB. Ordinals ("1st", "2nd") and numbers in
  scientific notation ("1e6") stay whole.
- Letters followed by digits stay one token: "gpu0", "GPU0", "x16", "V100", "H200s", "NVLink2", "FP16",
  "dgx1_v100", "pcie_switch0".
- Rates keep their "/s": "GB/s", "MiB/s", "GT/s" are one token (other slashes split: "send/recv").
- Arrows are tokens: "GPU0->GPU3" -> GPU0 | -> | GPU3 (also "<->", "<-", "=>", "→", "↔").
- "1,024" stays one token; "2^20" -> 2 | ^ | 20; "w/o" and "w/" are one token.
- Everything else is spaCy's English default (punctuation, contractions).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

__all__ = ["Token", "tokenize", "words", "get_nlp"]


class Token(NamedTuple):
    text: str
    start: int   # character offset of the first character
    end: int     # character offset one past the last character


# a word-initial number (start of the piece or after a non-alphanumeric) directly followed by a letter
# (after "..": "1B..256MiB" is a range, but after "1." a decimal goes on: "1.5GB")
_NUM_THEN_LETTER = re.compile(r"(?<![A-Za-z0-9,])(?<!\d\.)\d+(?:[.,]\d+)*(?=[A-Za-zµ])")
_ORDINAL_OR_SCI = re.compile(r"(?:st|nd|rd|th|e[+-]?\d+)(?![A-Za-z])")
_EMPTY = re.compile("")
_EXTRA_INFIXES = [
    r"<->|->|<-|=>|→|↔|⟶",                                   # arrows
    r"(?<=[A-Za-z0-9])(?:-|–|—)(?=[0-9])",                     # hyphen before a digit ("DGX-2", "0-15")
]
_RATE_TAIL = re.compile(r"s(?:ec)?$")


def _build_nlp():
    import spacy
    from spacy.util import compile_infix_regex, compile_prefix_regex

    nlp = spacy.blank("en")
    tok = nlp.tokenizer
    infix_re = compile_infix_regex(list(nlp.Defaults.infixes) + _EXTRA_INFIXES)
    base_finditer = infix_re.finditer

    def infix_finditer(s: str):
        out = []
        for m in base_finditer(s):
            # keep "GB/s", "MiB/s", "GT/s" whole: drop a "/" infix that only has "s"/"sec" after it
            if m.group() == "/" and m.start() > 0 and s[m.start() - 1].isalpha() and _RATE_TAIL.match(s, m.end()) \
                    and _RATE_TAIL.match(s, m.end()).end() == len(s):
                continue
            out.append(m)
        for m in _NUM_THEN_LETTER.finditer(s):
            if _ORDINAL_OR_SCI.match(s, m.end()):
                continue
            out.append(_EMPTY.match(s, m.end()))            # zero-width split point after the number
        out.sort(key=lambda x: (x.start(), x.end()))
        return out

    tok.infix_finditer = infix_finditer
    # "@48 cores", "@1G": an at-sign before a number is "at", a word of its own
    tok.prefix_search = compile_prefix_regex(list(nlp.Defaults.prefixes) + [r"@(?=\d)"]).search
    for special in ("w/o", "W/o", "W/O", "w/"):
        tok.add_special_case(special, [{"ORTH": special}])
    return nlp


@lru_cache(maxsize=1)
def get_nlp():
    """The cached spaCy pipeline (blank English, tokenizer only). Loads in about 0.3 s once."""
    return _build_nlp()


def _spans(text: str) -> list[tuple[int, int]]:
    from spacy.attrs import IDX, LENGTH
    doc = get_nlp().tokenizer(text)
    if not len(doc):
        return []
    out = []
    for s, n in doc.to_array([IDX, LENGTH]).tolist():      # no per-token Python objects: ~2x faster
        if not text[s:s + n].isspace():
            out.append((s, s + n))
    return out


def tokenize(text: str) -> list[Token]:
    """Tokens of `text` with character offsets; deterministic, whitespace dropped."""
    return [Token(text[s:e], s, e) for s, e in _spans(text)]


def words(text: str) -> list[str]:
    """Just the token strings."""
    return [text[s:e] for s, e in _spans(text)]
