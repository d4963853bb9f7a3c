"""The wording model that ranks the speech model's beam (asr/lm.py): a real trigram model on real sentences."""
import gzip
import json
import math

import pytest

from asr import metrics
from asr.lm import FILE, TrigramLM, load_beside

SENTENCES = ["what is the nvlink bandwidth on the dgx 2",
             "what is the pcie bandwidth on yme",
             "compare allreduce time on the dgx 2 and yme",
             "show the latency heatmap of the ipu",
             "what is the allreduce bus bandwidth at 1 gb on the h200 pair"]


@pytest.fixture(scope="module")
def lm():
    return TrigramLM.train([metrics.words(s) for s in SENTENCES])


def test_probabilities_of_each_context_sum_to_one(lm):
    # over the words it counted a context's distribution sums to one, less at most the share that the unigram
    # level keeps for words never seen (what backs off through the levels is only part of that share)
    vocab = sorted(lm.cont)
    unseen = 1 - sum(lm._p1(w) for w in vocab)
    assert 0 < unseen < 0.05
    for ctx in [("<s>", "<s>"), ("what", "is"), ("on", "the"), ("never", "seen")]:
        total = sum(lm._p3(ctx[0], ctx[1], w) for w in vocab)
        assert 1 - unseen - 1e-9 <= total <= 1 + 1e-9, ctx


def test_the_wording_it_counted_beats_a_near_miss(lm):
    good = metrics.words("what is the NVLink bandwidth on the DGX-2")
    bad = metrics.words("what is the in link bandwidth on the DGX-2")
    assert lm.mean_logprob(good) > lm.mean_logprob(bad)
    assert lm.logprob(metrics.words("compare allreduce time")) > lm.logprob(metrics.words("compute allreduce time"))
    # spelling conventions are not wording: the model scores words, not how they were written
    assert lm.logprob(metrics.words("bandwidth on the DGX-2")) == lm.logprob(metrics.words("bandwidth on the dgx two"))


def test_a_new_term_gets_a_share_once_added(lm):
    q = metrics.words("what is the pcie bandwidth on frontier")
    before = lm.logprob(q)
    more = lm.with_terms([["frontier"], ["what"]])
    assert more.logprob(q) > before
    assert "frontier" in more.cont and "frontier" not in lm.cont       # the loaded model itself is left alone
    assert lm.with_terms([["what"], []]) is lm                         # nothing new: the same model


def test_save_and_load_give_the_same_scores(lm, tmp_path):
    lm.save(tmp_path / FILE)
    back = load_beside(tmp_path)
    for s in SENTENCES + ["a sentence it never saw"]:
        assert math.isclose(back.logprob(metrics.words(s)), lm.logprob(metrics.words(s)))
    assert load_beside(tmp_path / "elsewhere") is None
    # the same counts give the same bytes whenever saved: the gzip header holds no build time (MTIME, bytes 4-7)
    assert (tmp_path / FILE).read_bytes()[4:8] == bytes(4)


def test_a_foreign_file_is_refused(tmp_path):
    with gzip.open(tmp_path / FILE, "wt") as f:
        json.dump({"format": "something else", "trigrams": []}, f)
    with pytest.raises(ValueError, match="not an hpcask word trigram model"):
        load_beside(tmp_path)


def test_counted_from_generated_questions_of_the_database(built_db):
    import duckdb

    from asr.lm import build
    con = duckdb.connect(str(built_db), read_only=True)
    try:
        lm = build(con, seed=7, n_questions=300)
    finally:
        con.close()
    assert lm.n_words > 150
    # the catalog's systems and the generator's wording are in it; the order of the words matters
    assert "dgx" in lm.cont and "nvlink" in lm.cont
    said = metrics.words("what is the bandwidth from gpu 0 to gpu 1 on the dgx 2")
    assert lm.logprob(said) > lm.logprob(list(reversed(said)))
