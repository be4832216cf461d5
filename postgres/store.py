"""The library's records in PostgreSQL, read as storage/store.py reads them from SQLite: documents, ingest jobs.

The methods, their arguments and what they return are the embedded Store's, so the ingest worker and the API use
either. Jobs are claimed with `FOR UPDATE SKIP LOCKED`, so any number of workers share one queue. While a job runs,
its worker holds a session advisory lock on a connection of its own (PgLeases); a job marked running whose lock
is free belonged to a worker that died (its connection closed with it) and is queued again at the next claim.
Does not: write chunks or search (postgres/library.py, postgres/search.py), or keep files (postgres/files.py).
"""
import json
import os
import time

from psycopg.types.json import Jsonb

from accounts.roles import DEFAULT_TIER
from models import DocumentInfo, Job
from postgres.database import Database
from storage.store import DOCUMENT_COLUMNS, FILTER_FIELDS  # one list for both backends

JOB_COLUMNS = ("id", "kind", "document_id", "filename", "stored_path", "options", "status", "stage", "done", "total",
               "error", "warnings", "owner", "created_at", "updated_at")
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

    def documents(self, limit: int = 100, offset: int = 0, search: str = "",
                  reader=None) -> tuple[list[DocumentInfo], int]:
        """A page of the documents reader sees (None: all), newest first, optionally those whose title contains
        search; and the total."""
        visible, args = visible_clause(reader)
        where = f"WHERE {visible}" + (" AND strpos(title, %s) > 0" if search else "")
        args += [search] if search else []
        total = self.db.execute(f"SELECT count(*) FROM documents {where}", args)[0][0]
        rows = self.db.execute(f"SELECT {', '.join(DOCUMENT_COLUMNS)} FROM documents {where} "
                               "ORDER BY updated_at DESC, id LIMIT %s OFFSET %s", [*args, limit, offset])
        return [_document(r) for r in rows], total

    def stats(self, reader=None) -> dict:
        """Documents and chunks that reader sees (None: all), and the generation."""
        visible, args = visible_clause(reader)
        docs, chunks = self.db.execute(f"SELECT count(*), coalesce(sum(chunk_count), 0) FROM documents WHERE {visible}",
                                       args)[0]
        return {"documents": docs, "chunks": int(chunks), "generation": self.generation()}

    def largest_documents(self, limit: int = 50, reader=None) -> list[dict]:
        """The documents reader sees with the most chunks: id, title, chunks."""
        visible, args = visible_clause(reader)
        rows = self.db.execute(f"SELECT id, title, chunk_count FROM documents WHERE {visible} "
                               "ORDER BY chunk_count DESC, id LIMIT %s", (*args, limit))
        return [{"id": r[0], "title": r[1], "chunks": r[2]} for r in rows]

    def catalog_rows(self, reader=None) -> tuple[list[DocumentInfo], list[tuple[str, list[str]]]]:
        """The documents reader sees (None: all), and the (doc_id, section path) of each of their passages in
        document order: what search/catalog.py makes the catalog of."""
        visible, args = visible_clause(reader)
        docs = [_document(r) for r in self.db.execute(
            f"SELECT {', '.join(DOCUMENT_COLUMNS)} FROM documents WHERE {visible}", args)]
        rows = self.db.execute(f"SELECT doc_id, section_path FROM chunks WHERE doc_id IN (SELECT id FROM documents "
                               f"WHERE {visible}) ORDER BY doc_id, seq", args)
        return docs, [(doc_id, path if isinstance(path, list) else json.loads(path)) for doc_id, path in rows]

    def section_rows(self, doc_ids=None) -> list[tuple[int, list[str]]]:
        """(id, section path) of every passage of the documents (None: all), for the section filter."""
        where, args = ("WHERE doc_id = ANY(%s)", (list(doc_ids),)) if doc_ids is not None else ("", ())
        rows = self.db.execute(f"SELECT id, section_path FROM chunks {where}", args)
        return [(key, path if isinstance(path, list) else json.loads(path)) for key, path in rows]

    def hidden_documents(self, reader) -> frozenset[str]:
        """Ids of the documents reader may not see (none for None or the personal owner)."""
        visible, args = visible_clause(reader)
        if visible == "true":
            return frozenset()
        return frozenset(r[0] for r in self.db.execute(f"SELECT id FROM documents WHERE NOT {visible}", args))

    def queued_jobs(self, owner: int) -> int:
        """Jobs a user submitted that are waiting or running."""
        return self.db.execute("SELECT count(*) FROM jobs WHERE status IN ('queued', 'running') AND "
                               "options->>'owner' = %s", (str(owner),))[0][0]

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


def visible_clause(reader) -> tuple[str, list]:
    """SQL (and its arguments) for the documents a reader sees: owned, or in one of their tiers; "true" for all."""
    if reader is None or reader.everything:
        return "true", []
    return (f"(owner IS NOT DISTINCT FROM %s OR coalesce(tier, '{DEFAULT_TIER}') = ANY(%s))",
            [reader.id, sorted(reader.tiers)])


def _document(row) -> DocumentInfo:
    return DocumentInfo(**dict(zip(DOCUMENT_COLUMNS, row)))
