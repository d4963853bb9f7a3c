"""Format detection: one parser per format, chosen from the file's content.

Parsers register themselves with :func:`register`; nothing here knows any format. Detection reads
only the head of a file (decompressed if gzipped) so that a multi-GB trace is never read twice.
"""
from __future__ import annotations

import gzip
import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from ingest.records import ParseError, ParseResult

HEAD_BYTES = 256 * 1024


@dataclass
class ParseContext:
    path: Path
    head: str                   # first HEAD_BYTES of the (decompressed) file, as text
    system_id: Optional[str] = None  # forced by the user (--system)
    display_name: Optional[str] = None  # how the file is named in sources (relative path)
    options: dict = field(default_factory=dict)  # parser knobs set by the loader (e.g. split=False)

    @property
    def source_name(self) -> str:
        return self.display_name or self.path.name


@dataclass
class Parser:
    name: str
    sniff: Callable[[ParseContext], bool]
    parse: Callable[[ParseContext], ParseResult]
    description: str = ""
    priority: int = 50  # lower sniffs first: specific formats before generic ones


_PARSERS: list[Parser] = []


def register(name: str, sniff: Callable[[ParseContext], bool], *, description: str = "",
             priority: int = 50) -> Callable:
    """Decorator for a module's parse function."""
    def deco(parse: Callable[[ParseContext], ParseResult]):
        _PARSERS.append(Parser(name, sniff, parse, description, priority))
        _PARSERS.sort(key=lambda p: p.priority)
        return parse
    return deco


def _load_all() -> None:
    import ingest.parsers as pkg
    for mod in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"ingest.parsers.{mod.name}")


def parsers() -> list[Parser]:
    if not _PARSERS:
        _load_all()
    return list(_PARSERS)


def open_text(path: Path):
    """Open a file as text, transparently gunzipping (by magic bytes, not by name)."""
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, "rt", encoding="utf-8", errors="replace")


def open_binary(path: Path):
    with open(path, "rb") as f:
        magic = f.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rb")
    return open(path, "rb")


def read_head(path: Path, n: int = HEAD_BYTES) -> str:
    try:
        with open_binary(path) as f:
            raw = f.read(n)
    except (OSError, EOFError) as e:
        raise ParseError(f"cannot read file: {e}") from e
    if b"\x00" in raw[:4096]:
        raise ParseError("binary file (not a benchmark output or trace this tool knows)")
    return raw.decode("utf-8", errors="replace")


def make_context(path: Path, system_id: Optional[str] = None,
                 display_name: Optional[str] = None) -> ParseContext:
    return ParseContext(path=path, head=read_head(path), system_id=system_id,
                        display_name=display_name)


def detect(ctx: ParseContext) -> Parser:
    if not ctx.head.strip():
        raise ParseError("empty file")
    for p in parsers():
        try:
            if p.sniff(ctx):
                return p
        except Exception:  # a sniffer must never take detection down
            continue
    known = ", ".join(p.name for p in parsers())
    raise ParseError(f"unknown format (known formats: {known})")


def get(name: str) -> Parser:
    for p in parsers():
        if p.name == name:
            return p
    raise KeyError(name)
