"""Web UI benchmark: how long a user waits, measured in a real browser (Debian's Chromium through Playwright).

- cold start: `hpcask ui` launched -> the server answers -> the page is interactive -> the first question's answer
  and chart are on the screen (the NLU model starts loading when the first page is served);
- typical answer: in a warm session, each question typed -> its answer and chart drawn.

Run on purpose (`make bench-ui` or `.venv/bin/python bench/ui.py`); the results replace the "ui" section of
bench/RESULTS.md.
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
sys.path.insert(0, str(REPO))  # this folder holds no `ingest` package: import the bench helpers by package

from app.ui import driver  # noqa: E402
from app.ui.examples import EXAMPLES  # noqa: E402
from bench.ingest import machine, replace_section  # noqa: E402

FIRST = "show the topology of the DGX-1 V100"


def cold_start(db: Path | None) -> dict[str, float]:
    t0 = time.perf_counter()
    srv = driver.Server(db=db)
    try:
        up = srv.start(timeout=120)
        with driver.browser() as page:
            t = time.perf_counter()
            driver.open_app(page, srv.url)
            loaded = time.perf_counter() - t
            first = driver.ask(page, FIRST, timeout_s=300)
            total = time.perf_counter() - t0
    finally:
        srv.stop()
    return {"server": up, "page": loaded, "first": first, "total": total}


def typical(db: Path | None, rounds: int) -> list[tuple[str, float]]:
    out = []
    with driver.server(db) as srv, driver.browser() as page:
        driver.open_app(page, srv.url)
        driver.ask(page, FIRST, timeout_s=300)  # warm: model loaded, connection open
        questions = [q for kind, q in EXAMPLES if kind != "Inventory"]
        for r in range(rounds):
            for q in questions:
                out.append((q, driver.ask(page, q, timeout_s=120)))
            page.reload()  # a long conversation re-renders every turn: measure answers, not history length
            driver.open_app(page, srv.url)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, default=None, help="database (default: the default database)")
    ap.add_argument("--starts", type=int, default=3, help="cold starts to time")
    ap.add_argument("--rounds", type=int, default=2, help="passes over the example questions in a warm session")
    ap.add_argument("--no-write", action="store_true", help="print, do not update bench/RESULTS.md")
    a = ap.parse_args()

    load0 = os.getloadavg()[0]
    starts = []
    for i in range(a.starts):
        s = cold_start(a.db)
        print(f"cold start {i + 1}: " + ", ".join(f"{k} {v:.1f} s" for k, v in s.items()), file=sys.stderr)
        starts.append(s)
    answers = typical(a.db, a.rounds)
    for q, s in answers:
        print(f"{s:6.2f} s  {q}", file=sys.stderr)
    times = [s for _, s in answers]

    def med(k: str) -> float:
        return statistics.median(s[k] for s in starts)

    per_q: dict[str, list[float]] = {}
    for q, s in answers:
        per_q.setdefault(q, []).append(s)
    rows = "\n".join(f"| {q} | {statistics.median(v):.2f} |" for q, v in per_q.items())
    body = f"""## Web UI (`bench/ui.py`)

- machine: {machine()}; browser: headless Debian Chromium via Playwright, 1440x1000
- date: {datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
- command: `.venv/bin/python bench/ui.py --starts {a.starts} --rounds {a.rounds}` (or `make bench-ui`)
- times are what the user sees: from the keystroke (Enter) to the answer's chart drawn in the browser
- 1-minute load average {load0:.1f} at the start and {os.getloadavg()[0]:.1f} at the end (other work on the machine)

First answer after start-up (median of {a.starts} cold starts; the question model starts loading in the background when the first page is served, so part of its load overlaps with the page opening):

| step | median s | range s |
| --- | ---: | ---: |
| `hpcask ui` launched -> server answers | {med('server'):.1f} | {min(s['server'] for s in starts):.1f}-{max(s['server'] for s in starts):.1f} |
| page opened -> chat ready | {med('page'):.1f} | {min(s['page'] for s in starts):.1f}-{max(s['page'] for s in starts):.1f} |
| first question -> answer and chart drawn | {med('first'):.1f} | {min(s['first'] for s in starts):.1f}-{max(s['first'] for s in starts):.1f} |
| **launch -> first answer drawn** | **{med('total'):.1f}** | {min(s['total'] for s in starts):.1f}-{max(s['total'] for s in starts):.1f} |

Typical answer in a warm session ({len(times)} answers, {a.rounds} passes over the example questions):
median **{statistics.median(times):.2f} s**, p90 {sorted(times)[int(0.9 * (len(times) - 1))]:.2f} s,
min {min(times):.2f} s, max {max(times):.2f} s.

| question | median s |
| --- | ---: |
{rows}
"""
    print(body)
    if not a.no_write:
        replace_section(REPO / "bench" / "RESULTS.md", "ui", body)


if __name__ == "__main__":
    main()
