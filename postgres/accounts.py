"""Users, tokens, sessions and usage counts in PostgreSQL: storage/accounts.py's Accounts, method for method.

Text and jsonb cannot hold the NUL character: it is dropped from a stored token label or profile field (as
postgres/history.py drops it from answers), and a name holding one matches no user.

Does not: decide who may do what (accounts/roles.py) or read requests (web/auth.py).
"""
import time

from psycopg import errors
from psycopg.types.json import Jsonb

from accounts.roles import UserExists, check_role, check_tiers
from postgres.database import Database, lookup_value, storable
from storage.accounts import JSON_FIELDS, USER_COLUMNS, checked_changes, enabled


class PgAccounts:
    """The users, tokens, sessions and usage counts of one schema."""

    def __init__(self, db: Database):
        self.db = db

    # users

    def count(self) -> int:
        return self.db.execute("SELECT count(*) FROM users WHERE NOT disabled")[0][0]

    def create(self, name: str, role: str, password_hash: str | None, tiers=None) -> dict:
        check_role(role)
        tiers = Jsonb(list(check_tiers(tiers))) if tiers is not None else None
        try:
            self.db.execute("INSERT INTO users (name, password_hash, role, tiers, display_name, created_at) "
                            "VALUES (%s, %s, %s, %s, %s, %s)", (name, password_hash, role, tiers, name, time.time()))
        except errors.UniqueViolation:
            raise UserExists(f"A user named {name!r} exists already.") from None
        return self.user_named(name)

    def user(self, user_id: int) -> dict | None:
        rows = self.db.execute(f"SELECT {', '.join(USER_COLUMNS)} FROM users WHERE id = %s", (user_id,))
        return _user(rows[0]) if rows else None

    def user_named(self, name: str) -> dict | None:
        rows = self.db.execute(f"SELECT {', '.join(USER_COLUMNS)} FROM users WHERE name = %s", (lookup_value(name),))
        return _user(rows[0]) if rows else None

    def users(self) -> list[dict]:
        return [_user(r) for r in self.db.execute(f"SELECT {', '.join(USER_COLUMNS)} FROM users ORDER BY id")]

    def update(self, user_id: int, **fields) -> dict | None:
        values = {k: Jsonb(v) if k in JSON_FIELDS and v is not None else v
                  for k, v in storable(checked_changes(fields)).items()}
        if values:
            self.db.execute(f"UPDATE users SET {', '.join(f'{k} = %s' for k in values)} WHERE id = %s",
                            [*values.values(), user_id])
        return self.user(user_id)

    # tokens and sessions

    def add_token(self, user_id: int, token_hash: str, name: str | None, expires_at: float | None) -> int:
        return self.db.execute("INSERT INTO tokens (user_id, name, hash, created_at, expires_at) "
                               "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                               (user_id, storable(name), token_hash, time.time(), expires_at))[0][0]

    def tokens(self, user_id: int) -> list[dict]:
        names = ("id", "name", "created_at", "expires_at", "revoked_at", "last_used_at")
        rows = self.db.execute(f"SELECT {', '.join(names)} FROM tokens WHERE user_id = %s ORDER BY id", (user_id,))
        return [dict(zip(names, r)) for r in rows]

    def revoke(self, token_id: int | None = None, user_id: int | None = None) -> int:
        now = time.time()

        def work(conn):
            if token_id is not None:
                return conn.execute("UPDATE tokens SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL",
                                    (now, token_id)).rowcount
            conn.execute("DELETE FROM sessions WHERE user_id = %s", (user_id,))
            return conn.execute("UPDATE tokens SET revoked_at = %s WHERE user_id = %s AND revoked_at IS NULL",
                                (now, user_id)).rowcount

        return self.db.run(work)

    def token_user(self, token_hash: str) -> dict | None:
        now = time.time()
        rows = self.db.execute("UPDATE tokens SET last_used_at = %s WHERE hash = %s AND revoked_at IS NULL "
                               "AND (expires_at IS NULL OR expires_at > %s) RETURNING user_id",
                               (now, token_hash, now))
        return self._enabled(rows[0][0]) if rows else None

    def add_session(self, session_hash: str, user_id: int, csrf: str, expires_at: float) -> None:
        def work(conn):
            conn.execute("DELETE FROM sessions WHERE expires_at <= %s", (time.time(),))
            conn.execute("INSERT INTO sessions (hash, user_id, csrf, created_at, expires_at) VALUES (%s, %s, %s, %s, %s)",
                         (session_hash, user_id, csrf, time.time(), expires_at))

        self.db.run(work)

    def session(self, session_hash: str) -> tuple[dict, str] | None:
        rows = self.db.execute("SELECT user_id, csrf FROM sessions WHERE hash = %s AND expires_at > %s",
                               (session_hash, time.time()))
        user = self._enabled(rows[0][0]) if rows else None
        return (user, rows[0][1]) if user else None

    def end_session(self, session_hash: str) -> None:
        self.db.execute("DELETE FROM sessions WHERE hash = %s", (session_hash,))

    def _enabled(self, user_id: int) -> dict | None:
        return enabled(self.user(user_id))

    # usage counts

    def count_use(self, key: str, window: int, amount: int = 1) -> int:
        def work(conn):
            conn.execute("DELETE FROM usage WHERE key = %s AND window_start < %s", (key, window))
            return conn.execute("INSERT INTO usage (key, window_start, count) VALUES (%s, %s, %s) "
                                "ON CONFLICT (key, window_start) DO UPDATE SET count = usage.count + excluded.count "
                                "RETURNING count", (key, window, amount)).fetchone()[0]

        return self.db.run(work)


def _user(row) -> dict:
    user = dict(zip(USER_COLUMNS, row))
    user["disabled"] = bool(user["disabled"])
    return user
