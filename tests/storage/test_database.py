"""SQLite files as Evidenz opens them: migrations applied once, in order, and a file from a newer Evidenz refused."""
import sqlite3

import pytest

from storage.database import Connections, NewerSchema, migrate
from storage.store import Store

MIGRATIONS = [("CREATE TABLE a (x INTEGER)",), ("ALTER TABLE a ADD COLUMN y TEXT", "CREATE INDEX a_y ON a(y)")]


def test_migrations_are_applied_once_in_order(tmp_path):
    db = Connections(tmp_path / "x.sqlite3").db
    migrate(db, MIGRATIONS[:1], tmp_path / "x.sqlite3", "FLASK_X")
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    migrate(db, MIGRATIONS, tmp_path / "x.sqlite3", "FLASK_X")  # only the second one is new
    migrate(db, MIGRATIONS, tmp_path / "x.sqlite3", "FLASK_X")  # nothing is new
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    assert [r[1] for r in db.execute("PRAGMA table_info(a)")] == ["x", "y"]


def test_a_failing_migration_leaves_the_file_as_it_was(tmp_path):
    db = Connections(tmp_path / "x.sqlite3").db
    with pytest.raises(sqlite3.OperationalError):
        migrate(db, [("CREATE TABLE a (x INTEGER)", "CREATE TABLE a (x INTEGER)")], tmp_path / "x.sqlite3", "FLASK_X")
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0


def test_a_library_store_from_a_newer_version_is_refused_with_what_to_do(tmp_path):
    Store(tmp_path / "library.sqlite3")
    sqlite3.connect(tmp_path / "library.sqlite3").execute("PRAGMA user_version = 99")
    with pytest.raises(NewerSchema, match="newer Evidenz .schema 99.*FLASK_LIBRARY_DIR"):
        Store(tmp_path / "library.sqlite3")
