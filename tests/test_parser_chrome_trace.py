"""Chrome / Kineto traces: real PyTorch profiler output from the H200 pair, and broken variants."""
import gzip
import json

from conftest import RAW, table_counts

TRACE = RAW / "h200x2" / "pytorch_trace"


def expected_events(path):
    return json.loads(gzip.open(path).read())["traceEvents"]


def test_real_kineto_trace_loads_every_event(ingest, db):
    path = TRACE / "trace_rank1.json.gz"
    events = expected_events(path)
    rep = ingest(path)
    assert rep.status == "loaded", rep.message
    assert rep.parser == "chrome_trace"
    assert rep.systems == ["h200x2"]
    assert rep.events == len(events)
    # rank from distributedInfo, not from the file name alone
    assert db.execute("SELECT DISTINCT rank FROM trace_events").fetchall() == [(1,)]
    # kernels keep their stream and correlation id; durations in us as written
    k = next(e for e in events if e.get("cat") == "kernel")
    row = db.execute("""SELECT stream, correlation, dur_us, ts_us FROM trace_events
                        WHERE cat = 'kernel' AND correlation = ?""", [k["args"]["correlation"]]).fetchone()
    assert row == (k["args"]["stream"], k["args"]["correlation"], k["dur"], k["ts"])
    nccl = db.execute("SELECT count(*) FROM trace_events WHERE cat = 'kernel' AND name LIKE 'ncclDevKernel%'").fetchone()[0]
    assert nccl == sum(1 for e in events if e.get("cat") == "kernel" and e["name"].startswith("ncclDevKernel"))
    assert nccl > 0
    run = db.execute("SELECT tool, json_extract(params, '$.world_size') FROM runs").fetchone()
    assert run[0] == "pytorch_profiler" and int(run[1]) == 2


def test_plain_json_and_bare_array_forms(ingest, db, tmp_path):
    events = [{"name": "k1", "ph": "X", "ts": 10.5, "dur": 2.0, "pid": 0, "tid": 7, "cat": "kernel",
               "args": {"stream": 7, "correlation": 3, "note": "a } and a ] inside a string \\\" too"}},
              {"name": "k2", "ph": "X", "ts": 13.0, "dur": 1.0, "pid": 0, "tid": 7, "cat": "kernel"}]
    obj = tmp_path / "trace_rank3.json"
    obj.write_text(json.dumps({"traceEvents": events, "meta": {"list": [1, 2]}}))
    assert ingest(obj).events == 2
    # Chrome's JSON array format may omit the closing bracket
    arr = tmp_path / "array.json"
    arr.write_text("[" + ",\n".join(json.dumps(e) for e in events) + ",\n")
    rep = ingest(arr, system="h200x2")
    assert rep.status == "loaded" and rep.events == 2
    assert db.execute("SELECT count(*) FROM trace_events WHERE name = 'k1' AND stream = 7").fetchone()[0] == 2
    assert db.execute("SELECT DISTINCT rank FROM trace_events WHERE rank IS NOT NULL").fetchall() == [(3,)]


def test_truncated_gzip_and_json_are_rejected_and_change_nothing(ingest, db, tmp_path):
    ingest(TRACE / "trace_rank0.json.gz")
    before = table_counts(db)
    data = (TRACE / "trace_rank1.json.gz").read_bytes()
    cut = tmp_path / "cut_rank1.json.gz"
    cut.write_bytes(data[: len(data) // 2])
    rep = ingest(cut)
    assert rep.status == "failed" and "truncated" in rep.message
    plain = tmp_path / "cut_plain.json"
    text = gzip.decompress(data)
    plain.write_bytes(text[: len(text) * 2 // 3])
    rep = ingest(plain)
    assert rep.status == "failed" and "truncated" in rep.message
    assert table_counts(db) == before


def test_malformed_event_inside_array_rolls_back(ingest, db, tmp_path):
    before = table_counts(db)
    bad = tmp_path / "bad.json"
    bad.write_text('{"traceEvents": [{"name": "a", "ph": "X", "ts": 1, "dur": 1}, {"name": "b", "ph": "X", "ts": 2,, "dur": 1}]}')
    rep = ingest(bad, system="h200x2")
    assert rep.status == "failed" and "malformed" in rep.message
    assert table_counts(db) == before


def test_foreign_and_empty_files(ingest, db, tmp_path):
    before = table_counts(db)
    foreign = tmp_path / "package.json"
    foreign.write_text('{"name": "x", "version": "1.0.0", "dependencies": {}}')
    assert ingest(foreign).message.startswith("unknown format")
    empty = tmp_path / "empty.json"
    empty.write_text("")
    assert ingest(empty).message == "empty file"
    binary = tmp_path / "x.bin"
    binary.write_bytes(bytes(range(256)) * 10)
    assert "binary" in ingest(binary).message
    assert table_counts(db) == before


def test_reingest_same_content_adds_nothing(ingest, db):
    assert ingest(TRACE / "trace_rank0.json.gz").status == "loaded"
    before = table_counts(db)
    rep = ingest(TRACE / "trace_rank0.json.gz")
    assert rep.status == "skipped"
    assert table_counts(db) == before
