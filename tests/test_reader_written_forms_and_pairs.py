"""Ways of asking that the reader once read wrong (session 54, from the twenty-fifth set's misses, each tested with
other words): numbers and devices as people write them ("65 536 bytes", "~1GB", "cuda:1", "GPU #1", "gpu-0",
nlu/written_forms.py); a loan's schedule or a company's facts are no data question; what a node "looks like on the
inside" is its parts; "how much faster" a copy is, where its document states the speedup, is that speedup; "NVIDIA's
... claim" is the vendor's claim; two pairs set against each other are the pair matrix; "the p one hundred one" as a
transcript writes "the P100 one"; a measure that grows "with size" is a curve over sizes, and one "across its core
counts" a curve over counts. Real model, real built database; numbers are checked with separate SQL."""
import pytest

from nlu.written_forms import indexed_devices, joined_digit_groups, without_hedges


def _value(con, sql, params):
    rows = con.execute(sql, params).fetchall()
    assert rows, (sql, params)
    return rows[0][0]


def test_digit_groups_join_only_into_a_round_size():
    assert joined_digit_groups(["at", "1", "048", "576", "bytes"]) == ["at", "1048576", "bytes"]
    assert joined_digit_groups(["65", "536", "B"]) == ["65536", "B"]
    assert joined_digit_groups(["sizes", "128", "256", "512"]) == ["sizes", "128", "256", "512"]   # a list stays


def test_hedges_and_device_indexes():
    assert without_hedges(["~64MB", "~", "8", "GPUs"]) == ["64MB", "8", "GPUs"]
    assert indexed_devices(["cuda:1", "to", "GPU", "#", "3", "and", "gpu", "-", "0"]) == ["GPU1", "to", "GPU3", "and",
                                                                                           "GPU0"]


def test_a_size_with_spaces_between_thousands(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                  "AND msg_bytes = ? AND condition = ?", ["h200x2", "allgather", "busbw", 65536, "in_place"])
    res = asker.ask("all-gather busbw on the H200 node at 65 536 bytes, in place")
    assert res.slots.get("msg_bytes") == 65536, res.slots
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_a_hedged_size(asker):
    res = asker.ask("h200 allreduce busbw ~1GB in-place")
    assert res.slots.get("msg_bytes") == 1 << 30, res.slots


def test_a_framework_device_index(asker):
    res = asker.ask("latency from cuda:1 to cuda:0 on the h200 pair")
    assert (res.slots.get("src"), res.slots.get("dst")) == ("gpu1", "gpu0"), res.slots


@pytest.mark.parametrize("text", ["how long until the DGX-2 is available again?"])
def test_a_schedule_is_no_data_question(asker, text):
    assert asker.ask(text).intent == "out_of_scope"


def test_what_a_node_looks_like_inside_is_its_parts(asker):
    res = asker.ask("what does a summit node look like on the inside")
    assert res.intent == "topology" and res.slots.get("system") == "summit", (res.intent, res.answer)


def test_how_much_faster_a_copy_is_where_its_speedup_is_stated(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND operation = ? "
                  "AND condition = ?", ["ac922_yme", "speedup", "d2h", "write_combined"])
    res = asker.ask("how much faster are write combined device to host copies from gpu one on yme")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "speedup", (res.intent, res.slots)
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_nvidias_claim_is_the_vendor_claim(asker):
    res = asker.ask("whats nvidias top speedup claim for the d g x two")
    assert res.slots.get("condition") == "vendor_claim", res.slots


def test_two_pairs_set_against_each_other_are_the_matrix(asker):
    res = asker.ask("is GPU1 -> GPU3 faster than GPU1 -> GPU2 on yme for p2p bandwidth")
    assert res.intent == "pair_matrix", res.answer
    # the answer sets the two pairs asked about side by side, with the values the matrix holds for them
    assert res.slots.get("pairs") == [["gpu1", "gpu3"], ["gpu1", "gpu2"]], res.slots
    cells = {(r["src"], r["dst"]): r["value"] for r in res.rows}
    tail = res.answer.split("The pairs asked about:")[1]
    for src, dst in (("gpu1", "gpu3"), ("gpu1", "gpu2")):
        assert f"{src.upper()} -> {dst.upper()}: " in tail and cells[(src, dst)] > 0, res.answer
    assert f"{cells[('gpu1', 'gpu3')] / cells[('gpu1', 'gpu2')]:.2f}x the second" in tail, res.answer


def test_the_spoken_model_one_is_the_sibling_machine(asker):
    res = asker.ask("is the d g x one p one hundred slower than the v one hundred one for peer copies")
    assert res.intent == "compare_systems", res.answer
    assert res.slots.get("system") == "dgx1_p100" and res.slots.get("compare_with") == ["dgx1_v100"], res.slots


def test_growth_with_size_is_a_sweep(asker):
    res = asker.ask("how does h200 sendrecv busbw grow with size, out of place")
    assert res.intent == "size_sweep", res.answer


def test_across_its_core_counts_is_a_curve(asker):
    res = asker.ask("piuma su3 speedup across its core counts")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "cores", (res.intent, res.slots)
