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


def test_a_refusal_is_right_where_the_set_says_the_data_is_missing():
    """The reading is scored on the meant intent, the final answer on the refusal; the strict count keeps both."""
    items = [
        {"text": "a", "intent": "pair_matrix", "missing": "no pair data for lassen"},   # refused: right
        {"text": "b", "intent": "size_sweep", "missing": "only a figure in the seed"},  # answered anyway: wrong
        {"text": "c", "intent": "pair_matrix"},                                         # refused, data there: wrong
        {"text": "d", "intent": "out_of_scope"},
    ]
    answers = {"a": _answer("out_of_scope", "pair_matrix"), "b": _answer("size_sweep"),
               "c": _answer("out_of_scope", "pair_matrix"), "d": _answer("out_of_scope")}
    rep = evaluate(lambda text: answers[text], items)
    assert rep.n_missing == 2
    assert rep.intent_acc == 2 / 4            # a and d
    assert rep.strict_intent_acc == 2 / 4     # b and d
    assert rep.understood_acc == 4 / 4
    assert rep.oos_precision == 2 / 3 and rep.oos_recall == 2 / 3   # a, d right; c a false refusal; b missed
    assert [e["missing"] for e in rep.errors if "missing" in e] == ["only a figure in the seed"]
    assert any("strict" in line and "50.00%" in line for line in rep.lines())
