"""A nominal the user gives ("measured against x8 Gen3", "relative to 50 GB/s"): read from the words in GB/s
per direction, and link_efficiency sets the measurements against it instead of (or where there is no) stored
nominal. Unit checks of the reader, then whole questions through the real model and database."""
import pytest

from nlu.pipeline import PCIE_LANE_GBPS, nominal_in


@pytest.mark.parametrize("text,value,said", [
    ("measured against x8 Gen3 ?", 8 * 8 * 128 / 130 / 8, "PCIe Gen3 x8"),
    ("relative to PCIe 3.0 x16", 16 * 8 * 128 / 130 / 8, "PCIe Gen3 x16"),
    ("vs x16 pcie gen4", 16 * 16 * 128 / 130 / 8, "PCIe Gen4 x16"),
    ("as a percentage of 16 GB/s", 16.0, "16 GB/s"),
    ("against 100 Gb/s", 12.5, "100 Gb/s"),
    ("of the nominal 25 GB/s", 25.0, "25 GB/s"),
])
def test_the_nominal_is_read_in_gb_per_s(text, value, said):
    got = nominal_in(text.split())
    assert got["value"] == pytest.approx(value, abs=1e-5) and got["said"] == said


@pytest.mark.parametrize("text", ["how fast is gen3", "pcie bandwidth at 16 MB", "against gen9 x16", "x3 gen3"])
def test_no_nominal_where_none_is_given(text):
    assert nominal_in(text.split()) is None


def test_pcie_lane_rates_follow_the_line_codes():
    # 8b/10b up to Gen2, 128b/130b from Gen3: the 15.754 GB/s that seed 001 §2.2 gives for PCIe 3.0 x16
    assert round(16 * PCIE_LANE_GBPS[3], 3) == 15.754 and PCIE_LANE_GBPS[2] == 0.5


def test_host_to_ipu_link_against_the_users_x8_gen3(asker):
    # seed 000 §4.7.2: "each IPU is connected to the PCIe switch via 8 PCIe Gen3 lanes"; Table 4.20: 6.03 GB/s
    # to one IPU. No nominal is stored for those links, so without the user's it could give no percentage.
    r = asker.ask("What's the efficiency of the host-to-IPU PCIe link, measured against x8 Gen3?")
    assert r.intent == "link_efficiency" and "condition" not in r.slots
    top = r.rows[0]
    assert top["measured"] == 6.03 and top["nominal"] == pytest.approx(8 * PCIE_LANE_GBPS[3], abs=1e-5)
    assert top["value"] == round(100 * 6.03 / (8 * PCIE_LANE_GBPS[3]), 1) == 76.6
    assert "76.6% of the PCIe Gen3 x8 asked about" in r.answer


def test_a_given_nominal_replaces_the_stored_one(asker):
    # seed 001 §5.1.2: 46.23 GB/s GPU0 -> GPU3 over the paired NVLink; against 60 GB/s instead of the stored 50
    r = asker.ask("dgx1 v100 gpu0 to gpu3 nvlink efficiency relative to 60 GB/s")
    top = r.rows[0]
    assert (top["measured"], top["nominal"], top["value"]) == (46.23, 60.0, round(100 * 46.23 / 60, 1))
    assert all(row["nominal"] == 60.0 for row in r.rows)
