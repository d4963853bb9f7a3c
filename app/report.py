"""Batch reports: many questions -> one self-contained HTML file (and the raw results as JSON beside it).

The HTML must open on an air-gapped machine and print cleanly, so everything is inline: CSS in a <style>,
plotly's JavaScript once in the head, each chart as a plotly div. Every text that came from a user or the
database goes through html.escape. A question that failed or is out of scope stays in the report (in place
and in a section of its own): a report that silently drops questions would read as a clean acceptance test.
"""
from __future__ import annotations

import datetime as dt
import html
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from app import __version__
from app.intents._common import fmt_bytes
from app.report_questions import Question
from app.result import Result

MAX_TABLE_ROWS = 25        # rows shown per question; all of them are in the JSON beside the report
MAX_SOURCES = 12
ROW_COLUMNS = ("system_id", "src", "dst", "a", "b", "operation", "metric", "direction", "msg_bytes", "count",
               "count_kind", "condition", "precision", "statistic", "app", "value", "unit", "source")
BYTE_COLUMNS = {"msg_bytes", "min_bytes", "max_bytes"}
SKIP_COLUMNS = {"source"}  # listed under "Sources" instead of repeated on every row

Progress = Callable[[int, int, Question], None]


# ------------------------------------------------------------------------------------------------ running

def status_of(res: Result) -> str:
    """answered / out_of_scope / failed: the three ways a report counts a question."""
    if res.error:
        return "failed"
    if res.intent == "out_of_scope":
        return "out_of_scope"
    return "answered"


def run_report(questions: list[Question], asker, progress: Optional[Progress] = None) -> list[Result]:
    """Ask every question with one loaded Asker; one Result per question, in order, whatever happens."""
    results: list[Result] = []
    for i, q in enumerate(questions):
        results.append(_ask_one(q, asker))
        if progress:
            progress(i + 1, len(questions), q)
    return results


def _ask_one(q: Question, asker) -> Result:
    label = q.text or (str(q.audio) if q.audio else "")
    try:
        if q.text is not None:
            return asker.ask(q.text, qid=q.id)
        return asker.ask_audio(q.audio, qid=q.id)  # unusable audio comes back as a Result with `error`
    except Exception as e:  # one bad question must not stop the report; it is listed with the reason
        return Result(question=label, intent="out_of_scope", id=q.id, error=f"{type(e).__name__}: {e}")


# ---------------------------------------------------------------------------------------------- rendering

@dataclass
class _Item:
    n: int
    q: Question
    res: Result

    @property
    def anchor(self) -> str:
        return f"q{self.n}"

    @property
    def status(self) -> str:
        return status_of(self.res)

    @property
    def heading(self) -> str:
        return self.q.title or self.res.question or self.q.label


def _items(results: list[Result], questions: Optional[list[Question]]) -> list[_Item]:
    if questions is not None and len(questions) != len(results):
        raise ValueError(f"{len(questions)} questions but {len(results)} results")
    out = []
    for i, res in enumerate(results):
        q = questions[i] if questions is not None else Question(id=res.id or f"q{i + 1}", text=res.question)
        out.append(_Item(i + 1, q, res))
    return out


def summary_counts(results: list[Result]) -> dict[str, int]:
    c = {"questions": len(results), "answered": 0, "out_of_scope": 0, "failed": 0}
    for r in results:
        c[status_of(r)] += 1
    return c


def render_html(results: list[Result], *, title: str, questions: Optional[list[Question]] = None,
                description: Optional[str] = None, db_path: Optional[Path] = None,
                model_dir: Optional[Path] = None, generated: Optional[dt.datetime] = None) -> str:
    """The whole report as one HTML string. `questions` (same order as results) adds titles and sections."""
    items = _items(results, questions)
    generated = generated or dt.datetime.now(dt.timezone.utc)
    charts = {it.n: _chart_div(it) for it in items}
    need_js = any(c[0] for c in charts.values())
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{e(title)}</title>", f"<style>{CSS}</style>"]
    if need_js:
        parts.append(_plotly_js())
    parts.append("</head><body><main>")
    parts.append(f"<h1>{e(title)}</h1>")
    if description:
        parts.append(f'<p class="lead">{e(description)}</p>')
    parts.append(_summary(items, db_path, model_dir, generated))
    parts.append(_toc(items))
    sections = _sections(items)
    for sec, sec_items in sections:
        if len(sections) > 1 or sec:
            parts.append(f'<section class="section"><h2 id="{_sec_anchor(sections, sec)}">{e(sec or "Questions")}</h2>')
        else:
            parts.append('<section class="section">')
        for it in sec_items:
            parts.append(_question(it, charts[it.n]))
        parts.append("</section>")
    parts.append(_problems(items))
    parts.append(f'<footer>hpcask {e(__version__)} &middot; generated {e(_when(generated))}</footer>')
    parts.append("</main></body></html>")
    return "\n".join(parts)


def _when(t: dt.datetime) -> str:
    return t.astimezone(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _sections(items: list[_Item]) -> list[tuple[str, list[_Item]]]:
    order: list[str] = []
    groups: dict[str, list[_Item]] = {}
    for it in items:
        s = it.q.section or ""
        if s not in groups:
            order.append(s)
            groups[s] = []
        groups[s].append(it)
    return [(s, groups[s]) for s in order]


def _sec_anchor(sections: list[tuple[str, list[_Item]]], sec: str) -> str:
    return f"s{[s for s, _ in sections].index(sec) + 1}"


STATUS_LABEL = {"answered": "answered", "out_of_scope": "out of scope", "failed": "failed"}


def _badge(status: str) -> str:
    return f'<span class="badge {status}">{STATUS_LABEL[status]}</span>'


def _summary(items: list[_Item], db_path, model_dir, generated) -> str:
    e = html.escape
    c = summary_counts([it.res for it in items])
    total_ms = sum((it.res.timings_ms or {}).get("total") or 0 for it in items)
    rows = [("questions", str(c["questions"])),
            ("answered", str(c["answered"])),
            ("out of scope", str(c["out_of_scope"])),
            ("failed", str(c["failed"])),
            ("database", str(db_path) if db_path else "-"),
            ("date", _when(generated)),
            ("hpcask version", __version__),
            ("answering time", f"{total_ms / 1000:.1f} s")]
    if model_dir:
        rows.insert(5, ("NLU model", str(model_dir)))
    body = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in rows)
    return f'<section class="summary"><h2>Summary</h2><table class="kv" id="summary">{body}</table></section>'


def _toc(items: list[_Item]) -> str:
    e = html.escape
    sections = _sections(items)
    out = ['<nav class="toc"><h2>Contents</h2><ol>']
    for sec, sec_items in sections:
        inner = "".join(f'<li><a href="#{it.anchor}">{e(it.heading)}</a> {_badge(it.status)}</li>'
                        for it in sec_items)
        if len(sections) > 1 or sec:
            out.append(f'<li><a href="#{_sec_anchor(sections, sec)}">{e(sec or "Questions")}</a><ol>{inner}</ol></li>')
        else:
            out.append(inner)
    if any(it.status != "answered" for it in items):
        out.append('<li><a href="#problems">Failed and out-of-scope questions</a></li>')
    out.append("</ol></nav>")
    return "".join(out)


def _question(it: _Item, chart: tuple[str, Optional[str]]) -> str:
    e = html.escape
    r, q = it.res, it.q
    out = [f'<article class="question {it.status}" id="{it.anchor}" data-status="{it.status}">',
           f"<h3>{it.n}. {e(it.heading)} {_badge(it.status)}</h3>"]
    asked = r.question or q.text
    if q.audio is not None:
        out.append(f'<p class="asked">Audio: <code>{e(q.audio.name)}</code>'
                   + (f' &mdash; heard: &ldquo;{e(r.transcript)}&rdquo;' if r.transcript else "") + "</p>")
    elif asked and asked != it.heading:
        out.append(f'<p class="asked">Question: &ldquo;{e(asked)}&rdquo;</p>')
    if r.error:
        out.append(f'<p class="error">Failed: {e(r.error)}</p>')
    elif r.answer:
        out.append(f'<p class="answer">{e(r.answer)}</p>')
    if r.notes:
        out.append('<ul class="notes">' + "".join(f"<li>{e(n)}</li>" for n in r.notes) + "</ul>")
    div, why = chart
    if div:
        out.append(f'<div class="chart">{div}</div>')
    elif why:
        out.append(f'<p class="nochart">{e(why)}</p>')
    if r.rows and it.status == "answered":
        out.append(_rows_table(r.rows))
    srcs = _sources(r.rows)
    if srcs:
        more = f" and {len(srcs) - MAX_SOURCES} more" if len(srcs) > MAX_SOURCES else ""
        out.append('<div class="sources"><b>Sources:</b><ul>'
                   + "".join(f"<li>{e(s)}</li>" for s in srcs[:MAX_SOURCES]) + f"</ul>{e(more)}</div>")
    out.append(_details(r))
    out.append("</article>")
    return "\n".join(out)


def _sources(rows: list[dict[str, Any]]) -> list[str]:
    seen: list[str] = []
    for row in rows:
        s = row.get("source")
        if s and str(s) not in seen:
            seen.append(str(s))
    return seen


def _columns(rows: list[dict[str, Any]]) -> list[str]:
    present = [k for k in rows[0].keys()]
    for row in rows[1:]:
        present += [k for k in row if k not in present]
    filled = [k for k in present if k not in SKIP_COLUMNS and any(_shown(row.get(k)) for row in rows)]
    first = [c for c in ROW_COLUMNS if c in filled]
    return first + [c for c in filled if c not in first]


def _shown(v: Any) -> bool:
    return v is not None and v != "" and v != [] and v != {}


def _cell(v: Any, col: str = "") -> str:
    if v is None:
        return ""
    if col in BYTE_COLUMNS and isinstance(v, int) and not isinstance(v, bool) and v >= 1024:
        return f"{v} ({fmt_bytes(v)})"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return format(v, ".6g")
    if isinstance(v, int):
        return str(v)
    if isinstance(v, (list, tuple, dict)):
        return json.dumps(v, ensure_ascii=False, default=str)
    return str(v)


def _rows_table(rows: list[dict[str, Any]]) -> str:
    e = html.escape
    cols = _columns(rows)
    if not cols:
        return ""
    head = "".join(f"<th>{e(c)}</th>" for c in cols)
    body = []
    for row in rows[:MAX_TABLE_ROWS]:
        body.append("<tr>" + "".join(
            f'<td class="num">{e(_cell(row.get(c), c))}</td>' if isinstance(row.get(c), (int, float))
            and not isinstance(row.get(c), bool) else f"<td>{e(_cell(row.get(c), c))}</td>" for c in cols) + "</tr>")
    left = len(rows) - MAX_TABLE_ROWS
    foot = (f'<p class="more">{left} more row{"s" if left != 1 else ""} not shown '
            f"(all {len(rows)} are in the JSON beside this report).</p>") if left > 0 else ""
    return (f'<div class="rows"><table class="data"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>{foot}</div>')


def _details(r: Result) -> str:
    e = html.escape

    def js(v: Any) -> str:
        return json.dumps(v, ensure_ascii=False, default=str, indent=None)
    t = r.timings_ms or {}
    timing = ", ".join(f"{k} {v:.1f} ms" for k, v in t.items() if isinstance(v, (int, float)))
    kv = [("intent", r.intent), ("confidence", f"{r.confidence:.2f}"), ("slots", js(r.slots)),
          ("chart", js(r.chart.get("kind") if isinstance(r.chart, dict) else None)),
          ("parameters", js(r.params)), ("timings", timing or "-"), ("rows", str(len(r.rows)))]
    if r.id:
        kv.insert(0, ("id", r.id))
    body = "".join(f"<tr><th>{e(k)}</th><td><code>{e(v)}</code></td></tr>" for k, v in kv)
    sql = f'<p><b>SQL</b></p><pre class="sql">{e(r.sql)}</pre>' if r.sql else "<p>No SQL was run.</p>"
    return f'<details><summary>How this was answered</summary><table class="kv">{body}</table>{sql}</details>'


def _problems(items: list[_Item]) -> str:
    e = html.escape
    bad = [it for it in items if it.status != "answered"]
    if not bad:
        return ""
    lis = []
    for it in bad:
        why = it.res.error or it.res.answer or ""
        lis.append(f'<li>{_badge(it.status)} <a href="#{it.anchor}">{it.n}. {e(it.heading)}</a>'
                   f'<br><span class="why">{e(why)}</span></li>')
    return (f'<section class="problems" id="problems"><h2>Failed and out-of-scope questions ({len(bad)})</h2>'
            f'<ul>{"".join(lis)}</ul></section>')


# ------------------------------------------------------------------------------------------------- charts

def _chart_div(it: _Item) -> tuple[str, Optional[str]]:
    """(plotly div, '') or ('', why there is no chart). Chart code lives in app.charts, not here."""
    if it.status != "answered":
        return "", None
    try:
        from app import charts
    except ImportError as e:
        return "", f"(no chart: the chart module is not available: {e})"
    try:
        fig = charts.figure(it.res)
    except Exception as e:  # a chart bug must not lose the answer
        return "", f"(no chart: {type(e).__name__}: {e})"
    if fig is None:
        return "", None
    # the page column sets the width (and paper sets it when printed); the chart keeps its height
    fig.layout.width, fig.layout.autosize = None, True
    div = fig.to_html(full_html=False, include_plotlyjs=False, div_id=f"chart-{it.n}",
                      config={"displaylogo": False, "responsive": True,
                              "showSendToCloud": False})
    return div, None


def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs
    return f'<script type="text/javascript">{get_plotlyjs()}</script>'


# -------------------------------------------------------------------------------------------------- files

def report_json(results: list[Result], *, title: str, questions: Optional[list[Question]] = None,
                db_path: Optional[Path] = None, generated: Optional[dt.datetime] = None) -> dict[str, Any]:
    """The raw results beside the HTML: each entry's `result` is exactly Result.to_dict()."""
    items = _items(results, questions)
    generated = generated or dt.datetime.now(dt.timezone.utc)
    return {
        "title": title,
        "generated": generated.astimezone(dt.timezone.utc).isoformat(timespec="seconds"),
        "hpcask_version": __version__,
        "database": str(db_path) if db_path else None,
        "summary": summary_counts(results),
        "entries": [{"n": it.n, "id": it.q.id, "section": it.q.section, "title": it.q.title,
                     "audio": str(it.q.audio) if it.q.audio else None, "status": it.status,
                     "result": it.res.to_dict()} for it in items],
    }


def json_path_for(html_path: Path) -> Path:
    return Path(html_path).with_suffix(".json")


def check_output(html_path: Path) -> None:
    """Fail before asking anything (minutes of work) if the report could not be written."""
    html_path = Path(html_path)
    if html_path.suffix.lower() not in {".html", ".htm"}:
        raise ValueError(f"{html_path}: the report file must end in .html (the JSON goes beside it)")
    parent = html_path.parent if str(html_path.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"{html_path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise ValueError(f"{html_path}: folder {parent} is not writable")


def write_report(results: list[Result], html_path: Path, *, title: str,
                 questions: Optional[list[Question]] = None, description: Optional[str] = None,
                 db_path: Optional[Path] = None, model_dir: Optional[Path] = None) -> tuple[Path, Path]:
    """Write the .html and the .json beside it (each atomically: a reader never sees half a report)."""
    html_path = Path(html_path)
    check_output(html_path)
    generated = dt.datetime.now(dt.timezone.utc)
    page = render_html(results, title=title, questions=questions, description=description, db_path=db_path,
                       model_dir=model_dir, generated=generated)
    data = report_json(results, title=title, questions=questions, db_path=db_path, generated=generated)
    jpath = json_path_for(html_path)
    _atomic_write(html_path, page)
    _atomic_write(jpath, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return html_path, jpath


def _atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


CSS = """
:root { --fg:#1d2330; --muted:#5b6474; --line:#d8dde6; --ok:#1e7a3c; --oos:#8a6d00; --bad:#b3261e; --bg2:#f5f7fa; }
* { box-sizing: border-box; }
body { margin:0; color:var(--fg); font:15px/1.5 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1080px; margin: 0 auto; padding: 24px 28px 60px; }
h1 { font-size: 1.8em; margin: .2em 0 .6em; }
h2 { font-size: 1.35em; border-bottom: 2px solid var(--line); padding-bottom: .2em; margin-top: 1.6em; }
h3 { font-size: 1.1em; margin: 0 0 .4em; }
a { color: #1a56b0; text-decoration: none; } a:hover { text-decoration: underline; }
code, pre { font-family: "SFMono-Regular", Menlo, Consolas, monospace; font-size: .88em; }
pre.sql { background: var(--bg2); border: 1px solid var(--line); padding: 10px; white-space: pre-wrap; }
table { border-collapse: collapse; }
table.kv th { text-align: left; padding: 2px 14px 2px 0; color: var(--muted); font-weight: 600; vertical-align: top; }
table.kv td { padding: 2px 0; word-break: break-word; }
table.data { font-size: .85em; margin: .4em 0; }
table.data th, table.data td { border: 1px solid var(--line); padding: 3px 7px; text-align: left; }
table.data th { background: var(--bg2); }
table.data td.num { text-align: right; font-variant-numeric: tabular-nums; }
.rows { overflow-x: auto; }
.toc ol { padding-left: 1.6em; } .toc li { margin: 2px 0; }
.badge { font-size: .72em; font-weight: 600; padding: 1px 7px; border-radius: 9px; vertical-align: middle;
         border: 1px solid currentColor; white-space: nowrap; }
.badge.answered { color: var(--ok); } .badge.out_of_scope { color: var(--oos); } .badge.failed { color: var(--bad); }
article.question { border: 1px solid var(--line); border-radius: 6px; padding: 14px 18px; margin: 16px 0; }
article.question.failed { border-left: 5px solid var(--bad); }
article.question.out_of_scope { border-left: 5px solid var(--oos); }
.asked { color: var(--muted); margin: .2em 0; }
.lead { color: var(--muted); font-size: 1.05em; }
.answer { font-size: 1.05em; background: var(--bg2); padding: 8px 12px; border-radius: 4px; }
.error { color: var(--bad); font-weight: 600; }
.notes { color: var(--muted); font-size: .9em; margin: .3em 0; }
.nochart, .more { color: var(--muted); font-size: .85em; }
.sources { font-size: .85em; } .sources ul { margin: .2em 0; }
.chart { margin: .6em 0; min-height: 380px; }
details { margin-top: .6em; font-size: .9em; } summary { cursor: pointer; color: var(--muted); }
.problems .why { color: var(--muted); font-size: .9em; }
footer { margin-top: 3em; color: var(--muted); font-size: .85em; }
@media print {
  main { max-width: none; padding: 0; }
  article.question { break-inside: avoid; page-break-inside: avoid; }
  nav.toc { page-break-after: always; }
  a { color: inherit; }
  .rows { overflow: visible; } table.data { font-size: .7em; }
}
"""
