"""Ways of asking that the reader once read wrong (session 67, from the sixty-fifth set's misses, each tested with
other words): a precision named by its width in bits ("64-bit MaxFlops", spoken "thirty two bit max flops") read as
FP64 / FP32, not a 64-byte size; a dependence said "as a function of" the GPU pair, the GPU count or the message size
read as the grid, the curve or the sweep; two machines as the subject of one measurement compared; "into host 64 mib"
no host numbered 64; "bfs teps" BFS's edge rate; noise, power cords, thermal pads, airlines and GitHub stars refused;
a transcript refused with a pause written as a comma read without it; "latency good" (grid) and "BFS tips" (TEPS)
as the speech model writes them. Real model, real built database."""
from nlu.tokens import tokenize
from nlu.written_forms import bit_widths, host_before_size


def _words(text: str) -> list[str]:
    return [t.text for t in tokenize(text)]


def test_a_width_in_bits_is_a_precision():
    assert " ".join(bit_widths(_words("what 32-bit maxflops"))) == "what FP32 maxflops"
    assert " ".join(bit_widths(_words("sixty four bit max flops"))) == "FP64 max flops"
    for text in ("a 64-bit address space", "32 bit integers"):
        assert bit_widths(_words(text)) == _words(text), text


def test_the_host_end_before_a_size_is_no_numbered_host():
    assert " ".join(host_before_size(_words("gpu2 into host 64 mib"))) == "gpu2 into host at 64 mib"
    assert host_before_size(_words("host 2 cpu")) == _words("host 2 cpu")


def test_precisions_by_width_are_looked_up(asker):
    res = asker.ask("What 64-bit MaxFlops does GPU1 of Mini Summit give?")
    assert res.intent == "metric_lookup" and res.slots.get("precision") == "fp64", (res.intent, res.slots)
    assert not res.slots.get("msg_bytes") and res.rows, (res.slots, res.answer)
    res = asker.ask("what thirty two bit max flops does g p u one of the d g x two give")
    assert res.slots.get("precision") == "fp32" and not res.slots.get("msg_bytes"), res.slots


def test_as_a_function_of_names_the_axis(asker):
    res = asker.ask("What Tartan P2P-disabled bandwidth does Yme give as a function of the GPU pair?")
    assert res.intent == "pair_matrix", (res.intent, res.slots)
    res = asker.ask("mini summit fp64 maxflops as a function of gpu count")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)
    res = asker.ask("h200 out of place all-gather busbw on 2 gpus as a function of message size")
    assert res.intent == "size_sweep" and res.rows, (res.intent, res.answer)


def test_two_machines_as_one_subject_are_compared(asker):
    res = asker.ask("What time do Yme and Mini Summit spend on a DeepBench single-process all-reduce of 400000 bytes "
                    "on 2 GPUs?")
    assert res.intent == "compare_systems", (res.intent, res.slots)
    res = asker.ask("what latency do the dgx2 and yme show for scope pageable copies from gpu0 to the host at 1 mib")
    assert res.intent == "compare_systems" and res.rows, (res.intent, res.answer)


def test_a_copy_into_the_host_with_its_size(asker):
    res = asker.ask("yme scope pinned bandwidth out of gpu1 into host 1 gib")
    assert (res.slots.get("dst"), res.slots.get("msg_bytes")) == ("host", 2 ** 30), res.slots
    assert res.rows, res.answer


def test_bfs_teps_is_the_edge_rate(asker):
    res = asker.ask("dgx2 shoc bfs teps on gpu5")
    assert (res.slots.get("operation"), res.slots.get("metric")) == ("bfs_teps", "throughput"), res.slots


def test_noise_cords_paste_airlines_and_stars_are_refused(asker):
    for text in ("how much noise does the DGX-2 make under load",
                 "which power cord does the GTX 980 desktop take",
                 "what thermal pads sit on Yme's GPUs",
                 "which airline flew the IPU boards in",
                 "how many github stars does nccl-tests have"):
        res = asker.ask(text)
        assert res.intent == "out_of_scope", (text, res.intent, res.answer)


def test_a_pause_heard_as_a_comma_is_read_past_where_it_cuts_the_question(asker):
    from asr.transcribe import Transcript
    heard = Transcript(text="what does the database hold, for longhorn", audio_s=2.0,
                       raw_text="what does the database hold, for longhorn")
    res = asker.ask_transcript(heard)
    assert res.intent == "list_data" and res.slots.get("system") == "longhorn", (res.intent, res.answer)
    assert any("commas" in n for n in res.notes), res.notes
    # a refusal without the comma too stays the heard text's
    weather = Transcript(text="how is the weather, in trondheim", audio_s=2.0, raw_text="how is the weather, in trondheim")
    r = asker.ask_transcript(weather)
    assert r.intent == "out_of_scope" and r.transcript == weather.text


def test_a_grid_and_teps_as_the_speech_model_writes_them(asker):
    res = asker.ask("what Titan PCIe mode latency good does Yme give")
    assert res.intent == "pair_matrix", (res.intent, res.slots)
    res = asker.ask("Mini Summit shock BFS tips on GPU 1")
    assert res.slots.get("operation") == "bfs_teps", res.slots
