"""`hpcask ui`: run the Streamlit app on loopback, headless, with usage statistics off."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

from app.ui.theme import THEME

SCRIPT = Path(__file__).with_name("main.py")
DEFAULT_PORT = 8501


def command(port: int = DEFAULT_PORT, address: str = "127.0.0.1") -> list[str]:
    opts = {
        "server.address": address,
        "server.port": str(port),
        "server.headless": "true",
        "browser.gatherUsageStats": "false",
        "server.fileWatcherType": "none",   # a product, not a live-reloading script
        "server.runOnSave": "false",
        "client.toolbarMode": "minimal",
        "client.showErrorDetails": "type",  # tracebacks go to the console, not the page
        "server.maxUploadSize": "1024",     # MiB: traces are large
        **THEME,
    }
    return [sys.executable, "-m", "streamlit", "run", str(SCRIPT), *[f"--{k}={v}" for k, v in opts.items()]]


def environment(db: Optional[Path]) -> dict[str, str]:
    """The database travels in $HPCASK_DB (app.paths.default_db reads it); models load offline only."""
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    if db is not None:
        env["HPCASK_DB"] = str(Path(db).resolve())
    return env


def serve(port: int = DEFAULT_PORT, db: Optional[Path] = None) -> int:
    """Become the Streamlit server (exec, no child process): Ctrl-C and SIGTERM reach it directly, and stopping
    `hpcask ui` can never leave an orphaned server behind."""
    cmd = command(port)
    sys.stdout.flush()
    os.execve(cmd[0], cmd, environment(db))
    return 0  # not reached
