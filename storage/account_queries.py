"""The accounts' queries both backends share: users, tokens, sessions and usage counts, written once.

A backend's Accounts mixes in its way of running SQL (storage/database.SqliteSql, postgres/database.PgSql) and
keeps only what differs: how it reports a taken name, finding a user by name, and how a JSON field is stored.
"""
import time

from accounts.roles import UserExists, check_role, check_tiers
from storage.queries import from_json

USER_COLUMNS = ("id", "name", "password_hash", "role", "tiers", "display_name", "community", "customs", "poskim",
                "answer_language", "created_at", "disabled")
USER_SELECT = f"SELECT {', '.join(USER_COLUMNS)} FROM users"
JSON_FIELDS = ("tiers", "customs", "poskim")
TOKEN_COLUMNS = ("id", "name", "created_at", "expires_at", "revoked_at", "last_used_at")


def user_of(row) -> dict:
    """A users row (USER_COLUMNS, in order) as a dict, its JSON fields read."""
    user = dict(zip(USER_COLUMNS, row))
    for key in JSON_FIELDS:
        user[key] = from_json(user[key]) if user[key] is not None else None
    user["disabled"] = bool(user["disabled"])
    return user


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


class AccountQueries:
    """Users, tokens, sessions and usage counts; a backend gives _rows, _write, _json and _storable (its Sql)."""

    NAME_TAKEN: type[Exception] = Exception  # what the database raises for a name that is taken

    # users

    def create(self, name: str, role: str, password_hash: str | None, tiers=None) -> dict:
        check_role(role)
        tiers = self._json(list(check_tiers(tiers))) if tiers is not None else None
        try:
            self._write(lambda execute: execute("INSERT INTO users (name, password_hash, role, tiers, display_name, "
                                                "created_at) VALUES (?, ?, ?, ?, ?, ?)",
                                                (name, password_hash, role, tiers, name, time.time())))
        except self.NAME_TAKEN:
            raise UserExists(f"A user named {name!r} exists already.") from None
        return self.user_named(name)

    def count(self) -> int:
        return self._rows("SELECT count(*) FROM users WHERE NOT disabled")[0][0]

    def user(self, user_id: int) -> dict | None:
        rows = self._rows(f"{USER_SELECT} WHERE id = ?", (user_id,))
        return user_of(rows[0]) if rows else None

    def users(self) -> list[dict]:
        return [user_of(r) for r in self._rows(f"{USER_SELECT} ORDER BY id")]

    def update(self, user_id: int, **fields) -> dict | None:
        """Set some of: role, tiers (None: the role's), password_hash, disabled and the profile fields."""
        values = {k: self._json(v) if k in JSON_FIELDS and v is not None else v
                  for k, v in self._storable(checked_changes(fields)).items()}
        if values:
            self._write(lambda execute: execute(f"UPDATE users SET {', '.join(f'{k} = ?' for k in values)} WHERE id = ?",
                                                [*values.values(), user_id]))
        return self.user(user_id)

    def _enabled(self, user_id: int) -> dict | None:
        return enabled(self.user(user_id))

    # tokens and sessions

    def add_token(self, user_id: int, token_hash: str, name: str | None, expires_at: float | None) -> int:
        return self._write(lambda execute: execute(
            "INSERT INTO tokens (user_id, name, hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
            (user_id, self._storable({"name": name})["name"], token_hash, time.time(), expires_at)).fetchone()[0])

    def tokens(self, user_id: int) -> list[dict]:
        rows = self._rows(f"SELECT {', '.join(TOKEN_COLUMNS)} FROM tokens WHERE user_id = ? ORDER BY id", (user_id,))
        return [dict(zip(TOKEN_COLUMNS, r)) for r in rows]

    def revoke(self, token_id: int | None = None, user_id: int | None = None) -> int:
        """Revoke one token, or every token and session of a user; returns how many tokens were revoked."""
        now = time.time()

        def work(execute):
            if token_id is not None:
                return execute("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                               (now, token_id)).rowcount
            execute("DELETE FROM sessions WHERE user_id = ?", (user_id,))
            return execute("UPDATE tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
                           (now, user_id)).rowcount

        return self._write(work)

    def token_user(self, token_hash: str) -> dict | None:
        """The enabled user of a live (unrevoked, unexpired) token, marking the token used."""
        now = time.time()
        row = self._write(lambda execute: execute(
            "UPDATE tokens SET last_used_at = ? WHERE hash = ? AND revoked_at IS NULL "
            "AND (expires_at IS NULL OR expires_at > ?) RETURNING user_id", (now, token_hash, now)).fetchone())
        return self._enabled(row[0]) if row else None

    def add_session(self, session_hash: str, user_id: int, csrf: str, expires_at: float) -> None:
        def work(execute):
            execute("DELETE FROM sessions WHERE expires_at <= ?", (time.time(),))
            execute("INSERT INTO sessions (hash, user_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                    (session_hash, user_id, csrf, time.time(), expires_at))

        self._write(work)

    def session(self, session_hash: str) -> tuple[dict, str] | None:
        """(the enabled user, the CSRF token) of a live session."""
        rows = self._rows("SELECT user_id, csrf FROM sessions WHERE hash = ? AND expires_at > ?",
                          (session_hash, time.time()))
        user = self._enabled(rows[0][0]) if rows else None
        return (user, rows[0][1]) if user else None

    def end_session(self, session_hash: str) -> None:
        self._write(lambda execute: execute("DELETE FROM sessions WHERE hash = ?", (session_hash,)))

    # usage counts of the limits (accounts/limits.py)

    def count_use(self, key: str, window: int, amount: int = 1, since: int | None = None) -> int:
        """Add amount to key's count in a window and return the new count (atomic across processes); key's counts
        of windows before since (default: this one) are dropped."""
        def work(execute):
            execute("DELETE FROM usage WHERE key = ? AND window_start < ?", (key, window if since is None else since))
            return execute("INSERT INTO usage (key, window_start, count) VALUES (?, ?, ?) ON CONFLICT (key, window_start) "
                           "DO UPDATE SET count = usage.count + excluded.count RETURNING count",
                           (key, window, amount)).fetchone()[0]

        return self._write(work)
