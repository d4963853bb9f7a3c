"""Which system a raw output came from, when the user does not say (--system).

Benchmark outputs rarely name the machine; the GPU model and count usually identify it, and the
folder names people keep results in ("DGX-2", "Yme") do the rest. Unknown machines get an id made
from what the file does say, so nothing is ever silently attached to the wrong system.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

# Folder / file-name words -> system id (lower-cased, punctuation removed).
PATH_WORDS = {
    "dgx2": "dgx2", "heid": "dgx2",
    "yme": "ac922_yme", "minisummit": "ac922_minisummit",
    "rtx": "titan_rtx", "titanrtx": "titan_rtx",
    "gtx": "gtx980", "gtx980": "gtx980",
    "dgx1p100": "dgx1_p100", "dgx1v100": "dgx1_v100",
    "h200x2": "h200x2",
}

# (GPU model substring, GPU count) -> system id; count None matches any count.
GPU_SIGNATURES = [
    ("V100-SXM3-32GB", 16, "dgx2"),
    ("V100-SXM2-32GB", 4, "ac922_yme"),
    ("V100-SXM2-16GB", 2, "ac922_minisummit"),
    ("TITAN RTX", None, "titan_rtx"),
    ("GTX 980", None, "gtx980"),
]

SYSTEM_NAMES = {
    "dgx2": "NVIDIA DGX-2 (Heid)", "ac922_yme": "IBM Power System AC922 (Yme)",
    "ac922_minisummit": "IBM Power System AC922 (Mini Summit)", "titan_rtx": "Desktop with NVIDIA Titan RTX",
    "gtx980": "Desktop with NVIDIA GeForce GTX 980",
}


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def from_path(path: Path) -> Optional[str]:
    for part in reversed(path.parts[:-1]):
        sid = PATH_WORDS.get(_norm(part))
        if sid:
            return sid
    return None


def from_gpus(models: list[str]) -> Optional[str]:
    if not models:
        return None
    for sub, count, sid in GPU_SIGNATURES:
        if all(sub.lower() in m.lower() for m in models) and (count is None or count == len(models)):
            return sid
    return None


def slug(text: str) -> str:
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9]+", "_", text.lower())).strip("_") or "unknown"


def resolve(forced: Optional[str], path: Path, gpu_models: list[str] | None = None,
            hostname: Optional[str] = None) -> str:
    """Forced id, else GPU signature, else folder names, else host_<hostname>/gpus_<model>."""
    if forced:
        return forced
    sid = from_gpus(gpu_models or [])
    if sid:
        return sid
    sid = from_path(path)
    if sid:
        return sid
    if hostname:
        return "host_" + slug(hostname)
    if gpu_models:
        return f"node_{len(gpu_models)}x_{slug(gpu_models[0])}"
    return "unknown_system"
