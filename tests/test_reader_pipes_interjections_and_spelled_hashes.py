"""Ways of asking that the reader once read wrong (session 60, from the forty-first set's misses, each tested with
other words): "how fat is the X-Bus pipe" a link's stated rate in the graph, "how wide is the pipe ... with P2P
enabled" a copy's measured rate; a prediction "after the next driver update" refused; "gtx980 shoc/scope/tartan
runs?" the machine's inventory; an exclamation before the question ("whoa, ...") no word of it, and a latency "for
every GPU pair" no count of links per GPU; "md five" the MD5 hash benchmark, "md" alone still SHOC's MD. Real model,
real built database."""


def test_how_fat_a_pipe_is(asker):
    res = asker.ask("How fat is the UPI pipe between the two sockets of the CLX 8280?")
    assert res.intent == "topology" and res.slots.get("link_type") == "UPI", (res.intent, res.slots)
    res = asker.ask("How wide is the pipe from GPU1 to GPU0 on Yme with P2P enabled, one direction?")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "bandwidth", (res.intent, res.slots)


def test_a_prediction_after_an_update_is_refused(asker):
    res = asker.ask("What will the DGX-2's all-reduce bandwidth be after the next NCCL upgrade?")
    assert res.intent == "out_of_scope", (res.intent, res.slots)


def test_runs_asked_as_keywords(asker):
    res = asker.ask("yme shoc/scope/deepbench runs?")
    assert res.intent == "list_data" and res.slots.get("system") == "ac922_yme" and "app" not in res.slots, \
        (res.intent, res.slots)


def test_an_exclamation_and_a_grid_of_latencies(asker):
    res = asker.ask("wow show me the tartan envy link mode latency for every g p u pair on mini summit")
    assert res.intent == "pair_matrix" and res.slots.get("metric") == "latency", (res.intent, res.slots)


def test_md_five_is_the_hash(asker):
    res = asker.ask("what md five hashing rate does the titan r t x reach")
    assert res.slots.get("operation") == "md5hash", res.slots
    res = asker.ask("yme md flops on four gpus")
    assert res.slots.get("app") == "MD", res.slots
