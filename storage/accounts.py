"""Users, their bearer tokens and page sessions, and the usage counters of the limits, in the history's SQLite file.

They live beside the answers (storage/history.py migrates the tables) so that every process of a server reads
the same users and counts the same usage. Tokens and session ids are stored as digests (accounts/passwords.py);
a session also holds its CSRF token, which the page sends back in a header.
The PostgreSQL backend has the same methods (postgres/accounts.py).
Does not: decide who may do what (accounts/roles.py) or read requests (web/auth.py).
"""
import json
import sqlite3
import time

from accounts.roles import UserExists, check_role, check_tiers
from storage.database import Transaction

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
USER_COLUMNS = ("id", "name", "password_hash", "role", "tiers", "display_name", "community", "customs", "poskim",
                "answer_language", "created_at", "disabled")
JSON_FIELDS = ("tiers", "customs", "poskim")


class Accounts:
    """The users, tokens, sessions and usage counts of one history file."""

    def __init__(self, connections):
        self._connections = connections

    @property
    def db(self) -> sqlite3.Connection:
        return self._connections.db

    # users

    def count(self) -> int:
        return self.db.execute("SELECT count(*) FROM users WHERE NOT disabled").fetchone()[0]

    def create(self, name: str, role: str, password_hash: str | None, tiers=None) -> dict:
        check_role(role)
        tiers = json.dumps(list(check_tiers(tiers))) if tiers is not None else None
        try:
            with Transaction(self.db) as db:
                db.execute("INSERT INTO users (name, password_hash, role, tiers, display_name, created_at) "
                           "VALUES (?, ?, ?, ?, ?, ?)", (name, password_hash, role, tiers, name, time.time()))
        except sqlite3.IntegrityError:
            raise UserExists(f"A user named {name!r} exists already.") from None
        return self.user_named(name)

    def user(self, user_id: int) -> dict | None:
        row = self.db.execute(f"SELECT {', '.join(USER_COLUMNS)} FROM users WHERE id = ?", (user_id,)).fetchone()
        return _user(row) if row else None

    def user_named(self, name: str) -> dict | None:
        row = self.db.execute(f"SELECT {', '.join(USER_COLUMNS)} FROM users WHERE name = ?", (name,)).fetchone()
        return _user(row) if row else None

    def users(self) -> list[dict]:
        return [_user(r) for r in self.db.execute(f"SELECT {', '.join(USER_COLUMNS)} FROM users ORDER BY id")]

    def update(self, user_id: int, **fields) -> dict | None:
        """Set some of: role, tiers (None: the role's), password_hash, disabled and the profile fields."""
        values = {k: json.dumps(v, ensure_ascii=False) if k in JSON_FIELDS and v is not None else v
                  for k, v in checked_changes(fields).items()}
        if values:
            self.db.execute(f"UPDATE users SET {', '.join(f'{k} = ?' for k in values)} WHERE id = ?",
                            [*values.values(), user_id])
        return self.user(user_id)

    # tokens and sessions

    def add_token(self, user_id: int, token_hash: str, name: str | None, expires_at: float | None) -> int:
        cursor = self.db.execute("INSERT INTO tokens (user_id, name, hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                                 (user_id, name, token_hash, time.time(), expires_at))
        return cursor.lastrowid

    def tokens(self, user_id: int) -> list[dict]:
        rows = self.db.execute("SELECT id, name, created_at, expires_at, revoked_at, last_used_at FROM tokens "
                               "WHERE user_id = ? ORDER BY id", (user_id,))
        return [dict(r) for r in rows]

    def revoke(self, token_id: int | None = None, user_id: int | None = None) -> int:
        """Revoke one token, or every token and session of a user; returns how many tokens were revoked."""
        now = time.time()
        with Transaction(self.db) as db:
            if token_id is not None:
                return db.execute("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                                  (now, token_id)).rowcount
            db.execute("DELETE FROM sessions WHERE user_id = ?", (user_id,))
            return db.execute("UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
                              (now, user_id)).rowcount

    def token_user(self, token_hash: str) -> dict | None:
        """The enabled user of a live (unrevoked, unexpired) token, marking the token used."""
        now = time.time()
        row = self.db.execute("SELECT id, user_id FROM tokens WHERE hash = ? AND revoked_at IS NULL "
                              "AND (expires_at IS NULL OR expires_at > ?)", (token_hash, now)).fetchone()
        if row is None:
            return None
        self.db.execute("UPDATE tokens SET last_used_at = ? WHERE id = ?", (now, row[0]))
        return self._enabled(row[1])

    def add_session(self, session_hash: str, user_id: int, csrf: str, expires_at: float) -> None:
        with Transaction(self.db) as db:
            db.execute("DELETE FROM sessions WHERE expires_at <= ?", (time.time(),))
            db.execute("INSERT INTO sessions (hash, user_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                       (session_hash, user_id, csrf, time.time(), expires_at))

    def session(self, session_hash: str) -> tuple[dict, str] | None:
        """(the enabled user, the CSRF token) of a live session."""
        row = self.db.execute("SELECT user_id, csrf FROM sessions WHERE hash = ? AND expires_at > ?",
                              (session_hash, time.time())).fetchone()
        user = self._enabled(row[0]) if row else None
        return (user, row[1]) if user else None

    def end_session(self, session_hash: str) -> None:
        self.db.execute("DELETE FROM sessions WHERE hash = ?", (session_hash,))

    def _enabled(self, user_id: int) -> dict | None:
        return enabled(self.user(user_id))

    # usage counts of the limits (accounts/limits.py)

    def count_use(self, key: str, window: int, amount: int = 1) -> int:
        """Add amount to key's count in a window and return the new count (atomic across processes)."""
        with Transaction(self.db) as db:
            db.execute("DELETE FROM usage WHERE key = ? AND window_start < ?", (key, window))
            return db.execute("INSERT INTO usage (key, window_start, count) VALUES (?, ?, ?) ON CONFLICT (key, window_start) "
                              "DO UPDATE SET count = count + excluded.count RETURNING count",
                              (key, window, amount)).fetchone()[0]


def checked_changes(fields: dict) -> dict:
    """A user's changes with role and tiers checked (ValueError names what is allowed), for both backends."""
    if "role" in fields:
        check_role(fields["role"])
    if fields.get("tiers") is not None:
        fields = {**fields, "tiers": list(check_tiers(fields["tiers"]))}
    return fields


def enabled(user: dict | None) -> dict | None:
    """The user, unless there is none or they are disabled (their tokens and sessions then count for nothing)."""
    return user if user and not user["disabled"] else None


def _user(row) -> dict:
    user = dict(zip(USER_COLUMNS, row))
    for key in JSON_FIELDS:
        user[key] = json.loads(user[key]) if user[key] is not None else None
    user["disabled"] = bool(user["disabled"])
    return user
