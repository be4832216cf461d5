"""Which backend a configuration names: PostgreSQL when DATABASE_URL is set, else the embedded files.

`open_library`, `open_relations` and `open_history` are what the app, the CLI and evaluation call, so none of them
knows which backend it uses. A process keeps one connection pool per database and schema.
Does not: build the pipeline (app.py), or define either backend.
"""
import threading
from pathlib import Path

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


def uses_postgres(config) -> bool:
    return bool(config.get("DATABASE_URL"))


def database(config, schema: str | None = None) -> Database:
    """This process's pool for the configured database and schema (made on first use)."""
    key = (config["DATABASE_URL"], schema or config.get("DATABASE_SCHEMA") or "evidenz")
    with _lock:
        if key not in _pools:
            _pools[key] = Database(key[0], key[1], max_size=int(config.get("DATABASE_POOL") or 10),
                                   timeout_ms=int(config.get("DATABASE_TIMEOUT_MS") or 30_000))
        return _pools[key]


def close_database(url: str, schema: str) -> None:
    """Close this process's pool for a database and schema, if it has one (a schema dropped, a test's end)."""
    with _lock:
        found = _pools.pop((url, schema), None)
    if found is not None:
        found.close()


def open_library(config, embedder, create: bool = False):
    """The configured library: its schema in PostgreSQL, or its folder. create: make it when missing."""
    if uses_postgres(config):
        return PgLibrary.open(database(config), embedder, create_schema=create)
    return Library.open(Path(config["LIBRARY_DIR"]), embedder, create=create)


def open_relations(config):
    """The configured library's relations between passages, without loading its indexes or an embedder."""
    if uses_postgres(config):
        db = database(config)
        require_current(db, len(schema.MIGRATIONS))
        return PgRelations(db)
    path = Path(config["LIBRARY_DIR"]) / STORE_FILE
    if not path.exists():
        raise LibraryError(f"no library in {config['LIBRARY_DIR']}/; {REBUILD_HINT}, or set FLASK_LIBRARY_DIR")
    return Relations(Store(path))


def open_history(config, path: Path | None = None):
    """The configured answer history: in PostgreSQL, or the file at path (default HISTORY_DB)."""
    if uses_postgres(config):
        from postgres.history import PgHistory

        return PgHistory(database(config))
    return History(Path(path or config["HISTORY_DB"]))
