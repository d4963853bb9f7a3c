"""Questions written as code: a call (`lookup(system='ipu16', metric='clock')`, `heatmap(system='ac922_yme',
p2p='off')`), key=value pairs (`system=dgx2 metric=temperature`) or SQL (`SELECT busbw FROM h200 WHERE op =
'reduce_scatter' AND bytes = 64MiB AND in_place`, `GROUP BY gpu_count: dgx2 maxspflops`).

Engineers who live in notebooks type questions this way. The reader and the model know words, not syntax, so the
code is rewritten to the words it stands for (the values, the function's name as what it asks for) before anything
reads it; the answer's notes show the rewrite. Nothing of the code is ever run or pasted into SQL: it is read as a
question like any other, and its values become slots, which travel as parameters.
"""
from __future__ import annotations

import re
from typing import Optional

_IDENT = r"[A-Za-z_][\w.]*"
_VALUE = r"""(?:'[^']*'|"[^"]*"|[\w.+/-]+)"""
_CALL = re.compile(rf"^\s*(?P<fn>{_IDENT})\s*\((?P<args>.*)\)\s*;?\s*$", re.S)
_PAIR = re.compile(rf"(?P<k>{_IDENT})\s*(?:=|==|:)\s*(?P<v>{_VALUE})")
_PAIRS_ONLY = re.compile(rf"^\s*(?:{_IDENT}\s*=\s*{_VALUE}[\s,;&]*)+$")
_SELECT = re.compile(r"^\s*select\s+(?P<cols>.+?)\s+from\s+(?P<table>[\w.-]+)(?:\s+where\s+(?P<where>.+?))?"
                     r"(?:\s+group\s+by\s+(?P<group>[\w.]+))?\s*;?\s*$", re.I | re.S)
_GROUP_BY = re.compile(r"^\s*group\s+by\s+(?P<group>[\w.]+)\s*:\s*(?P<rest>.+)$", re.I | re.S)
# function-name words that are no part of the question ("get", "lookup", "fetch") and those that name what is asked
_NO_WORDS = {"get", "lookup", "look", "up", "fetch", "query", "find", "value", "values", "select", "show", "ask", "q"}
_FN_WORDS = {"heatmap": "heatmap", "matrix": "matrix", "grid": "grid", "sweep": "size sweep", "curve": "curve",
             "scaling": "scaling", "scale": "scaling", "topology": "topology", "graph": "graph", "links": "links",
             "compare": "compare", "list": "list", "inventory": "inventory", "trace": "trace", "breakdown": "breakdown",
             "efficiency": "efficiency"}
# keys whose value is said with a word before or after it
_SETTINGS = {"p2p": "p2p", "peer": "p2p", "cc": "congestion control", "tensor_cores": "tensor cores"}
_COUNT_KEYS = {"gpus": "gpus", "ngpus": "gpus", "gpu_count": "gpus", "n_gpus": "gpus", "nodes": "nodes",
               "n_nodes": "nodes", "cores": "cores", "ranks": "ranks", "tiles": "tiles", "ipus": "ipus"}
# a GROUP BY column: the axis a curve is drawn over
_AXES = {"gpu_count": "over gpu counts", "msg_size": "over message sizes", "gpus": "over gpu counts", "count": "over counts", "nodes": "over node counts",
         "cores": "over core counts", "bytes": "over message sizes", "size": "over message sizes",
         "msg_bytes": "over message sizes", "message_size": "over message sizes", "tiles": "over tile counts"}


def _words(name: str) -> str:
    return re.sub(r"[_.]+", " ", name).strip()


def _unquote(v: str) -> str:
    return v[1:-1] if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"" else v


def _pair_words(key: str, value: str) -> str:
    k, v = key.lower(), _unquote(value)
    if k in ("x", "x_axis", "xaxis", "over", "by", "group_by") and v.lower() in _AXES:
        return _AXES[v.lower()]          # plot(x=msg_bytes, ...): the axis the curve is drawn over
    if k in _SETTINGS:
        return f"{_SETTINGS[k]} {v}"
    if k in _COUNT_KEYS:
        return f"{v} {_COUNT_KEYS[k]}"
    if k in ("bytes", "size", "msg_bytes", "message_size", "msg_size"):
        return re.sub(r"^(\d+)([A-Za-z]+)$", r"\1 \2", v) + ("" if re.search(r"[A-Za-z]", v) else " bytes")
    if k in ("in_place", "inplace") and v.lower() in ("true", "1", "yes"):
        return "in place"
    if k in ("in_place", "inplace") and v.lower() in ("false", "0", "no"):
        return "out of place"
    return _words(v) if re.fullmatch(r"[\w.+/-]+", v) and "_" in v and k not in ("system", "sys", "machine") \
        else v


def _condition_words(where: str) -> list[str]:
    out = []
    for part in re.split(r"\s+and\s+|,", where, flags=re.I):
        m = _PAIR.search(part)
        if m:
            out.append(_pair_words(m.group("k"), m.group("v")))
        elif part.strip():
            out.append(_words(part.strip()))   # a bare flag ("in_place")
    return out


def plain_query(text: str) -> Optional[str]:
    """The words a question written as code stands for, or None when it is no code."""
    group = _GROUP_BY.match(text or "")
    if group:
        rest = plain_query(group.group("rest")) or group.group("rest").strip()
        axis = _AXES.get(group.group("group").lower(), "by " + _words(group.group("group")))
        return f"{rest} {axis}"
    sel = _SELECT.match(text or "")
    if sel:
        cols = [] if sel.group("cols").strip() == "*" else [_words(c.strip()) for c in sel.group("cols").split(",")]
        words = [*cols, sel.group("table"), *(_condition_words(sel.group("where")) if sel.group("where") else [])]
        if sel.group("group"):
            words.append(_AXES.get(sel.group("group").lower(), "by " + _words(sel.group("group"))))
        return " ".join(w for w in words if w)
    call = _CALL.match(text or "")
    if call and (_PAIR.search(call.group("args")) or not call.group("args").strip()):
        fn = [w for w in re.split(r"[_.]+", call.group("fn").lower()) if w and w not in _NO_WORDS]
        head = " ".join(_FN_WORDS.get(w, w) for w in fn)
        args = [_pair_words(m.group("k"), m.group("v")) for m in _PAIR.finditer(call.group("args"))]
        return " ".join(x for x in [head, *args] if x)
    if _PAIRS_ONLY.match(text or "") and len(_PAIR.findall(text)) >= 1:
        return " ".join(_pair_words(m.group("k"), m.group("v")) for m in _PAIR.finditer(text))
    return None
