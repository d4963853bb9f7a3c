"""Questions end to end: the real trained model, the real database, the ask() façade."""
import json

import pytest

from conftest import table_counts
from app.intents import rows_of


def test_metric_lookup_exact_number(asker):
    r = asker.ask("what bus bandwidth does all-reduce reach on the H200 pair at one gigabyte?")
    assert r.intent == "metric_lookup"
    assert r.slots["system"] == "h200x2" and r.slots["operation"] == "allreduce"
    assert r.slots["metric"] == "busbw" and r.slots["msg_bytes"] == 1 << 30
    # all_reduce_perf_g2.txt line 40: in-place busbw 327.89 GB/s (out-of-place 326.59)
    assert r.rows[0]["value"] == 327.89 and r.rows[0]["unit"] == "GB/s"
    assert "327.9 GB/s" in r.answer and "all_reduce_perf_g2.txt" in r.answer
    assert "$system" in r.sql and r.params["system"] == "h200x2"


def test_spoken_style_question(asker):
    r = asker.ask("what is the p two p bandwidth from g p u zero to g p u one on the h two hundred pair with p two p enabled")
    assert r.slots.get("src") == "gpu0" and r.slots.get("dst") == "gpu1"
    assert r.rows and r.rows[0]["value"] in (362.41,)  # p2pBandwidthLatencyTest, P2P writes, uni


@pytest.mark.parametrize("question,intent,chart", [
    ("show the p2p bandwidth matrix of the DGX-2", "pair_matrix", "heatmap"),
    ("how does allreduce bus bandwidth change with message size on the H200 pair", "size_sweep", "line"),
    ("how does allreduce time scale with the number of ranks on the DGX-2", "scaling", "line"),
    ("compare host to device bandwidth on the DGX-2, Yme and Mini Summit", "compare_systems", "grouped_bar"),
    ("how much does latency grow under load on the IPU system", "congestion", None),
    ("show the topology of the DGX-1 V100", "topology", "network"),
    ("how many hops between core 0 and core 63 on the XMP-64", "topology", "network"),
    ("what percent of peak does NVLink reach on the DGX-1 V100", "link_efficiency", "bar"),
    ("top 5 kernels in the H200 trace", "trace_breakdown", "stacked_bar"),
    ("which systems are loaded", "list_data", "table"),
])
def test_every_intent_end_to_end(asker, question, intent, chart):
    r = asker.ask(question)
    assert r.intent == intent, (r.intent, r.answer)
    assert r.answer and r.rows, r.answer
    if chart:
        assert r.chart["kind"] == chart
    json.dumps(r.to_dict())  # the result object is JSON-serialisable


def test_hops_answer(asker):
    r = asker.ask("how many hops between core 0 and core 63 on the XMP-64")
    assert "6 hops" in r.answer


@pytest.mark.parametrize("question", [
    "what's the weather in Hamburg tomorrow",
    "tell me a joke about compilers",
    "what is the allreduce bandwidth on Frontier",
])
def test_out_of_scope_is_plain(asker, question):
    r = asker.ask(question)
    assert r.intent == "out_of_scope"
    assert not r.rows
    assert "systems" in r.answer  # says what the data does cover


def test_metric_never_measured_is_out_of_scope(asker):
    r = asker.ask("what is the GFLOPS of the XMP-64")
    assert r.intent == "out_of_scope" and "XMP-64" in r.answer


def test_injection_attempt_is_harmless(asker, built_db):
    import duckdb
    before = table_counts(asker.con)
    r = asker.ask("bandwidth from gpu0'; DROP TABLE measurements; -- to gpu1 on the DGX-2")
    assert "DROP" not in (r.sql or "")
    assert all("DROP" not in str(v) for v in r.params.values()) or r.intent == "out_of_scope"
    con = duckdb.connect(str(built_db), read_only=True)
    assert table_counts(con) == before
    con.close()


def test_follow_up_reuses_previous_system(asker):
    from app.followup import context_of
    first = asker.ask("what is the host to device bandwidth on Yme")
    assert first.intent == "metric_lookup"
    r = asker.ask("and the device to host bandwidth?", context=context_of(first))
    assert r.slots["system"] == "ac922_yme" and r.slots["operation"] == "d2h"
    assert r.intent == "metric_lookup" and r.rows and r.rows[0]["operation"] == "d2h"
    assert any("follow-up" in n or "previous question" in n for n in r.notes)


def test_a_follow_up_of_an_answer_the_data_backed_is_not_read_afresh():
    # the first turn was answered as a lookup on 40% (the data backed it); the follow-up's own words read as a
    # topology question at 55%. Carried over, it must stay a lookup and clear the floor, whatever the model drew.
    from app.followup import carry
    from nlu.pipeline import CONFIDENCE_FLOOR, Understanding
    u = Understanding(intent="topology", confidence=0.55, slots={"operation": "d2h", "metric": "bandwidth"})
    note = carry(u, {"intent": "metric_lookup", "confidence": 0.40, "system": "ac922_yme", "operation": "h2d"},
                 "and the device to host bandwidth?")
    assert note and u.intent == "metric_lookup" and u.confidence >= CONFIDENCE_FLOOR
    assert u.slots == {"system": "ac922_yme", "operation": "d2h", "metric": "bandwidth"}
    # a sure previous turn keeps its own confidence
    v = Understanding(intent="topology", confidence=0.55, slots={})
    carry(v, {"intent": "metric_lookup", "confidence": 0.93, "system": "dgx2"}, "and on the DGX-2?")
    assert v.confidence == 0.93


def test_batch_cli(tmp_path, built_db, capsys):
    from app.cli import main
    f = tmp_path / "q.jsonl"
    f.write_text('{"id": "a", "text": "which systems are loaded"}\n{"id": "b"}\n'
                 '{"id": "c", "text": "show the topology of the DGX-2"}\n')
    import os
    os.environ["HPCASK_DB"] = str(built_db)
    try:
        assert main(["ask", "--batch", str(f), "--json"]) == 0
    finally:
        del os.environ["HPCASK_DB"]
    out = [json.loads(l) for l in capsys.readouterr().out.splitlines()]
    assert [o["id"] for o in out] == ["a", "b", "c"]
    assert "error" in out[1] and out[2]["intent"] == "topology"


def test_over_specified_question_is_relaxed_and_says_so(asker):
    r = asker.ask("what bus bandwidth does all-reduce reach on the H200 pair at 1 GB in double precision")
    assert r.intent == "metric_lookup"
    assert r.answer.startswith("Nothing matches precision fp64")
    assert r.rows[0]["value"] == 327.89 and r.rows[0]["precision"] == "fp32"
    assert any("answered without it" in n for n in r.notes)


def test_no_relaxation_without_the_asked_metric(asker):
    # nothing in the data answers this; dropping details must not produce some other number
    r = asker.ask("how much energy did the dgx one v one hundred use while training resnet")
    assert r.intent == "out_of_scope" and not r.rows


def test_span_cut_short_is_widened_to_the_longer_name(asker):
    r = asker.ask("all gather time at sixty four kilobytes in place on the h two hundred node")
    assert r.slots["operation"] == "allgather" and r.slots["msg_bytes"] == 65536
    assert r.rows and r.rows[0]["metric"] == "time" and r.rows[0]["operation"] == "allgather"


def test_metric_under_the_tools_own_name(asker, built_con):
    """nccl-tests stores a collective's bandwidth as algbw/busbw: "bandwidth" is answered with algbw, and said so."""
    r = asker.ask("what bandwidth does reduce scatter get on the h200 pair at 1 GiB")
    assert r.intent == "metric_lookup" and r.rows
    assert r.rows[0]["metric"] == "algbw" and any("answered with algbw" in n for n in r.notes)
    want = built_con.execute(
        "SELECT max(value) FROM measurements WHERE system_id = 'h200x2' AND operation = 'reduce_scatter' "
        "AND metric = 'algbw' AND msg_bytes = 1073741824 AND count = 2").fetchone()[0]
    assert max(row["value"] for row in r.rows) <= want


def test_cli_table_shows_the_links_of_a_path(asker, capsys):
    from app.cli import _print_result
    _print_result(asker.ask("how many hops between core 0 and core 63 on the XMP-64"), as_json=False)
    out = capsys.readouterr().out.splitlines()
    assert out[2].split() == ["system_id", "hop", "a", "b", "link_type", "count"]
    assert out[3].split()[:5] == ["xmp64", "1", "core0", "core1", "OnChip"]


def test_a_library_the_data_does_not_record_is_relaxed(asker):
    r = asker.ask("what share of lammps time goes to allreduce with mpi on the nvidia in-house cluster")
    assert r.intent == "metric_lookup" and r.rows and r.rows[0]["value"] == 10.0
    assert any("library mpi" in n for n in r.notes)


def test_a_grid_asked_through_an_unmeasured_pair_shows_the_grid(asker):
    r = asker.ask("p2p latency grid of ipu4 and ipu6 on the ipu system")
    assert r.intent == "pair_matrix" and len(r.rows) >= 2
    assert any(n.startswith("no data for the pair IPU4 -> IPU6") for n in r.notes)


def test_a_copy_asked_by_how_long_it_takes_is_not_read_as_bandwidth(asker):
    from nlu.implied import copy_bandwidth
    u = asker.nlu.understand("how long does a gpu0 to gpu1 copy take on the dgx2")
    assert u.slots.get("metric") != "bandwidth"
    # the guard itself (the model may already read "how long" as a time): the same slots, with and without it
    slots = {"system": "dgx2", "operation": "p2p", "src": "gpu0", "dst": "gpu1"}
    assert not copy_bandwidth("metric_lookup", dict(slots), asker.cat, "how much longer does the copy take".split())
    assert copy_bandwidth("metric_lookup", dict(slots), asker.cat, "gpu0 to gpu1 copy on the dgx2".split())


def test_a_reading_the_data_cannot_answer_gives_way_to_a_likely_runner_up(asker):
    u = asker.nlu.understand("how long does a barrier take on the xmp64")
    r = asker.ask("how long does a barrier take on the xmp64")
    assert r.intent in ("metric_lookup", "scaling") and r.rows and r.rows[0]["unit"] == "us"
    if u.intent != r.intent:           # the model's first reading found no data: the note says so
        assert any("the data cannot answer it" in n for n in r.notes)
        assert r.understood_intent == u.intent


def test_no_runner_up_for_a_question_about_nothing_stored(asker):
    r = asker.ask("Can you show a kernel-level time breakdown for the DGX-2 runs?")
    assert r.intent == "out_of_scope" and "trace" in r.answer


def test_how_many_parts_is_read_from_the_topology(asker):
    r = asker.ask("how many gpus does yme have")
    assert r.intent == "topology" and "4 GPUs" in r.answer
    assert asker.ask("how many gpus does frontier have").intent == "out_of_scope"


def test_which_systems_have_nvlink_lists_every_generation(asker):
    r = asker.ask("which systems have nvlink?")
    assert r.intent == "list_data" and "system" not in r.slots
    assert {"dgx1_p100", "dgx1_v100", "h200x2"} <= {x["system_id"] for x in r.rows}


def test_a_kernel_with_no_word_about_links_is_not_a_topology_question(asker):
    # the model's own top reading of this one is topology (0.95): the reader rules it out, and takes it out of
    # the ranked intents (without the rule it would be first there)
    u = asker.nlu.understand("dgx-2 deepbench conv")
    assert u.slots.get("operation") == "conv" and u.intent != "topology"
    assert asker.nlu.understand("how is the dgx-2 gemm gpu connected to the others").intent == "topology"
    # nor does ask's runner-up loop bring topology back when the reading left is unsure
    assert "topology" not in dict(u.ranked)
    r = asker.ask("conv on the dgx-2")
    assert asker.nlu.understand("conv on the dgx-2").intent != "topology" and r.intent != "topology"


def test_a_lookup_quoting_one_of_many_values_says_which_and_of_how_many(built_con):
    from app import catalog
    from app.intents import metric_lookup
    cat = catalog.load(built_con)
    plan = metric_lookup.plan({"system": "dgx2", "operation": "gemm", "metric": "time"}, cat)
    rows = rows_of(built_con, plan)
    text = metric_lookup.answer(rows, plan, cat)
    (n,) = built_con.execute("SELECT count(*) FROM measurements WHERE system_id = 'dgx2' AND operation = 'gemm' "
                             "AND metric = 'time'").fetchone()
    assert len(rows) == 50 < n                               # DeepBench's kernel shapes; the rows show 50
    assert text.startswith(f"The lowest of {n:,} measurements: ")
    assert rows[0]["value"] == min(x["value"] for x in rows)
    assert not any(k.startswith("_") for r in rows for k in r)


def test_a_size_never_measured_but_within_a_tenth_is_answered_at_the_measured_size(asker, built_con):
    sizes = [r[0] for r in built_con.execute(
        "SELECT DISTINCT msg_bytes FROM measurements WHERE system_id = 'h200x2' AND operation = 'allreduce' "
        "AND msg_bytes > 0").fetchall()]
    assert 1000 not in sizes and 1024 in sizes
    r = asker.ask("allreduce busbw at 1000 bytes on the h200 pair")
    assert r.intent == "metric_lookup" and r.slots["msg_bytes"] == 1000        # what was asked stays
    assert r.answer.startswith("Nothing was measured at 1000 B; the nearest measured size is 1 KiB: ")
    assert {x["msg_bytes"] for x in r.rows} == {1024}
    (want,) = built_con.execute(
        "SELECT max(value) FROM measurements WHERE system_id = 'h200x2' AND operation = 'allreduce' "
        "AND metric = 'busbw' AND msg_bytes = 1024 AND count = 2").fetchone()
    assert r.rows[0]["value"] == want
    # with the metric under the tool's own name too: nccl-tests report a collective's time, not its latency
    r = asker.ask("alltoall latency at 1000 bytes on the h200s")
    assert "the tools call latency time" in r.answer and r.rows[0]["metric"] == "time"
    assert {x["msg_bytes"] for x in r.rows} == {1024}
    # further off, the number at another size would answer another question (session 51): refused, with the sizes
    # that were measured
    r = asker.ask("alltoall latency at 9 bytes on the h200s")
    assert r.intent == "out_of_scope" and not r.rows, (r.intent, r.answer)
    assert "Nothing was measured at 9 B" in r.answer and "measured size" in r.answer, r.answer


def test_an_ipu_pair_latency_is_a_latency_not_an_average_per_message(asker):
    r = asker.ask("latency between ipu5 and ipu4")
    assert r.intent == "metric_lookup" and r.rows[0]["metric"] == "latency"
    assert r.rows[0]["value"] == pytest.approx(0.524)     # 000 Table 4.1, not Table 4.3's 2.076 ns per message


def test_an_app_that_names_a_stored_operation_is_read_as_that_operation(asker, built_con):
    # GEMM is a SHOC program on the DGX-2 (GFLOP/s only) and gemm a DeepBench operation (times): a time asked
    # of "gemm" is DeepBench's, not whatever time is left once the app is dropped (an all-reduce's)
    for q in ("deepbench gemm times on the dgx-2", "gemm time on the dgx-2"):
        r = asker.ask(q)
        assert r.intent == "metric_lookup", q
        assert {x["operation"] for x in r.rows} == {"gemm"} and {x["metric"] for x in r.rows} == {"time"}, q
        (low,) = built_con.execute("SELECT min(value) FROM measurements WHERE system_id = 'dgx2' "
                                   "AND operation = 'gemm' AND metric = 'time'").fetchone()
        assert r.rows[0]["value"] == low


def test_dropping_an_unstored_app_never_answers_with_another_programs_number(asker, built_con):
    assert not built_con.execute("SELECT count(*) FROM measurements WHERE system_id = 'dgx2' "
                                 "AND lower(app) LIKE 'resnet%'").fetchone()[0]
    for q in ("what is the resnet50 training time on the dgx-2", "resnet-50 latency on the dgx-2"):
        r = asker.ask(q)
        assert r.intent == "out_of_scope" and not r.rows, q
        assert not any("largest measured" in n for n in r.notes), q   # nothing left of the refused tries
    # a stored app that extends the asked name still answers ("lenet5": Chifflot stores lenet5_mnist), and the
    # reader already names it as stored
    r = asker.ask("lenet5 training time chifflot 2 vs 12 gpus")
    assert r.intent == "scaling" and r.rows and all("lenet5_mnist" in x["variant"] for x in r.rows)
    assert r.slots["app"] == "lenet5_mnist"


def test_a_slowdown_the_papers_state_answers_a_question_read_as_congestion(asker, built_con):
    # a profiler's or an offload's slowdown is no congestion pair, but the paper states it: a lookup answers
    r = asker.ask("lulesh slowdown under compiler instrumentation, callgraph cluster")
    assert r.intent == "metric_lookup" and r.rows
    (want,) = built_con.execute("SELECT value FROM measurements WHERE system_id = 'callgraph_cluster' AND "
                                "metric = 'slowdown' AND app = 'lulesh' AND condition = 'compiler_instrumentation'"
                                ).fetchone()
    assert r.rows[0]["value"] == want and r.rows[0]["metric"] == "slowdown"
    # a plain metric asked about traffic patterns the data does not hold stays out of scope, not a bare latency
    r = asker.ask("how do the traffic patterns on the xmp sixty four affect latency")
    assert r.intent == "out_of_scope" and not r.rows


def test_a_system_word_read_as_a_count_kind_with_no_count_still_names_the_system(asker, built_con):
    # "an IPU": the gazetteer offers the system and the count kind "ipus"; with no count, the system stands
    r = asker.ask("What's the theoretical local memory read bandwidth of an IPU?")
    assert r.slots.get("system") == "ipu16" and r.intent == "metric_lookup"
    (want,) = built_con.execute("SELECT max(value) FROM measurements WHERE system_id = 'ipu16' AND "
                                "operation = 'local_memory_read' AND metric = 'bandwidth' "
                                "AND condition = 'theoretical'").fetchone()
    assert r.rows[0]["value"] == want


def test_peak_as_the_highest_measured_is_a_lookup_not_a_link_efficiency(asker, built_con):
    # "peak" read as the aggregate, with no word rating it against anything: the highest stored value
    r = asker.ask("what is the peak allreduce bus bandwidth on the H200s")
    assert r.intent == "metric_lookup" and r.slots.get("aggregate") == "max"
    (top,) = built_con.execute("SELECT max(value) FROM measurements WHERE system_id = 'h200x2' AND "
                               "operation = 'allreduce' AND metric = 'busbw'").fetchone()
    assert r.rows[0]["value"] == top
    # a reference the question rates against stays a link-efficiency question
    assert asker.ask("what fraction of the peak does NVLink reach on the DGX-1 V100").intent == "link_efficiency"
