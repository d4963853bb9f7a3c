"""The web UI (`hpcask ui`): a Streamlit app over the same `Asker` façade as the CLI.

`hub` holds what a server process shares between browser sessions (the loaded model, the read/write gate);
`state` is the Streamlit glue (one read-only connection per session); `render` draws one answered turn;
`main.py` and `pages/` are the scripts Streamlit runs; `launch` builds the `streamlit run` command.
"""
