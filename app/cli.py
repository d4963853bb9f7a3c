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
