"""The question model on ONNX Runtime: the same reading as the torch model, its cache kept fresh, and a torch
fallback. Real trained model, exported into a temporary copy so the installed one is not touched."""
import os
import shutil

import pytest

from app.ask import default_model_dir
from nlu import onnx_runtime
from nlu.pipeline import NLU

pytestmark = pytest.mark.skipif(not onnx_runtime.available(), reason="onnxruntime/onnx not installed")

QUESTIONS = ["all reduce bus bandwidth on the h two hundred pair at one gigabyte",
             "show the topology of the DGX-1 V100",
             "p2p bandwidth between every pair of GPUs on the DGX-2",
             "how much does latency grow under load on the IPU system"]


@pytest.fixture(scope="module")
def model_copy(tmp_path_factory):
    src = default_model_dir()
    dst = tmp_path_factory.mktemp("nlu") / "model"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("nlu*.onnx", "nlu.onnx.json"))
    return dst


def _reader(model_dir, backend):
    os.environ[onnx_runtime.BACKEND_ENV] = backend
    try:
        return NLU(model_dir)
    finally:
        os.environ.pop(onnx_runtime.BACKEND_ENV, None)


def test_onnx_reads_questions_as_torch_does(model_copy):
    onnx, torch_ = _reader(model_copy, "onnx"), _reader(model_copy, "torch")
    assert onnx.backend == "onnx" and torch_.backend == "torch"
    assert (model_copy / onnx_runtime.INT8_NAME).exists()   # exported on first load
    for q in QUESTIONS:
        a, b = onnx.understand(q), torch_.understand(q)
        assert a.intent == b.intent, q
        assert a.slots == b.slots, q


def test_stale_cache_is_rebuilt(model_copy):
    _reader(model_copy, "onnx")
    assert not onnx_runtime.is_stale(model_copy)
    old = (model_copy / "heads.pt").stat().st_mtime - 60
    for name in (onnx_runtime.FP32_NAME, onnx_runtime.INT8_NAME, onnx_runtime.META_NAME):
        os.utime(model_copy / name, (old, old))              # the weights are now newer than the export
    assert onnx_runtime.is_stale(model_copy)
    _reader(model_copy, "onnx")
    assert not onnx_runtime.is_stale(model_copy)


def test_backend_choice_follows_the_environment(monkeypatch):
    monkeypatch.setenv(onnx_runtime.BACKEND_ENV, "torch")
    assert onnx_runtime.backend() == "torch"
    monkeypatch.setenv(onnx_runtime.BACKEND_ENV, "onnx")
    assert onnx_runtime.backend() == "onnx"


def test_an_unknown_backend_is_a_clear_error(monkeypatch):
    monkeypatch.setenv(onnx_runtime.BACKEND_ENV, "tensorrt")
    with pytest.raises(ValueError, match="expected one of torch, onnx"):
        onnx_runtime.backend()
