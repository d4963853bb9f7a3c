"""Ways of asking that the reader once read wrong (session 54, from the twenty-sixth set's misses, each tested with
other words): a condition said negated is its other side ("memory that is not pinned" is pageable, "the one that
isn't in-place" out-of-place, "excluding the loaded case" congestion-free, "when the copy does not go over NVLink"
the PCIe mode); "top 3 systems by" ranks the systems; a writing task wraps a question ("draft a caption for my
figure of ...") or asks for a message to someone ("write an email to the admins ..."); a rate asked in bits per
second is noted as stored in bytes; "is X or Y quicker for nvlink copies" ranks the two in the NVLink mode; a tool
spelled letter by letter after "the" ("the o s u suite") is a tool. A count said as what a machine has ("the H200
node has four GPUs, right?") is the asker's belief: corrected, and answered on the GPUs it has, while a count asked
for beyond the machine is still refused. Real model, real built database; numbers are checked with separate SQL."""
import pytest

from nlu.cues import negated_condition


def _value(con, sql, params):
    rows = con.execute(sql, params).fetchall()
    assert rows, (sql, params)
    return rows[0][0]


@pytest.mark.parametrize("said, cond, other", [
    ("when the host buffer is not pinned", "pinned", "pageable"),
    ("the one that is n't in - place", "in_place", "out_of_place"),
    ("in the non - nvlink mode", "nvlink", "pcie"),
    ("excluding the loaded case", "under_load", "congestion_free"),
    ("pinned host memory", "pinned", None),
    ("in place", "in_place", None),
])
def test_a_negated_condition_is_its_other_side(said, cond, other):
    assert negated_condition(said, cond, [cond.replace("_", " "), "loaded"]) == other


@pytest.mark.parametrize("text, system, metric, cols, want_cond", [
    ("h2d bandwidth on the titan rtx at 64 MB with memory that is not pinned", "titan_rtx", "bandwidth",
     {"operation": "h2d", "msg_bytes": 1 << 26, "condition": "pageable"}, "pageable"),
    ("the all-reduce busbw on the h200 pair at 1 GB, the one that isn't in-place", "h200x2", "busbw",
     {"operation": "allreduce", "msg_bytes": 1 << 30, "condition": "out_of_place", "count": 2}, "out_of_place"),
    ("IPU5 to IPU6 latency, excluding the loaded case", "ipu16", "latency",
     {"src": "ipu5", "dst": "ipu6", "condition": "congestion_free"}, "congestion_free"),
    ("dgx-2 gpu2 to gpu9 bandwidth at 32 MB when the copy does not go over nvlink", "dgx2", "bandwidth",
     {"src": "gpu2", "dst": "gpu9", "msg_bytes": 1 << 25, "condition": "pcie"}, "pcie"),
])
def test_the_other_side_is_looked_up(asker, built_con, text, system, metric, cols, want_cond):
    where = " AND ".join(f"{k} = ?" for k in cols)
    rows = built_con.execute(f"SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND {where}",
                             [system, metric, *cols.values()]).fetchall()
    assert rows
    res = asker.ask(text)
    assert res.intent == "metric_lookup" and res.slots.get("condition") == want_cond, (res.intent, res.slots)
    assert res.rows and any(res.rows[0]["value"] == pytest.approx(r[0]) for r in rows), res.answer


def test_top_n_systems_is_a_ranking(asker):
    res = asker.ask("top 3 systems by STREAM triad")
    assert res.intent == "compare_systems" and res.slots.get("top_n") == 3, (res.intent, res.slots)


def test_a_writing_task_wraps_a_question(asker):
    res = asker.ask("draft a caption for my figure of the h200 all-reduce busbw across message sizes")
    assert res.intent == "size_sweep" and res.slots.get("system") == "h200x2", (res.intent, res.slots)
    assert any("the wording is yours" in n for n in res.notes), res.notes


def test_a_message_to_someone_is_no_data_question(asker):
    assert asker.ask("write an email to the admins saying the node is down").intent == "out_of_scope"


def test_a_rate_in_bits_is_noted(asker):
    res = asker.ask("how many gigabits per second does a gpu0 to gpu1 copy reach on the h200 pair")
    assert res.slots.get("metric") == "bandwidth", res.slots
    assert any("bits per second" in n for n in res.notes), res.notes


def test_is_x_or_y_quicker_in_nvlink_mode(asker):
    res = asker.ask("is yme or the mini summit quicker for envy link copies")
    assert res.intent == "compare_systems" and res.slots.get("condition") == "nvlink", (res.intent, res.slots)


def test_a_tool_spelled_after_the(asker):
    res = asker.ask("which systems have data from the o s u suite")
    assert res.intent == "list_data", res.answer


def test_a_count_said_as_what_the_machine_has_is_corrected_and_answered(asker, built_con):
    # a false premise ("has four GPUs, right?") is the asker's belief, not the run asked for: corrected, then answered
    want = _value(built_con, "SELECT max(value) FROM measurements WHERE system_id = ? AND operation = ? AND metric = ? "
                  "AND msg_bytes = ? AND count = ?", ["h200x2", "allreduce", "busbw", 1 << 30, 2])
    res = asker.ask("the h200 node has four gpus, right? what's its all-reduce busbw at 1 GB")
    assert res.intent == "metric_lookup", res.answer
    assert res.answer.startswith(f"{asker.cat.name('h200x2')} has 2 GPUs, not 4"), res.answer
    assert res.rows and any(r["value"] == pytest.approx(want) for r in res.rows), res.answer


def test_a_count_asked_for_beyond_the_machine_is_still_refused(asker):
    res = asker.ask("h200 all-reduce busbw at 1 GB on 8 gpus")
    assert res.intent == "out_of_scope" and "has 2 GPUs" in res.answer, res.answer


def test_a_premise_below_the_machine_is_noted(asker):
    res = asker.ask("the dgx-2 has 8 gpus, right? what's its nccl all-reduce time at 64 MB")
    assert res.intent == "metric_lookup" and res.slots.get("count") == 8, (res.intent, res.slots)
    assert any("has 16 GPUs, not 8" in n for n in res.notes), res.notes


def test_a_collectives_stored_efficiency_is_a_lookup(asker, built_con):
    want = _value(built_con, "SELECT value FROM measurements WHERE system_id = ? AND metric = ? AND operation = ? "
                  "AND count = ?", ["ipu16", "efficiency", "broadcast", 9728])
    res = asker.ask("ipu broadcast eff at 9728 tiles")
    assert res.intent == "metric_lookup", res.answer
    assert res.rows and res.rows[0]["value"] == pytest.approx(want), res.answer


def test_links_and_their_rates_are_the_graph(asker):
    res = asker.ask("yme nvlink links + rates")
    assert res.intent == "topology", res.answer
