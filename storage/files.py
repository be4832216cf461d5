"""The uploaded files a library keeps, in its folder: uploads waiting for their job, and each document's source.

A file is named by a key, the path it lives at, which jobs (stored_path) and documents (source_path) record.
The PostgreSQL backend keeps the same files in the database under keys of its own (postgres/files.py), behind
the same methods, so every app server and ingest worker sees them.
Does not: decide when a file is kept or removed (ingest/jobs.py does).
"""
import contextlib
import os
import shutil
from contextlib import contextmanager
from pathlib import Path


def private_file(path: Path):
    """path opened for writing, made with mode 600: never, even for a moment, readable by another user."""
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb")


class LocalFiles:
    """Files under folder/uploads (waiting for a job) and folder/files (kept for re-indexing)."""

    def __init__(self, folder: Path):
        self.uploads = Path(folder) / "uploads"
        self.kept = Path(folder) / "files"
        for where in (self.uploads, self.kept):
            where.mkdir(mode=0o700, parents=True, exist_ok=True)
            where.chmod(0o700)  # a reader's private book is the server's user's alone to read

    def put(self, name: str, source: Path | bytes) -> str:
        """Store an upload (a path to copy, or its bytes) as name, readable by the server's user alone; returns its
        key."""
        stored = self.uploads / name
        if isinstance(source, bytes):
            with private_file(stored) as file:
                file.write(source)
        else:
            with private_file(stored) as file, open(source, "rb") as original:
                shutil.copyfileobj(original, file)
        return str(stored)

    def keep(self, key: str, name: str) -> str:
        """Keep the file at key as a document's source named name (the server's user's alone); returns its key."""
        kept = self.kept / name
        if Path(key) != kept:
            with private_file(kept) as file, open(key, "rb") as original:
                shutil.copyfileobj(original, file)
        return str(kept)

    def kept_key(self, name: str) -> str:
        """The key a file kept as name has."""
        return str(self.kept / name)

    @contextmanager
    def local(self, key: str):
        """A path on this machine holding the file's bytes (FileNotFoundError when it is gone)."""
        if not Path(key).is_file():
            raise FileNotFoundError(key)
        yield Path(key)

    def exists(self, key: str) -> bool:
        return Path(key).is_file()

    def is_upload(self, key: str) -> bool:
        """Whether key is an upload waiting for its job (not a document's kept source)."""
        return Path(key).parent == self.uploads

    def remove(self, key: str) -> None:
        Path(key).unlink(missing_ok=True)

    def total_bytes(self) -> int:
        """Bytes of every kept and waiting file."""
        total = 0
        for folder in (self.kept, self.uploads):
            for entry in os.scandir(folder):
                with contextlib.suppress(FileNotFoundError):  # a job may remove the file meanwhile
                    total += entry.stat().st_size if entry.is_file() else 0
        return total
