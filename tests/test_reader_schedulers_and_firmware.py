"""Ways of asking that the reader once read wrong (session 70, from the seventy-fourth set's misses, each tested
with other words): the batch system's priorities ("what priority does the Lassen scheduler give ...", where the
speller reads "scheduler" as "schedule") and a board's BIOS or UEFI version are refused: no document here states
them. A scheduler of the asker's own ("I'm writing a placement scheduler ...") is no such question. Real model,
real built database."""


def test_scheduler_priorities_are_refused(asker):
    for q in ("which priority does the lassen scheduler give hy-fi training on 1024 gpus",
              "what queue priority does summit give a 4096 gpu run"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_bios_versions_are_refused(asker):
    for q in ("titan rtx desktop bios", "h200 pair server bios", "ri2 node uefi settings"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_a_scheduler_of_ones_own_is_no_refusal(asker):
    res = asker.ask("for a placement scheduler I am writing, show the dgx2 p2p bandwidth matrix with p2p disabled")
    assert res.intent == "pair_matrix" and res.rows, (res.intent, res.answer)
