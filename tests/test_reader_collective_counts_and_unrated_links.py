"""Ways of asking that the reader once read wrong (session 63, from the fiftieth set's misses, each tested with
other words): a count said as a collective noun ("on a pair of GPUs", "up to a dozen", "half a dozen", "a dozne"
typed) while "between a pair of GPUs" stays a pair, and a range's ends with a pause between them ("from one, to 8
GPUs"); a discount refused as a price, and GPU generations nothing here measured (Blackwell, Rubin); "what percent
higher is A's X than B's" with a possessive in between the comparison of two machines; a link's rate asked where
no source states it ("what bandwidth does an X-Bus link of Yme carry") refused, and where one does (IPU-Link)
answered from the graph, not from the machine's top measurement; "all-reduce" never read as the other collective
"reduce". Real model, real built database."""
from conftest import stored_values as _values

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_a_pair_of_gpus_that_ran_something_is_a_count(asker, built_con):
    res = asker.ask("What Stencil2D fp64 gflops does Yme reach on a pair of GPUs?")
    assert res.intent == "metric_lookup" and res.slots.get("count") == 2, (res.intent, res.slots)
    want = _values(built_con, _ROWS + "m.app = ? AND m.precision = ? AND m.count = ?",
                   ["ac922_yme", "Stencil2D", "fp64", 2])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_between_a_pair_of_gpus_stays_a_pair(asker):
    res = asker.ask("what latency is there between a pair of GPUs on yme")
    assert res.slots.get("operation") == "p2p" and "count" not in res.slots, (res.intent, res.slots)


def test_dozens_are_counts(asker):
    res = asker.ask("how does the DGX-2's MD5Hash throughput change from a pair of GPUs up to a dozen")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)
    assert asker.ask("dgx2 qtc time on half a dozen gpus").slots.get("count") == 6
    assert asker.ask("what qtc time does the dgx2 get on a dozne gpus").slots.get("count") == 12


def test_a_discount_and_unmeasured_generations_are_refused(asker):
    for q in ("how big a discount do universities get on an H200", "is blackwell nvlink faster than the dgx-2's"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_percent_higher_with_possessives_compares_two_machines(asker):
    res = asker.ask("what percent higher is Yme's FP64 MaxFlops on GPU1 than Mini Summit's on GPU1")
    assert res.intent == "compare_systems", (res.intent, res.slots)
    assert {res.slots.get("system"), *res.slots.get("compare_with", [])} == {"ac922_yme", "ac922_minisummit"}


def test_a_link_rate_no_source_states_is_refused(asker):
    res = asker.ask("what bandwidth does an X-Bus link of Yme carry")
    assert res.intent == "out_of_scope" and "X-Bus" in res.answer, (res.intent, res.answer)


def test_a_stated_link_rate_comes_from_the_graph(asker):
    res = asker.ask("what bandwidth does an IPU-Link carry on the IPU system")
    assert res.intent == "topology" and "GB/s" in res.answer, (res.intent, res.answer)


def test_all_reduce_is_not_read_as_reduce(asker):
    res = asker.ask("IPU system all-reduce latency on 1216 tiles")
    assert res.intent == "out_of_scope" and "reduce latency" not in res.answer.lower(), (res.intent, res.answer)


def test_a_pause_inside_a_count_range(asker):
    # the speech model writes a breath between a range's ends as a comma
    res = asker.ask("how does the GTX 980 desktop's MD5Hash throughput scale from one, to 8 GPUs")
    assert res.intent == "out_of_scope" and "8 GPUs" in res.answer, (res.intent, res.answer)
