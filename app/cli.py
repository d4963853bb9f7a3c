"""The `hpcask` command. Subcommands stay thin: each calls one module that does the work."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from app import paths


def _db_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", type=Path, default=None,
                   help="database file (default: $HPCASK_DB or var/hpcask.duckdb in the checkout)")


def cmd_db_build(args) -> int:
    from ingest.build import build
    from ingest.curated import CuratedError
    db = args.db or paths.default_db()
    progress = None if args.quiet else (lambda line: print(line, flush=True))
    try:
        rep = build(db, paths.DATASETS, force=args.force, progress=progress)
    except CuratedError as e:
        print(f"hpcask db build: curated data error: {e}\n(the database was left as it was)", file=sys.stderr)
        return 1
    if not rep.built:
        print(f"{db}: up to date (nothing in datasets/ or ingest/ changed)")
        return 0
    print(f"built {db} in {rep.seconds:.1f} s: {len(rep.groups)} curated group(s), "
          f"{len(rep.files)} raw file(s), {len(rep.failures)} failure(s)")
    for f in rep.failures:
        print(f.line(), file=sys.stderr)
    return 1 if rep.failures else 0


def cmd_db_stats(args) -> int:
    from app.stats import stats, format_stats
    db = args.db or paths.default_db()
    if not db.exists():
        print(f"no database at {db}: run `hpcask db build` first", file=sys.stderr)
        return 2
    s = stats(db)
    print(json.dumps(s, indent=2) if args.json else format_stats(s))
    return 0


def cmd_ingest(args) -> int:
    from ingest import loader
    db = args.db or paths.default_db()
    files = loader.iter_files(args.paths)
    missing = [p for p in args.paths if not p.exists()]
    for p in missing:
        print(f"FAILED   {p}: no such file or folder", file=sys.stderr)
    con = loader.connect(db)
    ok = not missing
    try:
        it = files
        if len(files) > 1 and sys.stderr.isatty():
            from tqdm import tqdm
            it = tqdm(files, unit="file", leave=False)
        for f in it:
            rep = loader.ingest_file(con, f, system_id=args.system, parser_name=args.format)
            print(rep.line(), file=sys.stderr if rep.status == "failed" else sys.stdout, flush=True)
            ok &= rep.status != "failed"
    finally:
        con.close()
    return 0 if ok else 1


def cmd_formats(args) -> int:
    from ingest import registry
    for p in registry.parsers():
        print(f"{p.name:24s} {p.description}")
    return 0


def _print_result(res, as_json: bool) -> None:
    if as_json:
        print(json.dumps(res.to_dict(), ensure_ascii=False))
        return
    print(res.answer)
    if res.notes:
        print("  note: " + "; ".join(res.notes))
    if res.rows and res.intent != "out_of_scope":
        cols = [c for c in ("system_id", "src", "dst", "operation", "metric", "msg_bytes", "count", "condition",
                            "value", "unit") if any(c in r and r[c] is not None for r in res.rows)]
        if not cols:
            cols = list(res.rows[0].keys())[:8]
        print("  " + "  ".join(cols))
        for r in res.rows[:8]:
            print("  " + "  ".join(str(r.get(c, "")) for c in cols))
        if len(res.rows) > 8:
            print(f"  ... {len(res.rows) - 8} more rows (--json for all)")
    print(f"  [{res.intent} {res.confidence:.2f} | " + ", ".join(f"{k}={v}" for k, v in res.slots.items())
          + f" | {res.timings_ms.get('total', 0):.1f} ms]")


def cmd_ask(args) -> int:
    from app.ask import Asker
    try:
        asker = Asker(args.db)
    except FileNotFoundError as e:
        print(f"hpcask ask: {e}", file=sys.stderr)
        return 2
    try:
        if args.batch:
            return _ask_batch(asker, args.batch)
        if not args.question:
            print("hpcask ask: give a question, or --batch FILE", file=sys.stderr)
            return 2
        _print_result(asker.ask(" ".join(args.question)), args.json)
        return 0
    finally:
        asker.close()


def _ask_batch(asker, path: Path) -> int:
    from app.result import Result
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        print(f"hpcask ask: cannot read {path}: {e}", file=sys.stderr)
        return 2
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        qid = str(n)
        try:
            item = json.loads(line)
            qid = str(item.get("id", n))
            if "text" in item:
                res = asker.ask(item["text"], qid=qid)
            elif "audio" in item:
                res = Result(question="", intent="out_of_scope", id=qid,
                             error="audio questions need the speech model (not installed yet)")
            else:
                raise ValueError("each line needs \"text\" or \"audio\"")
        except Exception as e:  # one bad line must not stop the batch
            res = Result(question=line[:200], intent="out_of_scope", id=qid, error=f"{type(e).__name__}: {e}")
        print(json.dumps(res.to_dict(), ensure_ascii=False), flush=True)
    return 0


def cmd_eval(args) -> int:
    from app.ask import Asker
    from nlu.evaluate import EVAL_SET, evaluate, load_set
    asker = Asker(args.db, args.model)
    try:
        rep = evaluate(asker.ask, load_set(args.set or EVAL_SET))
    finally:
        asker.close()
    print("\n".join(rep.lines()))
    if args.errors:
        for e in rep.errors:
            print(json.dumps(e, ensure_ascii=False))
    return 0


def cmd_retrain(args) -> int:
    from nlu import retrain as R
    if args.rollback:
        return 0 if R.rollback() else 1
    if args.if_missing and (R.CURRENT / "labels.json").exists():
        print(f"NLU model present at {R.CURRENT}")
        return 0
    from tqdm import tqdm
    bar = tqdm(total=None, unit="step", desc="fine-tuning", disable=args.quiet)

    def progress(step: int, total: int, loss: float) -> None:
        if bar.total != total:
            bar.total = total
        bar.update(step - bar.n)
        bar.set_postfix(loss=f"{loss:.3f}")
    try:
        # new words on top of an installed model: continue from it for one epoch (fast) unless --full
        incremental = (args.vocab or args.examples) and not args.full and (R.CURRENT / "labels.json").exists()
        summary = R.retrain(db=args.db, vocab=args.vocab, examples=args.examples, force_install=args.force,
                            progress=progress, log=tqdm.write, evaluate_after=not args.no_eval,
                            incremental=bool(incremental), overrides={"epochs": 1} if incremental else None)
    finally:
        bar.close()
    return 0 if summary["installed"] else 1


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="hpcask",
        description="Ask questions of HPC performance data: benchmark outputs and traces in one DuckDB database.")
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")

    p_ing = sub.add_parser("ingest", help="load raw benchmark outputs or traces (files or folders)",
                           description="Load files into the database, one transaction per file: a file "
                                       "that fails loads nothing. Re-loading the same content adds nothing.")
    p_ing.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p_ing.add_argument("--system", help="system id the files belong to (default: inferred from content/path)")
    p_ing.add_argument("--format", help="parser name, skipping detection (see `hpcask formats`)")
    _db_arg(p_ing)
    p_ing.set_defaults(func=cmd_ingest)

    p_fmt = sub.add_parser("formats", help="list the raw formats hpcask can ingest")
    p_fmt.set_defaults(func=cmd_formats)

    p_db = sub.add_parser("db", help="build or inspect the database")
    dsub = p_db.add_subparsers(dest="dbcmd", metavar="ACTION")
    p_b = dsub.add_parser("build", help="build the default database from datasets/ (skipped when up to date)")
    p_b.add_argument("--force", action="store_true", help="rebuild even if nothing changed")
    p_b.add_argument("-q", "--quiet", action="store_true", help="print only the summary")
    _db_arg(p_b)
    p_b.set_defaults(func=cmd_db_build)
    p_s = dsub.add_parser("stats", help="systems with counts of components, links, runs, measurements, events")
    p_s.add_argument("--json", action="store_true", help="machine-readable output")
    _db_arg(p_s)
    p_s.set_defaults(func=cmd_db_stats)

    p_ask = sub.add_parser("ask", help="ask a question in plain English",
                           description="Answer a question: the number, its unit and source, the rows and the SQL.")
    p_ask.add_argument("question", nargs="*", help='e.g. "what bus bandwidth does all-reduce reach on the H200 pair at 1 GB?"')
    p_ask.add_argument("--json", action="store_true", help="print the result object as JSON")
    p_ask.add_argument("--batch", type=Path, metavar="FILE",
                       help='JSON lines {"id":..., "text":...}; one result object per line on stdout')
    _db_arg(p_ask)
    p_ask.set_defaults(func=cmd_ask)

    p_ev = sub.add_parser("eval", help="score the NLU on the hand-written evaluation set")
    p_ev.add_argument("--set", type=Path, help="evaluation set (default: nlu/eval/questions.jsonl)")
    p_ev.add_argument("--model", type=Path, help="model directory (default: the installed one)")
    p_ev.add_argument("--errors", action="store_true", help="also print the questions it got wrong")
    _db_arg(p_ev)
    p_ev.set_defaults(func=cmd_eval)

    p_rt = sub.add_parser("retrain", help="teach the models new HPC vocabulary and retrain",
                          description="Regenerate training questions (with new words), fine-tune, evaluate, and "
                                      "install the new model only if it is not worse; the previous one is kept.")
    p_rt.add_argument("--vocab", type=Path, metavar="NEW.yaml", help="extra vocabulary (format of nlu/vocabulary.yaml)")
    p_rt.add_argument("--examples", type=Path, metavar="NEW.jsonl", help="extra labelled questions")
    p_rt.add_argument("--force", action="store_true", help="install even if the evaluation scores drop")
    p_rt.add_argument("--rollback", action="store_true", help="swap back to the previous model")
    p_rt.add_argument("--if-missing", action="store_true", help="train only when no model is installed (setup)")
    p_rt.add_argument("--no-eval", action="store_true", help="skip the evaluation (installs unconditionally)")
    p_rt.add_argument("--full", action="store_true",
                      help="train from the base encoder even when only new words are added")
    p_rt.add_argument("-q", "--quiet", action="store_true")
    _db_arg(p_rt)
    p_rt.set_defaults(func=cmd_retrain)
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if not getattr(args, "func", None):
        if args.cmd == "db":
            ap.parse_args(["db", "--help"])
        ap.print_help()
        return 2
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
