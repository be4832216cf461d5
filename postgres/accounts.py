"""Users, tokens, sessions and usage counts in PostgreSQL: the queries of storage/account_queries.py, run here.

Text and jsonb cannot hold the NUL character: it is dropped from a stored token label or profile field (as
postgres/history.py drops it from answers), and a name holding one matches no user.

Does not: decide who may do what (accounts/roles.py) or read requests (web/auth.py).
"""

from psycopg import errors

from postgres.database import Database, PgSql, lookup_value
from storage.account_queries import USER_SELECT, AccountQueries, user_of


class PgAccounts(PgSql, AccountQueries):
    """The users, tokens, sessions and usage counts of one schema (the queries: storage/account_queries.py)."""

    NAME_TAKEN = errors.UniqueViolation

    def __init__(self, db: Database):
        self.db = db

    def user_named(self, name: str) -> dict | None:
        rows = self._rows(f"{USER_SELECT} WHERE name = ?", (lookup_value(name),))
        return user_of(rows[0]) if rows else None
