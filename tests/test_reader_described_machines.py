"""Machines described instead of named (session 54, from the twenty-third set's misses, each tested with other words):
"the AMD node in the hanging-node paper", "the Power9 machine that has two V100s", "the P100 cube-mesh box", "the
Grid'5000 V100 cluster" are read from what the systems table's descriptions say (nlu/described.py); a description
that fits two machines of one family is read as the family's first, with a note naming the other, and one that fits
a few machines of no family is asked back, each named; an imagined or the asker's own machine ("an A100 cluster")
and a part of a named machine ("the same NUMA node") are no description. Real model, real built database; numbers
are checked with separate SQL."""
import pytest


def _value(con, sql, params):
    rows = con.execute(sql, params).fetchall()
    assert rows, (sql, params)
    return rows[0][0]


@pytest.mark.parametrize("text, intent, system", [
    ("What's the STREAM triad figure for the AMD node in the hanging-node paper?", "metric_lookup",
     "hangingnodes_epyc7742_node"),
    ("Draw the links of the Power9 machine that has two V100s", "topology", "ac922_minisummit"),
    ("For the P100 cube-mesh box, how fast is a GPU0 to GPU1 copy with P2P on?", "metric_lookup", "dgx1_p100"),
    ("what do you hold on the call graph profiler study cluster", "list_data", "callgraph_cluster"),
])
def test_a_described_machine_is_the_one_its_description_fits(asker, text, intent, system):
    res = asker.ask(text)
    assert res.intent == intent, (res.intent, res.answer)
    assert res.slots.get("system") == system, res.slots
    assert any("read “" in n and asker.cat.name(system) in n for n in res.notes), res.notes


def test_the_stream_triad_of_the_described_node(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ?",
                  ["hangingnodes_epyc7742_node", "triad", "bandwidth"])
    res = asker.ask("What's the STREAM triad figure for the AMD node in the hanging-node paper?")
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_two_described_machines_compared(asker):
    res = asker.ask("Horovod efficiency at 8 GPUs, the Grid'5000 P100 cluster versus the Grid'5000 V100 one")
    assert res.intent == "compare_systems", res.answer
    assert res.slots.get("system") == "chifflot" and res.slots.get("compare_with") == ["gemini"], res.slots


def test_a_description_two_machines_fit_takes_the_first_and_names_the_other(asker):
    res = asker.ask("GPU-to-GPU bandwidth on the POWER9 server with 4 V100s")
    assert res.slots.get("system") == "ac922_tum", res.slots
    assert any("also fits" in n and "Yme" in n for n in res.notes), res.notes


def test_the_list_of_a_described_cluster_is_its_inventory_not_its_traces(asker):
    # "profiler" is a word of the cluster's name there, not a question about traces
    res = asker.ask("what do you hold on the call graph profiler study cluster")
    assert res.intent == "list_data" and "measurements" in res.answer and "No traces" not in res.answer, res.answer


@pytest.mark.parametrize("text, system", [
    ("How long does QTC take on Yme with 2 GPUs on the same NUMA node?", "ac922_yme"),   # a part, not a machine
    ("how fast would an A100 cluster run my code", None),                               # imagined, not stored
    ("whats the nominal power of one i p u in the graphcore system", "ipu16"),
])
def test_no_description_where_none_is_meant(asker, text, system):
    res = asker.ask(text)
    assert res.slots.get("system") == system, res.slots
    names = [asker.cat.name(x) for x in asker.cat.systems]
    assert not any(n.startswith("read “") and any(f"as “{m}”" in n for m in names) for n in res.notes), res.notes


def test_descriptions_come_from_the_systems_table(asker):
    # the reader's features are the built database's words: every system has some, and counted processors are read
    d = asker.nlu.described
    assert set(d.names) == set(asker.cat.systems)
    assert (2, "v100") in d.counts["ac922_minisummit"] and (4, "v100") in d.counts["ac922_tum"]
    assert d.fits({"p100", "cubemesh"}, set(), "machine") == {"dgx1_p100"}
    assert d.fits({"hybrid"}, set(), "machine") == set()     # a plain word alone makes no description


def test_a_description_several_machines_fit_is_asked_back(asker):
    # "the AMD machine" fits a few machines and names no family: which one is asked, each named
    res = asker.ask("whats the power draw of the AMD machine")
    assert res.intent == "out_of_scope" and res.answer.startswith("Which system?"), res.answer
    fits = asker.nlu.described.fits({"amd"}, set(), "machine")
    assert len(fits) >= 2 and all(asker.cat.name(s) in res.answer for s in fits), res.answer
