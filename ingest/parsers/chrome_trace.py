"""PyTorch profiler (Kineto) and other Chrome trace-event JSON, plain or gzipped -> trace_events.

Traces reach millions of events and hundreds of MB, so the document is never held in Python:
the file is streamed (and gunzipped) once, the `traceEvents` array is copied to a temporary file
as it passes, and DuckDB's native, parallel JSON reader loads that array straight into
trace_events. Only the small header (rank, devices) and the tail are looked at here.
"""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Iterator, Optional

import orjson

from ingest import system_hints
from ingest.records import JsonArrayFile, ParseError, ParseResult, Run
from ingest.registry import ParseContext, open_binary, register

CHUNK = 8 << 20
TAIL = 1 << 20
_TRACE_KEY = re.compile(rb'"traceEvents"\s*:\s*\[')
_RANK_FROM_NAME = re.compile(r"rank[_-]?(\d+)", re.I)
_WS = b" \t\r\n"


def sniff(ctx: ParseContext) -> bool:
    h = ctx.head.lstrip()
    if h.startswith("{") and re.search(r'"traceEvents"\s*:\s*\[', ctx.head):
        return True
    # JSON array format: [ {"name": ..., "ph": "X", "ts": ...}, ... ]
    return h.startswith("[") and re.match(r'\[\s*\{[^{}]*"ph"\s*:', h) is not None


def _header_meta(header: bytes) -> dict:
    """Top-level keys before traceEvents (Kineto puts distributedInfo and deviceProperties there)."""
    text = header.rstrip(_WS).rstrip(b",")
    try:
        meta = orjson.loads(text + b"}")
        return meta if isinstance(meta, dict) else {}
    except orjson.JSONDecodeError:
        return {}


def _array_end(tail: bytes, bare: bool) -> Optional[int]:
    """Index in `tail` just past the last event of the array, or None if the array is cut short.

    Object form: the array's `]` is the last one that follows an event (`}`) or `[` and after which
    the rest closes the top-level object validly. Array form (Chrome allows the `]` to be missing):
    the last `}`.
    """
    if bare:
        t = tail.rstrip(_WS)
        if t.endswith(b"]"):
            t = t[:-1].rstrip(_WS)
        t = t.rstrip(b",").rstrip(_WS)
        return len(t) if t.endswith(b"}") else None
    pos = len(tail)
    while True:
        pos = tail.rfind(b"]", 0, pos)
        if pos < 0:
            return None
        before = tail[:pos].rstrip(_WS)
        if before.endswith((b"}", b"[")):
            try:
                orjson.loads(b'{"_":0' + tail[pos + 1:])
                return len(before)
            except orjson.JSONDecodeError:
                pass


def copy_event_array(path: Path, meta_out: dict) -> tuple[str, int]:
    """Stream the traceEvents array into a temporary JSON-array file; returns (path, bytes)."""
    try:
        f = open_binary(path)
    except OSError as e:
        raise ParseError(f"cannot open: {e}") from e
    fd, tmp = tempfile.mkstemp(prefix="hpcask-trace-", suffix=".json")
    ok = False
    try:
        with f, os.fdopen(fd, "wb") as out:
            buf = b""
            while True:
                chunk = f.read(1 << 20)
                if not chunk:
                    raise ParseError("no traceEvents array found (not a Chrome/Kineto trace, or truncated)")
                buf += chunk
                stripped = buf.lstrip(_WS)
                if stripped.startswith(b"["):
                    bare, rest = True, stripped[1:]
                    break
                if (m := _TRACE_KEY.search(buf)):
                    meta_out.update(_header_meta(buf[:m.start()]))
                    bare, rest = False, buf[m.end():]
                    break
                if len(buf) > 64 << 20:
                    raise ParseError("no traceEvents array in the first 64 MB")
            out.write(b"[")
            written = 1
            tail = rest
            while True:
                chunk = f.read(CHUNK)
                if not chunk:
                    break
                # keep the last TAIL bytes back: the array's end is decided there
                tail += chunk
                if len(tail) > 2 * TAIL:
                    out.write(tail[:-TAIL])
                    written += len(tail) - TAIL
                    tail = tail[-TAIL:]
            end = _array_end(tail, bare)
            if end is None:
                raise ParseError("truncated trace: the traceEvents array does not end properly")
            out.write(tail[:end])
            out.write(b"]")
            written += end + 1
        ok = True
        return tmp, written
    except (EOFError, OSError) as e:
        raise ParseError(f"truncated or corrupt file: {e}") from e
    finally:
        if not ok:
            os.unlink(tmp)


def _rank(meta: dict, path: Path) -> Optional[int]:
    di = meta.get("distributedInfo")
    if isinstance(di, dict) and isinstance(di.get("rank"), int):
        return di["rank"]
    m = _RANK_FROM_NAME.search(path.name)
    return int(m.group(1)) if m else None


@register("chrome_trace", sniff, description="PyTorch profiler (Kineto) / Chrome trace JSON, plain or .gz",
          priority=20)
def parse(ctx: ParseContext) -> ParseResult:
    meta: dict = {}
    tmp, size = copy_event_array(ctx.path, meta)
    if size <= 2:
        os.unlink(tmp)
        raise ParseError("trace has no events")
    devices = [d.get("name", "") for d in meta.get("deviceProperties", []) if isinstance(d, dict)]
    sid = system_hints.resolve(ctx.system_id, ctx.path, None, None)
    if sid == "unknown_system" and devices:
        sid = f"node_{len(devices)}x_{system_hints.slug(devices[0])}"
    rank = _rank(meta, ctx.path)
    params: dict = {k: meta[k] for k in ("schemaVersion", "trace_id") if k in meta}
    di = meta.get("distributedInfo")
    if isinstance(di, dict):
        params.update({k: di.get(k) for k in ("rank", "world_size", "backend", "nccl_version")})
    if devices:
        params["devices"] = devices
    run = Run(tool="pytorch_profiler" if "schemaVersion" in meta else "chrome_trace",
              system_id=sid, experiment=f"trace_rank{rank}" if rank is not None else "trace",
              params=params, source=ctx.source_name,
              trace_batches=_one(JsonArrayFile(path=tmp, rank=rank, delete=True)))
    return ParseResult(runs=[run])


def _one(x) -> Iterator:
    yield x
