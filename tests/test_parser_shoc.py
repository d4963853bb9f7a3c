from conftest import RAW

SHOC = RAW / "sp19-benchmark-results" / "SHOC"


def test_shoc_single_gpu_values(ingest, db):
    rep = ingest(SHOC / "DGX-2" / "1 gpu" / "0")
    assert rep.status == "loaded", rep.message
    assert rep.parser == "shoc"
    assert rep.systems == ["dgx2"]  # 16x V100-SXM3-32GB identifies the DGX-2
    v = db.execute("""SELECT value, unit FROM measurements WHERE operation = 'h2d' AND src = 'gpu0'""").fetchall()
    assert v == [(11.8479, "GB/s")]
    flops = db.execute("""SELECT value FROM measurements WHERE json_extract_string(params, '$.result') = 'maxdpflops'""").fetchone()[0]
    assert flops == 8140.8
    # BenchmarkError results carry no number and are not stored
    assert db.execute("SELECT count(*) FROM measurements WHERE app = 'NeuralNet'").fetchone()[0] == 0


def test_shoc_multi_run_file_and_time_units(ingest, db):
    rep = ingest(SHOC / "DGX-2" / "2 gpus" / "0-1")
    assert rep.status == "loaded"
    assert rep.runs == 3
    # QTC reports seconds; stored in us
    qtc = db.execute("SELECT value, unit, orig_value FROM measurements WHERE json_extract_string(params,'$.result')='qtc' ORDER BY value LIMIT 1").fetchone()
    assert qtc[1] == "us" and abs(qtc[0] - float(qtc[2]) * 1e6) < 1e-6


def test_shoc_system_from_gpu_signature(ingest):
    assert ingest(SHOC / "Yme" / "1 gpu" / "2").systems == ["ac922_yme"]
    assert ingest(SHOC / "MiniSummit" / "1 gpu" / "1").systems == ["ac922_minisummit"]
