"""Builds the default database from datasets/: curated groups, then every raw output under raw/.

The build writes a new file beside the target and renames it into place, so a running UI never
sees a half-built database, and a build is skipped when nothing it reads has changed.
"""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from ingest import curated, loader, summaries

CODE_DIR = Path(__file__).resolve().parent


@dataclass
class BuildReport:
    db_path: Path
    built: bool
    seconds: float = 0.0
    groups: list[str] = field(default_factory=list)
    files: list[loader.LoadReport] = field(default_factory=list)

    @property
    def failures(self) -> list[loader.LoadReport]:
        return [f for f in self.files if f.status == "failed"]


def _inputs(datasets: Path) -> list[Path]:
    files = [p for p in (datasets / "curated").rglob("*.csv")]
    files += loader.iter_files([datasets / "raw"]) if (datasets / "raw").exists() else []
    files += list(CODE_DIR.rglob("*.py"))
    return sorted(p for p in files if p.is_file() and "__pycache__" not in p.parts)


def fingerprint(datasets: Path) -> str:
    h = hashlib.sha256()
    for p in _inputs(datasets):
        h.update(str(p.relative_to(p.anchor)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def _current_fingerprint(db_path: Path) -> Optional[str]:
    if not db_path.exists():
        return None
    try:
        con = loader.connect(db_path, read_only=True)
        try:
            row = con.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
        finally:
            con.close()
        return row[0] if row else None
    except Exception:
        return None


# Rows per row group in the built file (DuckDB's default is 122,880: the whole measurements table in two). A
# question reads the rows of one system and metric; with the table in that order and groups this small, DuckDB's
# zone maps skip all but a few groups (bench/RESULTS.md, nlu section).
ROW_GROUP_SIZE = 16384


def _cluster_measurements(con) -> None:
    """Store measurements in (system, metric, operation) order, each group's rows in the order they were
    loaded: the planners' queries select one system and metric, and their answers that depend on row order
    (sums and lists over one system's rows) see the same order as before."""
    con.execute("BEGIN TRANSACTION")
    con.execute("CREATE TEMP TABLE _clustered AS SELECT * FROM measurements "
                "ORDER BY system_id, metric, operation, rowid")
    con.execute("DELETE FROM measurements")
    con.execute("INSERT INTO measurements SELECT * FROM _clustered")
    con.execute("DROP TABLE _clustered")
    con.execute("COMMIT")


def build(db_path: Path, datasets: Path, *, force: bool = False,
          progress: Optional[Callable[[str], None]] = None) -> BuildReport:
    t0 = time.perf_counter()
    fp = fingerprint(datasets)
    if not force and _current_fingerprint(db_path) == fp:
        return BuildReport(db_path=db_path, built=False, seconds=time.perf_counter() - t0)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = db_path.with_name(db_path.name + f".building-{os.getpid()}")
    for p in (tmp, Path(str(tmp) + ".wal")):
        if p.exists():
            p.unlink()
    report = BuildReport(db_path=db_path, built=True)
    # Build in memory (commits cost nothing there), then copy the finished database to its file.
    con = loader.connect(":memory:")
    try:
        for g in curated.groups(datasets / "curated"):
            res = curated.load_group(g)  # raises CuratedError: a broken curated file fails the build
            con.execute("BEGIN TRANSACTION")
            lr = loader.LoadReport(path=f"curated/{g.name}", status="loaded", parser="curated")
            first_run = con.execute("SELECT coalesce(max(run_id), 0) + 1 FROM runs").fetchone()[0]
            loader.write_result(con, res, source_file=f"datasets/curated/{g.name}", content_hash=None,
                                origin="curated", report=lr)
            summaries.add(con, first_run)
            con.execute("COMMIT")
            report.groups.append(g.name)
            if progress:
                progress(lr.line())
        raw = datasets / "raw"
        manifest = raw / "systems.csv"
        if manifest.exists():
            for s in curated.load_systems_manifest(manifest):
                loader.upsert_system(con, s)
        files = loader.iter_files([raw]) if raw.exists() else []
        files = [f for f in files if f.suffix.lower() != ".md" and f != manifest]
        for f in files:
            rel = str(f.relative_to(datasets.parent))
            lr = loader.ingest_file(con, f, display_name=rel)
            report.files.append(lr)
            if progress:
                progress(lr.line())
        con.execute("INSERT OR REPLACE INTO meta VALUES ('fingerprint', ?)", [fp])
        _cluster_measurements(con)
        con.execute(f"ATTACH ? AS out (ROW_GROUP_SIZE {ROW_GROUP_SIZE})", [str(tmp)])
        con.execute("COPY FROM DATABASE memory TO out")
        con.execute("DETACH out")
    finally:
        con.close()
    os.replace(tmp, db_path)
    report.seconds = time.perf_counter() - t0
    return report
