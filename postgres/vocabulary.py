"""The library's BM25 terms in PostgreSQL, as the glossary asks for them (hebrew/glossary.py): one term, or many at once.

Does not: score (postgres/search.py).
"""
from postgres.database import Database


class Vocabulary:
    """The library's BM25 terms: `term in vocabulary`, or those of many terms at once (`known`)."""

    def __init__(self, db: Database):
        self.db = db

    def __contains__(self, term: str) -> bool:
        return bool(self.db.execute("SELECT 1 FROM terms WHERE term = %s", (term,)))

    def known(self, terms) -> set[str]:
        """Those of terms the library has, in one statement (none asked: none sent)."""
        if not terms:
            return set()
        return {r[0] for r in self.db.execute("SELECT term FROM terms WHERE term = ANY(%s)", (list(terms),))}
