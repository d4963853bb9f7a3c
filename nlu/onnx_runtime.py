"""The joint intent + slot model run by ONNX Runtime: a few times faster per question than torch on one
CPU thread, with the same inputs and outputs.

The torch weights in a model directory stay the source of truth. The first use (or the end of
`hpcask retrain`) exports them to `nlu.onnx` (float32, same numbers as torch) and quantises that to
`nlu.int8.onnx` (int8 weights of the matrix multiplications, one scale per output channel). Both are
cached beside the weights and rebuilt when the weights are newer or the recipe below changes.
`HPCASK_NLU_BACKEND=torch|onnx` forces a backend; by default ONNX Runtime is used when it is importable.
"""
from __future__ import annotations

import importlib.util
import json
import os
import tempfile
from pathlib import Path
from typing import Callable, Optional

import numpy as np

BACKEND_ENV = "HPCASK_NLU_BACKEND"
BACKENDS = ("torch", "onnx")
OPSET = 17
FP32_NAME = "nlu.onnx"
INT8_NAME = "nlu.int8.onnx"
META_NAME = "nlu.onnx.json"
# Bump when the export or quantisation changes: cached files made by another recipe are rebuilt.
# Per-channel int8 MatMul weights only (embeddings stay float): closest of the dynamic recipes to the
# float model on the evaluation questions (bench numbers in bench/RESULTS.md, section nlu-onnx).
RECIPE = {"version": 1, "opset": OPSET, "exporter": "torchscript", "quant_ops": ["MatMul"],
          "per_channel": True, "weight_type": "QInt8"}
INPUTS = ("input_ids", "attention_mask")
OUTPUTS = ("intent_logits", "slot_logits")


def available() -> bool:
    """onnxruntime runs the model; onnx is needed to quantise it (both pinned in pyproject.toml)."""
    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "onnx"))


def backend() -> str:
    """The backend to run: the env var when set, else ONNX Runtime when importable, else torch."""
    forced = os.environ.get(BACKEND_ENV, "").strip().lower()
    if forced and forced not in BACKENDS:
        raise ValueError(f"{BACKEND_ENV}={os.environ[BACKEND_ENV]!r}: expected one of {', '.join(BACKENDS)}")
    if forced == "onnx" and not available():
        raise RuntimeError(f"{BACKEND_ENV}=onnx but onnxruntime/onnx are not installed (make setup installs them)")
    if forced:
        return forced
    return "onnx" if available() else "torch"


def _weight_files(model_dir: Path) -> list[Path]:
    files = [model_dir / "heads.pt", model_dir / "labels.json"]
    files += sorted(p for p in (model_dir / "encoder").glob("*") if p.suffix in (".safetensors", ".bin", ".json"))
    missing = [p for p in files[:2] if not p.exists()]
    if missing:
        raise FileNotFoundError(f"no trained model at {model_dir}: missing {', '.join(p.name for p in missing)}")
    return files


def is_stale(model_dir: Path) -> bool:
    """True when the cached ONNX files are missing, older than the torch weights, or from another recipe."""
    model_dir = Path(model_dir)
    outs = [model_dir / FP32_NAME, model_dir / INT8_NAME, model_dir / META_NAME]
    if not all(p.exists() for p in outs):
        return True
    try:
        meta = json.loads(outs[2].read_text())
    except (OSError, ValueError):
        return True
    if meta.get("recipe") != RECIPE:
        return True
    newest = max(p.stat().st_mtime for p in _weight_files(model_dir))
    return min(p.stat().st_mtime for p in outs) < newest


def _replace_atomically(tmp: Path, dest: Path) -> None:
    os.replace(tmp, dest)  # same directory: readers see the old file or the new one, never half a file


def export(model_dir: Path, out_dir: Optional[Path] = None, log: Callable[[str], None] = lambda s: None) -> Path:
    """Export the torch model of `model_dir` to float32 and int8 ONNX files in `out_dir` (default: beside it).

    Deterministic (fixed opset, traced on a fixed input, no randomness) and a few seconds on one CPU.
    Each file is written under a temporary name and renamed into place; the recipe file goes last, so a
    crash midway leaves the cache stale (rebuilt next time), never a mix that looks fresh.
    """
    import time
    import warnings

    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from nlu import model as M
    model_dir = Path(model_dir)
    out_dir = Path(out_dir or model_dir)
    t0 = time.perf_counter()
    model, tok, _ = M.load(model_dir)
    enc, _ = M.encode_words(tok, [["export", "the", "model", "once"], ["a", "shorter", "one"]])
    tmp_dir = Path(tempfile.mkdtemp(prefix=".onnx-export-", dir=out_dir))
    try:
        fp32_tmp, int8_tmp = tmp_dir / FP32_NAME, tmp_dir / INT8_NAME
        with warnings.catch_warnings(), torch.no_grad():
            # The TorchScript exporter: seconds, no onnxscript; its tracer warnings are about shape checks
            # that are constant for an encoder (no causal mask, no past keys), verified in the tests.
            warnings.simplefilter("ignore")
            torch.onnx.export(
                model, (enc["input_ids"], enc["attention_mask"]), str(fp32_tmp), dynamo=False,
                opset_version=OPSET, input_names=list(INPUTS), output_names=list(OUTPUTS),
                dynamic_axes={"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"},
                              "intent_logits": {0: "batch"}, "slot_logits": {0: "batch", 1: "seq"}})
        import logging
        qlog = logging.getLogger()
        level = qlog.level
        qlog.setLevel(logging.ERROR)  # quantize_dynamic warns about optional pre-processing on every call
        try:
            quantize_dynamic(str(fp32_tmp), str(int8_tmp), op_types_to_quantize=list(RECIPE["quant_ops"]),
                             per_channel=RECIPE["per_channel"], weight_type=getattr(QuantType, RECIPE["weight_type"]))
        finally:
            qlog.setLevel(level)
        meta_tmp = tmp_dir / META_NAME
        meta_tmp.write_text(json.dumps({"recipe": RECIPE, "torch": torch.__version__,
                                        "onnxruntime": _version("onnxruntime"), "onnx": _version("onnx")}, indent=1))
        for name in (FP32_NAME, INT8_NAME, META_NAME):
            _replace_atomically(tmp_dir / name, out_dir / name)
    finally:
        for p in tmp_dir.glob("*"):
            p.unlink()
        tmp_dir.rmdir()
    log(f"exported the question model to ONNX in {time.perf_counter() - t0:.1f} s ({out_dir / INT8_NAME})")
    return out_dir


def _version(mod: str) -> str:
    from importlib.metadata import version
    return version(mod)


def ensure(model_dir: Path, log: Callable[[str], None] = lambda s: None) -> Path:
    """The directory holding fresh ONNX files for `model_dir`: exported there when stale; a read-only
    model directory gets a private temporary copy instead (exported once per process)."""
    model_dir = Path(model_dir)
    if not is_stale(model_dir):
        return model_dir
    if os.access(model_dir, os.W_OK):
        return export(model_dir, log=log)
    return export(model_dir, Path(tempfile.mkdtemp(prefix="hpcask-nlu-onnx-")), log=log)


class OnnxJoint:
    """Stands in for `JointModel` at inference: called with torch id/mask tensors, returns torch logits
    (zero-copy views of ONNX Runtime's arrays), so the pipeline's decoding is the same for both backends."""

    def __init__(self, path: Path, threads: int = 1):
        import onnxruntime as ort
        so = ort.SessionOptions()
        so.intra_op_num_threads = threads  # one short question at a time: one thread is fastest and steadiest
        so.inter_op_num_threads = 1
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.path = Path(path)
        self.session = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])

    def run(self, input_ids: np.ndarray, attention_mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        li, ls = self.session.run(list(OUTPUTS), {"input_ids": np.asarray(input_ids, dtype=np.int64),
                                                  "attention_mask": np.asarray(attention_mask, dtype=np.int64)})
        return li, ls

    def __call__(self, input_ids, attention_mask):
        import torch
        li, ls = self.run(input_ids.numpy(), attention_mask.numpy())
        return torch.from_numpy(li), torch.from_numpy(ls)


def load(model_dir: Path, *, int8: bool = True, threads: int = 1,
         log: Callable[[str], None] = lambda s: None) -> tuple[OnnxJoint, object, dict]:
    """Like `nlu.model.load`, but the model is an ONNX Runtime session (int8 or float32) and the torch
    weights are only read when the cache has to be (re)built."""
    from transformers import AutoTokenizer
    model_dir = Path(model_dir)
    onnx_dir = ensure(model_dir, log=log)
    labels = json.loads((model_dir / "labels.json").read_text())
    tok = AutoTokenizer.from_pretrained(str(model_dir / "encoder"), local_files_only=True)
    return OnnxJoint(onnx_dir / (INT8_NAME if int8 else FP32_NAME), threads=threads), tok, labels


def prepare(model_dir: Path, log: Callable[[str], None] = print) -> bool:
    """Export right after training, so the first question does not pay for it; a no-op without onnxruntime."""
    if not available():
        return False
    export(Path(model_dir), log=log)
    return True
