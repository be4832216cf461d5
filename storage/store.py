"""The library's records in SQLite: documents, their chunks (with embeddings), and ingest jobs.

SQLite is the truth; the BM25 and FAISS files are derived from it and rebuilt from it when they
lag behind. Every change to documents or chunks happens in one transaction that also bumps the
`generation` counter, so a reader can tell its indexes are stale. WAL mode lets queries read
while a job writes; the busy timeout makes a second writer wait instead of failing.
Migrations are numbered by `PRAGMA user_version` (database.migrate).
Does not: parse, chunk, embed or search (search/library.py and ingest/jobs.py do).
"""
import json
import sqlite3
import time
from pathlib import Path

import numpy as np

from accounts.roles import DEFAULT_TIER
from models import Chunk, DocumentInfo, Job
from storage.database import Connections, SqliteSql, Transaction, migrate
from storage.queries import DOCUMENT_SELECT, OWN_FIRST, StoreQueries, document_of, reader_id
from storage.schema import MIGRATIONS


def visible_clause(reader) -> tuple[str, list]:
    """SQL (and its arguments) for the documents a reader sees: owned, or in one of their tiers; "1" for all."""
    if reader is None or reader.everything:
        return "1", []
    tiers = sorted(reader.tiers)
    return (f"(owner IS ? OR coalesce(tier, '{DEFAULT_TIER}') IN ({', '.join('?' * len(tiers))}))",
            [reader.id, *tiers])


# A queued job's turn: the jobs of its uploader queued before it, and those of its uploader served since the
# oldest job still queued was submitted; the fewest first, then the oldest (postgres/store.py: the same)
TURNS = ("((SELECT count(*) FROM jobs q WHERE q.status = 'queued' AND q.created_at < j.created_at AND "
         "coalesce(json_extract(q.options, '$.owner'), '') = coalesce(json_extract(j.options, '$.owner'), '')) + "
         "(SELECT count(*) FROM jobs s WHERE s.status <> 'queued' AND s.updated_at >= (SELECT min(created_at) FROM "
         "jobs WHERE status = 'queued') AND coalesce(json_extract(s.options, '$.owner'), '') = "
         "coalesce(json_extract(j.options, '$.owner'), '')))")

class Store(SqliteSql, StoreQueries):
    """One SQLite database file; a connection per thread. The reads both backends share are storage/queries.py's."""

    visible_clause = staticmethod(visible_clause)

    def __init__(self, path: Path):
        self.path = Path(path)
        self._connections = Connections(self.path)
        self.migrate()

    @property
    def db(self) -> sqlite3.Connection:
        """This thread's connection (autocommit; transactions are explicit)."""
        return self._connections.db

    def migrate(self) -> None:
        """Apply the migrations this database has not seen (storage/database.py); a newer file is refused."""
        migrate(self.db, MIGRATIONS, self.path, "FLASK_LIBRARY_DIR")

    def generation(self) -> int:
        """A counter bumped by every change to documents or chunks."""
        return int(self.db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0])

    def model_form(self) -> str | None:
        """The form of text (hebrew.normal.MODEL_FORM) the stored embeddings were made from; None: as written."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'model_form'").fetchone()
        return row[0] if row else None

    def set_embeddings(self, rowids: list[int], vectors: np.ndarray, form: str) -> None:
        """Replace the embeddings of these chunks (those still stored) and record the form they were made from,
        in one transaction."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        with self.transaction() as db:
            db.executemany("UPDATE chunks SET embedding = ? WHERE rowid = ?",
                           [(v.tobytes(), int(r)) for r, v in zip(rowids, vectors, strict=True)])
            self.record_model_form(form, db)
            self._bump(db)

    def record_model_form(self, form: str, db=None) -> None:
        """Record the form of text the stored embeddings were made from (without changing any)."""
        (db or self.db).execute("INSERT INTO meta (key, value) VALUES ('model_form', ?) ON CONFLICT (key) "
                                "DO UPDATE SET value = excluded.value", (form,))

    # documents and chunks

    def documents(self, limit: int = 100, offset: int = 0, search: str = "",
                  reader=None) -> tuple[list[DocumentInfo], int]:
        """A page of the documents reader sees (None: all), newest first, optionally those whose title contains
        search; and the total."""
        visible, args = visible_clause(reader)
        where = f"WHERE {visible}" + (" AND title LIKE ?" if search else "")
        args += [f"%{search}%"] if search else []
        total = self.db.execute(f"SELECT count(*) FROM documents {where}", args).fetchone()[0]
        rows = self.db.execute(
            f"{DOCUMENT_SELECT} {where} ORDER BY {OWN_FIRST}, updated_at DESC, id LIMIT ? OFFSET ?",
            [*args, reader_id(reader), limit, offset],
        ).fetchall()
        return [document_of(r) for r in rows], total

    def section_rows(self, doc_ids=None) -> list[tuple[int, list[str], str | None]]:
        """(rowid, section path, ref) of every passage of the documents (None: all), for the section filter."""
        ids = list(doc_ids) if doc_ids is not None else None
        where = f"WHERE doc_id IN ({', '.join('?' * len(ids))})" if ids else "WHERE 0" if ids is not None else ""
        rows = self.db.execute(f"SELECT rowid, section_path, ref FROM chunks {where}", ids or ())
        return [(rowid, json.loads(path), ref) for rowid, path, ref in rows]

    def vouch(self, doc_id: str, by: int | None) -> bool:
        """Record that a reviewer or admin (by; None: the operator) vouches for an upload's tier; whether it exists."""
        with Transaction(self.db) as db:
            return db.execute("UPDATE documents SET metadata = json_set(coalesce(metadata, '{}'), '$.vouched_by', ?) "
                              "WHERE id = ?", (by if by is not None else "operator", doc_id)).rowcount > 0

    def queued_jobs(self, owner: int) -> int:
        """Jobs a user submitted that are waiting or running."""
        return self.db.execute("SELECT count(*) FROM jobs WHERE status IN ('queued', 'running') AND "
                               "json_extract(options, '$.owner') = ?", (owner,)).fetchone()[0]

    def replace_documents(self, entries) -> list[int]:
        """Insert documents with their chunks, replacing earlier versions, in one transaction.

        entries: (DocumentInfo, text, chunks, embeddings, source path) each. Returns the new chunk rowids in order.
        """
        now, rowids = time.time(), []
        with self.transaction() as db:
            for doc, text, chunks, embeddings, source_path in entries:
                old = db.execute("SELECT created_at FROM documents WHERE id = ?", (doc.id,)).fetchone()
                db.execute("DELETE FROM documents WHERE id = ?", (doc.id,))  # its chunks go with it (cascade)
                db.execute(
                    "INSERT INTO documents (id, title, author, language, format, work, tier, community, filename,"
                    " owner, source_path, content_hash, status, chunk_count, created_at, updated_at, metadata, text)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'ready', ?, ?, ?, ?, ?)",
                    (doc.id, doc.title, doc.author, doc.language, doc.format, doc.work, doc.tier, doc.community,
                     doc.filename, doc.owner, source_path, doc.content_hash, len(chunks), old[0] if old else now, now,
                     json.dumps(doc.metadata, ensure_ascii=False), text),
                )
                vectors = np.ascontiguousarray(embeddings, dtype=np.float32)
                for seq, (chunk, vector) in enumerate(zip(chunks, vectors, strict=True)):
                    cursor = db.execute(
                        "INSERT INTO chunks (id, doc_id, seq, text, start, end, section_path, ref, parent_ref,"
                        " community, era, authority_weight, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (chunk.id, doc.id, seq, chunk.text, chunk.start, chunk.end,
                         json.dumps(list(chunk.section_path), ensure_ascii=False), chunk.ref, chunk.parent_ref,
                         chunk.community, chunk.era, chunk.authority_weight, vector.tobytes()),
                    )
                    rowids.append(cursor.lastrowid)
            self._bump(db)
        return rowids

    def chunk_rowids(self, doc_id: str, db=None) -> list[int]:
        """The rowids (FAISS ids) of a document's chunks."""
        return [r[0] for r in (db or self.db).execute("SELECT rowid FROM chunks WHERE doc_id = ?", (doc_id,))]

    def delete_document(self, doc_id: str) -> list[int]:
        """Remove a document and its chunks in one transaction; returns the removed chunk rowids ([] if absent)."""
        with self.transaction() as db:
            rowids = self.chunk_rowids(doc_id, db)
            if db.execute("DELETE FROM documents WHERE id = ?", (doc_id,)).rowcount:
                self._bump(db)
        return rowids

    def chunk_rows(self, rowids: list[int] | None = None):
        """(rowid, Chunk, embedding) of the given chunks, or of all, in library order (document, then sequence)."""
        sql = ("SELECT c.rowid, c.id, c.doc_id, d.title, c.text, c.start, c.end, c.section_path, c.ref, c.parent_ref,"
               " c.community, c.era, c.authority_weight, coalesce(d.tier, 'public'), c.embedding"
               " FROM chunks c JOIN documents d ON d.id = c.doc_id")
        if rowids is None:
            rows = self.db.execute(sql + " ORDER BY c.rowid")
        else:
            rows = (r for i in range(0, len(rowids), 500) for r in self.db.execute(
                sql + f" WHERE c.rowid IN ({', '.join('?' * len(rowids[i:i + 500]))}) ORDER BY c.rowid", rowids[i:i + 500]))
        for r in rows:
            chunk = Chunk(r[1], r[2], r[3], r[4], r[5], r[6], tuple(json.loads(r[7])), r[8], r[9], r[10], r[11],
                          r[12], r[13])
            yield r[0], chunk, np.frombuffer(r[14], dtype=np.float32)

    def add_asked(self, doc_id: str, rows: list[tuple[str, str, str]], vectors: np.ndarray) -> int:
        """Keep questions (ref, language, text) and their vectors beside a document; one already kept is skipped.
        Returns how many were added."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        with self.transaction() as db:
            before = db.total_changes
            db.executemany("INSERT OR IGNORE INTO asked (doc_id, ref, language, text, embedding) VALUES (?, ?, ?, ?, ?)",
                           [(doc_id, ref, language, text, v.tobytes()) for (ref, language, text), v in zip(rows, vectors, strict=True)])
            added = db.total_changes - before
            if added:
                self._bump(db)
        return added

    def asked_rows(self) -> list[tuple[str, str, str, np.ndarray]]:
        """Every kept question as (doc_id, ref, text, vector), in the order they were added."""
        return [(d, r, t, np.frombuffer(e, dtype=np.float32))
                for d, r, t, e in self.db.execute("SELECT doc_id, ref, text, embedding FROM asked ORDER BY id")]

    # jobs

    def job(self, job_id: str) -> Job | None:
        row = self.db.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return _job(row) if row else None

    def claim_job(self, owner: int, job_id: str | None = None, smaller_than: int | None = None) -> Job | None:
        """Mark the next queued job (or job_id, if queued) as running by owner and return it (atomic across
        processes). Uploaders take turns (TURNS), so one user's large jobs do not hold another's small one;
        smaller_than: only an upload of fewer bytes (the small jobs' lane, ingest/jobs.py)."""
        with self.transaction() as db:
            row = db.execute(f"SELECT id FROM jobs j WHERE status = 'queued' AND (? IS NULL OR id = ?) AND (? IS NULL OR "
                             f"json_extract(options, '$.bytes') < ?) ORDER BY {TURNS}, created_at LIMIT 1",
                             (job_id, job_id, smaller_than, smaller_than)).fetchone()
            if not row:
                return None
            db.execute("UPDATE jobs SET status = 'running', owner = ?, updated_at = ? WHERE id = ?",
                       (owner, time.time(), row[0]))
        return self.job(row[0])

    def update_job(self, job_id: str, **fields) -> None:
        fields["updated_at"] = time.time()
        if "warnings" in fields:
            fields["warnings"] = json.dumps(fields["warnings"], ensure_ascii=False)
        sets = ", ".join(f"{name} = ?" for name in fields)
        self.db.execute(f"UPDATE jobs SET {sets} WHERE id = ?", [*fields.values(), job_id])

    def requeue_orphans(self, is_running) -> int:
        """Put back in the queue the running jobs no live process runs (it was killed); returns how many."""
        running = self.db.execute("SELECT id FROM jobs WHERE status = 'running'").fetchall()
        orphans = [r[0] for r in running if not is_running(r[0])]
        requeued = 0
        for job_id in orphans:  # only if still running: its worker may have finished it and let go since the SELECT
            requeued += self.db.execute("UPDATE jobs SET status = 'queued', stage = 'queued', owner = NULL, "
                                        "updated_at = ? WHERE id = ? AND status = 'running'",
                                        (time.time(), job_id)).rowcount
        return requeued

    # plumbing

    def transaction(self):
        return Transaction(self.db)

    @staticmethod
    def _bump(db) -> None:
        db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")




def _job(row) -> Job:
    values = dict(row)
    values["options"] = json.loads(values["options"])
    values["warnings"] = json.loads(values["warnings"])
    return Job(**values)
