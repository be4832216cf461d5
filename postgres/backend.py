"""Which backend a configuration names: PostgreSQL when DATABASE_URL is set, else the embedded files.

`open_library`, `open_relations` and `open_history` are what the app, the CLI and evaluation call, so none of them
knows which backend it uses. A process keeps one connection pool per database and schema.
Does not: build the pipeline (app.py), or define either backend.
"""
import threading
from pathlib import Path

from configuration.settings import Settings
from postgres import schema
from postgres.database import Database, require_current
from postgres.library import PgLibrary
from postgres.relation_store import PgRelations
from search.library import REBUILD_HINT, STORE_FILE, Library, LibraryError
from storage.history import History
from storage.relation_store import Relations
from storage.store import Store

_pools: dict[tuple[str, str], Database] = {}
_lock = threading.Lock()


def uses_postgres(settings: Settings) -> bool:
    return bool(settings.database.url)


def database(settings: Settings, schema: str | None = None) -> Database:
    """This process's pool for the configured database and schema (made on first use)."""
    given = settings.database
    key = (given.url, schema or given.schema or "evidenz")
    with _lock:
        if key not in _pools:
            _pools[key] = Database(key[0], key[1], max_size=given.pool or 10, timeout_ms=given.timeout_ms or 30_000)
        return _pools[key]


def close_database(url: str, schema: str) -> None:
    """Close this process's pool for a database and schema, if it has one (a schema dropped, a test's end)."""
    with _lock:
        found = _pools.pop((url, schema), None)
    if found is not None:
        found.close()


def open_library(settings: Settings, embedder, create: bool = False):
    """The configured library: its schema in PostgreSQL, or its folder. create: make it when missing."""
    if uses_postgres(settings):
        if settings.database.bm25_common not in ("score", "skip"):
            raise ValueError(f"DATABASE_BM25_COMMON={settings.database.bm25_common!r} is not one of score, skip")
        return PgLibrary.open(database(settings), embedder, create_schema=create,
                              skip_common=settings.database.bm25_common == "skip")
    return Library.open(Path(settings.library.dir), embedder, create=create)


def open_relations(settings: Settings):
    """The configured library's relations between passages, without loading its indexes or an embedder."""
    if uses_postgres(settings):
        db = database(settings)
        require_current(db, len(schema.MIGRATIONS))
        return PgRelations(db)
    path = Path(settings.library.dir) / STORE_FILE
    if not path.exists():
        raise LibraryError(f"no library in {settings.library.dir}/; {REBUILD_HINT}, or set FLASK_LIBRARY_DIR")
    return Relations(Store(path))


def open_history(settings: Settings, path: Path | None = None):
    """The configured answer history: in PostgreSQL, or the file at path (default HISTORY_DB)."""
    if uses_postgres(settings):
        from postgres.history import PgHistory

        return PgHistory(database(settings))
    return History(Path(path or settings.server.history_db))
