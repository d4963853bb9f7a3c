"""The later evaluation sets (nlu/eval/holdout.jsonl, holdout2.jsonl, holdout3.jsonl,
holdout4.jsonl, holdout5.jsonl, holdout6.jsonl, holdout7.jsonl, holdout8.jsonl, holdout9.jsonl, holdout10.jsonl, holdout11.jsonl, holdout12.jsonl, holdout13.jsonl, holdout14.jsonl, holdout15.jsonl, holdout16.jsonl, holdout17.jsonl, holdout18.jsonl, holdout19.jsonl, holdout20.jsonl, holdout21.jsonl, holdout22.jsonl, holdout23.jsonl, holdout24.jsonl, holdout25.jsonl, holdout26.jsonl, holdout27.jsonl, holdout28.jsonl, holdout29.jsonl, holdout30.jsonl, holdout31.jsonl, holdout32.jsonl, holdout33.jsonl, holdout34.jsonl, holdout35.jsonl, holdout36.jsonl, holdout37.jsonl, holdout38.jsonl, holdout39.jsonl, holdout40.jsonl, holdout41.jsonl, holdout42.jsonl, holdout43.jsonl, holdout44.jsonl, holdout45.jsonl, holdout46.jsonl, holdout47.jsonl, holdout48.jsonl, holdout49.jsonl, holdout50.jsonl, holdout51.jsonl, holdout52.jsonl, holdout53.jsonl, holdout54.jsonl, holdout55.jsonl, holdout56.jsonl, holdout57.jsonl, holdout58.jsonl, holdout59.jsonl, holdout60.jsonl, holdout61.jsonl, holdout62.jsonl, holdout63.jsonl, holdout64.jsonl, holdout65.jsonl, holdout66.jsonl, holdout67.jsonl, holdout68.jsonl, holdout69.jsonl, holdout70.jsonl, holdout71.jsonl, holdout72.jsonl, holdout73.jsonl, holdout74.jsonl, holdout75.jsonl, holdout76.jsonl) are well formed and their expected
numbers are real.

The set is only worth something if its labels are right: every slot name and value must be canonical, and
every expected number must be what the database holds for the question's own stated slots. These checks run
against the real built database; they never run the model (the set is scored, not tuned on).
"""
from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from nlu.evaluate import EVAL_SET, HOLDOUT2_SET, HOLDOUT3_SET, HOLDOUT4_SET, HOLDOUT5_SET, HOLDOUT6_SET, HOLDOUT7_SET, HOLDOUT8_SET, HOLDOUT9_SET, HOLDOUT10_SET, HOLDOUT11_SET, HOLDOUT12_SET, HOLDOUT13_SET, HOLDOUT14_SET, HOLDOUT15_SET, HOLDOUT16_SET, HOLDOUT17_SET, HOLDOUT18_SET, HOLDOUT19_SET, HOLDOUT20_SET, HOLDOUT21_SET, HOLDOUT22_SET, HOLDOUT23_SET, HOLDOUT24_SET, HOLDOUT25_SET, HOLDOUT26_SET, HOLDOUT27_SET, HOLDOUT28_SET, HOLDOUT29_SET, HOLDOUT30_SET, HOLDOUT31_SET, HOLDOUT32_SET, HOLDOUT33_SET, HOLDOUT34_SET, HOLDOUT35_SET, HOLDOUT36_SET, HOLDOUT37_SET, HOLDOUT38_SET, HOLDOUT39_SET, HOLDOUT40_SET, HOLDOUT41_SET, HOLDOUT42_SET, HOLDOUT43_SET, HOLDOUT44_SET, HOLDOUT45_SET, HOLDOUT46_SET, HOLDOUT47_SET, HOLDOUT48_SET, HOLDOUT49_SET, HOLDOUT50_SET, HOLDOUT51_SET, HOLDOUT52_SET, HOLDOUT53_SET, HOLDOUT54_SET, HOLDOUT55_SET, HOLDOUT56_SET, HOLDOUT57_SET, HOLDOUT58_SET, HOLDOUT59_SET, HOLDOUT60_SET, HOLDOUT61_SET, HOLDOUT62_SET, HOLDOUT63_SET, HOLDOUT64_SET, HOLDOUT65_SET, HOLDOUT66_SET, HOLDOUT67_SET, HOLDOUT68_SET, HOLDOUT69_SET, HOLDOUT70_SET, HOLDOUT71_SET, HOLDOUT72_SET, HOLDOUT73_SET, HOLDOUT74_SET, HOLDOUT75_SET, HOLDOUT76_SET, HOLDOUT_SET, NLU_SLOTS, load_named, load_set, resolve_set

INTENTS = {"metric_lookup", "pair_matrix", "size_sweep", "scaling", "compare_systems", "congestion", "topology",
           "link_efficiency", "trace_breakdown", "list_data", "out_of_scope"}
STYLES = {"typed", "terse", "spoken", "typo"}
# slot -> measurements column: the filter the README says every expected value was found with
COLUMNS = {"system": "system_id", "metric": "metric", "operation": "operation", "src": "src", "dst": "dst",
           "direction": "direction", "msg_bytes": "msg_bytes", "count": "count", "count_kind": "count_kind",
           "condition": "condition", "precision": "precision", "app": "app", "library": "library"}
# values the contract / SLOTS.md name even where no stored row uses them (yet)
NAMED = {
    "condition": {"congestion_free", "under_load", "cc_on", "cc_off", "p2p_on", "p2p_off", "pinned", "pageable",
                  "tensor_cores_on", "tensor_cores_off", "in_place", "out_of_place", "nvlink", "pcie", "compressed",
                  "baseline", "write_combined"},
    "metric": {"bandwidth", "latency", "time", "busbw", "algbw", "throughput", "flops", "efficiency", "speedup",
               "slowdown", "congestion_impact"},
    "operation": {"p2p", "h2d", "d2h", "d2d", "allreduce", "allgather", "alltoall", "broadcast", "reduce",
                  "reduce_scatter", "gather", "scatter", "barrier", "sendrecv", "gemm", "conv", "rnn", "training"},
    "library": {"nccl", "mpi"},
    "link_type": {"NVLink", "NVLink1", "NVLink2", "NVLink3", "NVLink4", "NVSwitch", "PCIe3", "PCIe4", "X-Bus",
                  "IPU-Link", "XLink", "InfiniBand", "UPI", "QPI"},
}
FIXED = {"direction": {"uni", "bi"}, "aggregate": {"max", "min", "mean"},
         "precision": {"fp64", "fp32", "fp16", "int8", "mixed"},
         "count_kind": {"gpus", "ipus", "nodes", "ranks", "tiles", "cores", "threads", "processes"}}
ENDPOINT = re.compile(r"^(host|[a-z]+\d+)$")


# every set in the order written: each later set is checked against all the sets written before it
SETS = [EVAL_SET, HOLDOUT_SET, HOLDOUT2_SET, HOLDOUT3_SET, HOLDOUT4_SET, HOLDOUT5_SET, HOLDOUT6_SET, HOLDOUT7_SET,
        HOLDOUT8_SET, HOLDOUT9_SET, HOLDOUT10_SET, HOLDOUT11_SET, HOLDOUT12_SET, HOLDOUT13_SET, HOLDOUT14_SET,
        HOLDOUT15_SET, HOLDOUT16_SET, HOLDOUT17_SET, HOLDOUT18_SET, HOLDOUT19_SET, HOLDOUT20_SET, HOLDOUT21_SET,
        HOLDOUT22_SET, HOLDOUT23_SET, HOLDOUT24_SET, HOLDOUT25_SET, HOLDOUT26_SET, HOLDOUT27_SET, HOLDOUT28_SET,
        HOLDOUT29_SET, HOLDOUT30_SET, HOLDOUT31_SET, HOLDOUT32_SET, HOLDOUT33_SET, HOLDOUT34_SET, HOLDOUT35_SET, HOLDOUT36_SET, HOLDOUT37_SET, HOLDOUT38_SET, HOLDOUT39_SET, HOLDOUT40_SET, HOLDOUT41_SET, HOLDOUT42_SET, HOLDOUT43_SET, HOLDOUT44_SET, HOLDOUT45_SET, HOLDOUT46_SET, HOLDOUT47_SET, HOLDOUT48_SET, HOLDOUT49_SET, HOLDOUT50_SET, HOLDOUT51_SET, HOLDOUT52_SET, HOLDOUT53_SET, HOLDOUT54_SET, HOLDOUT55_SET, HOLDOUT56_SET, HOLDOUT57_SET, HOLDOUT58_SET, HOLDOUT59_SET, HOLDOUT60_SET, HOLDOUT61_SET, HOLDOUT62_SET, HOLDOUT63_SET, HOLDOUT64_SET, HOLDOUT65_SET, HOLDOUT66_SET, HOLDOUT67_SET, HOLDOUT68_SET, HOLDOUT69_SET, HOLDOUT70_SET, HOLDOUT71_SET, HOLDOUT72_SET, HOLDOUT73_SET, HOLDOUT74_SET, HOLDOUT75_SET, HOLDOUT76_SET]
# the later sets by ordinal, with the two-letter or one-letter prefix of their ids
PREFIXES = {"second": "h", "third": "k", "fourth": "m", "fifth": "n", "sixth": "p", "seventh": "s", "eighth": "t",
            "ninth": "u", "tenth": "v", "eleventh": "w", "twelfth": "x", "thirteenth": "y", "fourteenth": "z",
            "fifteenth": "a", "sixteenth": "b", "seventeenth": "c", "eighteenth": "d", "nineteenth": "f",
            "twentieth": "g", "twentyfirst": "i", "twentysecond": "j", "twentythird": "l", "twentyfourth": "o",
            "twentyfifth": "q", "twentysixth": "r", "twentyseventh": "aa", "twentyeighth": "ab", "twentyninth": "ac",
            "thirtieth": "ad", "thirtyfirst": "ae", "thirtysecond": "af",
            "thirtythird": "ag", "thirtyfourth": "ah",
            "thirtyfifth": "ai", "thirtysixth": "aj",
            "thirtyseventh": "ak", "thirtyeighth": "al", "thirtyninth": "am", "fortieth": "an", "fortyfirst": "ao", "fortysecond": "ap", "fortythird": "aq", "fortyfourth": "ar", "fortyfifth": "as", "fortysixth": "at", "fortyseventh": "au", "fortyeighth": "av", "fortyninth": "aw", "fiftieth": "ax", "fiftyfirst": "ay", "fiftysecond": "az", "fiftythird": "ba", "fiftyfourth": "bb", "fiftyfifth": "bc", "fiftysixth": "bd", "fiftyseventh": "be", "fiftyeighth": "bf", "fiftyninth": "bg", "sixtieth": "bh", "sixtyfirst": "bi", "sixtysecond": "bj", "sixtythird": "bk", "sixtyfourth": "bl", "sixtyfifth": "bm", "sixtysixth": "bn", "sixtyseventh": "bo", "sixtyeighth": "bp", "sixtyninth": "bq", "seventieth": "br", "seventyfirst": "bs", "seventysecond": "bt", "seventythird": "bu", "seventyfourth": "bv", "seventyfifth": "bw", "seventysixth": "bx", "seventyseventh": "by"}
# the later sets: (path, id prefix, earlier sets none of its sentences may repeat)
BLIND = {name: (SETS[k], prefix, SETS[:k]) for k, (name, prefix) in enumerate(PREFIXES.items(), start=1)}


@pytest.fixture(scope="module", params=list(BLIND))
def blind(request):
    return BLIND[request.param]


@pytest.fixture(scope="module")
def items(blind):
    return load_set(blind[0])


def _stored(con, column: str) -> set[str]:
    # column names come from the fixed COLUMNS table above, never from the set
    return {r[0] for r in con.execute(f"SELECT DISTINCT {column} FROM measurements WHERE {column} IS NOT NULL").fetchall()}


def _rows(con, slots: dict):
    keys = [k for k in slots if k in COLUMNS]
    where = " AND ".join(f"{COLUMNS[k]} = ?" for k in keys)
    return keys, con.execute(f"SELECT value, unit FROM measurements WHERE {where}", [slots[k] for k in keys]).fetchall()


def _inline(slots: dict, keys: list[str]) -> str:
    """The WHERE clause as the note writes it (values inlined for reading only; never executed)."""
    def lit(v):
        return f"'{v}'" if isinstance(v, str) else str(v)
    return " AND ".join(f"{COLUMNS[k]} = {lit(slots[k])}" for k in keys)


def test_shape_and_size(items, blind):
    assert len(items) >= 220
    ids = [it["id"] for it in items]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(rf"{blind[1]}\d{{3}}", i) for i in ids), blind[1]
    for it in items:
        assert set(it) - {"missing", "said"} == {"id", "text", "intent", "slots", "expected", "style", "note"}, it["id"]
        # data the database lacks is said in the note too, and the intent stays the one the user means
        assert not it.get("missing") or (it["note"] and it["intent"] != "out_of_scope"), it["id"]
        assert it["text"].strip() and it["intent"] in INTENTS and it["style"] in STYLES, it["id"]
        assert isinstance(it["slots"], dict), it["id"]
        if it["expected"] is not None:
            assert set(it["expected"]) == {"value", "unit"} and isinstance(it["expected"]["value"], (int, float))
    texts = [" ".join(it["text"].lower().split()) for it in items]
    assert len(set(texts)) == len(texts), "duplicate question text"


@pytest.mark.parametrize("path", SETS, ids=["first", *PREFIXES])
def test_a_spoken_reference_only_spells_a_typo_right(path):
    # `said` (nlu/eval/README.md): a typo question's text with its misspelt words spelled right, word for word
    said = [it for it in load_set(path) if "said" in it]
    assert said
    for it in said:
        assert it["style"] == "typo" and it["said"] != it["text"], it["id"]
        pairs = list(zip(it["text"].split(), it["said"].split()))
        assert len(pairs) == len(it["text"].split()) == len(it["said"].split()), it["id"]
        changed = [(a, b) for a, b in pairs if a != b]
        # a respelling, not another word: the same first letter and most of the letters kept
        assert all(a[0].lower() == b[0].lower() and len(set(a.lower()) & set(b.lower())) >= len(set(a.lower())) - 1
                   for a, b in changed), (it["id"], changed)


def test_coverage(items):
    intents = Counter(it["intent"] for it in items)
    assert set(intents) == INTENTS, INTENTS - set(intents)
    assert min(intents.values()) >= 10
    oos = intents["out_of_scope"] / len(items)
    assert 0.08 <= oos <= 0.12, oos
    styles = Counter(it["style"] for it in items)
    assert set(styles) == STYLES and min(styles.values()) >= 20
    assert sum(1 for it in items if it["expected"]) >= 60
    named = {s for it in items for s in [it["slots"].get("system"), *it["slots"].get("compare_with", [])] if s}
    for group in ({"h200x2"}, {"dgx2"}, {"ipu16"}, {"ac922_yme", "ac922_minisummit", "ac922_tum"},
                  {"dgx1_p100", "dgx1_v100"}, {"titan_rtx", "gtx980"}, {"xmp64"},
                  {"lassen", "nvidia_inhouse", "azure_hpc", "ri2", "longhorn", "thetagpu", "chifflot"}):
        assert group & named, group


def test_slots_are_canonical(items, built_con):
    systems = {r[0] for r in built_con.execute("SELECT system_id FROM systems").fetchall()}
    links = {r[0] for r in built_con.execute("SELECT DISTINCT link_type FROM links").fetchall()}
    stored = {k: _stored(built_con, COLUMNS[k]) for k in ("metric", "operation", "condition", "app", "library")}
    for it in items:
        s, where = it["slots"], it["id"]
        assert set(s) <= NLU_SLOTS, (where, set(s) - NLU_SLOTS)
        if "system" in s:
            assert s["system"] in systems, where
        if "compare_with" in s:
            assert isinstance(s["compare_with"], list) and s["compare_with"], where
            assert set(s["compare_with"]) <= systems and s.get("system") not in s["compare_with"], where
        for k in ("msg_bytes", "count", "top_n", "numa_node"):
            if k in s:
                assert isinstance(s[k], int) and not isinstance(s[k], bool) and s[k] > 0, where
        for k, allowed in FIXED.items():
            if k in s:
                assert s[k] in allowed, (where, k, s[k])
        for k in ("src", "dst"):
            if k in s:
                assert ENDPOINT.match(s[k]), (where, k, s[k])
        if "link_type" in s:
            assert s["link_type"] in NAMED["link_type"] | links, where
        for k in ("metric", "operation", "condition", "app", "library"):
            if k in s:
                assert s[k] in stored[k] | NAMED.get(k, set()), (where, k, s[k])
        if it["intent"] == "out_of_scope":
            assert it["expected"] is None, where


def test_expected_values_are_in_the_database(items, built_con):
    """Each expected number is a stored row for the question's stated slots, and all such rows agree."""
    checked = 0
    for it in items:
        if not it["expected"]:
            continue
        assert it["intent"] in {"metric_lookup", "link_efficiency"}, it["id"]
        keys, rows = _rows(built_con, it["slots"])
        assert rows, it["id"]
        note = it["note"]
        assert _inline(it["slots"], keys) in note, (it["id"], note)
        assert re.search(rf"; {len(rows)} rows?\b", note), (it["id"], len(rows), note)
        exp = it["expected"]
        assert {u for _, u in rows} == {exp["unit"]}, it["id"]
        vals = [v for v, _ in rows]
        assert any(math.isclose(v, exp["value"], rel_tol=1e-9, abs_tol=1e-12) for v in vals), (it["id"], vals)
        assert max(vals) - min(vals) < 0.01, (it["id"], vals)
        checked += 1
    assert checked >= 60


def test_questions_without_expected_say_why_when_looked_up(items, built_con):
    """A note that records a lookup with disagreeing rows must still be true of the database."""
    for it in items:
        if it["expected"] is None and "rows that disagree" in it["note"]:
            keys, rows = _rows(built_con, it["slots"])
            vals = [v for v, _ in rows]
            assert _inline(it["slots"], keys) in it["note"], it["id"]
            assert len(rows) >= 2 and max(vals) - min(vals) >= 0.01, (it["id"], vals)


def test_no_sentence_shared_with_the_first_set(items, blind):
    norm = lambda t: re.sub(r"[^a-z0-9]+", " ", t.lower()).strip()  # noqa: E731
    earlier = {norm(it["text"]) for path in blind[2] for it in load_set(path)}
    shared = [it["id"] for it in items if norm(it["text"]) in earlier]
    assert not shared, f"{len(shared)} holdout questions repeat an earlier set: {shared}"


def test_sets_by_name_and_path(tmp_path, capsys):
    assert resolve_set("holdout") == HOLDOUT_SET and resolve_set(None) == EVAL_SET
    assert resolve_set(str(HOLDOUT_SET)) == HOLDOUT_SET
    assert len(load_named("holdout")) == len(load_set(HOLDOUT_SET))
    assert resolve_set("holdout2") == HOLDOUT2_SET and resolve_set(str(HOLDOUT2_SET)) == HOLDOUT2_SET
    assert len(load_named("holdout2")) == len(load_set(HOLDOUT2_SET))
    assert resolve_set("holdout3") == HOLDOUT3_SET and len(load_named("holdout3")) == len(load_set(HOLDOUT3_SET))
    assert resolve_set("holdout4") == HOLDOUT4_SET and len(load_named("holdout4")) == len(load_set(HOLDOUT4_SET))
    assert resolve_set("holdout5") == HOLDOUT5_SET and len(load_named("holdout5")) == len(load_set(HOLDOUT5_SET))
    assert resolve_set("holdout6") == HOLDOUT6_SET and len(load_named("holdout6")) == len(load_set(HOLDOUT6_SET))
    assert resolve_set("holdout7") == HOLDOUT7_SET and len(load_named("holdout7")) == len(load_set(HOLDOUT7_SET))
    assert resolve_set("holdout8") == HOLDOUT8_SET and len(load_named("holdout8")) == len(load_set(HOLDOUT8_SET))
    assert resolve_set("holdout9") == HOLDOUT9_SET and len(load_named("holdout9")) == len(load_set(HOLDOUT9_SET))
    assert resolve_set("holdout10") == HOLDOUT10_SET and len(load_named("holdout10")) == len(load_set(HOLDOUT10_SET))
    assert resolve_set("holdout11") == HOLDOUT11_SET and len(load_named("holdout11")) == len(load_set(HOLDOUT11_SET))
    assert resolve_set("holdout12") == HOLDOUT12_SET and len(load_named("holdout12")) == len(load_set(HOLDOUT12_SET))
    assert resolve_set("holdout13") == HOLDOUT13_SET and len(load_named("holdout13")) == len(load_set(HOLDOUT13_SET))
    assert resolve_set("holdout14") == HOLDOUT14_SET and len(load_named("holdout14")) == len(load_set(HOLDOUT14_SET))
    assert resolve_set("holdout15") == HOLDOUT15_SET and len(load_named("holdout15")) == len(load_set(HOLDOUT15_SET))
    assert resolve_set("holdout16") == HOLDOUT16_SET and len(load_named("holdout16")) == len(load_set(HOLDOUT16_SET))
    assert resolve_set("holdout17") == HOLDOUT17_SET and len(load_named("holdout17")) == len(load_set(HOLDOUT17_SET))
    assert resolve_set("holdout18") == HOLDOUT18_SET and len(load_named("holdout18")) == len(load_set(HOLDOUT18_SET))
    assert resolve_set("holdout19") == HOLDOUT19_SET and len(load_named("holdout19")) == len(load_set(HOLDOUT19_SET))
    assert resolve_set("holdout20") == HOLDOUT20_SET and len(load_named("holdout20")) == len(load_set(HOLDOUT20_SET))
    assert resolve_set("holdout21") == HOLDOUT21_SET and len(load_named("holdout21")) == len(load_set(HOLDOUT21_SET))
    assert resolve_set("holdout22") == HOLDOUT22_SET and len(load_named("holdout22")) == len(load_set(HOLDOUT22_SET))
    assert resolve_set("holdout23") == HOLDOUT23_SET and len(load_named("holdout23")) == len(load_set(HOLDOUT23_SET))
    assert resolve_set("holdout24") == HOLDOUT24_SET and len(load_named("holdout24")) == len(load_set(HOLDOUT24_SET))
    assert resolve_set("holdout25") == HOLDOUT25_SET and len(load_named("holdout25")) == len(load_set(HOLDOUT25_SET))
    assert resolve_set("holdout26") == HOLDOUT26_SET and len(load_named("holdout26")) == len(load_set(HOLDOUT26_SET))
    assert resolve_set("holdout27") == HOLDOUT27_SET and len(load_named("holdout27")) == len(load_set(HOLDOUT27_SET))
    assert resolve_set("holdout28") == HOLDOUT28_SET and len(load_named("holdout28")) == len(load_set(HOLDOUT28_SET))
    assert resolve_set("holdout29") == HOLDOUT29_SET and len(load_named("holdout29")) == len(load_set(HOLDOUT29_SET))
    assert resolve_set("holdout30") == HOLDOUT30_SET and len(load_named("holdout30")) == len(load_set(HOLDOUT30_SET))
    assert resolve_set("holdout31") == HOLDOUT31_SET and len(load_named("holdout31")) == len(load_set(HOLDOUT31_SET))
    assert resolve_set("holdout32") == HOLDOUT32_SET and len(load_named("holdout32")) == len(load_set(HOLDOUT32_SET))
    assert resolve_set("holdout33") == HOLDOUT33_SET and len(load_named("holdout33")) == len(load_set(HOLDOUT33_SET))
    assert resolve_set("holdout34") == HOLDOUT34_SET and len(load_named("holdout34")) == len(load_set(HOLDOUT34_SET))
    assert resolve_set("holdout35") == HOLDOUT35_SET and len(load_named("holdout35")) == len(load_set(HOLDOUT35_SET))
    assert resolve_set("holdout36") == HOLDOUT36_SET and len(load_named("holdout36")) == len(load_set(HOLDOUT36_SET))
    assert resolve_set("holdout37") == HOLDOUT37_SET and len(load_named("holdout37")) == len(load_set(HOLDOUT37_SET))
    assert resolve_set("holdout38") == HOLDOUT38_SET and len(load_named("holdout38")) == len(load_set(HOLDOUT38_SET))
    assert resolve_set("holdout39") == HOLDOUT39_SET and len(load_named("holdout39")) == len(load_set(HOLDOUT39_SET))
    assert resolve_set("holdout40") == HOLDOUT40_SET and len(load_named("holdout40")) == len(load_set(HOLDOUT40_SET))
    assert resolve_set("holdout41") == HOLDOUT41_SET and len(load_named("holdout41")) == len(load_set(HOLDOUT41_SET))
    assert resolve_set("holdout42") == HOLDOUT42_SET and len(load_named("holdout42")) == len(load_set(HOLDOUT42_SET))
    assert resolve_set("holdout43") == HOLDOUT43_SET and len(load_named("holdout43")) == len(load_set(HOLDOUT43_SET))
    assert resolve_set("holdout44") == HOLDOUT44_SET and len(load_named("holdout44")) == len(load_set(HOLDOUT44_SET))
    assert resolve_set("holdout45") == HOLDOUT45_SET and len(load_named("holdout45")) == len(load_set(HOLDOUT45_SET))
    assert resolve_set("holdout46") == HOLDOUT46_SET and len(load_named("holdout46")) == len(load_set(HOLDOUT46_SET))
    assert resolve_set("holdout47") == HOLDOUT47_SET and len(load_named("holdout47")) == len(load_set(HOLDOUT47_SET))
    assert resolve_set("holdout48") == HOLDOUT48_SET and len(load_named("holdout48")) == len(load_set(HOLDOUT48_SET))
    assert resolve_set("holdout49") == HOLDOUT49_SET and len(load_named("holdout49")) == len(load_set(HOLDOUT49_SET))
    assert resolve_set("holdout50") == HOLDOUT50_SET and len(load_named("holdout50")) == len(load_set(HOLDOUT50_SET))
    assert resolve_set("holdout51") == HOLDOUT51_SET and len(load_named("holdout51")) == len(load_set(HOLDOUT51_SET))
    assert resolve_set("holdout52") == HOLDOUT52_SET and len(load_named("holdout52")) == len(load_set(HOLDOUT52_SET))
    assert resolve_set("holdout53") == HOLDOUT53_SET and len(load_named("holdout53")) == len(load_set(HOLDOUT53_SET))
    assert resolve_set("holdout54") == HOLDOUT54_SET and len(load_named("holdout54")) == len(load_set(HOLDOUT54_SET))
    assert resolve_set("holdout55") == HOLDOUT55_SET and len(load_named("holdout55")) == len(load_set(HOLDOUT55_SET))
    assert resolve_set("holdout56") == HOLDOUT56_SET and len(load_named("holdout56")) == len(load_set(HOLDOUT56_SET))
    assert resolve_set("holdout57") == HOLDOUT57_SET and len(load_named("holdout57")) == len(load_set(HOLDOUT57_SET))
    assert resolve_set("holdout58") == HOLDOUT58_SET and len(load_named("holdout58")) == len(load_set(HOLDOUT58_SET))
    assert resolve_set("holdout59") == HOLDOUT59_SET and len(load_named("holdout59")) == len(load_set(HOLDOUT59_SET))
    assert resolve_set("holdout60") == HOLDOUT60_SET and len(load_named("holdout60")) == len(load_set(HOLDOUT60_SET))
    assert resolve_set("holdout61") == HOLDOUT61_SET and len(load_named("holdout61")) == len(load_set(HOLDOUT61_SET))
    assert resolve_set("holdout62") == HOLDOUT62_SET and len(load_named("holdout62")) == len(load_set(HOLDOUT62_SET))
    assert resolve_set("holdout63") == HOLDOUT63_SET and len(load_named("holdout63")) == len(load_set(HOLDOUT63_SET))
    assert resolve_set("holdout64") == HOLDOUT64_SET and len(load_named("holdout64")) == len(load_set(HOLDOUT64_SET))
    assert resolve_set("holdout65") == HOLDOUT65_SET and len(load_named("holdout65")) == len(load_set(HOLDOUT65_SET))
    assert resolve_set("holdout66") == HOLDOUT66_SET and len(load_named("holdout66")) == len(load_set(HOLDOUT66_SET))
    assert resolve_set("holdout67") == HOLDOUT67_SET and len(load_named("holdout67")) == len(load_set(HOLDOUT67_SET))
    assert resolve_set("holdout68") == HOLDOUT68_SET and len(load_named("holdout68")) == len(load_set(HOLDOUT68_SET))
    assert resolve_set("holdout69") == HOLDOUT69_SET and len(load_named("holdout69")) == len(load_set(HOLDOUT69_SET))
    assert resolve_set("holdout70") == HOLDOUT70_SET and len(load_named("holdout70")) == len(load_set(HOLDOUT70_SET))
    assert resolve_set("holdout71") == HOLDOUT71_SET and len(load_named("holdout71")) == len(load_set(HOLDOUT71_SET))
    assert resolve_set("holdout72") == HOLDOUT72_SET and len(load_named("holdout72")) == len(load_set(HOLDOUT72_SET))
    assert resolve_set("holdout73") == HOLDOUT73_SET and len(load_named("holdout73")) == len(load_set(HOLDOUT73_SET))
    assert resolve_set("holdout74") == HOLDOUT74_SET and len(load_named("holdout74")) == len(load_set(HOLDOUT74_SET))
    assert resolve_set("holdout75") == HOLDOUT75_SET and len(load_named("holdout75")) == len(load_set(HOLDOUT75_SET))
    assert resolve_set("holdout76") == HOLDOUT76_SET and len(load_named("holdout76")) == len(load_set(HOLDOUT76_SET))
    with pytest.raises(ValueError, match="holdout"):
        resolve_set("holdouts")
    from app.cli import build_parser
    args = build_parser().parse_args(["eval", "--set", str(tmp_path / "missing.jsonl")])
    assert args.func(args) == 2
    assert "no evaluation set" in capsys.readouterr().err


def test_a_crashing_question_is_a_miss_not_a_lost_run():
    """bench/nlu.py scores both sets in one run: one question that raises must not void the scores."""
    from nlu.evaluate import evaluate
    items = [{"text": "q1", "intent": "topology", "slots": {"system": "dgx2"}, "expected": None},
             {"text": "q2", "intent": "metric_lookup", "slots": {}, "expected": {"value": 1.0, "unit": "us"}}]

    def ask(text):
        raise KeyError(text)
    rep = evaluate(ask, items)
    assert rep.crashes == 2 and rep.n == 2
    assert rep.intent_acc == 0.0 and rep.answer_acc == 0.0 and rep.slot_r == 0.0
    assert any("crashed questions    2" in line for line in rep.lines())
    assert "KeyError" in rep.errors[0]["answer"]


def test_answers_are_compared_with_the_sets_tolerance():
    # nlu/eval/README.md: 0.5 % relative or 0.01 absolute (expected values written at two decimals)
    from types import SimpleNamespace
    from nlu.evaluate import answer_matches
    def res(v, unit="GB/s"):
        return SimpleNamespace(rows=[{"value": v, "unit": unit}])
    assert answer_matches(res(10.60400015669384), {"value": 10.6, "unit": "GB/s"})
    assert answer_matches(res(550.218), {"value": 550.22, "unit": "GFLOP/s"}) is False   # unit differs
    assert answer_matches(res(550.218, "GFLOP/s"), {"value": 550.22, "unit": "GFLOP/s"})
    assert not answer_matches(res(10.7), {"value": 10.6, "unit": "GB/s"})
    assert not answer_matches(res(321.03), {"value": 300.12, "unit": "GB/s"})
    assert not answer_matches(SimpleNamespace(rows=[]), {"value": 1.0, "unit": None})
