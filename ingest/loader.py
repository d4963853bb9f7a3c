"""Writes parse results into DuckDB, one transaction per file.

Atomicity is the contract users rely on: a file that fails half-way (a truncated trace, a foreign
file that sniffed right) leaves the database exactly as it was, so ingest can be retried safely.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

import duckdb
import orjson

from ingest import registry, summaries, system_hints
from ingest.records import (Component, JsonArrayParts, Link, Measurement, ParseError, ParseResult,
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
                    f" on {', '.join(self.systems) or '-'}" + (f" ({self.message})" if self.message else ""))
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


def _first(cur):
    """First row or None, consuming the whole result (DuckDB refuses new work on a connection
    while a result is unfinished)."""
    rows = cur.fetchall()
    return rows[0] if rows else None


def _json(d) -> Optional[str]:
    if not d:
        return None
    try:
        return orjson.dumps(d, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # integers beyond 64 bits (garbage counters in some outputs)
        return json.dumps(d, sort_keys=True, default=str)


def upsert_system(con, s: System) -> None:
    row = _first(con.execute("SELECT aliases FROM systems WHERE system_id = ?", [s.system_id]))
    if row is None:
        con.execute("INSERT INTO systems VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [s.system_id, s.name, list(dict.fromkeys(s.aliases)), s.vendor, s.kind,
                     s.description, s.source])
        return
    merged = list(dict.fromkeys((row[0] or []) + s.aliases))
    con.execute("""UPDATE systems SET aliases = ?, vendor = coalesce(vendor, ?), kind = coalesce(kind, ?),
                   description = coalesce(description, ?) WHERE system_id = ?""",
                [merged, s.vendor, s.kind, s.description, s.system_id])


def insert_component(con, c: Component) -> bool:
    """Insert a component, or merge its attrs into the one already there (first value of a key wins).

    Several outputs describe the same GPU (topo -m, nvlink -s, nccl-tests); each adds what it knows.
    """
    row = _first(con.execute("SELECT attrs FROM components WHERE system_id = ? AND component_id = ?",
                      [c.system_id, c.component_id]))
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


_MEAS_COLS = ("run_id", "system_id", "metric", "operation", "src", "dst", "direction", "msg_bytes",
              "count", "count_kind", "condition", "precision", "statistic", "value", "unit",
              "orig_value", "orig_unit", "app", "library", "params", "note", "source")


# One spelling per operation across tools (the contract's names), whatever a parser or document used.
CANONICAL_OPS = {"all_reduce": "allreduce", "all_gather": "allgather", "all_to_all": "alltoall",
                 "reducescatter": "reduce_scatter", "reduce-scatter": "reduce_scatter",
                 "send_recv": "sendrecv", "bcast": "broadcast"}


def _measurement_row(run_id: int, run: Run, m: Measurement) -> list:
    src = m.source or run.source
    if not src:
        raise ParseError(f"measurement {m.metric} has no source")
    op = CANONICAL_OPS.get(m.operation, m.operation) if m.operation else None
    return [run_id, m.system_id or run.system_id, m.metric, op, m.src, m.dst,
            m.direction, m.msg_bytes, m.count, m.count_kind, m.condition, m.precision,
            m.statistic, float(m.value), m.unit, m.orig_value, m.orig_unit, m.app, m.library,
            _json(m.params), m.note, src]


_RUN_COLS = ("run_id", "tool", "tool_version", "system_id", "experiment", "params", "source_file",
             "source", "content_hash", "origin")


def insert_runs(con, runs: list[Run], *, source_file: Optional[str], content_hash: Optional[str],
                origin: str) -> tuple[int, int]:
    """Insert runs with their measurements (one bulk insert each) and trace events.

    Returns (measurements, events). Bulk inserts per file, not per run or row, keep a build of
    hundreds of small files fast.
    """
    if not runs:
        return 0, 0
    # max+1 rather than a sequence: a database file has one writer at a time (DuckDB locks it), and
    # plain values survive the in-memory build being copied to its file
    first = _first(con.execute("SELECT coalesce(max(run_id), 0) + 1 FROM runs"))[0]
    ids = list(range(first, first + len(runs)))
    _bulk_insert(con, "runs", _RUN_COLS,
                 [[rid, r.tool, r.tool_version, r.system_id, r.experiment, _json(r.params), source_file,
                   r.source, content_hash, origin] for rid, r in zip(ids, runs)])
    rows = [_measurement_row(rid, r, m) for rid, r in zip(ids, runs) for m in r.measurements
            if m.value is not None]
    if rows:
        _bulk_insert(con, "measurements", _MEAS_COLS, rows)
    n_events = sum(insert_trace_batches(con, rid, r.trace_batches)
                   for rid, r in zip(ids, runs) if r.trace_batches is not None)
    return len(rows), n_events


def _bulk_insert(con, table: str, cols: tuple[str, ...], rows: list[list]) -> None:
    import pyarrow as pa
    columns = list(zip(*rows))
    tbl = pa.table({c: pa.array(list(v)) if any(x is not None for x in v) else pa.nulls(len(v))
                    for c, v in zip(cols, columns)})
    # DuckDB finds `tbl` by its Python name (a replacement scan): one statement, no register/unregister
    con.execute(f"INSERT INTO {table} ({', '.join(cols)}) SELECT {', '.join(cols)} FROM tbl")


def insert_trace_batches(con, run_id: int, batches: Iterable[JsonArrayParts]) -> int:
    n = 0
    for batch in batches:
        if not isinstance(batch, JsonArrayParts):
            raise TypeError(f"unsupported trace batch {type(batch).__name__}")
        n += _insert_json_parts(con, run_id, batch)
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
    width = max(1, int(_first(con.execute("SELECT current_setting('threads')"))[0]))
    n = 0
    group: list[str] = []

    def flush() -> int:
        try:
            return _first(con.execute(_JSON_FILE_INSERT, {"run": run_id, "rank": batch.rank, "path": group}))[0]
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


def _host_system(con, result: ParseResult) -> None:
    """A file that names only its host ("on lab-a100") gets the system id host_<name> (system_hints.resolve). When
    a loaded system already is that host (its id, name or an alias is the host name: the user loaded its other
    files with --system lab-a100), the file joins it; two systems of one name would leave every question about
    "lab-a100" ambiguous. Either way the report says which system the file went to."""
    hosts = {x.system_id for x in [*result.systems, *result.components, *result.links, *result.runs]
             if x.system_id and x.system_id.startswith("host_")}
    for sid in sorted(hosts):
        if _first(con.execute("SELECT 1 FROM systems WHERE system_id = ?", [sid])):
            continue
        key = sid[len("host_"):]   # the host as system_hints.slug made it
        same = sorted(x for x, name, aliases in con.execute("SELECT system_id, name, aliases FROM systems").fetchall()
                      if key in {system_hints.slug(n) for n in [x, name, *(aliases or [])] if n})
        if len(same) == 1:
            _rename_system(result, sid, same[0])
            result.warnings.append(f"the host named in the file is the loaded system {same[0]!r}: added to it")
        else:
            result.warnings.append(f"new system {sid!r}, named after the host in the file; pass --system ID to "
                                   "add the file to another")


def _rename_system(result: ParseResult, old: str, new: str) -> None:
    result.systems = [s for s in result.systems if s.system_id != old]   # the loaded system keeps its own record
    for x in [*result.components, *result.links, *result.runs]:
        if x.system_id == old:
            x.system_id = new
    for r in result.runs:
        for m in r.measurements:
            if m.system_id == old:
                m.system_id = new


def write_result(con, result: ParseResult, *, source_file: Optional[str], content_hash: Optional[str],
                 origin: str, report: LoadReport) -> None:
    _host_system(con, result)
    for s in result.systems:
        upsert_system(con, s)
    _ensure_systems(con, result)
    report.components += _insert_components(con, result.components)
    report.links += _insert_links(con, result.links)
    nm, ne = insert_runs(con, result.runs, source_file=source_file, content_hash=content_hash,
                         origin=origin)
    report.runs += len(result.runs)
    report.measurements += nm
    report.events += ne
    report.systems = sorted({x.system_id for x in [*result.runs, *result.systems, *result.components,
                                                   *result.links]})


def _ensure_systems(con, result: ParseResult) -> None:
    wanted: dict[str, Optional[str]] = {}
    for x in [*result.components, *result.links, *result.runs]:
        wanted.setdefault(x.system_id, x.source)
    for r in result.runs:
        for m in r.measurements:
            if m.system_id:
                wanted.setdefault(m.system_id, m.source or r.source)
    if not wanted:
        return
    have = {r[0] for r in con.execute("SELECT system_id FROM systems WHERE list_contains(?, system_id)",
                                      [list(wanted)]).fetchall()}
    for sid, src in wanted.items():
        if sid not in have:
            upsert_system(con, System(system_id=sid, name=sid, source=src))


def _insert_components(con, comps: list[Component]) -> int:
    if not comps:
        return 0
    systems = sorted({c.system_id for c in comps})
    have = {(r[0], r[1]) for r in con.execute(
        "SELECT system_id, component_id FROM components WHERE list_contains(?, system_id)", [systems]).fetchall()}
    new, seen = [], set()
    for c in comps:
        key = (c.system_id, c.component_id)
        if key in have:
            insert_component(con, c)  # merges attrs into the stored one
            continue
        if key in seen:
            continue
        seen.add(key)
        new.append([c.system_id, c.component_id, c.kind, c.label, c.parent, _json(c.attrs), c.source])
    if new:
        _bulk_insert(con, "components", ("system_id", "component_id", "kind", "label", "parent", "attrs",
                                         "source"), new)
    return len(new)


def _insert_links(con, links: list[Link]) -> int:
    if not links:
        return 0
    systems = sorted({l.system_id for l in links})
    have = {tuple(r) for r in con.execute(
        "SELECT system_id, a, b, link_type FROM links WHERE list_contains(?, system_id)", [systems]).fetchall()}
    new = []
    for l in links:
        a, b = (l.a, l.b) if l.directed or l.a <= l.b else (l.b, l.a)
        key = (l.system_id, a, b, l.link_type)
        if key in have:
            continue
        have.add(key)
        new.append([l.system_id, a, b, l.link_type, l.count, l.bw_gbps_per_dir, l.directed, l.note, l.source])
    if new:
        _bulk_insert(con, "links", ("system_id", "a", "b", "link_type", "count", "bw_gbps_per_dir", "directed",
                                    "note", "source"), new)
    return len(new)


def ingest_file(con, path: Path, *, system_id: Optional[str] = None, display_name: Optional[str] = None,
                parser_name: Optional[str] = None, origin: str = "ingested") -> LoadReport:
    """Parse and load one file atomically. Never raises for bad input: the report says what happened."""
    name = display_name or str(path)
    report = LoadReport(path=name, status="failed")
    try:
        digest = file_hash(path)
        if _first(con.execute("SELECT path FROM files WHERE content_hash = ?", [digest])):
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
        first_run = _first(con.execute("SELECT coalesce(max(run_id), 0) + 1 FROM runs"))[0]
        write_result(con, result, source_file=name, content_hash=digest, origin=origin, report=report)
        summaries.add(con, first_run)   # in the same transaction: a failed load adds no summary either
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
