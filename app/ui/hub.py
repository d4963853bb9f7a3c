"""What one UI server process shares between its browser sessions, without Streamlit in it (so it is testable
on its own): the loaded NLU model, the gate between many readers and the one writer, the sessions' connections.

DuckDB lets one process hold a file either read-only or read-write, never both: an upload must wait for the
questions in flight, close every session's read connection, write, and let each session reopen on its next
question. Sessions notice by the database file's stamp (mtime and size), which also catches a rebuild.
"""
from __future__ import annotations

import shutil
import tempfile
import threading
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

Stamp = tuple[int, int]


class ReadWriteGate:
    """Many readers or one writer; a waiting writer stops new readers (uploads are not starved)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writing = False
        self._writers_waiting = 0

    @contextmanager
    def reading(self) -> Iterator[None]:
        with self._cond:
            while self._writing or self._writers_waiting:
                self._cond.wait()
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._cond:
            self._writers_waiting += 1
            while self._writing or self._readers:
                self._cond.wait()
            self._writers_waiting -= 1
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


def file_stamp(path: Path) -> Stamp:
    try:
        st = path.stat()
    except FileNotFoundError:
        return (0, 0)
    return (st.st_mtime_ns, st.st_size)


@dataclass(eq=False)  # identity: kept in a WeakSet
class SessionConn:
    """One browser session's read-only connection (inside its Asker) and the database stamp it was opened at."""
    asker: object
    stamp: Stamp
    closed: bool = False

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.asker.close()


class Hub:
    """One per database file and server process."""

    def __init__(self, db_path: Path, model_dir: Optional[Path] = None):
        from app.ask import default_model_dir
        self.db_path = Path(db_path)
        self.model_dir = Path(model_dir or default_model_dir())
        self.gate = ReadWriteGate()
        self._nlu_lock = threading.Lock()
        self._nlu = None
        self._nlu_key: Optional[tuple] = None
        self._sessions: "weakref.WeakSet[SessionConn]" = weakref.WeakSet()
        self._stats_cache: Optional[tuple[Stamp, dict]] = None
        self._speech = None
        self.speech_lock = threading.Lock()  # one transcription at a time: 2 laptop cores, one shared model

    # -- reading ---------------------------------------------------------------------------------------------
    def stamp(self) -> Stamp:
        return file_stamp(self.db_path)

    def _model_stamp(self) -> tuple:
        labels = self.model_dir / "labels.json"
        return (str(self.model_dir.resolve()), file_stamp(labels), file_stamp(self.model_dir / "heads.pt"))

    def nlu(self, catalog):
        """The NLU for this database's words, loaded once for all sessions; reloaded when the model is replaced
        (the lead retrains it) or the database changes (an upload may bring new system names)."""
        from nlu.pipeline import NLU
        key = (self._model_stamp(), self.stamp())
        with self._nlu_lock:
            if self._nlu is None or self._nlu_key != key:
                extra = self.model_dir / "extra_vocabulary.yaml"
                self._nlu = NLU(self.model_dir, catalog=catalog, extra_vocab=extra if extra.exists() else None)
                self._nlu_key = key
            return self._nlu

    def preload(self) -> threading.Thread:
        """Load the model in the background as soon as the server has a visitor: the first question then finds it
        loaded (or waits only for the rest of it) instead of paying the whole load itself."""
        def run() -> None:
            import duckdb

            from app import catalog as catalog_mod
            try:
                with self.gate.reading():
                    con = duckdb.connect(str(self.db_path), read_only=True)
                    try:
                        cat = catalog_mod.load(con)
                    finally:
                        con.close()
                self.nlu(cat)
            except Exception:  # nothing lost: the first question loads it and shows any error
                pass
        t = threading.Thread(target=run, name="hpcask-preload", daemon=True)
        t.start()
        return t

    def connect(self, current: Optional[SessionConn] = None) -> SessionConn:
        """The session's connection, reopened when closed by an upload or when the database file changed.
        Call inside `gate.reading()`."""
        stamp = self.stamp()
        if current is not None and not current.closed and current.stamp == stamp \
                and self._nlu_key is not None and current.asker.nlu is self._nlu \
                and self._nlu_key[0] == self._model_stamp():
            return current
        if current is not None:
            current.close()
        import duckdb

        from app import catalog as catalog_mod
        from app.ask import Asker
        if not self.db_path.exists():
            raise FileNotFoundError(f"no database at {self.db_path}: run `hpcask db build` (or `make setup`)")
        con = duckdb.connect(str(self.db_path), read_only=True)
        try:
            cat = catalog_mod.load(con)
        finally:
            con.close()
        asker = Asker(self.db_path, self.model_dir, nlu=self.nlu(cat))
        conn = SessionConn(asker, stamp)
        self._sessions.add(conn)
        return conn

    def share_speech(self, asker) -> None:
        """Give the session's Asker the one speech model of this process (loaded by the first spoken question);
        without this every session, and every reopen after an upload, would load its own. Call under speech_lock."""
        if not hasattr(asker, "speech"):
            return
        if self._speech is None:
            self._speech = asker.speech()
        asker._speech = self._speech  # Asker.speech() loads only when this is unset

    def stats(self) -> dict:
        """`hpcask db stats` for the sidebar, recomputed only when the database changed."""
        from app.stats import stats
        stamp = self.stamp()
        if self._stats_cache is None or self._stats_cache[0] != stamp:
            with self.gate.reading():
                self._stats_cache = (stamp, stats(self.db_path))
        return self._stats_cache[1]

    # -- writing ---------------------------------------------------------------------------------------------
    def ingest(self, uploads: list[tuple[str, bytes]], system_id: Optional[str] = None) -> list:
        """Load uploaded files exactly as `hpcask ingest` does (same loader, one transaction per file; a file
        that fails loads nothing). Each is written under its own name to a private temporary folder first,
        since parsers and system detection read a real file. Returns one LoadReport per upload."""
        from ingest import loader
        tmp = Path(tempfile.mkdtemp(prefix="hpcask_upload_"))
        try:
            paths = []
            for name, data in uploads:
                safe = Path(name.replace("\\", "/")).name.strip() or "upload"
                if safe in (".", ".."):
                    safe = "upload"
                p = tmp / f"{len(paths):03d}" / safe  # one folder each: two uploads may share a name
                p.parent.mkdir()
                p.write_bytes(data)
                paths.append((safe, p))
            with self.gate.writing():
                for s in list(self._sessions):
                    s.close()  # DuckDB: no read-only connection may stay open beside the writer
                con = loader.connect(self.db_path)
                try:
                    reports = [loader.ingest_file(con, p, system_id=system_id or None, display_name=f"upload/{safe}")
                               for safe, p in paths]
                finally:
                    con.close()
            return reports
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
