"""Small helpers shared by the text-table parsers (nccl-tests, OSU, mgbench, bandwidthTest, nvidia-smi).

Not a parser: it registers nothing. Everything here is about reading console output robustly: ANSI
colour codes, CRLF, tabs versus spaces, and telling a complete file from one cut off mid-line.
"""
from __future__ import annotations

import re
from typing import Optional

from ingest.registry import ParseContext, open_text

ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# CI logs and `ts`/`tee` wrappers prefix lines with a timestamp; strip the common shapes.
TS_PREFIX_RE = re.compile(
    r"^(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?\s+"
    r"|\d{2}:\d{2}:\d{2}\s{2,})")

# nccl-tests / CUDA data type names -> precision
DTYPE_PRECISION = {
    "float": "fp32", "float32": "fp32", "half": "fp16", "float16": "fp16", "double": "fp64",
    "float64": "fp64", "bfloat16": "bf16", "bf16": "bf16", "int8": "int8", "char": "int8",
    "uint8": "uint8", "int32": "int32", "int": "int32", "uint32": "uint32", "int64": "int64",
    "uint64": "uint64", "f8e4m3": "fp8_e4m3", "f8e5m2": "fp8_e5m2", "fp8_e4m3": "fp8_e4m3",
    "fp8_e5m2": "fp8_e5m2",
}


def clean(line: str) -> str:
    """One console line without newline, ANSI codes or a CI timestamp prefix."""
    line = line.rstrip("\r\n")
    if "\x1b" in line:
        line = ANSI_RE.sub("", line)
    if line[:1].isdigit() or line[:1] == "[":
        m = TS_PREFIX_RE.match(line)
        if m:
            line = line[m.end():]
    return line


def read_lines(ctx: ParseContext) -> tuple[list[str], bool]:
    """All lines of the file (cleaned) and whether the file ended with a newline.

    A console log cut off by a full disk, a killed job or a careless copy almost never ends on a
    newline; parsers use that to reject a table cut mid-row rather than store a half-printed number.
    """
    with open_text(ctx.path) as f:
        text = f.read()
    ends_nl = text.endswith("\n") or text.endswith("\r")
    return [clean(l) for l in text.splitlines()], ends_nl


def src(ctx: ParseContext, lineno: int) -> str:
    return f"{ctx.source_name} line {lineno}"


def num(tok: str) -> Optional[float]:
    """A number as printed, or None for N/A, '-', 'nan', blanks."""
    t = tok.strip().rstrip(",")
    if not t or t.upper() in ("N/A", "NA", "-", "NAN", "INF", "-INF"):
        return None
    try:
        return float(t)
    except ValueError:
        return None


def is_int(tok: str) -> bool:
    return tok.isdigit()


def precision_of(dtype: Optional[str]) -> Optional[str]:
    if not dtype:
        return None
    return DTYPE_PRECISION.get(dtype.lower())
