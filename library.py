"""The library on disk: chunk a corpus, index it (BM25 and FAISS), save it with a manifest, load it back.

A library folder holds chunks.jsonl, bm25.npz, bm25_vocab.json, faiss.index and manifest.json.
A build removes the manifest first and writes it last (to a temporary name, renamed into place),
so a folder with a manifest is always complete and a build cut short is refused, not half-read. Loading checks the manifest against the configuration and
refuses a mismatched library with a message that says how to rebuild it.
Does not: add or remove single documents (a later issue's library manager does).
"""
import hashlib
import json
import logging
import os
import time
from pathlib import Path

import faiss
from bm25 import BM25, tokenize
from chunking import chunk_spans
from models import Chunk, Document

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
REBUILD_HINT = "rebuild it with `flask --app app ingest-default` (or `make library`)"


class LibraryError(RuntimeError):
    """The library folder is missing, incomplete or built for another configuration."""


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


def passage_text(chunk: Chunk) -> str:
    """What is indexed for a chunk: its title and its text, so 'Alexander Fleming' matches his article."""
    return f"{chunk.title}\n{chunk.text}" if chunk.title else chunk.text


def content_hash(docs: list[Document]) -> str:
    """A digest of the corpus, to tell whether a saved library was built from the same texts."""
    digest = hashlib.sha256()
    for doc in docs:
        digest.update(json.dumps([doc.id, doc.title, doc.text], ensure_ascii=False).encode())
    return digest.hexdigest()


def build(docs: list[Document], embedder, folder: Path, max_chars: int, overlap: int, progress: bool = False):
    """Chunk, index and save docs into folder; returns (chunks, bm25, faiss index, manifest)."""
    started = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").unlink(missing_ok=True)  # the folder is incomplete until the end
    chunks = chunk_documents(docs, max_chars, overlap)
    log.info("%d documents -> %d chunks", len(docs), len(chunks))
    texts = [passage_text(c) for c in chunks]
    bm25 = BM25.index([tokenize(t) for t in texts])
    index = faiss.IndexFlatIP(embedder.dim)
    if chunks:
        index.add(embedder.embed(texts, progress=progress))

    with open(folder / "chunks.jsonl", "w", encoding="utf-8") as out:
        for c in chunks:
            out.write(json.dumps(c.__dict__, ensure_ascii=False) + "\n")
    bm25.save(folder)
    faiss.write_index(index, str(folder / "faiss.index"))
    manifest = {
        "format": FORMAT_VERSION,
        "embedding_model": embedder.name,
        "dim": embedder.dim,
        "documents": len(docs),
        "chunks": len(chunks),
        "chunking": {"max_chars": max_chars, "overlap": overlap},
        "content_hash": content_hash(docs),
        "build_seconds": round(time.perf_counter() - started, 1),
    }
    tmp = folder / "manifest.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=2))
    os.replace(tmp, folder / "manifest.json")
    return chunks, bm25, index, manifest


def load(folder: Path, embedding_model: str, dim: int):
    """Read a saved library and check it was built for this embedder; returns (chunks, bm25, index, manifest)."""
    manifest_path = folder / "manifest.json"
    if not manifest_path.exists():
        raise LibraryError(f"no library in {folder}/ (or an unfinished build); {REBUILD_HINT}")
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("format") != FORMAT_VERSION:
        raise LibraryError(f"the library in {folder}/ has an old format; {REBUILD_HINT}")
    if manifest["embedding_model"] != embedding_model or manifest["dim"] != dim:
        raise LibraryError(
            f"the library in {folder}/ was built with the embedding model {manifest['embedding_model']} "
            f"({manifest['dim']}-d), but EMBEDDING_MODEL is {embedding_model} ({dim}-d); {REBUILD_HINT}, "
            f"or set FLASK_EMBEDDING_MODEL={manifest['embedding_model']}"
        )
    with open(folder / "chunks.jsonl", encoding="utf-8") as lines:
        chunks = [Chunk(**json.loads(line)) for line in lines]
    bm25 = BM25.load(folder)
    index = faiss.read_index(str(folder / "faiss.index"))
    counts = {len(chunks), bm25.n_docs, index.ntotal}
    if counts != {manifest["chunks"]}:
        raise LibraryError(f"the library in {folder}/ is inconsistent (chunk counts {sorted(counts)}); {REBUILD_HINT}")
    return chunks, bm25, index, manifest

