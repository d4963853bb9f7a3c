"""Numbers and devices as people write them outside the tools' own notation: "1 048 576-byte messages", "~64MB",
"4e5 bytes", "cuda:0", "GPU #3", "gpu-0", "fan %".

The models and the vocabulary read "1048576", "64MB" and "GPU0"; these rewrites bring the other written forms to
those before anything reads the words, so every later step (the tagger, the size reader, the endpoint joiner) sees
one form. Each rewrite is narrow on purpose: digit groups are joined only where the whole is a size people write
that way (a power of two or a round thousand), so a list of sizes ("128 256 512") stays a list.
"""
from __future__ import annotations

import re

_GROUP = re.compile(r"\d{3}")
_HEAD = re.compile(r"[1-9]\d{0,2}")
_CUDA = re.compile(r"cuda:(\d{1,2})", re.I)
_SCIENTIFIC = re.compile(r"\d+(\.\d+)?[eE]\+?\d{1,2}")


def _round(n: int) -> bool:
    return n > 0 and (n & (n - 1) == 0 or n % 1000 == 0)


def joined_digit_groups(words: list[str]) -> list[str]:
    """"1 048 576" -> "1048576", "65 536" -> "65536": thousands separated by spaces, as SI style writes them."""
    out: list[str] = []
    i = 0
    while i < len(words):
        j = i + 1
        while _HEAD.fullmatch(words[i]) and j < len(words) and _GROUP.fullmatch(words[j]):
            j += 1
        if j > i + 1 and not (j < len(words) and words[j].isdigit()) and _round(int("".join(words[i:j]))):
            out.append("".join(words[i:j]))
            i = j
            continue
        out.append(words[i])
        i += 1
    return out


def without_hedges(words: list[str]) -> list[str]:
    """"~64MB": a tilde says "about"; the size is the one written after it."""
    out = []
    for w in words:
        if w == "~":
            continue
        out.append(w[1:] if len(w) > 1 and w.startswith("~") and w[1].isdigit() else w)
    return out


def indexed_devices(words: list[str]) -> list[str]:
    """"cuda:1" -> "GPU1", "GPU #3" -> "GPU3", "gpu - 0" -> "GPU0": a device's index written as a framework or a
    list writes it."""
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        m = _CUDA.fullmatch(w)
        if m:
            out.append(f"GPU{m.group(1)}")
            i += 1
            continue
        if w.lower() in ("gpu", "ipu") and i + 2 < len(words) and words[i + 1] in ("#", "-") \
                and re.fullmatch(r"\d{1,2}", words[i + 2]):
            out.append(f"{w.upper()}{words[i + 2]}")
            i += 3
            continue
        out.append(w)
        i += 1
    return out


def written_forms(words: list[str]) -> list[str]:
    return indexed_devices(without_hedges(joined_digit_groups(words)))


def percent_sign_said(words: list[str]) -> list[str]:
    """"gtx980 fan %": a percent sign ending the question after a word, not a number, says the measure in percent
    ("fan percent"), as the vocabulary writes such a measure; "41 %" stays a number with its unit, and "nvlink % of
    link rate" a share."""
    return [("percent" if w == "%" and i > 0 and re.fullmatch(r"[A-Za-z][\w-]*", words[i - 1])
             and words[i - 1].lower() not in ("as", "in", "a", "the", "of", "per", "what", "which")
             and (i + 1 == len(words) or re.fullmatch(r"[^\w\s]+", words[i + 1])) else w)
            for i, w in enumerate(words)]


def plain_scientific(words: list[str]) -> list[str]:
    """"4e5", "2.58e8": a whole number in scientific notation written out ("400000"), as the tools print sizes;
    a fraction ("1.5e-3") stays as it is."""
    out = []
    for w in words:
        if _SCIENTIFIC.fullmatch(w):
            v = float(w)
            if v == int(v) and v < 1e15:
                w = str(int(v))
        out.append(w)
    return out
