"""SQL-stage latency of ask() per intent, and a digest of every answer to prove a change keeps them identical.

Every question of the evaluation set goes once through the real `Asker.ask()` (row cache off); its
understanding (the NLU's output) is kept, and then only the SQL stage is timed: further passes call `ask()`
again with the NLU replaced by the kept understanding, so `timings_ms["sql"]` (plan + query + answer
sentence, relaxed retries included) is measured exactly as a user's question pays it, with every query new
to the connection (row cache off).

`--understandings FILE` keeps those understandings (or reuses them), so runs before and after a change compare
answers to the same understood questions even if the NLU model was retrained in between.

Each answer's digest covers its final intent, answer text, rows (column order and values), notes, chart,
slots and parameters; the SQL text is not in it (a faster query may read differently). `--save` writes the
digests and timings as JSON, `--compare OLD.json` lists every question whose digest differs from an earlier
run's. Run from the repository root:

    nice -n 10 .venv/bin/python bench/sql_latency.py --passes 5 --save /tmp/after.json --compare /tmp/before.json
"""
from __future__ import annotations

import argparse
import copy
import hashlib
import json
import pickle
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.intents._common import MEAS_SELECT  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def _plain(v):
    from app.result import _plain as plain
    if isinstance(v, float):
        return repr(v)   # exact: 0.1 and 0.1000000000000001 differ
    return plain(v)


def digest_of(res) -> dict:
    """What must stay identical: the answer as a user and the UI see it."""
    body = {
        "intent": res.intent,
        "understood_intent": res.understood_intent,
        "answer": res.answer,
        "rows": [[[k, _plain(v)] for k, v in r.items()] for r in res.rows],
        "notes": list(res.notes),
        "chart": json.loads(json.dumps(res.chart, sort_keys=True, default=repr)),
        "slots": json.loads(json.dumps(res.slots, sort_keys=True, default=repr)),
        "params": {k: _plain(v) for k, v in sorted((res.params or {}).items())},
    }
    h = hashlib.sha256(json.dumps(body, sort_keys=True, default=repr).encode()).hexdigest()[:16]
    return {"digest": h, "intent": res.intent, "answer": res.answer, "n_rows": len(res.rows), "body": body}


FLOOR_QUERIES = {
    "SELECT 1": "SELECT 1",
    "filtered count": "SELECT count(*) FROM measurements m WHERE m.system_id = $s AND m.metric = $m",
    # the planners' own row select, with none of their default-narrowing windows
    "50 rows, ordered, with the runs join":
        f"{MEAS_SELECT} WHERE m.system_id = $s AND m.metric = $m ORDER BY m.value DESC LIMIT 50",
}


def floor(db: str | None, systems=("gtx980", "ipu16", "dgx2"), n: int = 60) -> None:
    """What one question's SQL costs at the least: a planner query adds default-narrowing windows and joins to
    these, so the end-to-end aim can be judged against this floor plus the model's time."""
    import duckdb

    from app.paths import default_db
    con = duckdb.connect(str(db or default_db()), read_only=True)
    print(f"DuckDB {duckdb.__version__}, {con.execute('SELECT count(*) FROM measurements').fetchone()[0]:,} "
          f"measurements; p50 of {n} runs each, rows fetched into Python")
    print("| query | " + " | ".join(systems) + " |")
    print("|---|" + "---:|" * len(systems))
    for name, sql in FLOOR_QUERIES.items():
        cells = []
        for sid in systems:
            params = {"s": sid, "m": "bandwidth"} if "$s" in sql else None
            ts = []
            for _ in range(n):
                t0 = time.perf_counter()
                con.execute(sql, params).fetchall()
                ts.append((time.perf_counter() - t0) * 1000)
            cells.append(f"{statistics.median(ts):.2f} ms")
        print(f"| {name} | " + " | ".join(cells) + " |")
    con.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--questions", default=str(REPO / "nlu" / "eval" / "questions.jsonl"),
                    help="JSONL with a 'text' per line (default: nlu/eval/questions.jsonl)")
    ap.add_argument("--passes", type=int, default=5, help="timed passes over every question after the first")
    ap.add_argument("--db", default=None, help="database file (default: the app's default, var/hpcask.duckdb)")
    ap.add_argument("--save", default=None, help="write digests + timings to this JSON file")
    ap.add_argument("--compare", default=None, help="compare digests with a JSON file an earlier --save wrote")
    ap.add_argument("--label", default="", help="a name for this run in the printed table")
    ap.add_argument("--understandings", default=None,
                    help="pickle of the NLU's understanding per question: read if it exists (the NLU is then not "
                         "run at all, so runs before and after a change, or on another model, answer the same "
                         "understood questions), else written after pass 0")
    ap.add_argument("--floor", action="store_true",
                    help="only time DuckDB's floor on this machine: three fixed queries far simpler than any planner's")
    a = ap.parse_args()
    if a.floor:
        floor(a.db)
        return

    from app.ask import Asker
    items = [json.loads(line) for line in Path(a.questions).read_text().splitlines() if line.strip()]
    asker = Asker(db_path=a.db, cached_queries=0)
    real_understand = asker.nlu.understand

    # Pass 0: the real ask(), understanding kept per question.
    kept, digests = {}, {}

    def keep(q):
        u = real_understand(q)
        kept[q] = copy.deepcopy(u)
        return u
    upath = Path(a.understandings) if a.understandings else None
    if upath and upath.exists():
        kept.update(pickle.loads(upath.read_bytes()))
        missing = [it["text"] for it in items if it["text"] not in kept]
        if missing:
            sys.exit(f"{upath} has no understanding of {len(missing)} question(s), e.g. {missing[0]!r}")
        asker.nlu.understand = lambda q: copy.deepcopy(kept[q])
    else:
        asker.nlu.understand = keep
    for it in items:
        res = asker.ask(it["text"])
        digests[it["text"]] = digest_of(res)
    if upath and not upath.exists():
        upath.write_bytes(pickle.dumps(kept))
    # Timed passes: the NLU answers from what it said in pass 0 (a fresh copy each time: carry() may edit it).
    asker.nlu.understand = lambda q: copy.deepcopy(kept[q])
    # per question and pass: the wall time ask() reports (timings_ms["sql"]) and the process CPU time of the
    # ask() call (all DuckDB threads; the NLU is a dict lookup here), which other jobs on a shared machine
    # disturb far less than wall time
    wall_ms: dict[str, list[float]] = defaultdict(list)
    cpu_ms: dict[str, list[float]] = defaultdict(list)
    intent_of: dict[str, str] = {}
    unstable = set()
    t0 = time.perf_counter()
    for _ in range(a.passes):
        for it in items:
            c0 = time.process_time()
            res = asker.ask(it["text"])
            c1 = time.process_time()
            if digest_of(res)["digest"] != digests[it["text"]]["digest"]:
                unstable.add(it["text"])
            ms = res.timings_ms.get("sql")
            if ms is None:
                continue
            intent_of[it["text"]] = (res.understood_intent or res.intent) if res.intent == "out_of_scope" \
                else res.intent
            wall_ms[it["text"]].append(ms)
            cpu_ms[it["text"]].append((c1 - c0) * 1000)
    wall = time.perf_counter() - t0
    asker.close()

    title = f"SQL stage{(' (' + a.label + ')') if a.label else ''}: {len(items)} questions x {a.passes} passes, " \
            f"row cache off, {wall:.1f} s"
    print(title)
    print("wall = timings_ms['sql'] over every pass; best = each question's fastest pass; cpu = process CPU time")
    print("| intent | n | wall p50 ms | wall p95 ms | wall mean ms | best p50 ms | best p95 ms | cpu p50 ms | cpu p95 ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    table = {}
    groups = defaultdict(list)
    for q, intent in intent_of.items():
        groups[intent].append(q)
        groups["all"].append(q)
    for intent in sorted(groups, key=lambda k: (k == "all", k)):
        qs = groups[intent]
        xs = [x for q in qs for x in wall_ms[q]]
        best = [min(wall_ms[q]) for q in qs]
        cpu = [x for q in qs for x in cpu_ms[q]]
        row = {"n": len(xs), "p50": statistics.median(xs), "p95": pct(xs, 95), "mean": statistics.fmean(xs),
               "best_p50": statistics.median(best), "best_p95": pct(best, 95),
               "cpu_p50": statistics.median(cpu), "cpu_p95": pct(cpu, 95)}
        table[intent] = row
        name = "**all**" if intent == "all" else intent
        print(f"| {name} | {row['n']} | {row['p50']:.1f} | {row['p95']:.1f} | {row['mean']:.1f} | "
              f"{row['best_p50']:.1f} | {row['best_p95']:.1f} | {row['cpu_p50']:.1f} | {row['cpu_p95']:.1f} |")
    if unstable:
        print(f"\n{len(unstable)} question(s) answered differently between passes (non-deterministic):")
        for q in sorted(unstable)[:20]:
            print("  ", q)

    if a.save:
        Path(a.save).write_text(json.dumps({"label": a.label, "passes": a.passes, "table": table,
                                            "digests": digests, "unstable": sorted(unstable)}, indent=1))
    if a.compare:
        old = json.loads(Path(a.compare).read_text())["digests"]
        same = sum(1 for q, d in digests.items() if q in old and old[q]["digest"] == d["digest"])
        diff = [q for q, d in digests.items() if q in old and old[q]["digest"] != d["digest"]]
        missing = [q for q in digests if q not in old]
        print(f"\ndigests vs {a.compare}: {same} identical, {len(diff)} different, {len(missing)} not in the old run")
        for q in diff[:30]:
            o, n = old[q], digests[q]
            print(f"- {q!r}\n    old: [{o['intent']}] {o['answer'][:160]!r} ({o['n_rows']} rows)"
                  f"\n    new: [{n['intent']}] {n['answer'][:160]!r} ({n['n_rows']} rows)")
            for k in n["body"]:
                if o["body"].get(k) != n["body"][k]:
                    print(f"    differs in: {k}")
        if diff or missing:
            sys.exit(1)


if __name__ == "__main__":
    main()
