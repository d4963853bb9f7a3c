"""Names spelled out in full that the vocabulary and the tools know by their short forms: "Intelligence Processing
Unit" is an IPU, "Scalable Heterogeneous Computing" is SHOC, "Non-Uniform Memory Access" is NUMA, "message digest
five" is SHOC's MD5Hash, "fast Fourier transform" is FFT.

People new to the field, and people reading a paper's first mention aloud, say the long form; the question model
and the vocabulary were built from the short ones. Rewriting the long form to the short one before anything reads
the words keeps one vocabulary (no training text changes) and shows the rewrite in the answer's notes, as every
other rewrite is shown. Each entry is a whole phrase, matched word by word regardless of case and hyphens, so a
single common word ("transform", "access") is never touched alone.
"""
from __future__ import annotations

import re

# long form (lower case, words separated by spaces) -> the short form the vocabulary reads; longer phrases first
_LONG_FORMS: dict[str, str] = {
    "scalable heterogeneous computing": "SHOC",
    "intelligence processing units": "IPUs",
    "intelligence processing unit": "IPU",
    "graphics processing units": "GPUs",
    "graphics processing unit": "GPU",
    "non uniform memory access": "NUMA",
    "message digest five hash": "MD5Hash",
    "message digest 5 hash": "MD5Hash",
    "message digest five": "MD5Hash",
    "message digest 5": "MD5Hash",
    "fast fourier transforms": "FFT",
    "fast fourier transform": "FFT",
    "general matrix multiplication": "GEMM",
    "general matrix multiply": "GEMM",
    "peripheral component interconnect express": "PCIe",
    "high bandwidth memory": "HBM",
    "message passing interface": "MPI",
    "nvidia collective communications library": "NCCL",
    "nvidia collective communication library": "NCCL",
    "collective communications library": "NCCL",
}
_MAX_WORDS = max(len(k.split()) for k in _LONG_FORMS)
# "MD5" alone (not "MD5 hash"): SHOC's MD5Hash, the one MD5 benchmark stored
_MD5 = re.compile(r"md5", re.I)
_HASH_WORD = re.compile(r"hash(es|ing)?|hashrate", re.I)


def _key(ws: list[str]) -> str:
    return " ".join(w.lower() for w in ws if w != "-")


def short_forms(words: list[str]) -> list[str]:
    """`words` with each spelled-out name replaced by its short form (the longest phrase first)."""
    out: list[str] = []
    i = 0
    while i < len(words):
        hit = None
        # a phrase of up to _MAX_WORDS words, hyphens as written ("Non - Uniform") not counted
        for j in range(min(len(words), i + 2 * _MAX_WORDS), i, -1):
            if words[j - 1] == "-":
                continue
            k = _key(words[i:j])
            if k in _LONG_FORMS:
                hit = (j, _LONG_FORMS[k])
                break
        if hit:
            out.append(hit[1])
            i = hit[0]
            continue
        w = words[i]
        if _MD5.fullmatch(w) and not (i + 1 < len(words) and _HASH_WORD.fullmatch(words[i + 1])):
            out.append("MD5Hash")
        else:
            out.append(w)
        i += 1
    return out
