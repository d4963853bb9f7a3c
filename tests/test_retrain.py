"""`hpcask retrain --vocab`: a new system alias is learnt, and then answers a question."""
import json
from pathlib import Path

from conftest import REPO

MODEL = REPO / "models" / "nlu" / "build" / "current"
QUESTION = "what bus bandwidth does allreduce reach on the Hopper Twins at 1 GB"


def test_retrain_with_new_alias_then_answers(tmp_path, built_db):
    from app.ask import Asker
    from nlu.retrain import retrain
    assert (MODEL / "labels.json").exists(), "no trained NLU model: run `make setup` first"
    before = Asker(built_db, MODEL)
    try:
        r0 = before.ask(QUESTION)
    finally:
        before.close()
    assert r0.slots.get("system") != "h200x2"  # the alias is unknown before retraining

    new = tmp_path / "new_words.yaml"
    new.write_text("system:\n  h200x2:\n    written: [Hopper Twins, the Hopper Twins]\n")
    summary = retrain(db=built_db, vocab=new, build_dir=tmp_path / "build", incremental=True,
                      overrides={"examples_per_intent": 40, "epochs": 1}, evaluate_after=False,
                      log=lambda s: None)
    assert summary["installed"]
    model_dir = Path(summary["model_dir"])
    assert (model_dir / "extra_vocabulary.yaml").exists()
    assert json.loads((model_dir / "train.json").read_text())["train"]["examples"] > 0
    after = Asker(built_db, model_dir)
    try:
        r = after.ask(QUESTION)
    finally:
        after.close()
    assert r.slots["system"] == "h200x2"
    assert r.rows[0]["value"] == 327.89  # all_reduce_perf_g2.txt line 40, in-place busbw at 1 GiB


def test_rollback_needs_a_previous_model(tmp_path, monkeypatch):
    from nlu import retrain as R
    monkeypatch.setattr(R, "PREVIOUS", tmp_path / "nothing-here")
    assert R.rollback(log=lambda s: None) is False


def test_asr_transcripts_are_labelled_training_questions(tmp_path, built_db):
    """The question model's lessons from the speech model: real transcripts of spoken generated questions,
    with the labels carried over word by word; made once when missing, then read as they are."""
    import json

    from nlu.retrain import ASR_EXAMPLES, asr_transcripts, extra_examples
    logs: list[str] = []
    path = asr_transcripts(6, built_db, log=logs.append, path=tmp_path / "asr.jsonl")
    assert path == tmp_path / "asr.jsonl" and path.exists()
    rows = [json.loads(l) for l in open(path)]
    assert 1 <= len(rows) <= 6
    for r in rows:
        assert len(r["tokens"]) == len(r["tags"]) and r["intent"] and r["source"]
        assert all(t == "O" or t.startswith("B-") or t.startswith("I-") for t in r["tags"])
    assert len(extra_examples(path)) == len(rows)
    made = path.stat().st_mtime_ns
    assert asr_transcripts(6, built_db, log=logs.append, path=path) == path
    assert path.stat().st_mtime_ns == made                     # read, not made again
    # the committed file the question model trains on reads as training questions too
    committed = extra_examples(ASR_EXAMPLES)
    assert len(committed) > 100 and all(len(e.tokens) == len(e.tags) for e in committed)
