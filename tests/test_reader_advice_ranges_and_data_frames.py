"""Ways of asking that the reader once read wrong (session 65, from the fifty-ninth set's misses, each tested with
other words): advice that the data informs ("should I enable P2P for ...", "should we give X more GPUs", "should I
pair GPU1 with GPU5 for a direct NVLink") answered from the data, not refused (tuning knobs nobody measured still are);
"how much does load slow ..." the congestion experiment's slowdown; a count with a lower end only ("from 4 GPUs
onward") the whole curve, no one count; "what does the data show for X" asks X (a machine alone: its inventory);
"fan sped"; how many users share a machine refused; "applications with congestion impact rows" the inventory; what
the speech model writes wrong ("AMD, 5 HASH", "XFlops", "gpu cones", "which matrix does Lassen have"). Real model,
real built database."""
from nlu.framing import without_data_says


def test_advice_the_data_informs(asker):
    res = asker.ask("Should I enable P2P for copies from GPU1 to GPU0 on the H200 pair?")
    assert res.intent == "metric_lookup" and res.rows, (res.intent, res.answer)
    res = asker.ask("Should I set NCCL_ALGO=Tree for all-reduce on the H200 node?")
    assert res.intent == "out_of_scope", (res.intent, res.slots)
    res = asker.ask("should we give resnet218v2 more gpus on lassen")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)
    res = asker.ask("should i pair gpu1 with gpu5 on the dgx1 v100 for a direct nvlink")
    assert res.intent == "topology" and (res.slots.get("src"), res.slots.get("dst")) == ("gpu1", "gpu5"), res.slots


def test_load_that_slows_a_pair(asker):
    res = asker.ask("How much does load slow P2P traffic from IPU5 to IPU6?")
    assert res.intent == "congestion" and res.slots.get("metric") == "slowdown", (res.intent, res.slots)
    res = asker.ask("How much does background traffic slow the IPU system's point-to-point bandwidth at 1216 tiles?")
    assert res.slots.get("metric") == "bandwidth", res.slots      # the measure said stays


def test_a_count_with_a_lower_end_only(asker):
    res = asker.ask("How do the FFT DP flops of the DGX-2 change from 4 GPUs onward?")
    assert res.intent == "scaling" and "count" not in res.slots, (res.intent, res.slots)
    res = asker.ask("yme deepbench single-process allreduce time 258000000 bytes from 1 gpu upward")
    assert res.intent == "scaling" and res.slots.get("msg_bytes") == 258000000, (res.intent, res.slots)


def test_the_data_as_the_one_who_says(asker, built_con):
    res = asker.ask("what do the numbers say about the dgx2 fp32 maxflops on gpu0")
    assert res.intent == "metric_lookup" and res.rows, (res.intent, res.answer)
    (want,) = built_con.execute(
        "SELECT max(m.value) FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "
        "m.operation = ? AND m.src = ?", ["dgx2", "maxspflops", "gpu0"]).fetchone()
    assert abs(res.rows[0]["value"] - want) < 1.0, (res.rows[0], want)
    res = asker.ask("what does the data show for yme")
    assert res.intent == "list_data" and res.slots.get("system") == "ac922_yme", (res.intent, res.slots)
    res = asker.ask("what does the data say about the titan rtx desktop's electricity bill")
    assert res.intent == "out_of_scope", (res.intent, res.slots)

    def cands(ws):
        return [(i, i + 1, {"system": "ipu16"}) for i, w in enumerate(ws) if w == "ipu16"]
    asked, frame = without_data_says("what does the data show for the ipu16".split(), cands)
    assert asked == ["what", "is", "stored", "for", "the", "ipu16"] and frame[-1] == "for", (asked, frame)


def test_fan_sped_users_and_rows(asker):
    res = asker.ask("gtx980 fan sped")
    assert res.slots.get("metric") == "fan_speed", res.slots
    res = asker.ask("how many users share the dgx2")
    assert res.intent == "out_of_scope", (res.intent, res.slots)
    res = asker.ask("azure applications with congestion impact rows")
    assert res.intent == "list_data" and "lammps" in res.answer.lower(), (res.intent, res.answer)


def test_more_words_the_speech_model_writes_wrong(asker):
    res = asker.ask("mini summit AMD, 5 HASH throughput gpu 0")
    assert res.slots.get("operation") == "md5hash", res.slots
    res = asker.ask("Mini Summit XFlops FP32 gpu 1")
    assert res.slots.get("operation") == "maxspflops", res.slots
    res = asker.ask("dgx2 fft dp flops across gpu cones")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)
    res = asker.ask("which matrix does lassen have")
    assert res.intent == "list_data" and res.slots.get("system") == "lassen", (res.intent, res.slots)
