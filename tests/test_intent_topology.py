"""topology intent against the real built database: graphs, paths, hops, bottlenecks, out-of-scope."""
import pytest

from conftest import table_counts, HOSTILE, run_intent

from app.intents import OutOfScope
from app.intents import topology as topo



def run(con, **slots):
    return run_intent(con, topo, slots)


def test_xmp64_core0_to_core63_is_six_hops(built_con):
    plan, rows, text = run(built_con, system="xmp64", src="core0", dst="core63")
    # 64 cores on a 6-dimensional hypercube: hops = popcount(0 ^ 63) = 6
    assert plan.extra["hops"] == 6 == bin(0 ^ 63).count("1")
    assert len(rows) == 6 and [r["hop"] for r in rows] == [1, 2, 3, 4, 5, 6]
    # dimension-order route, every hop flips one bit
    assert plan.extra["path"] == ["core0", "core1", "core3", "core7", "core15", "core31", "core63"]
    assert sorted(r["link_type"] for r in rows) == ["OnChip"] * 2 + ["XLink"] * 4
    assert plan.extra["bottleneck_gbps"] is None          # the document states no link bandwidth
    assert plan.extra["n_shortest_paths"] == 720           # 6! orderings of the six dimensions
    assert "6 hops" in text and "no nominal bandwidth is stored" in text
    assert plan.chart["kind"] == "network"
    assert len(plan.chart["nodes"]) == 64 and len(plan.chart["edges"]) == 192
    assert plan.chart["highlight"][0] == ["core0", "core1"] and len(plan.chart["highlight"]) == 6
    assert "004_cf8b46c8fd922a6d.txt" in text


def test_dgx1_v100_gpu0_gpu3_is_nvlink2_x2(built_con):
    plan, rows, text = run(built_con, system="dgx1_v100", src="gpu0", dst="gpu3")
    assert plan.extra["hops"] == 1
    assert len(rows) == 1
    r = rows[0]
    assert (r["a"], r["b"], r["link_type"], r["count"], r["bw_gbps_per_dir"]) == ("gpu0", "gpu3", "NVLink2", 2, 50.0)
    assert plan.extra["bottleneck_gbps"] == 50.0
    assert "direct NVLink2 x2 link" in text and "50 GB/s" in text
    assert "Table C.3" in text


def test_dgx1_v100_gpu0_gpu5_notes_gpu_relay(built_con):
    plan, rows, text = run(built_con, system="dgx1_v100", src="gpu0", dst="gpu5")
    assert plan.extra["hops"] == 2 and plan.extra["path"][1] in ("gpu1", "gpu4")
    assert any("not forwarded by a GPU" in n and "5 hops" in n for n in plan.notes)


def test_dgx2_nvswitch_paths(built_con):
    plan, rows, text = run(built_con, system="dgx2", src="gpu0", dst="gpu1")
    assert plan.extra["hops"] == 2 and plan.extra["path"][1].startswith("nvswitch")
    assert plan.extra["bottleneck_gbps"] == 25.0
    assert plan.extra["aggregate_gbps"] == 150.0           # 6 NVSwitch planes x 25 GB/s
    plan, rows, text = run(built_con, system="dgx2", src="gpu0", dst="gpu15")
    assert plan.extra["hops"] == 3                          # two NVSwitches between the baseboards
    assert plan.extra["bottleneck_gbps"] is None and "nvswitch0-nvswitch6" in text


def test_ac922_tum_cross_socket_bottleneck_is_xbus(built_con):
    plan, rows, text = run(built_con, system="ac922_tum", src="gpu0", dst="gpu3")
    assert plan.extra["path"] == ["gpu0", "cpu0", "cpu1", "gpu3"]
    assert plan.extra["link_types"] == ["NVLink2 x3", "X-Bus", "NVLink2 x3"]
    assert plan.extra["bottleneck_gbps"] == 64.0


def test_graph_of_a_system(built_con):
    plan, rows, text = run(built_con, system="dgx1_v100")
    assert len(rows) == 33
    assert sum(1 for r in rows if r["link_type"] == "NVLink2") == 16
    assert sum(r["count"] for r in rows if r["link_type"] == "NVLink2") == 24   # 6 NVLink bricks x 8 GPUs / 2
    assert plan.chart["kind"] == "network" and plan.chart["highlight"] == []
    kinds = {n["id"]: n["kind"] for n in plan.chart["nodes"]}
    assert kinds["gpu0"] == "gpu" and kinds["pcie_switch0"] == "pcie_switch" and len(kinds) == 18
    e = next(e for e in plan.chart["edges"] if (e["source"], e["target"]) == ("gpu0", "gpu3"))
    assert (e["type"], e["count"], e["bw_gbps_per_dir"]) == ("NVLink2", 2, 50.0)
    assert text.startswith("NVIDIA DGX-1 with 8 NVIDIA V100 GPUs: 33 links")


def test_link_type_filter_and_ipu_boards(built_con):
    plan, rows, text = run(built_con, system="ipu16", link_type="IPU-Link")
    assert len(rows) == 11 and {r["link_type"] for r in rows} == {"IPU-Link"}
    assert {r["count"] for r in rows} == {1, 3}             # side rails and 3-link board rungs
    parents = {n["id"]: n["parent"] for n in plan.chart["nodes"]}
    assert parents["ipu5"] == parents["ipu7"] == "board0"   # the renderer can group IPUs by board
    assert len(plan.chart["highlight"]) == 11


def test_hostile_endpoint_is_harmless(built_con):
    before = table_counts(built_con)
    with pytest.raises(OutOfScope, match="no component called"):
        run(built_con, system="dgx1_v100", src=HOSTILE, dst="gpu1")
    with pytest.raises(OutOfScope):
        run(built_con, system="xmp64", link_type=HOSTILE)
    assert table_counts(built_con) == before


def test_out_of_scope(built_con):
    with pytest.raises(OutOfScope, match="systems with one"):
        run(built_con, system="marenostrum4")
    with pytest.raises(OutOfScope, match="Which system"):
        run(built_con, src="gpu0", dst="gpu1")
    with pytest.raises(OutOfScope, match="link types there: OnChip, XLink"):
        run(built_con, system="xmp64", link_type="PCIe")
    with pytest.raises(OutOfScope, match="no component called 'gpu1'"):
        run(built_con, system="titan_rtx", src="gpu0", dst="gpu1")


def test_a_path_from_an_endpoint_to_itself_has_no_bandwidth_and_no_crash():
    import networkx as nx
    from app.intents.topology import aggregate_bw
    assert aggregate_bw(nx.Graph(), [["host"]]) is None
