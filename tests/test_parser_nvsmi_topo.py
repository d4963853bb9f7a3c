import json

from conftest import FIXTURES, rejected as _rejected

D = FIXTURES / "nvsmi_topo"


def _link(db, sid, a, b):
    return db.execute("SELECT link_type, count, note, bw_gbps_per_dir FROM links WHERE system_id = ? AND a = ? AND b = ?",
                      [sid, a, b]).fetchone()


def test_h100_matrix_components_and_links(ingest, db):
    rep = ingest(D / "topo_h100_8gpu.txt")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "nvidia-smi-topo"
    sid = "host_dgx_h100_01"  # from the shell prompt line
    assert rep.systems == [sid] and rep.runs == 0 and rep.measurements == 0
    assert (rep.components, rep.links) == (8 + 10 + 2, 18 * 17 // 2)
    kinds = dict(db.execute("SELECT kind, count(*) FROM components WHERE system_id = ? GROUP BY 1", [sid]).fetchall())
    assert kinds == {"gpu": 8, "nic": 10, "cpu": 2}
    assert _link(db, sid, "gpu0", "gpu7")[:2] == ("NVLink", 18)
    assert _link(db, sid, "gpu0", "gpu7")[2] == "NV18"
    assert _link(db, sid, "gpu0", "nic3")[0] == "Other" and _link(db, sid, "gpu0", "nic3")[2] == "PIX"
    assert _link(db, sid, "gpu0", "nic0")[2] == "NODE"
    assert _link(db, sid, "gpu0", "nic4")[2] == "SYS"
    assert _link(db, sid, "nic6", "nic7")[2] == "PIX"
    assert _link(db, sid, "gpu0", "nic3")[3] is None  # the matrix gives no bandwidth
    g4 = json.loads(db.execute("SELECT attrs FROM components WHERE system_id = ? AND component_id = 'gpu4'",
                               [sid]).fetchone()[0])
    assert g4 == {"cpu_affinity": "56-111,168-223", "numa_node": 1, "cpu": "cpu1"}
    nic = db.execute("SELECT label, attrs FROM components WHERE system_id = ? AND component_id = 'nic3'",
                     [sid]).fetchone()
    assert nic[0] == "mlx5_3" and json.loads(nic[1])["column"] == "NIC3"
    cpu1 = json.loads(db.execute("SELECT attrs FROM components WHERE component_id = 'cpu1'").fetchone()[0])
    assert cpu1["numa_node"] == 1 and cpu1["cpu_affinity"] == "56-111,168-223"
    assert db.execute("SELECT count(*) FROM links WHERE link_type = 'NVLink'").fetchone()[0] == 28


def test_old_driver_mlx_columns_spaces_no_numa(ingest, db):
    rep = ingest(D / "topo_dgx1_v100.txt", system="dgx1_v100")
    assert rep.status == "loaded", rep.message
    assert (rep.components, rep.links) == (8 + 4 + 2, 12 * 11 // 2)
    s = "dgx1_v100"
    assert _link(db, s, "gpu0", "gpu3")[:2] == ("NVLink", 2)
    assert _link(db, s, "gpu0", "gpu1")[:2] == ("NVLink", 1)
    assert _link(db, s, "gpu0", "gpu5")[2] == "SYS"
    assert _link(db, s, "gpu2", "nic1")[2] == "PIX"  # mlx5_1 -> nic1 although it is the 3rd NIC column
    assert _link(db, s, "gpu0", "nic1")[2] == "PHB"
    nic2 = db.execute("SELECT label, attrs FROM components WHERE component_id = 'nic2'").fetchone()
    assert nic2[0] == "mlx5_2" and json.loads(nic2[1]) == {"device": "mlx5_2"}
    g5 = json.loads(db.execute("SELECT attrs FROM components WHERE component_id = 'gpu5'").fetchone()[0])
    assert g5 == {"cpu_affinity": "20-39,60-79", "cpu": "cpu1"}


def test_system_from_gpu_count_when_nothing_else(ingest, db):
    rep = ingest(D / "topo_2gpu_phb.txt")
    assert rep.status == "loaded", rep.message
    assert "node_2x_gpu" in rep.message  # the warning names the fallback id
    assert _link(db, "node_2x_gpu", "gpu0", "gpu1")[:2] == ("Other", 1)
    assert _link(db, "node_2x_gpu", "gpu0", "gpu1")[2] == "PHB"
    assert db.execute("SELECT count(*) FROM components WHERE kind = 'cpu'").fetchone()[0] == 1


def test_ansi_codes_and_space_separated_copy(ingest, db, tmp_path):
    text = (D / "topo_h100_8gpu.txt").read_text()
    lines = text.splitlines()
    lines[1] = "\x1b[4m" + lines[1] + "\x1b[0m"
    ansi = tmp_path / "ansi.txt"
    ansi.write_text("\n".join(lines) + "\n")
    rep = ingest(ansi, system="a")
    assert rep.status == "loaded" and (rep.components, rep.links) == (20, 153)
    spaced = tmp_path / "spaced.txt"
    spaced.write_text(text.replace("\t", "    "))
    rep = ingest(spaced, system="b")
    assert rep.status == "loaded" and (rep.components, rep.links) == (20, 153)
    assert _link(db, "b", "gpu0", "nic3")[2] == "PIX"




def test_rejects_truncated_p2p_empty_foreign(ingest, db, tmp_path):
    assert "truncated" in _rejected(ingest, db, D / "topo_h100_truncated.txt").message
    # cut at a row boundary: rows missing for the last devices
    lines = (D / "topo_h100_8gpu.txt").read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.txt"
    cut.write_text("".join(lines[:12]))
    assert "incomplete" in _rejected(ingest, db, cut).message
    _rejected(ingest, db, D / "topo_p2p_read.txt")  # topo -p2p: no parser claims it
    assert "topology code" in _rejected(ingest, db, D / "topo_p2p_read.txt", fmt="nvidia-smi-topo").message
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    _rejected(ingest, db, empty, fmt="nvidia-smi-topo")
    _rejected(ingest, db, FIXTURES / "nccl_tests" / "run3.log", fmt="nvidia-smi-topo")


def test_detection():
    from ingest import registry
    for name in ("topo_h100_8gpu.txt", "topo_dgx1_v100.txt", "topo_2gpu_phb.txt"):
        assert registry.detect(registry.make_context(D / name)).name == "nvidia-smi-topo"
