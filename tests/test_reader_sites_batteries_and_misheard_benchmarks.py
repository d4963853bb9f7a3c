"""Ways of asking that the reader once read wrong (session 70, from the seventy-fifth set's misses, typed and spoken,
each tested with other words): where a machine stands ("which datacenter hosts ...", "what facility houses ...") and
a battery's life are refused; "benchmarks" heard with its second syllable garbled ("benchMOCs", "benchomics") is
read as the word. Real model, real built database."""


def test_sites_and_batteries_are_refused(asker):
    for q in ("which data center is the dgx-1 v100 in", "what facility houses the ipu system",
              "how long does the battery of client 2 last", "what battery capacity does the yme node have"):
        res = asker.ask(q)
        assert res.intent == "out_of_scope", (q, res.intent, res.slots)


def test_benchmarks_heard_garbled(asker):
    for q in ("which benchMOCs does the database hold for the gtx 980 desktop", "which benchmocs ran on the h200 pair"):
        res = asker.ask(q)
        assert res.intent == "list_data" and res.rows, (q, res.intent, res.answer)
