"""Ways of asking that the reader once read wrong (session 61, from the forty-second set's misses, each tested with
other words): "remind me, ..." before a question is the asker's memory, not a reminder to set; "the Hey CAI clients"
(uncounted) and "the three hey cai client machines" are the machines so called; a run to start and a driver's
download page are refused; links counted ("number of nvlinks between the gpus") are the graph's; an unknown model
set "as fast as" a known machine is refused; "still rising at 16 gpus" is the curve over counts and "still grow past
1 GiB" the curve over sizes from there; a GPU "copying within itself" is the device-to-device copy; "size with the
highest bw" is the highest over every size; "of" in "g p u one of mini summit" no second machine; "3 significant
figures" no count of GPUs; "the single process deep bench test" DeepBench's single-process all-reduce;
"as high as it gets" the highest value; and the scorer reads 304 MiB as 318767104 bytes. Real model, real built
database."""
from types import SimpleNamespace

from conftest import stored_values as _values
from nlu.evaluate import answer_matches


def test_remind_me_before_a_question(asker):
    res = asker.ask("Remind me, which machines have NVSwitches in the data?")
    assert res.intent == "list_data", (res.intent, res.slots)
    res = asker.ask("remind me how the broadcast bus bandwidth grows with message size on the h200 pair")
    assert res.intent == "size_sweep" and res.slots.get("system") == "h200x2", (res.intent, res.slots)
    res = asker.ask("remind me to rerun scope on yme next week")
    assert res.intent == "out_of_scope", (res.intent, res.slots)


def test_machines_named_by_what_they_share(asker):
    clients = {"heycai_client1", "heycai_client2", "heycai_client3"}
    res = asker.ask("How do the Hey CAI clients stack up on speech-query latency?")
    assert res.intent == "compare_systems", (res.intent, res.slots)
    assert {res.slots.get("system"), *res.slots.get("compare_with", [])} == clients, res.slots
    res = asker.ask("set the text query latency of the three hey cai client machines side by side")
    assert {res.slots.get("system"), *res.slots.get("compare_with", [])} == clients, (res.intent, res.slots)


def test_a_run_to_start_and_a_download_page_are_refused(asker):
    for q in ("Kick off a fresh DeepBench run on the DGX-2.", "titan rtx driver download page"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_links_counted_are_the_graph(asker):
    res = asker.ask("dgx1 v100: number of nvlinks between the gpus")
    assert res.intent == "topology" and res.slots.get("system") == "dgx1_v100", (res.intent, res.slots)


def test_an_unknown_model_set_as_fast_as_a_known_machine(asker):
    res = asker.ask("mi300x pair all-gather as fast as h200 pair?")
    assert res.intent == "out_of_scope" and "no data" in res.answer, (res.intent, res.answer)


def test_still_rising_is_a_curve(asker):
    res = asker.ask("yme stencil2d gflops still climbing at 4 gpus?")
    assert res.intent == "scaling" and "count" not in res.slots, (res.intent, res.slots)
    res = asker.ask("Does the H200 pair's out-of-place all-gather bus bandwidth still grow past 256 MiB on 2 GPUs?")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [268435456, None], (res.intent, res.slots)


def test_a_copy_within_itself(asker):
    res = asker.ask("what bandwidth does gpu0 of the h200 pair reach copying within itself, one direction, p2p off")
    assert res.slots.get("operation") == "d2d" and res.slots.get("src") == res.slots.get("dst") == "gpu0", res.slots


def test_the_size_with_the_highest_value(asker, built_con):
    res = asker.ask("yme pageable h2d into gpu1: size with the highest bandwidth")
    assert res.intent == "metric_lookup" and res.slots.get("aggregate") == "max", (res.intent, res.slots)
    best = max(_values(built_con, "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE "
                       "r.system_id = ? AND m.metric = ? AND m.operation = ? AND m.condition = ? AND m.dst = ?",
                       ["ac922_yme", "bandwidth", "h2d", "pageable", "gpu1"]))
    assert res.rows and res.rows[0]["value"] == best, res.answer


def test_of_before_a_machine_is_no_machine(asker):
    res = asker.ask("what fp64 flops does g p u one of mini summit reach")
    assert res.slots.get("system") == "ac922_minisummit" and not res.slots.get("compare_with"), res.slots


def test_digits_to_print_are_no_count(asker):
    for q in ("dgx2 fp32 maxflops gpu8, 4 significant figures", "yme fp64 maxflops gpu2 to 3 significant figures"):
        res = asker.ask(q)
        assert res.intent == "metric_lookup" and not {"count", "msg_bytes"} & res.slots.keys(), (q, res.slots)


def test_deepbench_named_by_its_processes(asker):
    res = asker.ask("how does the all reduce time change with size on the gtx 980 in the single process deep bench "
                    "test")
    assert res.slots.get("app") == "nccl_single_all_reduce", res.slots


def test_as_high_as_it_gets(asker):
    res = asker.ask("what is the h200 pair's out of place all gather bus bandwidth on two gpus when it is as high as "
                    "it gets")
    assert res.intent == "metric_lookup" and res.slots.get("aggregate") == "max", (res.intent, res.slots)


def test_the_scorer_reads_a_size_in_another_unit():
    res = SimpleNamespace(rows=[{"value": 304.0, "unit": "MiB"}])
    assert answer_matches(res, {"value": 318767104.0, "unit": "bytes"})
    assert not answer_matches(res, {"value": 304000000.0, "unit": "bytes"})
    assert not answer_matches(SimpleNamespace(rows=[{"value": 304.0, "unit": "GB/s"}]),
                              {"value": 318767104.0, "unit": "bytes"})
