"""The per-run summaries (ingest/summaries.py): written with each load, equal to a recount, and giving the
list_data and trace_breakdown planners the rows their old queries over every measurement and trace event gave."""
from __future__ import annotations

import json

import duckdb
import pytest

from conftest import FIXTURES, RAW, rejected, table_counts

from app import catalog
from app.ask import Asker, StaleDatabase, _check_schema
from app.intents import fetch, rows_of
from app.intents import list_data as ld
from app.intents import trace_breakdown as tb
from ingest import loader

# ---- the planners' SQL before the summaries: the oracles ------------------------------------------------------
OLD_ALL_SYSTEMS = """WITH r AS (
  SELECT system_id, count(*) AS n_runs, string_agg(DISTINCT tool, ', ' ORDER BY tool) AS tools
  FROM runs GROUP BY system_id
), m AS (
  SELECT system_id, count(*) AS n_measurements, string_agg(DISTINCT metric, ', ' ORDER BY metric) AS metrics
  FROM measurements GROUP BY system_id
), l AS (
  SELECT system_id, count(*) AS n_links FROM links GROUP BY system_id
), e AS (
  SELECT r.system_id, count(*) AS n_events FROM trace_events t JOIN runs r USING (run_id){e_where} GROUP BY r.system_id
)
SELECT s.system_id, s.name, s.kind, coalesce(r.n_runs, 0) AS n_runs, r.tools,
       coalesce(m.n_measurements, 0) AS n_measurements, m.metrics, coalesce(l.n_links, 0) AS n_links,
       coalesce(e.n_events, 0) AS n_events, s.source
FROM systems s LEFT JOIN r USING (system_id) LEFT JOIN m USING (system_id) LEFT JOIN l USING (system_id)
LEFT JOIN e USING (system_id){where}
ORDER BY n_measurements DESC, n_links + n_events DESC, s.system_id"""

OLD_ONE_SYSTEM = """WITH ev AS (SELECT run_id, count(*) AS n FROM trace_events
            WHERE run_id IN (SELECT run_id FROM runs WHERE system_id = $system) GROUP BY run_id)
SELECT r.system_id, r.tool, m.metric, count(DISTINCT r.run_id) AS n_runs, count(m.run_id) AS n_measurements,
       string_agg(DISTINCT m.operation, ', ' ORDER BY m.operation) AS operations,
       string_agg(DISTINCT m.unit, ', ' ORDER BY m.unit) AS units,
       min(m.msg_bytes) AS min_bytes, max(m.msg_bytes) AS max_bytes,
       coalesce(sum(ev.n) FILTER (WHERE m.run_id IS NULL), 0) AS n_events,
       min(coalesce(m.source, r.source)) AS source
FROM runs r LEFT JOIN measurements m USING (run_id) LEFT JOIN ev USING (run_id)
WHERE r.system_id = $system{filters}
GROUP BY r.system_id, r.tool, m.metric
ORDER BY r.tool, n_measurements DESC, m.metric"""

OLD_BY_METRIC = """SELECT m.system_id, s.name, count(*) AS n_measurements, count(DISTINCT m.run_id) AS n_runs,
       string_agg(DISTINCT r.tool, ', ' ORDER BY r.tool) AS tools,
       string_agg(DISTINCT m.metric, ', ' ORDER BY m.metric) AS metrics,
       string_agg(DISTINCT m.operation, ', ' ORDER BY m.operation) AS operations,
       min(m.source) AS source
FROM measurements m JOIN runs r ON r.run_id = m.run_id JOIN systems s ON s.system_id = m.system_id
WHERE true{filters}{group}
GROUP BY m.system_id, s.name
ORDER BY n_measurements DESC, m.system_id"""

OLD_TRACES = """SELECT r.system_id, s.name, r.tool, count(DISTINCT r.run_id) AS n_runs, count(*) AS n_events,
       min(r.source) AS source
FROM trace_events t JOIN runs r USING (run_id) JOIN systems s ON s.system_id = r.system_id
WHERE true{filters}
GROUP BY r.system_id, s.name, r.tool
ORDER BY n_events DESC, r.system_id, r.tool"""

OLD_TRACE = """WITH tr AS (
  SELECT r.run_id, r.system_id, r.source_file,
         regexp_replace(r.source_file, '/[^/]*$', '') AS trace_set,
         coalesce(TRY_CAST(json_extract_string(r.params, '$.rank') AS INTEGER),
                  (SELECT min(t.rank) FROM trace_events t WHERE t.run_id = r.run_id)) AS rank
  FROM runs r
  WHERE r.run_id IN (SELECT DISTINCT run_id FROM trace_events){system}
),
win AS (
  SELECT t.run_id,
         coalesce(min(t.ts_us) FILTER (WHERE t.cat = 'Trace'), min(t.ts_us)) AS t0,
         coalesce(max(t.ts_us + t.dur_us) FILTER (WHERE t.cat = 'Trace'), max(t.ts_us + t.dur_us)) AS t1
  FROM trace_events t JOIN tr USING (run_id)
  WHERE t.ph = 'X' AND t.dur_us IS NOT NULL
  GROUP BY t.run_id
),
sets AS (
  SELECT tr.trace_set, any_value(tr.system_id) AS system_id, count(*) AS n_ranks,
         sum(win.t1 - win.t0) AS span_us, max(tr.run_id) AS last_run,
         bool_or({run_match}) AS run_match
  FROM tr JOIN win USING (run_id)
  GROUP BY tr.trace_set
),
pick AS (SELECT * FROM sets WHERE {run_filter} ORDER BY {order} LIMIT 1),
sel AS (
  SELECT tr.*, win.t0, win.t1, win.t1 - win.t0 AS window_us
  FROM tr JOIN win USING (run_id)
  WHERE tr.trace_set = (SELECT trace_set FROM pick){run_only}
),
gpu AS (
  SELECT e.run_id, e.ts_us AS t_start, e.ts_us + e.dur_us AS t_end,
         CASE WHEN e.cat = 'kernel' AND e.name LIKE 'nccl%' THEN 'c'
              WHEN e.cat = 'kernel' THEN 'k' ELSE 'm' END AS cls
  FROM trace_events e JOIN sel USING (run_id)
  WHERE e.ph = 'X' AND e.cat IN ('kernel', 'gpu_memcpy', 'gpu_memset') AND e.dur_us > 0
),
edges AS (
  SELECT run_id, t_start AS t, cls, 1 AS d FROM gpu
  UNION ALL
  SELECT run_id, t_end AS t, cls, -1 AS d FROM gpu
),
pts AS (
  SELECT run_id, t,
         coalesce(sum(d) FILTER (WHERE cls = 'c'), 0) AS dc,
         coalesce(sum(d) FILTER (WHERE cls = 'k'), 0) AS dk,
         coalesce(sum(d) FILTER (WHERE cls = 'm'), 0) AS dm
  FROM edges GROUP BY run_id, t
),
sweep AS (
  SELECT run_id,
         lead(t) OVER (PARTITION BY run_id ORDER BY t) - t AS len,
         sum(dc) OVER w AS nc, sum(dk) OVER w AS nk, sum(dm) OVER w AS nm
  FROM pts
  WINDOW w AS (PARTITION BY run_id ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
busy AS (
  SELECT run_id,
         coalesce(sum(len) FILTER (WHERE nk > 0), 0) AS compute,
         coalesce(sum(len) FILTER (WHERE nk = 0 AND nc > 0), 0) AS communication,
         coalesce(sum(len) FILTER (WHERE nk = 0 AND nc = 0 AND nm > 0), 0) AS memory,
         coalesce(sum(len) FILTER (WHERE nc > 0), 0) AS comm_total_us,
         coalesce(sum(len) FILTER (WHERE nc > 0 AND nk > 0), 0) AS overlap_us,
         coalesce(sum(len) FILTER (WHERE nc + nk + nm > 0), 0) AS busy_us
  FROM sweep WHERE len IS NOT NULL GROUP BY run_id
),
counts AS (
  SELECT e.run_id, count(*) FILTER (WHERE e.cat = 'kernel' AND e.name LIKE 'nccl%') AS nccl_kernels,
         count(*) FILTER (WHERE e.cat = 'kernel') AS kernels
  FROM trace_events e JOIN sel USING (run_id) WHERE e.ph = 'X' GROUP BY e.run_id
),
breakdown AS (
  SELECT 'breakdown' AS kind, sel.system_id, sel.trace_set, sel.run_id, sel.rank, c.category,
         round(CASE c.category WHEN 'compute' THEN b.compute WHEN 'communication' THEN b.communication
              WHEN 'memory' THEN b.memory ELSE greatest(sel.window_us - coalesce(b.busy_us, 0), 0) END, 3) AS value,
         'us' AS unit, round(sel.window_us, 3) AS window_us, round(b.busy_us, 3) AS busy_us,
         round(b.comm_total_us, 3) AS comm_total_us, round(b.overlap_us, 3) AS overlap_us,
         n.nccl_kernels, n.kernels,
         sel.source_file AS source, c.ord
  FROM sel
  CROSS JOIN (VALUES ('compute', 1), ('communication', 2), ('memory', 3), ('idle', 4)) AS c(category, ord)
  LEFT JOIN busy b USING (run_id)
  LEFT JOIN counts n USING (run_id)
),
top AS (
  SELECT 'top' AS kind, any_value(sel.system_id) AS system_id, any_value(sel.trace_set) AS trace_set,
         e.name, e.cat AS category, count(*) AS calls, round(sum(e.dur_us), 3) AS value, 'us' AS unit,
         count(DISTINCT e.run_id) AS n_ranks, round((SELECT sum(window_us) FROM sel), 3) AS window_us,
         any_value(sel.trace_set) || '/' AS source
  FROM trace_events e JOIN sel USING (run_id)
  WHERE e.ph = 'X' AND e.cat = $trace_cat AND e.dur_us IS NOT NULL{name_filter}
  GROUP BY e.name, e.cat
  ORDER BY value DESC, e.name
  LIMIT $top_n
),
set_list AS (
  SELECT string_agg(trace_set || ' (' || system_id || ', ' || n_ranks || ' ranks, '
                    || round(span_us / 1000 / n_ranks, 1) || ' ms)', '; ' ORDER BY span_us) AS trace_sets FROM sets
)
SELECT * EXCLUDE (ord) FROM (
  SELECT * FROM breakdown UNION ALL BY NAME SELECT * FROM top
  UNION ALL BY NAME SELECT 'no_match' AS kind WHERE NOT EXISTS (SELECT 1 FROM sel)
) CROSS JOIN set_list
ORDER BY kind, rank NULLS LAST, ord, value DESC"""


def canon(rows):
    return json.dumps(rows, sort_keys=False, default=str)


LIST_QUESTIONS = [
    ({}, ""),
    ({}, "which systems of the ISC 2022 papers are loaded?"),
    ({"system": "dgx2"}, ""),
    ({"system": "h200x2"}, ""),                                    # trace runs: events, no measurements
    ({"system": "ac922_yme", "metric": "bandwidth"}, ""),
    ({"system": "ipu16", "operation": "p2p"}, ""),
    ({"metric": "busbw"}, ""),
    ({"operation": "h2d", "metric": "bandwidth"}, ""),
    ({"library": "nccl"}, ""),
    ({"metric": "bandwidth"}, "which NTNU systems measured bandwidth?"),
    ({}, "which systems have traces?"),
    ({"library": "pytorch"}, "which systems have PyTorch traces?"),
    ({"system": "h200x2"}, "what traces are there for the H200 node?"),
]


@pytest.mark.parametrize("slots,question", LIST_QUESTIONS, ids=lambda x: str(x) if x else "-")
def test_list_data_rows_are_the_old_queries_rows(built_con, slots, question):
    cat = catalog.load(built_con)
    plan = ld.plan(slots, cat, question=question)
    old = {"all": OLD_ALL_SYSTEMS, "system": OLD_ONE_SYSTEM, "filter": OLD_BY_METRIC, "traces": OLD_TRACES}[
        plan.extra["mode"]]
    # the same fragments go into the old text: only the tables they read differ
    new_sql, filled = plan.sql, None
    for frags in _fragments(plan):
        if _fill(ld_templates()[plan.extra["mode"]], frags) == new_sql:
            filled = _fill(old, frags)
            break
    assert filled is not None, "could not rebuild the old query from the plan"
    assert "measurements m" not in new_sql and "trace_events" not in new_sql
    want = fetch(built_con, filled, plan.params)
    assert want, "a case with no rows checks nothing"
    assert canon(rows_of(built_con, plan)) == canon(want)


def ld_templates():
    return {"all": ld.ALL_SYSTEMS, "system": ld.ONE_SYSTEM, "filter": ld.BY_METRIC, "traces": ld.TRACES}


def _fill(template, frags):
    try:
        return template.format(**frags)
    except KeyError:
        return None


def _fragments(plan):
    """Every way list_data.plan fills its templates' placeholders, for rebuilding the old query alike."""
    f = "".join(ld.FILTERS[k] for k in ld.FILTERS if plan.params.get(k) is not None and k in plan.slots)
    group = plan.params.get("group") is not None
    lib = " AND starts_with(lower(r.tool), $library)" if "library" in plan.params else ""
    yield {"filters": f, "group": " AND list_contains($group, m.system_id)" if group else ""}
    yield {"where": " WHERE list_contains($group, s.system_id)" if group else "",
           "e_where": " WHERE list_contains($group, r.system_id)" if group else ""}
    for t in ("", " AND r.system_id = $system", " AND list_contains($group, r.system_id)"):
        yield {"filters": lib + t}


TRACE_QUESTIONS = [
    {"system": "h200x2"},
    {},
    {"system": "h200x2", "run": "long"},
    {"system": "h200x2", "run": 339},
    {"system": "h200x2", "run": "pytorch_trace_long"},
    {"system": "h200x2", "trace_cat": "cpu_op", "top_n": 5},
    {"system": "h200x2", "library": "nccl"},
    {"system": "h200x2", "run": "no_such_trace"},                  # no set matches: the list of sets
    {"run": "TRACE_LONG", "top_n": 3},                              # any system; case-insensitive
    {"system": "h200x2", "app": "elementwise", "top_n": 5},    # ("gemm" is a family of names now: nvjet, cutlass...)
    {"system": "h200x2", "run": 340, "trace_cat": "gpu_memcpy"},
]


@pytest.mark.parametrize("slots", TRACE_QUESTIONS, ids=str)
def test_trace_breakdown_rows_are_the_old_sweeps_rows(built_con, slots):
    cat = catalog.load(built_con)
    plan = tb.plan(slots, cat)
    assert "trace_events" not in plan.sql and "trace_events" in plan.extra["top_sql"]   # only the top kernels
    # the old query's fragments for these slots, as its planner chose them
    frags = {"system": "", "run_only": "", "name_filter": "", "run_match": "false", "run_filter": "true",
             "order": "span_us ASC, last_run DESC"}
    params = {"top_n": plan.narrow["top"]["top_n"], "trace_cat": plan.narrow["top"]["trace_cat"]}
    if slots.get("system"):
        frags["system"], params["system"] = " AND r.system_id = $system", slots["system"]
    by, run = plan.narrow["by"], plan.narrow["run"]
    if by == "longest":
        frags["order"] = "span_us DESC, last_run DESC"
    elif by == "run_id":
        frags.update(run_match="tr.run_id = $run", run_filter="run_match", run_only=" AND tr.run_id = $run")
        params["run"] = run
    elif by == "name":
        frags.update(run_match="(tr.trace_set ILIKE '%' || $run || '%' OR tr.source_file ILIKE '%' || $run || '%')",
                     run_filter="run_match",
                     order="(regexp_extract(trace_set, '[^/]+$') = $run) DESC, span_us ASC, last_run DESC")
        params["run"] = run
    if slots.get("library") == "nccl":
        frags["name_filter"] = " AND e.name ILIKE 'nccl%'"
    elif slots.get("app"):
        frags["name_filter"], params["app"] = " AND e.name ILIKE '%' || $app || '%'", slots["app"]
    want = fetch(built_con, OLD_TRACE.format(**frags), params)
    # the old query's kinds of rows (a filtered question now also gets per-rank sums of what it keeps: kind 'stats')
    got = [{k: v for k, v in r.items() if k != "mean_us"}   # (and the top rows now carry their time per call)
           for r in rows_of(built_con, plan) if r["kind"] in ("breakdown", "top", "no_match")]
    assert [list(r) for r in got] == [list(r) for r in want]
    for g, w in zip(got, want):     # the sweep's sums once per run at load time: equal to the last rounded digit
        assert g == {k: pytest.approx(v, abs=2e-3) if isinstance(v, float) else v for k, v in w.items()}


def test_sql_like_matching_in_python():
    from app.intents._narrow import duck_round, ilike_contains
    assert ilike_contains("datasets/raw/h200x2/pytorch_trace_long", "TRACE_LONG")
    assert ilike_contains("pytorch_trace", "trace%") and ilike_contains("pytorchXtrace", "h_t")   # SQL wildcards
    assert not ilike_contains("pytorch_trace", "long") and not ilike_contains(None, "x")
    assert [duck_round(x, 3) for x in (1.0005, -1.0005, 2.5e-4, None)] == [1.001, -1.001, 0.0, None]
    assert duck_round(71.25, 1) == 71.3 and repr(duck_round(70.0, 1)) == "70.0"


def test_the_summaries_are_a_recount_of_the_built_database(built_con):
    recount = built_con.execute("""SELECT run_id, system_id, metric, operation, library, unit, count(*),
        min(msg_bytes), max(msg_bytes), min(source) FROM measurements GROUP BY ALL ORDER BY ALL""").fetchall()
    assert built_con.execute("SELECT * FROM run_measurement_stats ORDER BY ALL").fetchall() == recount
    events = built_con.execute("SELECT run_id, count(*) FROM trace_events GROUP BY ALL ORDER BY ALL").fetchall()
    assert built_con.execute("SELECT run_id, n_events FROM trace_run_stats ORDER BY ALL").fetchall() == events
    assert len(events) == 4


def test_a_load_adds_its_runs_summaries_and_a_failed_load_adds_none(ingest, db):
    rep = ingest(FIXTURES / "nccl_tests" / "all_reduce_perf_8xh100.txt", system="h100x8")
    assert rep.status == "loaded", rep.line()
    n = db.execute("SELECT sum(n) FROM run_measurement_stats").fetchone()[0]
    assert n == rep.measurements == db.execute("SELECT count(*) FROM measurements").fetchone()[0] > 0
    rep = ingest(RAW / "h200x2" / "pytorch_trace" / "trace_rank0.json.gz")
    assert rep.status == "loaded", rep.line()
    (rank, n_events, nccl), = db.execute("SELECT rank, n_events, nccl_kernels FROM trace_run_stats").fetchall()
    assert (rank, n_events, nccl) == (0, rep.events, 9)
    before = table_counts(db)
    rejected(ingest, db, FIXTURES / "nccl_tests" / "all_reduce_perf_truncated.txt")   # counts every table
    assert table_counts(db) == before


def test_a_database_written_before_the_summaries_gets_them_when_opened_for_writing(tmp_path):
    path = tmp_path / "old.duckdb"
    con = loader.connect(path)
    assert loader.ingest_file(con, FIXTURES / "nccl_tests" / "all_reduce_perf_8xh100.txt",
                              system_id="h100x8").status == "loaded"
    want = con.execute("SELECT * FROM run_measurement_stats ORDER BY ALL").fetchall()
    con.execute("DROP TABLE run_measurement_stats")
    con.execute("DROP TABLE trace_run_stats")
    con.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    con.close()
    con = loader.connect(path)
    assert con.execute("SELECT * FROM run_measurement_stats ORDER BY ALL").fetchall() == want and want
    assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "3"
    con.close()


def test_asking_a_database_written_before_the_summaries_says_how_to_update_it(tmp_path):
    path = tmp_path / "old.duckdb"
    con = loader.connect(path)
    con.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    con.close()
    with pytest.raises(StaleDatabase, match="hpcask db build"):
        Asker(path)
    loader.connect(path).close()      # opened for writing, it is brought up to date
    con = duckdb.connect(str(path), read_only=True)
    _check_schema(con, path)          # no error now
    con.close()


def test_two_trace_questions_that_differ_only_in_the_kernel_filter_are_cached_apart(built_con):
    from app.rowcache import RowCache
    cat = catalog.load(built_con)
    cache = RowCache(built_con)
    every = cache.rows(tb.plan({"system": "h200x2"}, cat))
    nccl = cache.rows(tb.plan({"system": "h200x2", "library": "nccl"}, cat))
    gemm = cache.rows(tb.plan({"system": "h200x2", "app": "gemm"}, cat))
    tops = [{r["name"] for r in rows if r["kind"] == "top"} for rows in (every, nccl, gemm)]
    assert all(n.startswith("nccl") for n in tops[1])
    assert tops[2] and all("gemm" in n.lower() or "nvjet" in n.lower() for n in tops[2])   # cuBLAS's GEMMs on Hopper
    assert tops[0] != tops[1] and cache.hits == 0
