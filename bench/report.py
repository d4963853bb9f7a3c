"""Batch report benchmark: how long a 50-question report takes, from the command line and warm.

Run on purpose: `.venv/bin/python bench/report.py`. The 50 questions are the presets' own
(datasets/reports/), taken in turn from each preset so that systems and intents are mixed. Two
measurements: (1) the whole `hpcask report` command as a user runs it (Python start, model load,
asking, charts, writing the HTML and JSON), (2) warm, in one process with the models already loaded:
asking, rendering and writing separately. Results replace the "report" section of bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.ingest import machine, replace_section  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def mixed_questions(n: int) -> list[dict]:
    """n preset questions, one from each preset in turn (repeating the presets' lists if n is larger)."""
    from app.report_questions import list_presets, load_preset
    sets = [(name, load_preset(name)) for name in list_presets()]
    out: list[dict] = []
    i = 0
    while len(out) < n:
        for name, qs in sets:
            q = qs.questions[i % len(qs.questions)]
            if len(out) < n:
                out.append({"section": qs.title, "title": q.title, "text": q.text})
        i += 1
    return out


def as_yaml(questions: list[dict], path: Path) -> None:
    import yaml
    sections: dict[str, list] = {}
    for q in questions:
        sections.setdefault(q["section"], []).append({"title": q["title"], "text": q["text"]})
    path.write_text(yaml.safe_dump({"title": f"Benchmark report ({len(questions)} questions)",
                                    "sections": [{"title": k, "questions": v} for k, v in sections.items()]},
                                   sort_keys=False))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-n", type=int, default=50, help="number of questions (default 50)")
    ap.add_argument("--no-write", action="store_true", help="print, do not update bench/RESULTS.md")
    a = ap.parse_args()

    from app.report_questions import load_question_set
    tmp = Path(tempfile.mkdtemp(prefix="hpcask-bench-report-"))
    qfile = tmp / "questions.yaml"
    questions = mixed_questions(a.n)
    as_yaml(questions, qfile)

    load_before = os.getloadavg()[0]
    # (1) the command as a user runs it
    out = tmp / "cold.html"
    cmd = [str(REPO / ".venv" / "bin" / "hpcask"), "report", str(qfile), "-o", str(out), "-q"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    cold_s = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"hpcask report failed:\n{proc.stderr[-3000:]}")
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(proc.stdout.strip(), file=sys.stderr)

    # (2) warm, in process: load once, one pass to warm caches, then timed phases
    from app import report
    from app.ask import Asker
    t0 = time.perf_counter()
    asker = Asker()
    load_s = time.perf_counter() - t0
    qset = load_question_set(qfile)
    report.run_report(qset.questions, asker)
    t0 = time.perf_counter()
    results = report.run_report(qset.questions, asker)
    ask_s = time.perf_counter() - t0
    per_q = [r.timings_ms.get("total") or 0.0 for r in results]
    t0 = time.perf_counter()
    page = report.render_html(results, title=qset.title or "", questions=qset.questions, db_path=asker.db_path)
    render_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    html_path, json_path = report.write_report(results, tmp / "warm.html", title=qset.title or "",
                                               questions=qset.questions, db_path=asker.db_path)
    write_s = time.perf_counter() - t0
    asker.close()
    counts = report.summary_counts(results)
    charts = page.count('class="plotly-graph-div"')
    html_mb = html_path.stat().st_size / 1e6
    json_mb = json_path.stat().st_size / 1e6

    lines = ["## Batch report (`bench/report.py`)", "",
             f"- machine: {machine()}",
             f"- date: {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
             f"- command: `.venv/bin/python bench/report.py{'' if a.n == 50 else f' -n {a.n}'}`",
             f"- questions: {a.n}, taken in turn from the presets in `datasets/reports/` "
             f"({counts['answered']} answered, {counts['out_of_scope']} out of scope, {counts['failed']} failed; "
             f"{charts} charts)",
             f"- load average (1 min) at start: {load_before:.1f} on {os.cpu_count()} cores"
             + (" (other jobs were running: times are inflated)" if load_before > (os.cpu_count() or 1) else ""),
             "",
             "| what | seconds |",
             "| --- | ---: |",
             f"| `hpcask report questions.yaml -o r.html` (start, model load, {a.n} questions, charts, write) "
             f"| {cold_s:.1f} |",
             f"| in process: imports + model load (`Asker()`) | {load_s:.1f} |",
             f"| warm: asking {a.n} questions (`run_report`) | {ask_s:.2f} |",
             f"| warm: rendering the HTML (charts, tables; `render_html`) | {render_s:.2f} |",
             f"| warm: rendering + writing HTML and JSON (`write_report`) | {write_s:.2f} |",
             "",
             f"Per question (warm, end to end without the chart): p50 {statistics.median(per_q):.0f} ms, "
             f"p95 {pct(per_q, 95):.0f} ms, max {max(per_q):.0f} ms. "
             f"Report size: HTML {html_mb:.1f} MB (plotly.js inlined once, about 4.8 MB), JSON {json_mb:.2f} MB. "
             f"Peak RSS of the command: {peak_mb:.0f} MB."]
    text = "\n".join(lines)
    print(text)
    print(json.dumps({"cold_s": cold_s, "load_s": load_s, "ask_s": ask_s, "render_s": render_s,
                      "write_s": write_s}), file=sys.stderr)
    if not a.no_write:
        replace_section(REPO / "bench" / "RESULTS.md", "report", text)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
