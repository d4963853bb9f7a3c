"""The small caches that keep a question fast (session 70) give what the work they save would: the gazetteer's
last scan, the row cache's copies, the catalog's combinations grouped by system and the spelling index. Each
returns values a caller may change without changing the next answer. Real database and vocabulary."""
import duckdb

from app.catalog import load
from app.intents import Plan
from app.rowcache import RowCache
from nlu.gazetteer import Gazetteer
from nlu.normalize import Normalizer


def test_the_gazetteer_scans_again_for_other_words_and_hands_out_copies():
    g = Gazetteer(Normalizer())
    words = "nvlink bandwidth on the dgx2 at 1 MiB".split()
    first = g.candidates(words)
    first.append((0, 1, {"system": "not_a_machine"}))
    again = g.candidates(list(words))
    assert again == first[:-1] and again, again
    other = g.candidates("pcie latency on yme".split())
    assert other != again and any(f.get("system") == "ac922_yme" for _, _, f in other), other


def test_the_row_cache_hands_out_copies_of_nested_values():
    con = duckdb.connect()
    cache = RowCache(con)
    plan = Plan(sql="SELECT [1, 2] AS xs, {'a': 1} AS st, 'x' AS s", params={}, chart={}, slots={})
    rows = cache.rows(plan)
    rows[0]["xs"].append(3)
    rows[0]["st"]["a"] = 9
    rows[0]["new"] = True
    again = cache.rows(plan)
    assert again == [{"xs": [1, 2], "st": {"a": 1}, "s": "x"}] and cache.hits == 1, again
    again[0]["xs"].clear()
    assert cache.rows(plan)[0]["xs"] == [1, 2]


def test_the_catalog_sees_combinations_added_after_its_first_answer(built_db):
    con = duckdb.connect(str(built_db), read_only=True)
    cat = load(con)
    ops = cat.metric_ops("ac922_yme", "bandwidth")
    assert "p2p" in ops and "bandwidth" in cat.op_metrics("ac922_yme", "p2p")
    assert "made_up_metric" not in cat.op_metrics("ac922_yme", None)
    cat.combos.add(("ac922_yme", "made_up_metric", "p2p", None))
    assert "made_up_metric" in cat.op_metrics("ac922_yme", "p2p")
    assert cat.metric_ops("ac922_yme", "made_up_metric") == {"p2p"}
    assert cat.op_metrics("no_such_system", None) == set()


def test_misspellings_and_family_names():
    norm = Normalizer()
    assert norm._fuzzy("app", "resnet") is None            # begins ResNet-50, ResNet-152: a family, not a typo
    assert norm.named("system", "dgx2") == "dgx2"
    assert norm._fuzzy("system", "gh200") is None          # another product's model number
    assert norm._fuzzy("app", "alxnet") == "alexnet"       # one letter lost
