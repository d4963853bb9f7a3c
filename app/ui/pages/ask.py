"""The conversation: typed or spoken questions, each answered with its number, chart, rows and reasoning."""
from __future__ import annotations

import streamlit as st

from app.ui import render, sidebar, state
from app.ui.examples import EXAMPLES

sidebar.examples()
turns = state.turns()

head, mic = st.columns([3, 2], vertical_alignment="bottom")
with head:
    st.title("Ask your performance data")
    st.markdown('<p class="hpc-sub">Bandwidth, latency, collectives, topology, scaling, congestion and traces '
                '— every number with the file or table it came from.</p>', unsafe_allow_html=True)
with mic:
    if state.audio_supported():
        recording = st.audio_input("Ask by voice", key="mic", help="Record a question; it is transcribed on this "
                                   "machine, then answered like a typed one.")
    else:
        recording = None
        st.caption(":material/mic_off: Spoken questions need the speech model, which is not installed.")

typed = st.chat_input("Ask about bandwidth, latency, topology, scaling, congestion or traces…", key="chat")
question = typed or st.session_state.pop("pending", None)
spoken = None
if recording is not None and recording.file_id != st.session_state.get("heard"):
    st.session_state["heard"] = recording.file_id  # a recording stays in the widget; answer it once
    spoken = recording.getvalue()

for i, res in enumerate(turns):
    with st.chat_message("user", avatar=render.AVATAR["user"]):
        render.user(res)
    with st.chat_message("assistant", avatar=render.AVATAR["assistant"]):
        render.answer(res, i)

if question or spoken:
    with st.chat_message("user", avatar=render.AVATAR["user"]):
        said = st.empty()
        said.markdown(question or ":material/mic: …")
    with st.chat_message("assistant", avatar=render.AVATAR["assistant"]):
        with st.spinner("Thinking…" if question else "Listening…"):
            res = state.ask(question or "", audio=None if question else spoken)
        render.answer(res, len(turns) - 1)
    if not question:
        with said.container():
            render.user(res)  # the transcript, once there is one
elif not turns:
    st.markdown("##### Try one of these")
    cols = st.columns(3)
    for i, (kind, q) in enumerate(EXAMPLES[:9]):
        with cols[i % 3]:
            with st.container(border=True):
                st.caption(kind.upper())
                if st.button(q, key=f"card-{i}", type="tertiary"):
                    st.session_state["pending"] = q
                    st.rerun()

sidebar.conversation()
