"""The providers' settings an admin keeps in the database: each hosted provider's API key and default model.

One row per provider (claude, gemini, openai) with who set it and when, beside the users in the history's database
(the SQLite file: storage/history.py migrates it; PostgreSQL: postgres/schema.py), so that every process and every
server on one database reads the same rows. A field left NULL is not set: the environment's value stands
(writers/configured.py merges them). A row with neither field is removed.
The key is kept as the admin gave it, in plain text: the database holds secrets and must be guarded as they are.
The queries are written once, for both backends; PostgreSQL's class is postgres/provider_settings.py.
Does not: check a key's or a model's shape (web/providers.py does), or build writers (writers/ does).
"""
import time

from storage.database import SqliteSql

FIELDS = ("api_key", "model")  # what an admin sets; None clears it
TABLE = """CREATE TABLE provider_settings (
    name TEXT PRIMARY KEY,
    api_key TEXT,
    model TEXT,
    updated_at REAL NOT NULL,
    updated_by TEXT
)"""


class ProviderSettingsQueries:
    """The rows of provider_settings; a backend gives _rows and _write (its Sql)."""

    def all(self) -> dict[str, dict]:
        """Each stored provider's row by name: {"api_key", "model" (None: not set), "updated_at", "updated_by"}."""
        rows = self._rows("SELECT name, api_key, model, updated_at, updated_by FROM provider_settings")
        return {row[0]: dict(zip(("api_key", "model", "updated_at", "updated_by"), row[1:])) for row in rows}

    def put(self, name: str, changes: dict, by: str | None) -> None:
        """Set the given fields of a provider's row (a value of None clears it), leaving the others as they are;
        by: who set them. Concurrent changes of different fields both stay."""
        given = [f for f in FIELDS if f in changes]
        if not given:
            raise ValueError(f"nothing to set: give one of {', '.join(FIELDS)}")
        values = [changes.get(f) for f in FIELDS]
        updates = ", ".join(f"{f} = excluded.{f}" for f in (*given, "updated_at", "updated_by"))

        def work(execute):
            execute(f"INSERT INTO provider_settings (name, {', '.join(FIELDS)}, updated_at, updated_by) "
                    f"VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET {updates}",
                    (name, *values, time.time(), by))
            execute("DELETE FROM provider_settings WHERE name = ? AND api_key IS NULL AND model IS NULL", (name,))

        self._write(work)

    def clear(self, name: str) -> bool:
        """Remove a provider's row (the environment's settings stand again); whether there was one."""
        return bool(self._write(lambda execute: execute("DELETE FROM provider_settings WHERE name = ?",
                                                        (name,)).rowcount))


class StoredProviders(SqliteSql, ProviderSettingsQueries):
    """The providers' settings in one history file."""

    def __init__(self, connections):
        self._connections = connections

    @property
    def db(self):
        return self._connections.db
