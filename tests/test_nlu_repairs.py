"""The reader's repairs around the tagger: typos, counts beside sizes, host-transfer ends, phrases
tagged in pieces and ambiguous system names. Unit checks on the real vocabulary, then whole questions
through the real trained model and database."""
import pytest

from nlu.model import base_encoder_dir
from nlu.pipeline import device_end, repair_tags, span_bounds
from nlu.spelling import Speller, english_words, lexicon_words
from nlu.vocab import load_vocabulary


@pytest.fixture(scope="module")
def speller():
    from transformers import AutoTokenizer
    tok = AutoTokenizer.from_pretrained(str(base_encoder_dir()), local_files_only=True)
    return Speller(lexicon_words(load_vocabulary(None)), english_words(tok))


@pytest.mark.parametrize("typo,fixed", [("efficency", "efficiency"), ("bandwith", "bandwidth"), ("laod", "load"),
                                        ("scalling", "scaling"), ("brodcast", "broadcast"), ("pagable", "pageable"),
                                        ("congesiton", "congestion"), ("topolgy", "topology")])
def test_typos_of_domain_words_are_repaired(speller, typo, fixed):
    assert speller.correct(typo) == fixed


@pytest.mark.parametrize("word", ["lammps", "xlink", "kernels", "gpus", "VASP", "f214", "gpu0", "Heid", "idle",
                                  "quick", "the", "amoebanet", "wat", "megabytes", "kibibytes", "gigabits",
                                  "hw"])   # ("dgx2 hw specs": hardware, not "how")
def test_known_words_names_and_ids_are_left_alone(speller, word):
    assert speller.correct(word) is None


def test_host_transfers_put_the_gpu_on_the_device_end():
    s = {"operation": "h2d", "src": "gpu2"}
    device_end(s)
    assert s == {"operation": "h2d", "dst": "gpu2"}
    s = {"operation": "d2h", "dst": "gpu1", "src": "host"}
    device_end(s)
    assert s == {"operation": "d2h", "src": "gpu1"}
    s = {"operation": "p2p", "src": "gpu0"}
    device_end(s)
    assert s == {"operation": "p2p", "src": "gpu0"}


def test_a_vocabulary_phrase_tagged_in_pieces_becomes_one_span():
    tags = ["B-system", "O", "B-condition", "I-count_kind", "I-condition"]
    cands = [(2, 5, {"condition": "tensor_cores_off"})]
    assert span_bounds(repair_tags(tags, cands)) == [("system", 0, 1), ("condition", 2, 5)]
    # a phrase with an untagged word is not the tagger's span: unchanged
    assert repair_tags(["B-condition", "O"], [(0, 2, {"condition": "x"})]) == ["B-condition", "O"]


@pytest.fixture(scope="module")
def nlu(asker):
    return asker.nlu


def test_a_bare_number_before_a_count_word_is_a_count(nlu):
    u = nlu.understand("speedup of resnet training on 2048 gpus on lassen")
    assert u.slots.get("count") == 2048 and u.slots.get("count_kind") == "gpus"
    assert "msg_bytes" not in u.slots


def test_tensor_cores_are_a_condition_not_a_count_kind(nlu):
    u = nlu.understand("dgx2 gemm time with tensor cores disabled")
    assert u.slots.get("condition") == "tensor_cores_off"
    assert "count_kind" not in u.slots


def test_an_ambiguous_system_is_settled_by_the_rest_of_the_question(nlu):
    assert nlu.understand("p100 hbm2 bandwidth on the dgx-1").slots.get("system") == "dgx1_p100"
    u = nlu.understand("the V100s in the DGX-1: peak fp64")
    assert u.slots.get("system") == "dgx1_v100" and "compare_with" not in u.slots


def test_an_ambiguous_system_without_context_takes_the_first_and_says_so(asker):
    res = asker.ask("what links connect the two sockets in the AC922")
    assert res.slots.get("system") == "ac922_tum"
    assert any("AC922" in n and "ac922_yme" in n for n in res.notes)


def test_a_typo_does_not_hide_the_slot(nlu):
    u = nlu.understand("dgx2 d2d bandwith pinned")
    assert u.slots.get("metric") == "bandwidth"


def test_a_device_id_read_as_a_system_name_is_an_endpoint_of_its_system(nlu):
    # whether the tagger reads "ipu2" as a system or a source, only one system has an ipu2 and an ipu7
    u = nlu.understand("ipu2->ipu7 bw when the chip is under load")
    assert (u.slots.get("src"), u.slots.get("dst"), u.slots.get("system")) == ("ipu2", "ipu7", "ipu16")
    assert not [s for s in u.unresolved if s[0] == "system"]


def test_device_to_host_in_words_is_the_copy_with_its_gpu_end(nlu):
    u = nlu.understand("gtx980 device to host pageable 1 gigabyte g p u zero")
    assert u.slots.get("operation") == "d2h" and u.slots.get("msg_bytes") == 1 << 30
    assert u.slots.get("src") == "gpu0" and u.slots.get("dst") != "host"


def test_a_number_with_a_size_unit_is_a_size_not_a_count(nlu):
    u = nlu.understand("Yme h2d pinned 1GiB gpu3")
    assert u.slots.get("msg_bytes") == 1 << 30 and "count" not in u.slots
    assert u.slots.get("dst") == "gpu3"


def test_a_size_in_words_keeps_its_unit(nlu):
    # "megabytes" once became "gigabytes" in the speller, a 1024x wrong size
    assert nlu.understand("all reduce time at sixty four megabytes on the dgx2").slots["msg_bytes"] == 64 * 2**20


def test_spoken_device_numbers_are_mended():
    from nlu.pipeline import mend_endpoint_spans
    w = "tile six four six to tile zero latency".split()
    tags = ["B-src", "I-src", "I-dst", "I-dst", "O", "B-dst", "I-dst", "B-metric"]
    assert mend_endpoint_spans(span_bounds(tags), w, tags) == [("src", 0, 4), ("dst", 5, 7), ("metric", 7, 8)]
    w = "g p u zero to g p u two one direction".split()
    tags = ["B-src"] + ["I-src"] * 3 + ["O", "B-dst"] + ["I-dst"] * 4 + ["I-direction"]
    assert mend_endpoint_spans(span_bounds(tags), w, tags)[:2] == [("src", 0, 4), ("dst", 5, 9)]


def test_one_direction_is_not_a_digit_of_the_device(nlu):
    u = nlu.understand("yme g p u zero to g p u two one direction envy link bandwidth")
    assert (u.slots["src"], u.slots["dst"], u.slots["direction"]) == ("gpu0", "gpu2", "uni")


def test_two_devices_tagged_as_one_end_are_both_ends(nlu):
    u = nlu.understand("What's the latency between IPU7 and IPU10 on the Graphcore system?")
    assert (u.slots.get("src"), u.slots.get("dst")) == ("ipu7", "ipu10")


@pytest.mark.parametrize("question,operation", [
    ("minisumit triad bw gpu1 single gpu", "triad_bw"),            # SHOC's Triad app measures triad_bw
    ("supermuc-ng triad bw 48 cores", "triad"),                    # no Triad app there: STREAM's triad operation
    ("SHOC MaxFlops, single precision, on DGX-2 GPU 8 running alone?", "maxspflops")])   # precision picks
def test_a_benchmark_named_for_its_kernel_is_the_operation(nlu, question, operation):
    s = nlu.understand(question).slots
    assert s.get("operation") == operation and "app" not in s


def test_a_word_of_another_slot_inside_a_tagged_span_stays_free(nlu):
    # the tagger may read "barrier time" as one metric span; "time" alone names the metric, and the
    # vocabulary reads "barrier" as an operation, which must not be swallowed by the metric
    words = "show the barrier time on the xmp64".split()
    cands = nlu.gazetteer.candidates(words)
    assert list(nlu._named_words(words, cands, "metric", "time", 2, 4)) == [3]
    # a span whose words all name its own value is covered whole
    assert list(nlu._named_words(words, cands, "system", "xmp64", 6, 7)) == [6]


def test_an_operation_measured_one_way_only_gives_the_metric(asker):
    from nlu.implied import infer_implicit
    cat = asker.nlu.catalog
    s = {"system": "dgx2", "operation": "maxspflops"}            # SHOC MaxFlops: stored as flops only
    infer_implicit("metric_lookup", s, cat)
    assert s["metric"] == "flops"
    ops = {m for m in cat.op_metrics("dgx2", "p2p")}
    assert len(ops) > 1                                          # p2p on the DGX-2: bandwidth and latency
    s = {"system": "dgx2", "operation": "p2p"}
    infer_implicit("metric_lookup", s, cat)
    assert "metric" not in s                                     # left open for the planner
    s = {"system": "xmp64", "operation": "barrier"}
    infer_implicit("topology", s, cat)                           # not a measurement question
    assert "metric" not in s


def test_a_part_that_shares_the_rest_of_its_name_names_a_second_system(nlu):
    # "p100" alone names no system; beside "v100 dgx1" it is the DGX-1 with P100s, asked about first
    u = nlu.understand("p100 vs v100 dgx1 nvlink bw")
    assert (u.slots.get("system"), u.slots.get("compare_with")) == ("dgx1_p100", ["dgx1_v100"])
    assert u.intent == "compare_systems"


def test_shared_head_systems_only_takes_another_systems_name(nlu):
    from nlu.pipeline import shared_head_systems
    words = "the p100 and v100 dgx1 machines".split()
    span = ("system", "the p100", 0, 2)
    assert shared_head_systems(words, [span], [(3, 5, "dgx1_v100")], nlu.norm) == [(span, "dgx1_p100")]
    words = "the banana and v100 dgx1".split()
    assert shared_head_systems(words, [("system", "the banana", 0, 2)], [(3, 5, "dgx1_v100")], nlu.norm) == []


def test_a_number_after_a_numbered_device_is_not_part_of_its_id(nlu):
    # "gpu15 1gpu": the 1 counts GPUs; the id is gpu15, not gpu151
    assert nlu.norm.endpoint("gpu15 1") == "gpu15"
    assert nlu.norm.endpoint("g p u one five") == "gpu15"       # spoken digits are still one number
    assert nlu.norm.endpoint("tile six four six") == "tile646"


def test_a_bare_number_after_a_device_word_is_its_number():
    from nlu.pipeline import mend_endpoint_spans
    w = "triad bandwidth for yme GPU 2 on its own".split()
    tags = ["O", "B-metric", "O", "B-system", "B-src", "B-msg_bytes", "O", "O", "O"]
    assert mend_endpoint_spans(span_bounds(tags), w, tags) == [("metric", 1, 2), ("system", 3, 4), ("src", 4, 6)]
    # a device that already has its number keeps it; the size stays a size
    w = "gpu2 64 MB".split()
    tags = ["B-src", "B-msg_bytes", "I-msg_bytes"]
    assert mend_endpoint_spans(span_bounds(tags), w, tags) == [("src", 0, 1), ("msg_bytes", 1, 3)]


def test_a_broken_tag_run_inside_a_vocabulary_phrase_is_that_phrase():
    # "speech | query" tagged B-app I-condition: the tagger read a condition going on, the vocabulary names one
    tags = ["B-app", "I-condition", "B-metric", "O", "B-system"]
    cands = [(0, 2, {"condition": "speech_query"}), (0, 1, {"app": "speech"})]
    assert span_bounds(repair_tags(tags, cands))[0] == ("condition", 0, 2)
    # no I- tag of the phrase's slot: left as tagged
    assert repair_tags(["B-app", "B-metric"], [(0, 2, {"condition": "x"})]) == ["B-app", "B-metric"]


def test_a_number_word_tagged_as_a_count_before_a_size_unit_is_a_size(nlu):
    from nlu.pipeline import _bare_number
    assert _bare_number(["one"]) and _bare_number(["2048"]) and not _bare_number(["gpu"])
    u = nlu.understand("allreduce busbw on the h200 pair at one gigabyte")
    assert u.slots.get("msg_bytes") == 1 << 30 and "count" not in u.slots


def test_a_plain_time_after_an_operation_is_the_metric(nlu):
    u = nlu.understand("what's the all gather time on the h200 pair at four megabytes")
    assert u.slots.get("operation") == "allgather" and u.slots.get("metric") == "time"


def test_spelled_gpus_after_a_number_are_counted_not_gigabytes(nlu):
    u = nlu.understand("what speed up does r s bench reach on the google cloud t fours with two g p us")
    assert "msg_bytes" not in u.slots
    assert u.slots.get("count") == 2 and u.slots.get("count_kind") == "gpus"


def test_what_is_counted_needs_a_count_outside_scaling(nlu):
    u = nlu.understand("how close to nominal is the nvlink bandwidth between gpus on the dgx1 v100")
    assert "count_kind" not in u.slots and "count" not in u.slots


def test_two_sizes_bound_a_sweep(nlu):
    u = nlu.understand("how does yme's host to device bandwidth change from 4 KB up to 1 GB")
    assert u.intent == "size_sweep" and "msg_bytes" not in u.slots
    u = nlu.understand("yme host to device bandwidth over message sizes, and what is it at 1 MB")
    assert u.slots.get("msg_bytes") in (None, 1 << 20)              # one size alone may stay as a point


def test_an_operation_phrase_that_says_the_precision_keeps_it(nlu):
    u = nlu.understand("titan rtx maxflops, double precision")
    assert u.slots.get("operation") == "maxdpflops" and u.slots.get("precision") == "fp64"


def test_a_copy_without_a_metric_is_asked_by_bandwidth(asker):
    r = asker.ask("gtx 980 pinned d2h at 1 GB")
    assert r.slots.get("metric") == "bandwidth" and r.rows and r.rows[0]["unit"] == "GB/s"
    assert any("no metric given" in n for n in r.notes)


def test_peer_access_switched_names_peer_to_peer(nlu):
    u = nlu.understand("latency heat map on the h200 node with peer-to-peer access disabled")
    assert u.slots.get("condition") == "p2p_off" and u.slots.get("operation") == "p2p"


def test_a_plain_measurement_with_no_link_is_no_link_efficiency(asker):
    r = asker.ask("what triad bandwidth does g p u three of yme reach by itself")
    assert r.intent == "metric_lookup" and r.rows and r.rows[0]["unit"] == "GB/s"
    assert r.slots.get("src") == "gpu3" and r.slots.get("operation") == "triad_bw"


def test_a_device_id_read_as_a_link_is_an_endpoint(nlu):
    u = nlu.understand("Which PCIe switch sits above IPU7?")
    assert u.slots.get("src") == "ipu7" and u.slots.get("system") == "ipu16"


def test_a_link_mode_bandwidth_without_a_reference_is_a_lookup(asker):
    r = asker.ask("NVLink-mode unidirectional bandwidth from GPU3 to GPU9 on the DGX-2?")
    assert r.intent == "metric_lookup" and r.rows and r.rows[0]["unit"] == "GB/s"
    r = asker.ask("How close to nominal is the NVLink bandwidth from GPU3 to GPU9 on the DGX-2?")
    assert r.intent == "link_efficiency"


def test_a_counted_gpu_model_is_no_second_system(nlu):
    u = nlu.understand("Measured memcpy bandwidth of one V100 on Summit?")
    assert u.slots.get("system") == "summit" and "compare_with" not in u.slots
    assert u.slots.get("count") == 1 and u.slots.get("count_kind") == "gpus"
    # a number said right before a GPU model counts GPUs whatever the tagger made of it; the "1" of "DGX-1 V100"
    # is part of a name
    u = nlu.understand("the dgx-1 with 8 v100s nvlink bw")
    assert (u.slots.get("system"), u.slots.get("count"), u.slots.get("count_kind")) == ("dgx1_v100", 8, "gpus")
    assert "count" not in nlu.understand("DGX-1 V100 nvlink bw gpu0 to gpu1").slots


def test_a_family_name_keeps_the_answer_to_that_family(asker):
    r = asker.ask("hy-fi speedup for resnet on lassen at 1024 gpus")
    assert r.slots.get("app") == ["resnet110", "resnet218v2"]
    assert r.rows and all(str(row.get("app") or row.get("variant")).startswith("resnet") for row in r.rows)
    assert any("read as any of resnet110, resnet218v2" in n for n in r.notes)


def test_sizes_as_the_axis_make_a_sweep_not_a_lookup(nlu):
    # "by msg size" asks for the curve (an earlier model read this one as a single lookup, a count and no size,
    # which the rule turned; session 25's model reads the sweep itself)
    u = nlu.understand("dgx2 broadcast time by msg size 4 gpus")
    assert u.intent == "size_sweep" and "msg_bytes" not in u.slots
    assert u.slots["count"] == 4 and u.slots["operation"] == "broadcast"
    # one size given: a point on the curve stays a lookup
    assert nlu.understand("dgx2 broadcast time at 1 MB on 4 gpus").intent == "metric_lookup"


def test_a_gpu_model_that_completes_the_named_systems_name_is_the_other_system(nlu):
    # a bare "V100" is ambiguous (a GPU, the IPU paper's V100 reference) and shares "100" with "P100": it used
    # to be taken for a qualifier of the DGX-1 P100 and dropped
    u = nlu.understand("is the dgx-1 p100 faster than the v100 model for h2d bandwidth")
    assert u.slots["system"] == "dgx1_p100" and u.slots.get("compare_with") == ["dgx1_v100"]
    # a GPU model inside the system that has it stays a qualifier
    u = nlu.understand("nvlink bandwidth between the V100s in the DGX-1 V100")
    assert u.slots["system"] == "dgx1_v100" and "compare_with" not in u.slots


def test_the_processor_of_a_named_system_is_no_second_system(nlu):
    # Lassen's and Summit's GPUs are V100s (their component labels): "V100" qualifies them, it is not the
    # V100 reference system as a third side
    u = nlu.understand("Summit vs Lassen: measured V100 memory bandwidth")
    assert u.slots["system"] == "summit" and u.slots.get("compare_with") == ["lassen"]
    assert "compare_with" not in nlu.understand("Lassen, bandwidth between each pair of V100s in a node.").slots
    # a comparison word beside it makes it a side of its own
    assert "nvidia_v100_gpu" in nlu.understand("Summit versus V100 memory bandwidth").slots.get("compare_with", [])
    # a Xeon model the named system does not have is still a system
    assert nlu.understand("dgx2 vs xeon platinum 8280 memory bandwidth").slots.get("compare_with")


def test_an_ambiguous_name_takes_the_candidate_with_the_data_and_keeps_its_place(nlu):
    # "V100" is the SU3_Bench reference GPU or the IPU paper's V100 reference; only the latter has GEMM
    u = nlu.understand("V100 vs IPU gemm flops")
    assert u.slots["system"] == "nvidia_v100_ref" and u.slots["compare_with"] == ["ipu16"]
    # with nothing to tell them apart, the first candidate, said so
    u = nlu.understand("V100 vs Summit memory bandwidth")
    assert u.slots["system"] == "nvidia_v100_gpu" and u.slots["compare_with"] == ["summit"]   # order as said
    assert any("could mean" in n for n in u.notes)


def test_both_sides_of_a_condition_pair_ask_for_the_difference(nlu):
    # naming congestion-free and under load asks how they differ (an earlier model read this as a pair matrix,
    # which the rule turned and ruled out; session 25's model reads the congestion question itself)
    u = nlu.understand("pairwise ipu latency congestion-free and under load")
    assert u.intent == "congestion"
    # one side alone is a filter
    assert nlu.understand("pairwise ipu latency under load").intent == "pair_matrix"


def test_an_ambiguous_system_is_settled_by_another_ambiguous_name(nlu):
    # "v100" (a GPU or the IPU paper's reference) and "dgx1" (P100 or V100) are both ambiguous; together they
    # name the DGX-1 with V100s, not the first DGX-1 candidate
    u = nlu.understand("v100 nvlink bandwidth on the dgx1")
    assert u.slots["system"] == "dgx1_v100" and "compare_with" not in u.slots


def test_a_part_said_apart_from_the_shared_head_names_the_other_system(nlu):
    # as a transcript writes it: "V100, DGX-1" is found by the vocabulary, "P100" alone names nothing
    u = nlu.understand("P100 vs V100, DGX-1: NVLink bandwidth.")
    assert u.slots["system"] == "dgx1_p100" and u.slots.get("compare_with") == ["dgx1_v100"]


def test_a_word_only_one_system_has_names_it_unless_an_unknown_system_is_named(nlu, asker):
    # "tiles" alone: only the IPU system counts tiles
    assert nlu.understand("bandwidth between two tiles").slots.get("system") == "ipu16"
    # Aurora is not in the database: its tiles are not the IPU's, and no IPU number may answer
    u = nlu.understand("bandwidth between two tiles on Aurora")
    assert "system" not in u.slots and ("system", "Aurora") in u.unresolved
    r = asker.ask("bandwidth between two tiles on Aurora")
    assert r.intent == "out_of_scope" and not r.rows and "Aurora" in r.answer


def test_the_diagonal_of_a_pair_matrix_is_one_cell_a_device_to_itself(asker):
    # datasets/raw/h200x2/p2pBandwidthLatencyTest.txt, "Unidirectional P2P=Enabled" matrix, row 1 column 1
    r = asker.ask("h200 bandwidth matrix, gpu1 copying to itself, p2p enabled")
    assert r.intent == "metric_lookup"
    assert (r.slots["src"], r.slots["dst"], r.slots["operation"]) == ("gpu1", "gpu1", "d2d")
    assert r.rows[0]["value"] == pytest.approx(3970.78)
    # "on its own" is one GPU run alone, not a copy to itself
    u = asker.nlu.understand("triad bandwidth of gpu 3 on the dgx-2 running on its own")
    assert u.slots.get("dst") != "gpu3"


def test_which_systems_have_something_lists_the_systems(asker, built_con):
    # read by the model as a pair matrix with no system: the systems are the answer, not a missing slot
    r = asker.ask("Which GPU systems have full peer-to-peer bandwidth matrices?")
    assert r.intent == "list_data"
    want = {s for (s,) in built_con.execute("SELECT DISTINCT system_id FROM measurements "
                                            "WHERE operation = 'p2p' AND metric = 'bandwidth'").fetchall()}
    assert {row["system_id"] for row in r.rows} == want
    # a system named ("the dgx-2 or the h200 node") keeps the model's reading
    assert asker.ask("which machines have faster all-reduce, the dgx-2 or the h200 node").intent == "compare_systems"


def test_the_count_a_curve_runs_over_is_its_axis_and_with_the_metric_names_the_system(asker, built_con):
    from app import catalog
    from nlu.implied import infer_implicit
    u = asker.nlu.understand("profiler slowdown as the process count grows")
    assert u.slots.get("metric") == "slowdown" and u.slots.get("count_kind") == "processes"
    cat = catalog.load(built_con)
    # only one system stores both a slowdown and counts of processes
    want = {sid for sid, ms in cat.metrics.items() if "slowdown" in ms} & cat.owners[("count_kind", "processes")]
    assert len(want) == 1 and u.slots.get("system") == next(iter(want))
    # many systems measure p2p bandwidth: none is guessed
    slots = {"metric": "bandwidth", "operation": "p2p"}
    infer_implicit("metric_lookup", slots, cat)
    assert "system" not in slots


def test_the_rate_of_a_kind_of_link_is_read_from_the_graph(asker, built_con):
    r = asker.ask("what is the per-port rate of infiniband on ri2")
    assert r.intent == "topology"
    stored = built_con.execute("SELECT DISTINCT bw_gbps_per_dir FROM links WHERE system_id = 'ri2' "
                               "AND link_type = 'InfiniBand'").fetchall()
    assert stored == [(12.5,)] and "12.5 GB/s per direction" in r.answer
    # a measurement asked for ("the fastest pair") stays one
    assert asker.ask("fastest gpu pair on yme over nvlink?").intent == "metric_lookup"


def test_the_fastest_pair_is_two_devices_not_a_diagonal_cell(asker, built_con):
    # the pair itself, not Tartan's Listing 30 diagonal (seed 003; a GPU to itself, ~740 GB/s, stored as d2d)
    r = asker.ask("fastest gpu pair on yme over nvlink?")
    top = r.rows[0]
    assert top["src"] != top["dst"]
    (best,), = built_con.execute(
        "SELECT max(value) FROM measurements WHERE system_id = 'ac922_yme' AND operation = 'p2p' "
        "AND metric = 'bandwidth' AND condition = 'nvlink' AND direction = 'uni' AND msg_bytes = $b "
        "AND src <> dst", {"b": top["msg_bytes"]}).fetchall()
    assert top["value"] == best < 100


def test_a_message_size_is_no_part_of_a_trace_breakdown(asker, built_con):
    # the nccl-tests binary name and "time" pull toward the trace; a trace's breakdown holds no message sizes,
    # so the size makes it the benchmark's point (datasets/raw/h200x2/all_reduce_perf_g2.txt)
    r = asker.ask("all_reduce_perf on one of the H200s: in-place time at 1 GB")
    assert r.intent == "metric_lookup"
    assert (r.slots["operation"], r.slots["msg_bytes"], r.slots["condition"]) == ("allreduce", 2 ** 30, "in_place")
    stored = {v for (v,) in built_con.execute(
        "SELECT value FROM measurements WHERE system_id = 'h200x2' AND operation = 'allreduce' AND metric = 'time' "
        "AND msg_bytes = $b AND condition = 'in_place'", {"b": 2 ** 30}).fetchall()}
    assert r.rows[0]["value"] in stored
    # a trace question without a size stays one
    assert asker.ask("where does the time go in the h200 pytorch trace?").intent == "trace_breakdown"


def test_the_congestion_free_value_alone_is_looked_up(asker, built_con):
    # the baseline named with nothing set against it is one value (seed 000, IPU5 -> IPU4: 4.99 GB/s), not what
    # load does to it
    r = asker.ask("ipu16 ipu5->ipu4 bw congestion free")
    assert r.intent == "metric_lookup"
    assert (r.slots["src"], r.slots["dst"], r.slots["condition"]) == ("ipu5", "ipu4", "congestion_free")
    stored = {v for (v,) in built_con.execute(
        "SELECT value FROM measurements WHERE system_id = 'ipu16' AND operation = 'p2p' AND metric = 'bandwidth' "
        "AND src = 'ipu5' AND dst = 'ipu4' AND condition = 'congestion_free'").fetchall()}
    assert r.rows[0]["value"] in stored
    # set against the loaded side, it is the congestion comparison
    assert asker.ask("ipu16 ipu5->ipu4 bw congestion free vs under load").intent == "congestion"


def test_what_congestion_does_to_a_transfer_is_the_congestion_question(asker):
    # read as a lookup of the stored slowdown before; the words ask what congestion does, which the congestion
    # planner answers from both sides of seed 000's tables (IPU5 -> IPU6 latency 0.779 us congestion-free)
    r = asker.ask("How much does congestion slow down transfers from IPU5 to IPU6?")
    assert r.intent == "congestion"
    lat = [x for x in r.rows if x["metric"] == "latency" and (x["src"], x["dst"]) == ("ipu5", "ipu6")]
    assert lat and lat[0]["base_value"] == pytest.approx(0.779) and lat[0]["stress_value"] > lat[0]["base_value"]


@pytest.mark.parametrize("question, order", [
    ("compare maxflops gtx980 yme minisummit dgx2", ["gtx980", "ac922_yme", "ac922_minisummit", "dgx2"]),
    ("compare download bw yme dgx2 minisummit titan", ["ac922_yme", "dgx2", "ac922_minisummit", "titan_rtx"]),
])
def test_a_comparison_keeps_the_order_said_whichever_way_each_name_was_found(asker, question, order):
    # some names the tagger resolves, others (run together into one span) only the vocabulary finds: all of
    # them stand in the order said, the first being the system asked about
    u = asker.nlu.understand(question)
    assert u.intent == "compare_systems"
    assert [u.slots["system"], *u.slots["compare_with"]] == order
