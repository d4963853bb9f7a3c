"""Draw one answered turn: the answer (number, unit, source), the chart, the rows, and how it was understood."""
from __future__ import annotations

import json
from typing import Any

import streamlit as st

from app.result import Result

INTENT_LABEL = {
    "metric_lookup": "Lookup", "pair_matrix": "Pair matrix", "size_sweep": "Size sweep", "scaling": "Scaling",
    "compare_systems": "Comparison", "congestion": "Congestion", "topology": "Topology",
    "link_efficiency": "Link efficiency", "trace_breakdown": "Trace breakdown", "list_data": "What is loaded",
    "out_of_scope": "Out of scope",
}
STAGES = (("asr", "speech"), ("nlu", "understanding"), ("sql", "query"), ("total", "total"))
# columns worth showing first, in this order; the rest follow as they came
LEAD_COLS = ("system_id", "tool", "src", "dst", "a", "b", "link_type", "operation", "metric", "msg_bytes", "count",
             "count_kind", "condition", "value", "unit", "source")


def headline(res: Result) -> tuple[str, str] | None:
    """The one number an answer is about (value, unit), when it has exactly one measured row."""
    rows = [r for r in res.rows if isinstance(r.get("value"), (int, float)) and r.get("unit")]
    if res.intent == "metric_lookup" and len(rows) == 1:
        return _fmt(rows[0]["value"]), str(rows[0]["unit"])
    return None


def _fmt(v: float) -> str:
    if isinstance(v, int) or float(v).is_integer():
        return f"{int(v):,}"
    a = abs(v)
    return f"{v:,.1f}" if a >= 100 else f"{v:.3g}" if a < 1 else f"{v:.2f}"


def figure_of(res: Result):
    """The chart for this answer from app.charts (the one place charts are made); None when it has none."""
    if res.error or res.intent == "out_of_scope" or not res.rows:
        return None
    from app import charts
    return charts.figure(res)


def _figure_cached(res: Result, index: int):
    """Every rerun redraws the whole conversation: build each turn's figure once (50-300 ms each)."""
    figs = st.session_state.setdefault("figures", {})
    hit = figs.get(index)
    if hit is None or hit[0] is not res:
        hit = figs[index] = (res, figure_of(res))
    return hit[1]


def table_of(res: Result, drop: tuple[str, ...] = ()):
    import pandas as pd
    from app.result import _plain
    rows = [{k: _plain(v) for k, v in r.items()} for r in res.rows]
    df = pd.DataFrame(rows)
    lead = [c for c in LEAD_COLS if c in df.columns]
    df = df[lead + [c for c in df.columns if c not in lead]]
    return df.drop(columns=[c for c in drop if c in df.columns]).dropna(axis=1, how="all")


def answer(res: Result, index: int) -> None:
    """The assistant's side of one turn."""
    if res.error:
        st.error(res.answer or res.error)
        return
    label = INTENT_LABEL.get(res.intent, res.intent)
    if res.intent == "out_of_scope":
        st.info(res.answer, icon=":material/help:")
    else:
        head = headline(res)
        if head:
            st.markdown(f'<div class="hpc-headline">{head[0]} <span>{head[1]}</span></div>', unsafe_allow_html=True)
        st.markdown(res.answer)  # the sentence names its sources in [brackets]; the table has one per row
    for n in res.notes:
        st.caption(f":material/info: {n}")
    fig = _figure_cached(res, index)
    if fig is not None:
        st.plotly_chart(fig, width="stretch", key=f"chart-{index}", config={"displaylogo": False})
    if res.rows and res.intent != "out_of_scope":
        with st.expander(f"{len(res.rows)} row{'s' if len(res.rows) != 1 else ''} from the database",
                         expanded=len(res.rows) <= 12 and fig is None):
            st.dataframe(table_of(res), width="stretch", hide_index=True, height=min(38 + 35 * len(res.rows), 360))
    understood(res, label)
    _export_button(res, index)


def understood(res: Result, label: str) -> None:
    """The pipeline laid open, as "Hey CAI" Fig. 13 does, but with the query itself."""
    with st.expander("how this was understood"):
        if res.transcript is not None:
            st.markdown(f"**Transcript** &nbsp; “{res.transcript}”")
        c1, c2 = st.columns([1, 2])
        c1.markdown(f"**Intent** &nbsp; `{res.intent}` ({label})")
        if res.understood_intent:
            c1.caption(f"read as `{res.understood_intent}`; the loaded data cannot answer it")
        c1.progress(min(max(float(res.confidence), 0.0), 1.0), text=f"confidence {res.confidence:.2f}")
        c2.markdown("**Slots**")
        c2.code(json.dumps(res.slots, ensure_ascii=False, default=str), language="json", wrap_lines=True)
        if res.sql:
            st.markdown("**SQL** (user values travel only as parameters)")
            st.code(res.sql.strip(), language="sql")
            st.markdown("**Parameters**")
            st.code(json.dumps(res.to_dict()["params"], ensure_ascii=False), language="json", wrap_lines=True)
        cols = st.columns(len(STAGES))
        for col, (key, name) in zip(cols, STAGES):
            v = res.timings_ms.get(key)
            col.metric(f"{name} time", "—" if v is None else f"{v:,.1f} ms")


def _export_button(res: Result, index: int) -> None:
    st.download_button("Export this answer", data=lambda r=res: export_html([r], title=r.question),
                       file_name=f"hpcask-answer-{index + 1}.html", mime="text/html", key=f"export-{index}",
                       icon=":material/download:", on_click="ignore", type="tertiary")


def export_html(results: list[Result], *, title: str) -> str:
    from app.report import render_html
    return render_html(results, title=title)


AVATAR = {"user": ":material/person:", "assistant": ":material/query_stats:"}


def user(res: Result) -> Any:
    """The user's side of one turn: the typed question, or the transcript of a spoken one."""
    if res.transcript is not None:
        st.markdown(f":material/mic: {res.transcript or '(nothing was heard)'}")
    else:
        st.markdown(res.question)
