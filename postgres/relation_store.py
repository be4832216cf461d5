"""Relations between passages in PostgreSQL: storage/relation_store.py's methods, rules and answers, in SQL.

Adding the same (source, target, kind) again updates it (one upsert, so two servers adding it at once make one).
Does not: decide who may see or change a relation (web/relations.py), or bring passages into answers
(search/related.py).
"""
from psycopg import errors

from models import Relation
from postgres.database import Database
from storage.relation_store import COLUMNS, check, check_changes, duplicate

SELECT = f"SELECT {', '.join(COLUMNS)} FROM relations"
NOW = "extract(epoch FROM clock_timestamp())::float8"


def relation(row) -> Relation:
    return Relation(row[0], row[1], row[2], row[3], round(float(row[4]), 6), *row[5:])  # a real: 0.85, not 0.8500000238


class PgRelations:
    """The relations table of one schema."""

    def __init__(self, db: Database):
        self.db = db

    def add(self, source, target, kind, confidence=1.0, notes=None, created_by=None) -> tuple[Relation, bool]:
        """Record a relation, or update the one with the same (source, target, kind); (it, whether it is new)."""
        source, target, kind, confidence, notes = check(source, target, kind, confidence, notes)
        row = self.db.execute(
            f"INSERT INTO relations (source, target, kind, confidence, notes, created_by, created_at, updated_at) "
            f"VALUES (%s, %s, %s, %s, %s, %s, {NOW}, {NOW}) ON CONFLICT (source, target, kind) DO UPDATE SET "
            f"confidence = excluded.confidence, notes = excluded.notes, updated_at = excluded.updated_at "
            f"RETURNING {', '.join(COLUMNS)}, xmax = 0", (source, target, kind, confidence, notes, created_by))[0]
        return relation(row[:-1]), row[-1]  # xmax 0: the row was inserted, not updated

    def update(self, relation_id: int, changes: dict) -> Relation | None:
        """Change a relation's kind, confidence or notes; None when there is no such relation."""
        changes = check_changes(changes)
        sets = ", ".join(f"{name} = %s" for name in changes)
        try:
            rows = self.db.execute(f"UPDATE relations SET {sets}, updated_at = {NOW} WHERE id = %s "
                                   f"RETURNING {', '.join(COLUMNS)}", [*changes.values(), relation_id])
        except errors.UniqueViolation:
            old = self.get(relation_id)
            raise duplicate(old.source, old.target, changes["kind"]) from None
        return relation(rows[0]) if rows else None

    def delete(self, relation_id: int) -> bool:
        return bool(self.db.execute("DELETE FROM relations WHERE id = %s RETURNING id", (relation_id,)))

    def get(self, relation_id: int) -> Relation | None:
        rows = self.db.execute(f"{SELECT} WHERE id = %s", (relation_id,))
        return relation(rows[0]) if rows else None

    def of(self, keys, kinds=None) -> list[Relation]:
        """The relations that touch any of the passage keys, in either direction (of the given kinds only)."""
        keys = list(dict.fromkeys(keys))
        rows = self.db.execute(f"{SELECT} WHERE (source = ANY(%(keys)s) OR target = ANY(%(keys)s)) "
                               "AND (%(kinds)s::text[] IS NULL OR kind = ANY(%(kinds)s)) ORDER BY id",
                               {"keys": keys, "kinds": list(kinds) if kinds else None})
        return [relation(r) for r in rows]

    def list(self, limit: int = 100, offset: int = 0, passage: str | None = None) -> tuple[list[Relation], int]:
        """A page of the relations (those touching passage, when given), oldest first; and their total."""
        where, args = ("WHERE source = %s OR target = %s", [passage, passage]) if passage else ("", [])
        total = self.db.execute(f"SELECT count(*) FROM relations {where}", args)[0][0]
        rows = self.db.execute(f"{SELECT} {where} ORDER BY id LIMIT %s OFFSET %s", [*args, limit, offset])
        return [relation(r) for r in rows], total

    def holders(self, keys) -> dict[str, set[str]]:
        """For each passage key that is in the library, the ids of the documents holding it."""
        keys, held = list(dict.fromkeys(keys)), {}
        rows = self.db.execute("SELECT coalesce(section_ref, chunk_id), doc_id FROM chunks WHERE section_ref = "
                               "ANY(%(keys)s) OR (section_ref IS NULL AND chunk_id = ANY(%(keys)s))", {"keys": keys})
        for key, doc_id in rows:
            held.setdefault(key, set()).add(doc_id)
        return held
