"""size_sweep against the real database; expected numbers read independently from raw outputs or by SQL."""
import pytest
from conftest import RAW, run_intent, HOSTILE

from app import catalog
from app.intents import OutOfScope, get, rows_of

M = get("size_sweep")


def _run(con, slots):
    return run_intent(con, M, slots)


def _nccl_table(path):
    """{size: (out_of_place busbw, in_place busbw)} from an nccl-tests text output."""
    out = {}
    for line in path.read_text().splitlines():
        f = line.split()
        if len(f) == 13 and f[0].isdigit():
            out[int(f[0])] = (float(f[7]), float(f[11]))
    return out


def test_h200_allreduce_busbw_sweep_matches_raw(built_con):
    plan, rows, text = _run(built_con, {"system": "h200x2", "metric": "busbw", "operation": "allreduce"})
    assert plan.chart["kind"] == "line" and plan.chart["x"] == "msg_bytes" and plan.chart["log2_x"] is True
    assert plan.chart["series"] == "series"
    assert {r["series"] for r in rows} == {"in_place", "out_of_place"}
    # two runs exist (1 and 2 GPUs); the default is the largest count, 2 GPUs
    assert {r["count"] for r in rows} == {2}
    raw = _nccl_table(RAW / "h200x2/all_reduce_perf_g2.txt")
    assert len(raw) == 30
    for r in rows:
        assert r["value"] == raw[r["msg_bytes"]][0 if r["series"] == "out_of_place" else 1]
    assert len(rows) == 60
    # peaks: out-of-place 346.96 GB/s and in-place 342.63 GB/s, both at 4 GiB (4294967296 B)
    assert "out_of_place: peak 347 GB/s at 4 GiB" in text and "in_place: peak 342.6 GB/s at 4 GiB" in text
    assert "all_reduce_perf_g2.txt line 42" in text


def test_value_at_a_size(built_con):
    plan, rows, text = _run(built_con, {"system": "h200x2", "metric": "busbw", "operation": "allreduce",
                                        "msg_bytes": 1048576})
    assert plan.params["msg_bytes"] == 1048576
    at = {r["series"]: r["value"] for r in rows if r["at_size"]}
    # "1048576  262144 float sum -1  17.24  60.83  60.83  0  17.83  58.79  58.79  0"
    assert at == {"out_of_place": 60.83, "in_place": 58.79}
    assert "60.83 GB/s at 1 MiB" in text and "58.79 GB/s at 1 MiB" in text
    # a size that was not measured: say so and give the neighbours, not a made-up value
    _, rows, text = _run(built_con, {"system": "h200x2", "metric": "busbw", "operation": "allreduce",
                                     "msg_bytes": 1000000})
    assert not any(r["at_size"] for r in rows)
    assert "was not measured" in text and "at 512 KiB" in text and "at 1 MiB" in text


def test_dgx2_h2d_scope_sweep_series_per_condition(built_con):
    plan, rows, text = _run(built_con, {"system": "dgx2", "metric": "bandwidth", "operation": "h2d", "dst": "gpu1"})
    assert plan.params["dst"] == "gpu1" and "gpu1" not in plan.sql
    assert {r["series"] for r in rows} == {"pageable", "pinned_wc"}
    assert {r["tool"] for r in rows} == {"Scope"}
    # Scope's text output and its JSON copy both load: every size is the mean of the two copies
    assert {r["n"] for r in rows} == {2}
    # independent: the best pinned_wc host->gpu1 value over both copies, by plain SQL
    best, size = built_con.execute(
        """SELECT max(value), arg_max(msg_bytes, value) FROM (
             SELECT msg_bytes, avg(value) AS value FROM measurements
             WHERE system_id = 'dgx2' AND operation = 'h2d' AND metric = 'bandwidth' AND dst = 'gpu1'
               AND condition = 'pinned_wc' AND statistic = 'mean' GROUP BY msg_bytes)""").fetchone()
    peak = max((r for r in rows if r["series"] == "pinned_wc"), key=lambda r: r["value"])
    assert (peak["value"], peak["msg_bytes"]) == (pytest.approx(best), size)
    assert size == 1 << 32     # 4 GiB
    # and from the raw text: "Comm_Memcpy_WCToGPU/log2(N):32/manual_time  361241162 ns ... 11.0729GB/s"
    # (Google Benchmark's GB/s are GiB/s): 2^32 B / 361241162 ns = 11.889 GB/s (10^9 B/s)
    assert peak["value"] == pytest.approx(2 ** 32 / 361241162, abs=1e-4)
    assert "pinned_wc: peak 11.89 GB/s at 4 GiB" in text


def test_hostile_slot_is_harmless(built_con):
    before = built_con.execute("SELECT count(*) FROM measurements").fetchone()
    cat = catalog.load(built_con)
    plan = M.plan({"system": "dgx2", "metric": "bandwidth", "src": HOSTILE}, cat)
    assert plan.params["src"] == HOSTILE and HOSTILE not in plan.sql
    rows = rows_of(built_con, plan)
    assert rows == []
    with pytest.raises(OutOfScope):
        M.answer(rows, plan, cat)
    with pytest.raises(OutOfScope):
        M.plan({"system": "dgx2", "metric": "bandwidth", "msg_bytes": HOSTILE}, cat)
    assert built_con.execute("SELECT count(*) FROM measurements").fetchone() == before


def test_out_of_scope(built_con):
    cat = catalog.load(built_con)
    with pytest.raises(OutOfScope, match="Which metric"):
        M.plan({"system": "dgx2"}, cat)
    with pytest.raises(OutOfScope, match="never measured"):
        M.plan({"system": "gtx980", "metric": "busbw"}, cat)
    # the congestion-control tables have no message sizes
    plan = M.plan({"system": "nvidia_inhouse", "metric": "congestion_impact"}, cat)
    with pytest.raises(OutOfScope, match="several message sizes"):
        M.answer(rows_of(built_con, plan), plan, cat)


def test_no_sweep_says_what_was_asked_in_plain_words(built_con):
    # the XMP-64's latencies are per hop count, at no message size
    with pytest.raises(OutOfScope) as e:
        _run(built_con, {"system": "xmp64", "metric": "latency"})
    msg = str(e.value)
    assert msg.startswith("No size sweep of latency on XMOS XK-XMP-64 matches that") and "  " not in msg
    assert "Systems with latency data:" in msg
