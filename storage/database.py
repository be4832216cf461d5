"""SQLite files as Evidenz opens them: WAL (readers never wait for a writer), a busy timeout (a second
writer waits instead of failing), foreign keys on, a connection per thread and per process (never reused
across a fork, as gunicorn's preload forks), and explicit BEGIN IMMEDIATE transactions.
Used by store.py (the library) and history.py (the answer log). Does not: define tables or migrations.
"""
import os
import sqlite3
import threading
from pathlib import Path


class Connections:
    """This thread's connection to one SQLite file, opened on first use."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()

    @property
    def db(self) -> sqlite3.Connection:
        """This thread's connection (autocommit; transactions are explicit)."""
        conn = getattr(self._local, "conn", None)
        if conn is None or self._local.pid != os.getpid():
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn, self._local.pid = conn, os.getpid()
        return conn


class Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, value, traceback):
        self.db.execute("ROLLBACK" if kind else "COMMIT")
        return False
