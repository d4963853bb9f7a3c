"""Add raw benchmark outputs or traces: the same parsers, the same one-transaction-per-file loader and the same
errors as `hpcask ingest`; a file that fails loads nothing."""
from __future__ import annotations

import streamlit as st

from app.ui import state

st.title("Add results")
st.markdown('<p class="hpc-sub">Upload raw outputs (nccl-tests, p2pBandwidthLatencyTest, bandwidthTest, '
            'nvidia-smi topo/nvlink, OSU, mgbench, SHOC, DeepBench, Tartan, Scope, PyTorch traces). Formats are '
            'recognised by content; each file loads completely or not at all.</p>', unsafe_allow_html=True)

with st.form("upload", clear_on_submit=True, border=True):
    files = st.file_uploader("Result files", accept_multiple_files=True, key="files")
    system = st.text_input("System id (optional)", placeholder="e.g. my_cluster",
                           help="Like `hpcask ingest --system`: the system the files belong to. Left empty, it is "
                                "inferred from the file's content (GPU models and counts).")
    submitted = st.form_submit_button("Load into the database", type="primary", icon=":material/upload:")

if submitted:
    if not files:
        st.warning("Choose one or more files first.")
    else:
        with st.spinner(f"Loading {len(files)} file(s)…"):
            reports = state.hub().ingest([(f.name, f.getvalue()) for f in files], system.strip() or None)
        st.session_state["upload_reports"] = [(r.status, r.line()) for r in reports]

for status, line in st.session_state.get("upload_reports", []):
    if status == "loaded":
        st.success(line, icon=":material/check_circle:")
    elif status == "skipped":
        st.info(line, icon=":material/content_copy:")
    else:
        st.error(line, icon=":material/error:")

with st.expander("Recognised formats"):
    from ingest import registry
    st.dataframe([{"format": p.name, "what": p.description} for p in registry.parsers()], width="stretch",
                 hide_index=True)
