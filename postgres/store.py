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
from postgres.database import Database, PgSql
from storage.queries import DOCUMENT_SELECT, OWN_FIRST, StoreQueries, document_of, reader_id

JOB_COLUMNS = ("id", "kind", "document_id", "filename", "stored_path", "options", "status", "stage", "done", "total",
               "error", "warnings", "owner", "created_at", "updated_at")
JOB_LOCK = 7_406_016  # advisory lock class of running jobs


def visible_clause(reader) -> tuple[str, list]:
    """SQL (and its arguments) for the documents a reader sees: owned, or in one of their tiers; "true" for all."""
    if reader is None or reader.everything:
        return "true", []
    return (f"(owner IS NOT DISTINCT FROM %s OR coalesce(tier, '{DEFAULT_TIER}') = ANY(%s))",
            [reader.id, sorted(reader.tiers)])


class PgStore(PgSql, StoreQueries):
    """Documents and jobs in one schema. The reads both backends share are storage/queries.py's."""

    visible_clause = staticmethod(visible_clause)

    def __init__(self, db: Database):
        self.db = db

    def generation(self) -> int:
        """A counter bumped by every change to documents or chunks."""
        return int(self.db.execute("SELECT value FROM library_meta WHERE key = 'generation'")[0][0])

    # documents

    def documents(self, limit: int = 100, offset: int = 0, search: str = "",
                  reader=None) -> tuple[list[DocumentInfo], int]:
        """A page of the documents reader sees (None: all), newest first, optionally those whose title contains
        search; and the total."""
        visible, args = visible_clause(reader)
        where = f"WHERE {visible}" + (" AND strpos(title, %s) > 0" if search else "")
        args += [search] if search else []
        total = self.db.execute(f"SELECT count(*) FROM documents {where}", args)[0][0]
        rows = self.db.execute(f"{DOCUMENT_SELECT} {where} ORDER BY {OWN_FIRST.replace('?', '%s')}, updated_at DESC, "
                               "id LIMIT %s OFFSET %s", [*args, reader_id(reader), limit, offset])
        return [document_of(r) for r in rows], total

    def section_rows(self, doc_ids=None) -> list[tuple[int, list[str], str | None]]:
        """(id, section path, ref) of every passage of the documents (None: all), for the section filter."""
        where, args = ("WHERE doc_id = ANY(%s)", (list(doc_ids),)) if doc_ids is not None else ("", ())
        rows = self.db.execute(f"SELECT id, section_path, section_ref FROM chunks {where}", args)
        return [(key, path if isinstance(path, list) else json.loads(path), ref) for key, path, ref in rows]

    def vouch(self, doc_id: str, by: int | None) -> bool:
        """Record that a reviewer or admin (by; None: the operator) vouches for an upload's tier; whether it exists."""
        return bool(self.db.execute(
            "UPDATE documents SET metadata = coalesce(metadata, '{}'::jsonb) || jsonb_build_object('vouched_by', %s::text) "
            "WHERE id = %s RETURNING id", (str(by) if by is not None else "operator", doc_id)))

    def queued_jobs(self, owner: int) -> int:
        """Jobs a user submitted that are waiting or running."""
        return self.db.execute("SELECT count(*) FROM jobs WHERE status IN ('queued', 'running') AND "
                               "options->>'owner' = %s", (str(owner),))[0][0]

    # jobs

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
    """Claims jobs for this process: the next queued one, uploaders taking turns (or a given one), skipping those
    another worker holds."""

    def __init__(self, db: Database):
        self.db = db

    def claim(self, store: PgStore, job_id: str | None = None, smaller_than: int | None = None):
        """(job, PgLease) for the next queued job (uploaders taking turns; smaller_than: of fewer bytes), or job_id;
        None if there is none. Orphans are queued first."""
        self.db.run(self._requeue_orphans)
        holder = self.db.connect()
        try:
            claimed = self.db.run(lambda conn: self._claim(conn, holder, job_id, smaller_than))
        except BaseException:
            holder.close()
            raise
        if claimed is None:
            holder.close()
            return None
        return store.job(claimed), PgLease(holder)

    def _claim(self, conn, holder, job_id, smaller_than=None):
        # uploaders take turns, as storage/store.py's TURNS: fewest of one's own jobs ahead or served, then the oldest
        row = conn.execute("SELECT id FROM jobs j WHERE status = 'queued' AND (%s::text IS NULL OR id = %s) AND "
                           "(%s::bigint IS NULL OR (options->>'bytes')::bigint < %s) ORDER BY "
                           "(SELECT count(*) FROM jobs q WHERE q.status = 'queued' AND q.created_at < j.created_at AND "
                           "coalesce(q.options->>'owner', '') = coalesce(j.options->>'owner', '')) + "
                           "(SELECT count(*) FROM jobs s WHERE s.status <> 'queued' AND s.updated_at >= (SELECT "
                           "min(created_at) FROM jobs WHERE status = 'queued') AND coalesce(s.options->>'owner', '') = "
                           "coalesce(j.options->>'owner', '')), created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED",
                           (job_id, job_id, smaller_than, smaller_than)).fetchone()
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
