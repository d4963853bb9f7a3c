"""Every raw output of the sp19 benchmark-results folder loads (only its README is not a result)."""
from conftest import RAW

from ingest import loader

ROOT = RAW / "sp19-benchmark-results"
EXPECTED_PARSER = {"DeepBench": {"deepbench"}, "Scope": {"scope"}, "SHOC": {"shoc"},
                   "Tartan": {"p2p_bandwidth_latency", "tartan_p2p_packet"}}


def test_whole_sp19_folder_loads(db):
    failed, wrong_parser, loaded = [], [], 0
    for path in loader.iter_files([ROOT]):
        rel = path.relative_to(ROOT)
        rep = loader.ingest_file(db, path, display_name=str(rel))
        if rep.status == "failed":
            failed.append(f"{rel}: {rep.message}")
            continue
        if rep.status == "skipped":  # byte-identical to a file already loaded (e.g. two empty int8 tables)
            continue
        loaded += 1
        if rep.parser not in EXPECTED_PARSER[rel.parts[0]]:
            wrong_parser.append(f"{rel}: {rep.parser}")
    assert [f.split(": ", 1)[0] for f in failed] == ["README.md"], failed
    assert wrong_parser == []
    assert loaded > 370
    per_system = dict(db.execute("SELECT system_id, count(*) FROM measurements GROUP BY 1").fetchall())
    assert set(per_system) == {"dgx2", "ac922_yme", "ac922_minisummit", "titan_rtx", "gtx980"}
    per_parser = dict(db.execute("""SELECT f.parser, count(*) FROM measurements m JOIN runs r USING (run_id)
                                    JOIN files f ON f.content_hash = r.content_hash GROUP BY 1""").fetchall())
    assert set(per_parser) == {"deepbench", "scope", "shoc", "p2p_bandwidth_latency", "tartan_p2p_packet"}
