"""Ways of asking that the reader once read wrong (session 58, from the thirty-fourth set's misses, each tested with
other words): a factor a document states ("by what factor is ... faster", "according to NVIDIA ... beat") looked up
as the stored speedup; one count "vs" its base a single stored speedup; a speedup "over" another code one figure; a
stated share of peak for a benchmark; a machine said with its paper's name ("the Hey CAI client machines") listed
as that paper's systems; "what produced the X data" the inventory; a host-copy benchmark naming its operation (and so
the GPU's end); "from a GPU" no count; "NUMA" and other parts of any machine no unknown machine; a rate at a
precision the machine never stored refused with the ones it has; "runs hotter" the temperature; a link's share
"how close ... to the limit"; "upgrade ... gain" two machines compared; "cut energy" the stored reduction; a
release nobody measured, and e-mailing an answer, refused; a next reading only one the words allow. Real model, real
built database; numbers are checked with separate SQL."""
import pytest

from conftest import stored_values as _values


def test_a_stated_factor_for_a_copy(asker, built_con):
    res = asker.ask("By what factor are write-combined GPU-to-host copies on Yme quicker from one socket than the "
                    "other?")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "speedup", (res.intent, res.slots)
    assert "count" not in res.slots, res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND operation = ? "
                   "AND condition = ?", ["ac922_yme", "speedup", "d2h", "write_combined"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    assert not any(n.startswith("no metric given") for n in res.notes), res.notes


def test_the_vendors_claimed_factor(asker, built_con):
    res = asker.ask("According to NVIDIA, by what factor does the DGX-2 beat its predecessor?")
    assert res.intent == "metric_lookup", (res.intent, res.slots)
    assert res.slots.get("metric") == "speedup" and res.slots.get("condition") == "vendor_claim", res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND condition = ?",
                   ["dgx2", "speedup", "vendor_claim"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    assert not any("None" in n for n in res.notes), res.notes


def test_one_count_against_its_base(asker, built_con):
    res = asker.ask("tarantella speedup on chifflot at 12 gpus vs 2?")
    assert res.intent == "metric_lookup" and res.slots.get("count") == 12, (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND library = ? "
                   "AND count = ?", ["chifflot", "speedup", "tarantella", 12])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    # a range of counts stays the curve
    assert asker.ask("chifflot tarantella speedup from 2 to 12 gpus").intent == "scaling"


def test_a_speedup_over_another_code(asker):
    res = asker.ask("m-cubes speedup vs zmcintegral for the fB integrand")
    assert res.intent == "metric_lookup" and res.slots.get("app") == "vegas_fB", (res.intent, res.slots)


def test_a_benchmarks_stated_share_of_peak(asker, built_con):
    res = asker.ask("What share of peak memory bandwidth does the optimised SU3_Bench reach on the Xeon 8280?")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "efficiency", (res.intent, res.slots)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND app = ? "
                   "AND condition = ?", ["xeon_8280", "efficiency", "su3_bench", "optimized"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_machines_said_with_their_papers_name(asker, built_con):
    res = asker.ask("Which of the Hey CAI client laptops have timings here?")
    assert res.intent == "list_data", (res.intent, res.slots, res.answer)
    cited = {r[0] for r in built_con.execute("SELECT DISTINCT system_id FROM runs WHERE source LIKE ?",
                                             ["%(Hey CAI)%"]).fetchall()}
    assert {r["system_id"] for r in res.rows} == cited, res.rows
    assert "Hey CAI paper" in res.answer, res.answer
    # a machine the data lacks, said with a word of a known one, stays unknown
    res = asker.ask("which Frontier client machines are loaded?")
    assert res.intent == "out_of_scope" and "Frontier" in res.answer, res.answer


def test_what_produced_a_machines_data(asker):
    res = asker.ask("which programs generated the titan rtx numbers: shoc, scope or nccl-tests?")
    assert res.intent == "list_data" and res.slots.get("system") == "titan_rtx", (res.intent, res.slots)
    assert not res.slots.get("app") and not res.slots.get("library"), res.slots
    assert "SHOC" in res.answer and "DeepBench" in res.answer, res.answer   # every tool that ran there


def test_a_host_copy_benchmark_names_its_operation(asker, built_con):
    res = asker.ask("yme Comm_Memcpy_HostToGPU pageable into gpu2")
    assert res.slots.get("operation") == "h2d" and res.slots.get("dst") == "gpu2", res.slots
    assert "src" not in res.slots, res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND app = ? AND dst = ? "
                   "AND condition = ?", ["ac922_yme", "Comm_Memcpy_HostToGPU", "gpu2", "pageable"])
    assert res.rows and res.rows[0]["value"] in want, res.answer


def test_a_precision_never_stored_is_refused_with_the_stored_ones(asker, built_con):
    res = asker.ask("graphcore ipu double precision gflops")
    assert res.intent == "out_of_scope", (res.intent, res.answer)
    stored = _values(built_con, "SELECT DISTINCT precision FROM measurements WHERE system_id = ? AND metric = ? "
                     "AND precision IS NOT NULL", ["ipu16", "flops"])
    assert "fp64" not in stored and all(p in res.answer for p in stored), res.answer


@pytest.mark.parametrize("q, temp_stored", [("Does Yme run hotter than Mini Summit?", True),
                                            ("which one runs hotter, the H200 pair or the IPU box", False)])
def test_runs_hotter(asker, q, temp_stored):
    res = asker.ask(q)
    assert res.slots.get("metric") == "temperature" and "operation" not in res.slots, res.slots
    assert (res.intent == "compare_systems") == temp_stored, (res.intent, res.answer)


def test_how_close_to_a_links_limit(asker):
    res = asker.ask("how close does su3 bench get to the upi ceiling on the xeon 8280")
    assert res.intent == "link_efficiency" and res.slots.get("link_type") == "UPI", (res.intent, res.slots)


def test_a_links_share_is_not_another_efficiency(asker):
    res = asker.ask("what percent of its nvlink2 peak do lassen's gpus reach?")
    assert res.intent == "out_of_scope" and "NVLink2" in res.answer, (res.intent, res.answer)


def test_an_upgrades_gain(asker):
    res = asker.ask("titan rtx -> gtx980 downgrade, fp32 peak gain?")
    assert res.intent == "compare_systems", (res.intent, res.slots)
    assert set([res.slots.get("system"), *res.slots.get("compare_with", [])]) == {"titan_rtx", "gtx980"}, res.slots


def test_cut_energy_is_the_stored_reduction(asker, built_con):
    res = asker.ask("how much energy does the photonic memory cut versus HBM2?")
    assert res.slots.get("system") == "llm_sim" and res.slots.get("metric") == "energy_reduction", res.slots
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ?",
                   ["llm_sim", "energy_reduction"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    # "all reduce time" is a collective's time, not a cut
    assert asker.ask("dgx2 all reduce time with 16 gpus at 1 MB").slots.get("metric") == "time"


@pytest.mark.parametrize("q", ["What busbw will the h200 pair reach when NCCL 4 comes out?",
                               "please email the yme latency matrix to my supervisor"])
def test_refused(asker, q):
    assert asker.ask(q).intent == "out_of_scope", q


def test_a_next_reading_the_words_allow(asker, built_con):
    res = asker.ask("epyc 7742 node triad")
    assert res.intent == "metric_lookup", (res.intent, res.answer)
    want = _values(built_con, "SELECT value FROM measurements WHERE system_id = ? AND operation = ?",
                   ["hangingnodes_epyc7742_node", "triad"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("dgx1 p100 hbm2 bandwidth spec per gpu")
    assert res.intent == "metric_lookup" and res.slots.get("condition") == "spec", (res.intent, res.slots)
