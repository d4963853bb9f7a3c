"""Ways of asking that the reader once read wrong (session 54, from the twenty-third set's remaining misses, each tested
with other words): how well "the PCIe" is utilised for copies is that link's efficiency (the link, not a copy's
condition); "energy reduction" is the stored reduction, not the reduce collective; a link count "between both GPUs"
of a machine that stores no counts is its graph; a rate "for big mesages" is the value at the large end, not a
sweep; sizes in scientific notation make a range ("from 1e5 to 6.4e7 bytes"); "the row where size is 2^25" is one
row; "944 billion samples per second" is a rate, no size. Real model, real built database; numbers are checked with
separate SQL."""
import pytest

from nlu.pipeline import plain_scientific


def _value(con, sql, params):
    rows = con.execute(sql, params).fetchall()
    assert rows, (sql, params)
    return rows[0][0]


def test_how_well_the_pcie_is_utilised_is_its_efficiency(asker):
    res = asker.ask("How well is the PCIe used on the V100 DGX-1 for host-to-device copies?")
    assert res.intent == "link_efficiency", res.answer
    assert str(res.slots.get("link_type", "")).startswith("PCIe") and "condition" not in res.slots, res.slots


def test_energy_reduction_is_no_reduce_collective(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ?",
                  ["llm_sim", "energy_reduction"])
    res = asker.ask("percent energy reduction llm sim")
    assert res.intent == "metric_lookup" and "operation" not in res.slots, (res.slots, res.answer)
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_a_link_count_between_both_gpus_is_the_graph(asker):
    res = asker.ask("h200 nvlink count between both gpus")
    assert res.intent == "topology", res.answer
    assert res.slots.get("system") == "h200x2" and "operation" not in res.slots, res.slots


def test_a_rate_for_huge_messages_is_one_value(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND operation = ? "
                  "AND condition = ? AND src = ? AND dst = ?",
                  ["ipu16", "bandwidth", "p2p", "congestion_free", "ipu5", "ipu6"])
    res = asker.ask("ipu5 to ipu6 bandwith for big mesages, no congestion")
    assert res.intent == "metric_lookup", res.answer
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_a_range_in_scientific_notation_is_a_sweep(asker):
    res = asker.ask("DeepBench nccl_single_all_reduce time on the DGX-2, 8 GPUs, from 1e5 to 6.4e7 bytes")
    assert res.intent == "size_sweep", res.answer
    assert res.slots.get("size_range") == [100000, 64000000], res.slots


def test_whole_numbers_in_scientific_notation_are_written_out():
    assert plain_scientific(["from", "4e5", "to", "2.58e8", "bytes", "1.5e-3", "1E3"]) == \
        ["from", "400000", "to", "258000000", "bytes", "1.5e-3", "1000"]


def test_the_row_where_size_is_one_row(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                  "AND msg_bytes = ? AND condition = ?", ["h200x2", "sendrecv", "time", 1 << 25, "out_of_place"])
    res = asker.ask("h200 sendrecv: in the row where size is 2^25, what is the out-of-place time?")
    assert res.intent == "metric_lookup", res.answer
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_a_count_per_second_is_a_rate_not_a_size(asker):
    res = asker.ask("did the 16-IPU box really make 944 billion samples per second of random numbers?")
    assert "msg_bytes" not in res.slots, res.slots
