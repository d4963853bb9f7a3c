"""The questions the speech model is trained on: written-style ones read as typed, spoken-style ones as said.

Why it matters: the evaluation voices read typed questions ("16 MB", "H200", "busbw"), so the training text must
include those written forms, spaced and cased as typed, with the same labels the tagger would give them.
"""
from __future__ import annotations

import random
import re

import pytest

from nlu import generate as G
from nlu.normalize import Normalizer
from nlu.tokens import tokenize
from nlu.vocab import default_vocabulary


@pytest.fixture(scope="module")
def frames(built_db):
    import duckdb
    con = duckdb.connect(str(built_db), read_only=True)
    yield G.Frames(con, seed=3)
    con.close()


def test_written_style_keeps_what_was_typed():
    rng = random.Random(0)
    ex = G.render("what is the {metric} on {system} at {msg_bytes}?", {"metric": "busbw", "system": "h200x2",
                                                                       "msg_bytes": 16 << 20}, rng, "written")
    assert ex is not None
    assert not re.search(r"\s[?.,!]", ex.text), ex.text           # "… 16 MB?" not "… 16 MB ?"
    assert re.search(r"\b16 ?(MiB|MB|M|megabytes)\b|\b16777216\b|2\^24", ex.text), ex.text
    # the labels are those of the typed text's own tokens
    assert [t.text for t in tokenize(ex.text)] == ex.tokens
    assert len(ex.tags) == len(ex.tokens)
    norm = Normalizer(default_vocabulary())
    size_words = [w for w, t in zip(ex.tokens, ex.tags) if t.endswith("msg_bytes")]
    assert norm.value("msg_bytes", " ".join(size_words)) == 16 << 20
    # written forms only: no "sixteen megabytes"
    assert "sixteen" not in ex.text.lower()


def test_spoken_style_has_no_digits_or_punctuation():
    rng = random.Random(1)
    ex = G.render("what is the {metric} on {system} at {msg_bytes}?", {"metric": "busbw", "system": "dgx2",
                                                                       "msg_bytes": 8192}, rng, "spoken")
    assert ex is not None
    assert ex.text == ex.text.lower()
    assert not re.search(r"[?.,!]", ex.text)


def test_speech_training_mixes_written_and_spoken(built_db):
    import duckdb

    from asr.speech_data import spoken_questions
    con = duckdb.connect(str(built_db), read_only=True)
    try:
        qs = spoken_questions(con, 60, seed=5, exclude=set(), written_share=0.6)
        only_spoken = spoken_questions(con, 30, seed=5, exclude=set(), written_share=0.0)
    finally:
        con.close()
    assert len(qs) == 60
    # written questions show case or punctuation (most do); spoken ones never do
    written = [q for q in qs if q.text != q.text.lower() or re.search(r"[?.,!]", q.text)]
    assert 15 <= len(written) <= 50, len(written)
    assert all(q.text == q.text.lower() and not re.search(r"[?.,!]", q.text) for q in only_spoken)
    for q in qs:
        assert len(q.tokens) == len(q.tags)
        assert q.intent


def test_speech_training_never_holds_an_evaluation_sentence(built_db):
    import duckdb

    from asr.speech_data import _sentence_key, eval_keys, spoken_questions
    from nlu.evaluate import EVAL_SETS, load_set
    keys = eval_keys()
    # every hand-written set is kept out, not the first alone
    assert all(_sentence_key(it["text"]) in keys for path in EVAL_SETS.values() for it in load_set(path))
    con = duckdb.connect(str(built_db), read_only=True)
    try:
        qs = spoken_questions(con, 80, seed=11)
    finally:
        con.close()
    assert not {_sentence_key(q.text) for q in qs} & keys


def test_fewer_speech_questions_open_with_a_filler(built_db):
    """A speech model trained mostly on "um, ..." / "i'd like to know ..." writes them where nobody said them."""
    import duckdb

    from asr.speech_data import spoken_questions
    from nlu.templates import PREFIXES
    openers = sorted({p.strip().lower() for p in PREFIXES if p.strip()}, key=len, reverse=True)

    def opened(qs) -> int:
        return sum(any(re.match(re.escape(p) + r"\b", q.text.lower()) for p in openers) for q in qs)
    con = duckdb.connect(str(built_db), read_only=True)
    try:
        every = spoken_questions(con, 120, seed=5, exclude=set(), prefix_share=1.0)
        few = spoken_questions(con, 120, seed=5, exclude=set(), prefix_share=0.2)
    finally:
        con.close()
    assert opened(every) > 60 and opened(few) < 45, (opened(every), opened(few))


def test_coverage_questions_say_the_forms_the_others_leave_unsaid(built_db):
    import duckdb

    from asr import metrics, speech_data
    from nlu.surface import forms
    con = duckdb.connect(str(built_db), read_only=True)
    try:
        have = speech_data.spoken_questions(con, 300, seed=5)
        cover = speech_data.coverage_questions(con, have, seed=5)
    finally:
        con.close()
    said = " ".join(" " + " ".join(metrics.words(q.text)) + " " for q in have)
    new = " ".join(" " + " ".join(metrics.words(q.text)) + " " for q in cover)
    unsaid = [f for f in forms("link_type", "XLink", kind="written") if f" {' '.join(metrics.words(f))} " not in said]
    assert unsaid, "300 questions should leave some XLink form unsaid"
    for f in unsaid:      # each unsaid written form is now said, in a question of the link type's kind
        assert f" {' '.join(metrics.words(f))} " in new, f
    assert len(cover) > 50
    keys = {speech_data._sentence_key(q.text) for q in have}
    assert not any(speech_data._sentence_key(q.text) in keys for q in cover)
    assert not any(speech_data._sentence_key(q.text) in speech_data.eval_keys() for q in cover)


def test_coverage_questions_top_rare_forms_up_to_per_form(built_db):
    """With per_form K, a written form the questions say fewer than K times is said K times in all; a form they say
    K times or more gets no question of its own."""
    import duckdb

    from asr import metrics, speech_data
    con = duckdb.connect(str(built_db), read_only=True)
    try:
        have = speech_data.spoken_questions(con, 300, seed=5)
        one = speech_data.coverage_questions(con, have, seed=5, per_form=1)
        three = speech_data.coverage_questions(con, have, seed=5, per_form=3)
    finally:
        con.close()

    def said(qs: list) -> str:
        return "".join(" " + " ".join(metrics.words(q.text)) + " \n" for q in qs)
    before, added = said(have), said(three)
    assert len({q.text for q in three}) == len(three)     # no question twice
    assert len(three) > 2 * len(one)
    # forms of one canonical said exactly once by the 300 questions: now three times (twice more), not more
    from nlu.surface import default_surface, forms
    checked = 0
    for canonical in default_surface().vocab.canonicals("link_type"):
        for f in sorted(set(forms("link_type", canonical, kind="written"))):
            ws = f" {' '.join(metrics.words(f))} "
            if "_" in f or before.count(ws) != 1:
                continue
            assert before.count(ws) + added.count(ws) >= 3, f
            checked += 1
    assert checked, "300 questions should say some link-type form exactly once"
    # one question for each mention a form lacks, none for a form said three times or more (a few may fail to render)
    lacking = 0
    for slot in speech_data.COVER_SLOTS:
        for canonical in default_surface().vocab.canonicals(slot):
            for f in set(forms(slot, canonical, kind="written")):
                ws = " ".join(metrics.words(f))
                if ws and "_" not in f:
                    lacking += max(0, 3 - before.count(f" {ws} "))
    assert 0.9 * lacking <= len(three) <= lacking, (len(three), lacking)


def test_keyword_queries_keep_the_values_and_the_cue_words():
    from asr.speech_data import terse
    rng = random.Random(0)
    ex = G.render("so can you show me the {metric} matrix on {system} at {msg_bytes} please",
                  {"metric": "bandwidth", "system": "dgx2", "msg_bytes": 1 << 20}, rng, "written", prefix_share=0.0)
    seen = set()
    for seed in range(8):
        text, tokens, tags = terse(ex, random.Random(seed))
        seen.add(text.split()[0])
        words = text.lower().split()
        assert "matrix" in words and not {"so", "can", "you", "show", "please", "me"} & set(words), text
        # the values as the question wrote them, with their own labels
        assert sorted((t, g) for t, g in zip(tokens, tags) if g != "O") == \
            sorted((t, g) for t, g in zip(ex.tokens, ex.tags) if g != "O"), (text, tags)
        assert len(tokens) == len(tags) and [t.text for t in tokenize(text)] == tokens
    assert len(seen) == 2           # the system first about half of the time, else where the template put it


def test_a_terse_share_changes_only_that_share_of_questions(built_db):
    import duckdb

    from asr.speech_data import spoken_questions
    con = duckdb.connect(str(built_db), read_only=True)
    try:
        plain = spoken_questions(con, 300, seed=5, written_share=1.0)
        some = spoken_questions(con, 300, seed=5, written_share=1.0, terse_share=0.2)
    finally:
        con.close()
    from collections import Counter
    changed = [(a, b) for a, b in zip(plain, some) if a.text != b.text]
    assert 25 <= len(changed) <= 90, len(changed)
    # a keyword query is made of the question's own tokens, fewer of them ("GPU0->GPU2" may gain spaces, not words)
    assert all(Counter(b.tokens) <= Counter(a.tokens) and len(b.tokens) < len(a.tokens) for a, b in changed), \
        [(a.text, b.text) for a, b in changed if not Counter(b.tokens) <= Counter(a.tokens)][:3]
