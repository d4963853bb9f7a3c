"""The sidebar: what is loaded (as `hpcask db stats` counts it), example questions, the conversation's controls."""
from __future__ import annotations

import streamlit as st

from app.ui import state, theme
from app.ui.examples import EXAMPLES


def database() -> None:
    with st.sidebar:
        theme.brand()
        try:
            s = state.hub().stats()
        except Exception as e:  # no database yet, or it is being rebuilt: say so, keep the page up
            st.error(f"Database not readable: {e}")
            return
        t = s["totals"]
        c1, c2 = st.columns(2)
        c1.metric("systems", f"{t['systems']:,}")
        c2.metric("measurements", f"{t['measurements']:,}")
        c1.metric("links", f"{t['links']:,}")
        c2.metric("trace events", f"{t['trace_events']:,}")
        st.caption(f":material/database: `{s['database']}`")


def examples() -> None:
    """Clicking one asks it, as if typed."""
    with st.sidebar:
        st.markdown("**Try asking**")
        for i, (kind, q) in enumerate(EXAMPLES):
            if st.button(q, key=f"ex-{i}", width="stretch", type="tertiary"):
                st.session_state["pending"] = q


def conversation() -> None:
    turns = state.turns()
    if not turns:
        return
    with st.sidebar:
        st.divider()
        st.markdown("**This conversation**")
        from app.ui.render import export_html
        st.download_button("Export conversation", data=lambda t=list(turns): export_html(t, title="hpcask conversation"),
                           file_name="hpcask-conversation.html", mime="text/html", key="export-all",
                           icon=":material/description:", on_click="ignore", width="stretch")
        if st.button("New conversation", icon=":material/restart_alt:", width="stretch", key="new-conversation"):
            turns.clear()
            st.rerun()
