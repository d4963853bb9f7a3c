"""Per-pair answers from path-class measurements (app/intents/_pairs.py), against the real database.

Expected numbers and classes are read independently from the curated CSV files the database is built from:
measurements.csv (one row per path class, no src/dst) and links.csv (how many NVLinks join each GPU pair).
"""
import csv
import json

import pytest
from conftest import HOSTILE, REPO, run_intent, table_counts

from app import catalog
from app.intents import OutOfScope, get, rows_of

CURATED = REPO / "datasets" / "curated" / "gpu_interconnects_tum2019"
ML = get("metric_lookup")
PM = get("pair_matrix")


def _class_rows(system, test="halfduplex", condition="p2p_on", direction="uni"):
    """{path_class: (value, source)} for p2p bandwidth of one mgbench test, straight from the CSV."""
    out = {}
    with open(CURATED / "measurements.csv", newline="") as f:
        for r in csv.DictReader(f):
            p = json.loads(r["params"] or "{}")
            if (r["system_id"], r["metric"], r["operation"], r["condition"], r["direction"], p.get("test")) == (
                    system, "bandwidth", "p2p", condition, direction, test) and not r["src"] and p.get("path_class"):
                out[p["path_class"]] = (float(r["value"]), r["source"])
    return out


def _nvlinks(system):
    """{(a, b): number of NVLinks} for GPU-GPU links of a system, from links.csv."""
    with open(CURATED / "links.csv", newline="") as f:
        return {(r["a"], r["b"]): int(r["count"]) for r in csv.DictReader(f)
                if r["system_id"] == system and r["a"].startswith("gpu") and r["b"].startswith("gpu")
                and r["link_type"].startswith("NVLink")}


def test_every_nvlink_pair_of_the_dgx1_v100_gets_its_class_value(built_con):
    classes = _class_rows("dgx1_v100")
    assert set(classes) == {"NVLink x1", "NVLink x2"}
    links = _nvlinks("dgx1_v100")
    assert len(links) == 16
    for (a, b), n in links.items():
        for src, dst in ((a, b), (b, a)):
            plan, rows, text = run_intent(built_con, ML, {"system": "dgx1_v100", "metric": "bandwidth",
                                                          "operation": "p2p", "src": src, "dst": dst})
            value, source = classes[f"NVLink x{n}"]
            top = rows[0]
            assert (top["src"], top["dst"], top["value"], top["source"]) == (src, dst, value, source)
            assert top["path_class"] == f"NVLink x{n}" and top["test"] == "halfduplex"
            assert f"path class NVLink x{n}" in text and "not of this pair alone" in text
            assert source in text
            assert any("per path class" in note for note in plan.notes)


def test_contract_example_value(built_con):
    # ask-contract.md: GPU0 -> GPU3 on the DGX-1 V100 = 46.23 GB/s over NVLink x2 (seed 001 §5.1.2)
    plan, rows, text = run_intent(built_con, ML, {"system": "dgx1_v100", "metric": "bandwidth",
                                                  "operation": "p2p", "src": "gpu0", "dst": "gpu3"})
    assert rows[0]["value"] == 46.23 and "§5.1.2" in rows[0]["source"]


def test_pair_whose_class_was_not_measured_gets_no_number(built_con):
    # GPU0 and GPU5 share no NVLink: their path crosses the QPI between sockets (SYS); no SYS bandwidth row
    assert ("gpu0", "gpu5") not in _nvlinks("dgx1_v100") and "SYS" not in _class_rows("dgx1_v100")
    with pytest.raises(OutOfScope, match=r"path class SYS.*QPI.*no number"):
        run_intent(built_con, ML, {"system": "dgx1_v100", "metric": "bandwidth", "operation": "p2p",
                                   "src": "gpu0", "dst": "gpu5"})


def test_p2p_off_uses_the_pcie_class(built_con):
    # DGX-1 P100, P2P off: GPU0 and GPU2 are on different PCIe switches of the same CPU (PHB)
    value, source = _class_rows("dgx1_p100", condition="p2p_off")["PHB"]
    plan, rows, text = run_intent(built_con, ML, {"system": "dgx1_p100", "metric": "bandwidth", "operation": "p2p",
                                                  "src": "gpu0", "dst": "gpu2", "condition": "p2p_off"})
    assert (rows[0]["value"], rows[0]["source"], rows[0]["path_class"]) == (value, source, "PHB")
    assert "host bridge" in text


def test_cross_socket_pair_on_the_ac922_is_sys_over_the_xbus(built_con):
    value, source = _class_rows("ac922_tum")["SYS"]
    plan, rows, text = run_intent(built_con, ML, {"system": "ac922_tum", "metric": "bandwidth", "operation": "p2p",
                                                  "src": "gpu1", "dst": "gpu2"})
    assert (rows[0]["value"], rows[0]["source"]) == (value, source)
    assert "X-Bus" in text and "path class SYS" in text


def test_direct_pair_measurements_still_come_first(built_con):
    plan, rows, text = run_intent(built_con, ML, {"system": "dgx2", "metric": "bandwidth", "operation": "p2p",
                                                  "src": "gpu0", "dst": "gpu3"})
    assert rows and all((r["src"], r["dst"]) == ("gpu0", "gpu3") for r in rows)
    assert all("path_class" not in r and "part" not in r for r in rows)
    assert "path class" not in text


def test_pair_matrix_of_the_tum_ac922_from_classes(built_con):
    classes = _class_rows("ac922_tum")
    links = _nvlinks("ac922_tum")
    plan, rows, text = run_intent(built_con, PM, {"system": "ac922_tum", "metric": "bandwidth"})
    assert len(rows) == 12 and all(r["src"] != r["dst"] for r in rows)
    for r in rows:
        cls = "NVLink x3" if (r["src"], r["dst"]) in links or (r["dst"], r["src"]) in links else "SYS"
        assert (r["path_class"], r["value"], r["source"]) == (cls, *classes[cls])
    assert plan.chart["kind"] == "heatmap" and plan.chart["unit"] == "GB/s"
    assert "NVLink x3" in text and "SYS" in text and "path class" in text


def test_pair_matrix_of_the_dgx1_p100_leaves_unmeasured_classes_empty(built_con):
    value, source = _class_rows("dgx1_p100")["NVLink x1"]
    links = _nvlinks("dgx1_p100")
    plan, rows, text = run_intent(built_con, PM, {"system": "dgx1_p100", "metric": "bandwidth"})
    assert len(rows) == 2 * len(links) == 32
    assert {(r["value"], r["source"]) for r in rows} == {(value, source)}
    assert {tuple(sorted((r["src"], r["dst"]))) for r in rows} == set(links)
    assert "24 pairs in class SYS have no measurement" in text
    plan, rows, text = run_intent(built_con, PM, {"system": "dgx1_p100", "metric": "bandwidth", "src": "gpu4"})
    assert {r["src"] for r in rows} == {"gpu4"} and len(rows) == 4


def test_hostile_endpoint_in_class_mode(built_con):
    before = table_counts(built_con)
    cat = catalog.load(built_con)
    plan = PM.plan({"system": "dgx1_v100", "src": HOSTILE}, cat)
    assert HOSTILE not in plan.sql and plan.params["src"] == HOSTILE
    with pytest.raises(OutOfScope):
        PM.answer(rows_of(built_con, plan), plan, cat)
    plan = ML.plan({"system": "dgx1_v100", "metric": "bandwidth", "src": HOSTILE, "dst": "gpu1"}, cat)
    assert HOSTILE not in plan.sql
    with pytest.raises(OutOfScope):
        ML.answer(rows_of(built_con, plan), plan, cat)
    assert table_counts(built_con) == before


def test_host_copy_names_the_device_end(built_con):
    # the GPU named in a host-to-device question is the destination even when it arrives as the source
    plan, rows, text = run_intent(built_con, ML, {"system": "ac922_yme", "metric": "bandwidth",
                                                  "operation": "h2d", "src": "gpu2"})
    assert rows and all(r["dst"] == "gpu2" and r["src"] == "host" for r in rows)
    assert plan.params["device"] == "gpu2" and "gpu2" not in plan.sql
    plan, rows, text = run_intent(built_con, ML, {"system": "dgx2", "metric": "bandwidth",
                                                  "operation": "d2h", "dst": "gpu1"})
    assert rows and all(r["src"] == "gpu1" for r in rows)
    assert not any("device" in n for n in plan.notes)


# ---- full questions through the real model ----------------------------------------------------------

def test_asked_pair_on_the_dgx1_v100(asker):
    r = asker.ask("what p2p bandwidth does GPU 4 to GPU 7 get on the DGX-1 V100")
    assert r.intent == "metric_lookup", r.answer
    n = _nvlinks("dgx1_v100")[("gpu4", "gpu7")]
    assert r.rows[0]["value"] == _class_rows("dgx1_v100")[f"NVLink x{n}"][0]
    assert f"NVLink x{n}" in r.answer and "[" in r.answer


def test_asked_matrix_of_the_tum_ac922(asker):
    r = asker.ask("show the GPU pair bandwidth heatmap of the TUM AC922")
    assert r.intent == "pair_matrix", r.answer
    assert len(r.rows) == 12 and r.chart["kind"] == "heatmap"
    assert {x["path_class"] for x in r.rows} == {"NVLink x3", "SYS"}
