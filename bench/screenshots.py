"""README screenshots of the web UI, taken in a real browser (Debian's Chromium through Playwright) against the
default database: a topology, an IPU congestion heatmap and a scaling chart, saved as small PNGs in docs/img/.

`make screenshots` (or `.venv/bin/python bench/screenshots.py`); re-run after changing the UI or the charts.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.ui import driver  # noqa: E402

SHOTS = [
    ("ui-topology.png", "show the topology of the DGX-1 V100"),
    ("ui-congestion.png", "how much does latency grow under load on the IPU system"),
    ("ui-scaling.png", "IPU broadcast bandwidth as the number of tiles grows"),
]


def shrink(path: Path, width: int) -> None:
    """Scale down and reduce to a 256-colour palette: screenshots of flat UI lose nothing visible."""
    from PIL import Image
    im = Image.open(path).convert("RGB")
    if im.width > width:
        im = im.resize((width, round(im.height * width / im.width)), Image.LANCZOS)
    im.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "img")
    ap.add_argument("--db", type=Path, default=None)
    ap.add_argument("--width", type=int, default=1100, help="width of the saved PNGs")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    with driver.server(a.db) as srv, driver.browser(width=1440, height=1180) as page:
        for name, question in SHOTS:
            driver.open_app(page, srv.url)  # a fresh page is a fresh session: one question on screen
            secs = driver.ask(page, question, timeout_s=300)
            driver.frame_last_turn(page)
            path = a.out / name
            page.screenshot(path=str(path))
            shrink(path, a.width)
            print(f"{path}: {path.stat().st_size // 1024} KiB ({secs:.1f} s to answer)")


if __name__ == "__main__":
    main()
