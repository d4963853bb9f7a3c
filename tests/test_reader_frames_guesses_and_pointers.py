"""Ways of asking that the reader once read wrong (session 64, from the fifty-fifth set's misses, each tested with
other words): a range the asker guesses for the answer ("somewhere between 300 and 350 GB/s") no size; "yes or no"
first; items numbered "1) ... 2) ..." or "number one ... number two"; "the former" / "the latter" pointing back at
one of two machines; a value stated of one machine and asked of another ("A gets ... on GPU3 but does B on GPU1");
"does the database hold any trace for X" the inventory, answered "none" where none is; an unloaded accelerator asked
about where one loaded machine alone has the measure; background traffic as load; a loaded value "by IPU pair" the
grid; "change with the tile count" the curve; a rack, a colour, a hostname, compiler flags refused; memory "per chip"
of the XMP-64 refused as such (no document states it), not as memory per GPU. The framing
functions are also tested on their own words. Real model, real built database."""
from conftest import stored_values as _values

from nlu.framing import pointed_back, without_guessed_range, without_item_numbers, without_yes_or_no

_ROWS = "SELECT m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id WHERE r.system_id = ? AND "


def test_a_guessed_range_is_no_size(asker, built_con):
    res = asker.ask("What Scope all-reduce bandwidth does the DGX-2 reach at 1 GiB on 4 GPUs, somewhere between 15 "
                    "and 25 GB/s?")
    assert res.slots.get("msg_bytes") == 1073741824 and res.slots.get("count") == 4, res.slots
    want = _values(built_con, _ROWS + "m.operation = ? AND m.msg_bytes = ? AND m.count = ? AND m.app = ?",
                   ["dgx2", "allreduce", 1073741824, 4, "Scope"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("titan rtx desktop fan speed somewhere between twenty and forty percent")
    assert "msg_bytes" not in res.slots and res.intent == "metric_lookup", (res.intent, res.slots)
    words = "how many GPUs does Yme use , somewhere between 1 and 4 GPUs".split()
    assert without_guessed_range(words)[0] == words      # a range of the data, said so, is kept


def test_yes_or_no_first_or_last():
    q, form = without_yes_or_no("Yes or no : is GPU1 of Yme joined to GPU0 by NVLink2 ?".split())
    assert q[0] == "is" and form[:3] == ["Yes", "or", "no"]
    q, form = without_yes_or_no("does the DGX-2 have NVSwitches , yes or no ?".split())
    assert q == "does the DGX-2 have NVSwitches ?".split(), q


def test_a_trace_asked_for_where_none_is_loaded(asker):
    res = asker.ask("Yes or no: is there any PyTorch trace for the Titan RTX desktop?")
    assert res.intent == "list_data" and "No " in res.answer and "H200" in res.answer, (res.intent, res.answer)


def test_numbered_items(asker):
    q, n = without_item_numbers("compare 1 ) Yme , 2 ) the DGX-2 and 3 ) Mini Summit on sort bandwidth".split())
    assert n == 3 and q == "compare Yme , the DGX-2 and Mini Summit on sort bandwidth".split(), q
    assert without_item_numbers("what does GPU number one of Yme reach".split())[1] == 0
    res = asker.ask("Tell me 1) the rack position and 2) the paint colour of the DGX-2.")
    assert res.intent == "out_of_scope", (res.intent, res.answer)
    res = asker.ask("for azure number one lammps and number two gromacs how does congestion control change the "
                    "congestion impact")
    assert res.intent == "congestion" and res.slots.get("system") == "azure_hpc", (res.intent, res.slots)


def test_the_former_and_the_latter(asker, built_con):
    res = asker.ask("Of Mini Summit and Yme, what FP64 MaxFlops does the latter reach on GPU2?")
    assert res.slots.get("system") == "ac922_yme" and not res.slots.get("compare_with"), res.slots
    want = _values(built_con, _ROWS + "m.operation = ? AND m.src = ?", ["ac922_yme", "maxdpflops", "gpu2"])
    assert res.rows and res.rows[0]["value"] in want, res.answer
    res = asker.ask("summit and lassen - latter resnet1001 speedup over gpus")
    assert res.intent == "scaling" and res.slots.get("system") == "lassen", (res.intent, res.slots)
    res = asker.ask("between the g t x nine eighty desktop and the titan r t x desktop what triad bandwidth does the "
                    "former get")
    assert res.slots.get("system") == "gtx980" and res.intent == "metric_lookup", (res.intent, res.slots)


def test_pointer_needs_one_pointer_and_two_machines(asker):
    cands = asker.nlu.gazetteer.candidates
    words = "how does the latter 's bandwidth compare with the former 's on Yme and the DGX-2".split()
    assert pointed_back(words, cands) == (words, "")       # both pointers: a comparison, left as said
    words = "what bandwidth does the latter reach".split()
    assert pointed_back(words, cands) == (words, "")       # nothing to point back at


def test_a_value_stated_of_one_machine_asked_of_another(asker):
    res = asker.ask("the dgx two gets high f p thirty two max flops on g p u nine but does yme on g p u two")
    assert res.intent == "compare_systems" and not (res.slots.get("src") or res.slots.get("dst")), \
        (res.intent, res.slots)


def test_an_unloaded_accelerator_where_one_machine_has_the_measure(asker):
    res = asker.ask("What would an MI250X node score on out-of-place all-gather busbw?")
    assert res.intent == "out_of_scope" and "MI250X" in res.answer, (res.intent, res.answer)
    res = asker.ask("what would a gaudi two box score on out of place all gather busbw at one gigabyte")
    assert res.intent == "out_of_scope", (res.intent, res.slots)


def test_load_said_as_traffic_by_pair_and_over_tiles(asker):
    res = asker.ask("how much does background traffic slow the ipu5 to ipu4 bandwidth")
    assert res.intent == "congestion", (res.intent, res.slots)
    res = asker.ask("Show the IPU P2P bandwidth under load by IPU pair.")
    assert res.intent == "pair_matrix" and res.slots.get("condition") == "under_load", (res.intent, res.slots)
    res = asker.ask("How does the IPU P2P latency under load vary with the tile count?")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "tiles", (res.intent, res.slots)


def test_a_machines_place_looks_and_build_refused(asker):
    for q in ("Which rack holds the Yme server?", "what colour is the gtx nine eighty desktop's case",
              "What is the hostname of the Titan RTX desktop?", "What compiler options would speed up VASP on Azure?"):
        assert asker.ask(q).intent == "out_of_scope", q


def test_a_property_of_a_part_no_document_states(asker):
    res = asker.ask("how much memory does each chip of the XMP-64 have")
    assert res.intent == "out_of_scope" and "per chip" in res.answer, (res.intent, res.answer)
