"""Ways of asking that the reader and the asker once read wrong (session 43, from the fifth set's misses, each
tested with other words): a run's setting named "size", a slip in a numbered name, "@" before a number, a kernel
named inside a benchmark's name, a count as the axis said with "by", one part's figure said with "each" or spelled
letters, a share of operations, "share" as a verb, a fraction of a link's bandwidth, the inventory of kinds of things,
where a curve levels off, what congestion control does, the slowdowns of every app, the curves of two libraries,
load given as devices sending at once, and a count of devices a machine does not have.
Real model, real built database; numbers are checked with separate SQL."""
import pytest


def _one(con, sql, *params):
    return con.execute(sql, list(params)).fetchone()


def test_a_batch_size_is_a_setting_of_the_run_not_a_sweep(asker, built_con):
    res = asker.ask("resnet152 batch size, dgx-1 v100")
    assert res.intent == "metric_lookup", (res.intent, res.answer)
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'dgx1_v100' AND app = 'resnet152' "
                              "AND metric = 'batch_size'")
    assert res.rows and res.rows[0]["value"] == pytest.approx(want)


def test_a_slip_in_the_letters_of_a_numbered_name_is_repaired(asker, built_con):
    res = asker.ask("googlneet batch size on the dgx-1 p100")
    assert res.slots.get("app") == "googlenet", res.slots
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'dgx1_p100' AND app = 'googlenet' "
                              "AND metric = 'batch_size'")
    assert res.rows and res.rows[0]["value"] == pytest.approx(want)


def test_a_numbered_name_keeps_its_number(asker):
    from nlu.spelling import Speller
    sp = Speller(["inception3", "inception4", "resnet50"], known=["the"])
    assert sp.correct("inceptoin3") == "inception3"
    assert sp.correct("inception5") is None          # another number is another name, never rewritten
    assert sp.correct("resnet50") is None            # a known name stays


def test_an_at_sign_before_a_number_is_at(asker):
    res = asker.ask("h200 reduce_scatter busbw @256M in-place")
    assert res.slots.get("msg_bytes") == 256 * 2 ** 20, res.slots
    res = asker.ask("supermuc-ng triad bw @48 cores")
    assert res.slots.get("count") == 48 and res.slots.get("count_kind") == "cores", res.slots


def test_a_kernel_named_inside_a_benchmark_name_is_the_operation(asker, built_con):
    res = asker.ask("what does stream triad reach on supermuc-ng")
    assert res.slots.get("operation") == "triad" and "app" not in res.slots, res.slots
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'supermuc_ng' AND operation = 'triad'")
    assert res.rows and res.rows[0]["value"] == pytest.approx(want)


def test_a_count_said_as_the_axis_is_scaling_not_a_parts_count(asker):
    res = asker.ask("yme stencil2d gflops by gpu count")
    assert res.intent == "scaling", (res.intent, res.answer)
    # the count of a part, asked alone, is still the topology's
    assert asker.ask("dgx2 gpu count").intent == "topology"


@pytest.mark.parametrize("question", [
    "how much power does each i p u draw on the graphcore box",
    "nominal watts per ipu, graphcore system",
])
def test_one_parts_figure_is_looked_up(asker, built_con, question):
    res = asker.ask(question)
    assert res.intent == "metric_lookup", (question, res.intent, res.answer)
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'ipu16' AND metric = 'power'")
    assert res.rows and res.rows[0]["value"] == pytest.approx(want)


def test_a_figure_per_gpu_said_in_letters_is_no_curve(asker):
    res = asker.ask("d g x one v one hundred single precision teraflops per g p u")
    assert res.intent == "metric_lookup" and "count_kind" not in res.slots, (res.intent, res.slots)


def test_a_fraction_of_operations_is_a_share(asker, built_con):
    res = asker.ask("on yme, what percentage of gemm kernels ran on tensor cores")
    assert res.slots.get("metric") == "share", res.slots
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'ac922_yme' AND metric = 'share' "
                              "AND operation = 'gemm'")
    assert res.rows and res.rows[0]["value"] == pytest.approx(want)


def test_to_share_a_link_is_how_parts_connect(asker):
    res = asker.ask("on mini summit, which gpus share an nvlink with each cpu")
    assert res.intent == "topology" and res.slots.get("metric") != "share", (res.intent, res.slots)
    # a share of a link's bandwidth is still a ratio
    res = asker.ask("what share of the nvlink bandwidth do yme gpu pairs reach")
    assert res.intent == "link_efficiency", (res.intent, res.answer)


def test_a_fraction_of_a_links_bandwidth_is_its_efficiency(asker):
    res = asker.ask("what percentage of the nvswitch bandwidth do gpu pairs of the dgx-2 reach")
    assert res.intent == "link_efficiency" and res.slots.get("metric") == "efficiency", (res.intent, res.slots)


@pytest.mark.parametrize("question", [
    "which pytorch traces are loaded, and how many ranks each",
    "dgx2 collectives + sizes stored?",
])
def test_kinds_of_things_asked_as_stored_are_the_inventory(asker, question):
    res = asker.ask(question)
    assert res.intent == "list_data", (question, res.intent, res.answer)


def test_where_a_curve_levels_off_is_read_from_the_sweep(asker):
    res = asker.ask("does yme gpu0 to gpu1 bandwidth level off before 16 MB?")
    assert res.intent == "size_sweep", (res.intent, res.answer)
    assert res.slots.get("size_range") == [None, 16 * 2 ** 20] and "msg_bytes" not in res.slots, res.slots
    assert all(r["msg_bytes"] <= 16 * 2 ** 20 for r in res.rows)


def test_what_congestion_control_does_for_two_clusters(asker):
    res = asker.ask("what does congestion control buy lammps on the in-house cluster versus azure")
    assert res.intent == "congestion", (res.intent, res.answer)


def test_the_slowdowns_of_every_app_with_cc_named_are_the_congestion_question(asker):
    res = asker.ask("in-house cluster slowdown factors, 3 apps, cc on")
    assert res.intent == "congestion" and "top_n" not in res.slots, (res.intent, res.slots)
    # a ranking word still makes a top list
    assert asker.ask("top 3 kernels in the h200 trace").slots.get("top_n") == 3


def test_two_libraries_and_scaling_said_is_the_curve(asker):
    res = asker.ask("chifflot tarantella vs horovod scaling efficiency")
    assert res.intent == "scaling", (res.intent, res.answer)


def test_devices_sending_at_once_is_load_and_what_happens_is_congestion(asker):
    res = asker.ask("on the ipu box, what happens to ipu5 -> ipu6 bandwidth when 1216 tiles transmit at once")
    assert res.intent == "congestion" and res.slots.get("condition") == "under_load", (res.intent, res.slots)


def test_a_count_of_devices_the_machine_does_not_have_is_refused(asker):
    res = asker.ask("yme triad bandwidth on 8 gpus")
    assert res.intent == "out_of_scope" and not res.rows, (res.intent, res.answer)
    assert "4 GPUs" in res.answer
    # a cluster whose parts are one node's (Chifflot: 2 GPUs stored, runs on 12) is answered
    res = asker.ask("tarantella efficiency on 12 gpus on chifflot")
    assert res.intent == "metric_lookup" and res.rows, (res.intent, res.answer)


def test_a_models_estimate_is_the_estimated_condition(asker, built_con):
    res = asker.ask("xmp64 barrier on 64 cores: what time does the analytic model give")
    assert res.slots.get("condition") == "estimated", res.slots
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'xmp64' AND operation = 'barrier' "
                              "AND condition = 'estimated'")
    assert res.rows and res.rows[0]["value"] == pytest.approx(want)


def test_a_link_speed_is_the_links_own_speed(asker, built_con):
    res = asker.ask("what is the link speed of the nvlinks on mini summit")
    assert res.slots.get("operation") == "link_speed" and res.slots.get("condition") is None, res.slots
    (want,) = _one(built_con, "SELECT max(value) FROM measurements WHERE system_id = 'ac922_minisummit' "
                              "AND operation = 'link_speed'")
    assert res.rows and res.rows[0]["value"] == pytest.approx(want)


def test_a_stated_speedup_over_another_system(asker, built_con):
    res = asker.ask("what speedup over yme does the thesis give for the dgx-2 nvlink uni bandwidth")
    assert res.slots.get("metric") == "speedup", res.slots
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'dgx2' AND metric = 'speedup' "
                              "AND condition = 'nvlink'")
    assert res.rows and res.rows[0]["value"] == pytest.approx(want)


def test_a_heard_number_with_a_thousands_comma_still_names_the_load(asker):
    res = asker.ask("on the ipu system, what happens to the bandwidth, from ipu5, to ipu6, when 1,216 tiles, send at once")
    assert res.intent == "congestion" and res.slots.get("condition") == "under_load", (res.intent, res.slots)


def test_doubling_something_is_no_double_precision(asker):
    res = asker.ask("what would the gtx 980 bandwidth b if we double the clock")
    assert res.intent == "out_of_scope" and "precision" not in res.slots, (res.intent, res.slots)
    assert asker.ask("double precision flops of the titan rtx").slots.get("precision") == "fp64"


def test_a_flop_rate_keeps_its_precision_before_a_spec_sheet(asker, built_con):
    # the Titan RTX states no fp64 spec figure: its measured fp64 rate answers, never the mixed-precision spec
    res = asker.ask("gtx 980 versus titan rtx double precision spec flops")
    assert res.intent == "compare_systems" and res.rows, (res.intent, res.answer)
    assert all(r.get("precision") in (None, "fp64") for r in res.rows), res.rows
    assert "mixed" not in res.answer
    (mixed,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'titan_rtx' AND precision = 'mixed' "
                               "AND condition = 'spec'")
    assert all(r["value"] != pytest.approx(mixed) for r in res.rows)


def test_how_many_devices_before_it_stops_improving_is_the_scaling_curve(asker):
    res = asker.ask("how many gpus until the dgx2 broadcast bandwidth stops getting better")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "gpus", (res.intent, res.slots)


# from 150 probe questions a helper wrote blind in session 43 (kept out of the repository), each tested in other words

def test_a_load_with_a_word_between_is_still_the_load(asker):
    res = asker.ask("yme nvlink bandwidth under heavy load versus idle")
    # Yme stores no loaded runs: refused, never answered with an NVLink-mode copy in its place
    assert res.intent == "out_of_scope" and res.slots.get("condition") == "under_load", (res.intent, res.slots)
    res = asker.ask("ipu4 to ipu5 bandwidth under full load")
    assert res.slots.get("condition") == "under_load", res.slots


def test_a_count_range_said_in_words_is_the_curve(asker):
    res = asker.ask("how does the chifflot training efficiency change from two to twelve gpus")
    assert res.intent == "scaling" and "count" not in res.slots, (res.intent, res.slots)


def test_between_named_machines_is_no_transfer_between_devices(asker):
    res = asker.ask("between the dgx-2 and yme, which has the higher nccl broadcast bandwidth on 2 gpus")
    assert res.slots.get("operation") != "p2p", res.slots
    assert asker.ask("bandwidth between the gpus of the dgx-1 v100").slots.get("operation") == "p2p"


def test_a_traces_time_categories_named_as_choices_filter_nothing(asker):
    res = asker.ask("h200 trace: does rank 0 spend more time in compute, communication or memory copies")
    assert res.intent == "trace_breakdown" and res.rows, (res.intent, res.answer)
    assert res.slots.get("metric") != "memory" and res.slots.get("operation") != "compute", res.slots


def test_a_size_range_joined_by_two_dots(asker):
    res = asker.ask("dgx2 gpu0 gpu1 p2p bw 4KiB..64MiB")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [4096, 64 * 2 ** 20], (res.intent, res.slots)
    from nlu.tokens import words
    assert words("a 1.5GB copy") == ["a", "1.5", "GB", "copy"]   # a decimal is still one number


def test_a_tools_overhead_stored_as_a_factor(asker, built_con):
    res = asker.ask("callgraph cluster sampling overhead")
    assert res.rows and res.rows[0]["metric"] == "slowdown", (res.intent, res.answer)


def test_an_ambiguous_machine_is_the_one_that_ran_the_benchmark_named(asker):
    res = asker.ask("su3_bench flops: xeon platinum 8280 vs piuma")
    assert res.slots.get("system") == "xeon_8280", res.slots


def test_a_kind_of_links_nominal_bandwidth_is_in_the_graph(asker, built_con):
    res = asker.ask("what is the nominal bandwidth of the x-bus on the tum ac922")
    assert res.intent == "topology", (res.intent, res.answer)
    (rated,) = _one(built_con, "SELECT max(bw_gbps_per_dir) FROM links WHERE system_id = 'ac922_tum' "
                               "AND link_type = 'X-Bus'")
    assert f"{rated:g} GB/s" in res.answer


def test_a_programming_model_is_no_unknown_machine(asker):
    res = asker.ask("m-cubes integration overhead of the kokkos version")
    assert "no data for 'kokkos" not in res.answer.lower(), res.answer
    assert res.slots.get("system") == "mcubes_node", res.slots


# from the same probes spoken by the evaluation voices and transcribed by the speech model

def test_a_gpu_number_run_into_the_size_after_it_is_split(asker):
    res = asker.ask("dgx2 latency from gpu 3 to gpu 1264 mb")      # heard for "gpu 12, 64 MB"
    assert res.slots.get("dst") == "gpu12" and res.slots.get("msg_bytes") == 64 * 2 ** 20, res.slots
    res = asker.ask("ipu16 tile 832 latency")                       # a tile of that number exists: kept
    assert res.slots.get("src") == "tile832", res.slots


def test_a_size_range_heard_with_pauses_or_said_all_the_way(asker):
    res = asker.ask("how does yme host to device pageable bandwidth change, from 1 KB, to 1 GB")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [1024, 2 ** 30], (res.intent, res.slots)
    res = asker.ask("plot the h200 reduce scatter bus bandwidth from 64 bytes all the way up to 1 GiB")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [64, 2 ** 30], (res.intent, res.slots)


def test_a_hyphenated_count_sending_at_once_is_load_and_no_tile_count_is_said_for_it(asker):
    res = asker.ask("on the ipu system, how much bandwidth is left per tile when 8-ipus send at once, compared "
                    "with no load")
    assert res.intent == "congestion", (res.intent, res.answer)
    assert "1216 ipus" not in res.answer and "19456 ipus" not in res.answer, res.answer


# from a second set of 150 probes another helper wrote blind (also kept out of the repository)

@pytest.mark.parametrize("question", [
    "what will yme's broadcast bandwidth be after we upgrade the driver",
    "mtbf of the h200 node",
])
def test_futures_and_reliability_are_refused(asker, question):
    res = asker.ask(question)
    assert res.intent == "out_of_scope" and not res.rows, (question, res.intent, res.answer)


def test_faster_than_between_two_machines_is_a_comparison(asker):
    res = asker.ask("is the dgx-2 faster than yme at nccl all-reduce on 2 gpus")
    assert res.intent == "compare_systems", (res.intent, res.answer)


def test_whether_a_curve_keeps_growing_past_a_size_is_the_sweep_from_there(asker):
    res = asker.ask("does h200 all-gather bus bandwidth keep climbing past 64 MB")
    assert res.intent == "size_sweep" and res.slots.get("size_range", [0])[0] == 64 * 2 ** 20, (res.intent, res.slots)
    assert all(r["msg_bytes"] >= 64 * 2 ** 20 for r in res.rows)


def test_a_sweep_asked_beside_a_link_word_is_no_link_efficiency(asker):
    res = asker.ask("yme p2p bw vs msg size nvlink bidir")
    assert res.intent == "size_sweep", (res.intent, res.answer)


def test_how_many_links_join_a_pair_and_how_machines_are_wired_are_the_graph(asker):
    res = asker.ask("dgx1 v100 nvlink count between gpu0 and gpu3")
    assert res.intent == "topology", (res.intent, res.answer)
    res = asker.ask("how are the gpus of the dgx-1 p100 wired up, and which pairs share a link")
    assert res.intent == "topology", (res.intent, res.answer)


def test_which_apps_a_study_covers_is_the_inventory(asker):
    res = asker.ask("which application was part of the congestion control paper")
    assert res.intent == "list_data", (res.intent, res.answer)
