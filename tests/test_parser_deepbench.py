from conftest import FIXTURES, RAW, table_counts

from ingest import registry

DB = RAW / "sp19-benchmark-results" / "DeepBench"
FIX = FIXTURES / "deepbench"


def _one(db, sql, *args):
    rows = db.execute(sql, list(args)).fetchall()
    assert len(rows) == 1, rows
    return rows[0]


def test_gemm_tensor_cores_on_and_off(ingest, db):
    rep = ingest(DB / "DGX-2" / "Tensor-Cores" / "gemm_tc_train_float")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "deepbench" and rep.systems == ["dgx2"]
    rep2 = ingest(DB / "DGX-2" / "Without-Tensor-Cores" / "gemm_train_float")
    assert rep2.status == "loaded"
    # first row of each file: m=1760 n=16 k=1760 a_t=0 b_t=0 float -> 39 us (TC build), 40 us (without)
    rows = db.execute("""SELECT condition, value, unit, precision, operation, source FROM measurements
                         WHERE json_extract(params, '$.m')=1760 AND json_extract(params, '$.n')=16
                           AND json_extract(params, '$.a_t')=0 AND json_extract(params, '$.b_t')=0
                         ORDER BY condition""").fetchall()
    assert rows == [("tensor_cores_off", 40.0, "us", "fp32", "gemm", "gemm_train_float line 5"),
                    ("tensor_cores_on", 39.0, "us", "fp32", "gemm", "gemm_tc_train_float line 5")]
    assert db.execute("SELECT DISTINCT library, json_extract_string(params, '$.mode') FROM measurements").fetchall() \
        == [("cublas", "train")]


def test_conv_training_phases(ingest, db):
    rep = ingest(DB / "DGX-2" / "Tensor-Cores" / "conv_tc_train_half")
    assert rep.status == "loaded"
    # line 6: 700 161 1 4 32 20 5 0 0 2 2 half 521 221 980 1722 1 IMPLICIT_PRECOMP_GEMM
    rows = db.execute("""SELECT json_extract_string(params, '$.phase') ph, value FROM measurements
                         WHERE source = 'conv_tc_train_half line 6' ORDER BY value""").fetchall()
    assert rows == [("bwd_inputs", 221.0), ("fwd", 521.0), ("bwd_params", 980.0), ("total", 1722.0)]
    p = _one(db, """SELECT precision, json_extract(params, '$.w'), json_extract_string(params, '$.fwd_algo'),
                    json_extract(params, '$.pad_kernels') FROM measurements WHERE source = 'conv_tc_train_half line 6'
                    AND json_extract_string(params, '$.phase') = 'fwd'""")
    assert p == ("fp16", "700", "IMPLICIT_PRECOMP_GEMM", "1")


def test_nccl_allreduce_tables(ingest, db):
    rep = ingest(DB / "DGX-2" / "Tensor-Cores" / "mpi_allReduce_tc_16")
    assert rep.status == "loaded" and rep.measurements == 14
    # line 12: 64500000 floats, 258000000 bytes, avg 4.0425 ms, max 4.04476 ms over 16 ranks
    rows = db.execute("""SELECT statistic, value, unit, orig_value, count, count_kind, library FROM measurements
                         WHERE msg_bytes = 258000000 ORDER BY statistic""").fetchall()
    assert rows == [("max", 4044.76, "us", "4.04476", 16, "gpus", "nccl"),
                    ("mean", 4042.5, "us", "4.0425", 16, "gpus", "nccl")]
    rep = ingest(DB / "DGX-2" / "Tensor-Cores" / "single_allReduce_16")
    assert rep.status == "loaded" and rep.measurements == 7
    assert _one(db, """SELECT value, app FROM measurements WHERE app='nccl_single_all_reduce'
                       AND msg_bytes=400000""") == (172.0, "nccl_single_all_reduce")


def test_crashed_and_empty_runs_load_without_measurements(ingest, db):
    rep = ingest(DB / "DGX-2" / "Tensor-Cores" / "mpi_allReduce_tc_1")  # MPI abort before any row
    assert rep.status == "loaded" and rep.runs == 1 and rep.measurements == 0
    assert "no result rows" in rep.message
    rep = ingest(DB / "MiniSummit" / "Tensor-Cores" / "rnn_tc_infer_int8")  # aborted after printing a config
    assert rep.status == "loaded" and rep.measurements == 0
    assert "aborted" in rep.message and rep.systems == ["ac922_minisummit"]


def test_truncated_inputs_are_rejected(ingest, db):
    before = table_counts(db)
    for name in ("gemm_cut_mid_row.txt", "mpi_allreduce_cut_mid_row.txt"):
        rep = ingest(FIX / name)
        assert rep.status == "failed", name
        assert "truncated" in rep.message
    assert table_counts(db) == before


def test_foreign_inputs_are_rejected(ingest, db):
    before = table_counts(db)
    shoc = RAW / "sp19-benchmark-results" / "SHOC" / "DGX-2" / "1 gpu" / "0"
    assert not registry.get("deepbench").sniff(registry.make_context(shoc))
    assert ingest(shoc, fmt="deepbench").status == "failed"
    assert table_counts(db) == before
