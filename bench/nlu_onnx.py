"""The question model on ONNX Runtime (int8) against torch (int8 dynamic quantisation): agreement and latency.

Run on purpose: `nice -n 15 .venv/bin/python bench/nlu_onnx.py [--passes 3]`. Both backends load the
same model directory (default: the installed one) on one thread. Agreement is counted on every question
of the evaluation set: the intent, the per-word tags and the final slots of `understand()`, and the raw
model outputs of `_infer` on the same words. Latency is measured warm, the two backends alternating
question by question so that load from other processes hits both alike. Results replace the
"nlu-onnx" section of bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.ingest import machine, replace_section  # noqa: E402
from bench.nlu import pct  # noqa: E402


def _asker(backend: str, model_dir: Path):
    from app.ask import Asker
    from nlu.onnx_runtime import BACKEND_ENV
    os.environ[BACKEND_ENV] = backend
    try:
        return Asker(model_dir=model_dir)
    finally:
        del os.environ[BACKEND_ENV]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model-dir", type=Path, help="model directory (default: the installed model)")
    ap.add_argument("--passes", type=int, default=3, help="timing passes over the evaluation set")
    ap.add_argument("--no-write", action="store_true", help="print, do not update bench/RESULTS.md")
    a = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from app.ask import default_model_dir
    from nlu.evaluate import evaluate, load_set
    from nlu.onnx_runtime import is_stale
    mdir = Path(a.model_dir or default_model_dir())
    t0 = time.perf_counter()
    stale = is_stale(mdir)
    askers = {"torch": _asker("torch", mdir), "onnx": _asker("onnx", mdir)}
    print(f"loaded both backends in {time.perf_counter() - t0:.1f} s (ONNX export needed: {stale})", file=sys.stderr)
    items = load_set()
    texts = [it["text"] for it in items]
    nlu_t, nlu_o = askers["torch"].nlu, askers["onnx"].nlu
    from nlu.tokens import tokenize
    words = [nlu_t.speller.fix([t.text for t in tokenize(x)]) for x in texts]
    words = [w for w in words if w]
    same_i = same_t = 0
    max_dp = 0.0
    for w in words:
        it, _, tt, _, pt = nlu_t._infer(w)
        io, _, to, _, po = nlu_o._infer(w)
        same_i += it == io
        same_t += tt == to
        max_dp = max(max_dp, max(abs(x - y) for x, y in zip(pt, po)))
    u_same_i = u_same_t = u_same_s = 0
    for x in texts:
        ut, uo = nlu_t.understand(x), nlu_o.understand(x)
        u_same_i += ut.intent == uo.intent
        u_same_t += ut.tags == uo.tags
        u_same_s += ut.slots == uo.slots
    scores = {b: evaluate(ak.ask, items) for b, ak in askers.items()}
    ms: dict[str, dict[str, list[float]]] = {b: {"infer": [], "understand": []} for b in askers}
    for _ in range(a.passes):
        for w, x in zip(words, texts):
            for b, ak in askers.items():
                s = time.perf_counter()
                ak.nlu._infer(w)
                ms[b]["infer"].append((time.perf_counter() - s) * 1000)
                s = time.perf_counter()
                ak.nlu.understand(x)
                ms[b]["understand"].append((time.perf_counter() - s) * 1000)
    for ak in askers.values():
        ak.close()

    def p(xs: list[float]) -> str:
        return f"{statistics.median(xs):.1f} / {pct(xs, 95):.1f} ms"
    n = len(words)
    lines = ["## NLU on ONNX Runtime (`bench/nlu_onnx.py`)", "",
             f"- machine: {machine()} (shared with other jobs; both backends alternate question by question)",
             f"- date: {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
             f"- command: `.venv/bin/python bench/nlu_onnx.py --passes {a.passes}`",
             f"- model: `{mdir}`; torch = int8 dynamic quantisation (torch.ao), onnx = ONNX Runtime, int8 per-channel "
             "MatMul weights; 1 thread each",
             "", "| measure | torch int8 | onnx int8 |", "| --- | ---: | ---: |",
             f"| `_infer` p50 / p95 ({n} questions x {a.passes}) | {p(ms['torch']['infer'])} | {p(ms['onnx']['infer'])} |",
             f"| `understand()` p50 / p95 | {p(ms['torch']['understand'])} | {p(ms['onnx']['understand'])} |"]
    st, so = scores["torch"], scores["onnx"]
    lines += [f"| eval intent accuracy | {st.intent_acc:.2%} | {so.intent_acc:.2%} |",
              f"| eval slot F1 | {st.slot_f1:.4f} | {so.slot_f1:.4f} |",
              f"| eval answer accuracy | {(st.answer_acc or 0):.2%} | {(so.answer_acc or 0):.2%} |",
              f"| eval out-of-scope precision / recall | {st.oos_precision:.2%} / {st.oos_recall:.2%} | "
              f"{so.oos_precision:.2%} / {so.oos_recall:.2%} |",
              "", "Agreement of the two backends on the evaluation questions:", "",
              f"- `_infer` on the same words: intent {same_i}/{n}, every tag {same_t}/{n}; "
              f"largest intent-probability difference {max_dp:.3f}",
              f"- `understand()`: intent {u_same_i}/{len(texts)}, tags {u_same_t}/{len(texts)}, "
              f"final slots {u_same_s}/{len(texts)}"]
    text = "\n".join(lines)
    print(text)
    if not a.no_write:
        replace_section(REPO / "bench" / "RESULTS.md", "nlu-onnx", text)


if __name__ == "__main__":
    main()
