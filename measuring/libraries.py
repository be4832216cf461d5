"""The libraries and the retriever evaluation runs against, none of which a server ever uses.

A dev set's corpus is indexed with the configured embedder and chunking into a cache keyed by corpus hash plus
configuration, so a second run starts at once; a book (the Shulchan Arukh's jsonl) is ingested as `flask ingest`
would. A cache is built in a staging folder and renamed into place when complete, so a run killed mid-build
never leaves a library that opens but holds nothing. BM25-only runs embed nothing (NoVectors).
EvalRetriever is the pipeline's retriever with what only evaluation asks of it: documents left out (each
question's gold, to measure declining), the plain baseline (questions as plain words, no glossary), and one
reader's community that every search is for (`eval --community`).
"""
import hashlib
import json
import shutil
import sqlite3
import sys
import tempfile
from contextlib import closing, contextmanager
from dataclasses import replace
from pathlib import Path

import numpy as np

from hebrew.words import tokenize
from ingest import corpus
from ingest.jobs import Ingestor
from ingest.parsers import parse_file
from ingest.questions import attach
from ingest.structure import split
from measuring.datasets import judged_id
from pipeline import Pipeline
from postgres.backend import database
from postgres.library import PgLibrary
from postgres.moving_in import import_library
from retrieval import Retriever
from search import library
from search.bm25 import BM25
from search.embedders import revision_of


class NoVectors:
    """The embedder of a library evaluated with BM25 alone: every passage gets a zero vector, nothing is embedded.

    Its name keys a cache of its own, so such a library is never opened for dense search.
    """

    name = "none (bm25 only)"

    def __init__(self, dim: int):
        self.dim = dim

    def embed(self, texts: list[str], batch_size: int = 32, progress: bool = False) -> np.ndarray:
        """Zero vectors, one per text."""
        return np.zeros((len(texts), self.dim), dtype=np.float32)

    embed_queries = embed


class FixedLibrary:
    """One view of a library, searched as it is: what a baseline or a test searches instead of a Library."""

    def __init__(self, view):
        self.view = view

    def current(self):
        """The one view."""
        return self.view

    def matching_documents(self, filters: dict) -> set[str]:
        """The document ids filters name (a fixed view knows no other metadata)."""
        if set(filters) - {"document_ids"}:
            raise ValueError("a fixed library is filtered by document_ids only")
        return set(filters["document_ids"])


class EvalRetriever(Retriever):
    """The pipeline's retriever, with documents left out on request, and optionally the plain baseline."""

    def __init__(self, library, embedder, reranker=None, config=None, plain: bool = False):
        super().__init__(library, embedder, reranker, config)
        self.plain = plain  # questions as plain words (hebrew.words.tokenize), no glossary, embedded as asked
        self.excluded: frozenset[str] = frozenset()  # document ids no search returns (a question's gold)
        self.community: str | None = None  # the reader's community each search is for, unless the caller names one

    def search(self, query: str, *args, community: str | None = None, **kwargs):
        """The pipeline's search, for the evaluated reader's community when the caller names none."""
        return super().search(query, *args, community=community or self.community, **kwargs)

    @classmethod
    def of(cls, retriever: Retriever, plain: bool = False) -> "EvalRetriever":
        """The same search as retriever (library, embedder, cross-encoder, settings)."""
        return cls(retriever.library, retriever.embedder, retriever.reranker, retriever.config, plain)

    @contextmanager
    def excluding(self, documents: frozenset[str]):
        """Searches inside leave documents out; afterwards none are, whatever happened."""
        self.excluded = frozenset(documents)
        try:
            yield self
        finally:
            self.excluded = frozenset()

    def scope(self, filters, hidden=frozenset()):
        """The filters' scope, without the excluded documents, or in a book the excluded seifim (by judged id)."""
        scope = replace(super().scope(filters), excluded=self.excluded | frozenset(hidden))
        if not self.excluded:
            return scope
        view = self.library.current()
        if not hasattr(view, "labels"):  # PostgreSQL's view: documents only
            return scope
        kept = frozenset(int(view.labels[i]) for i, c in enumerate(view.chunks)
                         if judged_id(c.doc_id, c.ref) not in self.excluded)
        if len(kept) == len(view.chunks):  # documents only: the mask by document does it
            return scope
        return replace(scope, chunks=kept if scope.chunks is None else scope.chunks & kept)

    def bm25_words(self, query: str) -> list[list[str]]:
        """Plain words for the baseline, else the pipeline's."""
        return [[word] for word in tokenize(query)] if self.plain else super().bm25_words(query)

    def dense_text(self, query: str, vocabulary) -> str:
        """The question as asked for the baseline, else the pipeline's."""
        return query if self.plain else super().dense_text(query, vocabulary)


def plain_baseline(retriever: Retriever) -> EvalRetriever:
    """The baseline the analyzer is measured against: BM25 over plain words (hebrew.words.tokenize) of what the
    library indexes, questions as plain words without the glossary, and embedded as asked."""
    view = retriever.library.current()
    plain = replace(view, bm25=BM25.index([tokenize(c.passage_text) for c in view.chunks]))
    return EvalRetriever(FixedLibrary(plain), retriever.embedder, retriever.reranker, retriever.config, plain=True)


def eval_pipeline(settings, searched, embedder, plain: bool = False):
    """The pipeline over an evaluation library, with the retriever that can leave documents out (or the baseline)."""
    pipeline = Pipeline.load(settings, searched, embedder)
    pipeline.retriever = plain_baseline(pipeline.retriever) if plain else EvalRetriever.of(pipeline.retriever)
    return pipeline


def _cached(folder: Path, embedder, build) -> library.Library:
    """The library in folder, or build(staging folder) run once and renamed into folder when it finished."""
    try:
        return library.load(folder, embedder)
    except library.LibraryError:
        pass
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    staging.chmod(0o755)  # mkdtemp makes it private
    try:
        build(staging)
        shutil.rmtree(folder, ignore_errors=True)  # what stood there did not open: an unfinished build
        try:
            staging.rename(folder)
        except OSError:  # another run finished the same library first; its folder is the same
            if not (folder / "manifest.json").exists():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return library.load(folder, embedder)


def _revision(embedder) -> list:
    """A key's part naming the training of a model trained here (none for others, so their caches stay)."""
    revision = revision_of(embedder)
    return [revision] if revision else []


def cached_library(docs, embedder, max_chars: int, overlap: int, cache_root: Path) -> library.Library:
    """The library of docs, built once per corpus and configuration."""
    key = json.dumps([corpus.content_hash(docs), embedder.name, max_chars, overlap, library.FORMAT_VERSION]
                     + _revision(embedder))
    folder = Path(cache_root) / hashlib.sha256(key.encode()).hexdigest()[:16]
    what = "BM25 only" if isinstance(embedder, NoVectors) else f"embedded with {embedder.name}"

    def build(staging: Path) -> None:
        print(f"indexing {len(docs):,} documents ({what}) into {folder}/ (cached for next time)", file=sys.stderr)
        corpus.build(docs, embedder, staging, max_chars, overlap, progress=True)

    return _cached(folder, embedder, build)


def ingested_library(path: Path, embedder, cache_root: Path, questions: Path | None = None) -> library.Library:
    """The library of the one book at path as `flask ingest` builds it, cached by its passages and the embedder; with
    questions, a copy of it with the questions written beside its passages (`ingest --questions`), cached by them too."""
    parsed = parse_file(path, path.name)
    pieces = [(p.ref, p.text, p.section_path)
              for p in split(parsed.text, parsed.title or path.stem, parsed.units, parsed.section_names)]
    key = json.dumps([pieces, embedder.name, library.FORMAT_VERSION] + _revision(embedder), ensure_ascii=False)
    folder = Path(cache_root) / ("book-" + hashlib.sha256(key.encode()).hexdigest()[:16])

    def build(staging: Path) -> None:
        print(f"ingesting {path} ({len(pieces):,} passages, {embedder.name}) into {folder}/ (cached for next time)",
              file=sys.stderr)
        ingestor = Ingestor(library.Library.open(staging, embedder, create=True))
        ingestor.run(*ingestor.claim(ingestor.submit_file(path, path.name, {}).id))

    book = _cached(folder, embedder, build)
    if not questions:
        return book
    asked = hashlib.sha256(Path(questions).read_bytes()).hexdigest()[:16]

    def build_asked(staging: Path) -> None:
        print(f"embedding the questions of {questions} beside {folder.name} (cached for next time)", file=sys.stderr)
        with closing(sqlite3.connect(folder / library.STORE_FILE)) as source, \
                closing(sqlite3.connect(staging / library.STORE_FILE)) as copy:
            source.backup(copy)  # the store as committed, its write-ahead log included
        for name in ("manifest.json", "bm25.npz", "bm25_vocab.json", "faiss.index"):
            shutil.copy2(folder / name, staging / name)
        asking = library.Library.open(staging, embedder)
        attach(asking, Path(questions), asking.current().chunks[0].doc_id)

    return _cached(folder.with_name(f"{folder.name}-asked-{asked}"), embedder, build_asked)


def in_postgres(settings, searched: library.Library) -> PgLibrary:
    """An evaluation library moved into DATABASE_URL's database, in a schema of its own named after its cache folder,
    filled once (without re-embedding); `eval` then measures the PostgreSQL backend on the same passages."""
    name = "eval_" + hashlib.sha256(str(searched.folder.resolve()).encode()).hexdigest()[:16]
    moved = PgLibrary.open(database(settings, schema=name), searched.embedder, create_schema=True,
                           skip_common=settings.database.bm25_common == "skip")
    if moved.store.stats()["chunks"] != searched.store.stats()["chunks"]:
        print(f"copying {searched.folder}/ into PostgreSQL schema {name} (once)", file=sys.stderr)
        import_library(searched.folder, moved)
    return moved
