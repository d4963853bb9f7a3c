"""PyTorch profiler (Kineto) and other Chrome trace-event JSON, plain or gzipped -> trace_events.

Traces reach millions of events and hundreds of MB, so the document is never held in Python: a
background thread streams (and gunzips) the file once and cuts the `traceEvents` array into
temporary JSON-array part files at event boundaries, while DuckDB's native JSON reader loads
finished parts into trace_events, several at a time on all cores. Only the small header (rank,
devices) and the tail of the array are looked at here.
"""
from __future__ import annotations

import os
import queue
import re
import tempfile
import threading
from pathlib import Path
from typing import BinaryIO, Iterator, Optional

import orjson

from ingest import system_hints
from ingest.records import JsonArrayParts, ParseError, ParseResult, Run
from ingest.registry import ParseContext, open_binary, register

CHUNK = 8 << 20
TAIL = 1 << 20
PART = 48 << 20  # bytes per part file
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


def _cut(buf: bytearray, floor: int) -> int:
    """A likely element boundary in `buf` (index just past an event's `}`), or -1.

    Cheap and not certain (it does not track strings or depth); a wrong cut makes a part invalid
    JSON, which DuckDB rejects, and the loader then retries the file as a single part.
    """
    pos = len(buf)
    while True:
        pos = buf.rfind(b"},", floor, pos)
        if pos < 0:
            return -1
        nxt = bytes(buf[pos + 2:pos + 66]).lstrip(_WS)
        if nxt.startswith(b"{"):
            return pos + 1


def read_header(f: BinaryIO) -> tuple[dict, bool, bytearray]:
    """Read up to the start of the event array: (top-level metadata, bare-array form?, rest)."""
    buf = b""
    while True:
        chunk = f.read(1 << 20)
        if not chunk:
            raise ParseError("no traceEvents array found (not a Chrome/Kineto trace, or truncated)")
        buf += chunk
        stripped = buf.lstrip(_WS)
        if stripped.startswith(b"["):
            return {}, True, bytearray(stripped[1:])
        if (m := _TRACE_KEY.search(buf)):
            return _header_meta(buf[:m.start()]), False, bytearray(buf[m.end():])
        if len(buf) > 64 << 20:
            raise ParseError("no traceEvents array in the first 64 MB")


def _new_part() -> tuple[str, BinaryIO]:
    fd, tmp = tempfile.mkstemp(prefix="hpcask-trace-", suffix=".json")
    out = os.fdopen(fd, "wb")
    out.write(b"[")
    return tmp, out


def iter_parts(f: BinaryIO, bare: bool, pending: bytearray, split: bool) -> Iterator[str]:
    """Yield paths of JSON-array part files holding the rest of the event array, in order."""
    path, body = _new_part()
    try:
        while True:
            try:
                chunk = f.read(CHUNK)
            except (EOFError, OSError) as e:
                raise ParseError(f"truncated or corrupt file: {e}") from e
            if not chunk:
                break
            pending += chunk
            if len(pending) < PART + TAIL:
                continue
            cut = _cut(pending, max(0, len(pending) - (16 << 20))) if split else -1
            view = memoryview(pending)
            if cut > 0:  # close this part at an event boundary, hand it over, start the next
                body.write(view[:cut])
                body.write(b"]")
                seg = bytes(view[cut:cut + 4096])
                view.release()
                rest = seg.lstrip(_WS)
                del pending[:cut + (len(seg) - len(rest)) + (1 if rest.startswith(b",") else 0)]
                body.close()
                done, (path, body) = path, _new_part()
                yield done
            else:
                body.write(view[:-TAIL])
                view.release()
                del pending[:-TAIL]
        tail = bytes(pending)
        window = tail[-2 * TAIL:]
        end = _array_end(window, bare)
        if end is None:
            raise ParseError("truncated trace: the traceEvents array does not end properly")
        body.write(tail[:len(tail) - len(window) + end])
        body.write(b"]")
        body.close()
        yield path
    except BaseException:
        body.close()
        Path(path).unlink(missing_ok=True)
        raise


class BackgroundParts:
    """Runs iter_parts in a thread (decompression overlaps DuckDB's parsing); iterate for paths.

    Closing it early stops the thread and removes every part file not yet handed out.
    """

    def __init__(self, f: BinaryIO, bare: bool, pending: bytearray, split: bool, depth: int = 3):
        self._q: queue.Queue = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, args=(f, bare, pending, split), daemon=True)
        self._t.start()

    def _run(self, f, bare, pending, split) -> None:
        try:
            with f:
                for p in iter_parts(f, bare, pending, split):
                    while not self._stop.is_set():
                        try:
                            self._q.put(("part", p), timeout=0.1)
                            break
                        except queue.Full:
                            continue
                    if self._stop.is_set():
                        Path(p).unlink(missing_ok=True)
                        return
            self._q.put(("end", None))
        except BaseException as e:  # handed to the consumer
            self._q.put(("error", e))

    def __iter__(self) -> Iterator[str]:
        while True:
            kind, val = self._q.get()
            if kind == "part":
                yield val
            elif kind == "end":
                return
            else:
                raise val if isinstance(val, ParseError) else ParseError(f"cannot read trace: {val}")

    def close(self) -> None:
        self._stop.set()
        while self._t.is_alive() or not self._q.empty():
            try:
                kind, val = self._q.get(timeout=0.1)
            except queue.Empty:
                continue
            if kind == "part":
                Path(val).unlink(missing_ok=True)
        self._t.join()


def _rank(meta: dict, path: Path) -> Optional[int]:
    di = meta.get("distributedInfo")
    if isinstance(di, dict) and isinstance(di.get("rank"), int):
        return di["rank"]
    m = _RANK_FROM_NAME.search(path.name)
    return int(m.group(1)) if m else None


@register("chrome_trace", sniff, description="PyTorch profiler (Kineto) / Chrome trace JSON, plain or .gz",
          priority=20)
def parse(ctx: ParseContext) -> ParseResult:
    try:
        f = open_binary(ctx.path)
        meta, bare, pending = read_header(f)
    except (EOFError, OSError) as e:
        raise ParseError(f"truncated or corrupt file: {e}") from e
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
    split = ctx.options.get("split", True)
    parts = JsonArrayParts(parts=BackgroundParts(f, bare, pending, split), rank=rank, split=split)
    run = Run(tool="pytorch_profiler" if "schemaVersion" in meta else "chrome_trace",
              system_id=sid, experiment=f"trace_rank{rank}" if rank is not None else "trace",
              params=params, source=ctx.source_name, trace_batches=iter([parts]))
    return ParseResult(runs=[run])
