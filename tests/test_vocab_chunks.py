"""The reader tokenizes each chunk between spaces once (nlu.vocab._chunk_words): a span's words must be the
tokenizer's words of the whole span, whatever the chunks."""
from __future__ import annotations

import pytest

from nlu import vocab
from nlu.tokens import words

TEXTS = ["what is the nvlink bandwidth between gpu0 and gpu1 on the dgx-1 v100",
         "all-reduce busbw @ 1GiB on h200x2?", "GPU0->GPU3 p2p (uni), 8 KiB... and w/o P2P",
         "the D G X two's  eight kilobytes", "latency\tof reduce", "two\nlines here", "  ", "",
         "peer-to-peer 1,024 B, 2.0 GB/s; x8 Gen3"]


@pytest.mark.parametrize("text", TEXTS)
def test_chunked_words_are_the_tokenizers_words(text):
    vocab.clear_caches()
    assert vocab._words_of(text) == words(text)
    assert vocab._words_of(text) == words(text)      # and again from the cache


def test_clear_caches_forgets_spans_and_words():
    vocab.key("the DGX two")
    assert vocab.key.cache_info().currsize and vocab._chunk_words.cache_info().currsize
    vocab.clear_caches()
    assert not any(f.cache_info().currsize for f in (vocab.key, vocab.norm_words, vocab._chunk_words, vocab._piece))
    assert vocab.key("the DGX two") == "dgx2"
