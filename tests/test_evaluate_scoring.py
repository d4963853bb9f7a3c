"""The evaluation's arithmetic: per-style intent accuracy, final and understood, from given answers.

The answers here are fixed records, not the model's: what is tested is how nlu.evaluate counts them."""
from types import SimpleNamespace

from nlu.evaluate import evaluate


def _answer(intent, understood=None):
    return SimpleNamespace(intent=intent, understood_intent=understood, slots={}, rows=[], answer="")


def test_accuracy_by_style_counts_final_and_understood_intent():
    items = [
        {"text": "a", "intent": "metric_lookup", "style": "typed"},
        {"text": "b", "intent": "pair_matrix", "style": "typed"},       # understood, but the data had none
        {"text": "c", "intent": "scaling", "style": "terse"},            # misread
        {"text": "d", "intent": "out_of_scope", "style": "terse"},
        {"text": "e", "intent": "topology"},                             # no style: in the totals only
    ]
    answers = {"a": _answer("metric_lookup"), "b": _answer("out_of_scope", "pair_matrix"),
               "c": _answer("metric_lookup"), "d": _answer("out_of_scope"), "e": _answer("topology")}
    rep = evaluate(lambda text: answers[text], items)
    assert rep.by_style == {"terse": (2, 0.5, 0.5), "typed": (2, 0.5, 1.0)}
    assert rep.intent_acc == 3 / 5 and rep.understood_acc == 4 / 5
    assert any(line.startswith("by style") and "typed 50.0% / 100.0% (2)" in line for line in rep.lines())


def test_a_set_without_styles_has_no_breakdown():
    rep = evaluate(lambda text: _answer("topology"), [{"text": "x", "intent": "topology"}])
    assert rep.by_style == {} and not any(line.startswith("by style") for line in rep.lines())
