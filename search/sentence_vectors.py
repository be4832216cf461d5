"""Passage sentences' vectors, each computed once and kept with the library.

The offline writer scores every sentence of the passages it is given (under its passage's heading), and the
citation check reads every sentence of a cited passage: about 40 sentences a look, through the embedder on every
question, were half of a question's time on two cores. Their vectors depend only on the embedder and the text,
so they are kept under a key of both (content-addressed: a changed passage has new keys, and no entry is ever
stale), in the library: a SQLite file beside an embedded library, a table of a PostgreSQL one, shared by every
app server. A library is warm when it is built: a corpus build, `flask ingest` and every upload's job compute their
passages' sentences (`warm`, ingest/warming.py) before they report done, so a question embeds only itself; the
worker's background pass only repairs a library built before that; a question that meets a sentence not yet warm
embeds it then and keeps it.
Texts that are not a passage's own (a hosted model's claims) are looked up but never kept (keep=False), so the
table holds at most the library's sentences in their two forms.
Does not: decide which texts a passage's sentences are (checks/sentences.py `forms` does), or embed questions.
"""
import contextlib
import hashlib
import logging
import sqlite3
import threading
from pathlib import Path

import numpy as np

from storage.database import Connections, Transaction

log = logging.getLogger(__name__)
FILE = "sentences.sqlite3"
LOOKUP_BATCH = 500
WARM_BATCH = 8  # texts a warming call embeds


def text_key(model: str, text: str) -> bytes:
    """The key of one text's vector by one embedder."""
    return hashlib.blake2b(f"{model}\0{text}".encode(), digest_size=16).digest()


def chunk_key(model: str, chunk) -> bytes:
    """The key of one passage as warmed (its heading and the text answering reads of it)."""
    bounded = chunk.bounded()
    return text_key(model, f"{bounded.heading}\0{bounded.text}")


class SentenceVectors:
    """An embedder whose passage vectors are kept in a table: embed() computes only what the table lacks."""

    def __init__(self, embedder, table):
        self.embedder = embedder
        self.table = table
        # the model and the form of text it reads (hebrew/normal.py): a vector made otherwise has another key
        self.model = f"{embedder.name}\0{getattr(embedder, 'form', '')}"

    def __getattr__(self, name):  # name, dim, form, embed_queries: the embedder's own
        return getattr(self.embedder, name)

    def embed(self, texts: list[str], batch_size: int = 32, progress: bool = False, role: str = "passage",
              keep: bool = True) -> np.ndarray:
        """The embedder's vectors of texts, from the table where it has them; keep: store the ones computed."""
        if role != "passage":
            return self.embedder.embed(texts, batch_size, progress, role=role)
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        keys = [text_key(self.model, t) for t in texts]
        found = self.table.get(list(dict.fromkeys(keys)))
        missing = {k: t for k, t in zip(keys, texts) if k not in found}
        if missing:
            computed = self.embedder.embed(list(missing.values()), batch_size, progress)
            new = dict(zip(missing, computed))
            if keep:
                self.table.put(new)
            found.update(new)
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def warm(self, chunks: list, forms, batch: int = WARM_BATCH) -> int:
        """Compute and keep the sentence vectors of the passages not warmed yet (forms(chunk): the texts a passage's
        sentences are read as), batch texts an embedding call; returns how many passages were warmed."""
        keys = {chunk_key(self.model, c): c for c in chunks}
        warmed = self.table.warmed(list(keys))
        todo = {k: c for k, c in keys.items() if k not in warmed}
        if not todo:
            return 0
        # longest first, so each batch pads little (embedding.in_batches does the same)
        texts = sorted({t for c in todo.values() for t in forms(c.bounded())}, key=len, reverse=True)
        for start in range(0, len(texts), batch):  # short turns at the models: questions wait little
            self.embed(texts[start:start + batch], batch_size=batch)
        self.table.mark(list(todo))
        return len(todo)


def passage_vectors(embedder, texts: list[str], keep: bool = True) -> np.ndarray:
    """texts' vectors through the library's kept ones when the embedder keeps them, else computed."""
    if isinstance(embedder, SentenceVectors):
        return embedder.embed(texts, keep=keep)
    return embedder.embed(texts)


class SqliteTable:
    """The kept vectors of an embedded library: a SQLite file in its folder."""

    def __init__(self, path: Path):
        self.connections = Connections(path)
        self._made = False
        self._lock = threading.Lock()

    @property
    def db(self) -> sqlite3.Connection:
        db = self.connections.db
        if not self._made:
            with self._lock:
                # a rowid table: a 1.5 KB row packs into pages half as large as in a WITHOUT ROWID one
                db.execute("CREATE TABLE IF NOT EXISTS vectors (key BLOB PRIMARY KEY, vector BLOB NOT NULL)")
                db.execute("CREATE TABLE IF NOT EXISTS warmed (key BLOB PRIMARY KEY) WITHOUT ROWID")
                self._made = True
        return db

    def get(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        out = {}
        for start in range(0, len(keys), LOOKUP_BATCH):
            part = keys[start:start + LOOKUP_BATCH]
            rows = self.db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({','.join('?' * len(part))})", part)
            out.update((bytes(k), np.frombuffer(v, dtype=np.float32)) for k, v in rows)
        return out

    def put(self, vectors: dict[bytes, np.ndarray]) -> None:
        rows = [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in vectors.items()]
        with contextlib.suppress(sqlite3.OperationalError), Transaction(self.db) as db:  # read-only: not kept
            db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?)", rows)

    def warmed(self, keys: list[bytes]) -> set[bytes]:
        rows = self.db.execute(f"SELECT key FROM warmed WHERE key IN ({','.join('?' * len(keys))})", keys)
        return {bytes(r[0]) for r in rows}

    def mark(self, keys: list[bytes]) -> None:
        with contextlib.suppress(sqlite3.OperationalError), Transaction(self.db) as db:
            db.executemany("INSERT OR IGNORE INTO warmed VALUES (?)", [(k,) for k in keys])

    def count(self) -> int:
        return self.db.execute("SELECT count(*) FROM vectors").fetchone()[0]


class PgTable:
    """The kept vectors of a PostgreSQL library: its sentence_vectors and warmed_passages tables."""

    def __init__(self, db):
        self.db = db

    def get(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        if not keys:
            return {}
        rows = self.db.execute("SELECT key, vector FROM sentence_vectors WHERE key = ANY(%s)", (keys,))
        return {bytes(k): np.frombuffer(v, dtype=np.float32) for k, v in rows}

    def put(self, vectors: dict[bytes, np.ndarray]) -> None:
        keys = list(vectors)
        blobs = [np.asarray(vectors[k], dtype=np.float32).tobytes() for k in keys]
        self.db.execute("INSERT INTO sentence_vectors (key, vector) SELECT * FROM unnest(%s::bytea[], %s::bytea[]) "
                        "ON CONFLICT (key) DO NOTHING", (keys, blobs))

    def warmed(self, keys: list[bytes]) -> set[bytes]:
        return {bytes(r[0]) for r in self.db.execute("SELECT key FROM warmed_passages WHERE key = ANY(%s)", (keys,))}

    def mark(self, keys: list[bytes]) -> None:
        self.db.execute("INSERT INTO warmed_passages (key) SELECT unnest(%s::bytea[]) ON CONFLICT (key) DO NOTHING",
                        (keys,))

    def count(self) -> int:
        return self.db.execute("SELECT count(*) FROM sentence_vectors")[0][0]
