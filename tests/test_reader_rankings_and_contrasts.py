"""Ways of asking that the reader once read wrong (session 57, from the thirty-first set's misses, each tested with
other words): a size written as a C shift ("1<<20"); "inventory"; "what X is stored for Y" as the value; build advice
and the asker's own trace file; the IPU latency "when all N tiles are sending" as a value under load; a copy's "share
of its nominal rate" as the link's efficiency; a link type only one machine has; "by what percent did the time go
down"; "the five slowest" as a ranking of five, listed; a size kept beside a rate the asker quotes; "CC on vs CC
off" where the model leaned to a trace; "the same baseboard as GPU12" as the graph, with the GPUs sharing its
switches; words spelled as they sound ("compair"); a benchmark spelled letter by letter ("m d five"); a contrast
("while the DGX-2 only gets ..."); a change with message size where none was measured; two machines that measured
one benchmark by different metrics. Real model, real built database; numbers are checked with separate SQL."""
import pytest

from nlu.spelling import HARDWARE_WORDS
from nlu.written_forms import shifted_sizes
from conftest import stored_values as _values


def test_a_size_written_as_a_shift():
    assert shifted_sizes(["at", "1<<20", "bytes"]) == ["at", "1048576", "bytes"]
    assert shifted_sizes(["1", "<<", "10", "B"]) == ["1024", "B"]
    assert shifted_sizes(["2", "<", "<", "3"]) == ["16"]
    assert shifted_sizes(["gpu", "<", "cpu"]) == ["gpu", "<", "cpu"]      # no number on both sides: as written


def test_a_shifted_size_is_the_question_size(asker, built_con):
    res = asker.ask("reduce-scatter in-place busbw on the H200 pair for 1 << 24 byte buffers?")
    assert res.intent == "metric_lookup" and res.slots.get("msg_bytes") == 1 << 24, (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                   "AND msg_bytes = ? AND condition = ?", ["h200x2", "reduce_scatter", "busbw", 1 << 24, "in_place"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


@pytest.mark.parametrize("q", ["dgx2 inventory please", "what's in the catalogue for the Titan RTX?"])
def test_the_inventory_asked_by_its_name(asker, q):
    res = asker.ask(q)
    assert res.intent == "list_data", (q, res.intent, res.slots)


def test_one_value_asked_by_what_is_stored(asker, built_con):
    res = asker.ask("What host-to-device bandwidth is recorded for the DGX-1 P100?")
    assert res.intent == "metric_lookup", (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ?",
                   ["dgx1_p100", "h2d", "bandwidth"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    # kinds of things stored stay the inventory
    assert asker.ask("What data is stored for the DGX-1 P100?").intent == "list_data"


@pytest.mark.parametrize("q", ["which compiler flags are best for lammps on the epyc nodes",
                               "what are the optimal nvcc options for the titan rtx",
                               "please load our nsys profile from yesterday and find the bottleneck",
                               "open my trace and show where rank 1 stalls"])
def test_advice_and_the_askers_own_files_are_out_of_scope(asker, q):
    assert asker.ask(q).intent == "out_of_scope", q


def test_the_value_when_all_the_tiles_are_sending(asker, built_con):
    res = asker.ask("Under load, with all 2432 tiles sending, what p2p latency does the IPU system show?")
    assert res.intent == "metric_lookup", (res.intent, res.slots)
    assert (res.slots.get("count"), res.slots.get("count_kind")) == (2432, "tiles"), res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                   "AND condition = ? AND count = ? AND count_kind = ?",
                   ["ipu16", "p2p", "latency", "under_load", 2432, "tiles"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    # the load's pattern said tersely is still set against its baseline
    assert asker.ask("ipu p2p latency under load 1216 tiles").intent == "congestion"


def test_a_copys_share_of_its_nominal_rate_is_the_links_efficiency(asker):
    res = asker.ask("What share of its rated speed does a P2P-enabled 1000 MB copy reach on the DGX-1 P100?")
    assert res.intent == "link_efficiency", (res.intent, res.slots)


def test_a_link_type_only_one_machine_has_names_it(asker):
    # ("test" is read as an unknown name, which keeps the reader from naming the system itself)
    res = asker.ask("how close to peak do IPU-Links get in the p2p test")
    assert res.intent == "link_efficiency", (res.intent, res.answer)
    assert "Graphcore" in res.answer and any("the only loaded system" in n for n in res.notes), res.notes


def test_by_what_percent_a_time_went_down(asker, built_con):
    res = asker.ask("by what percentage did the ccz4 time fall on hamilton 8?")
    assert res.slots.get("metric") == "time_reduction", res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ?",
                   ["hamilton8", "time_reduction"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_the_n_slowest_are_a_ranking_of_n(asker, built_con):
    res = asker.ask("list the three slowest conv times with tensor cores off on the DGX-2")
    assert res.intent == "metric_lookup" and res.slots.get("top_n") == 3, (res.intent, res.slots)
    assert "count" not in res.slots, res.slots
    want = _values(built_con, "SELECT max(value) FROM measurements WHERE system_id = ? AND operation = ? "
                   "AND metric = ? AND condition = ?", ["dgx2", "conv", "time", "tensor_cores_off"])[0]
    values = [r["value"] for r in res.rows]
    assert len(values) == 3 and values == sorted(values, reverse=True) and values[0] == want, res.answer
    assert res.answer.count("; ") >= 2 and "1. " in res.answer and "3. " in res.answer, res.answer


def test_the_n_lowest_pairs_are_listed(asker, built_con):
    res = asker.ask("yme three lowest latency gpu pairs p2p off")
    assert res.intent == "pair_matrix" and res.slots.get("top_n") == 3, (res.intent, res.slots)
    assert "The 3 lowest:" in res.answer, res.answer
    listed = res.answer.split("The 3 lowest:")[1]
    low = min(res.rows, key=lambda r: r["value"])
    assert f"{low['src'].upper()} -> {low['dst'].upper()}" in listed, (listed, low)


def test_a_size_kept_beside_a_rate_the_asker_quotes(asker, built_con):
    res = asker.ask("I got 150 GB/s busbw for an out-of-place 64 MB all-gather on the H200 pair - same as yours?")
    assert res.slots.get("msg_bytes") == 64 * 2 ** 20, res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                   "AND msg_bytes = ? AND condition = ?", ["h200x2", "allgather", "busbw", 64 * 2 ** 20, "out_of_place"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_both_sides_of_congestion_control_named(asker):
    res = asker.ask("VASP on Azure, CC on vs CC off?")
    assert res.intent == "congestion", (res.intent, res.slots)


def test_the_gpus_on_the_same_baseboard(asker):
    assert "baseboard" in HARDWARE_WORDS and asker.nlu.speller.correct("baseboard") is None
    res = asker.ask("On the DGX-2, which GPUs share a baseboard with GPU12?")
    assert res.intent == "topology" and res.slots.get("src") == "gpu12", (res.intent, res.slots)
    assert "NVSwitches it shares a switch with 7 other GPUs: GPU8, GPU9, GPU10, GPU11, GPU13, GPU14, GPU15" \
        in res.answer, res.answer


def test_words_spelled_as_they_sound(asker):
    assert asker.nlu.speller.correct("compair") == "compare"
    assert asker.nlu.speller.correct("latensy") == "latency"
    res = asker.ask("how does yme compair with the dgx-2 on pageable h2d bandwidth")
    assert res.intent == "compare_systems", (res.intent, res.slots)


def test_a_benchmark_spelled_letter_by_letter(asker):
    res = asker.ask("m d five hash rate on the titan r t x versus the g t x nine eighty")
    assert res.intent == "compare_systems" and "md5hash" in (str(res.slots.get("app", "")).lower(),
                                                             res.slots.get("operation")), (res.intent, res.slots)
    assert any("MD5" in n for n in res.notes), res.notes


def test_a_contrast_sets_two_machines_side_by_side(asker):
    res = asker.ask("The DGX-2 moves 11 GB/s host to device while Mini Summit only gets 30, is that right?")
    assert res.intent == "compare_systems", (res.intent, res.slots)


def test_a_change_with_size_where_none_was_measured_is_refused(asker):
    res = asker.ask("Does the in-house cluster's congestion impact vary with message size?")
    assert res.intent == "out_of_scope", (res.intent, res.answer)
    assert "message sizes" in res.answer, res.answer


def test_one_benchmark_measured_by_different_metrics(asker, built_con):
    res = asker.ask("RSBench offloading: ThetaGPU against the Google Cloud T4 instances")
    assert res.intent == "compare_systems", (res.intent, res.answer)
    assert res.answer.startswith("Not measured alike, so not ranked"), res.answer
    assert {r["system_id"] for r in res.rows} == {"thetagpu", "gcloud_t4"}, res.rows
    for r in res.rows:
        want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND lower(app) = ? "
                       "AND metric = ?", [r["system_id"], "rsbench", r["metric"]])
        assert r["value"] in want, r
