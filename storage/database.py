"""SQLite files as Evidenz opens them: WAL (readers never wait for a writer), a busy timeout (a second
writer waits instead of failing), foreign keys on, a connection per thread and per process (never reused
across a fork, as gunicorn's preload forks), and explicit BEGIN IMMEDIATE transactions.
Migrations are numbered by `PRAGMA user_version`: `migrate` applies the ones a file has not seen, each in one
transaction that re-reads the version (safe when several processes start at once), and refuses a file written
by a newer Evidenz. Used by store.py (the library) and history.py (the answer log).
Does not: define tables or migrations.
"""
import json
import os
import sqlite3
import threading
from pathlib import Path


class Connections:
    """This thread's connection to one SQLite file, opened on first use; private: the file (and the journal files
    SQLite makes beside it, with its mode) readable and writable by the server's user alone."""

    def __init__(self, path: Path, private: bool = False):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        if private:
            os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))  # made so, never readable by others
            os.chmod(self.path, 0o600)  # and a file made before this, mended

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


class NewerSchema(RuntimeError):
    """The file was written by a newer Evidenz, whose tables this one does not know."""


def migrate(db: sqlite3.Connection, migrations: list[tuple[str, ...]], path: Path, setting: str) -> None:
    """Apply the migrations (each a tuple of SQL statements) that the file at path has not seen yet.

    setting names the configuration that chooses the file, for the message when the file is too new.
    """
    with Transaction(db):
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(migrations):
            raise NewerSchema(f"{path} was written by a newer Evidenz (schema {version}); "
                              f"upgrade Evidenz or point {setting} elsewhere.")
        for number, statements in enumerate(migrations[version:], start=version + 1):
            for statement in statements:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")


class SqliteSql:
    """How the embedded backend runs the SQL both backends share (written with ? placeholders): on `self.db`;
    a JSON column holds text."""

    JSON_TEXT = "json_extract({column}, '$.{key}')"  # a key of a JSON column, as text
    REF_COLUMN = "ref"  # a chunk's canonical reference

    @staticmethod
    def _json(value) -> str:
        return json.dumps(value, ensure_ascii=False)

    @staticmethod
    def _storable(values: dict) -> dict:
        return values

    def _rows(self, sql: str, args=()) -> list:
        return self.db.execute(sql, args).fetchall()

    def _write(self, work):
        """work(execute) in one transaction; execute(sql, args) returns a cursor."""
        with Transaction(self.db) as db:
            return work(db.execute)
