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


def cmd_ui(args) -> int:
    from app.ui import launch
    db = args.db or paths.default_db()
    if not db.exists():
        print(f"hpcask ui: no database at {db}: run `hpcask db build` (or `make setup`)", file=sys.stderr)
        return 2
    print(f"hpcask web UI on http://127.0.0.1:{args.port}  (database {db}; Ctrl-C to stop)", flush=True)
    return launch.serve(args.port, db)


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
        # measurements and links (topology rows: a -- b over a link type) in one column order
        cols = [c for c in ("system_id", "hop", "a", "b", "link_type", "bw_gbps_per_dir", "src", "dst", "operation",
                            "metric", "msg_bytes", "count", "condition", "value", "unit")
                if any(c in r and r[c] is not None for r in res.rows)]
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
        if args.audio:
            res = asker.ask_audio(args.audio)
            if res.error and not args.json:
                print(f"hpcask ask: {res.error}", file=sys.stderr)
                return 1
            if not args.json:
                print(f"heard: {res.transcript}  [{res.timings_ms.get('asr', 0):.0f} ms]")
            _print_result(res, args.json)
            return 1 if res.error else 0
        if not args.question:
            print("hpcask ask: give a question, --audio FILE, or --batch FILE", file=sys.stderr)
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
                audio = Path(item["audio"])
                if not audio.is_absolute() and not audio.exists() and (path.parent / audio).exists():
                    audio = path.parent / audio        # relative to the batch file
                res = asker.ask_audio(audio, qid=qid)
            else:
                raise ValueError("each line needs \"text\" or \"audio\"")
        except Exception as e:  # one bad line must not stop the batch
            res = Result(question=line[:200], intent="out_of_scope", id=qid, error=f"{type(e).__name__}: {e}")
        print(json.dumps(res.to_dict(), ensure_ascii=False), flush=True)
    return 0


def cmd_report(args) -> int:
    from app import report
    from app.report_questions import QuestionsError, list_presets, load_preset, load_question_set
    if args.list_presets:
        for name in list_presets():
            print(f"{name:14s} {load_preset(name).title or ''}")
        return 0
    if bool(args.questions) == bool(args.preset):
        print("hpcask report: give a QUESTIONS file or --preset NAME (see --list-presets)", file=sys.stderr)
        return 2
    try:
        qset = load_preset(args.preset) if args.preset else load_question_set(args.questions)
        report.check_output(args.output)
    except (QuestionsError, ValueError) as e:
        print(f"hpcask report: {e}", file=sys.stderr)
        return 2
    from app.ask import Asker, default_model_dir
    try:
        asker = Asker(args.db)
    except FileNotFoundError as e:
        print(f"hpcask report: {e}", file=sys.stderr)
        return 2
    from tqdm import tqdm
    bar = tqdm(total=len(qset.questions), unit="question", desc="report", file=sys.stderr, disable=args.quiet)
    try:
        results = report.run_report(qset.questions, asker, progress=lambda done, total, q: bar.update(1))
    finally:
        bar.close()
        asker.close()
    title = args.title or qset.title or f"hpcask report: {qset.source.name if qset.source else 'questions'}"
    try:
        html_path, json_path = report.write_report(results, args.output, title=title, questions=qset.questions,
                                                   description=qset.description, db_path=asker.db_path,
                                                   model_dir=default_model_dir())
    except (OSError, ValueError) as e:
        print(f"hpcask report: could not write the report: {e}", file=sys.stderr)
        return 1
    c = report.summary_counts(results)
    print(f"wrote {html_path} and {json_path}: {c['answered']} answered, {c['out_of_scope']} out of scope, "
          f"{c['failed']} failed (of {c['questions']})")
    return 0


def cmd_eval(args) -> int:
    from app.ask import Asker
    from nlu.evaluate import evaluate, load_named
    if args.speech:
        return _eval_speech(args)
    try:
        items = load_named(args.set)
    except ValueError as e:
        print(f"hpcask eval: {e}", file=sys.stderr)
        return 2
    asker = Asker(args.db, args.model)
    try:
        rep = evaluate(asker.ask, items)
    finally:
        asker.close()
    return _print_eval(rep, args.errors)


def _print_eval(rep, errors: bool) -> int:
    """The scores, then (with --errors) the misses as JSON lines: the same for typed and spoken evaluation."""
    print("\n".join(rep.lines()))
    if errors:
        for e in rep.errors:
            print(json.dumps(e, ensure_ascii=False))
    return 0


def _eval_speech(args) -> int:
    from tqdm import tqdm

    from app.ask import Asker
    from asr.speech_data import TTSError
    from asr.speech_eval import eval_audio, evaluate_speech
    from asr.transcribe import Transcriber
    from asr.weights import WeightsError
    from nlu.evaluate import load_named
    try:
        items = load_named(args.set)[: args.limit or None]
    except ValueError as e:
        print(f"hpcask eval --speech: {e}", file=sys.stderr)
        return 2
    try:
        with tqdm(total=len(items), desc="speaking the questions", unit="q", file=sys.stderr) as bar:
            skipped: list[tuple[str, str]] = []
            clips = eval_audio(items, progress=lambda d, t: bar.update(d - bar.n), skipped=skipped)
        if skipped:
            print(f"hpcask eval --speech: {len(skipped)} question(s) left out, their speech too long for one "
                  f"question: {', '.join(i for i, _ in skipped)}", file=sys.stderr)
        tr = Transcriber(args.asr_model, correct=False if args.no_correct else None)
    except (TTSError, WeightsError) as e:
        print(f"hpcask eval --speech: {e}", file=sys.stderr)
        return 2
    asker = Asker(args.db, args.model)
    try:
        with tqdm(total=len(clips), desc="transcribing", unit="q", file=sys.stderr) as bar:
            rep = evaluate_speech(asker, tr, clips, progress=lambda d, t: bar.update(d - bar.n))
    finally:
        asker.close()
    return _print_eval(rep, args.errors)


def asr_overrides(args) -> "dict | None":
    """Changes to models/asr/train_config.json asked for on the command line."""
    return {"train_encoder": 0} if getattr(args, "decoder_only", False) else None


def _retrain_asr(args) -> int:
    from asr import build as B
    if args.if_missing and B.present():
        B.build(db=args.db, log=print)      # says it is present; counts the beam's wording model if that is missing
        return 0
    from tqdm import tqdm
    bars: dict = {}

    def progress(stage: str, done: int, total: int, info: dict) -> None:
        if stage not in bars:
            for b in bars.values():
                b.close()
            bars[stage] = tqdm(total=total, desc={"speech": "speaking questions", "encode": "encoding",
                                                  "features": "log-mel features", "train": "fine-tuning"}.get(stage, stage),
                               unit="step" if stage == "train" else "clip", disable=args.quiet)
        bar = bars[stage]
        bar.update(done - bar.n)
        if "loss" in info:
            bar.set_postfix(loss=f"{info['loss']:.3f}")
    try:
        B.build(db=args.db, vocab=args.vocab, force=True, progress=progress, log=tqdm.write,
                overrides=asr_overrides(args))
    finally:
        for b in bars.values():
            b.close()
    return 0


def cmd_retrain(args) -> int:
    from nlu import retrain as R
    if args.asr:
        return _retrain_asr(args)
    if args.decoder_only:
        print("hpcask retrain: --decoder-only goes with --asr (the speech model)", file=sys.stderr)
        return 2
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

    p_ui = sub.add_parser("ui", help="start the web UI (Streamlit) on 127.0.0.1",
                          description="Start the conversational web UI: typed and spoken questions, charts, the "
                                      "systems and their topologies, uploads. Listens on 127.0.0.1 only; no usage "
                                      "statistics are sent.")
    p_ui.add_argument("--port", type=int, default=8501, help="port to listen on (default: 8501)")
    _db_arg(p_ui)
    p_ui.set_defaults(func=cmd_ui)

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
    p_ask.add_argument("--audio", type=Path, metavar="FILE",
                       help="a spoken question (wav, mp3, ogg, flac, m4a, webm...; any rate): transcribed, then answered")
    p_ask.add_argument("--batch", type=Path, metavar="FILE",
                       help='JSON lines {"id":..., "text":...}; one result object per line on stdout')
    _db_arg(p_ask)
    p_ask.set_defaults(func=cmd_ask)

    p_ev = sub.add_parser("eval", help="score the NLU on the hand-written evaluation set")
    p_ev.add_argument("--set", metavar="NAME|PATH",
                      help="evaluation set: 'questions' (default, nlu/eval/questions.jsonl), 'holdout' (the second "
                           "set, nlu/eval/holdout.jsonl, read for fixes since session 38), 'holdout2' (the third "
                           "set, read for fixes since session 41), 'holdout3' (the fourth, read for fixes since "
                           "session 42), 'holdout4' (the fifth, read for fixes since session 43), 'holdout5' (the sixth, "
                           "read for fixes since session 44), 'holdout6' (the seventh, read for fixes since session 45), "
                           "'holdout7' (the eighth, read for fixes since session 46), 'holdout8' (the ninth, read "
                           "for fixes since session 47), 'holdout9' (the tenth, read for fixes since session 47), "
                           "'holdout10' (the eleventh, read for fixes since session 48), 'holdout11' (the twelfth, "
                           "read for fixes since session 48), 'holdout12' (the thirteenth, read for fixes since "
                           "session 49), 'holdout13' (the fourteenth, read for fixes since session 50), 'holdout14' (the "
                           "fifteenth, seen by accident and then read for fixes in session 49), 'holdout15' (the "
                           "sixteenth, read for fixes since session 50), 'holdout16' and 'holdout17' (the seventeenth "
                           "and eighteenth, seen by accident in session 50, read for fixes since session 51), 'holdout18' "
                           "(the nineteenth, read for fixes since session 51), 'holdout19' (the twentieth, read for fixes "
                           "since session 52), 'holdout20' (the twenty-first, read for fixes since session 52), "
                           "'holdout21' (the twenty-second, read for fixes since session 53), 'holdout22' (the "
                           "twenty-third, read for fixes since session 53), 'holdout23' (the twenty-fourth, read for "
                           "fixes since session 54), 'holdout24' and 'holdout25' (the twenty-fifth and twenty-sixth, "
                           "read for fixes since session 54), 'holdout26' (the twenty-seventh, read for fixes since "
                           "session 55), 'holdout27' (the twenty-eighth, read for fixes since session 55), 'holdout28' "
                           "(the twenty-ninth, read for fixes since session 56), 'holdout29' (the thirtieth, read for fixes "
                           "since later in session 56), 'holdout30' (the thirty-first, read for fixes since session 57), "
                           "'holdout31' and 'holdout32' (the thirty-second and thirty-third, read for fixes since later in "
                           "session 57), 'holdout33' to 'holdout35' (the thirty-fourth to thirty-sixth, read for fixes "
                           "since session 58), 'holdout36' and 'holdout37' (the thirty-seventh and thirty-eighth, read "
                           "for fixes since session 59), 'holdout38' to 'holdout40' (the thirty-ninth to forty-first, "
                           "read for fixes since session 60), 'holdout41' to 'holdout43' (the forty-second to "
                           "forty-fourth, read for fixes since session 61), 'holdout44' to 'holdout48' (the forty-fifth "
                           "to forty-ninth, read for fixes since session 62), 'holdout49' to 'holdout53' (the fiftieth "
                           "to fifty-fourth, read for fixes since session 63), 'holdout54' to 'holdout56' (the "
                           "fifty-fifth to fifty-seventh, read for fixes since session 64), 'holdout57' and "
                           "'holdout58' (the fifty-eighth and fifty-ninth, read for fixes since session 65), 'holdout59' "
                           "and 'holdout60' (the sixtieth and sixty-first, read for fixes since session 66), 'holdout61' "
                           "to 'holdout64' (the sixty-second to sixty-fifth, read for fixes since session 67), 'holdout65' "
                           "to 'holdout68' (the sixty-sixth to sixty-ninth, read for fixes since session 68), "
                           "'holdout69' to 'holdout71' (the seventieth to seventy-second, read for fixes since "
                           "session 69), 'holdout72' to 'holdout74' (the seventy-third to seventy-fifth, read for "
                           "fixes since session 70), 'holdout75' (the seventy-sixth, read for fixes since session 71), "
                           "'holdout76' (the blind seventy-seventh set, nlu/eval/holdout76.jsonl: score it, do not read "
                           "its misses) or the path of a JSON-lines file")
    p_ev.add_argument("--model", type=Path, help="model directory (default: the installed one)")
    p_ev.add_argument("--errors", action="store_true", help="also print the questions it got wrong")
    p_ev.add_argument("--speech", action="store_true",
                      help="spoken evaluation: the questions read by voices never used in training, through ASR "
                           "(WER, HPC-term recall, intent and answer accuracy, latency)")
    p_ev.add_argument("--asr-model", default="finetuned", metavar="NAME",
                      help="with --speech: finetuned (default), tiny.en, base, or a CTranslate2 directory")
    p_ev.add_argument("--limit", type=int, default=0, help="with --speech: only the first N questions")
    p_ev.add_argument("--no-correct", action="store_true",
                      help="with --speech: score the speech model's own text, without the vocabulary corrector")
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
    p_rt.add_argument("--asr", action="store_true",
                      help="fine-tune the speech model instead (tiny.en, encoder and decoder, on synthesized HPC "
                           "questions: about 45 min on 2 cores with bfloat16 instructions, about twice that without, "
                           "a minute or two of training on a CUDA GPU; with --vocab its words are spoken in training "
                           "too)")
    p_rt.add_argument("--decoder-only", action="store_true",
                      help="with --asr: train only the decoder, over the frozen int8 encoder (the recipe of sessions "
                           "7-19): less than half the time on a CPU, but (session 20) 13.8%% against 8.6%% WER on "
                           "the spoken evaluation set")
    p_rt.add_argument("--full", action="store_true",
                      help="train from the base encoder even when only new words are added")
    p_rt.add_argument("-q", "--quiet", action="store_true")
    _db_arg(p_rt)
    p_rt.set_defaults(func=cmd_retrain)

    p_rep = sub.add_parser(
        "report", help="answer a list of questions into one self-contained HTML report (+ JSON)",
        description="Answer every question of a list (a .txt with one question per line, or a .yaml/.json with "
                    "titles, sections and audio files) or of a ready-made preset, and write one HTML file that "
                    "opens offline (answers, charts, rows, SQL, sources) plus the raw results as JSON beside it. "
                    "Failed and out-of-scope questions are listed, never dropped; the exit status is 0 when the "
                    "report was written.")
    p_rep.add_argument("questions", nargs="?", type=Path, metavar="QUESTIONS", help="questions file (.txt, .yaml, .json)")
    p_rep.add_argument("--preset", metavar="NAME", help="a ready-made question set from datasets/reports/ (e.g. dgx2)")
    p_rep.add_argument("--list-presets", action="store_true", help="list the presets and exit")
    p_rep.add_argument("-o", "--output", type=Path, default=Path("report.html"),
                       help="HTML file to write (default: report.html; the JSON goes beside it as .json)")
    p_rep.add_argument("--title", help="report title (default: the file's or preset's title)")
    p_rep.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _db_arg(p_rep)
    p_rep.set_defaults(func=cmd_report)
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
