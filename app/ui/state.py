"""Streamlit glue: the process-wide Hub (cached across sessions) and this browser session's connection and
conversation (in st.session_state, never shared)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import streamlit as st

from app.paths import default_db
from app.ui.hub import Hub

MODEL_ENV = "HPCASK_MODEL_DIR"  # tests point the UI at a model; `hpcask ui` uses the installed one


def db_path() -> Path:
    """`hpcask ui --db FILE` passes the file in $HPCASK_DB (read by app.paths.default_db)."""
    return default_db()


def model_dir() -> Optional[Path]:
    v = os.environ.get(MODEL_ENV)
    return Path(v) if v else None


@st.cache_resource(show_spinner=False)
def _hub(db: str, model: Optional[str]) -> Hub:
    h = Hub(Path(db), Path(model) if model else None)
    if Path(db).exists():
        h.preload()
    return h


def hub() -> Hub:
    m = model_dir()
    return _hub(str(db_path().resolve()), str(m.resolve()) if m else None)


def turns() -> list:
    """This session's conversation: a list of Result objects, oldest first."""
    return st.session_state.setdefault("turns", [])


def ask(question: str, *, audio: Any = None):
    """Answer one typed (or, with `audio`, spoken) question on this session's own read-only connection,
    building on the previous turn for follow-ups; appends the Result to the conversation."""
    from app.followup import context_of
    from app.result import Result
    h = hub()
    prev = turns()[-1] if turns() else None
    ctx = context_of(prev)
    qid = str(len(turns()) + 1)
    with h.gate.reading():
        try:
            conn = h.connect(st.session_state.get("conn"))
        except FileNotFoundError as e:
            res = Result(question=question, intent="out_of_scope", error=str(e), answer=str(e), id=qid)
            turns().append(res)
            return res
        st.session_state["conn"] = conn
        try:
            if audio is not None:
                with h.speech_lock:
                    h.share_speech(conn.asker)
                    res = conn.asker.ask_audio(audio, context=ctx, qid=qid)
            else:
                res = conn.asker.ask(question, context=ctx, qid=qid)
        except Exception as e:  # a bug in one answer must not end the conversation; it is shown, not hidden
            res = Result(question=question or "(spoken question)", intent="out_of_scope", id=qid,
                         error=f"{type(e).__name__}: {e}", answer=f"Something went wrong: {type(e).__name__}: {e}")
    turns().append(res)
    return res


def audio_supported() -> bool:
    from app.ask import Asker
    return hasattr(Asker, "ask_audio")


def on_connection(fn):
    """Run fn(asker) on this session's read-only connection, (re)opened as needed, with no upload in between."""
    h = hub()
    with h.gate.reading():
        conn = h.connect(st.session_state.get("conn"))
        st.session_state["conn"] = conn
        return fn(conn.asker)
