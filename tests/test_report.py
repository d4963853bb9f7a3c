"""Batch reports end to end: the real built database, the real trained model, the real CLI.

Each answer's number is checked against the rows of its own result (and, where the rows are raw
measurements, against the database itself); nothing expected is hard-coded.
"""
from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest
import yaml

from conftest import REPO

HPCASK = [sys.executable, "-m", "app.cli"]
CHARTED = {"topology", "pair_matrix", "metric_lookup", "size_sweep", "scaling", "compare_systems", "congestion",
           "link_efficiency", "trace_breakdown"}


# ------------------------------------------------------------------ the expected number, derived from the rows

def _max(key="value"):
    return lambda rows: [max(r[key] for r in rows if r.get(key) is not None)]


def _min_max(rows):
    vals = [r["value"] for r in rows if r.get("value") is not None]
    return [min(vals), max(vals)]


def _at_largest_count(rows):
    return [max(rows, key=lambda r: r["count"])["value"]]


def _worst_slowdown(rows):
    worst = max(rows, key=lambda r: r["slowdown"])
    return [worst["base_value"], worst["stress_value"]]


def _idle_share_rank0(rows):
    idle = next(r for r in rows if r.get("kind") == "breakdown" and r["rank"] == 0 and r["category"] == "idle")
    return [100 * idle["value"] / idle["window_us"]]


# (section, title, question, intent, numbers the answer sentence must state, computed from that result's rows)
CASES = [
    ("Topology", "DGX-2 connection graph", "how are the GPUs connected on the DGX-2", "topology",
     lambda rows: [len(rows)]),
    ("Topology", "XMP-64 corner to corner", "how many hops between core 0 and core 63 on the XMP-64", "topology",
     lambda rows: [len(rows)]),
    ("GPU to GPU", "DGX-2 P2P matrix", "peer-to-peer bandwidth matrix between all GPUs on the DGX-2", "pair_matrix",
     _min_max),
    ("GPU to GPU", "DGX-2 slowest pair", "which GPU pair on the DGX-2 has the lowest peer-to-peer bandwidth",
     "metric_lookup", lambda rows: [min(r["value"] for r in rows)]),
    ("Collectives", "H200 all-reduce at 1 GiB",
     "what bus bandwidth does all-reduce reach on the H200 pair at one gigabyte?", "metric_lookup",
     lambda rows: [rows[0]["value"]]),
    ("Collectives", "H200 all-reduce by size",
     "how does all-reduce bus bandwidth change with message size on the H200 node", "size_sweep", _max()),
    ("Collectives", "IPU reduce across tiles",
     "how does reduce bandwidth scale with the number of tiles on the IPU system", "scaling", _at_largest_count),
    ("Comparisons", "Desktops host to device",
     "compare host to device bandwidth of the Titan RTX and the GTX 980", "compare_systems", _min_max),
    ("Comparisons", "IPU latency under load", "how much does latency grow under load on the IPU system",
     "congestion", _worst_slowdown),
    ("Links", "DGX-1 V100 NVLink efficiency",
     "how close does NVLink get to its nominal bandwidth on the DGX-1 V100", "link_efficiency", _max("percent")),
    ("Traces", "H200 trace", "where does the time go in the trace on the H200 node", "trace_breakdown",
     _idle_share_rank0),
    ("Inventory", "DGX-2 inventory", "what data do you have for the DGX-2", "list_data",
     lambda rows: [sum(r["n_measurements"] for r in rows)]),
]
OUT_OF_SCOPE = "what is the weather in Oslo tomorrow"
SPOKEN = REPO / "tests" / "fixtures" / "audio" / "allreduce_h200.wav"  # a real recording of the H200 question
N_ALL = len(CASES) + 3  # + the spoken question, one out of scope, one broken recording


def _expected_counts(report) -> dict[str, int]:
    """The typed questions must all be answered; the spoken one counts as what the recogniser made of it."""
    spoken = report["json"]["entries"][len(CASES)]["status"]
    c = {"questions": N_ALL, "answered": len(CASES), "out_of_scope": 1, "failed": 1}
    c[spoken] += 1
    return c


# ------------------------------------------------------------------------------------------- HTML structure

class ReportParser(HTMLParser):
    """Collects what a reader of the report sees: articles, their answer text, charts, links and scripts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.articles: dict[str, dict] = {}
        self.cur = None
        self.capture = None          # (article, field) while inside <p class="answer"> etc.
        self.urls: list[tuple[str, str, str]] = []
        self.ids: set[str] = set()
        self.scripts: list[str] = []
        self.in_script = False
        self.in_problems = False
        self.problem_links: list[str] = []
        self.toc_links: list[str] = []
        self.in_toc = False
        self.summary: dict[str, str] = {}
        self._th = None
        self._cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if "id" in a:
            self.ids.add(a["id"])
        for k in ("src", "href", "action", "poster", "data"):
            if a.get(k):
                self.urls.append((tag, k, a[k]))
        if tag == "script":
            self.in_script = True
            self.scripts.append("")
        if tag == "nav" and "toc" in cls:
            self.in_toc = True
        if tag == "section" and a.get("id") == "problems":
            self.in_problems = True
        if tag == "a" and a.get("href", "").startswith("#"):
            if self.in_toc:
                self.toc_links.append(a["href"][1:])
            if self.in_problems:
                self.problem_links.append(a["href"][1:])
        if tag == "article" and "question" in cls:
            self.cur = self.articles.setdefault(a["id"], {"status": a.get("data-status"), "answer": "", "error": "",
                                                          "charts": 0, "tables": 0, "details": 0, "sql": ""})
        if self.cur is not None:
            if tag == "p" and "answer" in cls:
                self.capture = "answer"
            elif tag == "p" and "error" in cls:
                self.capture = "error"
            elif tag == "pre" and "sql" in cls:
                self.capture = "sql"
            elif tag == "div" and "plotly-graph-div" in cls:
                self.cur["charts"] += 1
            elif tag == "table" and "data" in cls:
                self.cur["tables"] += 1
            elif tag == "details":
                self.cur["details"] += 1
        if tag in ("th", "td") and not self.cur:
            self._cell = tag

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False
        if tag in ("p", "pre"):
            self.capture = None
        if tag == "article":
            self.cur = None
        if tag == "nav":
            self.in_toc = False
        if tag == "section":
            self.in_problems = False
        if tag in ("th", "td"):
            self._cell = None

    def handle_data(self, data):
        if self.in_script:
            self.scripts[-1] += data
        if self.cur is not None and self.capture:
            self.cur[self.capture] += data
        if self._cell == "th":
            self._th = data.strip()
        elif self._cell == "td" and self._th:
            self.summary[self._th] = data.strip()
            self._th = None


def _numbers(text: str) -> list[tuple[float, int]]:
    """Every number written in a sentence, with its count of decimals ("6,756.0" -> (6756.0, 1))."""
    out = []
    for m in re.finditer(r"(?<![\w.])\d[\d,]*(?:\.\d+)?", text):
        s = m.group(0).replace(",", "")
        out.append((float(s), len(s.split(".")[1]) if "." in s else 0))
    return out


def _states(text: str, expected: float) -> bool:
    """The sentence shows `expected` at whatever precision it prints (or within 0.05% of it)."""
    for n, dec in _numbers(text):
        if abs(n - expected) <= 0.5 * 10 ** -dec + 1e-9 or (expected and abs(n - expected) / abs(expected) < 5e-4):
            return True
    return False


# ------------------------------------------------------------------------------------------------ fixtures

@pytest.fixture(scope="module")
def report(built_db, tmp_path_factory):
    """One report of a dozen questions over all intents, made by the real `hpcask report` command."""
    d = tmp_path_factory.mktemp("report")
    (d / "broken.wav").write_text("this is not audio\n")
    sections: dict[str, list] = {}
    for sec, title, text, _, _ in CASES:
        sections.setdefault(sec, []).append({"title": title, "text": text})
    sections["Spoken"] = [{"title": "Spoken all-reduce at 1 GiB", "audio": str(SPOKEN)}]
    sections["Problems"] = [{"title": "Weather", "text": OUT_OF_SCOPE},
                            {"title": "A broken recording", "audio": "broken.wav"}]
    qfile = d / "acceptance.yaml"
    qfile.write_text(yaml.safe_dump({"title": "Test acceptance <report> & more",
                                     "sections": [{"title": k, "questions": v} for k, v in sections.items()]}))
    out = d / "out" / "acc.html"
    out.parent.mkdir()
    proc = subprocess.run(HPCASK + ["report", str(qfile), "-o", str(out), "--db", str(built_db)],
                          cwd=REPO, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    page = out.read_text()
    parser = ReportParser()
    parser.feed(page)
    data = json.loads(out.with_suffix(".json").read_text())
    return {"page": page, "html": parser, "json": data, "proc": proc, "out": out}


# --------------------------------------------------------------------------------------------------- tests

def test_every_question_is_in_the_report_in_order(report):
    entries = report["json"]["entries"]
    assert len(entries) == N_ALL
    assert [e["title"] for e in entries[:len(CASES)]] == [c[1] for c in CASES]
    assert [e["section"] for e in entries[:len(CASES)]] == [c[0] for c in CASES]
    assert set(report["html"].articles) == {f"q{e['n']}" for e in entries}
    assert "report:" in report["proc"].stderr  # the progress bar went to stderr
    c = _expected_counts(report)
    assert f"{c['answered']} answered, {c['out_of_scope']} out of scope, 1 failed" in report["proc"].stdout


@pytest.mark.parametrize("i", range(len(CASES)), ids=[c[1] for c in CASES])
def test_each_answer_states_the_number_in_its_rows(report, i):
    _, _, question, intent, expect = CASES[i]
    entry = report["json"]["entries"][i]
    res = entry["result"]
    assert entry["status"] == "answered", res.get("error") or res["answer"]
    assert res["question"] == question and res["intent"] == intent, (res["intent"], res["slots"])
    art = report["html"].articles[f"q{entry['n']}"]
    assert art["answer"] == res["answer"]  # shown as answered (escaped and unescaped faithfully)
    for value in expect(res["rows"]):
        assert _states(art["answer"], value), f"{value} not in: {art['answer']}"
    assert art["details"] == 1 and art["sql"].strip() == (res["sql"] or "").strip()


def test_spoken_question_is_transcribed_and_answered(report, built_con):
    """An audio entry goes through the speech model; the report shows what was heard and its answer."""
    entry = report["json"]["entries"][len(CASES)]
    res = entry["result"]
    assert entry["audio"] == str(SPOKEN) and entry["status"] != "failed", res.get("error")
    assert res["transcript"] and res["question"] == res["transcript"] and res["timings_ms"]["asr"] > 0
    art = report["html"].articles[f"q{entry['n']}"]
    assert art["answer"] == res["answer"] and html.escape(res["transcript"]) in report["page"]
    if entry["status"] != "answered":  # the recogniser misheard: listed with what it heard (its own tests say so)
        assert f"q{entry['n']}" in report["html"].problem_links
        return
    assert res["intent"] == "metric_lookup" and res["slots"]["system"] == "h200x2"
    assert _states(art["answer"], res["rows"][0]["value"]) and art["charts"] == 1
    stored = built_con.execute("SELECT value FROM measurements WHERE system_id = 'h200x2' AND metric = 'busbw' "
                               "AND operation = 'allreduce' AND msg_bytes = ? AND count = 2", [1 << 30]).fetchall()
    assert any(abs(res["rows"][0]["value"] - v) < 1e-9 for (v,) in stored)


def test_raw_answer_numbers_are_in_the_database(report, built_con):
    """Where an answer is one stored measurement, that row exists in the database as shown."""
    for i, (_, _, _, intent, _) in enumerate(CASES):
        if intent != "metric_lookup":
            continue
        rows = report["json"]["entries"][i]["result"]["rows"]
        for r in rows[:5]:
            n = built_con.execute("SELECT count(*) FROM measurements WHERE system_id = ? AND metric = ? "
                                  "AND value = ? AND source = ?",
                                  [r["system_id"], r["metric"], r["value"], r["source"]]).fetchone()[0]
            assert n >= 1, r
    topo = report["json"]["entries"][0]["result"]
    assert len(topo["rows"]) == built_con.execute("SELECT count(*) FROM links WHERE system_id = 'dgx2'").fetchone()[0]
    inv = report["json"]["entries"][len(CASES) - 1]["result"]
    total = built_con.execute("SELECT count(*) FROM measurements WHERE system_id = 'dgx2'").fetchone()[0]
    assert sum(r["n_measurements"] for r in inv["rows"]) == total


def test_charted_answers_have_a_plotly_chart(report):
    for e in report["json"]["entries"]:
        art = report["html"].articles[f"q{e['n']}"]
        if e["status"] == "answered" and e["result"]["intent"] in CHARTED:
            assert art["charts"] == 1, f"no chart for {e['title']} ({e['result']['intent']})"
        else:
            assert art["charts"] == 0, e["title"]
    assert sum(a["charts"] for a in report["html"].articles.values()) >= len(CASES) - 1


def test_plotly_js_is_inlined_once_and_nothing_is_fetched(report):
    page, h = report["page"], report["html"]
    assert page.count("* plotly.js v") == 1
    assert sum(len(s) > 1_000_000 for s in h.scripts) == 1
    assert not any(tag == "script" and k == "src" for tag, k, _ in h.urls)
    for tag, k, url in h.urls:  # only in-page anchors; no http(s), protocol-relative or file URLs
        assert url.startswith("#"), (tag, k, url)
        assert url[1:] in h.ids, f"dangling anchor {url}"
    assert "<link" not in page.split("<script", 1)[0]  # no external stylesheet before the scripts


def test_toc_summary_and_title_are_escaped(report):
    h, page = report["html"], report["page"]
    assert "<title>Test acceptance &lt;report&gt; &amp; more</title>" in page
    assert "<report>" not in page.split("<script", 1)[0]
    assert set(h.toc_links) >= set(h.articles)
    c = _expected_counts(report)
    assert h.summary["questions"] == str(N_ALL)
    assert h.summary["answered"] == str(c["answered"])
    assert h.summary["out of scope"] == str(c["out_of_scope"]) and h.summary["failed"] == "1"
    assert h.summary["hpcask version"]
    assert h.summary["database"].endswith("hpcask.duckdb")


def test_out_of_scope_and_failed_questions_are_listed_not_dropped(report):
    entries = report["json"]["entries"]
    oos, failed = entries[-2], entries[-1]
    assert oos["status"] == "out_of_scope" and oos["result"]["question"] == OUT_OF_SCOPE
    assert failed["status"] == "failed" and failed["result"]["error"]
    h = report["html"]
    for e in (oos, failed):
        anchor = f"q{e['n']}"
        assert h.articles[anchor]["status"] == e["status"]  # in place ...
        assert anchor in h.problem_links                     # ... and in the section of its own
    assert "broken.wav" in h.articles[f"q{failed['n']}"]["error"] or "broken.wav" in failed["result"]["error"]
    assert h.articles[f"q{oos['n']}"]["answer"] == oos["result"]["answer"]


def test_json_beside_the_report_round_trips(report):
    from app.result import Result
    data = report["json"]
    assert data["summary"] == _expected_counts(report)
    for e in data["entries"]:
        back = Result(**e["result"]).to_dict()
        assert json.loads(json.dumps(back)) == e["result"]


def test_render_html_from_results_alone(report):
    """The UI's export path: results only, no question file; same escaping, one plotly.js."""
    from app.report import render_html
    from app.result import Result
    results = [Result(**e["result"]) for e in report["json"]["entries"][:3]]
    results[0].answer = "<script>alert(1)</script> & co"
    page = render_html(results, title="Conversation <export>")
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page
    assert page.count("* plotly.js v") == 1
    h = ReportParser()
    h.feed(page)
    assert len(h.articles) == 3


# ------------------------------------------------------------------------------------- bad questions files

def _cli(*args, cwd=REPO):
    return subprocess.run(HPCASK + ["report", *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name,content,message", [
    ("binary.txt", b"\x00\x01\x02PNG\x00", "not a text file"),
    ("latin1.txt", "caf\xe9 latency?\n".encode("latin-1"), "not UTF-8"),
    ("bad.yaml", b"title: [unclosed\nsections: {\n", "invalid YAML at line"),
    ("bad.json", b'{"questions": ["a",}', "invalid JSON at line"),
    ("shape.yaml", b"sections:\n  - title: A\n    questions:\n      - {foo: 1}\n", "unknown key(s) foo"),
    ("nothing.yaml", b"title: only a title\n", "no questions"),
    ("empty.txt", b"\n# just a comment\n\n", "no questions"),
    ("noaudio.yaml", b"questions:\n  - audio: missing.wav\n", "does not exist"),
])
def test_unreadable_questions_file_is_a_clear_error(tmp_path, name, content, message):
    f = tmp_path / name
    f.write_bytes(content)
    out = tmp_path / "r.html"
    p = _cli(f, "-o", out)
    assert p.returncode == 2, p.stderr
    assert message in p.stderr and str(f) in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
    assert not out.exists() and not out.with_suffix(".json").exists()


def test_missing_file_unknown_preset_and_bad_output(tmp_path):
    p = _cli(tmp_path / "nope.txt")
    assert p.returncode == 2 and "no such file" in p.stderr
    p = _cli("--preset", "dgx3")
    assert p.returncode == 2 and "unknown preset 'dgx3'" in p.stderr and "dgx2" in p.stderr
    q = tmp_path / "q.txt"
    q.write_text("how are the GPUs connected on the DGX-2\n")
    p = _cli(q, "-o", tmp_path / "no" / "such" / "dir" / "r.html")
    assert p.returncode == 2 and "does not exist" in p.stderr
    p = _cli(q, "-o", tmp_path / "r.json")
    assert p.returncode == 2 and ".html" in p.stderr


def test_text_file_loads_one_question_per_line(tmp_path):
    from app.report_questions import load_question_set
    f = tmp_path / "q.txt"
    f.write_text("# weekly check\n\nfirst question?\n  second question  \n")
    qs = load_question_set(f)
    assert [q.text for q in qs.questions] == ["first question?", "second question"]
    assert [q.id for q in qs.questions] == ["q1", "q2"] and qs.title is None


# --------------------------------------------------------------------------------------------------- presets

def test_presets_list_and_load(built_con):
    from app.report_questions import list_presets, load_preset
    names = list_presets()
    assert {"dgx2", "dgx1_v100", "dgx1_p100", "ac922", "ipu16", "xmp64", "h200x2", "desktops", "isc2022"} <= set(names)
    known = {r[0] for r in built_con.execute("SELECT system_id FROM systems").fetchall()}
    for name in names:
        qs = load_preset(name)
        assert qs.title and qs.systems and len(qs.sections) >= 2, name
        assert set(qs.systems) <= known, (name, set(qs.systems) - known)
        assert all(q.text and q.title and q.section for q in qs.questions), name
        assert len({q.text for q in qs.questions}) == len(qs.questions), f"{name}: a question is repeated"
    p = _cli("--list-presets")
    assert p.returncode == 0 and all(n in p.stdout for n in names)


def test_every_preset_question_is_answered_for_its_systems(asker):
    """A preset is only useful if the current model answers every question of it, about the systems it names."""
    from app.report_questions import list_presets, load_preset
    problems = []
    for name in list_presets():
        qs = load_preset(name)
        for q in qs.questions:
            r = asker.ask(q.text)
            named = ({r.slots.get("system")} | set(r.slots.get("compare_with") or [])) - {None}
            if r.error or r.intent == "out_of_scope":
                problems.append(f"{name}: out of scope: {q.text!r}: {r.answer[:120]}")
            elif r.answer.startswith("Nothing matches"):
                problems.append(f"{name}: answered only after dropping a detail: {q.text!r}")
            elif not named <= set(qs.systems) or (not named and r.intent != "list_data"):
                problems.append(f"{name}: about {sorted(named)}, not {qs.systems}: {q.text!r}")
    assert not problems, "\n".join(problems)
