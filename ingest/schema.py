"""The one table model (as Perfetto has one): every parser's records land in these tables.

Long-form measurements with canonical units (GB/s, us, bytes) let one parameterised query serve every
tool; `source` on every row is what lets an answer say where its number came from.
"""
SCHEMA_VERSION = 3   # 3: per-run summaries (ingest/summaries.py)

DDL = """
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);

CREATE TABLE IF NOT EXISTS systems (
    system_id   VARCHAR PRIMARY KEY,
    name        VARCHAR NOT NULL,
    aliases     VARCHAR[],
    vendor      VARCHAR,
    kind        VARCHAR,
    description VARCHAR,
    source      VARCHAR
);

CREATE TABLE IF NOT EXISTS components (
    system_id    VARCHAR NOT NULL,
    component_id VARCHAR NOT NULL,
    kind         VARCHAR NOT NULL,
    label        VARCHAR,
    parent       VARCHAR,
    attrs        JSON,
    source       VARCHAR,
    PRIMARY KEY (system_id, component_id)
);

CREATE TABLE IF NOT EXISTS links (
    system_id       VARCHAR NOT NULL,
    a               VARCHAR NOT NULL,
    b               VARCHAR NOT NULL,
    link_type       VARCHAR NOT NULL,
    count           INTEGER DEFAULT 1,
    bw_gbps_per_dir DOUBLE,
    directed        BOOLEAN DEFAULT false,
    note            VARCHAR,
    source          VARCHAR
);

CREATE TABLE IF NOT EXISTS files (
    content_hash VARCHAR PRIMARY KEY,
    path         VARCHAR,
    parser       VARCHAR,
    loaded_at    TIMESTAMP DEFAULT current_timestamp,
    n_runs       INTEGER,
    n_measurements BIGINT,
    n_events     BIGINT
);

CREATE TABLE IF NOT EXISTS runs (
    run_id       BIGINT PRIMARY KEY,
    tool         VARCHAR NOT NULL,
    tool_version VARCHAR,
    system_id    VARCHAR NOT NULL,
    experiment   VARCHAR,
    params       JSON,
    source_file  VARCHAR,
    source       VARCHAR,
    content_hash VARCHAR,
    origin       VARCHAR  -- 'curated' (transcribed from a document) or 'ingested' (a raw output)
);

CREATE TABLE IF NOT EXISTS measurements (
    run_id      BIGINT NOT NULL,
    system_id   VARCHAR NOT NULL,
    metric      VARCHAR NOT NULL,
    operation   VARCHAR,
    src         VARCHAR,
    dst         VARCHAR,
    direction   VARCHAR,
    msg_bytes   BIGINT,
    count       INTEGER,
    count_kind  VARCHAR,
    condition   VARCHAR,
    precision   VARCHAR,
    statistic   VARCHAR,
    value       DOUBLE NOT NULL,
    unit        VARCHAR NOT NULL,
    orig_value  VARCHAR,
    orig_unit   VARCHAR,
    app         VARCHAR,
    library     VARCHAR,
    params      JSON,
    note        VARCHAR,
    source      VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS trace_events (
    run_id      BIGINT NOT NULL,
    rank        INTEGER,
    pid         VARCHAR,
    tid         VARCHAR,
    name        VARCHAR,
    cat         VARCHAR,
    ph          VARCHAR,
    ts_us       DOUBLE,
    dur_us      DOUBLE,
    stream      BIGINT,
    correlation BIGINT,
    args        JSON
);
"""

TABLES = ("systems", "components", "links", "runs", "measurements", "trace_events", "files", "run_measurement_stats",
          "trace_run_stats")


def create(con) -> None:
    from ingest import summaries
    had = con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'meta'").fetchone()[0]
    before = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() if had else None
    con.execute(DDL)
    summaries.create(con)
    if before is not None and int(before[0]) < 3:   # a file written before the summaries: summarise what it holds
        summaries.add_missing(con)
    con.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
