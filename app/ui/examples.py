"""Questions the sidebar and the empty chat offer, one per kind of answer; each is answered by the current
model (checked by tests/test_ui_examples.py, which asks every one of them)."""
from __future__ import annotations

EXAMPLES: list[tuple[str, str]] = [
    ("Topology", "show the topology of the DGX-1 V100"),
    ("Path", "how many hops between core 0 and core 63 on the XMP-64"),
    ("Congestion", "how much does latency grow under load on the IPU system"),
    ("Scaling", "IPU broadcast bandwidth as the number of tiles grows"),
    ("Size sweep", "all-reduce bus bandwidth versus message size on the H200 pair"),
    ("Pair matrix", "p2p bandwidth between every pair of GPUs on the DGX-2"),
    ("Comparison", "compare device to host bandwidth on the DGX-2 and the AC922 Yme"),
    ("Link efficiency", "how close does NVLink get to its nominal bandwidth on the DGX-1 V100"),
    ("Trace", "where does the time go in the H200 trace"),
    ("Lookup", "what bus bandwidth does all-reduce reach on the H200 pair at one gigabyte?"),
    ("Inventory", "which systems are loaded"),
    ("Two topologies", "compare the topology of the DGX-1 P100 and the DGX-1 V100"),
]
