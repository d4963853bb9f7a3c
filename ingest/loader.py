"""Writes parse results into DuckDB, one transaction per file.

Atomicity is the contract users rely on: a file that fails half-way (a truncated trace, a foreign
file that sniffed right) leaves the database exactly as it was, so ingest can be retried safely.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional

import duckdb

from ingest import registry
from ingest.records import (TRACE_COLUMNS, Component, JsonArrayParts, Link, Measurement, ParseError, ParseResult,
                            RetryUnsplit,
                            Run, System)
from ingest.schema import create


@dataclass
class LoadReport:
    path: str
    status: str  # 'loaded', 'skipped' (already loaded), 'failed'
    parser: Optional[str] = None
    runs: int = 0
    measurements: int = 0
    events: int = 0
    components: int = 0
    links: int = 0
    systems: list[str] = field(default_factory=list)
    message: str = ""

    def line(self) -> str:
        if self.status == "loaded":
            what = [f"{self.runs} run(s)", f"{self.measurements} measurement(s)"]
            if self.events:
                what.append(f"{self.events} trace event(s)")
            if self.components or self.links:
                what.append(f"{self.components} component(s), {self.links} link(s)")
            return (f"loaded   {self.path} [{self.parser}] -> {', '.join(what)}"
                    f" on {', '.join(self.systems) or '-'}")
        if self.status == "skipped":
            return f"skipped  {self.path}: {self.message}"
        return f"FAILED   {self.path}: {self.message}"


def connect(db_path: str | Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(str(db_path), read_only=read_only)
    if not read_only:
        create(con)
    return con


def file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _json(d) -> Optional[str]:
    return json.dumps(d, sort_keys=True) if d else None


def upsert_system(con, s: System) -> None:
    row = con.execute("SELECT aliases FROM systems WHERE system_id = ?", [s.system_id]).fetchone()
    if row is None:
        con.execute("INSERT INTO systems VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [s.system_id, s.name, list(dict.fromkeys(s.aliases)), s.vendor, s.kind,
                     s.description, s.source])
        return
    merged = list(dict.fromkeys((row[0] or []) + s.aliases))
    con.execute("""UPDATE systems SET aliases = ?, vendor = coalesce(vendor, ?), kind = coalesce(kind, ?),
                   description = coalesce(description, ?) WHERE system_id = ?""",
                [merged, s.vendor, s.kind, s.description, s.system_id])


def ensure_system(con, system_id: str, name: Optional[str] = None, source: Optional[str] = None) -> None:
    if con.execute("SELECT 1 FROM systems WHERE system_id = ?", [system_id]).fetchone() is None:
        upsert_system(con, System(system_id=system_id, name=name or system_id, source=source))


def insert_component(con, c: Component) -> bool:
    """Insert a component, or merge its attrs into the one already there (first value of a key wins).

    Several outputs describe the same GPU (topo -m, nvlink -s, nccl-tests); each adds what it knows.
    """
    row = con.execute("SELECT attrs FROM components WHERE system_id = ? AND component_id = ?",
                      [c.system_id, c.component_id]).fetchone()
    if row is None:
        con.execute("INSERT INTO components VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [c.system_id, c.component_id, c.kind, c.label, c.parent, _json(c.attrs), c.source])
        return True
    old = json.loads(row[0]) if row[0] else {}
    merged = {**c.attrs, **old}
    if merged != old:
        con.execute("""UPDATE components SET attrs = ?, label = coalesce(label, ?), parent = coalesce(parent, ?)
                       WHERE system_id = ? AND component_id = ?""",
                    [_json(merged), c.label, c.parent, c.system_id, c.component_id])
    return False


def insert_link(con, l: Link) -> bool:
    a, b = (l.a, l.b) if l.directed or l.a <= l.b else (l.b, l.a)
    if con.execute("""SELECT 1 FROM links WHERE system_id = ? AND a = ? AND b = ? AND link_type = ?""",
                   [l.system_id, a, b, l.link_type]).fetchone():
        return False
    con.execute("""INSERT INTO links (system_id, a, b, link_type, count, bw_gbps_per_dir, directed, note, source)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                [l.system_id, a, b, l.link_type, l.count, l.bw_gbps_per_dir, l.directed, l.note, l.source])
    return True


_MEAS_COLS = ("run_id", "system_id", "metric", "operation", "src", "dst", "direction", "msg_bytes",
              "count", "count_kind", "condition", "precision", "statistic", "value", "unit",
              "orig_value", "orig_unit", "app", "library", "params", "note", "source")


def insert_run(con, run: Run, *, source_file: Optional[str], content_hash: Optional[str],
               origin: str) -> tuple[int, int, int]:
    """Insert one run with its measurements and trace events; returns (run_id, n_meas, n_events)."""
    run_id = con.execute("SELECT nextval('run_seq')").fetchone()[0]
    con.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [run_id, run.tool, run.tool_version, run.system_id, run.experiment, _json(run.params),
                 source_file, run.source, content_hash, origin])
    rows = []
    for m in run.measurements:
        if m.value is None:
            continue
        src = m.source or run.source
        if not src:
            raise ParseError(f"measurement {m.metric} has no source")
        rows.append([run_id, m.system_id or run.system_id, m.metric, m.operation, m.src, m.dst,
                     m.direction, m.msg_bytes, m.count, m.count_kind, m.condition, m.precision,
                     m.statistic, float(m.value), m.unit, m.orig_value, m.orig_unit, m.app, m.library,
                     _json(m.params), m.note, src])
    if rows:
        _bulk_insert(con, "measurements", _MEAS_COLS, rows)
    n_events = 0
    if run.trace_batches is not None:
        n_events = insert_trace_batches(con, run_id, run.trace_batches)
    return run_id, len(rows), n_events


def _bulk_insert(con, table: str, cols: tuple[str, ...], rows: list[list]) -> None:
    import pyarrow as pa
    columns = list(zip(*rows))
    tbl = pa.table({c: pa.array(list(v)) if any(x is not None for x in v) else pa.nulls(len(v))
                    for c, v in zip(cols, columns)})
    con.register("_bulk", tbl)
    try:
        con.execute(f"INSERT INTO {table} ({', '.join(cols)}) SELECT {', '.join(cols)} FROM _bulk")
    finally:
        con.unregister("_bulk")


_TRACE_TYPES = None


def insert_trace_batches(con, run_id: int, batches: Iterable[dict[str, list]]) -> int:
    import pyarrow as pa
    global _TRACE_TYPES
    if _TRACE_TYPES is None:
        _TRACE_TYPES = {"rank": pa.int32(), "pid": pa.string(), "tid": pa.string(), "name": pa.string(),
                        "cat": pa.string(), "ph": pa.string(), "ts_us": pa.float64(),
                        "dur_us": pa.float64(), "stream": pa.int64(), "correlation": pa.int64(),
                        "args": pa.string()}
    n = 0
    cols = ", ".join(TRACE_COLUMNS)
    for batch in batches:
        if isinstance(batch, JsonArrayParts):
            n += _insert_json_parts(con, run_id, batch)
            continue
        if isinstance(batch, pa.Table):
            tbl = batch
        else:
            tbl = pa.table({c: pa.array(batch[c], type=_TRACE_TYPES[c]) for c in TRACE_COLUMNS})
        if tbl.num_rows == 0:
            continue
        con.register("_events", tbl)
        try:
            con.execute(f"INSERT INTO trace_events (run_id, {cols}) SELECT ?, {cols} FROM _events",
                        [run_id])
        finally:
            con.unregister("_events")
        n += tbl.num_rows
    return n


_EVENT_COLUMNS = ("{pid: 'VARCHAR', tid: 'VARCHAR', name: 'VARCHAR', cat: 'VARCHAR', ph: 'VARCHAR', "
                  "ts: 'DOUBLE', dur: 'DOUBLE', args: 'JSON'}")
_JSON_FILE_INSERT = f"""
INSERT INTO trace_events (run_id, rank, pid, tid, name, cat, ph, ts_us, dur_us, stream, correlation, args)
SELECT $run, $rank, pid, tid, name, cat, ph, ts, dur,
       TRY_CAST(json_extract_string(args, '$.stream') AS BIGINT),
       TRY_CAST(json_extract_string(args, '$.correlation') AS BIGINT),
       args
FROM read_json($path, format = 'array', columns = {_EVENT_COLUMNS},
               maximum_object_size = 268435456)
"""


def _insert_json_parts(con, run_id: int, batch: JsonArrayParts) -> int:
    """Chrome trace events from JSON-array part files: DuckDB parses them natively, as many parts
    at once as it has threads, while the parser's producer keeps writing the next ones."""
    width = max(1, int(con.execute("SELECT current_setting('threads')").fetchone()[0]))
    n = 0
    group: list[str] = []

    def flush() -> int:
        try:
            return con.execute(_JSON_FILE_INSERT, {"run": run_id, "rank": batch.rank, "path": group}).fetchone()[0]
        except duckdb.Error as e:
            msg = f"malformed trace events: {str(e).splitlines()[0]}"
            raise (RetryUnsplit(msg) if batch.split else ParseError(msg)) from e
        finally:
            for p in group:
                Path(p).unlink(missing_ok=True)
            group.clear()

    try:
        for path in batch.parts:
            group.append(path)
            if len(group) >= width:
                n += flush()
        if group:
            n += flush()
    finally:
        for p in group:
            Path(p).unlink(missing_ok=True)
        close = getattr(batch.parts, "close", None)
        if close:
            close()
    return n


def write_result(con, result: ParseResult, *, source_file: Optional[str], content_hash: Optional[str],
                 origin: str, report: LoadReport) -> None:
    for s in result.systems:
        upsert_system(con, s)
    for c in result.components:
        ensure_system(con, c.system_id, source=c.source)
        report.components += insert_component(con, c)
    for l in result.links:
        ensure_system(con, l.system_id, source=l.source)
        report.links += insert_link(con, l)
    systems = set()
    for run in result.runs:
        ensure_system(con, run.system_id, source=run.source)
        _, nm, ne = insert_run(con, run, source_file=source_file, content_hash=content_hash,
                               origin=origin)
        report.runs += 1
        report.measurements += nm
        report.events += ne
        systems.add(run.system_id)
    systems.update(s.system_id for s in result.systems)
    report.systems = sorted(systems)


def ingest_file(con, path: Path, *, system_id: Optional[str] = None, display_name: Optional[str] = None,
                parser_name: Optional[str] = None, origin: str = "ingested") -> LoadReport:
    """Parse and load one file atomically. Never raises for bad input: the report says what happened."""
    name = display_name or str(path)
    report = LoadReport(path=name, status="failed")
    try:
        digest = file_hash(path)
        if con.execute("SELECT path FROM files WHERE content_hash = ?", [digest]).fetchone():
            report.status, report.message = "skipped", "already loaded (same content)"
            return report
        ctx = registry.make_context(path, system_id=system_id, display_name=display_name)
        parser = registry.get(parser_name) if parser_name else registry.detect(ctx)
        report.parser = parser.name
        try:
            _parse_and_write(con, parser, ctx, name, digest, origin, report)
        except RetryUnsplit:
            ctx.options["split"] = False
            _parse_and_write(con, parser, ctx, name, digest, origin, report)
    except ParseError as e:
        report.message = str(e)
        return report
    except (OSError, EOFError, UnicodeError) as e:
        report.message = f"cannot read: {e}"
        return report
    except Exception as e:  # a parser bug must not take a whole batch down; the file is named
        report.message = f"{type(e).__name__}: {e}"
        return report
    report.status = "loaded"
    return report


def _discard_streams(result: ParseResult) -> None:
    """Stop producers of trace parts that a failed load never consumed (threads, temp files)."""
    for run in result.runs:
        for b in run.trace_batches or ():
            close = getattr(getattr(b, "parts", None), "close", None)
            if close:
                close()


def _parse_and_write(con, parser, ctx, name: str, digest: str, origin: str, report: LoadReport) -> None:
    """Parse, then write everything in one transaction; on any error roll back and re-raise."""
    result = parser.parse(ctx)
    if not result.runs and not result.components and not result.links:
        raise ParseError("no results found in the file")
    con.execute("BEGIN TRANSACTION")
    try:
        write_result(con, result, source_file=name, content_hash=digest, origin=origin, report=report)
        con.execute("INSERT INTO files VALUES (?, ?, ?, current_timestamp, ?, ?, ?)",
                    [digest, name, parser.name, report.runs, report.measurements, report.events])
        con.execute("COMMIT")
    except BaseException as e:
        con.execute("ROLLBACK")
        _discard_streams(result)
        report.runs = report.measurements = report.events = report.components = report.links = 0
        if isinstance(e, (ParseError, KeyboardInterrupt)):
            raise
        raise ParseError(f"{type(e).__name__}: {e}") from e
    report.message = "; ".join(result.warnings)


def iter_files(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.is_file() and not q.name.startswith(".")))
        else:
            out.append(p)
    return out
