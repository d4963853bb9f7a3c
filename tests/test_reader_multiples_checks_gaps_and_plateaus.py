"""Ways of asking that the reader once read wrong (session 64, from the fifty-seventh set's misses, each tested with
other words): a size or count said as a multiple ("at twice 256 MiB", "on double 2 GPUs", "3 times 128 MiB"); a
request to check again ("please double check ...": no double precision); "the gap between A and B" the comparison,
"fall short of the NVLink2 rate" and "the gap between ... and the rate" the link's efficiency; "as the g p u count
grows" spoken; "stay low under load" the congestion experiment; "already flat at 2 gpus" the curve over counts; "raise
the memory traffic" the stored traffic increase; what a machine costs new refused. Real model, real built
database."""
from conftest import stored_values as _values

from nlu.framing import without_check_request
from nlu.written_forms import multiplied_quantities

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_a_multiple_of_a_size_or_count(asker, built_con):
    res = asker.ask("What in-place all-reduce busbw does the H200 pair reach at twice 256 MiB on 2 GPUs?")
    assert res.slots.get("msg_bytes") == 536870912, res.slots
    want = _values(built_con, _ROWS + "m.operation = ? AND m.metric = ? AND m.msg_bytes = ? AND m.condition = ?",
                   ["h200x2", "allreduce", "busbw", 536870912, "in_place"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("what gtx nine eighty scope pageable d two h bandwidth is reached at four times sixty four "
                    "megabytes")
    assert res.slots.get("msg_bytes") == 268435456, res.slots
    number = asker.nlu.norm.number
    for said in ("double precision flops", "twice as fast as 4 GPUs", "please double check it"):
        assert multiplied_quantities(said.split(), number) == said.split(), said


def test_a_request_to_check_again(asker):
    res = asker.ask("please double check how the yme scope all-reduce bandwidth on 4 gpus grows with message size")
    assert res.intent == "size_sweep" and "precision" not in res.slots, (res.intent, res.slots)
    q, asked = without_check_request("can you verify what the DGX-2 FP64 MaxFlops on GPU0 is".split())
    assert q[0] == "what" and asked == ["can", "you", "verify"], (q, asked)


def test_gaps_between_machines_and_to_a_rate(asker):
    res = asker.ask("What is the difference between Mini Summit and Yme in FP32 MaxFlops on GPU1?")
    assert res.intent == "compare_systems", (res.intent, res.slots)
    res = asker.ask("Does the DGX-2's Tartan NVLink-mode bandwidth from GPU2 to GPU3 fall short of the NVLink2 rate?")
    assert res.intent == "link_efficiency", (res.intent, res.slots)


def test_counts_said_and_curves_that_flatten(asker):
    res = asker.ask("what gap opens between horovod and tarantella training time on gemini as the g p u count grows")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)
    res = asker.ask("dgx2 md5hash throughput already flat at 4 gpus")
    assert res.intent == "scaling", (res.intent, res.slots)
    res = asker.ask("does the bandwidth from ipu5 to ipu4 stay high under load")
    assert res.intent == "congestion", (res.intent, res.slots)


def test_raised_traffic_and_a_price(asker, built_con):
    res = asker.ask("by how much does prefetching raise the memory traffic of vector multiply on the MAPredict BW "
                    "machine")
    assert res.slots.get("metric") == "traffic_increase", res.slots
    want = _values(built_con, _ROWS + "m.metric = ?", ["mapredict_bw", "traffic_increase"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    assert asker.ask("what would a Titan RTX desktop cost new").intent == "out_of_scope"
