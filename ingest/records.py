"""The records every parser produces and the loader consumes.

One shape for every format is what lets a new format be one new file: a parser only has to
say what it found, in these terms; it never touches the database.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Optional


@dataclass
class System:
    system_id: str
    name: str
    aliases: list[str] = field(default_factory=list)
    vendor: Optional[str] = None
    kind: Optional[str] = None
    description: Optional[str] = None
    source: Optional[str] = None


@dataclass
class Component:
    system_id: str
    component_id: str
    kind: str
    label: Optional[str] = None
    parent: Optional[str] = None
    attrs: dict[str, Any] = field(default_factory=dict)
    source: Optional[str] = None


@dataclass
class Link:
    system_id: str
    a: str
    b: str
    link_type: str
    count: int = 1
    bw_gbps_per_dir: Optional[float] = None
    directed: bool = False
    note: Optional[str] = None
    source: Optional[str] = None


@dataclass
class Measurement:
    metric: str
    value: float
    unit: str
    operation: Optional[str] = None
    src: Optional[str] = None
    dst: Optional[str] = None
    direction: Optional[str] = None
    msg_bytes: Optional[int] = None
    count: Optional[int] = None
    count_kind: Optional[str] = None
    condition: Optional[str] = None
    precision: Optional[str] = None
    statistic: Optional[str] = None
    app: Optional[str] = None
    library: Optional[str] = None
    params: dict[str, Any] = field(default_factory=dict)
    orig_value: Optional[str] = None
    orig_unit: Optional[str] = None
    note: Optional[str] = None
    source: Optional[str] = None
    system_id: Optional[str] = None  # defaults to the run's system


@dataclass
class JsonArrayParts:
    """A trace given as temporary JSON-array files of Chrome trace events, for DuckDB to read natively.

    `parts` yields paths as they become ready (a producer may still be writing later ones); the
    loader deletes each part once loaded and calls `parts.close()` (if it has one) when done.
    """

    parts: Iterable[str]
    rank: Optional[int] = None
    split: bool = True  # parts were cut heuristically; a parse error means: retry unsplit


@dataclass
class Run:
    """One execution of one tool on one system: the unit re-ingestion and provenance work on."""

    tool: str
    system_id: str
    experiment: Optional[str] = None
    tool_version: Optional[str] = None
    params: dict[str, Any] = field(default_factory=dict)
    source: Optional[str] = None  # citation used for measurements that carry none
    measurements: list[Measurement] = field(default_factory=list)
    # Traces are streamed: an iterator of JsonArrayParts, consumed once by the loader.
    trace_batches: Optional[Iterator[Any]] = None


@dataclass
class ParseResult:
    systems: list[System] = field(default_factory=list)
    components: list[Component] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class ParseError(ValueError):
    """A file that is not (or no longer) what its parser expects: truncated, foreign, empty."""


class RetryUnsplit(ParseError):
    """A file split into parts for speed did not load; the loader retries it as one part."""
