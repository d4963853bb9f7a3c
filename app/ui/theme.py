"""The look: Streamlit's theme options for `streamlit run` and a little CSS for what the theme cannot say."""
from __future__ import annotations

import streamlit as st

# passed as --theme.* options by app.ui.launch (a config file would only be read from the working directory)
THEME = {
    "theme.base": "light",
    "theme.primaryColor": "#2456a6",
    "theme.backgroundColor": "#ffffff",
    "theme.secondaryBackgroundColor": "#f3f5f9",
    "theme.textColor": "#1b2330",
    "theme.font": "sans-serif",
}

CSS = """
<style>
.block-container {padding-top: 2.2rem; max-width: 1400px;}
h1 {font-weight: 700; letter-spacing: -0.02em;}
.hpc-sub {color: #5a6473; font-size: 1.02rem; margin-top: -0.6rem; margin-bottom: 1.2rem;}
.hpc-headline {font-size: 2.2rem; font-weight: 700; color: #1b2330; line-height: 1.1; margin: 0.1rem 0 0.4rem 0;}
.hpc-headline span {font-size: 1.1rem; font-weight: 500; color: #5a6473;}
.hpc-brand {font-size: 1.35rem; font-weight: 700; letter-spacing: -0.01em; margin-bottom: 0;}
.hpc-brand span {color: #2456a6;}
.hpc-tagline {color: #5a6473; font-size: 0.85rem; margin-top: 0;}
[data-testid="stChatMessage"] {padding: 0.9rem 1.1rem; border-radius: 0.6rem;}
[data-testid="stMetricValue"] {font-size: 1.15rem;}
[data-testid="stSidebar"] [data-testid="stMetricValue"] {font-size: 1.2rem;}
[data-testid="stBaseButton-tertiary"] {justify-content: flex-start; text-align: left;}
[data-testid="stBaseButton-tertiary"] > div {justify-content: flex-start;}
[data-testid="stBaseButton-tertiary"] p {text-align: left;}
[data-testid="stBaseButton-tertiary"]:hover p {color: #2456a6;}
[data-testid="stSidebar"] button p {text-align: left; font-size: 0.86rem;}
[data-testid="stChatMessageAvatarCustom"], [data-testid="stChatMessage"] [data-testid="stIconMaterial"] {color: #2456a6;}
</style>
"""


def inject() -> None:
    st.markdown(CSS, unsafe_allow_html=True)


def brand() -> None:
    st.markdown('<p class="hpc-brand">hpc<span>ask</span></p>'
                '<p class="hpc-tagline">Ask your HPC performance data</p>', unsafe_allow_html=True)
