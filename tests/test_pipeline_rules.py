"""Slots a question implies without naming them (nlu.implied.infer_implicit), and span decoding."""
from app import catalog
from nlu.implied import infer_implicit
from nlu.pipeline import decode_spans


def test_component_names_its_only_system(built_con):
    cat = catalog.load(built_con)
    slots = {"src": "ipu5", "dst": "ipu4", "metric": "latency"}
    infer_implicit("metric_lookup", slots, cat)
    assert slots["system"] == "ipu16" and slots["operation"] == "p2p"
    # gpu0 exists on many systems: no guess
    slots = {"src": "gpu0", "dst": "gpu1", "metric": "bandwidth"}
    infer_implicit("metric_lookup", slots, cat)
    assert "system" not in slots


def test_link_words_become_the_recorded_condition(built_con):
    cat = catalog.load(built_con)
    slots = {"system": "dgx2", "link_type": "PCIe3", "metric": "bandwidth"}
    infer_implicit("metric_lookup", slots, cat)
    assert slots.get("condition") == "pcie" and "link_type" not in slots
    topo = {"system": "dgx2", "link_type": "NVLink2"}
    infer_implicit("topology", topo, cat)  # a topology question keeps its link type
    assert topo == {"system": "dgx2", "link_type": "NVLink2"}
    h200 = {"system": "h200x2", "link_type": "NVLink", "metric": "busbw"}
    infer_implicit("metric_lookup", h200, cat)  # no nvlink-condition rows on h200x2: unchanged
    assert h200.get("link_type") == "NVLink" and "condition" not in h200


def test_decode_spans():
    toks = ["busbw", "on", "the", "DGX", "-", "2", "at", "1", "GB"]
    tags = ["B-metric", "O", "O", "B-system", "I-system", "I-system", "O", "B-msg_bytes", "I-msg_bytes"]
    assert decode_spans(toks, tags) == [("metric", "busbw"), ("system", "DGX - 2"), ("msg_bytes", "1 GB")]
    # a stray I- starts a span of its own
    assert decode_spans(["a", "b"], ["I-metric", "O"]) == [("metric", "a")]


def test_a_word_only_one_system_has_names_that_system(built_con):
    cat = catalog.load(built_con)
    owners = [s for (k, v), s in cat.owners.items() if k == "link_type" and v == "ipu-link"]
    assert owners == [{"ipu16"}]
    slots = {"link_type": "IPU-Link", "metric": "efficiency"}
    infer_implicit("link_efficiency", slots, cat)
    assert slots["system"] == "ipu16"
    shared = {"link_type": "NVLink2", "metric": "efficiency"}   # many systems have NVLink2: no guess
    infer_implicit("link_efficiency", shared, cat)
    assert "system" not in shared


def test_an_operation_named_short_is_the_one_stored_under_that_name(built_con):
    cat = catalog.load(built_con)
    slots = {"system": "ac922_yme", "operation": "triad", "metric": "bandwidth"}
    infer_implicit("metric_lookup", slots, cat)
    assert slots["operation"] == "triad_bw"          # SHOC's triad there; STREAM's triad is elsewhere
    slots = {"system": "supermuc_ng", "operation": "triad", "metric": "bandwidth"}
    infer_implicit("metric_lookup", slots, cat)
    assert slots["operation"] == "triad"


def test_a_kernel_runs_on_the_one_device_named():
    from nlu.pipeline import device_end
    s = {"operation": "triad_bw", "dst": "gpu15"}
    device_end(s)
    assert s == {"operation": "triad_bw", "src": "gpu15"}
    s = {"operation": "p2p", "dst": "gpu3"}               # a transfer keeps its destination
    device_end(s)
    assert s == {"operation": "p2p", "dst": "gpu3"}


def test_an_id_with_its_number_then_a_count():
    from nlu.pipeline import mend_endpoint_spans, span_bounds
    words = ["dgx2", "triad", "gpu15", "1", "gpu"]
    tags = ["B-system", "B-operation", "B-dst", "I-dst", "B-dst"]
    assert mend_endpoint_spans(span_bounds(tags), words, tags) == [
        ("system", 0, 1), ("operation", 1, 2), ("dst", 2, 3), ("count", 3, 5)]


def test_a_network_shape_named_asks_for_the_graph(asker):
    """"the hybrid cube-mesh of the DGX-1 V100": the shape's name asks for the connection graph, and its "mesh" is
    no operation; the hanging-node paper's meshes stay an operation."""
    res = asker.ask("Show the hybrid cube-mesh of the DGX-1 V100 with NVLink counts per pair.")
    assert res.intent == "topology" and "operation" not in res.slots and res.slots["link_type"] == "NVLink"
    assert "16 NVLink2 connections" in res.answer and res.chart["kind"] == "network"
    u = asker.nlu.understand("mesh count for the hanging node paper on supermuc-ng")
    assert u.slots.get("operation") == "mesh" and u.intent != "topology"
