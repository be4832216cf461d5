"""Corpora of short documents (BEIR-style corpus.jsonl, the default library) as library passages.

A corpus is chunked into passages of whole sentences (chunking.py) with ids `<doc id>#<n>` that stay the
same on every build, embedded in one pass, and added to a library in one transaction. Re-adding a corpus
changes only the documents whose text changed.
Does not: read uploaded files (parsers.py and jobs.py do) or follow document structure (structure.py).
"""
import hashlib
import json
import logging
from pathlib import Path

import numpy as np

from ingest.chunking import chunk_spans
from models import Chunk, Document, DocumentInfo
from search.library import Library

log = logging.getLogger(__name__)


def read_corpus(path: Path) -> list[Document]:
    """Documents of a BEIR-style corpus.jsonl (`_id`, `title`, `text`)."""
    docs = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                record = json.loads(line)
                docs.append(Document(str(record["_id"]), record.get("title", ""), record["text"]))
    return docs


def chunk_documents(docs: list[Document], max_chars: int, overlap: int) -> list[Chunk]:
    """Passages of every document, with ids `<doc id>#<n>` that stay the same on every build."""
    chunks = []
    for doc in docs:
        for n, (start, end) in enumerate(chunk_spans(doc.text, max_chars, overlap)):
            chunks.append(Chunk(f"{doc.id}#{n}", doc.id, doc.title, doc.text[start:end], start, end))
    return chunks


def content_hash(docs: list[Document]) -> str:
    """A digest of the corpus, to tell whether a saved library was built from the same texts."""
    digest = hashlib.sha256()
    for doc in docs:
        digest.update(json.dumps([doc.id, doc.title, doc.text], ensure_ascii=False).encode())
    return digest.hexdigest()


def corpus_entries(docs: list[Document], embedder, max_chars: int, overlap: int, progress: bool = False,
                   work: str | None = None) -> list[tuple]:
    """Store entries for a corpus of short documents (sentence-aware chunks, embedded in one pass)."""
    chunks = chunk_documents(docs, max_chars, overlap)
    log.info("%d documents -> %d chunks", len(docs), len(chunks))
    vectors = embedder.embed([c.passage_text for c in chunks], progress=progress) if chunks else None
    by_doc: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        by_doc.setdefault(chunk.doc_id, []).append(chunk)
    entries, at = [], 0
    for doc in docs:
        mine = by_doc.get(doc.id, [])
        info = DocumentInfo(doc.id, doc.title, "text", content_hash([doc]), work=work, chunk_count=len(mine))
        entries.append((info, doc.text, mine, vectors[at:at + len(mine)] if mine else np.zeros((0, embedder.dim)), None))
        at += len(mine)
    return entries


def build(docs: list[Document], embedder, folder: Path, max_chars: int, overlap: int, progress: bool = False) -> Library:
    """A new library in folder holding only docs (evaluation sets); whatever the folder held is replaced."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("manifest.json", "library.sqlite3", "library.sqlite3-wal", "library.sqlite3-shm", "chunks.jsonl",
                 "sentences.sqlite3", "sentences.sqlite3-wal", "sentences.sqlite3-shm"):
        (folder / name).unlink(missing_ok=True)
    library = Library.open(folder, embedder, create=True)
    library.replace_documents(corpus_entries(docs, embedder, max_chars, overlap, progress))
    return library


def add_corpus(docs: list[Document], embedder, folder: Path, max_chars: int, overlap: int,
               progress: bool = False) -> tuple[Library, int]:
    """Add or update a corpus in the library in folder, keeping its other documents; returns (library, changed).

    Documents whose text is unchanged are skipped, so re-running costs nothing. A library of the old
    format (before the store; it never held uploads) is replaced.
    """
    folder = Path(folder)
    if (folder / "chunks.jsonl").exists() and not (folder / "library.sqlite3").exists():
        log.info("replacing the old-format library in %s", folder)
        for name in ("manifest.json", "chunks.jsonl", "bm25.npz", "bm25_vocab.json", "faiss.index"):
            (folder / name).unlink(missing_ok=True)
    return update(Library.open(folder, embedder, create=True), docs, max_chars, overlap, progress)


def update(library, docs: list[Document], max_chars: int, overlap: int, progress: bool = False) -> tuple[object, int]:
    """Add or update a corpus in an open library (either backend), skipping unchanged documents; (library, changed).
    Passages embedded from another form of text are embedded again first (search/reembed.py)."""
    library.reembed(progress)
    changed = [d for d in docs if (known := library.store.document(d.id)) is None
               or known.content_hash != content_hash([d])]
    if changed:
        library.replace_documents(corpus_entries(changed, library.embedder, max_chars, overlap, progress))
    return library, len(changed)
