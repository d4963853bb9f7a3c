"""A file that names only its host joins the loaded system of that name instead of becoming a second system of the
same name; a new one is said; and where two systems do share a name, the one whose id is the name said is meant.
Real fixture outputs, real DuckDB files."""
from conftest import FIXTURES

GATHER = FIXTURES / "nccl_tests" / "all_gather_perf_8xv100_2020.txt"   # its ranks run "on ip-172-31-20-228"
HOST = "ip-172-31-20-228"


def _systems(con):
    return {sid: name for sid, name in con.execute("SELECT system_id, name FROM systems").fetchall()}


def test_a_host_only_file_becomes_a_new_system_and_says_so(ingest, db):
    rep = ingest(GATHER)
    assert rep.status == "loaded" and rep.systems == ["host_ip_172_31_20_228"]
    assert "new system 'host_ip_172_31_20_228'" in rep.line() and "--system" in rep.line()


def test_a_host_only_file_joins_the_system_named_like_its_host(ingest, db):
    first = ingest(FIXTURES / "osu" / "osu_latency_v2.txt", system=HOST)
    assert first.status == "loaded"
    rep = ingest(GATHER)
    assert rep.status == "loaded" and rep.systems == [HOST], rep.line()
    assert f"the loaded system '{HOST}'" in rep.message
    assert "host_ip_172_31_20_228" not in _systems(db)
    (n,) = db.execute("SELECT count(*) FROM runs WHERE system_id = ?", [HOST]).fetchone()
    assert n == 2


def test_two_systems_of_one_name_the_id_said_is_meant(tmp_path):
    from app.ask import Asker
    from conftest import REPO
    from ingest import loader
    path = tmp_path / "two.duckdb"
    con = loader.connect(path)
    assert loader.ingest_file(con, GATHER).status == "loaded"          # host_ip_172_31_20_228, named after the host
    assert loader.ingest_file(con, FIXTURES / "osu" / "osu_latency_v2.txt", system_id=HOST).status == "loaded"
    names = _systems(con)
    con.close()
    assert names["host_ip_172_31_20_228"] == names[HOST] == HOST      # one name, two systems
    a = Asker(path, REPO / "models" / "nlu" / "build" / "current")
    try:
        assert a.nlu.norm.named("system", HOST) == HOST
    finally:
        a.close()
