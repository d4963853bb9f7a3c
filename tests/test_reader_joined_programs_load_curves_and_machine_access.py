"""Ways of asking that the reader once read wrong (session 63, from the fifty-third set's misses, each tested with
other words): two programs run as one pipeline ("speech two text with joint bert") the joined program stored; a
loaded value over a range of tile counts the curve, with no speedup derived from tiles that make the load; "where
does it level off" on the count a run was made on the curve over sizes; "how far apart are A and B" and "how are A
and B doing on X" the comparison; a terse "<machine> <program> bandwidth shoc" no grid of pairs; login nodes,
booking time, a tool's authors and a rack's airflow refused; "which systems' data include ..." the systems holding
it. Real model, real built database."""
from conftest import stored_values as _values

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_two_programs_joined_as_one(asker, built_con):
    res = asker.ask("what intent accuracy does speech two text with joint bert reach on r i two")
    assert res.slots.get("app") == "speech2text+jointbert", res.slots
    want = _values(built_con, _ROWS + "m.app = ? AND m.metric = ?", ["ri2", "speech2text+jointbert", "accuracy"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_a_loaded_value_over_tile_counts(asker):
    res = asker.ask("ipu p2p latency under load from 4 to 2432 tiles")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "tiles", (res.intent, res.slots)
    assert "speedup of" not in res.answer, res.answer


def test_where_a_curve_levels_off_on_one_count(asker):
    res = asker.ask("h200 out-of-place all-gather busbw on 2 gpus where does it plateau")
    assert res.intent == "size_sweep" and res.slots.get("count") == 2, (res.intent, res.slots)


def test_two_machines_asked_how_far_apart(asker):
    for q in ("how far apart are the DGX-2 and Yme on FP64 MaxFlops for GPU0",
              "How are the DGX-2 and Yme doing on FP64 MaxFlops for GPU0?"):
        res = asker.ask(q)
        assert res.intent == "compare_systems", (q, res.intent, res.slots)


def test_a_terse_program_bandwidth_is_no_grid(asker):
    res = asker.ask("gtx980 sort bandwidth shoc")
    assert res.intent == "metric_lookup" and res.slots.get("operation") == "sort", (res.intent, res.slots)


def test_access_authors_and_airflow_are_refused(asker):
    for q in ("what is the hostname of the dgx-2 login node", "can i book hours on yme next month",
              "who developed the tartan benchmark", "how much airflow does the dgx-2 need"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_which_systems_data_include(asker):
    res = asker.ask("Which machines' data include PyTorch profiler traces?")
    assert res.intent == "list_data", (res.intent, res.slots)
