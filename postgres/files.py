"""The uploaded files of a PostgreSQL library, kept in the database so every app server and worker reads them.

The same methods as storage/files.LocalFiles. A key is "db:uploads/NAME" for an upload waiting for its job and
"db:files/NAME" for a document's kept source; `local` writes the bytes to a temporary file for the parsers.
Does not: decide when a file is kept or removed (ingest/jobs.py does).
"""
import tempfile
from contextlib import contextmanager
from pathlib import Path

from postgres.database import Database

UPLOADS, KEPT = "db:uploads/", "db:files/"


class PgFiles:
    """Files in the table `files`."""

    def __init__(self, db: Database):
        self.db = db

    def put(self, name: str, source: Path | bytes) -> str:
        """Store an upload (a path to read, or its bytes) as name; returns its key."""
        data = source if isinstance(source, bytes) else Path(source).read_bytes()
        key = UPLOADS + name
        self.db.execute("INSERT INTO files (key, size, data) VALUES (%s, %s, %s) ON CONFLICT (key) DO UPDATE "
                        "SET size = excluded.size, data = excluded.data", (key, len(data), data))
        return key

    def keep(self, key: str, name: str) -> str:
        """Keep the file at key as a document's source named name; returns the kept key."""
        kept = self.kept_key(name)
        if kept != key:
            self.db.execute("INSERT INTO files (key, size, data) SELECT %s, size, data FROM files WHERE key = %s "
                            "ON CONFLICT (key) DO UPDATE SET size = excluded.size, data = excluded.data", (kept, key))
        return kept

    def kept_key(self, name: str) -> str:
        return KEPT + name

    @contextmanager
    def local(self, key: str):
        """A temporary file holding the bytes at key (FileNotFoundError when there are none)."""
        rows = self.db.execute("SELECT data FROM files WHERE key = %s", (key,))
        if not rows:
            raise FileNotFoundError(key)
        with tempfile.TemporaryDirectory(prefix="evidenz-file-") as folder:
            path = Path(folder) / Path(key).name
            path.write_bytes(rows[0][0])
            yield path

    def exists(self, key: str) -> bool:
        return bool(self.db.execute("SELECT 1 FROM files WHERE key = %s", (key,)))

    def is_upload(self, key: str) -> bool:
        return key.startswith(UPLOADS)

    def remove(self, key: str) -> None:
        self.db.execute("DELETE FROM files WHERE key = %s", (key,))

    def total_bytes(self) -> int:
        return int(self.db.execute("SELECT coalesce(sum(size), 0) FROM files")[0][0])
