"""Drive the web UI in a real browser: start `hpcask ui` on a free loopback port, open Debian's Chromium through
Playwright, ask, wait for the chart. Used by the browser test, the README screenshots and the UI benchmark.

Playwright's own browser builds cannot be downloaded here, so it drives /usr/bin/chromium (`make browser`);
a plain `chromium --screenshot` would only catch Streamlit's loading page, since the app renders over a websocket.
"""
from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

CHROMIUM = Path("/usr/bin/chromium")
CHAT_INPUT = '[data-testid="stChatInputTextArea"]'
CHART = '[data-testid="stPlotlyChart"]'
ASSISTANT = '[data-testid="stChatMessage"]'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`hpcask ui` as a child process; `url` once it answers its health check."""

    def __init__(self, db: Optional[Path] = None, port: Optional[int] = None):
        self.db, self.port = db, port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: Optional[subprocess.Popen] = None
        self.log = tempfile.TemporaryFile()  # a file, not a pipe: a chatty server can never block on a full pipe

    def start(self, timeout: float = 60) -> float:
        """Start and wait until Streamlit serves; returns the seconds that took."""
        cmd = [sys.executable, "-m", "app.cli", "ui", "--port", str(self.port)]
        if self.db:
            cmd += ["--db", str(self.db)]
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        while time.perf_counter() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"hpcask ui exited with {self.proc.returncode}: {self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        return time.perf_counter() - t0
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"hpcask ui did not answer on {self.url} within {timeout:.0f} s")

    def output(self) -> str:
        """The server's console so far (the end of it)."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@contextmanager
def server(db: Optional[Path] = None) -> Iterator[Server]:
    s = Server(db)
    try:
        s.start()
        yield s
    finally:
        s.stop()


@contextmanager
def browser(width: int = 1440, height: int = 1000) -> Iterator[object]:
    """A Playwright page in headless Chromium."""
    from playwright.sync_api import sync_playwright
    if not CHROMIUM.exists():
        raise FileNotFoundError(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                              args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"])
        try:
            page = b.new_page(viewport={"width": width, "height": height}, device_scale_factor=1)
            yield page
        finally:
            b.close()


def open_app(page, url: str, timeout_s: float = 90) -> None:
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector(CHAT_INPUT, timeout=timeout_s * 1000)


def ask(page, question: str, timeout_s: float = 120, chart: bool = True) -> float:
    """Type a question, press Enter, wait until its answer (and chart) is on the page; returns the seconds."""
    answers = page.locator(ASSISTANT).count() // 1
    charts = page.locator(CHART).count()
    t0 = time.perf_counter()
    box = page.locator(CHAT_INPUT)
    box.fill(question)
    box.press("Enter")
    # the new turn adds a user and an assistant message; its chart is drawn last
    page.wait_for_function(
        "([sel, n]) => document.querySelectorAll(sel).length >= n + 2", arg=[ASSISTANT, answers], timeout=timeout_s * 1000)
    if chart:
        page.wait_for_function(
            "([sel, n]) => document.querySelectorAll(sel).length > n", arg=[CHART, charts], timeout=timeout_s * 1000)
    else:
        page.wait_for_selector('[data-testid="stSpinner"]', state="detached", timeout=timeout_s * 1000)
    return time.perf_counter() - t0


def frame_last_turn(page) -> None:
    """Scroll so the newest question sits at the top of the view, its answer and chart below it."""
    msgs = page.locator(ASSISTANT)
    n = msgs.count()
    if n >= 2:
        # to the top of the scrolling pane, then back by the height of the sticky page header
        msgs.nth(n - 2).evaluate("""e => {
            e.scrollIntoView({block: 'start'});
            let p = e.parentElement;
            while (p && !(p.scrollHeight > p.clientHeight && getComputedStyle(p).overflowY !== 'visible')) p = p.parentElement;
            if (p) p.scrollBy(0, -72);
        }""")
    page.wait_for_timeout(600)  # plotly's transitions and Streamlit's fade-in
