"""The source-document sentences the speech model also learns from (asr/prose.py): what the committed file holds,
how sentences are cut from a document, and that no evaluation question is among them."""
from pathlib import Path

from asr import metrics, prose
from asr.speech_data import _sentence_key, eval_keys


def test_committed_sentences_are_speakable_cited_and_say_a_vocabulary_word():
    rows = prose.load(10_000, seed=1)
    assert len(rows) > 1500
    terms = prose.vocabulary_terms()
    seeds = {"000", "001", "002", "003", "004"}
    for r in rows:
        assert prose.speakable(r.text), r.text
        doc, line = r.source.removeprefix("seed ").split(", line ")
        assert doc in seeds and int(line) > 0
        said = " " + " ".join(metrics.words(r.text)) + " "
        assert any(f" {t} " in said for t in terms), r.text
    assert {r.source[5:8] for r in rows} == seeds          # every document contributes


def test_a_draw_is_seeded_and_never_an_evaluation_sentence():
    a, b, c = prose.load(300, seed=7), prose.load(300, seed=7), prose.load(300, seed=8)
    assert a == b and a != c and len(set(a)) == 300
    assert not {_sentence_key(r.text) for r in prose.load(10_000, seed=1)} & eval_keys()


def test_sentences_are_cut_from_paragraphs_without_citations_formulae_or_broken_words(tmp_path: Path):
    (tmp_path / "007_x.txt").write_text(
        "# A heading about NVLink bandwidth\n\n"
        "The NVLink bandwidth between two GPUs [12, p. 3] is higher than PCIe in every corre-\n"
        "sponding test we ran. The ratio $r = a/b$ says how much NVLink gains over PCIe links.\n\n"
        "| GPU | NVLink |\n|---|---|\n\n"
        "Short NVLink one.\n\n"
        "Nothing here names a single term of the vocabulary at all, so it stays out.\n")
    got = prose.extract(tmp_path, {"nvlink", "pcie"})
    assert [(s.text, s.source) for s in got] == [
        ("The NVLink bandwidth between two GPUs is higher than PCIe in every corresponding test we ran.",
         "seed 007, line 3")]
