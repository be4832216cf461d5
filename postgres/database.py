"""A PostgreSQL database as Evidenz uses it: a psycopg 3 pool, one schema, statement timeouts, retries, migrations.

Every connection of the pool sets `search_path` to the installation's schema (then public, where pgvector's
types live), a statement timeout, and pgvector's binary adapters, so vectors travel as numpy arrays. A connection
is checked before it is lent, so a database restarted under a running server costs no request more than a retry.
`run(work)` runs a function in one transaction and runs it again when the connection was lost or the transaction
lost a serialisation race; when the database cannot be reached it raises Unavailable, which the API answers with
a 503, and when a statement runs past the timeout, TimedOut (not retried: it would take as long again), a 503 that
says so. Migrations are numbered in the table schema_version; `upgrade` applies the missing ones under an advisory
lock (several servers may start at once) and refuses a schema newer than this Evidenz knows.
`storable` gives a value as PostgreSQL can hold it (text and jsonb hold no NUL, jsonb no NaN), `lookup_value`
one to look up by (text with a NUL matches nothing).
Does not: define the tables (schema.py) or know what they hold (store.py, library.py, history.py).
"""
import logging
import math
import re
import time
from contextlib import contextmanager, nullcontext

import psycopg
from pgvector.psycopg import register_vector
from psycopg import errors
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

log = logging.getLogger(__name__)

RETRIES = 3
SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
UPGRADE_LOCK = 7_406_015  # advisory lock key held while migrating


class Unavailable(RuntimeError):
    """The database cannot be reached (down, refusing, or every connection busy)."""


class TimedOut(RuntimeError):
    """A statement ran past the statement timeout (DATABASE_TIMEOUT_MS): the database is there, the work too big."""


class NewerSchema(RuntimeError):
    """The schema was written by a newer Evidenz, whose tables this one does not know."""


class SchemaMissing(RuntimeError):
    """The schema has not been created yet."""


class Database:
    """A pool of connections to one schema of one PostgreSQL database."""

    def __init__(self, url: str, schema: str = "evidenz", max_size: int = 10, timeout_ms: int = 30_000,
                 wait_seconds: float = 5.0):
        if not SCHEMA_NAME.fullmatch(schema):
            raise ValueError(f"DATABASE_SCHEMA must be lower-case letters, digits and _, not {schema!r}")
        self.url, self.schema, self.wait_seconds = url, schema, wait_seconds
        self.timeout_ms = int(timeout_ms)
        self._options = f"-c search_path={schema},public -c statement_timeout={self.timeout_ms}"
        self.max_size = max_size
        self.closed = False
        self.pool = self._pool()

    def _pool(self) -> ConnectionPool:
        pool = ConnectionPool(self.url, min_size=1, max_size=self.max_size, open=False,
                              check=ConnectionPool.check_connection, configure=self._configure,
                              kwargs={"autocommit": True, "options": self._options}, name=f"evidenz-{self.schema}")
        pool.open(wait=False)
        return pool

    def reopen(self) -> None:
        """New connections: those opened before pgvector was installed lack its adapters."""
        self.pool.close()
        self.pool = self._pool()

    def _configure(self, conn: psycopg.Connection) -> None:
        """pgvector's adapters, once the extension exists (before `upgrade` it may not)."""
        try:
            register_vector(conn)
        except psycopg.ProgrammingError:  # vector type not found: the schema is not created yet
            pass

    def connect(self) -> psycopg.Connection:
        """A connection of its own, outside the pool (held for a whole ingest job, or for LISTEN)."""
        try:
            conn = psycopg.connect(self.url, autocommit=True, options=self._options, connect_timeout=5)
        except psycopg.OperationalError as exc:
            raise Unavailable(_unreachable(exc)) from None
        self._configure(conn)
        return conn

    @contextmanager
    def connection(self):
        """A pooled connection (autocommit), or Unavailable when none can be had in time."""
        try:
            with self.pool.connection(timeout=self.wait_seconds) as conn:
                yield conn
        except PoolTimeout as exc:
            raise Unavailable(f"the database did not answer within {self.wait_seconds:g} s ({exc})") from None
        except PoolClosed:
            raise Unavailable("this process closed its connections to the database") from None

    def run(self, work, retries: int = RETRIES, pipelined: bool = False):
        """work(connection) in one transaction, retried on a lost connection or a serialisation failure; pipelined,
        its statements are sent together (with BEGIN and COMMIT) and answered in one round trip."""
        for attempt in range(retries + 1):
            try:
                with self.connection() as conn, conn.pipeline() if pipelined else nullcontext(), conn.transaction():
                    return work(conn)
            except (errors.SerializationFailure, errors.DeadlockDetected):
                if attempt == retries:
                    raise
            except errors.QueryCanceled as exc:  # an OperationalError, but running it again would take as long
                raise TimedOut(f"a statement ran past the timeout of {self.timeout_ms} ms") from exc
            except psycopg.OperationalError as exc:
                if attempt == retries:
                    raise Unavailable(_unreachable(exc)) from None
                log.warning("database connection lost (%s); retrying", str(exc).strip().splitlines()[0])
            time.sleep(0.1 * 2 ** attempt)

    def execute(self, sql: str, args=None) -> list:
        """The rows of one statement (none for one that returns none), in its own transaction and one round trip."""
        return self.query(sql, args)

    def query(self, sql: str, args=None, settings: list[str] = ()) -> list:
        """The rows of one statement after the settings (each a SET LOCAL), in one transaction sent as one round trip
        (retried as `run` retries)."""
        def work(conn):
            for setting in settings:
                conn.execute(setting)
            return conn.execute(sql, args)

        cursor = self.run(work, pipelined=True)  # its rows came back when the pipeline closed
        return cursor.fetchall() if cursor.description else []

    def vacuum(self, *tables: str) -> None:
        """VACUUM ANALYZE of tables, outside a transaction as VACUUM must run: after a bulk load, so the postings'
        index answers BM25 alone (it can only for pages VACUUM marked all-visible) and the planner knows the sizes."""
        with self.connection() as conn:
            for table in tables:
                conn.execute(f"VACUUM ANALYZE {table}")

    def version(self) -> int:
        """The schema version, 0 when no schema is there yet."""
        rows = self.execute("SELECT to_regclass('schema_version') IS NOT NULL")
        if not rows[0][0]:
            return 0
        return self.execute("SELECT coalesce(max(version), 0) FROM schema_version")[0][0]

    def health(self) -> dict:
        """For /api/health: reachable or not, the server's and pgvector's versions, the schema version."""
        try:
            server, vector = self.execute(
                "SELECT current_setting('server_version'), (SELECT extversion FROM pg_extension WHERE extname = 'vector')")[0]
            return {"status": "ok", "schema": self.schema, "schema_version": self.version(), "server_version": server,
                    "pgvector": vector}
        except Unavailable as exc:
            return {"status": "unavailable", "error": str(exc)}

    def pgvector_version(self) -> tuple[int, ...]:
        """pgvector's version as numbers, e.g. (0, 6, 2)."""
        found = self.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        return tuple(int(p) for p in re.findall(r"\d+", found[0][0])) if found else ()

    def close(self) -> None:
        self.closed = True
        self.pool.close()


def upgrade(db: Database, migrations: list, **values) -> int:
    """Apply the migrations the schema has not seen (each a list of statements, formatted with values).

    Returns the new version. Raises NewerSchema when the schema is newer than the migrations know.
    """
    def apply(conn):
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (UPGRADE_LOCK,))
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {db.schema}")
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, applied_at timestamptz"
                     " NOT NULL DEFAULT now())")
        version = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()[0]
        check_known(db, version, len(migrations))
        for number, statements in enumerate(migrations[version:], start=version + 1):
            for statement in statements:
                conn.execute(statement.format(**values))
            conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (number,))
        return len(migrations)

    return db.run(apply)


def require_current(db: Database, known: int) -> None:
    """Refuse a schema this Evidenz cannot use: missing, older (run `db upgrade`), or newer."""
    version = db.version()
    check_known(db, version, known)
    if version == 0:
        raise SchemaMissing(f"schema {db.schema} of DATABASE_URL has no Evidenz tables yet; "
                            "create them with `flask --app app db upgrade`")
    if version < known:
        raise SchemaMissing(f"schema {db.schema} is at version {version}, this Evidenz needs {known}; "
                            "run `flask --app app db upgrade`")


def check_known(db: Database, version: int, known: int) -> None:
    if version > known:
        raise NewerSchema(f"schema {db.schema} of DATABASE_URL was written by a newer Evidenz (schema {version}; this "
                          f"one knows up to {known}); upgrade Evidenz on every server, or point DATABASE_URL elsewhere")


def _unreachable(exc: Exception) -> str:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"the database cannot be reached ({first})"


def storable(value):
    """value as PostgreSQL keeps it: text without NUL characters, NaN and infinities as None, in lists and dicts too."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [storable(v) for v in value]
    return value


def lookup_value(value):
    """A value to look up: text holding a NUL is none that was stored, so it is sent as NULL, which equals nothing."""
    return None if isinstance(value, str) and "\x00" in value else value


def placeholders(sql: str) -> str:
    """SQL written with ? placeholders (storage/queries.py) as psycopg takes it."""
    return sql.replace("?", "%s")


class PgSql:
    """How the PostgreSQL backend runs the SQL both backends share (written with ? placeholders): on `self.db`;
    a JSON column is jsonb, and no text holds a NUL (storable)."""

    JSON_TEXT = "{column}->>'{key}'"  # a key of a jsonb column, as text
    REF_COLUMN = "section_ref"  # a chunk's canonical reference

    @staticmethod
    def _json(value) -> Jsonb:
        return Jsonb(value)

    @staticmethod
    def _storable(values: dict) -> dict:
        return storable(values)

    def _rows(self, sql: str, args=()) -> list:
        return self.db.execute(placeholders(sql), args)

    def _write(self, work):
        """work(execute) in one transaction (retried as Database.run retries); execute(sql, args) returns a cursor."""
        return self.db.run(lambda conn: work(lambda sql, args=(): conn.execute(placeholders(sql), args)))
