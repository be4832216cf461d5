"""Which process runs which ingest job, for an embedded library: a lock file per job, held while it runs.

A job marked running whose lock is free belonged to a killed process; it is queued again at the next claim.
Claiming, taking the job's lock and requeueing orphans happen under one lock across processes, so no process
can see a job running with its lock free unless its owner died. The PostgreSQL backend does the same with
advisory locks (postgres/store.py).
Does not: run jobs (ingest/jobs.py).
"""
import fcntl
import os
from pathlib import Path


class Lease:
    """A claimed job's held lock; release() when the job is done or failed."""

    def __init__(self, file):
        self.file = file

    def release(self) -> None:
        Path(self.file.name).unlink(missing_ok=True)
        self.file.close()


class FileLeases:
    """Job locks in a folder (library/jobs)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def claim(self, store, job_id: str | None = None, smaller_than: int | None = None):
        """(job, Lease) for the next queued job of store (uploaders taking turns; smaller_than: of fewer bytes), or
        job_id; None if none."""
        with open(self.folder / ".claim", "a") as claim_lock:
            fcntl.flock(claim_lock, fcntl.LOCK_EX)
            store.requeue_orphans(self.is_running)
            job = store.claim_job(os.getpid(), job_id, smaller_than)
            if job is None:
                return None
            lock = open(self.folder / f"{job.id}.lock", "a")  # released by Lease.release; held until then
            fcntl.flock(lock, fcntl.LOCK_EX)
            return job, Lease(lock)

    def is_running(self, job_id: str) -> bool:
        """Whether some live process holds the job's lock."""
        with open(self.folder / f"{job_id}.lock", "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(lock, fcntl.LOCK_UN)
            return False
