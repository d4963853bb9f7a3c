"""Make a multi-million-event Kineto trace from the structure of a real one (datasets/raw/h200x2).

The real 40-step trace is repeated back to back, shifting timestamps by its span and renumbering
correlation / External ids, so every event is one a real profiler wrote, in real proportions
(kernels, CPU ops, flows, NCCL), only more of them. Output: gzipped JSON, HTA-loadable.
"""
from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parents[1]
REAL = REPO / "datasets" / "raw" / "h200x2" / "pytorch_trace_long" / "trace_rank0.json.gz"


def make(out: Path, target_events: int, src: Path = REAL) -> int:
    doc = orjson.loads(gzip.open(src).read())
    events = doc.pop("traceEvents")
    # ProfilerStep spans are replaced by one span per copy: HTA assigns iterations in a loop over
    # events x steps, which would otherwise dominate its time with ~40 steps per copy.
    steps = [e for e in events if str(e.get("name", "")).startswith("ProfilerStep")]
    timed = [e for e in events if e.get("ph") != "M" and not str(e.get("name", "")).startswith("ProfilerStep")]
    meta = [e for e in events if e.get("ph") == "M"]
    t0 = min(e["ts"] for e in timed if "ts" in e)
    t1 = max(e["ts"] + e.get("dur", 0) for e in timed if "ts" in e)
    span = (t1 - t0) * 1.01
    max_corr = max((e.get("args", {}).get("correlation", 0) for e in timed if isinstance(e.get("args"), dict)), default=0)
    max_ext = max((e.get("args", {}).get("External id", 0) for e in timed if isinstance(e.get("args"), dict)), default=0)
    max_flow = max((e.get("id", 0) for e in timed if isinstance(e.get("id"), int)), default=0)
    copies = max(1, -(-target_events // len(timed)))
    n = 0
    with gzip.open(out, "wb", compresslevel=1) as f:
        header = orjson.dumps(doc)[:-1]  # drop the closing brace
        f.write(header + b', "traceEvents": [\n')
        first = True
        for e in meta:
            f.write((b"" if first else b",\n") + orjson.dumps(e))
            first = False
            n += 1
        proto = steps[0] if steps else {"ph": "X", "cat": "user_annotation", "pid": 0, "tid": 0}
        for k in range(copies):
            step = dict(proto, name=f"ProfilerStep#{k}", ts=t0 + k * span, dur=span * 0.99)
            step["args"] = {"External id": 0}
            f.write((b"" if first else b",\n") + orjson.dumps(step, option=orjson.OPT_INDENT_2))
            first = False
            n += 1
            for e in timed:
                if k:
                    e = dict(e)
                    if "ts" in e:
                        e["ts"] = e["ts"] + k * span
                    if isinstance(e.get("id"), int):
                        e["id"] = e["id"] + k * (max_flow + 1)
                    a = e.get("args")
                    if isinstance(a, dict) and ("correlation" in a or "External id" in a):
                        a = dict(a)
                        if "correlation" in a:
                            a["correlation"] += k * (max_corr + 1)
                        if "External id" in a:
                            a["External id"] += k * (max_ext + 1)
                        e["args"] = a
                f.write((b"" if first else b",\n") + orjson.dumps(e, option=orjson.OPT_INDENT_2))
                first = False
                n += 1
        f.write(b'\n], "traceName": "synthetic from datasets/raw/h200x2 structure"}\n')
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out", type=Path)
    ap.add_argument("--events", type=int, default=2_300_000)
    a = ap.parse_args()
    a.out.parent.mkdir(parents=True, exist_ok=True)
    n = make(a.out, a.events)
    print(f"wrote {a.out}: {n:,} events", file=sys.stderr)


if __name__ == "__main__":
    main()
