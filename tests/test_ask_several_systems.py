"""Several systems named in a question whose intent answers for one ("allreduce bandwidth vs message size on the DGX-2
and Yme"): each system is asked in turn and the answers go together, one curve per system. Real vocabulary, real
built database, real trained model."""
from app.chart_plots import scaling, size_sweep
from app.charts import figure


def test_a_size_sweep_on_two_systems_has_a_curve_each(asker):
    res = asker.ask("allreduce bandwidth vs message size on the dgx2 and yme")
    assert res.intent == "size_sweep" and res.slots.get("compare_with") == ["ac922_yme"]
    assert {r["system_id"] for r in res.rows} == {"dgx2", "ac922_yme"}
    # one sentence per system, in the order named, each with its own source
    assert res.answer.index('DGX-2 "Heid"') < res.answer.index('AC922 "Yme"') and res.answer.count("[") == 2
    alone = asker.ask("allreduce bandwidth vs message size on yme")
    assert alone.answer in res.answer                         # the same reading as asked alone
    assert [r["value"] for r in res.rows if r["system_id"] == "ac922_yme"] == [r["value"] for r in alone.rows]
    fig = size_sweep(res)
    names = {t.name for t in fig.data}
    assert names == {'NVIDIA DGX-2 "Heid"', 'IBM Power System AC922 "Yme"'} and "dgx2 and ac922_yme" in fig.layout.title.text
    assert res.params["system"] == "dgx2" and any(n.startswith("one query per system") for n in res.notes)


def test_a_scaling_curve_per_system(asker):
    res = asker.ask("scaling of qtc time on dgx2 and yme")
    assert res.intent == "scaling" and {r["system_id"] for r in res.rows} == {"dgx2", "ac922_yme"}
    fig = scaling(res)
    measured = [t for t in fig.data if (t.meta or {}).get("role") is None]
    assert {t.name for t in measured} == {'NVIDIA DGX-2 "Heid"', 'IBM Power System AC922 "Yme"'}
    assert sum((t.meta or {}).get("role") == "ideal" for t in fig.data) == 2


def test_a_system_without_the_data_is_said_not_dropped_silently(asker):
    res = asker.ask("allreduce busbw vs message size on the h200 pair and the xmp64")
    assert res.intent == "size_sweep" and {r["system_id"] for r in res.rows} == {"h200x2"}
    assert any(n.startswith("XMOS XK-XMP-64: not answered") for n in res.notes)


def test_an_inventory_of_two_systems_lists_both(asker):
    res = asker.ask("what data do you have for the dgx2 and yme")
    assert res.intent == "list_data" and {r["system_id"] for r in res.rows} == {"dgx2", "ac922_yme"}
    assert res.answer.index("90,372 measurements") < res.answer.index('AC922 "Yme"')


def test_a_one_system_answer_says_who_was_left_out(asker):
    res = asker.ask("kernel breakdown of the h200 trace and the dgx2")
    assert res.intent == "trace_breakdown"
    assert any(n.startswith("answered for 2x NVIDIA H200 node (lent GPU node) only")
               and n.endswith('NVIDIA DGX-2 "Heid" (NTNU)') for n in res.notes)
    assert not any(n.startswith("answered for") for n in asker.ask("kernel breakdown of the h200 trace").notes)


def test_link_efficiency_on_two_systems_labels_each_link_by_system(asker):
    """"compare nvlink efficiency of the dgx-1 p100 and v100": a link's efficiency needs the link's nominal rate,
    which only link_efficiency sets against; each system is asked and each bar says whose link it is."""
    res = asker.ask("compare nvlink efficiency of the dgx-1 p100 and v100")
    assert res.intent == "link_efficiency" and res.slots["compare_with"] == ["dgx1_v100"]
    for sid in ("dgx1_p100", "dgx1_v100"):
        alone = asker.ask(f"nvlink efficiency on the {sid}")
        assert alone.intent == "link_efficiency" and alone.answer in res.answer
    fig = figure(res)
    labels = list(fig.data[0].y)
    assert {lab.split(":")[0] for lab in labels} == {"dgx1_p100", "dgx1_v100"}
    assert "dgx1_p100 and dgx1_v100" in fig.layout.title.text


def test_two_topologies_are_drawn_side_by_side(asker):
    """"compare the topology of the DGX-1 P100 and the V100": nothing measured is named, so not a comparison of
    numbers (which had asked back for a metric) but each system's graph, in a panel of its own."""
    res = asker.ask("compare the topology of the DGX-1 P100 and the DGX-1 V100")
    assert res.intent == "topology" and res.slots["compare_with"] == ["dgx1_v100"]
    for sid in ("dgx1_p100", "dgx1_v100"):
        alone = asker.ask(f"show the topology of the {sid}")
        assert alone.intent == "topology" and alone.answer in res.answer
        assert len([r for r in res.rows if r["system_id"] == sid]) == len(alone.rows)
    assert [p["system"] for p in res.chart["parts"]] == ["dgx1_p100", "dgx1_v100"]
    fig = figure(res)
    assert [a.text for a in fig.layout.annotations[:2]] == ["dgx1_p100", "dgx1_v100"]
    nodes = [t for t in fig.data if (t.meta or {}).get("role") == "nodes"]
    # each panel draws its own components on its own axes: 8 GPUs in each
    gpus = {t.xaxis: len(t.x) for t in nodes if t.meta["kind"] == "gpu"}
    assert gpus == {"x": 8, "x2": 8}
    assert fig.layout.yaxis2.scaleanchor == "x2"
    # one legend entry per kind, not one per panel
    shown = [t.name for t in fig.data if t.showlegend is not False and t.name]
    assert len(shown) == len(set(shown)) and "gpu" in shown


def test_two_pair_matrices_share_one_colour_scale(asker):
    res = asker.ask("p2p bandwidth matrix on yme and mini summit")
    assert res.intent == "pair_matrix" and {r["system_id"] for r in res.rows} == {"ac922_yme", "ac922_minisummit"}
    fig = figure(res)
    maps = [t for t in fig.data if t.type == "heatmap"]
    assert len(maps) == 2 and [m.xaxis for m in maps] == ["x", "x2"]
    top = max(r["value"] for r in res.rows if r.get("src") and r.get("dst"))
    assert all(m.zmax == top for m in maps) and [bool(m.showscale) for m in maps] == [False, True]


def test_a_comparison_that_names_a_metric_stays_a_comparison(asker):
    res = asker.ask("compare p2p bandwidth between connected gpus, dgx2 vs yme")   # "connected": a graph word
    assert res.intent == "compare_systems"


def test_a_lookup_on_two_systems_answers_each(asker):
    # one measure asked "on yme and on the dgx2" is a comparison (session 68; the evaluation sets label it so), with
    # both machines' values in its rows
    res = asker.ask("what is the p2p bandwidth from gpu0 to gpu1 on yme and on the dgx2")
    assert res.intent == "compare_systems" and {r["system_id"] for r in res.rows} >= {"ac922_yme", "dgx2"}, (
        res.intent, res.answer)
    # a lookup that names two machines with no such frame is asked of each
    res = asker.ask("yme and dgx2 p2p bandwidth from gpu0 to gpu1")
    assert res.intent == "metric_lookup" and res.slots["compare_with"] == ["dgx2"]
    firsts = []
    for sid in ("ac922_yme", "dgx2"):
        alone = asker.ask(f"what is the p2p bandwidth from gpu0 to gpu1 on {sid}")
        assert alone.answer in res.answer
        firsts.append(alone.rows[0]["value"])
    assert res.rows[0]["value"] == firsts[0]                      # the headline is the first system's
    fig = figure(res)
    assert list(fig.data[0].x) == firsts and [y.split("<br>")[0] for y in fig.data[0].y] == ["ac922_yme", "dgx2"]


def test_two_operations_on_one_system_are_answered_each(asker):
    res = asker.ask("d2h vs h2d bandwidth on yme")
    assert res.intent == "metric_lookup" and res.slots["operations"] == ["d2h", "h2d"]
    values = []
    for op in ("device to host", "host to device"):
        alone = asker.ask(f"{op} bandwidth on yme")
        assert alone.answer in res.answer
        values.append(alone.rows[0]["value"])
    fig = figure(res)
    assert list(fig.data[0].x) == values and [y.split("<br>")[0] for y in fig.data[0].y] == ["d2h", "h2d"]


def test_two_collectives_swept_over_sizes_share_one_chart(asker):
    res = asker.ask("allreduce and allgather busbw vs message size on the h200")
    assert res.intent == "size_sweep" and {r["operation"] for r in res.rows} == {"allreduce", "allgather"}
    fig = figure(res)
    assert {t.name.split(":")[0] for t in fig.data if t.name} == {"all-reduce", "all-gather"}
    assert fig.layout.title.text.startswith("allreduce vs allgather busbw vs message size")


def test_which_words_set_operations_side_by_side(asker):
    from nlu.pipeline import several_operations
    cases = {"allreduce, allgather and broadcast busbw on the h200": ["allreduce", "allgather", "broadcast"],
             "device to host bandwidth on yme": [],
             "p2p bandwidth from gpu0 to gpu1 on yme": [],
             "allreduce time on the dgx2, then broadcast": []}
    for q, want in cases.items():
        words = asker.nlu.understand(q).tokens     # the reader's own words
        assert several_operations(words, asker.nlu.gazetteer.candidates(words)) == want, q


def test_all_collectives_are_set_side_by_side_and_the_best_named(asker, built_con):
    res = asker.ask("which collective is fastest on the h200 at 1 MB?")
    assert res.intent == "metric_lookup" and res.slots["operations"] == "collectives"
    stored = {r[0] for r in built_con.execute(
        "SELECT DISTINCT operation FROM measurements WHERE system_id = 'h200x2' AND metric = 'busbw' "
        "AND msg_bytes = 1048576").fetchall()}
    assert {r["operation"] for r in res.rows} == stored
    best = built_con.execute("SELECT operation, max(value) FROM measurements WHERE system_id = 'h200x2' AND "
                             "metric = 'busbw' AND msg_bytes = 1048576 GROUP BY operation ORDER BY 2 DESC "
                             "LIMIT 1").fetchone()
    assert res.rows[0]["operation"] == best[0] and res.rows[0]["value"] == best[1]   # the best leads
    assert res.answer.endswith(f"has the highest busbw: {best[1]:,.4g} GB/s.")
    sweep = asker.ask("plot bus bandwidth for all collectives on the h200 pair")
    assert sweep.intent == "size_sweep" and {r["operation"] for r in sweep.rows} >= stored
