"""Planners answering more of what is asked, against the real built database (and, through `asker`, the real
question model): an open compare, a benchmark named instead of an operation, one quantity under several
metric names, source collections as groups, derived speedup, the counterpart of one congestion condition, and
a size "sweep" of one stored size. Expected values come from separate SQL over the same database."""
import pytest
from conftest import run_intent

from app import catalog
from app.intents import OutOfScope, get


def _run(con, intent, slots):
    return run_intent(con, get(intent), slots)


def _one(con, sql, params=()):
    return con.execute(sql, list(params)).fetchone()


# ---- compare_systems ----

def test_compare_without_metric_takes_the_only_common_one(built_con):
    cat = catalog.load(built_con)
    common = set.intersection(cat.operations["xmp64"], cat.operations["ipu16"])
    assert common == {"p2p"}                       # the premise: one operation measured on both
    plan, rows, text = _run(built_con, "compare_systems", {"system": "xmp64", "compare_with": ["ipu16"]})
    assert plan.slots["operation"] == "p2p"
    assert any("only operation measured on all of them" in n for n in plan.notes)
    assert {r["system_id"] for r in rows} == {"xmp64", "ipu16"}
    best = {sid: _one(built_con, "SELECT min(value) FROM measurements WHERE system_id = ? AND operation = 'p2p' "
                                 "AND metric = ?", (sid, rows[0]["metric"]))[0] for sid in ("xmp64", "ipu16")}
    assert {r["system_id"]: r["value"] for r in rows} == pytest.approx(best)
    # many common operations: still asks, and lists them
    with pytest.raises(OutOfScope, match="Which metric or operation.*allreduce"):
        get("compare_systems").plan({"system": "dgx2", "compare_with": ["ac922_yme"]}, cat)


def test_compare_benchmark_name_maps_to_stored_operation(built_con):
    plan, rows, text = _run(built_con, "compare_systems",
                            {"system": "dgx2", "compare_with": ["ac922_yme"], "app": "stream_triad"})
    assert plan.slots["operation"] == "triad_bw" and "app" not in plan.slots
    assert any("stream_triad" in n and "triad_bw" in n for n in plan.notes)
    count = rows[0]["count"]
    want = {sid: _one(built_con, "SELECT max(value) FROM measurements WHERE system_id = ? AND operation = "
                                 "'triad_bw' AND count = ?", (sid, count))[0] for sid in ("dgx2", "ac922_yme")}
    assert {r["system_id"]: r["value"] for r in rows} == pytest.approx(want)
    # an operation word that is stored under a longer name
    plan, rows, _ = _run(built_con, "compare_systems",
                         {"system": "dgx2", "compare_with": ["ac922_yme"], "operation": "triad"})
    assert plan.slots["operation"] == "triad_bw" and len(rows) == 2
    # SHOC MaxFlops at fp32 is maxspflops, at fp64 maxdpflops
    for prec, op in (("fp32", "maxspflops"), ("fp64", "maxdpflops")):
        plan, rows, _ = _run(built_con, "compare_systems", {"system": "dgx2", "compare_with": ["titan_rtx"],
                                                            "app": "MaxFlops", "precision": prec})
        assert plan.slots["operation"] == op and plan.slots["app"] == "MaxFlops"
        assert {r["precision"] for r in rows} == {prec}


def test_compare_one_quantity_under_different_metric_names(built_con):
    cat = catalog.load(built_con)
    assert "bandwidth" not in cat.op_metrics("h200x2", "allreduce")      # the premise
    plan, rows, text = _run(built_con, "compare_systems", {"system": "dgx2", "compare_with": ["h200x2"],
                                                            "metric": "bandwidth", "operation": "allreduce"})
    got = {r["system_id"]: r["value"] for r in rows}
    # compared at one size and GPU count (the tools write their settings differently: each keeps its own)
    (size, count), = {(r["msg_bytes"], r["count"]) for r in rows}
    setting = next(r["condition"] for r in rows if r["system_id"] == "h200x2")
    best = "SELECT max(value) FROM measurements WHERE system_id = ? AND operation = 'allreduce' AND metric = ? " \
           "AND msg_bytes = ? AND count = ? AND condition IS NOT DISTINCT FROM ?"
    want = {"dgx2": built_con.execute(best, ["dgx2", "bandwidth", size, count, None]).fetchone()[0],
            "h200x2": built_con.execute(best, ["h200x2", "busbw", size, count, setting]).fetchone()[0]}
    assert got == pytest.approx(want)
    note = next(n for n in plan.notes if "stored under different names" in n)
    assert "busbw" in note and "definitions differ" in note
    assert plan.params["metric_keys"] == ["dgx2|bandwidth", "h200x2|busbw"]
    assert "h200x2" not in plan.sql          # values only as parameters


def test_compare_questions_through_ask(asker):
    res = asker.ask("Compare all-reduce bandwidth on the DGX-2 and the H200 node")
    assert res.intent == "compare_systems", res.answer
    assert any("stored under different names" in n for n in res.notes)
    res = asker.ask("compare stream triad bandwidth between the DGX-2 and Yme")
    assert res.intent == "compare_systems", res.answer
    assert {r["operation"] for r in res.rows} <= {"triad_bw", None} and len(res.rows) == 2


# ---- list_data groups ----

def test_list_source_collection(built_con):
    cat = catalog.load(built_con)
    want = {s for (s,) in built_con.execute(
        "SELECT system_id FROM systems WHERE source LIKE '002\\_%' ESCAPE '\\' AND kind <> 'document'").fetchall()}
    plan = get("list_data").plan({}, cat, question="list every system of the ISC 2022 papers")
    assert set(plan.params["group"]) == want
    from app.intents import rows_of
    rows = rows_of(built_con, plan)
    assert {r["system_id"] for r in rows} == want
    text = get("list_data").answer(rows, plan, cat)
    assert f"covers {len(want)} systems" in text and "isc2022" in text
    # no group words: every system
    plan = get("list_data").plan({}, cat, question="which systems do you have?")
    assert "group" not in plan.params


def test_group_questions_through_ask(asker, built_con):
    res = asker.ask("which systems come from the TUM thesis?")
    assert res.intent == "list_data", res.answer
    assert {"dgx1_v100", "dgx1_p100", "ac922_tum"} <= {r["system_id"] for r in res.rows}
    res = asker.ask("list all NTNU systems")
    ntnu = {s for (s,) in built_con.execute("SELECT system_id FROM systems WHERE name LIKE '%NTNU%'").fetchall()}
    assert res.intent == "list_data" and {r["system_id"] for r in res.rows} == ntnu
    res = asker.ask("show available metrics for the Mini Summit")
    metrics = {m for (m,) in built_con.execute(
        "SELECT DISTINCT metric FROM measurements WHERE system_id = 'ac922_minisummit'").fetchall()}
    assert res.intent == "list_data" and {r["metric"] for r in res.rows if r["metric"]} == metrics


# ---- scaling: derived speedup ----

def test_speedup_derived_from_time_series(built_con):
    cat = catalog.load(built_con)
    assert "speedup" not in cat.metrics["h200x2"]                            # the premise
    plan, rows, text = _run(built_con, "scaling", {"system": "h200x2", "metric": "speedup", "operation": "allreduce"})
    assert rows[0]["metric"] == "time" and text.startswith("No speedup is stored; derived from")
    assert any("derived from the time series" in n for n in plan.notes)
    size = rows[0]["msg_bytes"]
    t = dict(built_con.execute("SELECT count, min(value) FROM measurements WHERE system_id = 'h200x2' AND "
                               "operation = 'allreduce' AND metric = 'time' AND msg_bytes = ? GROUP BY 1",
                               [size]).fetchall())
    assert rows[-1]["speedup"] == pytest.approx(t[min(t)] / t[max(t)])
    # a stored speedup series is still shown as reported
    plan, rows, _ = _run(built_con, "scaling", {"system": "ipu16", "metric": "speedup", "operation": "maxpool"})
    assert {r["metric"] for r in rows} == {"speedup"}


# ---- congestion: one side names the pair ----

def test_congestion_named_pair_missing_uses_the_stored_one(built_con):
    plan, rows, text = _run(built_con, "congestion", {"system": "ipu16", "condition": "cc_off"})
    assert plan.extra["pair"] == ("congestion_free", "under_load")
    assert "no congestion-control measurements" in text and rows
    plan, rows, text = _run(built_con, "congestion", {"system": "azure_hpc", "condition": "cc_on"})
    assert plan.extra["pair"] == ("cc_on", "cc_off") and rows


def test_congestion_says_what_is_stored_when_nothing_pairs(built_con):
    cat = catalog.load(built_con)
    with pytest.raises(OutOfScope, match="congestion-free: bandwidth, efficiency, latency.*under load: nothing"):
        _run(built_con, "congestion", {"system": "ipu16", "operation": "broadcast"})
    under = sorted({m for (s, m, o, c) in cat.combos if s == "ipu16" and o == "p2p" and c == "under_load"})
    assert "share" in under and ("ipu16", "share", "p2p", "congestion_free") not in cat.combos   # the premise
    with pytest.raises(OutOfScope, match="under load: " + ", ".join(under)):
        _run(built_con, "congestion", {"system": "ipu16", "operation": "p2p", "metric": "share"})


# ---- size_sweep of one stored size ----

def test_single_size_is_answered_with_a_note(built_con):
    n, size, val = _one(built_con, "SELECT count(DISTINCT msg_bytes), min(msg_bytes), avg(value) FROM measurements "
                                   "WHERE system_id = 'lassen' AND operation = 'alltoall' AND metric = 'time_reduction' "
                                   "AND msg_bytes IS NOT NULL")
    assert n == 1
    plan, rows, text = _run(built_con, "size_sweep", {"system": "lassen", "operation": "alltoall",
                                                      "metric": "time_reduction"})
    assert len(rows) == 1 and rows[0]["msg_bytes"] == size and rows[0]["value"] == pytest.approx(val)
    assert "the only point stored" in text
    assert any("only one size is stored" in n for n in plan.notes)
    # a sweep is still a sweep
    plan, rows, text = _run(built_con, "size_sweep", {"system": "h200x2", "metric": "busbw", "operation": "allreduce"})
    assert len({r["msg_bytes"] for r in rows}) > 10 and "peak" in text


def test_a_latency_of_a_few_nanoseconds_is_also_shown_in_ns():
    from app.intents._common import fmt_value
    assert fmt_value(0.000136, "us") == "0.000136 us (0.136 ns)"
    assert fmt_value(0.524, "us") == "0.524 us"
    assert fmt_value(0.000136, "s") == "0.000136 s"


# ---- metric_lookup: a whole operation's value before a per-unit average ----

def test_a_collective_latency_is_the_whole_operations_not_its_average_per_operand(built_con):
    where = ("FROM measurements WHERE system_id = 'ipu16' AND operation = 'reduce' AND metric = 'latency' "
             "AND count = 19456")
    per_unit = _one(built_con, f"SELECT min(value) {where} AND params->>'quantity' LIKE 'avg%per%'")[0]
    total = _one(built_con, f"SELECT min(value) {where} AND params->>'quantity' = 'total'")[0]
    assert per_unit < total         # the premise: the lowest latency stored is an average per input operand
    plan, rows, text = _run(built_con, "metric_lookup", {"system": "ipu16", "metric": "latency",
                                                         "operation": "reduce"})
    assert rows[0]["value"] == total and "_per_unit" not in rows[0]
    # the lowest is still the operation's; asked for the mean, the averages are candidates again
    plan, rows, text = _run(built_con, "metric_lookup", {"system": "ipu16", "metric": "latency",
                                                         "operation": "reduce", "aggregate": "min"})
    assert rows[0]["value"] == total
    plan, rows, text = _run(built_con, "metric_lookup", {"system": "ipu16", "metric": "latency",
                                                         "operation": "reduce", "aggregate": "mean"})
    assert any(r["statistic"] == "mean" for r in rows)


# ---- metric_lookup: no operation asked ----

def test_lookup_without_operation_names_the_other_operations(built_con):
    # "How much faster is random number generation on the IPU (speedup)?" with no word for PRNG: the top speedup
    # is another operation's, so the notes say which one it is and what else has a speedup
    plan, rows, text = _run(built_con, "metric_lookup", {"system": "ipu16", "metric": "speedup"})
    top = rows[0]["operation"]
    others = sorted(r[0] for r in built_con.execute(
        "SELECT DISTINCT operation FROM measurements WHERE system_id = 'ipu16' AND metric = 'speedup' "
        "AND operation IS NOT NULL AND operation <> ?", [top]).fetchall())
    assert "prng" in others
    assert f"no operation given: this is {top}; speedup was also measured for {', '.join(others)}" in plan.notes
    # an operation asked: no such note
    plan, rows, text = _run(built_con, "metric_lookup", {"system": "ipu16", "metric": "speedup", "operation": "prng"})
    assert not any(n.startswith("no operation given") for n in plan.notes)
