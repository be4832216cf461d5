"""Users, their bearer tokens and page sessions, and the usage counters of the limits, in the history's SQLite file.

They live beside the answers (storage/history.py migrates the tables) so that every process of a server reads
the same users and counts the same usage. Tokens and session ids are stored as digests (accounts/passwords.py);
a session also holds its CSRF token, which the page sends back in a header.
What both backends share is storage/account_queries.py; PostgreSQL's is postgres/accounts.py.
Does not: decide who may do what (accounts/roles.py) or read requests (web/auth.py).
"""
import sqlite3

from storage.account_queries import USER_SELECT, AccountQueries, user_of
from storage.database import SqliteSql

ACCOUNT_TABLES = (
    """CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        role TEXT NOT NULL,
        tiers TEXT,
        display_name TEXT,
        community TEXT,
        customs TEXT NOT NULL DEFAULT '[]',
        poskim TEXT NOT NULL DEFAULT '[]',
        answer_language TEXT,
        created_at REAL NOT NULL,
        disabled INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE tokens (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name TEXT,
        hash TEXT NOT NULL UNIQUE,
        created_at REAL NOT NULL,
        expires_at REAL,
        revoked_at REAL,
        last_used_at REAL
    )""",
    """CREATE TABLE sessions (
        hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        csrf TEXT NOT NULL,
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL
    )""",
    "CREATE TABLE usage (key TEXT NOT NULL, window_start INTEGER NOT NULL, count INTEGER NOT NULL, "
    "PRIMARY KEY (key, window_start))",
)


class Accounts(SqliteSql, AccountQueries):
    """The users, tokens, sessions and usage counts of one history file (the queries: storage/account_queries.py)."""

    NAME_TAKEN = sqlite3.IntegrityError

    def __init__(self, connections):
        self._connections = connections

    @property
    def db(self) -> sqlite3.Connection:
        return self._connections.db

    def user_named(self, name: str) -> dict | None:
        rows = self._rows(f"{USER_SELECT} WHERE name = ?", (name,))
        return user_of(rows[0]) if rows else None
