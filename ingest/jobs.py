"""Ingestion jobs: parse an uploaded file, chunk it along its structure, embed it, index it.

Jobs live in the store, so their stage and progress survive a restart. A worker thread per process
claims the next queued job, uploaders taking turns (the claim is atomic across processes), and a second one takes
only uploads under SMALL_JOB_BYTES, so a small upload runs beside a large one instead of behind it; each holds a
lease on its job while it runs it (a lock file, or an advisory lock in PostgreSQL: the library's `leases`); a job marked running whose
lease is free belonged to a killed process and is queued again at the next claim. Uploaded files live where the
library keeps them (`library.files`: its folder, or the database). A document changes in one transaction at the end (library.replace_documents), so
a killed ingest leaves the library as it was before that document or after it. A failed job keeps only
its record and error: its uploaded file is removed. The ingestor counts the bytes of the files it keeps,
for the library's limit.
Does not: validate uploads (parsers.py refuses bad files), enforce limits or serve HTTP (web/documents.py).
"""
import hashlib
import json
import logging
import os
import re
import threading
import time
import uuid
from pathlib import Path

import numpy as np

from ingest.course import course_outline
from ingest.apart import parse_apart
from ingest.parsers import MAX_TITLE_CHARS
from ingest.records import Limits, RejectedFile, base_name, extension
from ingest.structure import split
from models import Chunk, DocumentInfo, Job
from search.embedding import in_batches

log = logging.getLogger(__name__)

EMBED_BATCH = 64
METADATA_FIELDS = ("title", "author", "language", "work", "tier", "community")
SMALL_JOB_BYTES = 1_000_000  # an upload of fewer bytes may run in the small lane, beside a large job


def document_id(filename: str) -> str:
    """A stable id from the user's file name: the same name replaces the same document."""
    stem = Path(filename).stem.casefold()
    slug = re.sub(r"[^\w]+", "-", stem).strip("-")[:80] or "document"
    return slug


class Ingestor:
    """Runs ingest and re-index jobs against one library."""

    def __init__(self, library, limits=None, warmer=None):
        self.library = library
        self.warmer = warmer  # warming.Warmer: a job's passages' sentence vectors, and a repair between jobs
        self.store = library.store
        self.limits = limits or Limits()
        self.files = library.files  # uploads waiting for their job (under names the server made), and kept sources
        self.leases = library.leases  # who runs which job
        self._thread: threading.Thread | None = None
        self._owner_pid: int | None = None
        self._wake = threading.Event()
        self._stopping = threading.Event()

    # submitting

    def submit_file(self, source: Path | bytes, filename: str, options: dict) -> Job:
        """Queue an ingest of a file (a path to copy, or its bytes); options hold the metadata fields and document_id."""
        job_id = uuid.uuid4().hex
        stored = self.files.put(f"{job_id}{extension(filename)}", source)
        doc_id = options.get("document_id") or document_id(filename)
        size = len(source) if isinstance(source, bytes) else Path(source).stat().st_size
        self.store.add_job(job_id, "ingest", doc_id, filename, stored, {**options, "bytes": size})
        self._wake.set()
        return self.store.job(job_id)

    def submit_reindex(self, doc_id: str) -> Job | None:
        """Queue a re-index of a document from its stored source; None if there is no such document.

        Raises ValueError when the document has no source file (it came from a corpus build).
        """
        doc = self.store.document(doc_id)
        if doc is None:
            return None
        source = self.store.source_path(doc_id)
        if not source:
            raise ValueError(f"{doc_id} was built from a corpus, not uploaded, so it has no file to re-index; "
                             "rebuild the corpus with `flask --app app ingest-default` or ingest-corpus")
        job_id = uuid.uuid4().hex
        options = {k: getattr(doc, k) for k in (*METADATA_FIELDS, "owner") if getattr(doc, k) is not None}
        if (doc.metadata or {}).get("vouched_by"):  # who vouched for its tier still does
            options["vouched_by"] = doc.metadata["vouched_by"]
        self.store.add_job(job_id, "reindex", doc_id, doc.filename, source, options)
        self._wake.set()
        return self.store.job(job_id)

    def delete(self, doc_id: str) -> int | None:
        """Remove a document, its chunks and its source file; None if there is no such document."""
        source = self.store.source_path(doc_id)
        if self.store.document(doc_id) is None:
            return None
        removed = self.library.delete_document(doc_id)
        if source:
            self.files.remove(source)
        return removed

    def stored_bytes(self) -> int:
        """Bytes of the uploaded files the library keeps: the documents' sources and the files waiting for a job."""
        return self.files.total_bytes()

    # running

    def start(self) -> None:
        """Start this process's worker thread (once per process: threads do not survive a fork)."""
        if self._owner_pid == os.getpid():
            return
        self._owner_pid = os.getpid()
        self._thread = threading.Thread(target=self._loop, name="ingest-worker", daemon=True)
        self._thread.start()
        # small uploads run beside a large one: a second lane that takes only them, and warms nothing
        self._small = threading.Thread(target=self._loop, args=(SMALL_JOB_BYTES,), name="ingest-small", daemon=True)
        self._small.start()

    def stop(self, timeout: float = 30.0) -> bool:
        """Stop this process's worker thread between two steps (a job, a page of warming) and wait for it, at most
        timeout seconds: a process that exits with it still in the models aborts (a native thread left running).
        Whether it stopped; a job cut off by the exit is queued again at the next start."""
        self._stopping.set()
        self._wake.set()
        if self._thread is None or self._owner_pid != os.getpid():
            return True
        deadline = time.monotonic() + timeout
        for thread in (self._thread, self._small):
            thread.join(max(0.0, deadline - time.monotonic()))
        return not (self._thread.is_alive() or self._small.is_alive())

    def _loop(self, smaller_than: int | None = None) -> None:
        """Run jobs until stopped (smaller_than: only uploads of fewer bytes, and no warming: the small lane)."""
        warmer = self.warmer if smaller_than is None else None
        while not self.library.closed and not self._stopping.is_set():  # a PostgreSQL library closes with its pool
            try:
                if not self.run_pending(smaller_than) and (self._stopping.is_set() or not (warmer and warmer.step())):
                    self._wake.wait(timeout=2.0)
                    self._wake.clear()
            except Exception:  # noqa: BLE001 - the worker must survive anything one job does
                log.exception("ingest worker error")

    def run_pending(self, smaller_than: int | None = None) -> int:
        """Re-embed what needs it, requeue jobs of killed processes, then run queued jobs (smaller_than: only uploads
        of fewer bytes) until none is left; returns how many jobs ran."""
        if smaller_than is None:
            self.library.reembed()  # first, passages embedded from another form of text (search/reembed.py), once
        ran = 0
        while not self._stopping.is_set() and (claimed := self.claim(smaller_than=smaller_than)) is not None:
            self.run(*claimed)
            ran += 1
        return ran

    def claim(self, job_id: str | None = None, smaller_than: int | None = None):
        """(job, its held lease) for the next queued job (smaller_than: of fewer bytes), or job_id; None if there is
        none. Jobs of killed processes are queued again first."""
        return self.leases.claim(self.store, job_id, smaller_than)

    def run(self, job: Job, lease) -> None:
        """Run one claimed job to done or failed, then release its lease."""
        try:
            stage = self._ingest(job)
            self.store.update_job(job.id, status="done", stage=stage)
        except RejectedFile as exc:
            self._fail(job, str(exc))
        except Exception:  # noqa: BLE001 - recorded for the user; the details go to the log
            log.exception("job %s failed", job.id)
            self._fail(job, "the document could not be indexed; the server log has the details")
        finally:
            lease.release()

    def _fail(self, job: Job, error: str) -> None:
        """Record a job's failure and remove its files: the upload, and its kept copy unless a document uses it."""
        self.store.update_job(job.id, status="failed", stage="failed", error=error)
        suffix = Path(job.stored_path or "").suffix
        if job.stored_path and self.files.is_upload(job.stored_path):  # a re-index's source stays
            self.files.remove(job.stored_path)
        kept = self.files.kept_key(f"{job.id}{suffix}")
        if self.store.source_path(job.document_id) != kept:
            self.files.remove(kept)

    def _ingest(self, job: Job) -> str:
        """Parse, chunk, embed and index the job's file; returns the final stage ("done" or "unchanged")."""
        if self._committed(job):  # its worker was killed after the commit, before it could say so
            return "done"
        if not job.stored_path or not self.files.exists(job.stored_path):
            raise RejectedFile("the uploaded file is gone (it was removed before it could be indexed); upload it again")
        key = job.stored_path
        with self.files.local(key) as source:
            with source.open("rb") as file:
                digest = hashlib.file_digest(file, "sha256")  # in blocks: the file is never wholly in memory
            file_sha256 = digest.hexdigest()  # the bytes alone: the same file uploaded under another name
            digest.update(json.dumps(job.options, sort_keys=True, ensure_ascii=False).encode())
            existing = self.store.document(job.document_id)
            owner = job.options.get("owner")  # None: the operator's (the command line, a personal server)
            if job.kind == "ingest" and existing and owner is not None and existing.owner != owner:
                raise RejectedFile("another user's document took this id while the upload waited; upload it again "
                                   "(it gets an id of its own)")
            if job.kind == "ingest" and existing and existing.content_hash == digest.hexdigest():
                self.files.remove(key)
                return "unchanged"
            self.store.update_job(job.id, status="running", stage="parsing")
            parsed = parse_apart(source, job.filename or source.name, self.limits)  # on a clock, in a child
        title = job.options.get("title") or parsed.title or Path(base_name(job.filename or source.name)).stem
        title = title[:MAX_TITLE_CHARS]  # every passage repeats it
        work = job.options.get("work") or title

        self.store.update_job(job.id, stage="chunking", warnings=parsed.warnings)
        pieces = split(parsed.text, work, parsed.units, parsed.section_names, max_chars=self.limits.max_passage_chars)
        chunks = [Chunk(f"{job.document_id}#{n}", job.document_id, title, p.text, p.start, p.end,
                        tuple(p.section_path), p.ref, p.parent_ref, p.community, p.era) for n, p in enumerate(pieces)]

        self.store.update_job(job.id, stage="embedding", done=0, total=len(chunks))
        vectors = self._embed(job.id, chunks)

        self.store.update_job(job.id, stage="indexing")
        kept = self.files.keep(key, f"{job.id}{Path(key).suffix}")
        course = course_outline(parsed.text)  # a course script's link, instructor and lessons
        info = DocumentInfo(
            job.document_id, title, parsed.format, digest.hexdigest(),
            author=job.options.get("author") or parsed.author or (course and course["instructor"]),
            language=job.options.get("language") or parsed.language, work=work,
            tier=job.options.get("tier"), community=job.options.get("community"),
            filename=job.filename, owner=job.options.get("owner"),
            metadata={"pages": parsed.pages, "warnings": parsed.warnings, "file_sha256": file_sha256,
                      **({"course": course} if course else {}),
                      **({"vouched_by": job.options["vouched_by"]} if job.options.get("vouched_by") else {})},
        )
        old_source = existing and self.store.source_path(job.document_id)
        self.library.replace_documents([(info, parsed.text, chunks, vectors, kept)])
        log.info("job %s: document %s committed with %d chunks", job.id, job.document_id, len(chunks))
        if self.warmer is not None:
            self._warm(job.id, chunks)
        if old_source and old_source != kept:
            self.files.remove(old_source)
        if self.files.is_upload(key):
            self.files.remove(key)
        self.store.update_job(job.id, done=len(chunks), total=len(chunks))
        return "done"

    def _warm(self, job_id: str, chunks: list[Chunk]) -> None:
        """A job's passages' sentence vectors, before it says done, with its progress: its first question is warm."""
        self.store.update_job(job_id, stage="warming", done=0, total=len(chunks))
        warmed = 0

        def advance(n: int) -> None:
            nonlocal warmed
            warmed += n
            self.store.update_job(job_id, done=warmed)

        self.warmer.warm_now(chunks, advance)

    def _committed(self, job: Job) -> bool:
        """Whether this job's document is already in the library (its kept file is the job's own); its upload,
        if still there, is removed and its count set."""
        kept = self.files.kept_key(f"{job.id}{Path(job.stored_path or '').suffix}")
        if self.store.source_path(job.document_id) != kept:
            return False
        if job.stored_path and self.files.is_upload(job.stored_path):
            self.files.remove(job.stored_path)
        count = self.store.document(job.document_id).chunk_count
        self.store.update_job(job.id, done=count, total=count)
        return True

    def _embed(self, job_id: str, chunks: list[Chunk]) -> np.ndarray:
        """The chunks' vectors, embedded in batches of like length with the job's progress updated after each."""
        return in_batches(self.library.embedder, [c.passage_text for c in chunks], EMBED_BATCH,
                          lambda done: self.store.update_job(job_id, done=done))
