"""Browse the loaded systems: each one's topology and what was measured on it."""
from __future__ import annotations

import streamlit as st

from app.ui import browse, render, state

st.title("Systems")
st.markdown('<p class="hpc-sub">Every system in the database: how it is wired and what was measured on it.</p>',
            unsafe_allow_html=True)

stats = state.hub().stats()
# wired and measured systems first (the richest is the default), then the rest by name
systems = sorted(stats["systems"], key=lambda s: (s["links"] == 0, -s["measurements"], s["name"]))
if not systems:
    st.info("The database holds no systems yet: add results on the *Add results* page.")
    st.stop()
by_id = {s["system_id"]: s for s in systems}
sid = st.selectbox("System", list(by_id), format_func=lambda i: f"{by_id[i]['name']}  ·  {i}", key="system")
s = by_id[sid]
cols = st.columns(5)
for col, (k, label) in zip(cols, (("components", "components"), ("links", "links"), ("runs", "runs"),
                                  ("measurements", "measurements"), ("trace_events", "trace events"))):
    col.metric(label, f"{s[k]:,}")

topo = state.on_connection(lambda a: browse.planned(a, "topology", {"system": sid}, f"topology of {s['name']}"))
listing = state.on_connection(lambda a: browse.planned(a, "list_data", {"system": sid}, f"what was measured on {s['name']}"))

left, right = st.columns([3, 2])
with left:
    st.subheader("Topology")
    if topo.intent == "out_of_scope" or not topo.rows:
        st.info(topo.answer or "No components or links are stored for this system.")
    else:
        st.markdown(topo.answer)
        fig = render.figure_of(topo)
        if fig is not None:
            st.plotly_chart(fig, width="stretch", key="system-topology", config={"displaylogo": False})
with right:
    st.subheader("What was measured")
    st.markdown(listing.answer)
    if listing.rows:
        st.dataframe(render.table_of(listing, drop=("system_id",)), width="stretch", hide_index=True)
