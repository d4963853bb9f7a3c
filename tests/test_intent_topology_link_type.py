"""topology: paths asked with a link type that no path of that type alone can satisfy, and "the host" where
no host is wired in the stored graph; real built database and real model."""
from conftest import run_intent

from app.intents import topology as topo


def run(con, **slots):
    return run_intent(con, topo, slots)


def _links(con, system):
    return con.execute("SELECT a, b, link_type FROM links WHERE system_id = ?", [system]).fetchall()


def test_pcie_question_answers_with_the_real_path(built_con):
    # DGX-1 V100 GPU1 -> GPU6: no PCIe-only path (the sockets are joined by QPI); the shortest path is NVLink
    plan, rows, text = run(built_con, system="dgx1_v100", src="gpu1", dst="gpu6", link_type="PCIe")
    assert plan.extra["hops"] == 2 and plan.extra["uses_link_type"] is False
    assert {r["link_type"] for r in rows} == {"NVLink2"}
    assert "it does not use PCIe (only NVLink2)" in text
    # the GPU-relay-free route (what a CUDA copy without peer access takes) does cross PCIe
    assert "the route without GPU relays uses PCIe" in text and "QPI" in text
    assert any("no path of PCIe links alone" in n for n in plan.notes)


def test_xbus_question_on_yme(built_con):
    plan, rows, text = run(built_con, system="ac922_yme", src="gpu1", dst="gpu3", link_type="X-Bus")
    xbus = [(a, b) for a, b, t in _links(built_con, "ac922_yme") if t == "X-Bus"]
    assert len(xbus) == 1 and tuple(plan.extra["path"][1:3]) in (xbus[0], xbus[0][::-1])
    assert plan.extra["uses_link_type"] is True and "it uses X-Bus" in text
    plan, rows, text = run(built_con, system="ac922_yme", src="gpu0", dst="gpu1", link_type="X-Bus")
    assert plan.extra["hops"] == 1 and plan.extra["uses_link_type"] is False
    assert "it does not use X-Bus" in text


def test_restricted_path_that_exists_is_kept(built_con):
    plan, rows, text = run(built_con, system="dgx1_p100", src="gpu0", dst="gpu7", link_type="NVLink")
    assert {r["link_type"] for r in rows} == {"NVLink1"} and plan.extra["hops"] == 2
    assert "uses_link_type" not in plan.extra and "does not use" not in text


def test_host_without_a_host_component_shows_the_graph(built_con):
    plan, rows, text = run(built_con, system="dgx2", dst="host")
    links = _links(built_con, "dgx2")
    assert len(rows) == len(links) and not any("host" in (a, b) for a, b, _ in links)
    cpu_links = {tuple(sorted((a, b))) for a, b, _ in links if a.startswith("cpu") or b.startswith("cpu")}
    assert {tuple(sorted(h)) for h in plan.chart["highlight"]} == cpu_links and cpu_links
    assert text.startswith("No host component is stored") and "cpu0, cpu1" in text
    assert plan.chart["kind"] == "network" and len(plan.chart["edges"]) == len(links)


def test_asked_link_type_question(asker):
    r = asker.ask("does data from GPU 2 to GPU 5 on the DGX-1 P100 travel over PCIe")
    assert r.intent == "topology", r.answer
    assert r.rows and "PCIe" in r.answer and ("does not use PCIe" in r.answer or "uses PCIe" in r.answer)


def test_asked_host_question(asker):
    r = asker.ask("what connects the DGX-1 V100 to its host")
    assert r.intent == "topology", r.answer
    assert r.rows and "No host component is stored" in r.answer and r.chart["kind"] == "network"


def test_link_the_system_lacks_is_answered_no_with_its_graph(asker):
    """"Is there any NVLink at all?" on a PCIe-only desktop: the stored graph says no, and shows what it has."""
    res = asker.ask("titan rtx system - is there any nvlink at all?")
    assert res.intent == "topology" and res.slots.get("link_type") == "NVLink"
    assert res.answer.startswith("Titan RTX desktop") and "has no NVLink links" in res.answer
    assert "pcie3" in res.answer and res.chart and res.chart["kind"] == "network"
    assert any("whole graph is shown" in n for n in res.notes)
    # a measurement over the missing link stays a refusal: a graph is no bandwidth
    res = asker.ask("infiniband bandwidth between the h200 nodes")
    assert res.intent == "out_of_scope" and "has no InfiniBand links" in res.answer
