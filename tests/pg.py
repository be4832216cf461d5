"""PostgreSQL for the tests: one pgserver (PostgreSQL 16 with pgvector, no root needed) per session, a fresh
schema per test, and the `backend` fixture that runs a test once on the embedded files and once on PostgreSQL."""
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import FakeEmbedder


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory):
    """A PostgreSQL server on a unix socket in a temporary folder, stopped when the session ends."""
    import pgserver

    server = pgserver.get_server(tmp_path_factory.mktemp("pgdata"), cleanup_mode="stop")
    yield server
    server.cleanup()


def fresh_schema(pg_server, embedder=None):
    """A Database on a new schema of the session's server, its tables made for embedder's vectors."""
    from postgres.database import Database
    from postgres.library import create

    db = Database(pg_server.get_uri(), schema=f"t_{uuid.uuid4().hex[:12]}", wait_seconds=10)
    create(db, embedder or FakeEmbedder())
    return db


@pytest.fixture
def pg_db(pg_server):
    """A fresh schema (tables for the fake embedder's 64-d vectors), dropped after the test."""
    db = fresh_schema(pg_server)
    yield db
    db.execute(f"DROP SCHEMA {db.schema} CASCADE")
    db.close()


@dataclass
class Backend:
    """One backend for a test: `build(docs)` makes a library of docs, `config` points an app at it."""

    name: str
    folder: Path
    db: object = None
    config: dict = field(default_factory=dict)

    def build(self, docs, embedder=None):
        from ingest import corpus
        from postgres.library import PgLibrary

        embedder = embedder or FakeEmbedder()
        if self.db is None:
            return corpus.build(docs, embedder, self.folder, 1200, 200)
        library = PgLibrary.open(self.db, embedder)
        library.replace_documents(corpus.corpus_entries(docs, embedder, 1200, 200))
        return library


@pytest.fixture(params=["embedded", "postgres"])
def backend(request, tmp_path):
    """The test runs on each backend in turn."""
    if request.param == "embedded":
        yield Backend("embedded", tmp_path / "lib")
        return
    db = fresh_schema(request.getfixturevalue("pg_server"))
    yield Backend("postgres", tmp_path / "lib", db, {"DATABASE_URL": db.url, "DATABASE_SCHEMA": db.schema})
    from postgres.backend import close_database

    close_database(db.url, db.schema)  # the app's pool of this schema (its history, users), with its connections
    db.execute(f"DROP SCHEMA {db.schema} CASCADE")
    db.close()


@pytest.fixture
def any_history(backend):
    """The answer history on each backend in turn: a History file, then a PgHistory."""
    from postgres.history import PgHistory
    from storage.history import History

    return History(backend.folder / "history.sqlite3") if backend.db is None else PgHistory(backend.db)
