"""Relations between passages in the library's SQLite store: who argues with whom, whose custom overrides what.

A relation joins two passage keys (Chunk.key: a canonical ref such as "Shulchan Arukh, Orach Chayim 318:5, Rema",
else a chunk id) with a kind of RELATION_KINDS, a confidence from 0 to 1 and notes. It names passages, not chunk
rows, so it outlives re-indexing, and it may be recorded before its passages are in the library. Adding the same
(source, target, kind) again updates it. `check` holds the rules both backends keep (postgres/relation_store.py).
Does not: decide who may see or change a relation (web/relations.py), or bring passages into answers
(search/related.py).
"""
import re
import sqlite3
import time

from models import RELATION_KINDS, Relation

MAX_KEY_CHARS = 300
MAX_NOTES_CHARS = 2000
COLUMNS = ("id", "source", "target", "kind", "confidence", "notes", "created_by", "created_at", "updated_at")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class RelationError(ValueError):
    """A relation that cannot be kept: the message says what to send instead."""


class DuplicateRelation(RelationError):
    """Another relation already joins the same passages with the same kind."""


def check_key(value, name: str) -> str:
    """A passage key as stored: a non-empty one-line string of at most MAX_KEY_CHARS, trimmed."""
    if not isinstance(value, str) or not value.strip():
        raise RelationError(f'"{name}" must be a passage key: a canonical reference such as '
                            '"Shulchan Arukh, Orach Chayim 318:5, Rema", or a passage id.')
    value = value.strip()
    if len(value) > MAX_KEY_CHARS or CONTROL.search(value):
        raise RelationError(f'"{name}" must be one line of at most {MAX_KEY_CHARS} characters.')
    return value


def check_kind(value) -> str:
    if value not in RELATION_KINDS:
        raise RelationError(f'"kind" must be one of {", ".join(RELATION_KINDS)}.')
    return value


def check_confidence(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise RelationError('"confidence" must be a number from 0 to 1 (1: certain).')
    return float(value)


def check_notes(value) -> str | None:
    if value is not None and (not isinstance(value, str) or len(value) > MAX_NOTES_CHARS):
        raise RelationError(f'"notes" must be text of at most {MAX_NOTES_CHARS:,} characters, or null.')
    return (value.strip() or None) if value is not None else None  # blank notes are none


def check(source, target, kind, confidence=1.0, notes=None) -> tuple[str, str, str, float, str | None]:
    """The fields of a new relation, checked; RelationError names the first that is wrong."""
    source, target = check_key(source, "source"), check_key(target, "target")
    if source == target:
        raise RelationError('"source" and "target" are the same passage; a relation joins two.')
    return source, target, check_kind(kind), check_confidence(confidence), check_notes(notes)


def check_changes(changes: dict) -> dict:
    """The fields an update may change (kind, confidence, notes), checked."""
    checks = {"kind": check_kind, "confidence": check_confidence, "notes": check_notes}
    unknown = sorted(set(changes) - set(checks))
    if unknown or not changes:
        raise RelationError(f"Send one or more of {', '.join(checks)} to change"
                            + (f"; {', '.join(unknown)} cannot be changed." if unknown else "."))
    return {name: checks[name](value) for name, value in changes.items()}


def duplicate(source: str, target: str, kind: str) -> DuplicateRelation:
    return DuplicateRelation(f"{source!r} already has a relation {kind} to {target!r}; change or delete that one.")


class Relations:
    """The relations table of a library Store (storage/store.py), on its connection."""

    def __init__(self, store):
        self.store = store

    @property
    def db(self) -> sqlite3.Connection:
        return self.store.db

    def add(self, source, target, kind, confidence=1.0, notes=None, created_by=None) -> tuple[Relation, bool]:
        """Record a relation, or update the one with the same (source, target, kind); (it, whether it is new)."""
        source, target, kind, confidence, notes = check(source, target, kind, confidence, notes)
        now = time.time()
        with self.store.transaction() as db:
            found = db.execute("SELECT id FROM relations WHERE source = ? AND target = ? AND kind = ?",
                               (source, target, kind)).fetchone()
            if found:
                db.execute("UPDATE relations SET confidence = ?, notes = ?, updated_at = ? WHERE id = ?",
                           (confidence, notes, now, found[0]))
                relation_id = found[0]
            else:
                relation_id = db.execute(
                    "INSERT INTO relations (source, target, kind, confidence, notes, created_by, created_at, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (source, target, kind, confidence, notes, created_by, now, now)).lastrowid
        return self.get(relation_id), not found

    def update(self, relation_id: int, changes: dict) -> Relation | None:
        """Change a relation's kind, confidence or notes; None when there is no such relation."""
        changes = check_changes(changes)
        sets = ", ".join(f"{name} = ?" for name in changes)
        try:
            updated = self.db.execute(f"UPDATE relations SET {sets}, updated_at = ? WHERE id = ?",
                                      [*changes.values(), time.time(), relation_id]).rowcount
        except sqlite3.IntegrityError:
            old = self.get(relation_id)
            raise duplicate(old.source, old.target, changes["kind"]) from None
        return self.get(relation_id) if updated else None

    def delete(self, relation_id: int) -> bool:
        return bool(self.db.execute("DELETE FROM relations WHERE id = ?", (relation_id,)).rowcount)

    def get(self, relation_id: int) -> Relation | None:
        row = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM relations WHERE id = ?", (relation_id,)).fetchone()
        return Relation(*row) if row else None

    def of(self, keys, kinds=None) -> list[Relation]:
        """The relations that touch any of the passage keys, in either direction (of the given kinds only)."""
        keys, found = list(dict.fromkeys(keys)), {}
        kind_clause = f" AND kind IN ({', '.join('?' * len(kinds))})" if kinds else ""
        for i in range(0, len(keys), 400):
            part, marks = keys[i:i + 400], ", ".join("?" * len(keys[i:i + 400]))
            rows = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM relations WHERE (source IN ({marks}) OR "
                                   f"target IN ({marks})){kind_clause} ORDER BY id", [*part, *part, *(kinds or ())])
            found.update((row[0], Relation(*row)) for row in rows)
        return [found[k] for k in sorted(found)]

    def list(self, limit: int = 100, offset: int = 0, passage: str | None = None) -> tuple[list[Relation], int]:
        """A page of the relations (those touching passage, when given), oldest first; and their total."""
        where, args = ("WHERE source = ? OR target = ?", [passage, passage]) if passage else ("", [])
        total = self.db.execute(f"SELECT count(*) FROM relations {where}", args).fetchone()[0]
        rows = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM relations {where} ORDER BY id LIMIT ? OFFSET ?",
                               [*args, limit, offset])
        return [Relation(*row) for row in rows], total

    def holders(self, keys) -> dict[str, set[str]]:
        """For each passage key that is in the library, the ids of the documents holding it."""
        keys, held = list(dict.fromkeys(keys)), {}
        for i in range(0, len(keys), 400):
            part, marks = keys[i:i + 400], ", ".join("?" * len(keys[i:i + 400]))
            rows = self.db.execute(f"SELECT coalesce(ref, id), doc_id FROM chunks WHERE ref IN ({marks}) "
                                   f"OR (ref IS NULL AND id IN ({marks}))", [*part, *part])
            for key, doc_id in rows:
                held.setdefault(key, set()).add(doc_id)
        return held
