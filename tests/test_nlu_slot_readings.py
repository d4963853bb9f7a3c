"""Slots the reader gets right where the tagger alone would not: a count glued to a device id, a rate that is no
message size, "all three" that is no top three, a condition the system does not store beside one it does, typed
"w/" shorthand, an app under the name the system stores it by, and what an unsure reading implies once the data
backs an intent. Real trained model and built database; expected values read with separate SQL."""
import pytest

from nlu.vocab import key


def test_a_count_after_a_numbered_device_is_a_count(asker):
    for q in ("dgx2 shoc triad bw gpu15 1gpu", "dgx2 shoc triad bw gpu15 1 gpu"):
        s = asker.nlu.understand(q).slots
        assert s.get("src") == "gpu15" and s.get("count") == 1 and s.get("count_kind") == "gpus", q


def test_a_number_with_a_rate_unit_is_no_message_size(asker):
    s = asker.nlu.understand("Convert 25 GB/s to Gbit/s for me.").slots
    assert "msg_bytes" not in s
    # a line to cross is still read as one
    s = asker.nlu.understand("which size reaches 25 GB/s on the h200 allreduce").slots
    assert s.get("threshold", {}).get("value") == 25.0 and "msg_bytes" not in s


def test_all_n_things_is_no_top_n(asker):
    s = asker.nlu.understand("Slowdown factors for all three apps on the in-house cluster and on Azure with "
                             "congestion control enabled, please.").slots
    assert "top_n" not in s
    assert asker.nlu.understand("top three kernels in the h200 trace").slots.get("top_n") == 3


def test_a_condition_the_system_stores_wins_over_one_it_does_not(asker, built_con):
    res = asker.ask("p100 hbm2 bandwidth spec (dgx-1)")
    assert res.slots.get("condition") == "spec"
    want = built_con.execute("SELECT value FROM measurements WHERE system_id = 'dgx1_p100' AND metric = 'bandwidth' "
                             "AND condition = 'spec'").fetchall()
    assert len(want) == 1 and res.rows[0]["value"] == want[0][0]


def test_typed_with_and_without_shorthand():
    assert key("w/ tensor cores") == key("with tensor cores")
    assert key("w/o congestion control") == key("without congestion control")


def test_w_slash_settings_are_read(asker):
    s = asker.nlu.understand("gemm time w/ tensor cores fp16: dgx2 vs titan rtx vs yme").slots
    assert s.get("condition") == "tensor_cores_on"
    res = asker.ask("w/ vs w/o congestion control incompact3d azure")
    assert res.slots.get("condition") == "cc_off" and res.answer.startswith("With congestion control vs without")


def test_an_app_is_read_under_its_stored_name_beside_an_operation(asker, built_con):
    res = asker.ask("Graphcore IPU versus the V100 reference: ResNet-50 convolution TFLOPs")
    assert res.slots.get("app") == "resnet50_v1.5" and res.slots.get("operation") == "conv"
    assert not res.answer.startswith("Nothing matches")
    stored = {r[0] for r in built_con.execute("SELECT DISTINCT app FROM measurements WHERE system_id = 'ipu16' "
                                              "AND app ILIKE 'resnet%'").fetchall()}
    assert stored == {"resnet50_v1.5"}      # the one name the IPU stores for ResNet-50


def test_an_unsure_reading_answered_as_a_lookup_gets_its_metric(asker):
    # (read out of scope by the question model of session 32, answered as the lookup the data backs)
    res = asker.ask("wat is the gtx980 maxflops sp")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "flops"
    assert res.slots.get("operation") == "maxspflops"


@pytest.mark.parametrize("q,slot,value", [
    ("what share of the x bus bandwidth do cross socket g p u copies get on yme", "metric", "efficiency"),
    ("mini summit gpu1 to gpu0 pcie bandwith unidir", "direction", "uni"),
    ("yme gpu0 to gpu1 nvlink bw bidir", "direction", "bi"),
])
def test_words_read_as_slots(asker, q, slot, value):
    assert asker.ask(q).slots.get(slot) == value


def test_a_setting_turned_off_is_read_whole(asker, built_con):
    res = asker.ask("How fast was a GPU-to-GPU copy over PCIe with peer access turned off on the P100 DGX-1 "
                    "(1000 MB, half duplex)?")
    assert res.slots.get("condition") == "p2p_off"
    want = built_con.execute("SELECT value FROM measurements WHERE system_id = 'dgx1_p100' AND operation = 'p2p' "
                             "AND metric = 'bandwidth' AND condition = 'p2p_off' AND direction = 'uni' "
                             "AND msg_bytes = 1048576000").fetchall()
    assert len(want) == 1 and res.rows[0]["value"] == want[0][0]


@pytest.mark.parametrize("q,op,value,unit", [
    ("smallest transfer where DGX-2 gpu0 -> gpu15 peer bandwidth (Scope) breaks 100 GB/s?", ">", 100.0, "GB/s"),
    ("At what rank count does the 16 MiB DeepBench all-reduce on the DGX-2 take longer than 400 us?", ">", 400.0,
     "us"),
    ("up to which size does the h200 allreduce time stay shorter than 30 us", "<", 30.0, "us"),
])
def test_lines_to_cross(asker, q, op, value, unit):
    res = asker.ask(q)
    assert res.slots.get("threshold") == {"op": op, "value": value, "unit": unit}
    assert res.intent in ("size_sweep", "scaling") and "count" not in res.slots


def test_a_size_the_sweep_runs_up_to_is_no_point_on_it(asker):
    res = asker.ask("allgather algbw in-place, from tiny messages up to 4 GiB, on the two H200s - how does it ramp?")
    assert res.intent == "size_sweep" and "msg_bytes" not in res.slots
    assert len({r["msg_bytes"] for r in res.rows}) > 10        # the whole curve, not the 4 GiB point


def test_on_chip_is_where_a_transfer_stays_not_a_link(asker):
    res = asker.ask("IPU on-chip broadcast: aggregate bandwdith vs number of destination tiles, 100 KB message")
    assert res.intent == "scaling" and res.rows and "link_type" not in res.slots
    assert any("on-chip" in n for n in res.notes)
    # a link the graph lacks in a topology question is no case's name: the answer says plainly that there is none
    # (then shows the graph there is; session 40)
    res = asker.ask("show the infiniband links of the h200 node")
    assert res.answer.startswith("2x NVIDIA H200 node (lent GPU node) has no InfiniBand links")
    assert not any("on-chip" in n or "name of a case" in n for n in res.notes)


def test_a_part_of_a_systems_name_is_no_unknown_system(asker):
    res = asker.ask("fp32 GEMM on one vs two IPUs of a C2 board, does it scale?")
    assert res.slots.get("system") == "ipu16" and not res.answer.startswith("I have no data")


def test_a_name_shared_after_the_parts(asker):
    res = asker.ask("Compare host-to-device bandwidth on the P100 and V100 DGX-1 boxes")
    assert res.intent == "compare_systems"
    assert {res.slots.get("system"), *res.slots.get("compare_with", [])} == {"dgx1_p100", "dgx1_v100"}


def test_beating_the_baseline_is_the_crossover(asker, built_con):
    res = asker.ask("Longhorn 4 nodes: from which message size does compressed all-to-all (ZFP-OPT) beat the baseline?")
    want = built_con.execute("SELECT value FROM measurements WHERE system_id = 'longhorn' AND metric = "
                             "'crossover_msg_size' AND count = 4").fetchall()
    assert len(want) == 1 and res.rows[0]["value"] == want[0][0]


@pytest.mark.parametrize("q,slot,value", [
    ("Without CC, is Incompact3D hurt more by congestion on Azure or on the NVIDIA in-house cluster?", "condition",
     "cc_off"),
    ("titan rtx device-local copy latency vs size, tartan, p2p enabled", "operation", "d2d"),
    ("euler finite volume update time on hamilton eight", "operation", "fv_update"),
    ("what is the power usage of the titan rtx", "metric", "power"),
])
def test_typed_forms_the_model_never_trains_on(asker, q, slot, value):
    assert asker.ask(q).slots.get(slot) == value


def test_a_rank_number_is_no_event_name(asker):
    res = asker.ask("for the pytorch trace on the h two hundred node what are the top five kernels on rank zero")
    assert res.answer.startswith("Top 5 kernels by total time on rank 0")   # not the zero_grad annotations


def test_a_double_link_is_no_precision(asker):
    s = asker.ask("on the d g x one v one hundred how efficient is a half duplex copy over the bonded double envy "
                  "link at a thousand megabytes").slots
    assert "precision" not in s and s.get("link_type") == "NVLink"


def test_peak_flops_of_machines_that_ran_maxflops(asker, built_con):
    res = asker.ask("double precision peak flops titan rtx versus yme")
    assert res.intent == "compare_systems" and res.slots.get("operation") == "maxdpflops"
    best = {r[0]: r[1] for r in built_con.execute(
        "SELECT system_id, max(value) FROM measurements WHERE operation = 'maxdpflops' AND system_id IN "
        "('titan_rtx', 'ac922_yme') AND coalesce(count, 1) = 1 GROUP BY ALL").fetchall()}
    assert {r["system_id"]: r["value"] for r in res.rows} == best
    # a spec sheet's peak reads nothing more
    assert "aggregate" not in asker.ask("v100 tensor core mixed precision peak dgx1").slots


def test_an_applications_efficiency_is_no_links(asker, built_con):
    res = asker.ask("lassen training efficiency for amoeba net f two fourteen on two thousand forty eight g p us")
    assert res.intent == "metric_lookup"
    want = built_con.execute("SELECT value FROM measurements WHERE system_id = 'lassen' AND metric = 'efficiency' "
                             "AND app = 'amoebanet_f214' AND count = 2048").fetchall()
    assert len(want) == 1 and res.rows[0]["value"] == want[0][0]


def test_every_kind_of_link_listed_is_the_whole_graph(asker):
    res = asker.ask("Draw me the interconnect graph of the DGX-1 P100: NVLink, PCIe switches, CPUs.")
    assert res.intent == "topology" and "link_type" not in res.slots
    assert asker.ask("show the nvlink topology of the dgx1 p100").slots.get("link_type") == "NVLink"


def test_a_count_stored_as_a_count_of_parts(asker, built_con):
    # the IPU paper's rows count tiles and keep the IPU count beside, in params
    res = asker.ask("paralel efficiency of the reduce on 16 IPUs (weak scaling)?")
    want = built_con.execute("SELECT value FROM measurements WHERE system_id = 'ipu16' AND metric = 'efficiency' "
                             "AND operation = 'reduce' AND params->>'ipus' = '16'").fetchall()
    assert len(want) == 1 and res.rows[0]["value"] == want[0][0]
    assert not res.answer.startswith("Nothing matches") and any("read as the 19456 tiles" in n for n in res.notes)
