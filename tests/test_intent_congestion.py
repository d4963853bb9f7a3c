"""congestion against the real database; expected numbers from the curated CSV lines of the two seed documents."""
import csv
import json

import pytest
from conftest import REPO, run_intent, HOSTILE

from app import catalog
from app.intents import OutOfScope, get, rows_of

M = get("congestion")
CURATED = REPO / "datasets" / "curated"


def _run(con, slots):
    return run_intent(con, M, slots)


def _csv(group, experiment):
    with open(CURATED / group / "measurements.csv", newline="") as f:
        return [r for r in csv.DictReader(f) if r["experiment"] == experiment]


def test_ipu_latency_under_load_table_4_2(built_con):
    plan, rows, text = _run(built_con, {"system": "ipu16", "metric": "latency"})
    assert plan.chart["kind"] == "grouped_bar"
    assert plan.params == {"system": "ipu16", "metric": "latency", "base_condition": "congestion_free",
                           "stress_condition": "under_load"}
    # ipu_citadel2019/measurements.csv, Table 4.2: congestion-free and under-load latency per experiment a-d
    lines = _csv("ipu_citadel2019", "table_4_2_latency_under_load")
    lat = {(json.loads(r["params"])["experiment_label"], r["condition"]): float(r["value"])
           for r in lines if r["metric"] == "latency"}
    printed = {json.loads(r["params"])["experiment_label"]: float(r["value"])
               for r in lines if r["metric"] == "slowdown"}
    assert lat[("d", "congestion_free")] == 0.779 and lat[("d", "under_load")] == 5.989 and printed["d"] == 7.7
    got = {r["case_key"]: r for r in rows}
    assert set(got) == {"a", "b", "c", "d"}
    for k, r in got.items():
        assert (r["base_value"], r["stress_value"]) == (lat[(k, "congestion_free")], lat[(k, "under_load")])
        assert r["slowdown"] == pytest.approx(lat[(k, "under_load")] / lat[(k, "congestion_free")])
        assert r["reported_slowdown"] == printed[k]
    assert rows[0]["case_key"] == "d" and (rows[0]["src"], rows[0]["dst"]) == ("ipu5", "ipu6")
    assert "7.69x slowdown (the source prints 7.7x)" in text and "Table 4.2" in text


def test_ipu_bandwidth_under_load_is_inverted(built_con):
    _, rows, text = _run(built_con, {"system": "ipu16", "metric": "bandwidth", "condition": "under_load"})
    c = next(r for r in rows if r["case_key"] == "c")
    # Table 4.5 (c): 4.99 GB/s congestion-free, 0.0224 GB/s per transfer under load; printed degradation 222.8
    assert (c["base_value"], c["stress_value"], c["reported_slowdown"]) == (4.99, 0.0224, 222.8)
    assert c["slowdown"] == pytest.approx(4.99 / 0.0224)
    assert "222.8x slowdown" in text


def test_a_case_named_by_its_label_is_the_one_reported(built_con):
    cat = catalog.load(built_con)
    slots = {"system": "ipu16", "metric": "bandwidth", "condition": "under_load"}

    def ask(question):
        plan = M.plan(slots, cat, question=question)
        rows = rows_of(built_con, plan)
        return rows, M.answer(rows, plan, cat), plan.notes

    # Table 4.5 (b): same board, 5.46 GB/s congestion-free vs 0.0436 GB/s under load, printed 125.2
    rows, text, notes = ask("IPU pairs on the same board: bandwidth under load vs congestion-free")
    assert "case b, same board" in text and "125.2x slowdown" in text and "222.8x slowdown" not in text.split(";")[0]
    assert any("same board" in n for n in notes)
    assert [r["case_key"] for r in M.named_cases(rows, "same board")] == ["b"]
    # "no direct link" is case (d), though (c)'s "direct IPU link" is said as well
    assert [r["case_key"] for r in M.named_cases(rows, "different boards, no direct link")] == ["d"]
    assert [r["case_key"] for r in M.named_cases(rows, "across boards with a direct link")] == ["c"]
    # both sides named: both kinds of case are reported
    assert {r["case_key"] for r in M.named_cases(rows, "same board vs cross board")} == {"b", "c", "d"}
    # no case named: the worst of all, as before
    rows, text, _ = ask("ipu bandwidth under load")
    assert M.named_cases(rows, "ipu bandwidth under load") == [] and "worst case c" in text
    # a congestor named alone is that pattern, not every pattern that includes it
    plan = M.plan({"system": "nvidia_inhouse", "app": "vasp"}, cat, question="vasp with the put incast congestor")
    rows = rows_of(built_con, plan)
    assert [r["case_key"] for r in M.named_cases(rows, "vasp with the put incast congestor")] == ["x11"]


def test_congestion_control_on_vs_off(built_con):
    plan, rows, text = _run(built_con, {"system": "azure_hpc", "app": "vasp"})
    assert plan.params["app"] == "vasp" and "vasp" not in plan.sql
    assert plan.params["base_condition"] == "cc_on" and plan.params["stress_condition"] == "cc_off"
    t4 = [r for r in _csv("isc2022_network", "table_4_ci_azure") if r["app"] == "vasp" and r["statistic"] == "mean"]
    ci = {(json.loads(r["params"])["pattern"], r["condition"]): float(r["value"]) for r in t4}
    assert ci[("x2", "cc_off")] == 10.22 and ci[("x2", "cc_on")] == 1.08
    assert {r["case_key"]: (r["base_value"], r["stress_value"]) for r in rows} == {
        p: (ci[(p, "cc_on")], ci[(p, "cc_off")]) for p in ("x2", "x3", "x4")}
    assert rows[0]["case_key"] == "x2" and rows[0]["slowdown"] == pytest.approx(10.22 / 1.08)
    assert "9.46x slowdown" in text and "Table 4" in text


def test_in_house_cluster_pairs_only_the_table(built_con):
    _, rows, text = _run(built_con, {"system": "nvidia_inhouse"})
    # Table 3: 3 apps x 7 patterns; the §5 prose repeats two cc_off numbers (2.13, 1.89) in another experiment,
    # which are not paired with Table 3's cc_on values
    assert len(rows) == 21 and all("Table 3" in r["source"] for r in rows)
    worst = rows[0]
    assert (worst["app"], worst["case_key"], worst["base_value"], worst["stress_value"]) == (
        "incompact3d", "x12", 1.06, 2.77)
    assert "2.61x slowdown" in text


def test_hostile_slot_is_harmless(built_con):
    before = built_con.execute("SELECT count(*) FROM measurements").fetchone()
    cat = catalog.load(built_con)
    plan = M.plan({"system": "nvidia_inhouse", "app": HOSTILE}, cat)
    assert plan.params["app"] == HOSTILE and HOSTILE not in plan.sql
    rows = rows_of(built_con, plan)
    assert rows == []
    with pytest.raises(OutOfScope):
        M.answer(rows, plan, cat)
    with pytest.raises(OutOfScope):
        M.plan({"system": "ipu16", "condition": HOSTILE}, cat)
    assert built_con.execute("SELECT count(*) FROM measurements").fetchone() == before


def test_out_of_scope(built_con):
    cat = catalog.load(built_con)
    with pytest.raises(OutOfScope, match="Azure HPC"):
        M.plan({"system": "dgx2"}, cat)
    # a condition of another kind: on a machine with a congestion pair it is named as no congestion condition; on
    # one without, the machines that have a pair are named
    with pytest.raises(OutOfScope, match="P2P enabled is not a congestion condition"):
        M.plan({"system": "ipu16", "condition": "p2p_on"}, cat)
    with pytest.raises(OutOfScope, match="no measurements under two congestion conditions"):
        M.plan({"system": "dgx2", "condition": "p2p_on"}, cat)


def test_two_clusters_named_are_both_answered(built_con):
    plan, rows, text = _run(built_con, {"system": "nvidia_inhouse", "compare_with": ["azure_hpc", "ipu16"],
                                        "condition": "cc_on"})
    assert plan.params["systems"] == ["nvidia_inhouse", "azure_hpc"]     # the IPU system has no CC pair
    assert "system" not in plan.params and "azure_hpc" not in plan.sql
    assert any("Graphcore" in n and "has no congestion-control measurements" in n for n in plan.notes)
    # Table 3 (21 in-house cases) and Table 4 (3 apps x 3 patterns on Azure), each paired within its own runs
    assert sum(r["system_id"] == "nvidia_inhouse" for r in rows) == 21
    assert sum(r["system_id"] == "azure_hpc" for r in rows) == 9
    assert text.index("in-house") < text.index("Azure") and "2.61x slowdown" in text and "9.46x slowdown" in text
    from app.chart_matrix import congestion as draw
    from app.result import Result
    fig = draw(Result(question="", intent="congestion", slots=plan.slots, rows=rows, chart=plan.chart))
    titles = [a.text for a in fig.layout.annotations]
    # 3 apps on each cluster, never one panel for both: their patterns share names (x2) but not experiments
    assert len(titles) == 6 and sum(t.startswith("azure_hpc: ") for t in titles) == 3


def test_a_named_pair_the_system_lacks_is_said_by_its_words(built_con):
    _, rows, text = _run(built_con, {"system": "azure_hpc", "condition": "congestion_free"})
    assert rows and text.startswith("Azure HPC cloud cluster has no congestion-free vs under-load measurements")


@pytest.mark.parametrize("q, cc", [("in-house vs azure, cc off, congestion impact of vasp", "cc_off"),
                                   ("NVIDIA in-house cluster vs azure, with cc, slowdown of lammps", "cc_on")])
def test_two_clusters_with_congestion_control_named_is_the_congestion_question(asker, q, cc):
    # ask-contract: congestion covers "congestion control on vs off" and slowdown factors; asked of two clusters
    r = asker.ask(q)
    assert r.intent == "congestion" and r.slots["condition"] == cc
    assert {r.slots["system"], *r.slots["compare_with"]} == {"nvidia_inhouse", "azure_hpc"}
    assert {row["system_id"] for row in r.rows} == {"nvidia_inhouse", "azure_hpc"}
    # no congestion-control setting named: one stored metric side by side
    assert asker.ask("congestion impact of lammps: in-house cluster versus azure").intent == "compare_systems"


def test_the_baseline_said_in_plain_words_is_one_value(asker):
    """"when nothing else is running" is the congestion-free baseline (a typed form of it); alone, with nothing it
    is set against, it is one value to look up: neither the congestion comparison nor a graph."""
    for q in ("i p u five to i p u six bandwidth when nothing else is running",
              "ipu5 to ipu6 bandwidth with nothing else running"):
        r = asker.ask(q)
        assert r.intent == "metric_lookup" and r.slots["condition"] == "congestion_free", q
        assert (r.slots["src"], r.slots["dst"]) == ("ipu5", "ipu6") and r.rows and "congestion-free" in r.answer


def test_the_baseline_with_a_word_lost_is_no_link_efficiency(asker):
    """A transcript that lost the "to" of "host to ipu3 ... congestion free": with congestion ruled out, the next
    reading was a link's efficiency, though nothing to rate against is named; it is the one value."""
    r = asker.ask("host IPU3 bandwidth congestion free")
    assert r.intent == "metric_lookup" and (r.slots["src"], r.slots["dst"]) == ("host", "ipu3")
    assert r.rows and "h2d bandwidth" in r.answer and "congestion-free" in r.answer
