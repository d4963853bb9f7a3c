"""Small helpers shared by the text-table parsers (not a parser: registers nothing).

The CUDA-sample style square matrices (`D\\D 0 1 ...` followed by one row per GPU) appear in both the
p2pBandwidthLatencyTest output and Tartan's per-packet-size sweeps; both must reject a matrix cut short.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from ingest.records import ParseError

_INT_RE = re.compile(r"^\d+$")
_NUM_RE = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$")


def is_number(tok: str) -> bool:
    return bool(_NUM_RE.match(tok))


@dataclass
class Matrix:
    title: str
    corner: str             # "D\\D", "GPU" or "CPU": the header's first cell
    cols: list[int]
    rows: list[int]
    cells: list[list[str]]  # as printed (strings), cells[r][c]
    header_line: int        # 1-based line numbers
    first_row_line: int

    @property
    def n(self) -> int:
        return len(self.cols)

    def row_line(self, r: int) -> int:
        return self.first_row_line + r


def parse_matrix_header(line: str, corners=("D\\D",)) -> Optional[tuple[str, list[int]]]:
    toks = line.split()
    if not toks or toks[0] not in corners or len(toks) < 2:
        return None
    if not all(_INT_RE.match(t) for t in toks[1:]):
        return None
    cols = [int(t) for t in toks[1:]]
    return toks[0], cols


def read_matrix(lines: list[str], i: int, title: str, source: str, corners=("D\\D",),
                skip_blank_before: bool = True) -> tuple[Matrix, int]:
    """Read a square matrix whose header is at lines[i] (0-based; blank lines skipped first).

    Returns the matrix and the index of the first line after it. Raises ParseError if the header is
    missing or the matrix is cut short / garbled (wrong row index, wrong number of cells, non-numbers).
    """
    n_lines = len(lines)
    if skip_blank_before:
        while i < n_lines and not lines[i].strip():
            i += 1
    if i >= n_lines:
        raise ParseError(f"{source}: file ends right after the section title {title!r} (truncated)")
    hdr = parse_matrix_header(lines[i], corners)
    if hdr is None:
        raise ParseError(f"{source} line {i + 1}: expected the column header of {title!r} "
                         f"({'/'.join(corners)} 0 1 ...), got {lines[i].strip()[:60]!r}")
    corner, cols = hdr
    if cols != list(range(len(cols))):
        raise ParseError(f"{source} line {i + 1}: column ids of {title!r} are not 0..n-1: {cols}")
    n = len(cols)
    header_line = i + 1
    cells: list[list[str]] = []
    rows: list[int] = []
    j = i + 1
    for r in range(n):
        if j >= n_lines:
            raise ParseError(f"{source}: file ends inside the {title!r} matrix after {r} of {n} rows "
                             f"(truncated)")
        toks = lines[j].split()
        if (len(toks) != n + 1 or not _INT_RE.match(toks[0]) or int(toks[0]) != r
                or not all(is_number(t) for t in toks[1:])):
            raise ParseError(f"{source} line {j + 1}: row {r} of the {title!r} matrix is incomplete or "
                             f"garbled (expected '{r}' and {n} numbers, got {lines[j].strip()[:80]!r})")
        rows.append(r)
        cells.append(toks[1:])
        j += 1
    return Matrix(title, corner, cols, rows, cells, header_line, header_line + 1), j


def read_lines(ctx) -> list[str]:
    from ingest.registry import open_text
    with open_text(ctx.path) as f:
        return [ln.rstrip("\r\n").replace("\r", "") for ln in f]


def scaled(raw: str, factor) -> float:
    """float(raw) * factor without binary noise (0.227037 msec -> 227.037 us, not 227.03699999999998)."""
    from decimal import Decimal
    return float(Decimal(raw) * Decimal(str(factor)))
