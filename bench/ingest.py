"""Ingest benchmark: a multi-million-event PyTorch trace, hpcask vs Meta's HTA, plus the datasets/ build.

Run on purpose (`make bench-ingest` or `.venv/bin/python bench/ingest.py`); it needs the bench extra
(`pip install -e '.[bench]'` for holistictraceanalysis). Each contender runs in its own process so
that its wall time and peak resident memory (ru_maxrss) are its own. Results replace the "ingest"
section of bench/RESULTS.md.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIG = REPO / "var" / "bench" / "big" / "trace_rank0.json.gz"
PY = sys.executable

CHILD = {
    "decompress": """
import gzip, sys
n = 0
with gzip.open(sys.argv[1], "rb") as f:
    while (b := f.read(8 << 20)):
        n += len(b)
out = {"bytes": n}
""",
    "hpcask": """
import sys
from pathlib import Path
from ingest import loader
con = loader.connect(sys.argv[2])
rep = loader.ingest_file(con, Path(sys.argv[1]))
assert rep.status == "loaded", rep.message
con.close()
out = {"events": rep.events}
""",
    "hta": """
import sys, logging
logging.disable(logging.WARNING)
from hta.trace_analysis import TraceAnalysis
ta = TraceAnalysis(trace_dir=str(__import__("pathlib").Path(sys.argv[1]).parent))
out = {"events": int(sum(len(df) for df in ta.t.traces.values()))}
""",
    "build": """
import sys
from pathlib import Path
from ingest.build import build
rep = build(Path(sys.argv[2]), Path(sys.argv[3]), force=True)
assert not rep.failures, [f.line() for f in rep.failures]
out = {"files": len(rep.files), "groups": len(rep.groups)}
""",
}

WRAP = """
import json, resource, sys, time
t0 = time.perf_counter()
{body}
out["seconds"] = time.perf_counter() - t0
out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print("RESULT " + json.dumps(out))
"""


def run_child(name: str, *args: str, timeout: int = 1800) -> dict:
    code = WRAP.format(body=CHILD[name])
    env = dict(os.environ, PYTHONPATH=str(REPO))
    t0 = time.perf_counter()
    p = subprocess.run([PY, "-c", code, *args], capture_output=True, text=True, timeout=timeout,
                       cwd=REPO, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"{name} failed:\n{p.stderr[-3000:]}")
    line = next(l for l in p.stdout.splitlines() if l.startswith("RESULT "))
    res = json.loads(line[7:])
    res["wall_s"] = time.perf_counter() - t0
    return res


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores ({cpu}), {mem:.0f} GiB RAM, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def replace_section(md: Path, name: str, body: str) -> None:
    """Write a bench's section of RESULTS.md. Why the notes marker: sessions write by hand what a run meant (history,
    A/B comparisons, recipes not adopted) below the generated table; a re-run used to replace the whole section and
    delete that (session 39 lost 260 lines this way). Text from `<!-- name:notes -->` to the section's end is kept."""
    start, notes, end = f"<!-- {name}:start -->", f"<!-- {name}:notes -->", f"<!-- {name}:end -->"
    text = md.read_text() if md.exists() else "# Benchmark results\n\nEach section is written by the bench script it names; re-run the script to refresh it.\n"
    block = f"{start}\n{body.rstrip()}\n{end}"
    if start in text and end in text:
        a, b = text.index(start), text.index(end)
        if notes in text[a:b]:
            block = f"{start}\n{body.rstrip()}\n\n{text[text.index(notes, a):b].rstrip()}\n{end}"
        text = text[:a] + block + text[b + len(end):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    md.write_text(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--events", type=int, default=2_300_000, help="size of the generated trace")
    ap.add_argument("--skip-hta", action="store_true", help="do not run HTA (if it is not installed)")
    ap.add_argument("--no-write", action="store_true", help="print, do not update bench/RESULTS.md")
    a = ap.parse_args()

    if not BIG.exists():
        print(f"generating {BIG} ...", file=sys.stderr)
        subprocess.run([PY, str(REPO / "bench" / "make_big_trace.py"), str(BIG), "--events", str(a.events)],
                       check=True)
    import gzip
    with gzip.open(BIG, "rb") as f:
        json_bytes = sum(len(b) for b in iter(lambda: f.read(8 << 20), b""))
    rows = []
    with tempfile.TemporaryDirectory() as td:
        print("decompress only ...", file=sys.stderr)
        rows.append(("gunzip only (Python gzip, 8 MB reads)", run_child("decompress", str(BIG))))
        print("hpcask ingest ...", file=sys.stderr)
        rows.append(("hpcask ingest (stream -> DuckDB read_json)", run_child("hpcask", str(BIG), f"{td}/t.duckdb")))
        if not a.skip_hta:
            print("HTA TraceAnalysis ...", file=sys.stderr)
            rows.append(("HTA TraceAnalysis(trace_dir=...)", run_child("hta", str(BIG))))
        print("datasets/ build ...", file=sys.stderr)
        build = run_child("build", "", f"{td}/b.duckdb", str(REPO / "datasets"))

    events = rows[1][1]["events"]
    lines = [
        "## Ingest (`bench/ingest.py`)",
        "",
        f"- machine: {machine()}",
        f"- date: {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        "- command: `.venv/bin/python bench/ingest.py`",
        f"- trace: `{BIG.relative_to(REPO)}`, {events:,} events, {json_bytes / 1e6:,.0f} MB of JSON "
        f"({BIG.stat().st_size / 1e6:,.0f} MB gzipped), made by `bench/make_big_trace.py` from the real "
        "40-step H200 trace in `datasets/raw/h200x2/pytorch_trace_long/` (its events repeated back to back)",
        "",
        "| what | events | wall s | events/s | peak RSS MB | RSS / JSON size |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, r in rows:
        ev = r.get("events")
        rate = f"{ev / r['seconds']:,.0f}" if ev else "-"
        evs = f"{ev:,}" if ev else "-"
        ratio = r["peak_rss_mb"] * 2**20 / json_bytes
        lines.append(f"| {name} | {evs} | {r['seconds']:.1f} | {rate} | {r['peak_rss_mb']:,.0f} | {ratio:.2f} |")
    if len(rows) > 2:
        lines.append("")
        lines.append(f"hpcask vs HTA: {rows[2][1]['seconds'] / rows[1][1]['seconds']:.1f}x faster, "
                     f"{rows[2][1]['peak_rss_mb'] / rows[1][1]['peak_rss_mb']:.1f}x less peak memory.")
    lines += ["", f"Whole `datasets/` build (`hpcask db build --force`): {build['seconds']:.1f} s, "
              f"{build['groups']} curated groups + {build['files']} raw files, peak RSS {build['peak_rss_mb']:,.0f} MB."]
    text = "\n".join(lines)
    print(text)
    if not a.no_write:
        replace_section(REPO / "bench" / "RESULTS.md", "ingest", text)


if __name__ == "__main__":
    main()
