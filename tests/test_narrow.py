"""Defaults taken in Python over one plain query's rows (app/intents/_narrow.py) give the rows that the same
defaults written as SQL windows gave. The oracle below is that SQL (the QUALIFY chain metric_lookup ran before),
run on the real database; the planner's rows must match it row for row."""
from __future__ import annotations

import pytest

from app import catalog
from app.intents import Plan, _narrow, fetch, get, rows_of
from app.intents._common import MANY_ROWS, PREFERRED_CONDITIONS, where

ML = get("metric_lookup")

PER_UNIT = ("coalesce(regexp_matches(json_extract_string(m.params, '$.quantity'), '^(avg .*)?per '), false) "
            "AS _per_unit")
RULES = {
    "metric": "m.metric = min({'q': CASE m.metric WHEN 'bandwidth' THEN 0 WHEN 'busbw' THEN 1 WHEN 'flops' THEN 2 "
              "WHEN 'throughput' THEN 3 WHEN 'latency' THEN 4 WHEN 'time' THEN 5 ELSE 6 END, 'n': -m._n, "
              "'metric': m.metric}) OVER ().metric",
    "per_unit": "(NOT m._per_unit OR NOT bool_or(NOT m._per_unit) OVER ())",
    "count": "(CASE WHEN bool_and(m.tool IS NOT DISTINCT FROM 'SHOC') OVER () "
             "THEN coalesce(m.count, 1) = 1 OR NOT bool_or(coalesce(m.count, 1) = 1) OVER () "
             "ELSE coalesce(max(m.count) OVER (), 0) <= 1 OR m.count = max(m.count) OVER () END)",
    "one_device": "(coalesce(m.count, 1) = 1 OR NOT bool_or(coalesce(m.count, 1) = 1) OVER ())",
    "size": "m.msg_bytes IS NOT DISTINCT FROM max(m.msg_bytes) OVER ()",
    "small_size": "m.msg_bytes IS NOT DISTINCT FROM min(m.msg_bytes) OVER ()",
    "direction": "(m.direction IS DISTINCT FROM 'bi' OR NOT bool_or(m.direction IS DISTINCT FROM 'bi') OVER ())",
}
COLS = ("system_id, metric, operation, src, dst, direction, msg_bytes, count, count_kind, condition, precision, "
        "statistic, app, value, unit, source, tool")


def oracle(con, plan: Plan) -> list[dict]:
    """The rows of the window-rule SQL for the plan's filters and steps (ties broken as the planner does)."""
    sql = plan.sql
    for pre in (ML.LARGEST, ML.SMALLEST):   # a prefilter, checked below
        sql = sql[:-len(pre)] if sql.endswith(pre) else sql
    cond = sql[sql.index(" WHERE "):] if " WHERE " in sql else ""
    sel = (f"SELECT m.system_id, m.metric, m.operation, m.src, m.dst, m.direction, m.msg_bytes, m.count, "
           f"m.count_kind, m.condition, m.precision, m.statistic, m.app, m.value, m.unit, m.source, r.tool, "
           f"m.rowid AS _row, {PER_UNIT} FROM measurements m JOIN runs r USING (run_id){cond}")
    sql, prev = f"WITH sel AS ({sel})", "sel"
    for i, step in enumerate(plan.narrow["steps"]):
        if step == "most_pairs":
            # the tool that measured the most distinct pairs (ties by name), then its rows of the first preferred
            # condition present
            prefs = ", ".join(f"'{c}'" for c in PREFERRED_CONDITIONS)
            sql += (f",\nt{i} AS (SELECT tool, count(DISTINCT concat_ws('>', src, dst)) AS n FROM {prev} "
                    f"WHERE src IS NOT NULL AND dst IS NOT NULL GROUP BY tool)"
                    f",\nk{i} AS (SELECT * FROM {prev} m WHERE (SELECT count(*) FROM t{i}) < 2 OR m.tool IS NOT "
                    f"DISTINCT FROM (SELECT tool FROM t{i} ORDER BY n DESC, tool NULLS FIRST LIMIT 1))"
                    f",\nd{i} AS (SELECT * FROM k{i} m WHERE NOT EXISTS (SELECT 1 FROM k{i} WHERE condition IN "
                    f"({prefs})) OR m.condition = (SELECT condition FROM k{i} WHERE condition IN ({prefs}) ORDER BY "
                    f"list_position([{prefs}], condition) LIMIT 1))")
            prev = f"d{i}"
            continue
        rule = RULES[step]
        src = f"(SELECT *, count(*) OVER (PARTITION BY metric) AS _n FROM {prev}) m" if step == "metric" \
            else f"{prev} m"
        sql += f",\nd{i} AS (SELECT * FROM {src} QUALIFY {rule})"
        prev = f"d{i}"
    order = "ASC" if plan.narrow["order"] == "asc" else "DESC"
    sql += (f"\nSELECT {COLS} FROM {prev} m ORDER BY m.value {order}, m.src NULLS FIRST, m.dst NULLS FIRST, "
            f"m.source, m.tool NULLS FIRST, m._row"
            + (f" LIMIT {plan.narrow['limit']}" if plan.narrow.get("limit") else ""))   # an average's rows: all
    return fetch(con, sql, plan.params)


CASES = [
    {"system": "dgx2", "metric": "bandwidth", "operation": "h2d"},
    {"system": "h200x2", "metric": "busbw", "operation": "allreduce"},
    {"system": "h200x2", "metric": "time", "operation": "alltoall", "aggregate": "min"},
    {"system": "ipu16", "metric": "latency", "operation": "reduce"},                 # per-operand rows beside
    {"system": "ipu16", "metric": "latency", "operation": "reduce", "aggregate": "mean"},
    {"system": "dgx2", "operation": "p2p"},                                         # no metric: one is chosen
    {"system": "dgx2", "metric": "bandwidth", "operation": "p2p", "condition": "p2p_off"},
    {"system": "ac922_yme", "metric": "bandwidth", "operation": "p2p", "src": "gpu0", "dst": "gpu1"},
    {"system": "ac922_yme", "metric": "bandwidth", "operation": "d2d", "direction": "bi"},
    {"system": "dgx2", "metric": "latency", "operation": "p2p"},       # thousands of rows: the smallest size's
    {"system": "dgx2", "metric": "latency", "operation": "p2p", "src": "gpu0", "dst": "gpu15"},
    {"system": "dgx2", "metric": "bandwidth", "operation": "p2p", "aggregate": "min"},   # Tartan's 240 pairs
    {"system": "ac922_yme", "operation": "sgemm_n"},                  # SHOC's rows of 1 to 4 GPUs: one GPU's
]


@pytest.mark.parametrize("slots", CASES, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_metric_lookup_rows_are_the_window_rules_rows(built_con, slots):
    cat = catalog.load(built_con)
    plan = ML.plan(slots, cat)
    assert "JOIN" not in plan.sql and "OVER" not in plan.sql.replace(ML.LARGEST, "").replace(ML.SMALLEST, "")
    got = rows_of(built_con, plan)
    want = oracle(built_con, plan)
    assert want, "a case with no rows checks nothing"
    for r in got:
        r.pop("_matched")
    assert got == want


def test_a_pair_measured_per_path_class_falls_back_to_the_class_rows(built_con):
    """DGX-1 V100 GPU0 -> GPU1: no row of the pair itself; the second query brings the class rows and links."""
    cat = catalog.load(built_con)
    plan = ML.plan({"system": "dgx1_v100", "metric": "bandwidth", "operation": "p2p", "src": "gpu0",
                    "dst": "gpu1"}, cat)
    rows = rows_of(built_con, plan)
    parts = {r["part"] for r in rows}
    assert parts == {"class", "link"}
    n_links = built_con.execute("SELECT count(*) FROM links WHERE system_id = 'dgx1_v100'").fetchone()[0]
    assert sum(r["part"] == "link" for r in rows) == n_links
    assert all(r["path_class"] for r in rows if r["part"] == "class")


def test_the_rules_keep_what_sql_windows_keep_with_nulls():
    rows = [{"count": None, "msg_bytes": None, "direction": "bi"}, {"count": 1, "msg_bytes": 8, "direction": None}]
    assert _narrow.largest_count(rows) == rows                  # no count above one: nothing is dropped
    assert _narrow.largest_size(rows) == rows[1:]               # a row without a size loses to a sized one
    assert _narrow.largest_size([rows[0]]) == [rows[0]]         # ... unless no row has a size
    assert _narrow.one_way(rows) == rows[1:]                    # a NULL direction is not bidirectional
    assert _narrow.one_way(rows[:1]) == rows[:1]                # bidirectional when that is all there is
    two = [{"count": 2}, {"count": 8}, {"count": None}]
    assert _narrow.largest_count(two) == [{"count": 8}]


def test_ties_are_ordered_by_pair_then_source_never_by_scan_order():
    rows = [{"value": 1.0, "src": "gpu1", "dst": None, "source": "b", "tool": "t"},
            {"value": 1.0, "src": None, "dst": None, "source": "z", "tool": "t"},
            {"value": 2.0, "src": "gpu9", "dst": "gpu0", "source": "a", "tool": "t"},
            {"value": 1.0, "src": "gpu1", "dst": None, "source": "a", "tool": "t"}]
    assert [(r["value"], r["src"], r["source"]) for r in _narrow.ordered(rows, "desc")] == \
        [(2.0, "gpu9", "a"), (1.0, None, "z"), (1.0, "gpu1", "a"), (1.0, "gpu1", "b")]
    assert [r["value"] for r in _narrow.ordered(rows, "asc")] == [1.0, 1.0, 1.0, 2.0]


def test_topology_links_carry_their_ends_as_the_components_join_gave(built_con):
    cat = catalog.load(built_con)
    topo = get("topology")
    for slots in ({"system": "dgx2"}, {"system": "dgx2", "link_type": "NVSwitch"},
                  {"system": "dgx2", "link_type": "NVSwitch", "src": "gpu3"}, {"system": "xmp64", "link_type": "XLink"}):
        if slots["system"] not in cat.systems:
            continue
        plan = topo.plan(slots, cat)
        assert "JOIN" not in plan.sql
        got = rows_of(built_con, plan)
        lt, node = plan.params.get("link_type"), plan.params.get("node")
        sel = ["true"]
        if lt:
            sel = ["(starts_with(lower(l.link_type), lower($link_type)) OR (lower($link_type) = 'nvswitch' "
                   "AND 'nvswitch' IN (ca.kind, cb.kind)))"]
        if node:
            sel = (sel if lt else []) + ["(l.a = $node OR l.b = $node)"]
        want = built_con.execute(f"""
            SELECT l.system_id, l.a, l.b, l.link_type, l.count, l.bw_gbps_per_dir, l.directed, l.note, l.source,
                   ca.kind AS a_kind, cb.kind AS b_kind, ca.label AS a_label, cb.label AS b_label,
                   ca.parent AS a_parent, cb.parent AS b_parent,
                   TRY_CAST(json_extract_string(ca.attrs, '$.nvlink_gbps_per_dir') AS DOUBLE) AS a_nvlink_gbps_per_dir,
                   TRY_CAST(json_extract_string(cb.attrs, '$.nvlink_gbps_per_dir') AS DOUBLE) AS b_nvlink_gbps_per_dir,
                   {' AND '.join(sel)} AS selected
            FROM links l
            LEFT JOIN components ca ON ca.system_id = l.system_id AND ca.component_id = l.a
            LEFT JOIN components cb ON cb.system_id = l.system_id AND cb.component_id = l.b
            WHERE l.system_id = $system ORDER BY l.link_type, l.a, l.b""", plan.params).fetchall()
        assert [tuple(r.values()) for r in got] == want
        if lt and lt.lower() == "nvswitch":
            assert any(r["selected"] for r in got)     # the GPU-to-switch links, though their type is NVLink


def test_the_row_cache_keys_on_the_narrowing(built_con):
    """Two plans with one SQL text and one set of parameters, told to order their rows differently, are two
    entries of the cache, not one."""
    from app.rowcache import RowCache
    cat = catalog.load(built_con)
    low = ML.plan({"system": "h200x2", "metric": "time", "operation": "alltoall", "aggregate": "min"}, cat)
    high = ML.plan({"system": "h200x2", "metric": "time", "operation": "alltoall", "aggregate": "max"}, cat)
    assert (low.sql, low.params) == (high.sql, high.params) and low.narrow != high.narrow
    cache = RowCache(built_con)
    assert cache.rows(low)[0]["value"] < cache.rows(high)[0]["value"]
    assert cache.misses == 2


def test_the_built_measurements_are_clustered_by_system_metric_and_operation(built_con):
    keys = built_con.execute("SELECT system_id, metric, coalesce(operation, '') FROM measurements "
                             "ORDER BY rowid").fetchall()
    assert keys == sorted(keys, key=lambda k: (k[0], k[1], k[2] if k[2] else "\uffff"))
    groups = built_con.execute("SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('measurements')"
                               ).fetchone()[0]
    n = built_con.execute("SELECT count(*) FROM measurements").fetchone()[0]
    from ingest.build import ROW_GROUP_SIZE
    assert groups >= n // ROW_GROUP_SIZE > 2


def test_where_values_travel_as_parameters_only():
    cond, params = where({"system": "x'; DROP TABLE measurements; --", "metric": "bandwidth"},
                         ("system", "metric"))
    assert "DROP" not in cond and params["system"].startswith("x'")


# size_sweep's SQL before the curve was picked in Python: the oracle for _narrow.sweep
SWEEP_ORACLE = """WITH sel AS (
  SELECT m.*, r.tool, {variant} AS variant, m.rowid AS _row FROM measurements m JOIN runs r USING (run_id){where}
),
ranked AS (
  SELECT *, count(DISTINCT msg_bytes) OVER slice AS nsizes, count(*) OVER slice AS n FROM sel
  WINDOW slice AS (PARTITION BY metric, operation, tool, src, dst, direction, count, count_kind, statistic, precision,
                   app, variant, unit)
),
picked AS (
  SELECT * FROM ranked
  QUALIFY dense_rank() OVER (
    ORDER BY nsizes DESC, (direction IS NULL OR direction = 'uni') DESC, (statistic IS NULL OR statistic = 'mean') DESC,
             count DESC NULLS LAST, n DESC,
             (variant = '' OR lower(variant) LIKE '%total%' OR lower(variant) LIKE '%aggregate%') DESC,
             metric, operation NULLS FIRST, tool, src NULLS FIRST, dst NULLS FIRST, direction NULLS FIRST,
             count_kind NULLS FIRST, statistic NULLS FIRST, precision NULLS FIRST, app NULLS FIRST, lower(variant),
             unit) = 1
  ORDER BY _row
)
SELECT coalesce(s.condition, 'default') AS series, s.msg_bytes, avg(s.value) AS value, any_value(s.unit) AS unit,
       count(*) AS n, {sources} AS source,
       bool_or(s.msg_bytes = {at}) AS at_size,
       any_value(s.system_id) AS system_id, any_value(s.metric) AS metric, any_value(s.operation) AS operation,
       any_value(s.tool) AS tool, any_value(s.src) AS src, any_value(s.dst) AS dst,
       any_value(s.direction) AS direction, any_value(s.count) AS count, any_value(s.count_kind) AS count_kind,
       any_value(s.statistic) AS statistic, any_value(s.precision) AS precision, any_value(s.app) AS app,
       any_value(s.variant) AS variant
FROM picked s
GROUP BY 1, 2
ORDER BY 1, 2"""

SWEEPS = [
    {"system": "h200x2", "metric": "busbw", "operation": "allreduce"},                 # in-place / out-of-place
    {"system": "h200x2", "metric": "busbw", "operation": "allreduce", "msg_bytes": 1 << 20},
    {"system": "dgx2", "metric": "bandwidth", "operation": "h2d"},                      # pinned / pageable ...
    {"system": "dgx2", "metric": "bandwidth", "operation": "p2p"},                      # many pairs: one picked
    {"system": "ac922_yme", "metric": "bandwidth", "operation": "p2p", "src": "gpu0", "dst": "gpu2"},
    {"system": "dgx2", "metric": "latency", "operation": "p2p"},                        # lower is better
    {"system": "dgx2", "metric": "bandwidth", "operation": "p2p", "tool": "Tartan"},   # a tool: runs joined
]


@pytest.mark.parametrize("slots", SWEEPS, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_size_sweep_points_are_the_window_rules_points(built_con, slots):
    from app.intents._common import VARIANT_SQL, sources_sql, where_plus
    cat = catalog.load(built_con)
    plan = get("size_sweep").plan(slots, cat)
    assert "OVER" not in plan.sql
    cond, params = where_plus(plan.slots, get("size_sweep").FILTERS, fixed=("m.msg_bytes IS NOT NULL",))
    at = "NULL"
    if slots.get("msg_bytes") is not None:
        at, params["msg_bytes"] = "$msg_bytes", slots["msg_bytes"]
    want = fetch(built_con, SWEEP_ORACLE.format(where=cond, at=at, sources=sources_sql("s.source"),
                                                variant=VARIANT_SQL), params)
    assert want, "a case with no rows checks nothing"
    assert rows_of(built_con, plan) == want



# scaling's SQL before the series was picked in Python: the oracle for _narrow.scaling
COLLECTIVES = {"allreduce", "allgather", "alltoall", "broadcast", "reduce", "reduce_scatter", "gather", "scatter",
               "barrier", "sendrecv"}
TIME_LIKE = {"time", "latency"}
# weak scaling (ideal: constant time) when the experiment says so, else for a collective's time
_WEAK = ("(per.family ILIKE '%weak%' OR (per.family NOT ILIKE '%strong%' AND per.metric IN ('time', 'latency') "
         "AND per.operation IN ({ops})))")

_SQL = """WITH sel AS (
  SELECT m.*, r.tool, m.rowid AS _row,
         regexp_replace(coalesce(r.experiment, ''),
                        '_[0-9]+(gpu|gpus|ipu|ipus|node|nodes|rank|ranks|tile|tiles|core|cores)(_.*)?$', '') AS family,
         concat_ws('|', m.app, m.params->>'result', m.params->>'quantity', m.params->>'design',
                   m.params->>'preconditioner', m.params->>'band', m.params->>'baseline') AS variant
  FROM measurements m JOIN runs r USING (run_id){where}
),
-- the series with the most counts: every row carries its series' counts (window aggregates), and the rows of
-- the first series in a fixed order over every series column stay (one pass; no join back to sel)
ranked AS (
  SELECT *, count(DISTINCT count) OVER series AS ncounts, max(count) OVER series AS top, count(*) OVER series AS n
  FROM sel
  WINDOW series AS (PARTITION BY metric, operation, tool, family, count_kind, variant, statistic, unit, msg_bytes)
),
picked AS (
  SELECT * FROM ranked
  QUALIFY dense_rank() OVER (
    ORDER BY {prefer}ncounts DESC, top DESC, {prefer2} (statistic IS NULL OR statistic = 'mean') DESC,
             (variant = '' OR variant ILIKE '%total%' OR variant ILIKE '%aggregate%') DESC,
             msg_bytes DESC NULLS LAST, n DESC,
             -- ties: a fixed order over every series column, so the answer never depends on scan order
             metric, operation NULLS FIRST, tool, family, variant, count_kind NULLS FIRST, statistic NULLS FIRST,
             unit) = 1
  ORDER BY _row   -- the rows in table order, as the aggregates below always saw them (sums, lists)
),
per AS (
  SELECT s.count, {value} AS value, any_value(s.unit) AS unit, count(*) AS n,
         {sources} AS source,
         any_value(s.system_id) AS system_id, any_value(s.metric) AS metric, any_value(s.operation) AS operation,
         any_value(s.count_kind) AS count_kind, any_value(s.tool) AS tool, any_value(s.family) AS family,
         any_value(s.variant) AS variant, any_value(s.statistic) AS statistic, any_value(s.msg_bytes) AS msg_bytes,
         string_agg(DISTINCT s.condition, ', ' ORDER BY s.condition) AS conditions
  FROM picked s
  GROUP BY s.count
),
-- the smallest count with a usable value (nccl-tests prints a bus bandwidth of 0 for one GPU)
base AS (SELECT count AS base_count, value AS base_value FROM per WHERE value <> 0 ORDER BY count LIMIT 1)
SELECT per.*, base.base_count, {speedup} AS speedup,
       {speedup} / (CASE WHEN {weak} THEN 1.0 ELSE per.count::DOUBLE / base.base_count END) AS efficiency,
       CASE WHEN {weak} THEN 1.0 ELSE per.count::DOUBLE / base.base_count END AS ideal_speedup,
       CASE WHEN {weak} THEN 'weak' ELSE 'strong' END AS scaling_kind
FROM per, base
ORDER BY per.count"""

_SPEEDUP_TIME = "base.base_value / nullif(per.value, 0)"
_SPEEDUP_RATE = "per.value / base.base_value"




def old_scaling_sql(s: dict, cond: str, derive: bool) -> str:
    from app.intents._common import HIGHER_BETTER, agg_choice, best_source_sql
    metric = s.get("metric")
    if metric in TIME_LIKE:
        speedup = _SPEEDUP_TIME
    elif metric in HIGHER_BETTER:
        speedup = _SPEEDUP_RATE
    elif metric is None or derive:
        speedup = (f"CASE WHEN per.metric IN ('time', 'latency') THEN {_SPEEDUP_TIME} "
                   f"WHEN per.metric IN ({', '.join(repr(x) for x in sorted(HIGHER_BETTER))}) THEN {_SPEEDUP_RATE} END")
    else:
        speedup = "NULL::DOUBLE"
    agg, agg_words = agg_choice(s, metric)
    value, sources = f"{agg}(s.value)", best_source_sql(agg, "s.source", "s.value")
    if derive and s.get("aggregate") not in ("max", "min", "mean"):   # the best of the series' own metric
        time_like = "any_value(s.metric) IN ('time', 'latency')"
        rate = f"any_value(s.metric) IN ({', '.join(repr(x) for x in sorted(HIGHER_BETTER))})"
        value = (f"CASE WHEN {time_like} THEN min(s.value) WHEN {rate} THEN max(s.value) "
                 f"ELSE {agg}(s.value) END")     # a stored speedup / efficiency series: as before
        sources = (f"CASE WHEN {time_like} THEN arg_min(s.source, s.value) WHEN {rate} THEN "
                   f"arg_max(s.source, s.value) ELSE {best_source_sql(agg, 's.source', 's.value')} END")
    weak = _WEAK.format(ops=", ".join(f"'{x}'" for x in sorted(COLLECTIVES)))
    # a stored series of the asked metric first; else the longest; a time series before a rate (nccl-tests'
    # algbw of one GPU is a copy within it, not a bandwidth to scale from)
    prefer = "(metric = $metric AND ncounts >= 2) DESC, " if derive else ""
    # with no metric named, nccl-tests' bus bandwidth is what its users quote (algbw of one GPU is a copy within
    # it, petabytes a second), then a time
    first = "(metric = $metric) DESC, " if derive else "(metric = 'busbw') DESC, " if metric is None else ""
    prefer2 = f"{first}(metric IN ('time', 'latency')) DESC, " if first else ""
    sql = _SQL.format(where=cond, value=value, speedup=speedup, weak=weak, sources=sources, prefer=prefer,
                      prefer2=prefer2)
    return sql


SCALINGS = [
    {"system": "dgx2", "operation": "allreduce", "metric": "time", "count_kind": "ranks"},
    {"system": "ipu16", "metric": "bandwidth", "operation": "p2p"},
    {"system": "ipu16", "metric": "latency", "operation": "broadcast"},                 # a collective: weak
    {"system": "ipu16", "metric": "latency", "operation": "gather", "aggregate": "mean"},
    {"system": "h200x2", "operation": "allreduce"},                                      # no metric: busbw first
    {"system": "h200x2", "metric": "efficiency", "operation": "allreduce"},              # derived
    {"system": "h200x2", "metric": "speedup", "operation": "allreduce", "aggregate": "max"},
    {"system": "dgx2", "metric": "flops", "operation": "stencil_dp"},
    {"system": "ipu16", "metric": "bandwidth", "operation": "reduce", "count": 8},
]


@pytest.mark.parametrize("slots", SCALINGS, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_scaling_rows_are_the_window_rules_rows(built_con, slots):
    mod = get("scaling")
    cat = catalog.load(built_con)
    plan = mod.plan(slots, cat)
    assert "OVER" not in plan.sql
    s = plan.slots
    derive = plan.extra["derive"]
    from app.intents._common import where_plus
    if derive:
        cond, params = where_plus(s, [k for k in mod.FILTERS if k != "metric"],
                                  fixed=("m.count IS NOT NULL", "list_contains($metrics, m.metric)"))
        params["metrics"], params["metric"] = plan.params["metrics"], s["metric"]
    else:
        cond, params = where_plus(s, mod.FILTERS, fixed=("m.count IS NOT NULL",))
    if s.get("count") is not None:
        cond += " AND m.count <= $count"
        params["count"] = s["count"]
    assert params == plan.params
    want = fetch(built_con, old_scaling_sql(s, cond, derive), params)
    assert want, "a case with no rows checks nothing"
    got = rows_of(built_con, plan)
    for g, w in zip(got, want):
        # the ideal a source states beside a speedup (Hy-Fi's Fig. 13) is carried along, never chosen on; the old
        # window query did not select it, and none of these series has one
        assert g.pop("stated_ideal") is None
        if g.pop("per_device"):   # a rate of each device (busbw, SHOC's flat results): no speedup against linear
            w.update(speedup=None, efficiency=None)
    assert got == want


def test_a_tie_for_the_best_value_names_the_first_row_in_table_order():
    rs = [{"value": 2.0, "source": "b"}, {"value": 3.0, "source": "first"}, {"value": 3.0, "source": "a"}]
    assert _narrow._best(rs, "max") == (3.0, "first")
    assert _narrow._best(rs, "min") == (2.0, "b")
    assert _narrow._best(rs, "avg") == (8.0 / 3, "a; b +1 more")



# congestion's SQL before the pairs were put together in Python: the oracle for _narrow.congestion
CONGESTION_ORACLE = """WITH sel AS (
  SELECT m.*, r.tool,
         coalesce(m.params->>'experiment_label', m.params->>'pattern', '') AS case_key,
         coalesce(m.params->>'quantity', '') AS quantity,
         coalesce(m.params->>'proximity', m.params->>'congestors', '') AS case_label
  FROM measurements m JOIN runs r USING (run_id){where}
),
b AS (SELECT * FROM sel WHERE condition = $base_condition),
s AS (SELECT * FROM sel WHERE condition = $stress_condition),
rep AS (
  SELECT run_id, coalesce(params->>'experiment_label', params->>'pattern', '') AS case_key,
         any_value(value) AS value
  FROM measurements WHERE metric = 'slowdown' AND unit = 'x' GROUP BY ALL
)
SELECT b.system_id, b.metric, b.operation, b.app, b.case_key, b.case_label, b.src, b.dst, b.direction,
       b.quantity, b.count AS base_count, s.count AS stress_count,
       coalesce(b.count_kind, s.count_kind) AS count_kind, b.condition AS base_condition,
       s.condition AS stress_condition, b.value AS base_value, s.value AS stress_value, b.unit,
       CASE WHEN b.metric IN ({lower}) THEN s.value / b.value ELSE b.value / s.value END AS slowdown,
       rep.value AS reported_slowdown, b.tool,
       CASE WHEN b.source = s.source THEN b.source ELSE b.source || '; ' || s.source END AS source
FROM b JOIN s
  ON b.run_id = s.run_id AND b.metric = s.metric AND b.case_key = s.case_key AND b.quantity = s.quantity
 AND b.app IS NOT DISTINCT FROM s.app AND b.src IS NOT DISTINCT FROM s.src AND b.dst IS NOT DISTINCT FROM s.dst
 AND b.direction IS NOT DISTINCT FROM s.direction AND b.statistic IS NOT DISTINCT FROM s.statistic
 AND b.unit = s.unit
LEFT JOIN rep ON rep.run_id = b.run_id AND rep.case_key = b.case_key
WHERE b.case_key <> '' AND (b.statistic IS NULL OR b.statistic = 'mean') AND b.value <> 0 AND s.value <> 0
ORDER BY b.metric, slowdown DESC, b.app NULLS FIRST, b.case_key, b.src NULLS FIRST, b.dst NULLS FIRST,
         b.quantity, b.direction NULLS FIRST"""



CONGESTIONS = [
    {"system": "ipu16"},
    {"system": "ipu16", "metric": "latency", "operation": "p2p"},
    {"system": "ipu16", "metric": "bandwidth", "operation": "p2p", "condition": "under_load"},
    {"system": "azure_hpc", "condition": "cc_off"},
    {"system": "nvidia_inhouse", "app": "vasp"},
]


@pytest.mark.parametrize("slots", CONGESTIONS, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_congestion_pairs_are_the_self_join_pairs(built_con, slots):
    from app.intents._common import where_plus
    mod = get("congestion")
    cat = catalog.load(built_con)
    plan = mod.plan(slots, cat, question="")
    assert "JOIN" not in plan.sql
    cond, params = where_plus(plan.slots, mod.FILTERS)
    params.update(base_condition=plan.params["base_condition"], stress_condition=plan.params["stress_condition"])
    want = fetch(built_con, CONGESTION_ORACLE.format(where=cond, lower="'latency', 'time', 'congestion_impact'"),
                 params)
    assert want, "a case with no rows checks nothing"
    assert rows_of(built_con, plan) == want



# link_efficiency's SQL before the sizes and links were added in Python: the oracle for _narrow.link_efficiency
LINK_EFFICIENCY_ORACLE = """WITH cand AS (
  SELECT m.system_id, m.metric, m.operation, m.src, m.dst, m.direction, m.msg_bytes, m.condition, m.statistic,
         m.value, m.unit, m.source, r.tool,
         json_extract_string(m.params, '$.path_class') AS path_class,
         TRY_CAST(json_extract_string(m.params, '$.nominal_gbps') AS DOUBLE) AS doc_nominal,
         json_extract_string(m.params, '$.test') AS test,
         coalesce(json_extract_string(m.params, '$.via'), json_extract_string(m.params, '$.link')) AS via,
         json_extract_string(m.params, '$.host') AS host,
         json_extract_string(m.params, '$.quantity') AS quantity,
         TRY_CAST(json_extract_string(m.params, '$.numa_node') AS INTEGER) AS numa_node,
         CASE WHEN m.metric = 'efficiency' THEN 'stated' ELSE 'measured' END AS part
  FROM measurements m JOIN runs r USING (run_id)
  WHERE m.system_id = $system
    AND ((m.metric = 'efficiency' AND m.unit = '%'
          AND (list_contains($ops, m.operation){op_null}))
      OR (list_contains($metrics, m.metric) AND m.unit = 'GB/s' AND list_contains($ops, m.operation)))
    AND coalesce(m.condition NOT IN ('nominal', 'spec', 'theoretical'), true)
    AND coalesce(m.src <> m.dst, true)
    AND coalesce(json_extract_string(m.params, '$.summary'), 'false') <> 'true'
    AND NOT (coalesce(m.count_kind IN ('gpus', 'ranks', 'ipus'), false) AND m.count < 2
             AND m.operation NOT IN ('h2d', 'd2h')){filters}
),
sized AS (
  SELECT *, max(msg_bytes) OVER (PARTITION BY part, tool, metric, operation, src, dst, direction, condition,
                                             path_class, test) AS largest
  FROM cand
)
SELECT * EXCLUDE (largest) FROM sized WHERE {size}
UNION ALL BY NAME
SELECT 'link' AS part, l.system_id, l.a, l.b, l.link_type, l.count, l.bw_gbps_per_dir, l.source,
       ca.kind AS a_kind, cb.kind AS b_kind, ca.label AS a_label, cb.label AS b_label,
       ca.parent AS a_parent, cb.parent AS b_parent,
       TRY_CAST(json_extract_string(ca.attrs, '$.nvlink_gbps_per_dir') AS DOUBLE) AS a_nvlink_gbps_per_dir,
       TRY_CAST(json_extract_string(cb.attrs, '$.nvlink_gbps_per_dir') AS DOUBLE) AS b_nvlink_gbps_per_dir
FROM links l
LEFT JOIN components ca ON ca.system_id = l.system_id AND ca.component_id = l.a
LEFT JOIN components cb ON cb.system_id = l.system_id AND cb.component_id = l.b
WHERE l.system_id = $system"""


LINK_EFFICIENCIES = [
    {"system": "dgx1_v100"},
    {"system": "dgx2", "src": "gpu0", "dst": "gpu1"},
    {"system": "ipu16", "operation": "h2d"},
    {"system": "ac922_yme", "operation": "h2d", "msg_bytes": 1 << 20},
    {"system": "h200x2", "metric": "busbw", "operation": "allreduce"},
    {"system": "dgx2", "metric": "efficiency"},                  # 46,000 Tartan rows before each run's largest size
]


@pytest.mark.parametrize("slots", LINK_EFFICIENCIES, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_link_efficiency_rows_are_the_union_rows(built_con, slots):
    import json
    mod = get("link_efficiency")
    cat = catalog.load(built_con)
    plan = mod.plan(slots, cat)
    assert "UNION" not in plan.sql
    assert plan.sql.count("OVER") == (slots.get("msg_bytes") is None and slots["system"] == "dgx2")  # many rows
    filters = "".join(frag for k, frag in mod.FILTERS.items() if plan.params.get(k) is not None)
    if plan.params.get("src"):
        filters += mod.PAIR
    size = "msg_bytes IS NOT DISTINCT FROM largest" if slots.get("msg_bytes") is None else "true"
    sql = LINK_EFFICIENCY_ORACLE.format(filters=filters, size=size, op_null="" if slots.get("operation") else mod.OP_NULL)
    want = fetch(built_con, sql, plan.params)
    got = rows_of(built_con, plan)
    assert any(r["part"] != "link" for r in want), "a case with no measurements checks little"
    canon = lambda rs: sorted(json.dumps(r, sort_keys=True, default=str) for r in rs)   # the union has no order
    assert canon(got) == canon(want)



# pair_matrix's SQL before the slice was picked in Python: the oracle for _narrow.matrix, with the path-class CTEs
# and the natural order it used
def class_cte(params: dict, direct: str) -> str:
    from app.intents import _pairs
    filters = "".join(frag for k, frag in _pairs.CLASS_FILTERS.items() if params.get(k) is not None)
    return ("cls AS (\n  " + _pairs.CLASS_SELECT.format(filters=filters) + f"\n    AND NOT EXISTS (SELECT 1 FROM {direct})"
            "\n),\nlk AS (\n  " + _pairs.LINK_SELECT + " AND EXISTS (SELECT 1 FROM cls)\n)")


CLASS_UNION = """
UNION ALL BY NAME SELECT 'class' AS part, * FROM cls
UNION ALL BY NAME SELECT 'link' AS part, * FROM lk"""


def natural_order_sql(col: str) -> str:
    return f"regexp_replace({col}, '[0-9]+$', ''), TRY_CAST(regexp_extract({col}, '[0-9]+$') AS BIGINT)"

MATRIX_ORACLE = """WITH sel AS (
  SELECT m.*, r.tool, m.rowid AS _row, coalesce(m.params->>'quantity', '') AS quantity
  FROM measurements m JOIN runs r USING (run_id){where}
),
-- the slice with the most pairs: every row carries its slice's counts (window aggregates), and the rows of the
-- first slice in a fixed order over every slice column stay (one pass; no join back to sel)
ranked AS (
  SELECT *, count(DISTINCT src || '>' || dst) OVER slice AS npairs, count(*) OVER slice AS n FROM sel
  WINDOW slice AS (PARTITION BY tool, condition, direction, msg_bytes, statistic, unit, quantity)
),
picked AS (
  SELECT * FROM ranked
  QUALIFY dense_rank() OVER (
    ORDER BY {cond_rank}, npairs DESC, (direction IS NOT DISTINCT FROM 'uni') DESC,
             (statistic IS NULL OR statistic = 'mean') DESC,
             (quantity = '' OR lower(quantity) LIKE '%aggregate%' OR lower(quantity) LIKE '%total%') DESC,
             msg_bytes {size_order} NULLS LAST, n DESC,
             -- ties: a fixed order over every slice column, so the answer never depends on scan order
             tool, statistic NULLS FIRST, condition NULLS FIRST, direction NULLS FIRST, unit, lower(quantity)) = 1
  ORDER BY _row   -- the rows in table order, as the aggregates below always saw them (sums, lists)
),
pairs AS (
SELECT s.system_id, s.metric, s.operation, s.src, s.dst, avg(s.value) AS value, any_value(s.unit) AS unit,
       count(*) AS n, {sources} AS source,
       any_value(s.tool) AS tool, any_value(s.condition) AS condition,
       any_value(s.direction) AS direction, any_value(s.msg_bytes) AS msg_bytes,
       any_value(s.statistic) AS statistic, any_value(s.npairs) AS npairs
FROM picked s
GROUP BY s.system_id, s.metric, s.operation, s.src, s.dst
),
{classes}
SELECT * FROM (SELECT 'pair' AS part, * FROM pairs{union}) u
ORDER BY {src_order}, {dst_order}"""



MATRICES = [
    {"system": "dgx2"},
    {"system": "dgx2", "metric": "latency"},                                             # 23,000 rows matched
    {"system": "ac922_yme", "metric": "latency"},                                         # the smallest size
    {"system": "dgx2", "condition": "p2p_off"},
    {"system": "ac922_yme", "tool": "Tartan"},                                            # runs joined
    {"system": "dgx1_v100"},                                                              # per path class only
]


@pytest.mark.parametrize("slots", MATRICES, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_pair_matrix_rows_are_the_window_rules_rows(built_con, slots):
    import json
    from app.intents._common import condition_rank_sql, sources_sql
    mod = get("pair_matrix")
    cat = catalog.load(built_con)
    plan = mod.plan(slots, cat)
    assert "OVER" not in plan.sql and "UNION" not in plan.sql
    assert plan.narrow["grouped"] == (slots.get("msg_bytes") is None and cat.rows_at_most(
        slots["system"], plan.slots["metric"], plan.slots["operation"], slots.get("condition")) > MANY_ROWS)
    end = plan.sql.index("\nGROUP BY ALL") if plan.narrow["grouped"] else len(plan.sql)
    cond = plan.sql[plan.sql.index(" WHERE "):end]
    sql = MATRIX_ORACLE.format(where=cond, cond_rank=condition_rank_sql(), sources=sources_sql("s.source"),
                               size_order="ASC" if plan.slots["metric"] == "latency" else "DESC",
                               src_order=natural_order_sql("u.src"), dst_order=natural_order_sql("u.dst"),
                               classes=class_cte(plan.params, "pairs"), union=CLASS_UNION)
    want = fetch(built_con, sql, plan.params)
    got = rows_of(built_con, plan)
    assert want, "a case with no rows checks nothing"
    other = mod._GROUPS.format(where=cond, quantity=mod.QUANTITY) if not plan.narrow["grouped"] else \
        mod._SQL.format(join=" JOIN runs r USING (run_id)" if "r.tool" in cond else "", where=cond,
                        quantity=mod.QUANTITY)
    assert rows_of(built_con, Plan(**{**plan.__dict__, "sql": other,
                                      "narrow": {**plan.narrow, "grouped": not plan.narrow["grouped"]}})) == got
    if want[0]["part"] == "pair":
        assert got == [{k: v for k, v in r.items() if k in got[0]} for r in want]
        assert all(v is None for r in want for k, v in r.items() if k not in got[0])   # the class CTE's columns
    else:                                       # class and link rows: the union's columns, in no fixed order
        canon = lambda rs: sorted(json.dumps({k: v for k, v in r.items() if v is not None}, sort_keys=True,
                                             default=str) for r in rs)
        assert canon(got) == canon(want)



# compare_systems' SQL before the slice, the cases and the values were chosen in Python: the oracle for
# _narrow.compare (ties for a best value aside: the old query named whichever tied row its join met first)
COMPARE_ORACLE = """WITH sel AS (
  SELECT {select} FROM measurements m JOIN runs r USING (run_id){where}
),
-- the slice that covers the most systems: every row carries its slice's counts (window aggregates), and the
-- rows of the first slice in a fixed order over every slice column stay (one pass; no join back to sel)
ranked AS (
  SELECT *, count(DISTINCT system_id) OVER slice AS nsys, count(*) OVER slice AS n FROM sel
  WINDOW slice AS (PARTITION BY metric, operation, condition, precision, msg_bytes, count, count_kind, direction,
                   statistic, unit)
),
inslice AS (
  SELECT s.*, {case_s} AS case_key FROM ranked s
  QUALIFY dense_rank() OVER (
    ORDER BY nsys DESC, CASE metric WHEN 'bandwidth' THEN 0 WHEN 'busbw' THEN 1 WHEN 'time' THEN 2 WHEN 'latency' THEN 3
             WHEN 'flops' THEN 4 ELSE 5 END,
             {cond_rank}, (statistic IS NULL OR statistic = 'mean') DESC, count DESC NULLS LAST,
             msg_bytes DESC NULLS LAST, n DESC,
             -- ties: a fixed order over every slice column, so the answer never depends on scan order
             metric, operation NULLS FIRST, condition NULLS FIRST, precision NULLS FIRST, count_kind NULLS FIRST,
             direction NULLS FIRST, statistic NULLS FIRST, unit) = 1
  ORDER BY _row   -- the rows in table order, as the aggregates below always saw them (sums, lists)
),
pick AS (
  SELECT metric, operation, condition, precision, msg_bytes, count, count_kind, direction, statistic, unit, nsys, n
  FROM inslice LIMIT 1
),
common AS (
  SELECT case_key FROM inslice GROUP BY case_key
  HAVING count(DISTINCT system_id) = (SELECT nsys FROM pick)
),
percase AS (
  SELECT system_id, case_key, {agg} AS value, count(*) AS n, {case_source} AS source,
         string_agg(DISTINCT tool, ', ' ORDER BY tool) AS tool
  FROM inslice WHERE case_key IN (SELECT case_key FROM common)
  GROUP BY system_id, case_key
),
persys AS (
  SELECT system_id, avg(value) AS value, count(*) AS n_cases, sum(n) AS n, {sys_source} AS source,
         string_agg(DISTINCT tool, ', ' ORDER BY tool) AS tool
  FROM percase GROUP BY system_id
),
same_slice AS (
  SELECT persys.*, p.metric, p.operation, p.unit, p.condition, p.precision, p.msg_bytes, p.count, p.count_kind,
         p.direction, p.statistic, 'common' AS mode
  FROM persys, pick p
),
-- no slice measured on two of the systems: each system's best value of the most widely measured metric
mu AS (
  SELECT metric, unit FROM sel GROUP BY metric, unit
  ORDER BY count(DISTINCT system_id) DESC, CASE metric WHEN 'bandwidth' THEN 0 WHEN 'busbw' THEN 1 WHEN 'time' THEN 2
           WHEN 'latency' THEN 3 WHEN 'flops' THEN 4 ELSE 5 END, metric, unit
  LIMIT 1
),
loose AS (
  SELECT x.system_id, {loose_cols}, 1 AS n_cases, count(*) AS n, string_agg(DISTINCT x.tool, ', ' ORDER BY x.tool) AS tool,
         any_value(x.metric) AS metric, any_value(x.unit) AS unit, 'each_best' AS mode
  FROM sel x JOIN mu ON x.metric = mu.metric AND x.unit = mu.unit
  GROUP BY x.system_id
),
chosen AS (
  SELECT * FROM same_slice WHERE (SELECT count(*) FROM same_slice) >= 2
  UNION ALL BY NAME
  SELECT * FROM loose WHERE (SELECT count(*) FROM same_slice) < 2
)
SELECT c.*,
       c.value / (CASE WHEN c.metric IN ({lower_list}) THEN min(c.value) OVER () ELSE max(c.value) OVER () END)
         AS ratio_to_best
FROM chosen c
ORDER BY CASE WHEN c.metric IN ({lower_list}) THEN c.value ELSE -c.value END, c.system_id"""


_OLD_CASE = ("concat_ws('/', s.app, " + ", ".join(f"s.params->>'{k}'" for k in (
    "kind", "mode", "phase", "type", "m", "n", "k", "a_t", "b_t", "c", "h", "w", "f_h", "f_w", "stride_h", "stride_w",
    "pad_h", "pad_w", "hidden", "timesteps", "N")) + ")")


def old_compare_sql(plan: Plan) -> tuple[str, dict]:
    from app.intents._common import (AGG_SQL, LOWER_BETTER, best_source_sql, condition_rank_sql, sources_sql)
    cond = plan.sql[plan.sql.index("USING (run_id)") + len("USING (run_id)"):plan.sql.index("\nGROUP BY ALL")]
    params = dict(plan.params)
    lower_list = ", ".join(f"'{m}'" for m in sorted(LOWER_BETTER))
    lower_row = f"any_value(metric) IN ({lower_list})"
    if plan.narrow["metric_as"]:
        select, params["metric_as"] = "m.* REPLACE ($metric_as AS metric), r.tool, m.rowid AS _row", plan.narrow["metric_as"]
    else:
        select = "m.*, r.tool, m.rowid AS _row"
    agg = AGG_SQL.get(plan.slots.get("aggregate"))
    if agg:
        value_sql, source_sql = f"{agg}(value)", best_source_sql(agg)
    else:
        value_sql = f"CASE WHEN {lower_row} THEN min(value) ELSE max(value) END"
        source_sql = f"CASE WHEN {lower_row} THEN arg_min(source, value) ELSE arg_max(source, value) END"
    lower = f"any_value(x.metric) IN ({lower_list})"

    def pick(fn: str, col: str) -> str:
        if plan.slots.get("aggregate") in ("max", "min"):
            return f"{fn.format(plan.slots['aggregate'])}({col})"
        return f"CASE WHEN {lower} THEN {fn.format('min')}({col}) ELSE {fn.format('max')}({col}) END"

    loose = ", ".join([f"{pick('{}', 'x.value')} AS value"] + [
        f"{pick('arg_{}', f'x.{c}, x.value')} AS {c}" for c in (
            "source", "operation", "condition", "precision", "msg_bytes", "count", "count_kind", "direction",
            "statistic")])
    sql = COMPARE_ORACLE.format(case_s=_OLD_CASE, where=cond, select=select, cond_rank=condition_rank_sql(),
                                agg=value_sql, case_source=source_sql, sys_source=sources_sql(),
                                lower_list=lower_list, loose_cols=loose)
    return sql, params


COMPARES = [
    {"system": "ri2", "compare_with": ["heycai_client1", "heycai_client3"], "metric": "latency",
     "operation": "inference"},
    {"system": "dgx2", "compare_with": ["titan_rtx", "ac922_yme"], "metric": "time", "operation": "gemm",
     "condition": "tensor_cores_on", "precision": "fp16"},                              # 235 cases, averaged
    {"system": "dgx2", "compare_with": ["titan_rtx", "ac922_yme"], "metric": "time", "operation": "gemm",
     "condition": "tensor_cores_on", "precision": "fp16", "aggregate": "mean"},
    {"system": "dgx2", "compare_with": ["ac922_yme", "ac922_minisummit", "titan_rtx", "gtx980"],
     "metric": "bandwidth", "operation": "triad_bw"},
    {"system": "h200x2", "compare_with": ["dgx2", "dgx1_v100"], "metric": "bandwidth", "operation": "p2p"},
    {"system": "ipu16", "compare_with": ["dgx2"], "metric": "latency", "operation": "p2p"},  # no shared slice
    {"system": "h200x2", "compare_with": ["dgx2", "ac922_yme"], "metric": "bandwidth", "operation": "d2d",
     "aggregate": "max"},
    {"system": "dgx2", "compare_with": ["ac922_yme"], "metric": "bandwidth", "operation": "h2d", "tool": "Scope"},
    {"system": "ac922_yme", "compare_with": ["dgx2"], "metric": "latency", "condition": "unified_memory",
     "aggregate": "min"},
]


@pytest.mark.parametrize("slots", COMPARES, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_compare_systems_rows_are_the_window_rules_rows(built_con, slots):
    mod = get("compare_systems")
    plan = mod.plan(slots, catalog.load(built_con))
    assert "OVER" not in plan.sql and "OVER" not in plan.extra["slice_sql"]
    want = fetch(built_con, *old_compare_sql(plan))
    assert len(want) >= 2, "a case with fewer than two systems checks nothing"
    got = rows_of(built_con, plan)
    # a system no slice holds is said apart, with its own best (the window rules left it out)
    apart = got[0].pop("apart", [])
    assert {a["system_id"] for a in apart} == {slots["system"], *slots["compare_with"]} - {r["system_id"] for r in got}
    assert [list(r) for r in got] == [list(r) for r in want]            # the columns, in the union's order
    for g, w in zip(got, want):
        assert g == {k: pytest.approx(v, rel=1e-12) if isinstance(v, float) else v for k, v in w.items()}


# no slice holds every system only because nccl-tests writes in-place fp32 where Scope writes nothing: the window
# rules compared each system's best at its own size and count (or left the H200 out); the loose slice compares them
# at one size and GPU count, each system at its own setting
LOOSE = [
    {"system": "h200x2", "compare_with": ["dgx2"], "metric": "bandwidth", "operation": "allreduce"},  # two names
    {"system": "h200x2", "compare_with": ["dgx2", "ac922_yme"], "metric": "busbw", "operation": "allreduce",
     "msg_bytes": 268435456},
]


@pytest.mark.parametrize("slots", LOOSE, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_compare_systems_with_settings_written_differently_meets_at_one_size_and_count(built_con, slots):
    mod = get("compare_systems")
    plan = mod.plan(slots, catalog.load(built_con))
    old = fetch(built_con, *old_compare_sql(plan))
    got = rows_of(built_con, plan)
    systems = [slots["system"], *slots["compare_with"]]
    assert {r["system_id"] for r in got} == set(systems) and len(got) >= len(old)
    assert len({(r["metric"], r["msg_bytes"], r["count"], r["count_kind"]) for r in got}) == 1
    assert all(r["mode"] == "loose" and r["msg_bytes"] is not None for r in got)
    metric = {x: plan.params["metric_keys"][i].split("|")[1] for i, x in enumerate(systems)} \
        if "metric_keys" in plan.params else {x: slots["metric"] for x in systems}
    for r in got:
        best = built_con.execute(
            "SELECT max(value) FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
            "AND msg_bytes = ? "
            "AND count = ? AND condition IS NOT DISTINCT FROM ? AND precision IS NOT DISTINCT FROM ?",
            [r["system_id"], slots["operation"], metric[r["system_id"]], r["msg_bytes"], r["count"], r["condition"],
             r["precision"]]).fetchone()[0]
        assert r["value"] == pytest.approx(best)


def test_a_tie_for_a_systems_best_value_names_the_first_row_in_table_order():
    """Each system's best row when no slice is shared: ties go to the row stored first, and each setting comes
    from the best row that has one (arg_max skips a NULL)."""
    g = lambda **kw: {"system_id": "a", "tool": "t", "metric": "bandwidth", "unit": "GB/s", "n": 1, "hi": 5.0,
                      "lo": 1.0, "hi_source": "s", "lo_source": "s", "hi_row": 0, "lo_row": 0,
                      **{c: None for c in _narrow._EACH_BEST}, **kw}
    groups = [g(hi=9.0, hi_row=7, hi_source="later", msg_bytes=64, lo=0.5, lo_row=7, lo_source="later low"), g(hi=9.0, hi_row=3, hi_source="first"),
              g(hi=2.0, hi_row=1, condition="pinned", lo=0.5, lo_row=1, lo_source="low")]
    best = _narrow._each_best(groups, None)[0]
    assert (best["value"], best["source"], best["msg_bytes"], best["condition"], best["n"]) == \
        (9.0, "first", 64, "pinned", 3)
    low = _narrow._each_best(groups, "min")[0]
    assert (low["value"], low["source"]) == (0.5, "low")


LARGE_LOOKUPS = [
    {"system": "dgx2", "metric": "bandwidth", "operation": "p2p", "direction": "uni", "condition": "p2p_off",
     "aggregate": "min"},                                                 # the slowest pair: 10,000 rows
    {"system": "dgx2", "metric": "bandwidth", "operation": "p2p"},
    {"system": "dgx2", "operation": "p2p", "aggregate": "max"},           # no metric: one is chosen after the window
    {"system": "dgx2", "metric": "latency", "operation": "p2p", "src": "gpu0", "dst": "gpu1"},
    {"system": "ac922_yme", "metric": "bandwidth", "operation": "p2p"},
]


@pytest.mark.parametrize("slots", LARGE_LOOKUPS, ids=lambda s: "-".join(str(v) for v in s.values()))
def test_a_lookup_over_thousands_of_rows_keeps_each_groups_largest_size_in_sql_and_answers_alike(built_con, slots):
    """(A latency keeps each group's smallest size instead: latencies are quoted for the smallest message.)"""
    cat = catalog.load(built_con)
    plan = ML.plan(slots, cat)
    pre = ML.SMALLEST if slots.get("metric") == "latency" else ML.LARGEST
    assert plan.sql.endswith(pre)
    assert cat.rows_at_most(slots["system"], slots.get("metric"), slots.get("operation"),
                            slots.get("condition")) > ML.MANY_ROWS
    plain = Plan(**{**plan.__dict__, "sql": plan.sql[:-len(pre)]})
    assert len(fetch(built_con, plan.sql, plan.params)) < len(fetch(built_con, plain.sql, plain.params))
    assert rows_of(built_con, plan) == rows_of(built_con, plain)


def test_a_lookup_over_few_rows_plans_no_window(built_con):
    cat = catalog.load(built_con)
    plan = ML.plan({"system": "h200x2", "metric": "busbw", "operation": "allreduce"}, cat)
    assert "OVER" not in plan.sql
    assert cat.rows_at_most("h200x2", "busbw", "allreduce") == built_con.execute(
        "SELECT count(*) FROM measurements WHERE system_id = 'h200x2' AND metric = 'busbw' "
        "AND operation = 'allreduce'").fetchone()[0] <= ML.MANY_ROWS


def test_the_size_prefilter_keeps_what_each_earlier_default_would_leave(db):
    """Rows the defaults before the size one drop may hold the largest size: the larger count's sizes stop at
    1 MiB, the whole operation's at 4 KiB, each below what the rows they drop reach. Grouping the prefilter by
    metric, quantity and count keeps the rows the defaults pick."""
    db.execute("INSERT INTO systems (system_id, name) VALUES ('s', 'S')")
    db.execute("INSERT INTO runs (run_id, tool, system_id) VALUES (1, 't', 's')")
    rows = []
    for count, top in ((8, 20), (2, 30)):                       # 8 GPUs: up to 1 MiB; 2 GPUs: up to 1 GiB
        rows += [(count, 1 << e, None, float(count * e)) for e in range(10, top + 1, 10)]
    rows += [(8, 1 << 12, "latency per operand", 1.0), (8, 1 << 12, None, 7.0),
             (8, 1 << 25, "avg latency per operand", 9.0)]      # per operand: a larger size than the whole's
    for i, (count, size, quantity, value) in enumerate(rows):
        db.execute("INSERT INTO measurements (run_id, system_id, metric, operation, msg_bytes, count, count_kind, "
                   "value, unit, params, source) VALUES (1, 's', 'bandwidth', 'allreduce', ?, ?, 'gpus', ?, "
                   "'GB/s', ?, ?)", [size, count, value, None if quantity is None else
                                     '{"quantity": "%s"}' % quantity, f"row {i}"])
    plan = ML.plan({"system": "s", "metric": "bandwidth", "operation": "allreduce"}, catalog.load(db))
    assert "OVER" not in plan.sql and {"count", "size", "per_unit"} <= set(plan.narrow["steps"])
    plain = rows_of(db, plan)
    assert [(r["count"], r["msg_bytes"]) for r in plain] == [(8, 1 << 20)]
    plan.sql += ML.LARGEST
    assert rows_of(db, plan) == plain


def test_with_no_operation_named_a_pair_of_devices_comes_before_a_diagonal(asker):
    # "the lowest DGX-2 latency" was a GPU copying to itself (Tartan's diagonal, now stored as d2d); the lowest
    # between two devices is the answer, and a diagonal stays only where nothing else matches
    from app.intents._narrow import two_ends
    r = asker.ask("dgx2 latency")
    assert r.intent == "metric_lookup" and r.rows[0]["src"] != r.rows[0]["dst"]
    diag = [{"src": "gpu0", "dst": "gpu0", "value": 1.0}]
    assert two_ends(diag + [{"src": "gpu0", "dst": "gpu1", "value": 2.0}]) == [{"src": "gpu0", "dst": "gpu1", "value": 2.0}]
    assert two_ends(diag) == diag


def test_a_question_picks_a_curated_row_by_the_documents_own_words_for_it(asker):
    # "Off-chip (2 hops)" is a row label of XMP-64's Table 1, in no column: without the label step the lookup
    # answered the lowest of the five latencies (0.07 us, on-chip), and "2" was read as a 2-byte message
    r = asker.ask("xmp64 latency 2 off-chip hops")
    assert r.intent == "metric_lookup" and "msg_bytes" not in r.slots and "count" not in r.slots
    assert (r.rows[0]["value"], r.rows[0]["unit"]) == (0.29, "us")
    assert any("Off-chip (2 hops)" in n for n in r.notes)
    assert asker.ask("xmp64 latency for 3 hops").rows[0]["value"] == 0.39
    # "memory bandwidth" of a GPU is its memory's, a figure the document quotes, not the fastest copy measured
    # (a 13 GB/s device-to-host copy before); "HBM2" names the same label
    r = asker.ask("titan rtx memory bandwidth")
    assert (r.rows[0]["value"], r.rows[0]["unit"], r.rows[0]["condition"]) == (672.0, "GB/s", "spec")
    assert asker.ask("what is the hbm2 memory bandwidth of a v100 in the dgx-1").rows[0]["value"] == 900.0


def test_a_word_every_row_already_matches_picks_no_label(asker):
    # "prng" is the operation asked, and also in the label of the PRNG's speedup over the V100: the throughput,
    # which the metric default picks, stays the answer
    r = asker.ask("How many random numbers per second can the IPU's PRNG produce?")
    assert (r.rows[0]["metric"], r.rows[0]["value"]) == ("throughput", 944e9)
    assert not any("label" in n for n in r.notes)


def test_the_label_step_keeps_the_rows_sharing_most_words_and_never_picks_by_a_number_alone():
    from app.intents._narrow import said_label, said_words
    rows = [{"_label": "On-chip", "value": 1}, {"_label": "Off-chip (1 hop)", "value": 2},
            {"_label": "Off-chip (2 hops)", "value": 3}]
    assert said_words("xmp64 latency, 2 off-chip hops", {"system": "xmp64", "metric": "latency"}) \
        == ["2", "chip", "hop", "off"]
    assert [r["value"] for r in said_label([dict(r) for r in rows], ["2", "chip", "hop", "off"])] == [3]
    assert said_label([dict(r) for r in rows], ["2"]) == rows                    # a number alone picks nothing
    assert said_label([dict(r) for r in rows], ["chip"]) == rows                 # every row shares it
    assert said_label([dict(r) for r in rows], ["socket"]) == rows               # no row has it


def test_a_dropped_condition_that_is_a_word_of_the_quoted_label_is_no_miss(asker):
    # "hbm2" is tagged as a condition no row has; the lookup still picks the P100's stated figure by its label
    # ("HBM2 memory bandwidth"), so the answer does not open with "Nothing matches condition hbm2"
    # (with "spec" said too, the reader now takes the condition the P100 stores: test_nlu_slot_readings)
    r = asker.ask("p100 hbm2 bandwidth (dgx-1)")
    assert r.rows[0]["value"] == 732.0 and not r.answer.startswith("Nothing matches")
    assert any(n.startswith("hbm2 is a word of the label quoted") for n in r.notes)
    # a dropped value that is no word of any label quoted is still said up front
    other = asker.ask("h200 allreduce busbw at 1 GiB with tensor cores on")
    assert other.answer.startswith("Nothing matches condition tensor_cores_on; without that:")
