"""A line the values should cross ("the smallest message size at which all-reduce exceeds 100 GB/s", "up to what
size does it stay under 20 us"): read from the words, answered as the measured size where each series crosses
it, drawn on the sweep. Unit checks of the reader, then whole questions through the real model and database,
with the expected sizes computed from the raw nccl-tests output."""
import re

import pytest

from conftest import RAW

from nlu.pipeline import threshold_in


@pytest.mark.parametrize("text,want", [
    ("exceeds 100 GB/s bus bandwidth", (">", 100.0, "GB/s")),
    ("above 100 Gb/s", (">", 12.5, "GB/s")),              # bits, as networks print them
    ("at least 25 Gbps", (">", 3.125, "GB/s")),
    ("more than 10 gb/s", (">", 10.0, "GB/s")),           # all lower case: the GB/s benchmarks print
    ("reaches 1.5 TB/s", (">", 1500.0, "GB/s")),
    ("stay under 20 us", ("<", 20.0, "us")),
    ("less than 2 ms", ("<", 2000.0, "us")),
    ("below 500 ns", ("<", 0.5, "us")),
    ("efficiency drop below 80%", ("<", 80.0, "%")),
    ("speedup exceeds 2x", (">", 2.0, "x")),
])
def test_the_line_is_read_in_the_contracts_units(text, want):
    t = threshold_in(text.split())
    assert (t["op"], t["value"], t["unit"]) == want


@pytest.mark.parametrize("text", ["over 1 MB", "bandwidth above 4 GiB messages", "over 100 runs", "100 GB/s"])
def test_sizes_counts_and_bare_values_are_no_line(text):
    assert threshold_in(text.split()) is None


def _allreduce_busbw() -> dict[str, list[tuple[int, float]]]:
    """size -> busbw of each half of all_reduce_perf's table (out-of-place columns first, then in-place)."""
    out = {"out_of_place": [], "in_place": []}
    for line in (RAW / "h200x2/all_reduce_perf_g2.txt").read_text().splitlines():
        f = line.split()
        if len(f) >= 13 and f[0].isdigit() and f[2] == "float":
            out["out_of_place"].append((int(f[0]), float(f[7])))
            out["in_place"].append((int(f[0]), float(f[11])))
    return out


def test_smallest_size_above_a_bandwidth(asker):
    r = asker.ask("What's the smallest message size at which the H200 allreduce exceeds 100 GB/s bus bandwidth?")
    assert r.intent == "size_sweep"
    assert r.slots["metric"] == "busbw" and r.slots["threshold"] == {"op": ">", "value": 100.0, "unit": "GB/s"}
    assert "msg_bytes" not in r.slots and "aggregate" not in r.slots
    for series, points in _allreduce_busbw().items():
        size, value = next((s, v) for s, v in points if v > 100)
        mib = size // 2**20
        assert re.search(rf"{series}: first exceeds 100 GB/s at {mib} MiB: {value:.4g} GB/s", r.answer), r.answer
    assert r.chart["threshold"] == 100.0
    # the crossings lead the rows (the headline), one per series; the whole curve follows for the chart
    crossings = {(s, v) for pts in _allreduce_busbw().values() for s, v in [next(p for p in pts if p[1] > 100)]}
    assert {(row["msg_bytes"], round(row["value"], 2)) for row in r.rows[:2]} == crossings
    assert len(r.rows) == sum(len(p) for p in _allreduce_busbw().values())   # moved, not repeated


def test_largest_size_below_a_time_and_the_number_is_not_a_count(asker):
    r = asker.ask("up to what size does allreduce time on the h200 stay under 20 us")
    assert r.intent == "size_sweep" and "count" not in r.slots
    assert r.slots["threshold"] == {"op": "<", "value": 20.0, "unit": "us"}
    # all_reduce_perf_g2.txt: under 20 us up to 16 KiB, 22.8 us at 32 KiB, under it again at 512 KiB and 1 MiB
    assert "stays below 20 us up to 16 KiB" in r.answer and "below it again at 512 KiB, 1 MiB" in r.answer


def test_a_line_never_crossed_says_so_with_the_best_there_is(asker):
    r = asker.ask("at what message size does h200 all-reduce busbw pass 1000 GB/s")
    top = max(v for pts in _allreduce_busbw().values() for _, v in pts)
    assert "never exceeds 1000 GB/s" in r.answer and f"{top:.4g} GB/s" in r.answer


def test_the_line_is_drawn_on_the_sweep(asker):
    from app.charts import figure
    r = asker.ask("What's the smallest message size at which the H200 allreduce exceeds 100 GB/s bus bandwidth?")
    fig = figure(r)
    assert [s.y0 for s in fig.layout.shapes] == [100.0]


@pytest.mark.parametrize("values,op,line,want", [
    ([1, 5, 20, 40], ">", 10, ("first_above", 2)),
    ([50, 40, 8, 20], ">", 10, ("stays_above", 1)),
    ([1, 2, 3], ">", 10, ("never", 2)),
    ([5, 9, 12, 8], "<", 10, ("stays_below", 1)),
    ([100, 90, 70, 60], "<", 80, ("first_below", 2)),
    ([100, 90], "<", 80, ("never", 1)),
])
def test_where_a_curve_meets_the_line(values, op, line, want):
    from app.intents._common import crossing
    assert crossing(values, op, line) == want


def test_the_count_where_a_scaling_curve_crosses_the_line(asker):
    r = asker.ask("at what gpu count does the dgx-2 deepbench allreduce efficiency fall below 50%")
    assert r.intent == "scaling" and r.slots["threshold"] == {"op": "<", "value": 50.0, "unit": "%"}
    assert r.slots["count_kind"] == "gpus" and "count" not in r.slots
    # the efficiency column of the rows themselves (derived from DeepBench's all-reduce times)
    first = next(row for row in r.rows if row["efficiency"] * 100 < 50)
    assert first["count"] > r.rows[0]["count"]
    assert f"parallel efficiency first falls below 50% at {first['count']} gpus ({first['efficiency'] * 100:.1f}%" \
        in r.answer
