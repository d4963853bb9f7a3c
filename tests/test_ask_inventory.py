"""What is loaded, asked the ways people ask it: where a tool ran, whether it ran on one system, how many runs a
system has, which applications its rows name, which systems are simulations, a family's name in the plural; and
stated figures asked under another word for them. Real model, real built database; expected answers from separate
SQL over the same database."""


def _rows(con, sql, *params):
    return con.execute(sql, list(params)).fetchall()


def test_where_a_tool_ran(asker, built_con):
    res = asker.ask("Which systems were benchmarked with SHOC?")
    assert res.intent == "list_data"
    want = {sid for (sid,) in _rows(built_con, "SELECT DISTINCT system_id FROM runs WHERE tool = 'SHOC'")}
    assert {r["system_id"] for r in res.rows} == want and f"SHOC ran on {len(want)} systems" in res.answer


def test_a_tool_named_is_not_a_library_measured_by_any_tool(asker, built_con):
    """nccl-tests ran on the H200 pair only; NCCL collectives were measured on five more systems by other tools."""
    res = asker.ask("Is there any nccl-tests data loaded?")
    want = {sid for (sid,) in _rows(built_con, "SELECT DISTINCT system_id FROM runs WHERE tool = 'nccl-tests'")}
    assert {r["system_id"] for r in res.rows} == want


def test_did_a_tool_run_on_a_system(asker, built_con):
    where = {sid for (sid,) in _rows(built_con, "SELECT DISTINCT system_id FROM runs WHERE tool = 'mgbench'")}
    assert "dgx2" not in where
    no = asker.ask("Did anyone run mgbench on the DGX-2?")
    assert no.intent == "list_data" and no.answer.startswith("No:") and {r["system_id"] for r in no.rows} == where
    yes = asker.ask("did yme run tartan")
    assert yes.answer.startswith("Yes:") and [r["system_id"] for r in yes.rows] == ["ac922_yme"]


def test_a_systems_inventory_counts_its_runs(asker, built_con):
    (n,) = _rows(built_con, "SELECT count(*) FROM runs WHERE system_id = 'dgx2'")[0]
    res = asker.ask("How many runs are stored for the DGX-2?")
    assert res.intent == "list_data" and f"in {n:,} runs" in res.answer


def test_the_applications_of_a_system_when_asked(asker, built_con):
    apps = [a for (a,) in _rows(built_con, "SELECT DISTINCT app FROM measurements WHERE system_id = 'dgx2' "
                                "AND app IS NOT NULL AND operation IS NOT NULL")]
    res = asker.ask("Which applications were run on the DGX-2?")
    assert f"Applications and benchmarks ({len({a.lower() for a in apps})})" in res.answer
    assert all(a in res.answer for a in ("GEMM", "FFT", "conv_bench"))


def test_which_systems_are_simulated(asker, built_con):
    want = {sid for (sid,) in _rows(built_con, "SELECT system_id FROM systems WHERE kind = 'simulated'")}
    res = asker.ask("which systems are simulated rather than real hardware")
    assert res.intent == "list_data" and {r["system_id"] for r in res.rows} == want


def test_a_familys_name_in_the_plural_is_all_of_it(asker):
    res = asker.ask("What data do you have on the AC922s?")
    assert {res.slots["system"], *res.slots["compare_with"]} == {"ac922_tum", "ac922_yme", "ac922_minisummit"}
    assert "the V100s" not in res.answer


def test_the_v100s_of_a_system_stay_its_gpus(asker):
    res = asker.ask("bandwidth between the V100s of a Lassen node")
    assert not res.slots.get("compare_with")


def test_theoretical_reads_the_stated_figure_under_its_stored_word(asker, built_con):
    res = asker.ask("Compare the theoretical memory bandwidth of the GTX 980 and the Titan RTX.")
    got = {r["system_id"]: r["value"] for r in res.rows}
    for sid in ("gtx980", "titan_rtx"):
        stated = [v for (v,) in _rows(built_con, "SELECT value FROM measurements WHERE system_id = ? AND "
                                      "metric = 'bandwidth' AND condition = 'spec'", sid)]
        assert got[sid] in stated
    assert "theoretical" not in {r.get("condition") for r in res.rows}


def test_the_nominal_rate_between_two_gpus_is_the_links(asker, built_con):
    (bw,) = _rows(built_con, "SELECT bw_gbps_per_dir FROM links WHERE system_id = 'dgx1_v100' AND "
                  "((a = 'gpu0' AND b = 'gpu3') OR (a = 'gpu3' AND b = 'gpu0'))")[0]
    res = asker.ask("What is the nominal link rate between GPU0 and GPU3 on the DGX-1 V100?")
    assert res.intent == "topology" and f"{bw:g} GB/s" in res.answer


def test_a_hop_count_said_in_words_picks_its_label(asker, built_con):
    (v,) = _rows(built_con, "SELECT value FROM measurements WHERE system_id = 'xmp64' AND metric = 'latency' "
                 "AND params->>'offchip_hops' = '4'")[0]
    res = asker.ask("what is the off chip latency for four hops on the x m p sixty four")
    assert res.rows[0]["value"] == v


def test_a_three_letter_tool_name(asker, built_con):
    want = {x for (x,) in built_con.execute("SELECT DISTINCT system_id FROM runs WHERE tool = 'osu'").fetchall()}
    res = asker.ask("on which clusters did the osu benchmarks run")
    assert {r["system_id"] for r in res.rows} == want
