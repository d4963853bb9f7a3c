"""Typed shorthand (vocabulary `typed:` surfaces, e.g. "oop" for out-of-place): read in a typed question as the
vocabulary writes the value, but never a surface the models learn from or the speech side aims at, so adding one
changes neither model's training data. Checks on the real vocabulary, then a question through the real model and
database, the expected number read from the raw nccl-tests output."""
import pytest

from conftest import RAW

from nlu.vocab import Vocabulary, _apply_yaml, load_vocabulary


def test_typed_surfaces_are_kept_apart():
    v = load_vocabulary(None)
    assert v.surfaces("condition", "out_of_place", "typed") == ["oop"]
    for kind in ("any", "written", "spoken"):
        assert "oop" not in v.surfaces("condition", "out_of_place", kind)
    assert "out-of-place" in v.surfaces("condition", "out_of_place", "written")


def test_a_typed_surface_never_hides_a_catalog_name(built_db):
    """A typed surface that is also the catalog's own name for a value ("traffic increase" for traffic_increase)
    would take that written form away from the training text (the value would then be written as its id), and so
    change the question model's and the speech model's training data; none may."""
    from nlu.vocab import catalog_from_db
    v = load_vocabulary(None, catalog=catalog_from_db(built_db))
    clash = [(slot, c, s) for slot, s in v.typed for c, surfaces in v.entries(slot).items()
             if s in surfaces and s == c.replace("_", " ")]
    assert not clash, clash


def test_an_extra_vocabulary_may_add_shorthand():
    v = Vocabulary()
    _apply_yaml(v, {"condition": {"in_place": {"written": ["in-place"], "typed": ["inpl"]}}}, layer=2)
    assert v.surfaces("condition", "in_place", "typed") == ["inpl"]
    assert v.surfaces("condition", "in_place") == ["in-place"]


def test_shorthand_in_a_question_is_read_as_written(asker):
    # all_gather_perf on the H200 pair at 16 MiB: the out-of-place algbw (the first algbw column)
    line = next(l for l in (RAW / "h200x2/all_gather_perf_g2.txt").read_text().splitlines()
                if l.split()[:1] == ["16777216"])
    want = float(line.split()[6])
    r = asker.ask("allgather algbw 16M oop h200")
    assert r.slots["condition"] == "out_of_place"
    assert r.rows[0]["value"] == pytest.approx(want)
    assert asker.nlu.understand("h200 allreduce oop time at 1 GB").slots.get("metric") == "time"


def test_a_reader_only_phrase_names_a_catalog_operation(asker):
    # seed 000 §5.3: the IPU's aggregate PRNG throughput is 4.9x the V100's ("random number generation" is a
    # typed alias of the catalog's operation prng, which no template names)
    r = asker.ask("How much faster is random number generation on the IPU (speedup)?")
    assert r.slots["operation"] == "prng" and r.slots["metric"] == "speedup"
    assert r.rows[0]["value"] == 4.9 and r.rows[0]["unit"] == "x"


def test_in_house_alone_names_nvidia_s_cluster(asker):
    # ISC 2022 congestion paper: "NVIDIA's in-house cluster"; people (and transcripts of "nvidia inhouse") drop the
    # word "cluster". A typed form, so neither model's training changes.
    v = load_vocabulary(None)
    assert "in-house" in v.surfaces("system", "nvidia_inhouse", "typed")
    assert "in-house" not in v.surfaces("system", "nvidia_inhouse")
    for q in ("worst slowdown in-house with CC on", "worst slowdown inhouse with cc on"):
        r = asker.ask(q)
        assert r.intent == "congestion" and r.slots["system"] == "nvidia_inhouse" and r.rows, q
    r = asker.ask("in-house vs azure slowdown")
    assert [r.slots.get("system"), *r.slots.get("compare_with", [])] == ["nvidia_inhouse", "azure_hpc"]


def test_a_fabric_inside_the_cluster_s_name_is_no_link_type(asker):
    # "in-house" alone names the cluster now, yet "the in-house InfiniBand cluster" is still one name: the fabric
    # is not read as a link type beside it
    r = asker.ask("Does congestion control actually help Incompact3D on the in-house InfiniBand cluster?")
    assert r.intent == "congestion" and r.slots["system"] == "nvidia_inhouse" and "link_type" not in r.slots

