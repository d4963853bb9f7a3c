"""Vocabulary, tokenisation, normalisation (span text -> canonical slot values) and surface forms (the inverse).

Real cases from nlu/SLOTS.md, the question contract and the research vocabulary sections; round trips over the
whole vocabulary and ranges of sizes, numbers and endpoints. No database needed except for one test that
uses the built default database when it exists.
"""
from __future__ import annotations

import random

import pytest

from app.catalog import Catalog, SystemInfo
from nlu.normalize import Normalizer
from nlu.surface import Surface
from nlu.tokens import tokenize, words
from nlu.vocab import key, load_vocabulary, norm_words, say_number, spoken_variants

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30


@pytest.fixture(scope="module")
def vocab():
    return load_vocabulary()


@pytest.fixture(scope="module")
def norm(vocab):
    return Normalizer(vocab)


@pytest.fixture(scope="module")
def surf(vocab, norm):
    return Surface(vocab, norm)


def _catalog() -> Catalog:
    """A small catalog shaped like the real one (aliases as the database holds them)."""
    cat = Catalog()
    for sid, name, aliases, kind in [
        ("dgx2", 'NVIDIA DGX-2 "Heid" (NTNU)', ["Heid", "DGX-2", "NVIDIA DGX-2"], "gpu_server"),
        ("ac922_tum", "IBM Power System AC922 with 4 NVIDIA V100 GPUs",
         ["AC922", "IBM AC922", "IBM Power System AC922", "AC922 8355-GTG"], "gpu_server"),
        ("ac922_yme", 'IBM Power System AC922 "Yme" (4 GPUs, NTNU)', ["Yme", "Power AC922 (4 GPUs)"], "gpu_server"),
        ("newclus", "ACME New Cluster (lent)", ["NC-7", "ACME cluster"], "cluster"),
        ("doc_x", "x: statements not tied to one system", [], "document"),
    ]:
        cat.systems[sid] = SystemInfo(sid, name, aliases, kind)
    cat.metrics = {"newclus": {"bandwidth", "tail_latency"}}
    cat.operations = {"newclus": {"allreduce", "halo_exchange"}}
    cat.conditions = {"newclus": {"under_load", "turbo_on"}}
    cat.components = {"newclus": {"gpu0", "gpu1", "nic0", "pcie_switch3", "dpu2"}}
    cat.apps = {"resnet50", "all", "amg|lulesh", "cosmoflow"}
    return cat


# ---------------------------------------------------------------------------------------------- tokenisation

@pytest.mark.parametrize("text, expected", [
    ("DGX-2", ["DGX", "-", "2"]),
    ("the DGX-1 V100", ["the", "DGX", "-", "1", "V100"]),
    ("8KiB", ["8", "KiB"]),
    ("8 KiB", ["8", "KiB"]),
    ("8k", ["8", "k"]),
    ("1.5GB/s", ["1.5", "GB/s"]),
    ("at 12 GB/s.", ["at", "12", "GB/s", "."]),
    ("gpu0", ["gpu0"]),
    ("GPU0->GPU3", ["GPU0", "->", "GPU3"]),
    ("GPU0-GPU3", ["GPU0", "-", "GPU3"]),
    ("gpu 0<->gpu 1", ["gpu", "0", "<->", "gpu", "1"]),
    ("all-reduce", ["all", "-", "reduce"]),
    ("all-to-all", ["all", "-", "to", "-", "all"]),
    ("ResNet-50", ["ResNet", "-", "50"]),
    ("16-IPU system", ["16", "-", "IPU", "system"]),
    ("2-8GB", ["2", "-", "8", "GB"]),
    ("16GPUs", ["16", "GPUs"]),
    ("1,024 bytes", ["1,024", "bytes"]),
    ("2^20", ["2", "^", "20"]),
    ("H200s", ["H200s"]),
    ("NVLink2 x16 FP16", ["NVLink2", "x16", "FP16"]),
    ("dgx1_v100 pcie_switch0", ["dgx1_v100", "pcie_switch0"]),
    ("the 1st and 2nd", ["the", "1st", "and", "2nd"]),
    ("w/o tensor cores", ["w/o", "tensor", "cores"]),
    ("send/recv", ["send", "/", "recv"]),
    ("XK-XMP-64", ["XK", "-", "XMP", "-", "64"]),
    ("what's the AC922's bandwidth?", ["what", "'s", "the", "AC922", "'s", "bandwidth", "?"]),
])
def test_tokenize_cases(text, expected):
    assert words(text) == expected


def test_tokenize_offsets_and_determinism():
    text = "Bandwidth from GPU0->GPU3 on the DGX-2 at 8KiB,  please"
    toks = tokenize(text)
    assert all(text[t.start:t.end] == t.text for t in toks)
    assert [t.text for t in toks][-2:] == [",", "please"]      # double space: no whitespace token
    assert tokenize(text) == toks


def test_tokenize_gives_the_same_tokens_warm_and_cold():
    # the tokenizer caches pieces of number strings; a cached piece must tokenize as a fresh one does
    # (its speed is bench/nlu.py's NLU latency, not a test)
    qs = [f"bus bandwidth of all-reduce on the DGX-2 at {n}KiB?" for n in range(40)] + \
         [f"latency from GPU{n % 16}->GPU3 on {n} nodes" for n in range(40)]
    first = [[t.text for t in tokenize(q)] for q in qs]
    assert [[t.text for t in tokenize(q)] for q in qs] == first
    assert first[3][-3:] == ["3", "KiB", "?"] and first[43][2:5] == ["GPU3", "->", "GPU3"]


# ---------------------------------------------------------------------------------------------- number words

@pytest.mark.parametrize("text, n", [
    ("sixteen", 16), ("sixty four", 64), ("sixty-four", 64), ("a hundred and twenty eight", 128),
    ("one hundred twenty eight", 128), ("one twenty eight", 128), ("1,024", 1024), ("ten twenty four", 1024),
    ("one thousand and twenty four", 1024), ("twelve sixteen", 1216), ("one thousand two hundred sixteen", 1216),
    ("twenty forty eight", 2048), ("zero", 0), ("2^10", 1024), ("two to the tenth", 1024), ("1.5", 1.5),
    ("one point five", 1.5), ("nine twenty two", 922), ("eighteen oh four", 1804), ("a thousand", 1000),
    ("two million five hundred thousand", 2500000),
])
def test_numbers(norm, text, n):
    assert norm.number(text) == n


def test_number_words_round_trip(norm):
    for n in list(range(0, 1100)) + [1216, 2048, 3080, 4096, 8335, 10000, 65536, 1048576]:
        for style in ("cardinal", "hyphen", "and", "pairs"):
            assert norm.number(say_number(n, style)) == n, (n, style, say_number(n, style))


def test_unknown_number_is_none(norm):
    assert norm.number("lots") is None
    assert norm.value("count", "many") is None
    assert norm.value("top_n", "top") is None


# ---------------------------------------------------------------------------------------------- systems

@pytest.mark.parametrize("text, sid", [
    ("DGX-2", "dgx2"), ("DGX 2", "dgx2"), ("d g x two", "dgx2"), ("d g x 2", "dgx2"), ("Heid", "dgx2"),
    ("the DGX two", "dgx2"), ("dgx2", "dgx2"), ("DGX-two", "dgx2"), ("dee gee ex two", "dgx2"),
    ("the DGX-2 machine", "dgx2"), ("the DGX-2 at NTNU", "dgx2"), ("DGX-2's", "dgx2"),
    ("DGX-1 V100", "dgx1_v100"), ("D G X one V one hundred", "dgx1_v100"), ("the Volta box", "dgx1_v100"),
    ("DGX-1 P100", "dgx1_p100"), ("the Pascal box", "dgx1_p100"),
    ("Yme", "ac922_yme"), ("A C nine twenty two Yme", "ac922_yme"), ("the AC922 Yme", "ac922_yme"),
    ("Mini Summit", "ac922_minisummit"), ("Summit", "summit"), ("ORNL Summit", "summit"),
    ("Titan RTX", "titan_rtx"), ("GTX 980", "gtx980"), ("G T X nine eighty", "gtx980"), ("hpclab12", "gtx980"),
    ("the IPU system", "ipu16"), ("Graphcore", "ipu16"), ("sixteen IPU system", "ipu16"),
    ("XMP-64", "xmp64"), ("X M P sixty four", "xmp64"), ("the XMOS board", "xmp64"),
    ("the H200 pair", "h200x2"), ("H two hundred node", "h200x2"), ("the H200s", "h200x2"),
    ("Lassen", "lassen"), ("Longhorn", "longhorn"), ("Frontera Liquid", "frontera_liquid"),
    ("the NVIDIA in-house cluster", "nvidia_inhouse"), ("Azure HPC", "azure_hpc"), ("R I two", "ri2"),
    ("Lasen", "lassen"), ("Longhron", "longhorn"),                     # one typo, same digits
])
def test_system(norm, text, sid):
    assert norm.value("system", text) == sid


@pytest.mark.parametrize("text, cands", [
    # The AC922 name alone fits three systems (TUM's, Yme, Mini Summit): never guess; offer the choices.
    ("A C nine twenty two", {"ac922_tum", "ac922_yme", "ac922_minisummit"}),
    ("AC922", {"ac922_tum", "ac922_yme", "ac922_minisummit"}),
    ("the IBM Power System AC922", {"ac922_tum", "ac922_yme", "ac922_minisummit"}),
    ("DGX-1", {"dgx1_p100", "dgx1_v100"}),
    ("D G X one", {"dgx1_p100", "dgx1_v100"}),
    ("V100", {"nvidia_v100_gpu", "nvidia_v100_ref"}),
])
def test_ambiguous_system_is_none_with_candidates(norm, text, cands):
    assert norm.value("system", text) is None
    assert set(norm.candidates("system", text)) == cands


@pytest.mark.parametrize("text", ["banana", "DGX 3", "DGX-7", "the cluster", "", "Yme and the DGX-2", "frobnicator"])
def test_unknown_system_is_none(norm, text):
    assert norm.value("system", text) is None


def test_compare_with(norm):
    assert norm.value("compare_with", "the DGX-1 V100 and Yme") == ["dgx1_v100", "ac922_yme"]
    assert norm.value("compare_with", "DGX two versus Mini Summit") == ["dgx2", "ac922_minisummit"]
    assert norm.value("compare_with", "DGX-1 with V100 GPUs and the H200 pair") == ["dgx1_v100", "h200x2"]
    assert norm.value("compare_with", "Yme") == ["ac922_yme"]
    assert norm.value("compare_with", "nothing known") is None


def test_spoken_variants_keep_the_key():
    for alias in ["DGX-2", "AC922", "XMP-64", "H200 pair", "IBM Power System AC922 8335-GTH", "x86_64 cluster",
                  "Grid'5000 Chifflet", "ResNet-50 v1.5", "RTX 3080"]:
        vs = spoken_variants(alias)
        assert vs and all(key(v) == key(alias) for v in vs), (alias, vs)
    assert "d g x two" in spoken_variants("DGX-2") and "DGX 2" in spoken_variants("DGX-2")


def test_a_spelled_plural_reads_as_one_word():
    # "gee pee yous": the plural of the last letter is written as a word of its own
    assert norm_words("two g p us") == ("2", "gpus") == norm_words("2 GPUs")
    assert norm_words("the i p us on one board") == ("the", "ipus", "on", "1", "board")
    assert norm_words("tell us") == ("tell", "us") and norm_words("d g x two") == ("dgx", "2")


# ---------------------------------------------------------------------------------------------- other named slots

@pytest.mark.parametrize("slot, text, value", [
    ("metric", "bus bandwidth", "busbw"), ("metric", "busbw", "busbw"), ("metric", "algorithm bandwidth", "algbw"),
    ("metric", "how long", "time"), ("metric", "runtime", "time"), ("metric", "GFLOPS", "flops"),
    ("metric", "teraflops", "flops"), ("metric", "latency", "latency"), ("metric", "speed-up", "speedup"),
    ("metric", "congestion impact", "congestion_impact"), ("metric", "slowdown under congestion", "congestion_impact"),
    ("metric", "bandwith", "bandwidth"), ("metric", "the bus bandwidth in GB/s", "busbw"),
    ("operation", "all reduce", "allreduce"), ("operation", "all-reduce", "allreduce"),
    ("operation", "AllReduce", "allreduce"), ("operation", "host to device", "h2d"), ("operation", "H2D", "h2d"),
    ("operation", "h two d", "h2d"), ("operation", "upload to the GPU", "h2d"), ("operation", "readback", "d2h"),
    ("operation", "device to host", "d2h"), ("operation", "peer to peer", "p2p"), ("operation", "P2P", "p2p"),
    ("operation", "p two p", "p2p"), ("operation", "all to all", "alltoall"), ("operation", "reduce-scatter",
                                                                              "reduce_scatter"),
    ("operation", "matrix multiply", "gemm"), ("operation", "send/recv", "sendrecv"),
    ("operation", "NCCL all reduce", "allreduce"),
    ("direction", "bidirectional", "bi"), ("direction", "both directions", "bi"), ("direction", "in both directions",
                                                                                    "bi"),
    ("direction", "one way", "uni"), ("direction", "unidirectional", "uni"), ("direction", "half duplex", "uni"),
    ("precision", "double precision", "fp64"), ("precision", "half", "fp16"), ("precision", "F P thirty two",
                                                                               "fp32"),
    ("precision", "int eight", "int8"), ("precision", "mixed precision", "mixed"),
    ("condition", "under load", "under_load"), ("condition", "congestion-free", "congestion_free"),
    ("condition", "with congestion control", "cc_on"), ("condition", "without congestion control", "cc_off"),
    ("condition", "P2P disabled", "p2p_off"), ("condition", "with P2P disabled", "p2p_off"),
    ("condition", "p2p enabled", "p2p_on"), ("condition", "without tensor cores", "tensor_cores_off"),
    ("condition", "with tensor cores", "tensor_cores_on"), ("condition", "pinned memory", "pinned"),
    ("condition", "in-place", "in_place"),
    ("link_type", "envy link", "NVLink"), ("link_type", "NV link", "NVLink"), ("link_type", "NVLink", "NVLink"),
    ("link_type", "en vee link", "NVLink"), ("link_type", "NVLink 2.0", "NVLink2"),
    ("link_type", "NVLink two point oh", "NVLink2"), ("link_type", "PCI express", "PCIe"),
    ("link_type", "P C I E gen three", "PCIe3"), ("link_type", "PCIe Gen3", "PCIe3"), ("link_type", "X bus", "X-Bus"),
    ("link_type", "IPU links", "IPU-Link"), ("link_type", "X link", "XLink"), ("link_type", "infiniband",
                                                                               "InfiniBand"),
    ("link_type", "IB", "InfiniBand"), ("link_type", "NV switch", "NVSwitch"), ("link_type", "envy switch",
                                                                                "NVSwitch"),
    ("aggregate", "best", "max"), ("aggregate", "peak", "max"), ("aggregate", "highest", "max"),
    ("aggregate", "the fastest one", "max"), ("aggregate", "slowest", "min"), ("aggregate", "average", "mean"),
    ("library", "nickel", "nccl"), ("library", "NCCL", "nccl"), ("library", "cue blas", "cublas"),
    ("app", "ResNet-50", "resnet50"), ("app", "res net fifty", "resnet50"), ("app", "VASP", "vasp"),
    ("app", "LAMMPS", "lammps"), ("app", "V G G sixteen", "vgg16"),
    ("count_kind", "GPUs", "gpus"), ("count_kind", "g p us", "gpus"), ("count_kind", "MPI ranks", "ranks"),
    ("count_kind", "sixty four cores", "cores"), ("count_kind", "nodes", "nodes"),
])
def test_named_values(norm, slot, text, value):
    assert norm.value(slot, text) == value


@pytest.mark.parametrize("slot, text", [
    ("metric", "how fast"),          # bandwidth? latency? time? -> ask, do not guess
    ("operation", "download"),       # SHOC's "download" is host->device; "download from the GPU" is the other way
    ("condition", "not under load"),
    ("metric", "happiness"), ("operation", "teleport"), ("link_type", "carrier pigeon"), ("precision", "fp8"),
    ("direction", "sideways"), ("aggregate", "purple"), ("library", "numpy"), ("app", "minecraft"),
])
def test_unknown_or_ambiguous_named_values_are_none(norm, slot, text):
    assert norm.value(slot, text) is None


def test_download_candidates(norm):
    assert set(norm.candidates("operation", "download")) == {"h2d", "d2h"}
    assert norm.value("operation", "download to the GPU") == "h2d"
    assert norm.value("operation", "bus speed download") == "h2d"
    assert norm.value("operation", "download from the GPU") == "d2h"


def test_aggregate_polarity(norm, vocab):
    assert "latency" in vocab.lower_is_better and "bandwidth" not in vocab.lower_is_better
    assert norm.aggregate("fastest", "latency") == "min"
    assert norm.aggregate("best", "time") == "min"
    assert norm.aggregate("slowest", "latency") == "max"
    assert norm.aggregate("fastest", "bandwidth") == "max"
    assert norm.aggregate("highest", "latency") == "max"          # absolute words never flip
    assert norm.aggregate("lowest", "latency") == "min"
    assert norm.aggregate("average", "latency") == "mean"
    assert norm.is_relative("fastest") == "better" and norm.is_relative("peak") is None


# ---------------------------------------------------------------------------------------------- sizes

@pytest.mark.parametrize("text, n", [
    ("eight kilobytes", 8 * KIB), ("8 KiB", 8 * KIB), ("8KiB", 8 * KIB), ("8k", 8 * KIB), ("8K", 8 * KIB),
    ("8KB", 8 * KIB), ("8 kB", 8 * KIB), ("eight k", 8 * KIB), ("8 kibibytes", 8 * KIB), ("8192", 8192),
    ("8,192 bytes", 8192), ("1 GB", GIB), ("one gig", GIB), ("a gigabyte", GIB), ("1GiB", GIB),
    ("4 megabytes", 4 * MIB), ("four megs", 4 * MIB), ("1.5 MB", 1572864), ("one point five megabytes", 1572864),
    ("2 to the 20 bytes", MIB), ("2^20", MIB), ("two to the twentieth", MIB), ("2 to the power of 20", MIB),
    ("two to the twenty fifth bytes", 1 << 25), ("thirty-two mebibytes", 32 * MIB), ("half a gig", GIB // 2),
    ("64 bytes", 64), ("one byte", 1), ("a kilobyte", KIB), ("128 MB messages", 128 * MIB),
    ("a message size of 8 KB", 8 * KIB), ("sixty four kilobytes", 64 * KIB), ("8 k b", 8 * KIB),
])
def test_sizes(norm, text, n):
    assert norm.value("msg_bytes", text) == n


@pytest.mark.parametrize("text", ["8 GB/s", "12 gigabytes per second", "big", "lots of bytes", "8 parsecs", ""])
def test_not_sizes(norm, text):
    assert norm.value("msg_bytes", text) is None


# ---------------------------------------------------------------------------------------------- endpoints, counts

@pytest.mark.parametrize("text, cid", [
    ("g p u zero", "gpu0"), ("GPU 0", "gpu0"), ("gpu0", "gpu0"), ("GPU0", "gpu0"), ("GPU zero", "gpu0"),
    ("GPU #3", "gpu3"), ("GPU number three", "gpu3"), ("device 3", "gpu3"), ("from GPU 3", "gpu3"),
    ("IPU five", "ipu5"), ("I P U five", "ipu5"), ("core twelve", "core12"), ("tile 646", "tile646"),
    ("tile six forty six", "tile646"), ("tile six four six", "tile646"), ("node seventeen", "node17"),
    ("CPU one", "cpu1"), ("socket 1", "cpu1"), ("c p u one", "cpu1"), ("the host", "host"), ("host", "host"),
    ("host memory", "host"), ("NVSwitch 3", "nvswitch3"), ("envy switch three", "nvswitch3"), ("NIC 0", "nic0"),
    ("PCIe switch 2", "pcie_switch2"), ("GPU0s", "gpu0"), ("IPU5s", "ipu5"),   # a possessive, apostrophe lost
])
def test_endpoints(norm, text, cid):
    assert norm.value("src", text) == cid
    assert norm.value("dst", text) == cid


def test_endpoint_needs_a_kind(norm):
    assert norm.value("dst", "3") is None                    # "from GPU 0 to 3": the pipeline passes the kind
    assert norm.endpoint("3", kind_hint="gpu") == "gpu3"
    assert norm.value("src", "the first GPU") is None        # 0- or 1-based? not guessed
    assert norm.value("src", "NUMA node 1") is None
    assert norm.value("src", "banana 3") is None


@pytest.mark.parametrize("text, n, kind", [
    ("on 16 GPUs", 16, "gpus"), ("on sixteen GPUs", 16, "gpus"), ("sixty four cores", 64, "cores"),
    ("with 4 nodes", 4, "nodes"), ("8-GPU", 8, "gpus"), ("a single node", 1, "nodes"), ("128 MPI ranks", 128, "ranks"),
    ("1,024 tiles", 1024, "tiles"), ("sixteen I P Us", 16, "ipus"), ("two processes", 2, "processes"),
    ("all sixteen GPUs", 16, "gpus"), ("32 threads", 32, "threads"), ("16", 16, None), ("GPUs", None, "gpus"),
])
def test_count_and_kind(norm, text, n, kind):
    assert norm.count_and_kind(text) == (n, kind)
    assert norm.value("count", text) == n


def test_small_numeric_slots(norm):
    assert norm.value("top_n", "top five kernels") == 5
    assert norm.value("top_n", "top 10") == 10
    assert norm.value("numa_node", "NUMA node one") == 1
    assert norm.value("numa_node", "node 0") == 0
    assert norm.value("run", "run 12") == 12
    assert norm.value("count", "1.5") is None


def test_unknown_slot_raises(norm):
    with pytest.raises(ValueError):
        norm.value("colour", "red")


# ---------------------------------------------------------------------------------------------- round trips

def _declared_ambiguous(vocab) -> dict[str, set[str]]:
    return {slot: {key(s) for s in amb} for slot, amb in vocab.ambiguous.items()}


def _check_every_surface(vocab, norm):
    amb = _declared_ambiguous(vocab)
    slot_of = {"component_kind": None, "endpoint": "src"}
    bad = []
    for section in ("system", "operation", "metric", "condition", "direction", "count_kind", "precision",
                    "aggregate", "link_type", "library", "app", "endpoint"):
        slot = slot_of.get(section, section)
        for canonical, surfaces in vocab.entries(section).items():
            for s in surfaces:
                if key(s) in amb.get(section, set()):
                    assert norm.value(slot, s) is None, (section, s)
                    continue
                if norm.value(slot, s) != canonical:
                    bad.append((section, canonical, s, norm.value(slot, s)))
    assert not bad, bad[:20]


def test_every_vocabulary_surface_reads_back(vocab, norm):
    _check_every_surface(vocab, norm)


def test_every_value_has_forms_that_read_back(vocab, norm, surf):
    rng = random.Random(7)
    for slot, section in (("system", "system"), ("metric", "metric"), ("operation", "operation"),
                          ("condition", "condition"), ("direction", "direction"), ("count_kind", "count_kind"),
                          ("precision", "precision"), ("aggregate", "aggregate"), ("link_type", "link_type"),
                          ("library", "library"), ("app", "app")):
        for canonical in vocab.canonicals(section):
            fs = surf.forms(slot, canonical, rng=rng)
            assert fs, (slot, canonical)
            for f in fs:
                assert norm.value(slot, f) == canonical, (slot, canonical, f)


def test_size_forms_round_trip(norm, surf):
    sizes = [1 << e for e in range(0, 35)] + [1000, 1536, 3000, 12345, 1572864, 3 * GIB // 2, 100 * MIB, 768 * KIB]
    for n in sizes:
        fs = surf.forms("msg_bytes", n)
        assert fs and str(n) in fs
        for f in fs:
            assert norm.value("msg_bytes", f) == n, (n, f)
    f8k = surf.forms("msg_bytes", 8192)
    for expected in ["8 KiB", "8KiB", "8 KB", "8k", "eight kilobytes", "8192 bytes", "eight k"]:
        assert expected in f8k
    assert "one gig" in surf.forms("msg_bytes", GIB) and "1 GB" in surf.forms("msg_bytes", GIB)


def test_number_forms_round_trip(norm, surf):
    for n in list(range(0, 300)) + [512, 646, 1000, 1024, 1216, 2048, 4096, 8192, 65536]:
        for slot in ("count", "top_n", "numa_node", "run"):
            fs = surf.forms(slot, n)
            assert fs, (slot, n)
            for f in fs:
                assert norm.value(slot, f) == n, (slot, n, f)
    assert {"64", "sixty four", "sixty-four"} <= set(surf.forms("count", 64))
    assert "a hundred and twenty eight" in surf.forms("count", 128)


def test_endpoint_forms_round_trip(norm, surf):
    ids = [f"{k}{n}" for k in ("gpu", "ipu", "cpu", "core", "tile", "node", "nvswitch", "nic", "pcie_switch")
           for n in (0, 1, 3, 7, 12, 15)] + ["tile646", "tile1215", "core63", "host", "host0"]
    for cid in ids:
        fs = surf.forms("src", cid)
        assert fs, cid
        for f in fs:
            assert norm.value("src", f) == cid, (cid, f)
            assert norm.value("dst", f) == cid, (cid, f)
    g0 = surf.forms("src", "gpu0")
    for expected in ["GPU 0", "GPU0", "gpu 0", "g p u zero", "GPU zero"]:
        assert expected in g0
    assert {"CPU 1", "socket 1", "CPU one"} <= set(surf.forms("src", "cpu1"))


def test_count_phrases_and_compare_forms(norm, surf):
    ps = surf.count_phrases(16, "gpus")
    assert "16 GPUs" in ps and "sixteen GPUs" in ps and "16-GPU" in ps
    assert all(norm.count_and_kind(p) == (16, "gpus") for p in ps)
    cf = surf.forms("compare_with", ["dgx2", "ac922_yme"])
    assert cf and all(norm.value("compare_with", f) == ["dgx2", "ac922_yme"] for f in cf)


def test_forms_of_unknown_values_are_empty(surf):
    assert surf.forms("system", "no_such_system") == []
    assert surf.forms("metric", "no_such_metric") == []


def test_spoken_and_written_forms(surf):
    spoken = surf.forms("system", "dgx2", kind="spoken")
    written = surf.forms("system", "dgx2", kind="written")
    assert "d g x two" in spoken and "d g x two" not in written
    assert "DGX-2" in written and "DGX-2" not in spoken


# ---------------------------------------------------------------------------------------------- catalog, extra yaml

def test_catalog_extends_the_vocabulary():
    vocab = load_vocabulary(catalog=_catalog())
    norm = Normalizer(vocab)
    assert norm.value("system", "NC-7") == "newclus"
    assert norm.value("system", "N C seven") == "newclus"          # generated spoken variant
    assert norm.value("system", "ACME New Cluster") == "newclus"   # the name, parentheses dropped
    assert norm.value("system", "newclus") == "newclus"
    assert "doc_x" not in vocab.system
    # the yaml's ambiguity beats the catalog's alias "AC922" -> ac922_tum
    assert norm.value("system", "AC922") is None
    assert norm.value("system", "AC922 8355-GTG") == "ac922_tum"
    assert norm.value("system", "Power AC922 (4 GPUs)") == "ac922_yme"
    assert norm.value("metric", "tail latency") == "tail_latency"
    assert norm.value("operation", "halo exchange") == "halo_exchange"
    assert norm.value("condition", "turbo on") == "turbo_on"
    assert norm.value("app", "cosmoflow") == "cosmoflow"
    assert "all" not in vocab.app and "amg|lulesh" not in vocab.app
    assert norm.value("src", "DPU 2") == "dpu2"                     # component kind from the catalog
    assert Surface(vocab, norm).forms("system", "newclus")


def test_extra_yaml_adds_and_overrides(tmp_path):
    extra = tmp_path / "new.yaml"
    extra.write_text(
        "system:\n"
        "  dgx2: [Big Iron]\n"
        "  selbu: {written: [Selbu, the T4 system], spoken: [sell boo]}\n"
        "  ac922_tum: [AC922]\n"
        "metric:\n"
        "  latency: {written: [lag], replace: true}\n"
        "operation:\n"
        "  allreduce: [sum everything]\n",
        encoding="utf-8")
    vocab = load_vocabulary(extra_yaml=extra, catalog=_catalog())
    norm = Normalizer(vocab)
    assert norm.value("system", "big iron") == "dgx2"
    assert norm.value("system", "the Big Iron") == "dgx2"
    assert norm.value("system", "DGX-2") == "dgx2"                  # added, not replaced
    assert norm.value("system", "Selbu") == "selbu"
    assert norm.value("system", "sell boo") == "selbu"
    assert norm.value("system", "AC922") == "ac922_tum"            # the extra layer wins over the ambiguity
    assert norm.value("metric", "lag") == "latency"
    assert vocab.metric["latency"] == ["lag"]                      # replace: true
    assert norm.value("operation", "sum everything") == "allreduce"
    assert "Selbu" in Surface(vocab, norm).forms("system", "selbu")


def test_bad_extra_yaml(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("sytem:\n  x: [y]\n", encoding="utf-8")
    with pytest.raises(ValueError):
        load_vocabulary(extra_yaml=bad)


def test_default_database_vocabulary_round_trip():
    """Every surface of the full catalog-extended vocabulary reads back (uses the built database if any)."""
    from nlu.vocab import catalog_from_db
    cat = catalog_from_db()
    if cat is None:
        pytest.skip("no default database built")
    vocab = load_vocabulary(catalog=cat)
    norm = Normalizer(vocab)
    amb = _declared_ambiguous(vocab)
    for canonical, surfaces in vocab.system.items():
        for s in surfaces:
            got = norm.value("system", s)
            assert got == canonical or (got is None and key(s) in amb["system"]), (canonical, s, got)
    for sid in cat.systems:
        if not sid.startswith("doc_"):
            assert Surface(vocab, norm).forms("system", sid), sid


def test_normalize_gives_the_same_values_with_caches_cleared(norm):
    # the vocabulary keys are cached; values read with cold caches must equal warm ones
    from nlu import vocab as V
    spans = [("system", "the DGX two machine"), ("msg_bytes", "eight kilobytes"), ("src", "g p u zero"),
             ("metric", "bus bandwidth"), ("count", "on sixteen GPUs"), ("system", "Lassen xyz")]
    warm = [norm.value(slot, text) for slot, text in spans]
    V.key.cache_clear()
    V.norm_words.cache_clear()
    assert [norm.value(slot, text + " ") for slot, text in spans] == warm
    assert warm[1] == 8192 and warm[2] == "gpu0"


@pytest.mark.parametrize("text,expect", [("a 1000 MB", 1000 << 20),
                                         ("a hundred megabytes", 100 << 20), ("a megabyte", 1 << 20),
                                         ("an 8 KiB message", 8192)])
def test_an_article_before_a_number_is_not_one(norm, text, expect):
    assert norm.size_bytes(text) == expect


def test_a_family_name_is_not_a_misspelling_of_its_neighbour(norm):
    # "resnet" begins ResNet-50 and ResNet-152 and is one letter from ResNeXt: no guess
    assert norm.value("app", "resnet") is None
    assert norm.value("app", "resnext") == "resnext"
    assert norm.value("app", "ResNet-50") == "resnet50"
    assert norm.value("operation", "allredcue") == "allreduce"     # a plain typo is still repaired


def test_shorthands_key_like_the_words_they_stand_for():
    assert key("peer-to-peer access enabled") == key("P2P access enabled")
    assert key("peer to peer") == key("p2p")
    assert key("unified mem") == key("unified memory")
    assert key("memcpy") != key("memorycpy")


def test_a_fabric_inside_a_cluster_name_does_not_hide_the_cluster(norm):
    assert norm.value("system", "the in-house InfiniBand cluster") == "nvidia_inhouse"
    assert norm.value("system", "in-house IB cluster") == "nvidia_inhouse"
    assert norm.value("system", "InfiniBand") is None
