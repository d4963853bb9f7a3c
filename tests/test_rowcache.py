"""The row cache against the real database: same rows as running the query, copies that callers may change,
bounded size, and no caching when switched off."""
from app import catalog
from app.intents import get, rows_of
from app.rowcache import RowCache


def _plan(con, slots):
    return get("compare_systems").plan(slots, catalog.load(con))


def test_same_rows_as_the_query_and_private_copies(built_con):
    plan = _plan(built_con, {"system": "dgx2", "compare_with": ["ac922_yme"], "metric": "bandwidth",
                             "operation": "h2d"})
    cache = RowCache(built_con, max_entries=4)
    first = cache.rows(plan)
    assert first == rows_of(built_con, plan) and len(first) == 2
    first[0]["value"] = -1.0                      # an answer() that edits its rows
    first.append({"x": 1})
    again = cache.rows(plan)
    assert again == rows_of(built_con, plan) and (cache.hits, cache.misses) == (1, 1)
    # other parameter values are another query
    other = _plan(built_con, {"system": "dgx2", "compare_with": ["ac922_yme"], "metric": "bandwidth",
                              "operation": "d2h"})
    assert cache.rows(other) == rows_of(built_con, other) != again and cache.misses == 2


def test_bounded_and_switchable(built_con):
    cache = RowCache(built_con, max_entries=2)
    plans = [_plan(built_con, {"system": "dgx2", "compare_with": ["ac922_yme"], "metric": "bandwidth",
                               "operation": op}) for op in ("h2d", "d2h", "p2p")]
    for p in plans:
        cache.rows(p)
    assert len(cache._rows) == 2
    cache.rows(plans[0])                          # evicted first: run again
    assert cache.misses == 4 and cache.hits == 0
    off = RowCache(built_con, max_entries=0)
    off.rows(plans[1]); off.rows(plans[1])
    assert off.misses == 2 and off.hits == 0 and not off._rows


def test_asker_answers_alike_with_and_without(asker, built_db):
    from app.ask import Asker
    plain = Asker(built_db, nlu=asker.nlu, cached_queries=0)      # the same loaded question model
    try:
        for q in ("compare host to device bandwidth on the DGX-2 and Yme",
                  "how does all-reduce bus bandwidth grow with message size on the H200 node"):
            a1, a2, b = asker.ask(q).to_dict(), asker.ask(q).to_dict(), plain.ask(q).to_dict()
            for d in (a1, a2, b):
                d.pop("timings_ms")
            assert a1 == a2 == b and a1["rows"]
        assert asker.rows.hits >= 2 and plain.rows.hits == 0
    finally:
        plain.con.close()
