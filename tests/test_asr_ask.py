"""A spoken question answered end to end: audio -> transcript -> intent and slots -> the stored number."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

AUDIO = Path(__file__).parent / "fixtures" / "audio"
HPCASK = [sys.executable, "-m", "app.cli"]


@pytest.fixture(scope="module")
def asker(built_db):
    from app.ask import Asker
    from asr import build
    assert build.present(), "no fine-tuned speech model: run `make setup` (or `hpcask retrain --asr`)"
    a = Asker(built_db)
    yield a
    a.close()


@pytest.fixture(scope="module")
def reader(built_db):
    """The question pipeline alone: for transcripts written by hand, no speech model needed."""
    from app.ask import Asker
    a = Asker(built_db)
    yield a
    a.close()


def test_spoken_question_gets_the_typed_answer(asker, built_con):
    res = asker.ask_audio(AUDIO / "allreduce_h200.wav", qid="s1")
    assert res.error is None and res.transcript and res.question == res.transcript
    assert res.timings_ms["asr"] > 0 and res.timings_ms["total"] >= res.timings_ms["asr"]
    assert res.intent == "metric_lookup"
    assert res.slots["system"] == "h200x2" and res.slots["operation"] == "allreduce"
    assert res.slots["msg_bytes"] == 1 << 30
    # the number is the one stored for that measurement (asked of the database directly)
    want = built_con.execute("""SELECT value FROM measurements WHERE system_id = 'h200x2' AND operation = 'allreduce'
                                AND metric = 'busbw' AND msg_bytes = ? AND count = 2""", [1 << 30]).fetchall()
    assert res.rows and any(abs(res.rows[0]["value"] - w[0]) < 1e-6 for w in want)
    assert res.id == "s1"


def test_spoken_topology_question(asker):
    res = asker.ask_audio((AUDIO / "hops_xmp64.wav").read_bytes())
    assert res.intent == "topology" and res.slots.get("system") == "xmp64"
    assert {res.slots.get("src"), res.slots.get("dst")} == {"core0", "core63"}


def test_unusable_audio_gives_a_result_with_the_reason(asker, tmp_path):
    res = asker.ask_audio(b"not audio at all")
    assert res.error and "not readable audio" in res.error and res.rows == []
    (tmp_path / "empty.ogg").write_bytes(b"")
    assert "empty" in asker.ask_audio(tmp_path / "empty.ogg").error


def test_cli_audio_and_batch(built_db, tmp_path):
    env = {"HPCASK_DB": str(built_db)}
    import os
    env = {**os.environ, **env}
    out = subprocess.run(HPCASK + ["ask", "--json", "--audio", str(AUDIO / "nvlink_dgx1.ogg")],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["transcript"] and d["slots"].get("system") == "dgx1_v100" and d["timings_ms"]["asr"] > 0
    batch = tmp_path / "b.jsonl"
    batch.write_text(json.dumps({"id": "a", "audio": str(AUDIO / "allreduce_h200.wav")}) + "\n"
                     + json.dumps({"id": "b", "audio": "missing.wav"}) + "\n")
    out = subprocess.run(HPCASK + ["ask", "--batch", str(batch), "--json"], capture_output=True, text=True,
                         env=env, timeout=300)
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert [x["id"] for x in lines] == ["a", "b"]
    assert lines[0]["transcript"] and "error" not in lines[0]
    assert "no such file" in lines[1]["error"]
    bad = subprocess.run(HPCASK + ["ask", "--audio", str(tmp_path / "nothing.wav")], capture_output=True,
                         text=True, env=env, timeout=300)
    assert bad.returncode == 1 and "no such file" in bad.stderr


def test_speech_report_breaks_wer_down_by_question_style(asker):
    """The spoken evaluation scores each style the set's writers marked on its own, so that keyword queries read
    aloud letter by letter do not hide how whole sentences fare."""
    from asr import metrics
    from asr.speech_eval import SpeechItem, evaluate_speech
    clips = json.loads((AUDIO / "clips.json").read_text())
    styles = ["spoken", "typed", "spoken"]
    items = [SpeechItem({"id": f"t{i}", "text": c["say"], "intent": "metric_lookup", "slots": {}, "style": s},
                        AUDIO / c["file"], f"{c['engine']}:{c['voice']}", 4.0)
             for i, (c, s) in enumerate(zip(clips, styles))]
    heard: dict = {}
    rep = evaluate_speech(asker, asker.speech(), items, transcripts=heard)
    said = {it.item["style"]: [] for it in items}
    for it in items:
        said[it.item["style"]].append((it.item["text"], heard[str(it.audio)].text))
    assert {k: n for k, (n, _) in rep.wer_by_style.items()} == {"spoken": 2, "typed": 1}
    for style, pairs in said.items():
        assert rep.wer_by_style[style][1] == metrics.wer(pairs)
    assert any(line.startswith("WER by style") and "typed" in line for line in rep.lines())
    # a set without styles gets no breakdown, and the same overall WER
    bare = [SpeechItem({**it.item, "style": None}, it.audio, it.voice, 4.0) for it in items]
    again = evaluate_speech(asker, asker.speech(), bare, transcripts=heard)
    assert again.wer_by_style == {} and again.wer == rep.wer


def test_a_typo_question_is_scored_against_its_words_spelled_right(reader):
    # "waht systems r loaded" read aloud: the right transcript writes "what", which the written text would count
    # as an error; the set's `said` spells the misspelt words right, and only those
    from asr import metrics
    from asr.speech_eval import SpeechItem, evaluate_speech
    from asr.transcribe import Transcriber, Transcript
    audio = AUDIO / json.loads((AUDIO / "clips.json").read_text())[0]["file"]
    item = {"id": "t0", "text": "waht systems r loaded", "said": "what systems r loaded", "intent": "list_data",
            "slots": {}, "style": "typo"}
    heard = {str(audio): Transcript(text="what systems are loaded", audio_s=2.0, raw_text="what systems are loaded",
                                    timings_ms={"total": 100.0})}
    rep = evaluate_speech(reader, Transcriber("tiny.en", bias=False), [SpeechItem(item, audio, "flite:rms", 2.0)],
                          transcripts=heard)
    assert rep.wer == metrics.wer([(item["said"], "what systems are loaded")]) == 0.25
    assert rep.wer_written == 0.5 and rep.wer_by_style["typo"] == (1, 0.25)
    assert any(line.startswith("WER as written") for line in rep.lines())


HESITANT = json.loads((AUDIO / "hesitant_openings.json").read_text())


@pytest.mark.parametrize("clip", HESITANT, ids=[c["file"] for c in HESITANT])
def test_a_system_name_heard_as_a_hesitation_is_read_back(asker, clip):
    # "Yme ..." spoken as a keyword query: the model tends to write "um ..." (no system, so no answer); the text
    # decoded without hesitations is read when the first cannot be answered
    res = asker.ask_audio(AUDIO / clip["file"])
    assert res.error is None and res.intent != "out_of_scope", res.transcript
    assert res.slots.get("system") == clip["system"] and res.rows


def test_the_hesitation_free_text_is_read_only_where_the_heard_text_fails(asker):
    from asr.transcribe import Transcript
    heard = Transcript(text="um p2p BW matrix in link", audio_s=2.0, raw_text="um p2p BW matrix in link",
                       hesitation_free="yme p2p BW matrix in link", hesitation_gap=0.02)
    res = asker.ask_transcript(heard)
    assert res.intent == "pair_matrix" and res.slots["system"] == "ac922_yme"
    assert res.transcript == "yme p2p BW matrix in link" and any("hesitation" in n for n in res.notes)
    # too far below the heard text: the heard text's refusal stands
    far = Transcript(text=heard.text, audio_s=2.0, raw_text=heard.text, hesitation_free=heard.hesitation_free,
                     hesitation_gap=0.8)
    assert asker.ask_transcript(far).intent == "out_of_scope"
    # an answerable heard text is never replaced
    fine = Transcript(text="yme p2p bw matrix nvlink", audio_s=2.0, raw_text="yme p2p bw matrix nvlink",
                      hesitation_free="time p2p bw matrix nvlink", hesitation_gap=0.01)
    assert asker.ask_transcript(fine).transcript == "yme p2p bw matrix nvlink"
    # both unanswerable: the refusal is the heard text's
    both = Transcript(text="um how do i enable peer access", audio_s=2.0, raw_text="um how do i enable peer access",
                      hesitation_free="so how do i enable peer access", hesitation_gap=0.01)
    r = asker.ask_transcript(both)
    assert r.intent == "out_of_scope" and r.transcript == both.text


def test_the_beams_next_hypothesis_is_read_only_for_the_same_question(reader):
    from asr.transcribe import Transcript

    def heard(text, alternatives):
        return Transcript(text=text, audio_s=2.0, raw_text=text, alternatives=alternatives)
    garbled = "peer to peer bandwidth matrix on the Ymeabenit"     # understood as a matrix, no such system
    right, other = "peer to peer bandwidth matrix on Yme", "peer to peer bandwidth on Yme"
    res = reader.ask_transcript(heard(garbled, [(other, 0.01), (right, 0.05)]))
    # the lookup the data answers first is another question: passed over for the matrix just below it
    assert res.intent == "pair_matrix" and res.slots["system"] == "ac922_yme" and res.rows
    assert res.transcript == right and any("next hypothesis" in n for n in res.notes)
    # too far below the heard text, or only another question: the refusal stands
    assert reader.ask_transcript(heard(garbled, [(right, 0.5)])).intent == "out_of_scope"
    assert reader.ask_transcript(heard(garbled, [(other, 0.01)])).transcript == garbled
    # a text not understood as any question the data could answer is not read as a hypothesis that is
    lost = reader.ask_transcript(heard("what is the weather like on the Ymeabenit", [(right, 0.01)]))
    assert lost.intent == "out_of_scope" and lost.transcript == "what is the weather like on the Ymeabenit"
    # an answered text is never replaced
    assert reader.ask_transcript(heard(other, [(right, 0.01)])).transcript == other


@pytest.mark.parametrize("heard", ["DGX-2 broadcast bandwidth of message size grows, 2 GPUs.",
                                   "DGX-2 all reduce bandwidth of message size grows, 4 GPUs."])
def test_a_message_size_that_grows_is_the_axis_even_without_as(reader, heard):
    # "as" heard as "of": one count where the value is taken, and the words ask for a curve over message sizes
    res = reader.ask(heard, transcript=heard)
    assert res.intent == "size_sweep" and res.slots["count"] in (2, 4) and res.rows


def test_counts_as_a_range_keep_the_curve_over_counts(reader):
    # "up to 16 gpus" keeps the count 16 as a slot: only the range guard keeps it a curve over counts
    res = reader.ask("dgx2 allreduce bandwidth up to 16 gpus as message size grows")
    assert res.intent == "scaling" and res.slots.get("count") == 16
    assert reader.ask("dgx2 allreduce bandwidth 1 to 4 gpus as message size grows").intent == "scaling"


def test_a_machine_heard_as_a_hesitation_is_read_further_below_when_it_names_the_machine(asker):
    """"um GPU0 -> GPU2 PCIe uni bw" names no machine ("which system?"); the decode without hesitations heard the
    opening sound as "Yme": that reading is taken further below the heard text (NAMED_READ_GAP) than a reading that
    only makes the words answerable (HESITATION_READ_GAP), and only for the same kind of question."""
    from app.ask import HESITATION_READ_GAP, NAMED_READ_GAP
    from asr.transcribe import Transcript
    gap = (HESITATION_READ_GAP + NAMED_READ_GAP) / 2
    heard = Transcript(text="um GPU0 -> GPU2 PCIe uni bw", audio_s=2.0, raw_text="um GPU0 -> GPU2 PCIe uni bw",
                       hesitation_free="Yme GPU0 -> GPU2 PCIe uni bw", hesitation_gap=gap)
    res = asker.ask_transcript(heard)
    assert res.slots.get("system") == "ac922_yme" and res.rows and res.transcript == heard.hesitation_free
    assert any("machine's name" in n for n in res.notes)
    # the same other decode without a machine in it is not read that far below
    plain = Transcript(text=heard.text, audio_s=2.0, raw_text=heard.text,
                       hesitation_free="an GPU0 -> GPU2 PCIe uni bw", hesitation_gap=gap)
    assert asker.ask_transcript(plain).transcript == heard.text
    # a heard text that names its machine keeps it
    named = Transcript(text="um dgx2 GPU0 -> GPU2 PCIe uni bw", audio_s=2.0, raw_text="um dgx2 GPU0 -> GPU2 PCIe uni bw",
                       hesitation_free="Yme dgx2 GPU0 -> GPU2 PCIe uni bw", hesitation_gap=gap)
    assert asker.ask_transcript(named).slots.get("system") == "dgx2"


def test_a_question_too_long_to_speak_is_left_out_of_the_spoken_set_and_said(tmp_path):
    # a pasted line of nccl-tests output read aloud runs past the 30 s a recording may have: it cannot be asked by
    # voice, so the spoken evaluation leaves it out and names it instead of stopping
    from asr.speech_eval import eval_audio
    row = "   134217728      33554432     float     sum      -1   472.59  284.01  284.01      0" * 3
    items = [{"id": "long1", "text": f"Pasted from all_reduce_perf: `{row}` -- which number is the busbw?"},
             {"id": "short1", "text": "DGX-2 NVLink bandwidth?"}]
    skipped: list = []
    clips = eval_audio(items, cache=tmp_path, skipped=skipped)
    assert [c.item["id"] for c in clips] == ["short1"]
    assert [i for i, _ in skipped] == ["long1"]
