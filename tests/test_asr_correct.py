"""The transcript corrector (asr/correct.py) over the real vocabulary and database catalog, and the speech model
with it on the committed clips. The near-misses below are transcripts the fine-tuned model wrote for generated
questions (asr/correct_dev.py), not evaluation sentences."""
import json
from pathlib import Path

import pytest

from asr import metrics
from asr.correct import Corrector, phrase_key, said_tokens, word_key, written_shorthand

AUDIO = Path(__file__).parent / "fixtures" / "audio"
CLIPS = json.loads((AUDIO / "clips.json").read_text())


@pytest.fixture(scope="module")
def vocab(built_db):
    from nlu.vocab import catalog_from_db, load_vocabulary
    return load_vocabulary(catalog=catalog_from_db(built_db))


@pytest.fixture(scope="module")
def corrector(vocab):
    return Corrector(vocab)


@pytest.mark.parametrize("heard, want", [
    ("show the envy link bandwidth on the b g x one", "d g x one"),            # one spelled letter misheard
    ("what can i ask about zilinx u to eighty", "xilinx u two eighty"),         # spelling + "to" for "two"
    ("which one is faster at the x two hundred x two", "h two hundred x two"),
    ("could you show me dgx 2 high upcelerator fourteen dev seven path", "accelerator fourteen"),
    ("parallel efficiency for grid five thousand givini", "gemini"),
    ("ac 922 mini summit for megapot single uni directional", "megabyte"),
    ("hbclab twelve scale up p two p packet congestion impact", "hpclab twelve"),
    ("on the titan r t x box with p two b enabled", "p two p"),
])
def test_near_misses_become_vocabulary(corrector, heard, want):
    got = corrector.correct(heard)
    assert want in got.text and want not in heard, got
    assert got.raw == heard and got.changes and all(c.distance <= corrector.threshold for c in got.changes)
    # everything around the change is left as heard
    c = got.changes[0]
    assert got.text.split()[: c.start] == heard.split()[: c.start]


@pytest.mark.parametrize("text", [
    "what is the temperature in the server room",                # ordinary English
    "show me the heist bandwidth on the root",                   # English words that sound like terms stay
    "what s the latency of the h two hundred node",               # the "s" of "what's" is no spelled letter
    "i b m power system ac nine twenty two mini summit",          # spelled vocabulary
    "how many hops between core zero and core sixty three on the x m p sixty four",
    "d g x one with p one hundred gpus all reduce bus bandwidth",
    "Show the NVLink bandwidth between GPU 0 and GPU 3 on the DGX-1 V100?",   # typed style, punctuation
    "slowdown of XS Bench offloaded over GRPC on Google Cloud",  # "offloaded": a prefix and English, not "unloaded"
    "",
])
def test_ordinary_words_and_vocabulary_are_left_alone(corrector, text):
    got = corrector.correct(text)
    assert got.text == text and not got.changes


def test_an_odd_word_that_sounds_like_a_question_word_is_not_made_a_term(corrector):
    # "Compoor" sounds like "compare" (a word questions are made of) before "compute" (an operation): a
    # misspelt question word, which the reader reads as it can, not a term the speaker never said
    got = corrector.correct("Compoor congestion free and under load bandwidth")
    assert got.text == "Compoor congestion free and under load bandwidth" and not got.changes
    # a term still wins where no question word sounds as close
    assert corrector.correct("givini bandwidth").text == "gemini bandwidth"


def test_an_english_word_the_decoder_was_unsure_of_may_change(corrector):
    heard = "does traffic from c p u zero go over p c i x question three please"
    sure = [0.99] * len(heard.split())
    unsure = [0.3 if w == "question" else 0.99 for w in heard.split()]
    assert corrector.correct(heard).text == heard                  # "question" is English: kept
    assert corrector.correct(heard, sure).text == heard
    assert "p c i express gen three" in corrector.correct(heard, unsure).text
    # an unsure English word still only becomes jargon, never another English word
    assert corrector.correct("running at full speed", [0.99, 0.99, 0.1, 0.99]).text == "running at full speed"


def test_every_vocabulary_surface_survives_unchanged(corrector, vocab):
    from asr.correct import _surfaces
    changed = [s for _, s in _surfaces(vocab) if corrector.correct(s).text != s]
    assert not changed, changed[:10]


def test_words_taught_with_retrain_vocab_become_targets(tmp_path, vocab, built_db):
    from nlu.vocab import catalog_from_db, load_vocabulary
    heard = "show the bandwidth on the zyfora cluster"
    assert Corrector(vocab).correct(heard).text == heard
    new = tmp_path / "NEW.yaml"
    new.write_text("system:\n  zyphora: [Zyphora cluster]\n")
    taught = Corrector(load_vocabulary(new, catalog=catalog_from_db(built_db)))
    assert taught.correct(heard).text == "show the bandwidth on the zyphora cluster"


def test_a_pause_comma_inside_a_name_is_dropped(corrector):
    # the decoder writes a comma where a voice pauses, also inside "Xeon 8280": the reader then sees two things
    got = corrector.correct("SU3 bench BW Xeon, 8280, 32 vs 56 cores?")
    assert got.text == "SU3 bench BW Xeon 8280, 32 vs 56 cores?" and got.raw == "SU3 bench BW Xeon, 8280, 32 vs 56 cores?"
    assert corrector.correct("On the DGX-1, P100 what is the h2d bandwidth").text.startswith("On the DGX-1 P100 what")
    # commas between names stay
    for text in ["compare host to device bandwidth on the DGX-2, Yme and Mini Summit", "GPU 0, GPU 1 bandwidth",
                 "Lassen, bandwidth between each pair of V100s in a node."]:
        assert corrector.correct(text).text == text


@pytest.mark.parametrize("heard, want", [
    ("what is the peak broadcast bus bandwidth, and the dual H200", "bandwidth, on the dual H200"),
    ("what's the single hop latency, and XMOS XMP64", "latency, on XMOS XMP64"),
    ("compare peer-to-peer bandwidth, and the DGX-1 P100 and the DGX-1 V100.", "bandwidth, on the DGX-1 P100 and"),
])
def test_on_heard_as_and_before_the_only_system_is_on(corrector, heard, want):
    """Festival's voices, never trained on, say "on the" after a pause so the model writes ", and the"."""
    assert want in corrector.correct(heard).text


@pytest.mark.parametrize("text", ["compare the DGX-2, and the Yme", "bandwidth, and latency on the dgx2",
                                  "allreduce on the DGX-2 and the H200 pair"])
def test_an_and_that_joins_two_things_stays(corrector, text):
    assert corrector.on_not_and(text) == text


@pytest.mark.parametrize("heard, want", [
    ("dgx2 allreduce time w-slash nccl", "dgx2 allreduce time w/ nccl"),
    ("latency from ipu 2 to ipu 3 w slash o load", "latency from ipu 2 to ipu 3 w/o load"),
    ("the comm slash compute split in the trace", "the comm/compute split in the trace"),
    ("GPU3 greater than GPU 5 bw on the dgx2", "GPU3 -> GPU 5 bw on the dgx2"),
    ("tile 4, greater than tile 9 latency", "tile 4 -> tile 9 latency"),
    ("exceeds 100 GB-s bus bandwidth", "exceeds 100 GB/s bus bandwidth"),
    ("which links reach 25GB-s", "which links reach 25GB/s"),
    ("list matrix IPU-16", "list metrics IPU-16"),                    # "metrics" heard as the grid word
    ("DGX-1 P100 available matrix.", "DGX-1 P100 available metrics."),
])
def test_typed_shorthand_read_aloud_is_written_as_typed(corrector, heard, want):
    """Voices read a keyword query's "w/o" as "w slash o" and festival reads "->" as "greater than"."""
    assert written_shorthand(heard) == want
    assert corrector.correct(heard).text == want and corrector.correct(heard).raw == heard


@pytest.mark.parametrize("heard, want", [
    ("Yme Pu2 greater than Pu3 bw", "Yme GPU2 -> GPU3 bw"),            # "gpu2->gpu3" read as words, the arrow too
    ("heid po1 temp", "heid GPU1 temp"),
    ("bandwidth from JPO 3 to JPO 0 on the dgx2", "bandwidth from GPU3 to GPU0 on the dgx2"),
    ("allreduce time vs kpu count", "allreduce time vs GPU count"),
    ("host to EPOC2 latency", "host to IPU2 latency"),
    ("gather bandwidth on the EPO", "gather bandwidth on the IPU"),
    ("latency from ipo 3 to ipo 6 under load", "latency from IPU3 to IPU6 under load"),   # session 48
    ("broadcast time on one ipo", "broadcast time on one IPU"),
])
def test_a_device_name_read_as_a_word_is_the_device(corrector, heard, want):
    """Lower-case "gpu1" and "ipu" in a typed question are read by voices as words ("gpoo one"), which the model
    hears as no word at all."""
    assert written_shorthand(heard) == want
    assert corrector.correct(heard).text == want


@pytest.mark.parametrize("heard, want", [
    ("yme busbw8 GiB allgather", "yme busbw 8 GiB allgather"),          # a measure run into its number
    ("dgx2 allreduce lat32 KiB", "dgx2 allreduce lat 32 KiB"),
    ("h200 reduce algbw 4 MiBip", "h200 reduce algbw 4 MiB ip"),       # a unit run into the shorthand after it
    ("ipu broadcast time 8 B.64 K", "ipu broadcast time 8B..64K"),       # a range whose two dots became one
])
def test_a_keyword_query_run_together_is_split_as_typed(corrector, heard, want):
    """Voices read keyword queries without pauses, and the speech model writes "algbw 16MiB oop" as "algbw16
    MiBoop" and "32B..4G" as "32 B.4 G"."""
    assert written_shorthand(heard) == want


@pytest.mark.parametrize("heard, want", [
    ("how fast is the DGX-to at allgather", "how fast is the DGX-2 at allgather"),
    ("VA 100 reference gpu flops", "V100 reference gpu flops"),
    ("gpu3 to gpu5 bandwidth in key mode", "gpu3 to gpu5 bandwidth in PCIe mode"),
    ("reduce time 4G bus 8 MB", "reduce time 4 GPUs 8 MB"),
    ("dgx2 MD5-8 rate", "dgx2 MD5Hash rate"),
    ("top kernels, NVH200 pit torch trace", "top kernels, the H200 PyTorch trace"),
    ("XSB-NCH slowdown on thetagpu", "XSBench slowdown on thetagpu"),
    ("yme in link mode bw gpu1 to gpu2", "yme NVLink mode bw gpu1 to gpu2"),          # session 48
    ("measured on link bandwidth on the dgx-1", "measured NVLink bandwidth on the dgx-1"),
    ("copies over in link with p2p on", "copies over NVLink with p2p on"),
    ("toil 646 to toil 0 latency on cheap?", "tile646 to tile0 latency on chip?"),           # session 49
    ("dgx-2 vs an MI250 xbox for allreduce", "dgx-2 vs an MI250X box for allreduce"),
    ("stack up against an hgxH100", "stack up against an HGX H100"),
    ("which shock benchmark scales worst", "which SHOC benchmark scales worst"),
    ("every matrix stored for mapredict sk", "every metric stored for mapredict sk"),
    ("Heid GPU 6 GPU14 bidir NVLink BW32 Yme", "Heid GPU 6 GPU14 bidir NVLink BW 32M"),
    ("uni bw put 2 greater than poo 9 p2p on", "uni bw GPU2 -> GPU9 p2p on"),
    ("start an NSY S capture on the H200s", "start an nsys capture on the H200s"),
    ("matrix stored for the LLM memory simulation", "metrics stored for the LLM memory simulation"),
    ("the latency grid between all 8 IPS", "the latency grid between all 8 IPUs"),             # session 51
    ("what bus what does the H200 pair reach for alltoall", "what busbw does the H200 pair reach for alltoall"),
    ("h200 reduce scatter bus with 256 m in place", "h200 reduce scatter busbw 256 m in place"),
    ("does the broadcast bus drop on the dgx2", "does the broadcast busbw drop on the dgx2"),
    ("allreduce times from Deep Bench on the dgx2", "allreduce times from DeepBench on the dgx2"),
    ("how high is the in the link bandwidth on yme", "how high is the NVLink bandwidth on yme"),   # session 52
    ("dgx-1 v100 on the link utilization per pair", "dgx-1 v100 NVLink utilization per pair"),
    ("an eight map of the ipu latencies", "an heat map of the ipu latencies"),
    ("show the 8-map for pcie mode bandwidth", "show the heat map for pcie mode bandwidth"),
    ("latency between IPU, 2 and IPU, 3", "latency between IPU 2 and IPU 3"),
    ("How many what's does the Titan RTX pull at idle?", "How many watts does the Titan RTX pull at idle?"),  # s. 55
])
def test_terms_the_speech_model_writes_for_other_words_are_the_terms(heard, want):
    assert written_shorthand(heard) == want


@pytest.mark.parametrize("text", ["allreduce at 2G bus bandwidth", "the key to the dgx2", "peak bandwidth mode",
                                  "which systems have data in links", "log in link to the portal",
                                  "DGX to Yme comparison", "ampere 100 cores", "a torch-lit pit", "the NV link",
                                  "hours of toil", "is that cheap", "the shock of the new", "every matrix of pairs",
                                  "an xbox controller", "bandwidth of 2 Yme nodes", "put 2 more in the queue",
                                  "the bandwidth matrix stored for yme", "the IPS of 16 vendors",
                                  "shoc bus speed download on the gtx980", "allreduce bus bandwidth on the dgx2",
                                  "the power9 x bus between the sockets", "errors in the link layer",
                                  "which pairs are in the link graph", "8 maps of the site",
                                  "per GPU, 4 of them in all", "what's the power draw"])
def test_the_same_words_meant_as_written_stay(text):
    assert written_shorthand(text) == text


@pytest.mark.parametrize("heard, want", [
    ("mGPU1 -> GPU3 nvlink latency", "Yme GPU1 -> GPU3 nvlink latency"),
    ("mQTC kernel time on 4 GPUs", "Yme QTC kernel time on 4 GPUs"),
    ("MencclBroadcast time vs message size", "Yme ncclBroadcast time vs message size"),
    ("MeGPU2 -> GPU0 nvlink bandwidth", "Yme GPU2 -> GPU0 nvlink bandwidth"),
])
def test_a_short_name_heard_as_a_lone_m_opens_the_question(corrector, heard, want):
    """"yme gpu0->gpu2 ..." read out is often heard as "um GPU0 -> ..." or "mGPU0 -> ...": the "m" is the end of
    the name."""
    assert corrector.correct(heard).text == want


@pytest.mark.parametrize("text", ["mCubes speedup on the node", "m-Cubes node speedup", "mW per GPU",
                                  "the mGPU0 entry", "mRNA folding time", "Memory bandwidth of the DGX-2",
                                  "Message sizes on Yme", "Megatron time per step"])
def test_an_m_that_is_part_of_a_word_or_mid_sentence_stays(corrector, text):
    assert corrector.opening_name(text) == text


@pytest.mark.parametrize("text", ["h200x2 gpu0 to gpu1 bw", "1.5 GB copy time", "at 4 GB. What about 8 GB",
                                  "ac922 yme bandwidth", "bi-directional bandwidth of 16 GiB"])
def test_names_with_numbers_and_decimals_stay_together(text):
    assert written_shorthand(text) == text


@pytest.mark.parametrize("text", ["put the dgx2 next to yme", "pull the h200 trace", "epochs per second on the ipu",
                                  "the pool of gpus", "a PO for 4 GPUs", "epoch 3 time"])
def test_english_words_near_a_device_stay(text):
    assert written_shorthand(text) == text


@pytest.mark.parametrize("text", ["is the speedup greater than 2 on lassen", "latency greater than 5 us on gpu0",
                                  "which pairs are greater than 100 GB/s", "a slash in the path", "the slash command",
                                  "show the p2p matrix of the dgx-2", "latency matrix of the available gpus"])
def test_a_greater_than_or_slash_that_is_meant_stays(text):
    assert written_shorthand(text) == text


@pytest.mark.parametrize("text", ["exceeds 100 GB/s bus bandwidth", "what is 100 GB/s in the matrix",
                                  "exceeds 100 GBps", "12.5 GB/s, over PCIe", "peak 25 Gb/s per lane"])
def test_a_data_rate_is_a_unit_not_letters_to_respell(corrector, text):
    """"100 GB/s" had become the link type "100GbE" and "100 GBps" the benchmark "GUPS"."""
    got = corrector.correct(text)
    assert got.text == text and not got.changes


def test_spelled_letters_beside_a_data_rate_still_become_the_name(corrector):
    assert corrector.correct("b g x 1 at 16 MB/s").text == "dgx-1 at 16 MB/s"


def test_sound_keys():
    assert word_key("zilinx") == word_key("xilinx")               # same sound, different spelling
    assert phrase_key(["b", "g", "x"]) != phrase_key(["d", "g", "x"])
    assert phrase_key(["h", "200"]) == phrase_key(["h", "two", "hundred"])
    assert phrase_key(["ac", "922"]) == phrase_key(["ac", "nine", "twenty", "two"])
    assert said_tokens("NVLink") == ["n", "v", "link"] and said_tokens("GPUs") == ["g", "p", "u", "s"]
    assert said_tokens("DGX-2") == ["d", "g", "x", "2"] and said_tokens("Summit") == ["summit"]
    # tokens Whisper glues together ("1p", "8k") sound like their parts instead of failing
    assert word_key("1p") == phrase_key(["one", "p"]) and word_key("8k") == phrase_key(["8", "k"])


def test_deterministic(corrector):
    texts = ["show the envy link bandwidth on the b g x one at sixty four megabytes",
             "what can i ask about zilinx u to eighty thanks",
             "um compare all the hidden all r n l summit v on e five two thousand six hundred and thirty",
             "i was wondering all to all size for the different message sizes on l l l lassen using sixty four g p u s",
             "hey report the heist g p u to c p u training time measured on geforce gtx nine eighty desktop"] * 10
    first = [corrector.correct(t).text for t in texts]
    assert [corrector.correct(t).text for t in texts] == first


# ------------------------------------------------------------------------------------- with the speech model

@pytest.fixture(scope="module")
def tuned():
    from asr import build
    from asr.transcribe import Transcriber
    assert build.present(), "no fine-tuned speech model: run `make setup` (or `hpcask retrain --asr`)"
    return Transcriber("finetuned")


@pytest.mark.parametrize("clip", CLIPS, ids=[c["file"] for c in CLIPS])
def test_committed_clips_still_transcribe_to_their_text(tuned, clip):
    t = tuned.transcribe(AUDIO / clip["file"])
    assert tuned.corrector is not None and t.raw_text
    assert metrics.wer([(clip["expect"], t.text)]) <= metrics.wer([(clip["expect"], t.raw_text)])
    assert metrics.wer([(clip["expect"], t.text)]) <= 0.15, t.text
    want, got = metrics.terms_in(clip["expect"]), metrics.terms_in(t.text)
    assert sum(max(0, c - got[w]) for w, c in want.items()) <= 1, t.text   # one term may be misheard
    assert 0 <= t.timings_ms["correct"] < t.timings_ms["total"]
    assert (t.text == t.raw_text) == (not t.corrections)


@pytest.fixture(scope="module")
def tuned_greedy():
    from asr.transcribe import Transcriber
    return Transcriber("finetuned", beam_size=1)


def test_greedy_decoding_gives_word_confidences(tuned_greedy):
    # the decoder's confidence per word comes with the same (greedy) decode; beam search gives none
    t = tuned_greedy.transcribe(AUDIO / CLIPS[0]["file"])
    assert t.word_probs is not None and len(t.word_probs) == len(t.raw_text.split())
    assert all(0.0 <= p <= 1.0 for p in t.word_probs) and max(t.word_probs) > 0.9


def test_correction_can_be_turned_off(monkeypatch):
    from asr.transcribe import Transcriber
    off = Transcriber("tiny.en", bias=False, correct=False)
    assert off.corrector is None
    t = off.transcribe(AUDIO / CLIPS[0]["file"])
    assert t.text == t.raw_text and not t.corrections
    monkeypatch.setenv("HPCASK_ASR_CORRECT", "0")
    assert Transcriber("tiny.en", bias=False).corrector is None
    monkeypatch.setenv("HPCASK_ASR_CORRECT", "1")
    assert Transcriber("tiny.en", bias=False).corrector is not None


def test_a_model_number_no_vocabulary_holds_is_a_slip(corrector):
    # letters glued to digits that name nothing are misheard like an odd word, though "isa" spells English
    assert corrector.correct("what links does the ISA922 have").text == "what links does the AC922 have"
    assert corrector.correct("GTX98 pcie bandwidth").text == "GTX 980 pcie bandwidth"
    # ids, sizes, precisions and vocabulary as written stay, as does a glued word that sounds like no term
    for text in ("GPU12 to GPU13 on the DGX-2", "allreduce on the H200 at 16MB", "fp16 gemm on ResNet50",
                 "Gen3 x16 link", "the XMP64 core63", "tile646 to tile0", "H2000 all reduce"):
        assert corrector.correct(text).text == text
