"""Several systems named in a question whose intent answers for one ("allreduce bandwidth vs message size on the DGX-2
and Yme"): each system is asked in turn and the answers go together, one curve per system. Real vocabulary, real
built database, real trained model."""
from app.chart_plots import scaling, size_sweep


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
    res = asker.ask("how are the gpus connected in the dgx2 and in yme")
    assert res.intent == "topology" and {r.get("system_id", "dgx2") for r in res.rows} == {"dgx2"}
    assert any(n.startswith('answered for NVIDIA DGX-2 "Heid" (NTNU) only') and n.endswith('AC922 "Yme" (4 GPUs, NTNU)')
               for n in res.notes)
    assert not any("only" in n for n in asker.ask("how are the gpus connected in the dgx2").notes
                   if n.startswith("answered for"))
