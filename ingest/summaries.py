"""Per-run summaries, written in the same transaction as the runs they summarise.

Why: two kinds of question read every row of a big table, though their answer only changes when a file is
loaded. "What is loaded?" (list_data) counted the 127,000 measurements and 430,000 trace events for each
question, and a trace breakdown swept every GPU interval of a trace set and found every trace's window over all
the events. That took 10-25 ms and 40-50 ms per question on the 2-core development machine. Like HTA, which
computes a trace's temporal breakdown once per rank, the loader now computes these once per run:

  run_measurement_stats: per run and (measurement system, metric, operation, library, unit): the number of
                         measurements, the smallest and largest message size, the first source by name;
  trace_run_stats:       per run with trace events: how many, the trace's set (its directory) and rank, its
                         window, and its GPU time split by the interval sweep of app/intents/trace_breakdown.py
                         (compute, exposed communication, memory, busy, all NCCL time, NCCL under compute).

The planners read these small tables instead; every number in them is the one the per-question SQL gave.
"""
from __future__ import annotations

DDL = """
CREATE TABLE IF NOT EXISTS run_measurement_stats (
    run_id     BIGINT NOT NULL,
    system_id  VARCHAR NOT NULL,
    metric     VARCHAR NOT NULL,
    operation  VARCHAR,
    library    VARCHAR,
    unit       VARCHAR NOT NULL,
    n          BIGINT NOT NULL,
    min_bytes  BIGINT,
    max_bytes  BIGINT,
    source     VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS trace_run_stats (
    run_id        BIGINT PRIMARY KEY,
    trace_set     VARCHAR,
    rank          INTEGER,
    n_events      BIGINT NOT NULL,
    t0            DOUBLE,      -- the window: the profiler's 'Trace' span, else the first to the last event
    t1            DOUBLE,
    compute       DOUBLE,
    communication DOUBLE,
    memory        DOUBLE,
    comm_total_us DOUBLE,
    overlap_us    DOUBLE,
    busy_us       DOUBLE,
    nccl_kernels  BIGINT,
    kernels       BIGINT
);
"""

_MEASUREMENTS = """INSERT INTO run_measurement_stats
SELECT run_id, system_id, metric, operation, library, unit, count(*), min(msg_bytes), max(msg_bytes), min(source)
FROM measurements WHERE run_id >= $first
GROUP BY run_id, system_id, metric, operation, library, unit"""

# the sweep over interval boundaries: a moment where a compute kernel runs is compute even with an NCCL kernel
# beside it; communication is NCCL time with no compute beside it; memory is a copy or set with neither
_TRACES = """INSERT INTO trace_run_stats
WITH ev AS (
  SELECT run_id, count(*) AS n_events, min(rank) AS min_rank,
         coalesce(min(ts_us) FILTER (WHERE ph = 'X' AND dur_us IS NOT NULL AND cat = 'Trace'),
                  min(ts_us) FILTER (WHERE ph = 'X' AND dur_us IS NOT NULL)) AS t0,
         coalesce(max(ts_us + dur_us) FILTER (WHERE ph = 'X' AND dur_us IS NOT NULL AND cat = 'Trace'),
                  max(ts_us + dur_us) FILTER (WHERE ph = 'X' AND dur_us IS NOT NULL)) AS t1,
         count(*) FILTER (WHERE ph = 'X' AND cat = 'kernel' AND name LIKE 'nccl%') AS nccl_kernels,
         count(*) FILTER (WHERE ph = 'X' AND cat = 'kernel') AS kernels
  FROM trace_events WHERE run_id >= $first GROUP BY run_id
),
gpu AS (
  SELECT run_id, ts_us AS t_start, ts_us + dur_us AS t_end,
         CASE WHEN cat = 'kernel' AND name LIKE 'nccl%' THEN 'c' WHEN cat = 'kernel' THEN 'k' ELSE 'm' END AS cls
  FROM trace_events
  WHERE run_id >= $first AND ph = 'X' AND cat IN ('kernel', 'gpu_memcpy', 'gpu_memset') AND dur_us > 0
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
)
SELECT ev.run_id, regexp_replace(r.source_file, '/[^/]*$', ''),
       coalesce(TRY_CAST(json_extract_string(r.params, '$.rank') AS INTEGER), ev.min_rank), ev.n_events, ev.t0, ev.t1,
       b.compute, b.communication, b.memory, b.comm_total_us, b.overlap_us, b.busy_us, ev.nccl_kernels, ev.kernels
FROM ev JOIN runs r USING (run_id) LEFT JOIN busy b USING (run_id)"""


def create(con) -> None:
    con.execute(DDL)


def add(con, first_run: int) -> None:
    """Summarise the runs numbered `first_run` and up (those just written: run ids only grow)."""
    con.execute(_MEASUREMENTS, {"first": first_run})
    con.execute(_TRACES, {"first": first_run})


def add_missing(con) -> None:
    """A database written before these tables existed: summarise every run it holds."""
    con.execute("DELETE FROM run_measurement_stats")
    con.execute("DELETE FROM trace_run_stats")
    add(con, 0)
