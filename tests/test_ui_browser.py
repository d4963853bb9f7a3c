"""The web UI in a real browser: `hpcask ui` as a subprocess on a free loopback port, Debian's Chromium driven
by Playwright. Asks a question, waits for its chart, saves a screenshot (`make browser` installs Chromium)."""
from __future__ import annotations

from app.ui import driver


def test_browser_asks_and_gets_a_chart(built_db, tmp_path):
    assert driver.CHROMIUM.exists(), "no /usr/bin/chromium: run `make browser`"
    srv = driver.Server(db=built_db)
    try:
        srv.start(timeout=90)
        with driver.browser(width=1280, height=900) as page:
            driver.open_app(page, srv.url)
            # the empty conversation offers questions; the sidebar says what is loaded
            assert "Try asking" in page.inner_text("body")
            driver.ask(page, "show the topology of the DGX-1 V100", timeout_s=180)
            last = page.locator(driver.ASSISTANT).last
            text = last.inner_text()
            assert "DGX-1" in text and "links" in text, text[:500]
            assert last.locator(driver.CHART).count() == 1
            # the chart really drew: plotly put its SVG and the graph's nodes on the page
            assert last.locator(".main-svg").count() >= 1 and last.locator(".scatterlayer .trace").count() >= 2
            driver.frame_last_turn(page)
            shot = tmp_path / "topology.png"
            page.screenshot(path=str(shot))
            assert shot.stat().st_size > 20_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            # a follow-up in the same session keeps the kind of answer and switches the system
            driver.ask(page, "and on the DGX-2?", timeout_s=120)
            assert "DGX-2" in page.locator(driver.ASSISTANT).last.inner_text()
    finally:
        srv.stop()
    assert srv.proc.poll() is not None  # the server is gone
