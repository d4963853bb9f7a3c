"""Numbers said in words as a transcript writes them: one number where the words make one (real model)."""
from nlu.pipeline import spoken_compound_numbers


def test_compound_numbers_become_one_and_model_names_stay(asker):
    num = asker.nlu.norm.number
    assert spoken_compound_numbers("at two thousand forty eight g p us".split(), num) == "at 2048 g p us".split()
    assert spoken_compound_numbers("on two hundred and fifty six nodes".split(), num) == "on 256 nodes".split()
    # a GPU model's name keeps its words; the size after it is still one number
    assert spoken_compound_numbers("the h two hundred box".split(), num) == "the h two hundred box".split()
    assert spoken_compound_numbers("p one hundred one thousand megabyte".split(), num) == \
        "p one hundred 1000 megabyte".split()
    # no hundred, thousand or million: left to the tagger ("one to sixteen", "g p u one two")
    assert spoken_compound_numbers("from one to sixteen g p us".split(), num) == "from one to sixteen g p us".split()


def test_a_count_of_gpus_said_in_words_is_a_count_not_a_size(asker):
    res = asker.ask("what speed up does hy fi get for amoeba net on lassen at two thousand forty eight g p us")
    assert res.slots.get("count") == 2048 and res.slots.get("count_kind") == "gpus"
    assert "msg_bytes" not in res.slots
    assert res.rows and res.rows[0]["count"] == 2048
