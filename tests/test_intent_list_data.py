"""list_data intent on the real built database."""
import csv

import pytest

from conftest import RAW, table_counts, HOSTILE, run_intent

from app import catalog
from app.intents import OutOfScope, rows_of
from app.intents import list_data as ld



def run(con, **slots):
    return run_intent(con, ld, slots)


def test_all_systems(built_con):
    plan, rows, text = run(built_con)
    ids = {r["system_id"] for r in rows}
    with open(RAW / "systems.csv", newline="") as f:
        listed = {r["system_id"] for r in csv.DictReader(f)}
    assert listed <= ids and {"dgx2", "h200x2", "xmp64", "ipu16"} <= ids
    assert rows[0]["system_id"] == "dgx2"                    # the most measurements
    h = next(r for r in rows if r["system_id"] == "h200x2")
    assert h["tools"] == "nccl-tests, p2pBandwidthLatencyTest, pytorch_profiler" and h["n_links"] == 1
    assert plan.chart == {"kind": "table"}
    assert text.startswith(f"{len(rows)} systems are loaded")


def test_one_system(built_con):
    plan, rows, text = run(built_con, system="h200x2")
    tools = {r["tool"] for r in rows}
    assert tools == {"nccl-tests", "p2pBandwidthLatencyTest", "pytorch_profiler"}
    prof = next(r for r in rows if r["tool"] == "pytorch_profiler")
    assert prof["metric"] is None and prof["n_runs"] == 4 and prof["n_events"] > 0   # two traces x two ranks
    lat = next(r for r in rows if r["tool"] == "p2pBandwidthLatencyTest" and r["metric"] == "latency")
    assert lat["n_measurements"] == 16                       # two 2x2 latency matrices, P2P on/off, 2 timers
    assert "1 link in its connection graph" in text


def test_which_systems_have_a_metric(built_con):
    plan, rows, text = run(built_con, metric="busbw")
    assert [r["system_id"] for r in rows] == ["h200x2"]      # only nccl-tests reports bus bandwidth
    assert text.startswith("Measurements of busbw exist for 1 system")


def test_hostile_and_out_of_scope(built_con):
    before = table_counts(built_con)
    with pytest.raises(OutOfScope, match="No system has"):
        run(built_con, metric=HOSTILE)
    with pytest.raises(OutOfScope, match="I have no data for a system called"):
        run(built_con, system=HOSTILE)
    assert table_counts(built_con) == before
    with pytest.raises(OutOfScope, match="measured there: algbw, bandwidth, busbw, latency, time"):
        run(built_con, system="h200x2", metric="joules")


def test_which_systems_have_a_link_family(built_con):
    """'NVLink' also means the NVLink1 of the DGX-1 P100 and the NVLink2 of the V100 systems, not only the
    H200 node whose links are stored as plain NVLink."""
    cat = catalog.load(built_con)
    assert cat.link_family("NVLink") == ["nvlink", "nvlink1", "nvlink2"]
    assert cat.link_family("nvlink2") == ["nvlink2"]
    assert cat.link_family("PCI-e") == ["pcie3", "pcie4"]
    plan, rows, text = run(built_con, link_type="NVLink")
    ids = {r["system_id"] for r in rows}
    assert {"h200x2", "dgx1_p100", "dgx1_v100", "dgx2", "ac922_yme"} <= ids
    assert not ids & {"ipu16", "xmp64", "gtx980"}
    dgx2 = next(r for r in rows if r["system_id"] == "dgx2")
    (n,) = built_con.execute("SELECT count(*) FROM links WHERE system_id = 'dgx2' AND link_type = 'NVLink2'").fetchone()
    assert dgx2["n_links"] == n and dgx2["link_types"] == "NVLink2"
    assert text.startswith(f"NVLink links are in the connection graphs of {len(rows)} systems")
    assert "nvlink" not in plan.sql.lower()                   # the link types are a parameter
    with pytest.raises(OutOfScope, match="link types stored"):
        run(built_con, link_type="Slingshot")


def test_which_systems_have_traces(built_con):
    cat = catalog.load(built_con)
    # the H200's trace runs are PyTorch profiler runs; RI2's pytorch rows are measurements, not traces
    assert cat.owners[("trace_library", "pytorch")] == {"h200x2"} and cat.owners[("library", "pytorch")] == {"ri2"}
    plan = ld.plan({"library": "pytorch"}, cat, question="Which systems have PyTorch traces?")
    rows = rows_of(built_con, plan)
    n_events = built_con.execute("SELECT count(*) FROM trace_events t JOIN runs r USING (run_id) "
                                 "WHERE r.system_id = 'h200x2' AND r.tool = 'pytorch_profiler'").fetchone()[0]
    assert [(r["system_id"], r["tool"], r["n_events"]) for r in rows] == [("h200x2", "pytorch_profiler", n_events)]
    assert plan.params == {"library": "pytorch"} and "pytorch" not in plan.sql
    assert f"{n_events:,} events" in ld.answer(rows, plan, cat)
    # measurements asked for: still the measurements
    plan = ld.plan({"library": "pytorch"}, cat, question="which systems have pytorch measurements")
    assert {r["system_id"] for r in rows_of(built_con, plan)} == {"ri2"}
    # a system without traces: the inventory answers "none here", naming where traces are (session 64: asked of one
    # machine, "are there traces for the dgx2" has an answer; with no machine and none loaded it is refused)
    plan = ld.plan({"system": "dgx2"}, cat, question="are there traces for the dgx2")
    text = ld.answer(rows_of(built_con, plan), plan, cat)
    assert text.startswith("No traces are loaded for NVIDIA DGX-2") and "pytorch_profiler on 2x NVIDIA H200" in text, text


def test_pytorch_traces_are_the_h200s_end_to_end(asker):
    r = asker.ask("Which systems have PyTorch traces?")
    assert r.intent == "list_data" and [x["system_id"] for x in r.rows] == ["h200x2"]
    assert r.answer.startswith("PyTorch traces are loaded for 1 system")   # the library as written, not "Pytorch"
    # without a word about traces, pytorch still names the system whose measurements say so
    assert asker.ask("pytorch f1 score of the intent model").slots.get("system") == "ri2"
