"""Ways of asking that the reader and the asker once read wrong (session 42, from the fourth set's misses, each
tested with other words): a copy from a device to itself, a request for work or a prediction, a what-if, a range of
sizes, a grid named by its size, measured against nominal per pair, a GPU model spelled in words inside a machine,
a precision's spec, one value under load, an end of the size axis, a collection said aloud, a crossover size, a
part of a makespan, "bw" after a machine, the count where scaling stops, a reading with no word of load or of
sizes, a benchmark's "result", ends joined by hyphens, letters of a term, a count of GPU models, a measure with no
better direction and a speedup stated once; and from session 41's list of things left: a bare model beside an
ambiguous family name, the first end of a count range, tensor cores named, the average of every collective, and a
congestion count the experiments did not run at.
Real model, real built database; numbers are checked with separate SQL."""
import pytest


def _one(con, sql, *params):
    return con.execute(sql, list(params)).fetchone()


def test_a_copy_from_a_device_to_itself_is_device_to_device(asker, built_con):
    res = asker.ask("yme gpu3 to gpu3 bandwidth")
    assert res.intent == "metric_lookup"
    assert res.slots["operation"] == "d2d" and res.slots["src"] == res.slots["dst"] == "gpu3"
    # the lookup's defaults: one direction, the largest size measured, the best there
    (top,) = _one(built_con, "SELECT max(value) FROM measurements WHERE system_id = 'ac922_yme' AND operation = 'd2d' "
                             "AND src = 'gpu3' AND dst = 'gpu3' AND metric = 'bandwidth' AND direction = 'uni' "
                             "AND msg_bytes = (SELECT max(msg_bytes) FROM measurements WHERE system_id = 'ac922_yme' "
                             "AND operation = 'd2d' AND src = 'gpu3' AND metric = 'bandwidth' AND direction = 'uni')")
    assert res.rows and res.rows[0]["value"] == pytest.approx(top)
    res = asker.ask("local copy bandwidth within gpu2 on yme")
    assert res.slots.get("operation") == "d2d" and res.slots["src"] == res.slots["dst"] == "gpu2"


@pytest.mark.parametrize("question", [
    "could you write a small benchmark in cuda for me",
    "would you set up nccl-tests on the dgx-2 for me",
    "please forecast the allreduce busbw on 64 h200s",
    "If I replaced the GTX 980 with a newer card, what bandwidth would I get?",
    "If we replaced the PCIe 3 switches of the DGX-1 V100 with PCIe 5 ones, how much faster would host copies be?",
    "can you re-run the broadcast test on yme with 4 GB buffers",
])
def test_work_predictions_and_what_ifs_are_refused(asker, question):
    res = asker.ask(question)
    assert res.intent == "out_of_scope" and not res.rows, (question, res.intent, res.answer)


def test_a_stored_prediction_is_still_data(asker):
    # the verb is no request here: MAPredict's predictions are stored rows
    assert asker.ask("what bandwidth does mapredict predict for piuma").intent != "out_of_scope"


def test_a_range_of_sizes_is_the_curve_between_its_ends(asker, built_con):
    res = asker.ask("h200 allreduce busbw 8B-128MB")
    assert res.intent == "size_sweep" and res.slots.get("size_range") == [8, 134217728]
    sizes = {r["msg_bytes"] for r in res.rows}
    (n,) = _one(built_con, "SELECT count(DISTINCT msg_bytes) FROM measurements WHERE system_id = 'h200x2' "
                           "AND operation = 'allreduce' AND metric = 'busbw' AND msg_bytes BETWEEN 8 AND 134217728")
    assert min(sizes) >= 8 and max(sizes) == 134217728 and len(sizes) == n
    assert "range asked" in " ".join(res.notes)
    # two sizes set side by side are still each looked up
    res = asker.ask("h200 bcast busbw 64M vs 1G")
    assert res.intent == "metric_lookup" and "size_range" not in res.slots


def test_a_grid_named_by_its_size_is_the_pair_matrix(asker):
    assert asker.ask("yme 4x4 p2p bandwidth p2p off").intent == "pair_matrix"
    assert asker.ask("minisummit 2 x 2 latency").intent == "pair_matrix"
    assert asker.ask("xmp64 latency across the 8x8 mesh").intent != "pair_matrix"   # a layout, no grid of pairs
    res = asker.ask("a 4x4 table of nvlink-mode p2p bandwidth between the v100s of yme")
    assert res.intent == "pair_matrix" and "msg_bytes" not in res.slots          # the grid's side is no size


def test_measured_against_nominal_for_each_pair_is_the_links_efficiency(asker):
    res = asker.ask("nvlink bw vs theoretical per gpu pair dgx1 v100")
    assert res.intent == "link_efficiency" and "% of the" in res.answer
    assert asker.ask("p2p bandwidth for every gpu pair on yme").intent == "pair_matrix"


def test_a_gpu_model_said_in_words_inside_a_machine_is_that_machine(asker, built_con):
    res = asker.ask("what is the double precision spec of a v one hundred in the d g x one")
    assert res.intent == "metric_lookup" and res.slots["system"] == "dgx1_v100" and res.slots["metric"] == "flops"
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'dgx1_v100' AND condition = 'spec' "
                              "AND precision = 'fp64' AND metric = 'flops'")
    assert res.rows[0]["value"] == pytest.approx(want)


def test_a_precisions_spec_is_a_flop_rate(asker):
    res = asker.ask("titan rtx vs gtx980 fp32 spec")
    assert res.intent == "compare_systems" and res.slots.get("metric") == "flops"


def test_one_value_under_load_is_looked_up_and_never_without_the_load(asker, built_con):
    res = asker.ask("what bandwidth does ipu5 to ipu4 reach under load")
    assert res.intent == "metric_lookup" and res.slots["condition"] == "under_load"
    (top,) = _one(built_con, "SELECT max(value) FROM measurements WHERE system_id = 'ipu16' AND src = 'ipu5' "
                             "AND dst = 'ipu4' AND metric = 'bandwidth' AND condition = 'under_load' "
                             "AND direction = 'uni'")   # the lookup's default direction
    assert res.rows[0]["value"] == pytest.approx(top)
    # no under-load latency is stored for this pair: a refusal, not the idle latency
    (n,) = _one(built_con, "SELECT count(*) FROM measurements WHERE system_id = 'ipu16' AND src = 'ipu7' "
                           "AND dst = 'ipu10' AND metric = 'latency' AND condition = 'under_load'")
    assert n == 0
    res = asker.ask("latency from ipu7 to ipu10 under load")
    assert not res.rows or all(r.get("condition") == "under_load" for r in res.rows), res.answer
    # what other traffic does to a transfer is the congestion question
    res = asker.ask("how much does ipu2 to ipu3 bandwidth drop when other links transfer concurrently")
    assert (res.understood_intent or res.intent) == "congestion" and res.slots.get("condition") == "under_load"


def test_an_end_of_the_size_axis_is_one_point(asker, built_con):
    res = asker.ask("h200 allreduce busbw at the minimum message size")
    assert res.intent == "metric_lookup" and "aggregate" not in res.slots
    (smallest,) = _one(built_con, "SELECT min(msg_bytes) FROM measurements WHERE system_id = 'h200x2' "
                                  "AND operation = 'allreduce' AND metric = 'busbw'")
    assert res.rows and res.rows[0]["msg_bytes"] == smallest


def test_a_collection_said_aloud_is_listed(asker):
    res = asker.ask("which systems come from the i s c papers")
    assert res.intent == "list_data" and "isc2022" in res.answer


def test_a_crossover_size_is_the_stored_crossover(asker, built_con):
    res = asker.ask("crossover point of compressed alltoall on frontera liquid at 2 nodes")
    assert res.slots["metric"] == "crossover_msg_size"
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'frontera_liquid' "
                              "AND metric = 'crossover_msg_size' AND count = 2")
    assert res.rows[0]["value"] == pytest.approx(want)


def test_a_measure_with_no_better_direction_names_no_winner(asker):
    res = asker.ask("How does Lassen's compressed alltoall crossover size compare with Longhorn's?")
    assert res.intent == "compare_systems" and res.rows
    assert "is better" not in res.answer and "leads" not in res.answer


def test_a_part_of_a_makespan_is_a_share(asker, built_con):
    res = asker.ask("What share of the makespan is initialization for the Horovod run on Gemini with 12 GPUs?")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "share"
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'gemini' AND metric = 'share' "
                              "AND operation = 'initialization' AND library = 'horovod' AND count = 12")
    assert res.rows[0]["value"] == pytest.approx(want)


def test_a_share_of_a_run_time_named_before_it_is_a_share(asker, built_con):
    res = asker.ask("the communication share of lammps' run time on azure at 3480 processes")
    assert res.slots.get("metric") == "share"
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'azure_hpc' AND metric = 'share' "
                              "AND app = 'lammps' AND count = 3480")
    assert res.rows[0]["value"] == pytest.approx(want)


def test_bw_after_a_machine_is_bandwidth_not_the_broadwell_machine(asker):
    res = asker.ask("piuma bw 64 cores")
    assert res.slots.get("system") == "piuma" and not res.slots.get("compare_with")
    assert res.slots.get("metric") == "bandwidth"


def test_the_count_where_scaling_stops_is_the_scaling_curve(asker):
    res = asker.ask("at what gpu count does dgx2 allreduce bandwidth stop improving")
    assert res.intent == "scaling" and res.slots.get("metric") == "bandwidth"
    assert len({r["count"] for r in res.rows}) > 1


def test_no_word_of_load_or_of_sizes_is_neither_congestion_nor_a_sweep(asker, built_con):
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'ri2' AND metric = 'f1_score' "
                              "AND app = 'stackpropagation'")
    for q in ("stack propagation slot filling f1 on ri2", "slot filling f1 for stackpropogation on ri2"):
        res = asker.ask(q)
        assert res.intent == "metric_lookup" and res.rows[0]["value"] == pytest.approx(want), (q, res.answer)


def test_a_benchmarks_result_is_its_own_measure(asker):
    res = asker.ask("what maxflops single precision result does yme reach with 4 gpus")
    assert res.intent == "metric_lookup" and res.slots.get("metric") != "result" and res.rows


def test_ends_joined_by_hyphens_are_the_ends(asker):
    res = asker.ask("What bandwidth does a pinned host-to-GPU1 copy reach on Yme?")
    assert res.slots.get("dst") == "gpu1" and res.slots.get("operation") == "h2d"
    res = asker.ask("dgx2 GPU0-to-GPU5 latency")
    assert res.slots.get("src") == "gpu0" and res.slots.get("dst") == "gpu5"


def test_letters_of_a_term_name_no_machine(asker):
    res = asker.ask("how much of its rated bandwidth does the envy link between the c p us and g p us on yme deliver")
    assert res.slots.get("system") == "ac922_yme" and not res.slots.get("compare_with")


def test_a_count_of_gpu_models_is_no_size(asker):
    res = asker.ask("GPU x GPU bandwidth heatmap for Yme's four V100s")
    assert res.intent == "pair_matrix" and "msg_bytes" not in res.slots


def test_a_stated_figure_is_read_as_the_reader_read_it(asker, built_con):
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'titan_rtx' AND metric = 'bandwidth' "
                              "AND condition = 'spec'")
    for q in ("Titan RTX GDDR6 bw spec", "titan rtx gddr6 bw spec sheet"):
        res = asker.ask(q)
        assert res.intent == "metric_lookup" and res.rows[0]["value"] == pytest.approx(want), (q, res.answer)


def test_a_speedup_named_alone_is_the_one_stated(asker, built_con):
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'chifflot' AND metric = 'speedup' "
                              "AND library = 'horovod'")
    res = asker.ask("horovod lenet5 speedup on chifflot")
    assert res.intent == "metric_lookup" and res.rows[0]["value"] == pytest.approx(want)
    res = asker.ask("lassen amoebanet speedup on 2048 gpus")
    assert res.intent == "metric_lookup"


def test_a_bare_model_beside_a_family_name_is_that_familys_machine(asker):
    res = asker.ask("v100 vs p100 on the dgx-1 nvlink bandwidth")
    assert res.intent == "compare_systems"
    assert {res.slots["system"], *res.slots["compare_with"]} == {"dgx1_v100", "dgx1_p100"}
    res = asker.ask("the v100 in the dgx-1 nvlink bandwidth")
    assert res.slots["system"] == "dgx1_v100"


def test_the_first_end_of_a_count_range_is_no_size(asker):
    res = asker.ask("ipu16 on-chip latency 1..1216 tiles")
    assert res.intent == "scaling" and "msg_bytes" not in res.slots
    assert not any("nearest measured size" in n for n in res.notes)


def test_tensor_cores_named_are_asked_for_and_never_dropped(asker, built_con):
    res = asker.ask("tensor core conv time on yme")
    assert res.slots.get("condition") == "tensor_cores_on"
    assert res.rows and all(r.get("condition") == "tensor_cores_on" for r in res.rows)
    # the GTX 980 has no tensor cores: said so, not answered with its runs without them
    (n,) = _one(built_con, "SELECT count(*) FROM measurements WHERE system_id = 'gtx980' "
                           "AND condition = 'tensor_cores_on'")
    assert n == 0
    res = asker.ask("Tensor-core GEMM time on the GTX 980")
    assert not res.rows and "tensor cores on" in res.answer
    assert asker.ask("rnn time without tensor cores on yme").slots.get("condition") == "tensor_cores_off"


def test_the_average_of_every_collective_is_each_printed_average(asker, built_con):
    res = asker.ask("average busbw of every collective on the h200 pair")
    assert res.intent == "metric_lookup"
    # nccl-tests prints its "Avg bus bandwidth" once per run: stored with no size
    (want,) = _one(built_con, "SELECT value FROM measurements WHERE system_id = 'h200x2' AND operation = 'allreduce' "
                              "AND metric = 'busbw' AND msg_bytes IS NULL AND statistic = 'mean' AND count = 2")
    from app.intents._common import fmt_value
    assert f"Allreduce busbw on 2x NVIDIA H200 node (lent GPU node) with 2 gpus (fp32, mean): " \
           f"{fmt_value(want, 'GB/s')}" in res.answer, res.answer


def test_what_transcripts_write_is_read_as_meant(asker):
    # a pause written as a comma inside "gpu by gpu"
    assert asker.ask("show the GPU, by GPU bandwidth for yme").intent == "pair_matrix"
    # an app said in two words whose first is a collective's shorthand ("rs" is reduce-scatter typed)
    res = asker.ask("what is the speedup of RS Bench on 4 GPUs on the google cloud t4s")
    assert res.slots.get("app") == "rsbench" and "operation" not in res.slots
    assert asker.ask("dgx2 rs busbw 64M").slots.get("operation") == "reduce_scatter"
    # a future nobody measured
    assert asker.ask("what will the yme nvlink bandwidth be next year with a newer driver").intent == "out_of_scope"
    # "strong-scaling efficiency" asks for the curve; "scaling efficiency ... on 2048 gpus" for one stated figure
    assert asker.ask("What's the strong-scaling efficiency of AmoebaNet on Lassen?").intent == "scaling"
    assert asker.ask("scaling efficiency of resnet two eighteen v two on 2048 gpus on lassen").intent == "metric_lookup"


def test_a_congestion_count_not_measured_is_said_up_front(asker, built_con):
    (n,) = _one(built_con, "SELECT count(*) FROM measurements WHERE system_id = 'nvidia_inhouse' AND count = 64")
    assert n == 0
    res = asker.ask("how much does congestion slow down lammps on the in-house cluster at 64 nodes")
    assert res.intent == "congestion" and res.answer.startswith("Nothing was measured at 64 nodes")
    res = asker.ask("how much does congestion slow down lammps on the in-house cluster at 19 nodes")
    assert not res.answer.startswith("Nothing was measured")
