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
