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
