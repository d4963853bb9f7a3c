"""bench scripts rewrite their section of bench/RESULTS.md; the hand-written notes below a section's notes marker
must survive a re-run (session 39's run of bench/nlu.py deleted 260 lines of history)."""
from pathlib import Path

from bench.ingest import replace_section

REPO = Path(__file__).resolve().parents[1]


def test_rewrite_keeps_notes_and_other_sections(tmp_path):
    md = tmp_path / "RESULTS.md"
    md.write_text("# B\n\n<!-- a:start -->\nold table\n\n<!-- a:notes -->\nsession 12: why\n<!-- a:end -->\n\n"
                  "<!-- b:start -->\nb body\n<!-- b:end -->\n")
    replace_section(md, "a", "new table")
    text = md.read_text()
    assert "old table" not in text and "new table" in text
    assert text.index("new table") < text.index("<!-- a:notes -->") < text.index("session 12: why") < text.index("<!-- a:end -->")
    assert "<!-- b:start -->\nb body\n<!-- b:end -->" in text
    replace_section(md, "a", "newer table")      # twice: the notes are kept once, not duplicated
    assert md.read_text().count("session 12: why") == 1 and "newer table" in md.read_text()


def test_rewrite_without_notes_replaces_whole_section(tmp_path):
    md = tmp_path / "RESULTS.md"
    md.write_text("<!-- a:start -->\nold\n<!-- a:end -->\n<!-- b:start -->\n<!-- b:notes -->\nb notes\n<!-- b:end -->\n")
    replace_section(md, "a", "new")
    assert md.read_text() == "<!-- a:start -->\nnew\n<!-- a:end -->\n<!-- b:start -->\n<!-- b:notes -->\nb notes\n<!-- b:end -->\n"
    replace_section(md, "c", "fresh")            # a section not there yet is appended
    assert md.read_text().rstrip().endswith("<!-- c:start -->\nfresh\n<!-- c:end -->")


def test_results_file_marks_the_hand_written_history():
    """The sections that carry hand-written history have the marker, inside the section."""
    text = (REPO / "bench" / "RESULTS.md").read_text()
    for name in ("nlu", "asr"):
        a, n, b = (text.index(f"<!-- {name}:{m} -->") for m in ("start", "notes", "end"))
        assert a < n < b
