"""The Streamlit entry script (`hpcask ui` runs it): page setup, navigation, the shared sidebar."""
from __future__ import annotations

import streamlit as st

from app.ui import sidebar, theme

st.set_page_config(page_title="hpcask", page_icon=":material/speed:", layout="wide",
                   initial_sidebar_state="expanded")
theme.inject()
page = st.navigation(position="top", pages=[
    st.Page("pages/ask.py", title="Ask", icon=":material/forum:", default=True),
    st.Page("pages/systems.py", title="Systems", icon=":material/lan:"),
    st.Page("pages/upload.py", title="Add results", icon=":material/upload_file:"),
])
sidebar.database()
page.run()
