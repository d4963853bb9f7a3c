"""Ways of asking that the reader once read wrong (session 62, from the forty-ninth set's misses, each tested with
other words): "nvlink counts across gpu pairs" the graph; "what sort of latency" no SHOC Sort; a copy "vs pcie3 rate"
the link's efficiency; a training efficiency the machine stores no link efficiency; a curve over GPU counts on a
one-GPU machine refused however it is asked; "which gpu do the gpu1 nvlinks lead to" the graph around GPU1 (no GPU
model); "which tile count yields the ... lowest" the curve over tiles, not a refusal. Real model, real built
database."""


def test_link_counts_across_pairs_are_the_graph(asker):
    res = asker.ask("how uneven are the dgx1 p100 nvlink counts across gpu pairs")
    assert res.intent == "topology", (res.intent, res.slots)


def test_what_sort_of_is_no_sort_benchmark(asker):
    res = asker.ask("what sort of latency ipu tile0 to tile646")
    assert res.slots.get("operation") != "sort", res.slots


def test_a_copy_against_a_links_rate(asker):
    res = asker.ask("titan rtx pinned h2d gpu0 vs pcie3 rate")
    assert res.intent == "link_efficiency" and res.slots.get("link_type") == "PCIe3", (res.intent, res.slots)


def test_a_stored_training_efficiency_is_a_lookup(asker):
    res = asker.ask("What is Gemini's Horovod training efficiency on 12 GPUs?")
    assert res.intent == "metric_lookup" and res.slots.get("metric") == "efficiency", (res.intent, res.slots)


def test_a_one_gpu_machine_has_no_curve_over_gpus(asker):
    res = asker.ask("How does the Titan RTX's BFS throughput scale with GPU count?")
    assert res.intent == "out_of_scope" and "1 GPU" in res.answer, (res.intent, res.answer)


def test_where_one_gpus_links_lead(asker):
    res = asker.ask("which gpu do the h200 gpu1 nvlinks lead to")
    assert res.intent == "topology" and res.slots.get("src") == "gpu1", (res.intent, res.slots)


def test_the_count_at_an_extreme_is_read_off_the_curve(asker):
    res = asker.ask("Which tile count yields the IPU system's lowest congestion-free gather latency?")
    assert res.intent == "scaling" and res.slots.get("count_kind") == "tiles", (res.intent, res.slots)
