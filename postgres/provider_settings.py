"""The providers' settings an admin keeps (storage/provider_settings.py) in PostgreSQL: the same queries, run here.

Every server on the schema reads the same rows, so a key or model set on one server reaches the others' writers
(writers/live.py reads the table again every few seconds).
Does not: check what is stored (web/providers.py does) or build writers.
"""
from postgres.database import Database, PgSql
from storage.provider_settings import ProviderSettingsQueries


class PgStoredProviders(PgSql, ProviderSettingsQueries):
    """The providers' settings of one schema."""

    def __init__(self, db: Database):
        self.db = db
