"""The library's records in PostgreSQL, read as storage/store.py reads them from SQLite: documents, ingest jobs.

The methods, their arguments and what they return are the embedded Store's, so the ingest worker and the API use
either. Jobs are claimed with `FOR UPDATE SKIP LOCKED`, so any number of workers share one queue. While a job runs,
its worker holds a session advisory lock on a connection of its own (PgLeases); a job marked running whose lock
is free belonged to a worker that died (its connection closed with it) and is queued again at the next claim.
Does not: write chunks or search (postgres/library.py, postgres/search.py), or keep files (postgres/files.py).
"""
import os
import time

from psycopg.types.json import Jsonb

from models import DocumentInfo, Job
from postgres.database import Database

DOCUMENT_COLUMNS = ("id", "title", "author", "language", "format", "work", "tier", "community", "filename",
                    "content_hash", "status", "chunk_count", "created_at", "updated_at", "metadata")
JOB_COLUMNS = ("id", "kind", "document_id", "filename", "stored_path", "options", "status", "stage", "done", "total",
               "error", "warnings", "owner", "created_at", "updated_at")
FILTER_FIELDS = ("language", "work", "tier", "community")
JOB_LOCK = 7_406_016  # advisory lock class of running jobs


class PgStore:
    """Documents and jobs in one schema."""

    def __init__(self, db: Database):
        self.db = db

    def generation(self) -> int:
        """A counter bumped by every change to documents or chunks."""
        return int(self.db.execute("SELECT value FROM library_meta WHERE key = 'generation'")[0][0])

    # documents

    def document(self, doc_id: str) -> DocumentInfo | None:
        rows = self.db.execute(f"SELECT {', '.join(DOCUMENT_COLUMNS)} FROM documents WHERE id = %s", (doc_id,))
        return _document(rows[0]) if rows else None

    def document_text(self, doc_id: str) -> str | None:
        rows = self.db.execute("SELECT text FROM documents WHERE id = %s", (doc_id,))
        return rows[0][0] if rows else None

    def documents(self, limit: int = 100, offset: int = 0, search: str = "") -> tuple[list[DocumentInfo], int]:
        """A page of documents, newest first, optionally those whose title contains search; and the total."""
        where, args = ("WHERE strpos(title, %s) > 0", [search]) if search else ("", [])
        total = self.db.execute(f"SELECT count(*) FROM documents {where}", args)[0][0]
        rows = self.db.execute(f"SELECT {', '.join(DOCUMENT_COLUMNS)} FROM documents {where} "
                               "ORDER BY updated_at DESC, id LIMIT %s OFFSET %s", [*args, limit, offset])
        return [_document(r) for r in rows], total

    def stats(self) -> dict:
        docs, chunks = self.db.execute("SELECT count(*), coalesce(sum(chunk_count), 0) FROM documents")[0]
        return {"documents": docs, "chunks": int(chunks), "generation": self.generation()}

    def largest_documents(self, limit: int = 50) -> list[dict]:
        """The documents with the most chunks: id, title, chunks."""
        rows = self.db.execute("SELECT id, title, chunk_count FROM documents ORDER BY chunk_count DESC, id LIMIT %s",
                               (limit,))
        return [{"id": r[0], "title": r[1], "chunks": r[2]} for r in rows]

    def job_counts(self) -> dict[str, int]:
        """How many jobs are in each status."""
        return dict(self.db.execute("SELECT status, count(*) FROM jobs GROUP BY status"))

    def matching_documents(self, filters: dict) -> set[str]:
        """Ids of documents whose metadata equals every given filter (document_ids, language, work, tier, community)."""
        clauses, args = [], []
        if filters.get("document_ids") is not None:
            clauses.append("id = ANY(%s)")
            args.append(list(filters["document_ids"]))
        for field in FILTER_FIELDS:
            if filters.get(field) is not None:
                clauses.append(f"{field} = %s")
                args.append(filters[field])
        sql = "SELECT id FROM documents" + (" WHERE " + " AND ".join(clauses) if clauses else "")
        return {row[0] for row in self.db.execute(sql, args)}

    def source_path(self, doc_id: str) -> str | None:
        rows = self.db.execute("SELECT source_path FROM documents WHERE id = %s", (doc_id,))
        return rows[0][0] if rows else None

    # jobs

    def add_job(self, job_id: str, kind: str, document_id: str | None, filename: str | None,
                stored_path: str | None, options: dict) -> None:
        now = time.time()
        self.db.execute(
            "INSERT INTO jobs (id, kind, document_id, filename, stored_path, options, status, stage, created_at,"
            " updated_at) VALUES (%s, %s, %s, %s, %s, %s, 'queued', 'queued', %s, %s)",
            (job_id, kind, document_id, filename, stored_path, Jsonb(options), now, now))

    def job(self, job_id: str) -> Job | None:
        rows = self.db.execute(f"SELECT {', '.join(JOB_COLUMNS)} FROM jobs WHERE id = %s", (job_id,))
        return Job(**dict(zip(JOB_COLUMNS, rows[0]))) if rows else None

    def update_job(self, job_id: str, **fields) -> None:
        fields["updated_at"] = time.time()
        for name in ("warnings", "options"):
            if name in fields:
                fields[name] = Jsonb(fields[name])
        sets = ", ".join(f"{name} = %s" for name in fields)
        self.db.execute(f"UPDATE jobs SET {sets} WHERE id = %s", [*fields.values(), job_id])


class PgLease:
    """A claimed job's advisory lock, held by a connection of its own until release()."""

    def __init__(self, conn):
        self.conn = conn

    def release(self) -> None:
        self.conn.close()  # the session's advisory lock goes with it


class PgLeases:
    """Claims jobs for this process: the oldest queued one (or a given one), skipping those another worker holds."""

    def __init__(self, db: Database):
        self.db = db

    def claim(self, store: PgStore, job_id: str | None = None):
        """(job, PgLease) for the oldest queued job, or job_id; None if there is none. Orphans are queued first."""
        self.db.run(self._requeue_orphans)
        holder = self.db.connect()
        try:
            claimed = self.db.run(lambda conn: self._claim(conn, holder, job_id))
        except BaseException:
            holder.close()
            raise
        if claimed is None:
            holder.close()
            return None
        return store.job(claimed), PgLease(holder)

    def _claim(self, conn, holder, job_id):
        row = conn.execute("SELECT id FROM jobs WHERE status = 'queued' AND (%s::text IS NULL OR id = %s) "
                           "ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED", (job_id, job_id)).fetchone()
        if row is None:
            return None
        holder.execute("SELECT pg_advisory_lock(%s, hashtext(%s))", (JOB_LOCK, self._key(row[0])))
        conn.execute("UPDATE jobs SET status = 'running', owner = %s, updated_at = %s WHERE id = %s",
                     (os.getpid(), time.time(), row[0]))
        return row[0]

    def _requeue_orphans(self, conn) -> int:
        """Running jobs whose lock no session holds go back to the queue."""
        running = conn.execute("SELECT id FROM jobs WHERE status = 'running' FOR UPDATE SKIP LOCKED").fetchall()
        orphans = [job for (job,) in running if conn.execute(
            "SELECT pg_try_advisory_xact_lock(%s, hashtext(%s))", (JOB_LOCK, self._key(job))).fetchone()[0]]
        if orphans:
            conn.execute("UPDATE jobs SET status = 'queued', stage = 'queued', owner = NULL, updated_at = %s "
                         "WHERE id = ANY(%s)", (time.time(), orphans))
        return len(orphans)

    def _key(self, job_id: str) -> str:
        return f"{self.db.schema}:{job_id}"


def _document(row) -> DocumentInfo:
    return DocumentInfo(**dict(zip(DOCUMENT_COLUMNS, row)))
