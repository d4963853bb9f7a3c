"""Trace questions about some of the events, asked the way HTA and Perfetto users ask them: a kernel family by a
word of its names ("nvjet", "layer norm", "gemm"), a category ("memset", "cpu ops"), a count, the time per call,
the most called kernels, the time per stream, exposed communication; and what a trace cannot say. Real model,
real built database; expected values summed from the raw Kineto JSON."""
import gzip
import json
import statistics

import pytest

from conftest import RAW


def events(rank, trace_dir="pytorch_trace"):
    with gzip.open(RAW / "h200x2" / trace_dir / f"trace_rank{rank}.json.gz") as f:
        return [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X" and e.get("dur") is not None]


def kernels(rank, has=lambda name: True, cat="kernel"):
    return [e for e in events(rank) if e.get("cat") == cat and has(e["name"].lower().replace("_", ""))]


def ms(us):
    return f"{us / 1000:.3g} ms" if us >= 100 else f"{us:.3g} us"


def by_rank(res, kind):
    return {r["rank"]: r for r in res.rows if r["kind"] == kind}


def test_a_kernel_family_named_by_a_word_of_its_names(asker):
    res = asker.ask("total time in nvjet kernels")
    assert res.intent == "trace_breakdown"
    got = by_rank(res, "stats")
    for rank in (0, 1):
        want = kernels(rank, lambda n: "nvjet" in n)
        assert got[rank]["calls"] == len(want)
        assert got[rank]["value"] == pytest.approx(sum(e["dur"] for e in want), abs=1e-3)
        assert f"rank {rank}: {ms(got[rank]['value'])} over {len(want):,} calls" in res.answer
    assert res.answer.startswith("Time in kernels matching 'nvjet'")


def test_two_words_of_one_name_and_a_family_without_its_name(asker):
    """"layer norm" is layer_norm inside the names; cuBLAS's GEMMs on Hopper are the nvjet_* kernels."""
    norm = by_rank(asker.ask("time spent in layer norm kernels"), "stats")
    assert norm[0]["calls"] == len(kernels(0, lambda n: "layernorm" in n)) > 0
    gemm = asker.ask("time in gemm kernels on each rank of the pytorch trace")
    assert by_rank(gemm, "stats")[1]["calls"] == len(kernels(1, lambda n: "nvjet" in n or "gemm" in n)) > 0
    assert "no kernel matches" not in gemm.answer


def test_names_said_apart_are_each_summed(asker):
    res = asker.ask("layernorm vs gelu backward time in the h200 profile")
    parts = [r for r in res.rows if r["kind"] == "part"]
    assert [r["name"] for r in parts if r["rank"] == 0] == ["layernorm", "gelubackward"]
    gelu = next(r for r in parts if r["rank"] == 1 and r["name"] == "gelubackward")
    assert gelu["value"] == pytest.approx(sum(e["dur"] for e in kernels(1, lambda n: "gelubackward" in n)), abs=1e-3)


def test_an_event_name_alone_makes_a_trace_question(asker):
    """No trace word and no system: the name of kernels in the loaded traces says where to look."""
    res = asker.ask("how much time is spent in GammaBetaBackward")
    assert res.intent == "trace_breakdown" and any(n.startswith("read as a trace question") for n in res.notes)
    assert by_rank(res, "stats")[0]["calls"] == len(kernels(0, lambda n: "gammabetabackward" in n)) > 0
    one = asker.ask("how long does ncclDevKernel_AllReduce take in total on rank 1?")
    assert one.intent == "trace_breakdown" and set(by_rank(one, "stats")) == {1}
    # a word the vocabulary knows is not a trace name, though kernels contain it ("AllReduce" as the ASR writes it)
    assert asker.ask("what is the peak AllReduce bus bandwidth on the H200s").intent == "metric_lookup"


def test_a_category_said_in_words(asker):
    res = asker.ask("memset time rank 0")
    got = by_rank(res, "stats")
    want = kernels(0, cat="gpu_memset")
    assert res.intent == "trace_breakdown" and set(got) == {0} and got[0]["calls"] == len(want)
    ops = asker.ask("top 10 cpu ops in the trace")
    tops = [r for r in ops.rows if r["kind"] == "top"]
    assert len(tops) == 10 and all(r["category"] == "cpu_op" for r in tops)
    assert ops.answer.startswith("Top 10 ops by total time")
    assert asker.ask("top ops on rank1 by cpu time").intent == "trace_breakdown"   # "rank1" is no system


def test_counts_time_per_call_and_most_called(asker):
    count = asker.ask("How many kernels were launched in total on each rank?")
    assert f"rank 0: {len(kernels(0)):,}" in count.answer      # every kernel, not only cudaLaunchKernel's
    med = asker.ask("what's the median kernel duration in the h200 trace")
    for rank in (0, 1):
        assert by_rank(med, "stats")[rank]["median_us"] == pytest.approx(
            statistics.median(e["dur"] for e in kernels(rank)), abs=1e-3)
    often = asker.ask("which kernel is called most often in the trace?")
    tops = [r for r in often.rows if r["kind"] == "top"]
    assert [r["calls"] for r in tops] == sorted((r["calls"] for r in tops), reverse=True)
    assert "by number of calls" in often.answer


def test_kernel_time_per_stream(asker):
    res = asker.ask("Per-stream breakdown please: how much kernel time is on stream 7 vs stream 17?")
    got = {(r["rank"], r["stream"]): r["value"] for r in res.rows if r["kind"] == "stream"}
    for rank in (0, 1):
        for stream in (7, 17):
            want = sum(e["dur"] for e in kernels(rank) if e.get("args", {}).get("stream") == stream)
            assert got[(rank, stream)] == pytest.approx(want, abs=1e-3)
    assert res.answer.startswith("Kernel time per stream")


def test_exposed_communication_and_how_busy(asker):
    res = asker.ask("exposed communication rank 1 long trace")
    comm = next(r for r in res.rows if r["kind"] == "breakdown" and r["category"] == "communication")
    assert comm["rank"] == 1 and "long" in comm["trace_set"]
    assert res.answer.startswith(f"Exposed communication (NCCL kernels with no compute kernel beside them): rank 1: "
                                 f"{ms(comm['value'])}")
    busy = asker.ask("How busy is the GPU on rank 0? I'd like the utilisation as a percentage.")
    assert busy.intent == "trace_breakdown" and " is busy " in busy.answer
    assert not any("matching" in n for n in busy.notes)     # "I'd like" names no aten::empty_like


def test_how_long_is_the_trace_is_not_the_long_trace(asker):
    res = asker.ask("how long is the trace window of the h200 profile")
    assert {r["trace_set"] for r in res.rows if r["kind"] == "breakdown"} == {"datasets/raw/h200x2/pytorch_trace"}


@pytest.mark.parametrize("question", ["peak GPU memory allocated during the h200 trace",
                                      "What's the achieved occupancy of the top compute kernel in the trace?"])
def test_what_a_trace_holds_no_record_of_is_refused(asker, question):
    res = asker.ask(question)
    assert res.intent == "out_of_scope" and "hold no memory allocations, occupancy" in res.answer


def test_a_word_must_be_a_word_of_a_name(asker):
    """"names" is no word of "(anonymous namespace)", "add" is one of CUDAFunctor_add."""
    res = asker.ask("How many distinct kernel names appear in the short trace?")
    assert not any("matching" in n for n in res.notes)
    assert f"rank 0: {len(kernels(0)):,} ({len({e['name'] for e in kernels(0)})} distinct names)" in res.answer
    add = by_rank(asker.ask("average time of the add kernels on rank 0"), "stats")
    want = kernels(0, lambda n: n.endswith("add") or "functoradd" in n)
    assert add[0]["calls"] == len([e for e in kernels(0) if "CUDAFunctor_add" in e["name"]]) == len(want)


def test_share_of_kernel_time_and_per_gpu_words(asker):
    res = asker.ask("what fraction of GPU 1's kernel time is NCCL")
    got = by_rank(res, "stats")
    nccl = sum(e["dur"] for e in kernels(1, lambda n: n.startswith("nccl")))
    assert set(got) == {1} and f"{100 * nccl / sum(e['dur'] for e in kernels(1)):.1f}% of all kernel time" \
        in res.answer


def test_a_stream_a_mean_ranking_and_the_total(asker):
    assert asker.ask("What runs on stream 17?").answer.startswith("Kernel time per stream: rank 0: stream 17 ")
    slow = asker.ask("Which kernel is the slowest on average in the trace?")
    tops = [r for r in slow.rows if r["kind"] == "top"]
    assert [r["mean_us"] for r in tops] == sorted((r["mean_us"] for r in tops), reverse=True)
    total = by_rank(asker.ask("total time of all GPU kernels on rank 1"), "stats")
    assert total[1]["value"] == pytest.approx(sum(e["dur"] for e in kernels(1)), abs=1e-3)


def test_an_annotation_named_by_its_words(asker):
    res = asker.ask("time per optimizer step on rank 1")
    got = by_rank(res, "stats")
    want = [e for e in events(1) if e.get("cat") == "user_annotation" and e["name"].startswith("Optimizer.step")]
    assert set(got) == {1} and got[1]["calls"] == len(want)


@pytest.mark.parametrize("question", ["What's the L2 cache hit rate of the flash attention kernels?",
                                      "How many tokens per second does the training reach in the trace?"])
def test_counters_and_throughput_are_not_traced(asker, question):
    assert asker.ask(question).intent == "out_of_scope"


def test_a_runs_length_is_no_message_size(asker):
    """"in the 40-step trace": the number says how long the run was; read as a 40-byte size it had ruled the trace
    question out."""
    res = asker.ask("How much of the GPU kernel time on rank 1 goes to NCCL in the 40-step trace?")
    assert res.intent == "trace_breakdown" and "msg_bytes" not in res.slots and "NCCL" in res.answer
