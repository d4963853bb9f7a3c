import json

from conftest import FIXTURES, rejected as _rejected

D = FIXTURES / "nvsmi_nvlink"


def _attrs(db, comp, sid=None):
    q = "SELECT attrs FROM components WHERE component_id = ?" + (" AND system_id = ?" if sid else "")
    return json.loads(db.execute(q, [comp, sid] if sid else [comp]).fetchone()[0])


def test_h100_status_links_and_inactive(ingest, db):
    rep = ingest(D / "nvlink_status_h100.txt")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "nvidia-smi-nvlink"
    assert rep.systems == ["host_dgx_h100_01"] and rep.components == 8 and rep.measurements == 0
    g0 = _attrs(db, "gpu0")
    assert g0["model"] == "NVIDIA H100 80GB HBM3" and g0["uuid"].startswith("GPU-")
    assert (g0["nvlink_links"], g0["nvlink_active"], g0["nvlink_inactive"]) == (18, 18, [])
    assert g0["nvlink_gbps_per_link"] == 26.562 and g0["nvlink_gbps_per_dir"] == 478.116
    g3 = _attrs(db, "gpu3")
    assert (g3["nvlink_active"], g3["nvlink_inactive"], g3["nvlink_gbps_per_dir"]) == (17, [7], 451.554)


def test_v100_inactive_links_and_model_system(ingest, db):
    rep = ingest(D / "nvlink_status_v100.txt")
    assert rep.status == "loaded", rep.message
    sid = db.execute("SELECT DISTINCT system_id FROM components").fetchone()[0]
    assert sid == "node_8x_tesla_v100_sxm2_32gb"   # components only; the system id comes from the GPU models
    assert rep.systems == [sid]                    # the report names the system the components went to
    g3 = _attrs(db, "gpu3")
    assert g3["nvlink_inactive"] == [3, 5] and g3["nvlink_active"] == 4 and g3["nvlink_gbps_per_link"] == 25.781


def test_remote_listing_merged_with_status(ingest, db):
    rep = ingest(D / "nvlink_remote_a100.txt", system="dgx_a100")
    assert rep.status == "loaded", rep.message
    g0 = _attrs(db, "gpu0", "dgx_a100")
    assert g0["nvlink_remote"]["0"] == "00000008:00:00.0:32"
    assert g0["nvlink_remote"]["11"] == "0000000D:00:00.0:33"
    assert g0["nvlink_active"] == 12 and g0["nvlink_gbps_per_link"] == 25.0




def test_rejects_truncated_list_only_empty_foreign(ingest, db, tmp_path):
    assert "cut off" in _rejected(ingest, db, D / "nvlink_status_truncated.txt").message
    text = (D / "nvlink_status_h100.txt").read_text()
    mid = tmp_path / "mid.txt"
    mid.write_text(text[: text.rindex("26.562") + 3])  # ends inside a number
    assert "truncated" in _rejected(ingest, db, mid).message
    gpus_only = tmp_path / "L.txt"
    gpus_only.write_text("".join(l + "\n" for l in text.splitlines() if l.startswith("GPU")))
    _rejected(ingest, db, gpus_only)
    _rejected(ingest, db, gpus_only, fmt="nvidia-smi-nvlink")
    empty = tmp_path / "e.txt"
    empty.write_text("")
    _rejected(ingest, db, empty, fmt="nvidia-smi-nvlink")
    _rejected(ingest, db, FIXTURES / "nvsmi_topo" / "topo_h100_8gpu.txt", fmt="nvidia-smi-nvlink")


def test_detection():
    from ingest import registry
    for name in ("nvlink_status_h100.txt", "nvlink_status_v100.txt", "nvlink_remote_a100.txt"):
        assert registry.detect(registry.make_context(D / name)).name == "nvidia-smi-nvlink"
