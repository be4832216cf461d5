"""The library: documents and chunks in SQLite (storage/store.py) and the BM25 and FAISS indexes derived from them.

A folder holds library.sqlite3 (the truth, embeddings included), bm25.npz, bm25_vocab.json,
faiss.index and manifest.json. The manifest names the store generation the index files were
saved at; files that lag behind the store (a process killed between a commit and a save) are
rebuilt from the store, without re-embedding. It also names the text analysis BM25 was built with
(analyzer.version()): a library built with another one rebuilds BM25 from the stored chunk texts. The store
records the form of text its vectors were made from; a library made from another one has its pointed passages
embedded again (search/reembed.py): at once by `load` (the commands), in the background by a server.
Searches read an immutable `View` (search/view.py); a change builds the next view from the last one (FAISS
`remove_ids`/`add_with_ids` on a copy, BM25 from its stored term counts) and swaps it in, so queries
never see half a document. Writers, across processes, take a file lock and start from the newest saved state.
Does not: parse files, chunk corpora or run jobs (ingest/).
"""
import fcntl
import json
import logging
import os
import threading
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import faiss
import numpy as np

from hebrew import analyzer
from models import Chunk, DocumentInfo
from search.bm25 import BM25
from search.asked import Asked
from search.embedders import revision_of
from search.manifest import FORMAT_VERSION, REBUILD_HINT, LibraryError, check_manifest, read_manifest
from search.reembed import Reembedding, embed_again, form_of, stale
from search.sentence_vectors import FILE as SENTENCES_FILE
from search.sentence_vectors import SentenceVectors, SqliteTable
from search.view import View
from storage import protocols
from storage.files import LocalFiles
from storage.leases import FileLeases
from storage.relation_store import Relations
from storage.store import Store

log = logging.getLogger(__name__)

STORE_FILE = "library.sqlite3"  # in the library folder: the truth the index files are derived from
# Exact search up to this many chunks, HNSW above. `flask --app app bench` on 2 cores: flat search takes
# 16 ms at 10k chunks, 46 ms at 100k, 343 ms at 1M; HNSW 1-3 ms. HNSW's recall@10 against flat on the real
# MiniLM vectors of the default library is 0.972 at efSearch 128 and 0.992 at 256 (README, "Measured"), but
# it is lower on larger and less structured data, so exact search is kept for as long as it stays near 100 ms.
HNSW_ABOVE = 250_000
HNSW_NEIGHBOURS, HNSW_EF_CONSTRUCTION, HNSW_EF_SEARCH = 32, 80, 256


def index_bm25(chunks: list[Chunk]) -> BM25:
    """A BM25 index of chunks, each analysed as passage_text gives it."""
    return BM25.index([analyzer.analyze(c.passage_text) for c in chunks])


def make_index(dim: int, n_chunks: int) -> faiss.Index:
    """An empty inner-product index addressed by chunk row ids: exact for small libraries, HNSW for large ones."""
    if n_chunks <= HNSW_ABOVE:
        return faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
    inner = faiss.IndexHNSWFlat(dim, HNSW_NEIGHBOURS, faiss.METRIC_INNER_PRODUCT)
    inner.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    inner.hnsw.efSearch = HNSW_EF_SEARCH
    return faiss.IndexIDMap2(inner)


class Library(protocols.Library):
    """A library folder: its store, its current view, and the operations that change both."""

    def __init__(self, folder: Path, store: Store, embedder, view: View):
        self.folder = Path(folder)
        self.store = store
        self.embedder = embedder
        self.view = view
        self._swap = threading.Lock()
        self.files = LocalFiles(self.folder)  # uploads and the documents' sources
        self.leases = FileLeases(self.folder / "jobs")  # which process runs which ingest job
        self.reembedding: Reembedding | None = None  # passages whose vectors were made from another form of text
        self.sentences = SentenceVectors(embedder, SqliteTable(self.folder / SENTENCES_FILE))  # kept sentence vectors

    @classmethod
    def open(cls, folder: Path, embedder, create: bool = False) -> "Library":
        """Open the library in folder, checking it was built for this embedder; create an empty one if asked."""
        folder = Path(folder)
        manifest = read_manifest(folder)
        if manifest is None and not create:
            if (folder / "chunks.jsonl").exists():
                raise LibraryError(f"the library in {folder}/ has an old format; {REBUILD_HINT}")
            raise LibraryError(f"no library in {folder}/ (or an unfinished build); {REBUILD_HINT}")
        if manifest:
            check_manifest(folder, manifest, embedder)
        library = cls(folder, Store(folder / STORE_FILE), embedder, None)
        with library.writing():
            library.view = library._load_view(manifest)
            library._check_form()
        return library

    def current(self) -> View:
        """The newest view, reloading the saved indexes when another process changed the library."""
        view = self.view
        if self.store.generation() != view.generation and self._swap.acquire(blocking=False):
            try:
                manifest = read_manifest(self.folder)
                if manifest and manifest["generation"] == self.store.generation():
                    self.view = self._read_view(manifest)
            finally:
                self._swap.release()
        return self.view

    @property
    def relations(self) -> Relations:
        """The relations between passages (storage/relation_store.py), kept in the library's store."""
        return Relations(self.store)

    # changes

    def passage_pages(self, size: int):
        """Every passage of the library, size at a time, in library order (what the worker warms)."""
        rowids = [r[0] for r in self.store.db.execute("SELECT rowid FROM chunks ORDER BY rowid")]
        for start in range(0, len(rowids), size):
            yield [chunk for _, chunk, _ in self.store.chunk_rows(rowids[start:start + size])]

    def reembed(self, progress: bool = False) -> int:
        """Embed again the passages whose vectors were made from another form of text; returns how many."""
        return embed_again(self, self._write_vectors, progress)

    def _write_vectors(self, keys: list[int], vectors: np.ndarray) -> None:
        with self.writing():
            self.store.set_embeddings(keys, vectors, self.embedder.form)
            self.view = replace(self.view, index=self._index_from(list(self.store.chunk_rows())),
                                generation=self.store.generation())
            self._save()
        log.info("re-embedded %d passages of %s", len(keys), self.folder)

    def reembed_status(self) -> dict | None:
        """What /api/health says of a re-embed waiting or running; None when there is none."""
        pending = self.reembedding
        return pending.status() if pending else None

    def _check_form(self) -> None:
        """Find the passages to embed again when the vectors were made from another form of text (none: record it)."""
        form = form_of(self.embedder)
        if form is None or self.store.model_form() == form:
            return
        self.reembedding = stale((key, c.passage_text) for key, c in zip(self.view.labels, self.view.chunks))
        if self.reembedding is None:
            self.store.record_model_form(form)
        else:
            log.warning("%d passages of %s were embedded with their points; they will be embedded again",
                        len(self.reembedding.keys), self.folder)

    def replace_documents(self, entries: list[tuple[DocumentInfo, str, list[Chunk], np.ndarray, str | None]]) -> None:
        """Add or replace documents: (info, text, chunks, embeddings, source path) each, in one transaction."""
        entries = [(info, text, [c.in_document(info) for c in chunks], vectors, source)
                   for info, text, chunks, vectors, source in entries]
        with self.writing():
            replaced = {info.id for info, *_ in entries}
            removed = [r for doc_id in replaced for r in self.store.chunk_rowids(doc_id)]
            added_rowids = self.store.replace_documents(entries)
            chunks = [c for _, _, cs, _, _ in entries for c in cs]
            vectors = np.concatenate([e for _, _, _, e, _ in entries]) if entries else np.zeros((0, self.embedder.dim))
            self._apply(removed, chunks, np.asarray(added_rowids, dtype=np.int64), vectors)

    def add_questions(self, doc_id: str, rows: list[tuple[str, str, str]], vectors: np.ndarray) -> int:
        """Keep questions (ref, language, text) with their vectors beside a document's passages; returns how many
        were new. They are searched from the next view on (search/asked.py)."""
        with self.writing():
            added = self.store.add_asked(doc_id, rows, vectors)
            self.view = self._with_asked(replace(self.view, generation=self.store.generation()))
            self._save()
        return added

    def delete_document(self, doc_id: str) -> int:
        """Remove a document and its chunks from the store and the indexes; returns how many chunks went."""
        with self.writing():
            removed = self.store.delete_document(doc_id)
            if removed:
                self._apply(removed, [], np.zeros(0, dtype=np.int64), np.zeros((0, self.embedder.dim), np.float32))
        return len(removed)

    @contextmanager
    def writing(self):
        """Hold the folder's write lock (across processes), starting from the newest state of the library."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / ".write.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            with self._swap:
                if self.view is not None and self.view.generation != self.store.generation():
                    self.view = self._load_view(read_manifest(self.folder))
                yield
            fcntl.flock(lock, fcntl.LOCK_UN)

    def _apply(self, removed: list[int], added: list[Chunk], added_rowids: np.ndarray, vectors: np.ndarray) -> None:
        """Build the next view from the current one, swap it in and save it."""
        old = self.view
        keep = ~np.isin(old.labels, np.asarray(removed, dtype=np.int64))
        chunks = [c for c, k in zip(old.chunks, keep) if k] + list(added)
        bm25 = old.bm25.edit(keep, [analyzer.analyze(c.passage_text) for c in added])
        labels = np.concatenate([old.labels[keep], added_rowids])
        if isinstance(faiss.downcast_index(old.index.index), faiss.IndexFlat) and len(labels) <= HNSW_ABOVE:
            index = faiss.clone_index(old.index)
            if removed:
                index.remove_ids(np.asarray(removed, dtype=np.int64))
            if len(added):
                index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), added_rowids)
        else:  # HNSW cannot remove entries: rebuild it from the stored embeddings
            index = self._index_from(list(self.store.chunk_rows()))
        self.view = self._with_asked(View(chunks, bm25, index, labels, self.store.generation()))
        self._save()

    # loading and saving

    def _load_view(self, manifest: dict | None) -> View:
        """The saved view if it is up to date, else one rebuilt from the store (and saved)."""
        generation = self.store.generation()
        if manifest and manifest.get("generation") == generation:
            view = self._read_view(manifest)
            if manifest.get("analyzer") == analyzer.version():
                return view
            log.info("BM25 of %s was built with another text analysis; rebuilding it from the stored chunks", self.folder)
            self.view = replace(view, bm25=index_bm25(view.chunks))
            self._save()
            return self.view
        log.info("the index files of %s lag behind its store; rebuilding them from the store", self.folder)
        rows = list(self.store.chunk_rows())
        chunks, labels = [c for _, c, _ in rows], np.asarray([r for r, _, _ in rows], dtype=np.int64)
        self.view = self._with_asked(View(chunks, index_bm25(chunks), self._index_from(rows), labels, generation))
        self._save()
        return self.view

    def _read_view(self, manifest: dict) -> View:
        chunks, labels = [], []
        for rowid, chunk, _ in self.store.chunk_rows():
            chunks.append(chunk), labels.append(rowid)
        bm25 = BM25.load(self.folder)
        index = faiss.read_index(str(self.folder / "faiss.index"))
        counts = {len(chunks), bm25.n_docs, index.ntotal}
        if len(counts) != 1:
            raise LibraryError(f"the library in {self.folder}/ is inconsistent (chunk counts {sorted(counts)}); {REBUILD_HINT}")
        return self._with_asked(View(chunks, bm25, index, np.asarray(labels, dtype=np.int64), manifest["generation"]))

    def _with_asked(self, view: View) -> View:
        """The view with the questions written beside its passages (search/asked.py), if the store keeps any."""
        return replace(view, asked=Asked.of(self.store.asked_rows(), view.chunks))

    def _index_from(self, rows: list) -> faiss.Index:
        """A FAISS index of stored (rowid, chunk, embedding) rows, addressed by rowid."""
        index = make_index(self.embedder.dim, len(rows))
        if rows:
            index.add_with_ids(np.vstack([v for _, _, v in rows]), np.asarray([r for r, _, _ in rows], dtype=np.int64))
        return index

    def _save(self) -> None:
        """Write the view's index files, each to a temporary name renamed into place, the manifest last.

        A save cut short leaves the old manifest, whose generation no longer matches the store's, so the
        next open rebuilds the files from the store.
        """
        view, folder = self.view, self.folder
        tmp = folder / "tmp"
        tmp.mkdir(exist_ok=True)
        view.bm25.save(tmp)
        faiss.write_index(view.index, str(tmp / "faiss.index"))
        for name in ("bm25.npz", "bm25_vocab.json", "faiss.index"):
            os.replace(tmp / name, folder / name)
        manifest = {
            "format": FORMAT_VERSION, "embedding_model": self.embedder.name, "dim": self.embedder.dim,
            "embedding_revision": revision_of(self.embedder),
            "analyzer": analyzer.version(),
            **self.store.stats(), "generation": view.generation, "chunks": len(view.chunks),
            "faiss_index": type(faiss.downcast_index(view.index.index)).__name__,
        }
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=2))
        os.replace(tmp / "manifest.json", folder / "manifest.json")


def load(folder: Path, embedder, progress: bool = True) -> Library:
    """Open an existing library (refusing a missing, old or mismatched one), re-embedding what needs it first."""
    opened = Library.open(folder, embedder)
    opened.reembed(progress)
    return opened
