import json

import pytest

from conftest import FIXTURES, rejected as _rejected

D = FIXTURES / "nccl_tests"


def _line_of(path, needle):
    for i, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def test_allreduce_8gpu_values(ingest, db):
    rep = ingest(D / "all_reduce_perf_8xh100.txt")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "nccl-tests"
    assert rep.systems == ["host_dgx_h100_01"]
    assert rep.measurements == 31 * 2 * 3 + 1 and rep.components == 8

    def one(metric, cond, size=1073741824):
        return db.execute("""SELECT value, unit, orig_value, count, count_kind, operation, precision, library,
                                    params, source FROM measurements
                             WHERE metric = ? AND condition = ? AND msg_bytes = ?""", [metric, cond, size]).fetchall()

    [(v, unit, orig, count, kind, op, prec, lib, params, source)] = one("busbw", "in_place")
    assert (v, unit, orig) == (471.45, "GB/s", "471.45")
    assert (count, kind, op, prec, lib) == (8, "gpus", "allreduce", "fp32", "nccl")
    p = json.loads(params)
    assert p["in_place"] is True and p["redop"] == "sum" and p["dtype"] == "float" and p["root"] == -1
    assert p["wrong"] == 0
    assert source == f"all_reduce_perf_8xh100.txt line {_line_of(D / 'all_reduce_perf_8xh100.txt', '  1073741824 ')}"
    assert one("busbw", "out_of_place")[0][0] == 473.02
    assert one("algbw", "out_of_place")[0][0] == 270.30
    assert one("time", "out_of_place")[0][:2] == (3972.4, "us")
    # large times lose their decimals (%7.0f) and are still read right
    assert one("time", "in_place", 8589934592)[0][0] == 31666.0
    summary = db.execute("""SELECT value, statistic, msg_bytes, params FROM measurements
                            WHERE json_extract(params, '$.summary')::BOOLEAN""").fetchall()
    assert len(summary) == 1 and summary[0][:3] == (152.662, "mean", None)
    run = db.execute("SELECT tool, experiment, params FROM runs").fetchone()
    assert run[:2] == ("nccl-tests", "allreduce_8gpu")
    rp = json.loads(run[2])
    assert rp["nccl_version"] == "2.21.5+cuda12.4" and rp["ranks"] == 8 and rp["max_bytes"] == 8589934592
    gpu = db.execute("SELECT label, attrs FROM components WHERE component_id = 'gpu3'").fetchone()
    assert gpu[0] == "NVIDIA H100 80GB HBM3" and json.loads(gpu[1])["pci_bus_id"] == "0x5d"
    assert db.execute("SELECT name, kind FROM systems WHERE system_id = 'host_dgx_h100_01'").fetchone() == \
        ("dgx-h100-01", "gpu_server")


def test_old_allgather_header_without_redop_and_root(ingest, db):
    rep = ingest(D / "all_gather_perf_8xv100_2020.txt")
    assert rep.status == "loaded", rep.message
    assert rep.systems == ["host_ip_172_31_20_228"]
    ops = db.execute("SELECT DISTINCT operation FROM measurements").fetchall()
    assert ops == [("allgather",)]
    # size-0 rows (8 and 16 B split over 8 ranks) keep only their time
    zero = db.execute("SELECT metric, count(*) FROM measurements WHERE msg_bytes = 0 GROUP BY 1").fetchall()
    assert zero == [("time", 4)]
    v = db.execute("""SELECT value, params FROM measurements WHERE metric = 'busbw' AND condition = 'out_of_place'
                      AND msg_bytes = 134217728""").fetchone()
    row = next(l for l in (D / "all_gather_perf_8xv100_2020.txt").read_text().splitlines()
               if l.startswith("   134217728"))
    assert v[0] == float(row.split()[5])
    assert json.loads(v[1])["wrong"] == 0.0  # old 'error' column: max delta, printed 0e+00
    assert "redop" not in json.loads(v[1])


def test_newest_format_collective_line_and_pci_domain(ingest, db):
    rep = ingest(D / "run3.log")  # neutral file name: the collective comes from the header
    assert rep.status == "loaded", rep.message
    run = db.execute("SELECT tool_version, experiment, params FROM runs").fetchone()
    assert run[:2] == ("2.17.6", "reduce_scatter_4gpu")
    assert json.loads(run[2])["nccl_version"] == "2.27.4"
    v = db.execute("""SELECT value, precision, count FROM measurements WHERE metric = 'busbw'
                      AND condition = 'in_place' AND msg_bytes = 1073741824""").fetchone()
    assert v == (269.61, "bf16", 4)
    pci = db.execute("SELECT attrs FROM components WHERE component_id = 'gpu0'").fetchone()[0]
    assert json.loads(pci)["pci_bus_id"] == "0000:19:00"


def test_single_gpu_issue107_preamble(ingest, db):
    rep = ingest(D / "all_reduce_perf_1xv100_2019.txt")
    assert rep.status == "loaded", rep.message
    rows = dict(db.execute("""SELECT condition || ':' || metric, value FROM measurements
                              WHERE msg_bytes = 1310720000""").fetchall())
    assert rows["out_of_place:time"] == 1803.2 and rows["in_place:algbw"] == 89104.01
    assert rows["out_of_place:busbw"] == 0.0
    assert db.execute("SELECT DISTINCT count FROM measurements").fetchall() == [(1,)]


def test_operation_inferred_from_bus_factor(ingest, db):
    rep = ingest(D / "nccl_run_b.txt")
    assert rep.status == "loaded", rep.message
    assert rep.systems == ["titan_rtx"]  # TITAN RTX GPU signature
    run = db.execute("SELECT experiment, params FROM runs").fetchone()
    assert run[0] == "broadcast_4gpu" and json.loads(run[1])["operation_inferred"] is True
    p = db.execute("SELECT params FROM measurements WHERE msg_bytes = 1048576 LIMIT 1").fetchone()[0]
    assert json.loads(p)["root"] == 0


def test_operation_from_file_name(ingest, db, tmp_path):
    f = tmp_path / "nccl_alltoall_4gpu.txt"
    f.write_text((D / "nccl_run_b.txt").read_text())
    assert ingest(f).status == "loaded"
    assert db.execute("SELECT DISTINCT operation FROM measurements").fetchall() == [("alltoall",)]




def test_rejects_truncated_empty_and_foreign(ingest, db, tmp_path):
    rep = _rejected(ingest, db, D / "all_reduce_perf_truncated.txt")
    assert "truncated" in rep.message
    # cut at a line boundary: the table has rows but no footer
    lines = (D / "all_reduce_perf_8xh100.txt").read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.txt"
    cut.write_text("".join(lines[:30]))
    assert "footer" in _rejected(ingest, db, cut).message
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    _rejected(ingest, db, empty)
    _rejected(ingest, db, empty, fmt="nccl-tests")
    _rejected(ingest, db, FIXTURES / "osu" / "osu_bw_cuda_v7.2.txt", fmt="nccl-tests")
    # a row with a missing column
    bad = tmp_path / "bad.txt"
    text = (D / "all_reduce_perf_8xh100.txt").read_text()
    bad.write_text(text.replace("      0    17.75    0.00    0.00      0", "      0    17.75    0.00"))
    assert "columns" in _rejected(ingest, db, bad).message


@pytest.mark.parametrize("name", ["all_reduce_perf_8xh100.txt", "all_gather_perf_8xv100_2020.txt", "run3.log",
                                  "all_reduce_perf_1xv100_2019.txt", "nccl_run_b.txt"])
def test_detected_as_nccl_tests(name):
    from ingest import registry
    assert registry.detect(registry.make_context(D / name)).name == "nccl-tests"


def test_log_with_several_tests_and_echoed_command(ingest, db, tmp_path):
    log = tmp_path / "nccl_all_reduce_sweep.log"  # misleading name: each table's bus factor decides
    log.write_text((D / "all_reduce_perf_8xh100.txt").read_text() + (D / "all_gather_perf_8xv100_2020.txt").read_text())
    rep = ingest(log, system="lab")
    assert rep.status == "loaded" and rep.runs == 2, rep.message
    assert db.execute("SELECT experiment FROM runs ORDER BY run_id").fetchall() == [("allreduce_8gpu",),
                                                                                   ("allgather_8gpu",)]
    cmd = tmp_path / "out.txt"
    cmd.write_text("$ mpirun -np 4 ./build/broadcast_perf -b 1M -e 256M -f 4 -g 1\n"
                   + (D / "nccl_run_b.txt").read_text())
    assert ingest(cmd, system="ws").status == "loaded"
    p = json.loads(db.execute("SELECT params FROM runs WHERE system_id = 'ws'").fetchone()[0])
    assert p["program"] == "broadcast_perf" and "operation_inferred" not in p
