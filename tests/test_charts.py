"""app.charts.figure on real Results from the real built database (and the real trained model for the
questions asked in words): the right trace types per intent, every component and link drawn, recognisable
layouts for the named system families, highlighted paths, None where there is nothing to draw."""
from __future__ import annotations

import itertools
import math

import plotly.graph_objects as go
import pytest

from conftest import run_intent

from app import chart_style as st
from app import intents
from app.charts import figure
from app.result import Result


def result_of(con, intent: str, **slots) -> Result:
    """plan -> rows -> answer through the intent module, packed as the Asker packs it."""
    plan, rows, answer = run_intent(con, intents.get(intent), slots)
    return Result(question=f"{intent} {slots}", intent=intent, slots=plan.slots, sql=plan.sql, params=plan.params,
                  rows=rows, answer=answer, chart=plan.chart, notes=plan.notes)


def traces(fig: go.Figure, role: str) -> list:
    return [t for t in fig.data if isinstance(t.meta, dict) and t.meta.get("role") == role]


def node_positions(fig: go.Figure) -> dict[str, tuple[float, float]]:
    pos = {}
    for t in traces(fig, "nodes"):
        for i, x, y in zip(t.meta["ids"], t.x, t.y):
            assert i not in pos, f"{i} drawn twice"
            pos[i] = (x, y)
    return pos


def link_rows(con, system: str) -> list[tuple]:
    return con.execute("SELECT a, b, link_type, count FROM links WHERE system_id = ?", [system]).fetchall()


# ---- topology -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("system", ["dgx1_v100", "dgx1_p100", "dgx2", "ipu16", "xmp64", "ac922_tum", "h200x2",
                                    "frontera_liquid", "piuma"])
def test_topology_draws_every_component_and_link(built_con, system):
    res = result_of(built_con, "topology", system=system)
    fig = figure(res)
    links = link_rows(built_con, system)
    ends = {x for a, b, _, _ in links for x in (a, b)}
    pos = node_positions(fig)
    # one marker per component that has a link, each at its own place
    assert set(pos) == ends == {n["id"] for n in res.chart["nodes"]}
    assert len(set(pos.values())) == len(pos)
    # one hover point per link, and the link traces together hold every link once
    assert len(traces(fig, "edge_hover")[0].x) == len(links)
    assert sum(t.meta["links"] for t in traces(fig, "edges")) == len(links)
    # a link type keeps its colour; hover text names type and count
    for t in traces(fig, "edges"):
        assert t.line.color == st.link_colour(t.meta["type"])
    hover = " ".join(traces(fig, "edge_hover")[0].hovertext)
    for _, _, lt, _ in links:
        assert lt in hover
    assert system in fig.layout.title.text and f"{len(links)} links" in fig.layout.title.text


def test_topology_legend_and_labels_carry_bandwidth_and_count(built_con):
    fig = figure(result_of(built_con, "topology", system="dgx1_v100"))
    names = [t.name for t in traces(fig, "edges")]
    assert "NVLink2 · 25 GB/s (8 links)" in names and "NVLink2 x2 · 50 GB/s (8 links)" in names
    # the NVLink links differ (x1 / x2) so each is labelled on the drawing; the uniform PCIe ones are not
    labels = list(traces(fig, "edge_labels")[0].text)
    assert labels.count("x2 50 GB/s") == 8 and labels.count("25 GB/s") == 8
    assert not any("15.754" in x for x in labels)
    nv = next(t for t in traces(fig, "edges") if t.name.startswith("NVLink2 x2"))
    nv1 = next(t for t in traces(fig, "edges") if t.name.startswith("NVLink2 ·"))
    assert nv.line.width > nv1.line.width                  # a double link is drawn thicker


def _is_square(pts) -> bool:
    d = sorted(math.dist(a, b) for a, b in itertools.combinations(pts, 2))
    side, diag = d[0], d[-1]
    return all(abs(x - side) < 1e-6 for x in d[:4]) and all(abs(x - diag) < 1e-6 for x in d[4:]) \
        and abs(diag - side * math.sqrt(2)) < 1e-6


def test_dgx1_layout_is_a_cube_of_two_quads(built_con):
    fig = figure(result_of(built_con, "topology", system="dgx1_v100"))
    assert fig.layout.meta["family"] == "cube"
    pos = node_positions(fig)
    front = [pos[f"gpu{i}"] for i in range(4)]
    back = [pos[f"gpu{i}"] for i in range(4, 8)]
    assert _is_square(front) and _is_square(back)
    # the back face is the front face moved by one vector: the quad-to-quad links are parallel cube edges
    shifts = {(round(b[0] - a[0], 6), round(b[1] - a[1], 6)) for a, b in zip(front, back)}
    assert len(shifts) == 1 and shifts != {(0.0, 0.0)}
    # GPUs sharing a PCIe switch sit on one horizontal cube edge
    assert pos["gpu0"][1] == pos["gpu1"][1] and pos["gpu2"][1] == pos["gpu3"][1]
    # the PCIe tree lies outside the cube, CPUs on either side
    gx = [p[0] for p in front + back]
    assert pos["cpu0"][0] < min(gx) and pos["cpu1"][0] > max(gx)


def test_ipu16_layout_is_a_ladder(built_con):
    res = result_of(built_con, "topology", system="ipu16")
    fig = figure(res)
    assert fig.layout.meta["family"] == "ladder"
    pos = node_positions(fig)
    boards = {n["id"]: n["parent"] for n in res.chart["nodes"] if n["kind"] == "ipu" and n["parent"]}
    assert len(boards) == 10
    assert len({pos[i][0] for i in boards}) == 2                       # two rails
    for b in set(boards.values()):
        pair = [i for i, p in boards.items() if p == b]
        assert len(pair) == 2 and pos[pair[0]][1] == pos[pair[1]][1]    # one rung per board
        assert pos[pair[0]][0] != pos[pair[1]][0]
    ipu_links = [(a, b, c) for a, b, t, c in link_rows(built_con, "ipu16") if t == "IPU-Link"]
    for a, b, count in ipu_links:
        if boards[a] == boards[b]:
            assert pos[a][1] == pos[b][1] and count == 3                # rungs across
        else:
            assert pos[a][0] == pos[b][0]                               # rails along
    # boards in ladder order top to bottom; IPUs with no stated board stand apart
    assert pos["ipu5"][1] > pos["ipu4"][1] > pos["ipu3"][1] > pos["ipu2"][1] > pos["ipu8"][1]
    loose = [n["id"] for n in res.chart["nodes"] if n["kind"] == "ipu" and not n["parent"]]
    assert loose and all(pos[i][0] > max(pos[j][0] for j in boards) for i in loose)


def test_xmp64_layout_is_a_hypercube_torus(built_con):
    res = result_of(built_con, "topology", system="xmp64")
    fig = figure(res)
    assert fig.layout.meta["family"] == "hypercube"
    pos = node_positions(fig)
    assert len(pos) == 64
    d = min(math.dist(a, b) for a, b in itertools.combinations(pos.values(), 2))
    assert d > 0.4                                                      # no two cores on top of each other
    chip = {n["id"]: n["parent"] for n in res.chart["nodes"]}
    same = [math.dist(pos[a], pos[b]) for a, b in itertools.combinations(pos, 2) if chip[a] == chip[b]]
    other = [math.dist(pos[a], pos[b]) for a, b in itertools.combinations(pos, 2) if chip[a] != chip[b]]
    assert max(same) < min(other)                                       # each chip's cores drawn together
    # chips on a 4 x 4 grid; every XLink joins chips one step apart on the grid or wraps round its edge
    centre = {c: (sum(pos[i][0] for i in chip if chip[i] == c) / 4, sum(pos[i][1] for i in chip if chip[i] == c) / 4)
              for c in set(chip.values())}
    xs, ys = sorted({round(p[0], 6) for p in centre.values()}), sorted({round(p[1], 6) for p in centre.values()})
    assert len(xs) == 4 and len(ys) == 4
    cell = {c: (xs.index(round(p[0], 6)), ys.index(round(p[1], 6))) for c, p in centre.items()}
    for a, b, t, _ in link_rows(built_con, "xmp64"):
        if t == "XLink":
            (ca, ra), (cb, rb) = cell[chip[a]], cell[chip[b]]
            assert sorted((abs(ca - cb), abs(ra - rb))) in ([0, 1], [0, 3])
        else:
            assert chip[a] == chip[b]
    # the wrap-around links are drawn as stubs leaving the grid, not across it
    assert len(res.chart["edges"]) == 192


def test_dgx2_layout_has_gpus_around_nvswitch_planes(built_con):
    res = result_of(built_con, "topology", system="dgx2")
    fig = figure(res)
    assert fig.layout.meta["family"] == "planes"
    pos = node_positions(fig)
    kind = {n["id"]: n["kind"] for n in res.chart["nodes"]}
    board = {n["id"]: n["parent"] for n in res.chart["nodes"]}
    rows = {}
    for n, k in kind.items():
        if k in ("gpu", "nvswitch"):
            rows.setdefault((board[n], k), set()).add(pos[n][1])
    assert all(len(v) == 1 for v in rows.values()) and len(rows) == 4
    y = {k: v.pop() for k, v in rows.items()}
    # baseboard 0: GPUs above its switches; baseboard 1 mirrored below; the switch planes face each other
    assert y[("board0", "gpu")] > y[("board0", "nvswitch")] > y[("board1", "nvswitch")] > y[("board1", "gpu")]


def test_path_is_drawn_distinctly(built_con):
    res = result_of(built_con, "topology", system="dgx1_v100", src="gpu0", dst="gpu5")
    fig = figure(res)
    (hl,) = traces(fig, "highlight")
    assert hl.meta["links"] == len(res.chart["highlight"]) == 2
    assert hl.line.color == st.HIGHLIGHT
    assert hl.line.width > max(t.line.width for t in traces(fig, "edges"))
    # the other links recede; the path's ends get a ring
    faded = [t for t in traces(fig, "edges") if t.opacity < 0.5]
    assert sum(t.meta["links"] for t in faded) == len(res.chart["edges"]) - 2
    rings = {i for t in traces(fig, "nodes") for i, c in zip(t.meta["ids"], t.marker.line.color) if c == st.HIGHLIGHT}
    assert rings == {"gpu0", "gpu5"}
    assert "2 hops" in fig.layout.title.text
    # the highlight runs through the path's nodes: gpu0 -> gpu1 -> gpu5
    pos = node_positions(fig)
    pts = {(round(x, 6), round(y, 6)) for x, y in zip(hl.x, hl.y) if x is not None}
    for n in ("gpu0", "gpu1", "gpu5"):
        assert (round(pos[n][0], 6), round(pos[n][1], 6)) in pts


def test_hypercube_path_highlight_has_six_hops(built_con):
    fig = figure(result_of(built_con, "topology", system="xmp64", src="core0", dst="core63"))
    (hl,) = traces(fig, "highlight")
    assert hl.meta["links"] == 6


def test_layout_is_deterministic(built_con):
    a = node_positions(figure(result_of(built_con, "topology", system="ipu16")))
    b = node_positions(figure(result_of(built_con, "topology", system="ipu16")))
    assert a == b


# ---- measurement charts ---------------------------------------------------------------------------------

def test_pair_matrix_is_an_annotated_heatmap(built_con):
    res = result_of(built_con, "pair_matrix", system="dgx2", operation="p2p", metric="bandwidth")
    fig = figure(res)
    (hm,) = fig.data
    assert isinstance(hm, go.Heatmap)
    assert len(hm.z) == 16 and all(len(r) == 16 for r in hm.z)
    assert all(hm.z[i][i] is None for i in range(16))                   # the diagonal is not measured
    want = {(r["src"], r["dst"]): r["value"] for r in res.rows}
    assert hm.z[0][1] == pytest.approx(want[("gpu0", "gpu1")])
    assert hm.texttemplate and not hm.reversescale and hm.zmin == 0    # dark = high bandwidth = good
    assert "GB/s" in fig.layout.title.text and "higher is better" in hm.colorbar.title.text
    lat = figure(result_of(built_con, "pair_matrix", system="dgx2", operation="p2p", metric="latency")).data[0]
    assert lat.reversescale and "lower is better" in lat.colorbar.title.text   # dark = low latency = good


def test_pair_matrix_outlines_the_pairs_asked_about(built_con):
    # "does GPU0 -> GPU1 get more than GPU0 -> GPU2": the two cells are outlined, at their own row and column
    res = result_of(built_con, "pair_matrix", system="dgx2", operation="p2p", metric="bandwidth",
                    pairs=[["gpu0", "gpu1"], ["gpu0", "gpu2"]])
    fig = figure(res)
    hm = fig.data[0]
    boxes = [(sh.x0 + 0.5, sh.y0 + 0.5) for sh in fig.layout.shapes if sh.type == "rect"]
    assert len(boxes) == 2
    for (x, y), dst in zip(boxes, ("GPU1", "GPU2")):
        assert hm.x[int(x)] == st.label_endpoint(dst.lower()) and hm.y[int(y)] == st.label_endpoint("gpu0")
    assert not figure(result_of(built_con, "pair_matrix", system="dgx2", operation="p2p",
                                metric="bandwidth")).layout.shapes


def test_size_sweep_is_lines_on_a_log2_byte_axis(built_con):
    res = result_of(built_con, "size_sweep", system="h200x2", operation="allreduce", metric="busbw")
    fig = figure(res)
    assert {t.name for t in fig.data} == {r["series"] for r in res.rows} == {"in_place", "out_of_place"}
    assert all(isinstance(t, go.Scatter) for t in fig.data)
    assert fig.layout.xaxis.type == "log"
    ticks = list(fig.layout.xaxis.tickvals)
    assert all(v & (v - 1) == 0 for v in ticks)                         # powers of two
    assert {"1 KiB", "1 MiB", "1 GiB"} <= set(fig.layout.xaxis.ticktext)
    assert "GB/s" in fig.layout.yaxis.title.text and "bytes" in fig.layout.xaxis.title.text


def test_scaling_has_ideal_line_and_efficiency(built_con):
    res = result_of(built_con, "scaling", system="dgx2", operation="allreduce", metric="time", count_kind="ranks")
    fig = figure(res)
    (ideal,) = traces(fig, "ideal")
    (eff,) = traces(fig, "efficiency")
    base = res.rows[0]["value"]
    assert res.rows[-1]["scaling_kind"] == "weak" and list(ideal.y) == [base] * len(res.rows)   # constant time
    assert list(eff.y) == pytest.approx([100 * r["efficiency"] for r in res.rows])
    assert list(eff.x) == [r["count"] for r in res.rows]
    strong = result_of(built_con, "scaling", system="dgx2", operation="stencil", metric="flops")
    fig2 = figure(strong)
    (ideal2,) = traces(fig2, "ideal")
    r0 = strong.rows[0]
    assert list(ideal2.y) == pytest.approx([r0["value"] * r["count"] / r0["count"] for r in strong.rows])
    assert fig2.layout.xaxis.type == "log"                              # 1 to 16 GPUs


def test_congestion_bars_with_slowdowns(built_con):
    res = result_of(built_con, "congestion", system="ipu16")
    fig = figure(res)
    bars = [t for t in fig.data if isinstance(t, go.Bar)]
    assert {t.name for t in bars} == {"congestion-free", "under load"}
    text = " ".join(t for s in traces(fig, "slowdown") for t in s.text)
    worst = max(r["slowdown"] for r in res.rows if r["metric"] == "latency")
    assert f"{worst:.3g}x" in text                                      # 7.69x for case d
    assert len(traces(fig, "slowdown")) == len({r["metric"] for r in res.rows})   # one panel per metric
    cc = figure(result_of(built_con, "congestion", system="nvidia_inhouse"))
    assert {t.name for t in cc.data if isinstance(t, go.Bar)} == {"with congestion control",
                                                                  "without congestion control"}
    assert len(traces(cc, "slowdown")) == 3                             # one panel per application


def test_compare_systems_bars(built_con):
    res = result_of(built_con, "compare_systems", system="dgx2", compare_with=["ac922_yme", "ac922_minisummit"],
                    operation="h2d", metric="bandwidth")
    (bar,) = figure(res).data
    assert isinstance(bar, go.Bar)
    assert list(bar.x) == [r["system_id"] for r in res.rows]
    assert list(bar.y) == pytest.approx([r["value"] for r in res.rows])


def test_metric_lookup_indicator_or_bars(built_con):
    one = result_of(built_con, "metric_lookup", system="h200x2", operation="allreduce", metric="busbw",
                    msg_bytes=1 << 30, condition="in_place", count=2)
    assert len(one.rows) == 1
    (ind,) = figure(one).data
    assert isinstance(ind, go.Indicator) and ind.value == pytest.approx(one.rows[0]["value"])
    assert "GB/s" in ind.number.suffix
    many = result_of(built_con, "metric_lookup", system="h200x2", operation="allreduce", metric="busbw",
                     msg_bytes=1 << 30)
    (bar,) = figure(many).data
    assert isinstance(bar, go.Bar) and len(bar.x) == len(many.rows) > 1
    assert bar.x[0] == pytest.approx(many.rows[0]["value"])             # the answer first


def test_link_efficiency_measured_vs_nominal(built_con):
    res = result_of(built_con, "link_efficiency", system="h200x2")
    fig = figure(res)
    bars = {t.name: t for t in fig.data if isinstance(t, go.Bar)}
    assert set(bars) == {"nominal (peak; both directions for bi)", "measured"}
    assert list(bars["measured"].x) == [r["measured"] for r in res.rows]
    (pct,) = traces(fig, "percent")
    top = res.rows[0]
    assert f"{top['percent']:g}% of peak" in pct.text[0]
    # each pair of bars shows the percent it is labelled with (bidirectional: against both directions' peak)
    for m, n, r in zip(bars["measured"].x, bars["nominal (peak; both directions for bi)"].x, res.rows):
        if m and n and r["percent"]:
            assert 100 * m / n == pytest.approx(r["percent"], abs=0.1)
    assert any(r["direction"] == "bi" and r["percent"] for r in res.rows)


def test_trace_breakdown_stacked_per_rank_and_top_kernels(built_con):
    res = result_of(built_con, "trace_breakdown", system="h200x2")
    fig = figure(res)
    assert fig.layout.barmode == "stack"
    stacked = [t for t in fig.data if isinstance(t, go.Bar) and t.orientation != "h"]
    assert [t.name for t in stacked] == ["compute", "communication", "memory", "idle"]
    brk = [r for r in res.rows if r["kind"] == "breakdown"]
    for t in stacked:
        assert list(t.y) == pytest.approx([r["value"] / 1000 for r in brk if r["category"] == t.name])
    (top,) = [t for t in fig.data if isinstance(t, go.Bar) and t.orientation == "h"]
    assert len(top.y) == len([r for r in res.rows if r["kind"] == "top"])


# ---- nothing to draw ------------------------------------------------------------------------------------

def test_no_figure_without_something_to_draw(built_con):
    lst = result_of(built_con, "list_data")
    assert lst.rows and figure(lst) is None                             # a table, not a chart
    topo = result_of(built_con, "topology", system="dgx1_v100")
    assert figure(Result(question="x", intent="topology", rows=[], chart=topo.chart)) is None
    assert figure(Result(question="x", intent="topology", rows=topo.rows, chart=topo.chart, error="boom")) is None
    assert figure(Result(question="x", intent="out_of_scope")) is None


def test_questions_in_words(asker):
    assert figure(asker.ask("what is the weather in Oslo tomorrow?")) is None
    res = asker.ask("show the topology of the DGX-1 V100")
    assert res.intent == "topology"
    fig = figure(res)
    assert fig.layout.meta["family"] == "cube" and len(node_positions(fig)) == 18
    sweep = asker.ask("all-reduce bus bandwidth vs message size on the H200 pair")
    fig = figure(sweep)
    assert sweep.intent == "size_sweep" and fig.layout.xaxis.type == "log"
    # the reports embed figures as HTML: the figure serialises
    assert "plotly" in fig.to_html(include_plotlyjs=False, full_html=False).lower()


def test_titles_say_settings_in_words(asker):
    """A chart's title and labels say a setting as the answer's sentence does ("P2P enabled", "in-place"), never the
    stored id; a lookup under two settings is titled by the settings, not as if they were operations."""
    res = asker.ask("p2p bandwidth from gpu2 to gpu3 on the dgx2 with p2p enabled vs disabled")
    fig = figure(res)
    title, labels = fig.layout.title.text, " ".join(fig.data[0].y)
    assert "P2P enabled" in labels and "P2P disabled" in labels, labels
    assert "P2P enabled vs P2P disabled" in title and "operation" not in title, title
    assert "p2p_on" not in title + labels and "p2p_off" not in title + labels, (title, labels)
    fig = figure(asker.ask("compare the in-place all-reduce busbw of the h200 pair and the dgx2 at 4 MB"))
    assert "in-place" in fig.layout.title.text and "in_place" not in fig.layout.title.text, fig.layout.title.text
    fig = figure(asker.ask("yme p2p bandwidth matrix with p2p disabled in tartan"))
    assert "P2P disabled" in fig.layout.title.text and "p2p_off" not in fig.layout.title.text, fig.layout.title.text
