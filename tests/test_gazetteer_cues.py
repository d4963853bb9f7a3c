"""The vocabulary safety net under the tagger, and cue phrases that imply a slot (real vocabulary + catalog)."""
import pytest

from nlu.cues import apply_cues
from nlu.gazetteer import Gazetteer
from nlu.normalize import Normalizer
from nlu.tokens import words
from nlu.vocab import catalog_from_db, load_vocabulary


@pytest.fixture(scope="module")
def gaz(built_db):
    return Gazetteer(Normalizer(load_vocabulary(catalog=catalog_from_db(built_db))))


def _hits(gaz, text, covered=()):
    ws = words(text)
    return {(h.slot, h.value) for h in gaz.hits(ws, set(covered))}


def test_spoken_and_written_aliases_anywhere(gaz):
    assert _hits(gaz, "yme d2h pageable gpu1 1gb") >= {("system", "ac922_yme"), ("operation", "d2h"),
                                                       ("condition", "pageable")}
    assert ("system", "dgx2") in _hits(gaz, "how fast is the envy link on the d g x two")
    assert ("link_type", "NVLink") in _hits(gaz, "how fast is the envy link on the d g x two") or \
        ("condition", "nvlink") in _hits(gaz, "how fast is the envy link on the d g x two")


def test_words_the_tagger_already_read_are_left_alone(gaz):
    ws = words("yme d2h pageable")
    assert {h.slot for h in gaz.hits(ws, {0, 1, 2})} == set()


def test_common_words_alone_name_nothing(gaz):
    got = _hits(gaz, "which systems are loaded and what was measured on them")
    assert not any(slot == "condition" for slot, _ in got)


def test_ambiguous_surface_goes_to_the_slot_the_tagger_prefers(gaz):
    ws = words("nvlink bandwidth on the dgx2")
    cands = {frozenset(f) for a, b, f in gaz.candidates(ws) if a == 0 and b == 1}
    assert cands, "nvlink should be in the vocabulary"
    options = sorted(next(iter(cands)))
    assert options == ["condition", "link_type"], "NVLink names a link type and a recorded condition"
    for want in options:
        got = {h.slot for h in gaz.hits(ws, set(), prefer=lambda opts, at, w=want: w) if h.start == 0}
        assert got == {want}


@pytest.mark.parametrize("text", ["what fraction of the NVLink 2.0 peak does GPU0 to GPU1 reach",
                                  "percent of nominal nvlink bw on dgx1 v100",
                                  "how close does the dgx2 get to the nominal nvswitch bandwidth"])
def test_ratio_against_a_reference_is_efficiency(text):
    slots = {"metric": "bandwidth", "condition": "nominal"}
    apply_cues("link_efficiency", words(text), slots)
    assert slots["metric"] == "efficiency" and "condition" not in slots


def test_peak_alone_is_not_efficiency():
    slots = {"metric": "bandwidth"}
    apply_cues("metric_lookup", words("peak bandwidth on the dgx2"), slots)
    assert slots["metric"] == "bandwidth"


def test_a_precisions_peak_is_a_flop_rate():
    # "peak double precision of the V100s ... spec sheet" asks for FLOP/s, not a ratio to a peak
    slots = {"precision": "fp64", "condition": "spec"}
    apply_cues("metric_lookup", words("Peak double precision of the V100s in the DGX-1 according to the spec sheet"),
               slots)
    assert slots["metric"] == "flops"
    # an operation or a metric said: left alone
    slots = {"precision": "fp16", "operation": "gemm"}
    apply_cues("metric_lookup", words("peak fp16 gemm on the dgx2"), slots)
    assert "metric" not in slots


def test_spec_sheet_double_precision_end_to_end(asker, built_con):
    want = built_con.execute("SELECT value, unit FROM measurements WHERE system_id = 'dgx1_v100' AND metric = 'flops' "
                             "AND precision = 'fp64' AND condition = 'spec'").fetchall()
    r = asker.ask("Peak double precision of the V100s in the DGX-1 according to the spec sheet?")
    assert len(want) == 1 and (r.rows[0]["value"], r.rows[0]["unit"]) == want[0] == (7.8, "TFLOP/s")
    # "spec sheet" (nominal) and "spec" name one stated figure: no "nothing matches" preamble, a note instead
    assert r.answer.startswith("Flops on NVIDIA DGX-1") and "7.80 TFLOP/s" in r.answer
    assert any("read as spec" in n for n in r.notes)


@pytest.mark.parametrize("text,intent,expect", [
    ("bandwidth between each pair of V100s", "pair_matrix", "p2p"),
    ("IPU-to-IPU latency for every pair", "pair_matrix", "p2p"),
    ("host to device bandwidth between runs", "metric_lookup", "h2d"),   # a host copy, never p2p
    ("show the topology of every pair", "topology", None),
])
def test_pairs_of_devices_imply_peer_to_peer(text, intent, expect):
    slots = {}
    apply_cues(intent, words(text), slots)
    assert slots.get("operation") == expect


@pytest.mark.parametrize("slots,expect", [
    ({}, {"dst": "host"}),                                   # "its host" tagged as nothing
    ({"src": "gpu0"}, {"src": "gpu0", "dst": "host"}),
    ({"dst": "gpu3"}, {"src": "host", "dst": "gpu3"}),
    ({"src": "host"}, {"src": "host"}),                      # the tagger read it already
    ({"src": "gpu0", "dst": "gpu1"}, {"src": "gpu0", "dst": "gpu1"}),
])
def test_the_word_host_in_a_topology_question_names_an_end(slots, expect):
    apply_cues("topology", words("what connects the DGX-1 V100 to its host"), slots)
    assert slots == expect


def test_host_is_not_an_end_outside_topology():
    slots = {}
    apply_cues("metric_lookup", words("host to device bandwidth on the dgx1"), slots)
    assert "dst" not in slots and "src" not in slots


def test_sizes_counts_and_devices_anywhere(gaz):
    got = {}
    for h in gaz.hits(words("alltoall busbw 1GiB inplace on both gpus from g p u zero to g p u two"), set()):
        got.setdefault(h.slot, []).append(h.value)
    assert got["msg_bytes"] == [1 << 30]
    assert got["count"] == [(2, "gpus")]
    assert got["endpoint"] == ["gpu0", "gpu2"]
    assert "msg_bytes" not in {h.slot for h in gaz.hits(words("it reached 8 GB/s"), set())}  # a rate is no size


def test_a_condition_phrase_may_extend_a_word_the_tagger_read(gaz):
    ws = words("h200x2 p2p off gpu0 to gpu1")
    hits = {(h.slot, h.value) for h in gaz.hits(ws, {1})}      # the tagger read "p2p" as the operation
    assert ("condition", "p2p_off") in hits
    assert not any(s == "system" for s, _ in {(h.slot, h.value) for h in gaz.hits(ws, {0})})


@pytest.mark.parametrize("text,expect", [
    ("how much of the lammps mpi time goes to allreduce", "share"),
    ("what fraction of the runtime is communication", "share"),
    ("how much time does allreduce take on the dgx2", "time"),          # a time, not a part of one
    ("how much longer does the allreduce take with p2p off", "time"),
])
def test_a_part_of_a_time_is_a_share(text, expect):
    slots = {"metric": "time"}
    apply_cues("metric_lookup", words(text), slots)
    assert slots["metric"] == expect


@pytest.mark.parametrize("text,ranged", [
    ("yme nccl broadcast bw 1 to 4 gpus", True), ("dgx2 nccl reduce 1-6 gpus 256MB", True),
    ("speedup on lassen 8 -> 2048 gpus", True), ("SHOC MaxFlops on the DGX-2 with 1, 2, 4, 8 and 16 GPUs", True),
    ("hanging node overhead 1 node vs 16 nodes", True), ("from one g p u to two g p us", True),
    ("ipu reduce bandwidth up to 19456 tiles", False), ("speed up with four g p us", False),
    ("dgx2 triad bw with 1 2 4 8 16 gpus", True), ("allreduce time at 1 MB on 4 gpus", False),
    ("amoebanet speedup on two thousand and forty eight gpus", False)])
def test_a_range_of_counts_is_the_scaling_axis_not_a_filter(text, ranged):
    slots = {"count": 4, "count_kind": "gpus"}
    apply_cues("scaling", words(text), slots)
    assert ("count" not in slots) == ranged and slots["count_kind"] == "gpus"


@pytest.mark.parametrize("text,expect", [
    ("minisummit maxspflops gpu1 alone", {"count": 1, "count_kind": "gpus"}),
    ("SHOC triad bandwidth for Yme's GPU 2 on its own?", {"count": 1, "count_kind": "gpus"}),
    ("what's the max flops of g p u zero on yme when it runs by itself", {"count": 1, "count_kind": "gpus"}),
    ("ipu5 latency on its own", {}),                   # no GPU named: nothing is implied
])
def test_a_gpu_on_its_own_is_the_single_gpu_run(text, expect):
    slots: dict = {}
    apply_cues("metric_lookup", words(text), slots)
    assert slots == expect


def test_word_order_names_a_host_copy():
    from nlu.cues import apply_cues
    s = {"dst": "gpu15", "metric": "bandwidth"}
    apply_cues("metric_lookup", "dgx-2 : host to gpu15 bandwidth".split(), s)
    assert s["operation"] == "h2d"
    s = {"src": "gpu2", "metric": "bandwidth"}
    apply_cues("metric_lookup", "bandwidth from gpu2 to the host".split(), s)
    assert s["operation"] == "d2h"
    s = {"src": "gpu0", "dst": "host"}
    apply_cues("topology", "what connects gpu0 to the host".split(), s)
    assert "operation" not in s                    # a path question, not a copy
    s = {"src": "gpu0", "dst": "gpu1"}
    apply_cues("metric_lookup", "gpu0 to gpu1 bandwidth".split(), s)
    assert s.get("operation") != "h2d" and s.get("operation") != "d2h"


def test_a_host_end_is_not_taken_for_the_other_end(asker):
    # "host to GPU15 ... host memory": the second "host" must not turn GPU15 into the source
    u = asker.nlu.understand("DGX-2 host to GPU15 bandwidth with write-combined host memory")
    assert u.slots.get("dst") == "gpu15" and u.slots.get("operation") == "h2d" and "src" not in u.slots


def test_a_spelled_gpu_after_a_number_is_no_gigabyte(gaz):
    got = {(h.slot, h.value) for h in gaz.hits(words("broadcast bandwidth on two g p us"), set())}
    assert ("count_kind", "gpus") in got and not any(s == "msg_bytes" for s, _ in got)
    got = {(h.slot, h.value) for h in gaz.hits(words("broadcast bandwidth at two g"), set())}
    assert ("msg_bytes", 2 << 30) in got                              # "two g" alone is still a size


@pytest.mark.parametrize("text,shape", [("the sixteen by sixteen latency grid on heid", True),
                                        ("dgx2 16x16 bandwidth matrix", True),
                                        ("bandwidth matrix of the 8 gpus", False)])
def test_n_by_n_is_the_matrix_shape_not_a_count(text, shape):
    slots = {"count": 16, "count_kind": "gpus"}
    apply_cues("pair_matrix", words(text), slots)
    assert ("count" not in slots) == shape


@pytest.mark.parametrize("text,kept", [("which systems are loaded?", False), ("what is currently loaded", False),
                                       ("is there any nccl-tests data loaded", False),
                                       ("list the ipu runs under load", True),
                                       ("which ipu measurements are under load", True)])
def test_data_that_is_loaded_is_no_load_condition(text, kept):
    slots = {"condition": "under_load"}
    apply_cues("list_data", words(text), slots)
    assert ("condition" in slots) == kept


@pytest.mark.parametrize("text,kept", [("systems of the 2019 GPU interconnect thesis", False),
                                       ("allreduce time on 2000 gpus", True),         # plural: counted
                                       ("resnet training time on 2048 GPUs", True),
                                       ("speedup from 1 to 2019 gpus", True)])
def test_a_year_before_a_singular_noun_is_no_count(text, kept):
    slots = {"count": int(next(w for w in words(text) if w.isdigit() and int(w) > 1)), "count_kind": "gpus"}
    apply_cues("list_data", words(text), slots)
    assert ("count" in slots) == kept
