"""Moving in: copy an embedded library folder (and its answer history) into a PostgreSQL schema, without re-embedding.

Documents go in their library order, with their chunks, stored vectors and kept source files, a batch of them per
transaction; then the jobs (with the files still waiting for one), the questions written beside the passages (with
their vectors) and, when given, the answer history with its feedback and reviews (and each question's vector, when
the schema's embedder made it). A document already in the
schema with the same content is skipped, so an interrupted import can be run again.
Does not: build BM25 itself (postgres/library.py counts terms as it inserts), or change the embedded library.
"""
import json
import sqlite3
import time
from itertools import groupby
from pathlib import Path

import numpy as np
from psycopg.types.json import Jsonb

BATCH_CHUNKS = 2000


def import_library(folder: Path, target, progress=None) -> dict:
    """Copy the embedded library in folder into target (a PgLibrary); returns counts and seconds."""
    from search.library import load

    started = time.perf_counter()
    source = load(Path(folder), target.embedder)
    store, counts = source.store, {"documents": 0, "chunks": 0, "skipped": 0, "jobs": 0, "files": 0}
    batch, size = [], 0
    rows = source.store.chunk_rows()
    for doc_id, group in groupby(rows, key=lambda r: r[1].doc_id):
        group = list(group)
        info = store.document(doc_id)
        known = target.store.document(doc_id)
        if known is not None and known.content_hash == info.content_hash:
            counts["skipped"] += 1
            continue
        kept = _file(target, store.source_path(doc_id), counts)
        batch.append((info, store.document_text(doc_id), [c for _, c, _ in group], np.vstack([v for *_, v in group]), kept))
        size += len(group)
        counts["documents"] += 1
        counts["chunks"] += len(group)
        if size >= BATCH_CHUNKS:
            target.replace_documents(batch)
            batch, size = [], 0
            if progress:
                progress(counts)
    if batch:
        target.replace_documents(batch)
    for job in _jobs(store):
        job["stored_path"] = _file(target, job["stored_path"], counts)
        target.db.execute(
            "INSERT INTO jobs (id, kind, document_id, filename, stored_path, options, status, stage, done, total, error,"
            " warnings, owner, created_at, updated_at) VALUES (%(id)s, %(kind)s, %(document_id)s, %(filename)s,"
            " %(stored_path)s, %(options)s, %(status)s, %(stage)s, %(done)s, %(total)s, %(error)s, %(warnings)s,"
            " NULL, %(created_at)s, %(updated_at)s) ON CONFLICT (id) DO NOTHING",
            {**job, "options": Jsonb(json.loads(job["options"])), "warnings": Jsonb(json.loads(job["warnings"])),
             "status": "queued" if job["status"] == "running" else job["status"]})
        counts["jobs"] += 1
    counts["sentence_vectors"] = _sentence_vectors(source.sentences.table, target.sentences.table)
    counts["questions"] = _questions(source.store, target)
    target.db.vacuum("chunks", "postings", "terms")  # searched at once: BM25 from the postings' index alone
    counts["seconds"] = round(time.perf_counter() - started, 1)
    return counts


def _questions(store, target) -> int:
    """Copy the questions written beside the documents' passages (search/asked.py), with their vectors."""
    rows = store.db.execute("SELECT doc_id, ref, language, text, embedding FROM asked ORDER BY id").fetchall()
    added = 0
    for doc_id, group in groupby(rows, key=lambda r: r[0]):
        group = list(group)
        added += target.add_questions(doc_id, [(r[1], r[2], r[3]) for r in group],
                                      [np.frombuffer(r[4], dtype=np.float32) for r in group])
    return added


def _sentence_vectors(source, target) -> int:
    """Copy the kept sentence vectors and warmed passages (search/sentence_vectors.py); their keys name the model."""
    copied, db = 0, source.db
    for table, put in (("vectors", target.put), ("warmed", target.mark)):
        cursor = db.execute(f"SELECT * FROM {table}")
        while rows := cursor.fetchmany(5000):
            if table == "vectors":
                put({bytes(k): np.frombuffer(v, dtype=np.float32) for k, v in rows})
                copied += len(rows)
            else:
                put([bytes(r[0]) for r in rows])
    return copied


def import_history(path: Path, target_db) -> int:
    """Copy every answer with its feedback and review from a history file; returns how many answers were new."""
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    source.row_factory = sqlite3.Row
    meta = target_db.execute("SELECT value FROM library_meta WHERE key = 'embedding_model'")
    added, model = 0, meta[0][0] if meta else None
    for row in source.execute("SELECT * FROM answers ORDER BY rowid"):
        values = {k: row[k] for k in row.keys() if k != "rowid"}
        for key in ("citations", "passages", "timings"):
            values[key] = Jsonb(json.loads(values[key]))
        values["declined"] = bool(values["declined"])
        if values.get("question_vector") is not None:  # another embedder's vector is not the schema's: left behind
            kept = values["question_model"] == model
            values["question_vector"] = np.frombuffer(values["question_vector"], dtype=np.float32) if kept else None
            values["question_model"] = values["question_model"] if kept else None
        columns = ", ".join(values)
        inserted = target_db.execute(
            f"INSERT INTO answers ({columns}) VALUES ({', '.join('%(' + k + ')s' for k in values)}) "
            "ON CONFLICT (id) DO NOTHING RETURNING id", values)
        if inserted:
            added += 1
            for f in source.execute("SELECT * FROM feedback WHERE answer_id = ? ORDER BY id", (row["id"],)):
                given = f["user_id"] if "user_id" in f.keys() else None  # who gave it, in a file that records it
                target_db.execute("INSERT INTO feedback (answer_id, rating, comment, created_at, user_id) VALUES "
                                  "(%s, %s, %s, %s, %s)", (row["id"], f["rating"], f["comment"], f["created_at"], given))
    return added


def _jobs(store) -> list[dict]:
    return [dict(r) for r in store.db.execute("SELECT * FROM jobs ORDER BY created_at")]


def _file(target, path: str | None, counts: dict) -> str | None:
    """The database key of a file the embedded library keeps (None when there is none on disk)."""
    if not path or not Path(path).is_file():
        return None
    counts["files"] += 1
    key = target.files.put(Path(path).name, Path(path))
    if Path(path).parent.name != "files":  # an upload still waiting for its job
        return key
    kept = target.files.keep(key, Path(path).name)
    target.files.remove(key)
    return kept
