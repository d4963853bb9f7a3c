"""link_efficiency beyond point links: NVSwitch fabrics, link types with no stated rate, and operations whose
measurements carry one endpoint or none; real built database and real model."""
import pytest
from conftest import run_intent

from app.intents import OutOfScope
from app.intents import link_efficiency as le


def run(con, **slots):
    return run_intent(con, le, slots)


def _per_gpu_switch_bw(con, system, gpu):
    """Sum of a GPU's stated link bandwidths into NVSwitches, read from the tables."""
    return con.execute("""SELECT sum(l.bw_gbps_per_dir) FROM links l
        JOIN components c ON c.system_id = l.system_id AND c.component_id = (CASE WHEN l.a = $g THEN l.b ELSE l.a END)
        WHERE l.system_id = $s AND $g IN (l.a, l.b) AND c.kind = 'nvswitch'""", {"s": system, "g": gpu}).fetchone()[0]


def test_nvswitch_on_the_dgx2(built_con):
    plan, rows, text = run(built_con, system="dgx2", link_type="NVSwitch")
    nominal = _per_gpu_switch_bw(built_con, "dgx2", "gpu0")
    assert nominal and rows
    for r in rows:
        assert "nvswitch" in r["via_kinds"] and r["operation"] == "p2p"
        assert r["nominal"] == nominal
        factor = 2 if r["direction"] == "bi" else 1
        assert r["percent"] == round(100 * r["measured"] / (factor * r["nominal"]), 1)
    assert text.startswith("NVSwitch links on NVIDIA DGX-2") and (
        f"{nominal:g} GB/s nominal" in text or f"({nominal:g} GB/s per direction)" in text)   # a bidirectional lead


def test_cross_baseboard_pair_is_set_against_the_per_gpu_switch_bandwidth(built_con):
    plan, rows, text = run(built_con, system="dgx2", src="gpu0", dst="gpu12", condition="p2p_on")
    tartan = [r for r in rows if r["tool"] == "Tartan" and r["direction"] == "uni"]
    assert tartan and all(r["nominal"] == _per_gpu_switch_bw(built_con, "dgx2", "gpu0") for r in tartan)
    assert all("per-GPU NVSwitch" in r["nominal_source"] for r in tartan)
    assert any("switch-to-switch" in n for n in plan.notes)


def test_xlink_without_a_stated_rate_stays_no_data(built_con):
    assert built_con.execute("SELECT count(*) FROM links WHERE system_id = 'xmp64' AND link_type = 'XLink' "
                             "AND bw_gbps_per_dir IS NOT NULL").fetchone()[0] == 0
    with pytest.raises(OutOfScope, match="no source states a nominal bandwidth for its XLink links"):
        run(built_con, system="xmp64", link_type="XLink")


def test_operation_without_endpoints_on_the_tum_ac922(built_con):
    plan, rows, text = run(built_con, system="ac922_tum", operation="h2d")
    # every h2d statement of the document against its link (near host: NVLink x3, far host: + X-Bus)
    n = built_con.execute("""SELECT count(DISTINCT json_extract_string(params, '$.path_class'))
        FROM measurements WHERE system_id = 'ac922_tum' AND operation = 'h2d'""").fetchone()[0]
    assert rows and all(r["operation"] == "h2d" for r in rows)
    assert len({r["link"] for r in rows}) == n == 2
    assert all(r["percent"] is not None for r in rows)


def test_host_copies_stored_with_one_end(built_con):
    # SHOC stores its readback (d2h) with only the GPU end: it is routed GPU -> host like the others
    plan, rows, text = run(built_con, system="gtx980", operation="d2h")
    shoc = [r for r in rows if r["tool"] == "SHOC"]
    assert shoc and all((r["src"], r["dst"]) == ("gpu0", "host") for r in shoc)


def test_asked_nvswitch_efficiency(asker):
    r = asker.ask("how close to peak do the NVSwitches of the DGX-2 get")
    assert r.intent == "link_efficiency", r.answer
    assert r.rows and all(x["percent"] is not None for x in r.rows) and "%" in r.answer
