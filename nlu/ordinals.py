"""Devices named by ordinal: "the third GPU" -> "GPU2".

People count devices from one ("the sixth GPU to the fourteenth GPU"); every tool our users read (nvidia-smi,
nccl-tests, p2pBandwidthLatencyTest, the IPU's gc-info) numbers them from zero, and so do the stored endpoints.
Reading the ordinal as the id one lower is therefore the only reading that names the device the asker means; the
pipeline says it in the answer's notes ("read “the third GPU” as “GPU2”") so a reader who meant otherwise sees it.
A bare "second GPU" without "the" ("add a second GPU") is a count, not a device, and is left alone.
"""
from __future__ import annotations

import re

_ORDINAL_WORDS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
                  "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()
ORDINALS = {w: i + 1 for i, w in enumerate(_ORDINAL_WORDS)}
_NUMERIC_ORDINAL = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)$", re.I)
# device words whose stored ids count from zero, typed or spelled letter by letter in a transcript
_DEVICES = {"gpu": "GPU", "ipu": "IPU"}


def ordinal(word: str) -> int | None:
    """1 for "first" or "1st", ..., None for any other word."""
    w = word.lower()
    if w in ORDINALS:
        return ORDINALS[w]
    m = _NUMERIC_ORDINAL.match(w)
    return int(m.group(1)) if m and int(m.group(1)) > 0 else None


def _device_at(words: list[str], i: int) -> tuple[str, int] | None:
    """The device word at i ("GPU", or "g p u" spelled) and how many words it takes."""
    if i < len(words) and words[i].lower() in _DEVICES:
        return _DEVICES[words[i].lower()], 1
    spelled = "".join(w.lower() for w in words[i:i + 3])
    if len(words[i:i + 3]) == 3 and all(len(w) == 1 for w in words[i:i + 3]) and spelled in _DEVICES:
        return _DEVICES[spelled], 3
    return None


def ordinal_devices(words: list[str]) -> list[str]:
    """"the sixth GPU" -> "GPU5", "the third g p u" -> "GPU2"; every other word as it was."""
    out: list[str] = []
    i = 0
    while i < len(words):
        n = ordinal(words[i + 1]) if words[i].lower() == "the" and i + 1 < len(words) else None
        dev = _device_at(words, i + 2) if n is not None else None
        if dev is not None:
            name, width = dev
            out.append(f"{name}{n - 1}")
            i += 2 + width
            continue
        out.append(words[i])
        i += 1
    return out


def ordinal_word(n: int) -> str:
    """2 -> "second", ..., 21 -> "21st": a place in a ranking, as an answer says it."""
    if 1 <= n <= len(_ORDINAL_WORDS):
        return _ORDINAL_WORDS[n - 1]
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
