"""The web UI through Streamlit's AppTest: the real app script, the real database and the real trained model.

One typed question per intent family renders its answer (with a number that is in its rows) and the chart that
family calls for; a follow-up reuses the previous turn; a bad upload shows the parser's own error and leaves the
database as it was.
"""
from __future__ import annotations

import json
import re
import shutil

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from conftest import FIXTURES, REPO, table_counts

MAIN = str(REPO / "app" / "ui" / "main.py")

# intent family -> (question the current model answers, plotly trace types the chart must contain)
FAMILIES = {
    "topology": ("show the topology of the DGX-1 V100", {"scatter"}),
    "pair_matrix": ("p2p bandwidth between every pair of GPUs on the DGX-2", {"heatmap"}),
    "size_sweep": ("all-reduce bus bandwidth versus message size on the H200 pair", {"scatter"}),
    "scaling": ("IPU broadcast bandwidth as the number of tiles grows", {"scatter"}),
    "compare_systems": ("compare device to host bandwidth on the DGX-2 and the AC922 Yme", {"bar"}),
    "congestion": ("how much does latency grow under load on the IPU system", {"bar"}),
    "link_efficiency": ("how close does NVLink get to its nominal bandwidth on the DGX-1 V100", {"bar"}),
    "trace_breakdown": ("where does the time go in the H200 trace", {"bar"}),
    "metric_lookup": ("what bus bandwidth does all-reduce reach on the H200 pair at one gigabyte?", {"bar"}),
}


@pytest.fixture(scope="module")
def app(built_db, monkeypatch_module):
    monkeypatch_module.setenv("HPCASK_DB", str(built_db))
    at = AppTest.from_file(MAIN, default_timeout=180)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def _ask(at: AppTest, question: str):
    at.chat_input[0].set_value(question).run()
    assert not at.exception, [e.value for e in at.exception]
    return at.session_state["turns"][-1]


def _last_assistant(at: AppTest):
    return [m for m in at.chat_message if m.name == "assistant"][-1]


def _printed_numbers(text: str) -> list[tuple[float, int]]:
    """Numbers as the answer prints them, with their count of decimals ("1,234.5" -> (1234.5, 1))."""
    out = []
    for x in re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?", text):
        out.append((float(x.replace(",", "")), len(x.split(".")[1]) if "." in x else 0))
    return out


def _shown(v: float, text: str) -> bool:
    """The row value appears in the answer, rounded to the precision the answer prints it with."""
    return any(abs(v - n) <= 0.5 * 10 ** -d + 1e-9 for n, d in _printed_numbers(text))


@pytest.mark.parametrize("family", list(FAMILIES))
def test_question_renders_answer_and_chart(app, family):
    question, trace_types = FAMILIES[family]
    res = _ask(app, question)
    assert res.intent == family, (res.intent, res.slots, res.answer)
    msg = _last_assistant(app)
    shown = " ".join(m.value for m in msg.markdown)
    assert res.answer in shown  # the answer sentence, with its number, unit and source
    # a row value, with its unit, as the sentence prints it: as stored, us as ms, or as a share of the whole
    printed = [(x, u) for r in res.rows if isinstance(r.get("value"), (int, float))
               for x, u in ((r["value"], r.get("unit")), (r["value"] / 1000 if r.get("unit") == "us" else None, "ms"),
                            (r.get("share"), "%"))
               if isinstance(x, (int, float)) and u]
    if printed:
        assert any(_shown(x, res.answer) and str(u) in res.answer for x, u in printed), (printed[:5], res.answer)
    charts = msg.get("plotly_chart")
    assert len(charts) == 1, f"{family}: expected one chart"
    spec = json.loads(charts[0].proto.spec)
    types = {tr.get("type", "scatter") for tr in spec["data"]}
    assert trace_types <= types, (family, types)
    if family == "size_sweep":
        assert spec["layout"]["xaxis"].get("type") == "log"  # sizes on a log2 axis
    if family == "scaling":
        names = " ".join(str(tr.get("name", "")) for tr in spec["data"]).lower()
        assert "ideal" in names  # the ideal-scaling line beside the measured one
    if family == "topology":
        assert len(spec["data"]) >= 2  # edges and nodes
    # the rows as a table and the reasoning laid open (intent, SQL with its parameters, timings)
    assert msg.get("arrow_data_frame") or msg.dataframe
    code = " ".join(c.value for c in msg.code)
    assert "SELECT" in code.upper() and json.dumps(res.params, ensure_ascii=False, default=str)[:40] in code
    assert res.intent in " ".join(m.value for m in msg.markdown)
    assert len(msg.metric) == 4  # speech, understanding, query, total times


def test_followup_reuses_previous_turn(app):
    first = _ask(app, "show the topology of the DGX-1 V100")
    assert first.intent == "topology" and first.slots.get("system") == "dgx1_v100"
    second = _ask(app, "and on the DGX-2?")
    assert second.intent == "topology" and second.slots.get("system") == "dgx2"
    assert any("follow-up" in n for n in second.notes)
    assert "DGX-2" in second.answer
    assert len(_last_assistant(app).get("plotly_chart")) == 1
    # each answer, and the conversation, can be exported as a report
    labels = [b.proto.label for b in app.get("download_button")]
    assert labels.count("Export this answer") == len(app.session_state["turns"]) and "Export conversation" in labels


def test_out_of_scope_says_so_without_chart(app):
    res = _ask(app, "what is the weather in Paris")
    assert res.intent == "out_of_scope" and not res.rows
    msg = _last_assistant(app)
    assert not msg.get("plotly_chart")
    assert any(res.answer in e.value for e in msg.info)


def test_sidebar_shows_database_counts(app, built_con):
    fresh = AppTest.from_file(MAIN, default_timeout=180).run()  # a new session on the same database
    shown = {m.label: m.value for m in fresh.sidebar.metric}
    n = built_con.execute("SELECT count(*) FROM measurements").fetchone()[0]
    assert shown["measurements"] == f"{n:,}"


def test_bad_upload_shows_parser_error_and_changes_nothing(built_db, tmp_path, monkeypatch):
    from ingest import loader
    bad = FIXTURES / "nccl_tests" / "all_reduce_perf_truncated.txt"
    # what `hpcask ingest` says about this file (same loader, on a scratch database)
    scratch = loader.connect(tmp_path / "scratch.duckdb")
    expected = loader.ingest_file(scratch, bad).message
    scratch.close()
    assert expected
    db = tmp_path / "copy.duckdb"
    shutil.copy(built_db, db)
    with duckdb.connect(str(db), read_only=True) as con:
        before = table_counts(con)
    monkeypatch.setenv("HPCASK_DB", str(db))
    at = AppTest.from_file(MAIN, default_timeout=180).run()
    at.switch_page("pages/upload.py").run()
    assert not at.exception, [e.value for e in at.exception]
    at.file_uploader[0].upload(bad.name, bad.read_bytes(), "text/plain")
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and expected in errors[0] and bad.name in errors[0], errors
    with duckdb.connect(str(db), read_only=True) as con:
        assert table_counts(con) == before


def test_good_upload_loads_and_sessions_see_it(built_db, tmp_path, monkeypatch):
    """The write path: a good file loads into the database (copy) and the next question reopens the session's
    read-only connection and sees the new run."""
    good = FIXTURES / "nccl_tests" / "all_reduce_perf_8xh100.txt"
    db = tmp_path / "copy.duckdb"
    shutil.copy(built_db, db)
    with duckdb.connect(str(db), read_only=True) as con:
        runs_before = con.execute("SELECT count(*) FROM runs").fetchone()[0]
    monkeypatch.setenv("HPCASK_DB", str(db))
    at = AppTest.from_file(MAIN, default_timeout=180).run()
    _ask(at, "which systems are loaded")  # opens this session's read-only connection
    at.switch_page("pages/upload.py").run()
    at.file_uploader[0].upload(good.name, good.read_bytes(), "text/plain")
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert [s.value for s in at.success] and not at.error
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM runs").fetchone()[0] > runs_before
        files = con.execute("SELECT path FROM files WHERE path LIKE 'upload/%'").fetchall()
    assert files == [(f"upload/{good.name}",)]
    at.switch_page("pages/ask.py").run()
    res = _ask(at, "which systems are loaded")
    assert res.intent == "list_data" and not res.error
    total_runs = int(re.search(r"from ([\d,]+) runs", res.answer).group(1).replace(",", ""))
    assert total_runs > runs_before


def test_spoken_question_shows_transcript_and_answer(app, built_con):
    """The microphone path: a real recording through st.audio_input -> the ASR model -> the same pipeline."""
    wav = FIXTURES / "audio" / "allreduce_h200.wav"
    n = len(app.session_state["turns"])
    app.audio_input[0].upload(wav.name, wav.read_bytes()).run()
    assert not app.exception, [e.value for e in app.exception]
    turns = app.session_state["turns"]
    assert len(turns) == n + 1
    res = turns[-1]
    assert res.error is None and res.transcript and res.timings_ms["asr"] > 0
    # spoken questions go through the typed pipeline: the transcript, typed, gets the same understanding
    typed = app.session_state["conn"].asker.ask(res.transcript)
    assert (res.intent, res.slots, res.answer) == (typed.intent, typed.slots, typed.answer)
    msg = _last_assistant(app)
    assert any(res.transcript in m.value for m in msg.markdown)  # in "how this was understood"
    assert any(res.transcript in m.value for m in [m for m in app.chat_message if m.name == "user"][-1].markdown)
    assert msg.metric[0].value != "—"  # the speech stage has its time
    assert len(msg.get("plotly_chart")) == (0 if res.intent in ("out_of_scope", "list_data") else 1)
    # the same recording is answered once, not again on the next rerun
    app.run()
    assert len(app.session_state["turns"]) == n + 1


@pytest.mark.parametrize("question,systems", [
    ("allreduce bandwidth vs message size on the dgx2 and yme", 2),
    ("scaling of qtc time on dgx2 and yme", 2)])
def test_two_systems_draw_a_curve_each(app, question, systems):
    res = _ask(app, question)
    assert len(res.chart.get("systems") or []) == systems
    spec = json.loads(_last_assistant(app).get("plotly_chart")[0].proto.spec)
    measured = [tr for tr in spec["data"] if not (tr.get("meta") or {}).get("role")]
    assert len({tr.get("name") for tr in measured}) >= systems


def test_two_topologies_are_panels_of_one_chart(app):
    res = _ask(app, "compare the topology of the DGX-1 P100 and the DGX-1 V100")
    assert res.intent == "topology" and len(res.chart["parts"]) == 2
    spec = json.loads(_last_assistant(app).get("plotly_chart")[0].proto.spec)
    nodes = [tr for tr in spec["data"] if (tr.get("meta") or {}).get("role") == "nodes"]
    assert {tr.get("xaxis", "x") for tr in nodes} == {"x", "x2"}
