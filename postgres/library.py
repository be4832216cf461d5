"""A library in PostgreSQL: the embedded Library's operations, with nothing held in the process.

`current()` is a PgView that reads the database as it is at each query, so a document added or removed through
any server is found, or gone, everywhere at once. A change (replace_documents, delete_document) is one
transaction under an advisory lock, so writers from any number of processes take turns: the documents, their
chunks with their vectors, the BM25 term statistics (terms.df, postings, the document count, total length and
mean idf) and the generation counter change together or not at all. A worker killed mid-change leaves the
library as it was. `library_meta` records the form of text the vectors were made from; a library made from
another one has its pointed passages embedded again by the ingest worker (search/reembed.py), in one transaction.
Does not: parse, chunk or embed (ingest/), or search (postgres/search.py).
"""
from collections import Counter

import numpy as np
from psycopg.types.json import Jsonb

from hebrew import analyzer
from hebrew.normal import POINTS, PRESENTATION, SEPARATORS
from models import Chunk, DocumentInfo
from postgres import schema
from postgres.database import Database, require_current, upgrade
from postgres.files import PgFiles
from postgres.relation_store import PgRelations
from postgres.search import CHUNK_COLUMNS, PgView, chunk
from postgres.store import PgLeases, PgStore
from search.embedders import recorded_revision, revision_of
from search.library import LibraryError
from search.reembed import Reembedding, embed_again, form_of, stale
from search.sentence_vectors import PgTable, SentenceVectors
from storage import protocols

WRITE_LOCK = 7_406_017
# a passage for_models can change has one of these marks (PostgreSQL's regular expressions read the \u escapes)
MARKED = "|".join(p.pattern for p in (POINTS, SEPARATORS, PRESENTATION))
DEFAULT_CORPUS = "library"  # the corpus of documents that name none: tier public
CHUNK_INSERT = ("id", "chunk_id", "doc_id", "corpus_id", "corpus_tier", "seq", "title", "text", "start_offset",
                "end_offset", "section_path", "section_ref", "parent_ref", "work", "language", "author", "community",
                "authority_weight", "era", "length", "embedding")


def create(db: Database, embedder) -> int:
    """Create or upgrade the schema for embedder's vectors (`db upgrade`); returns the schema version. A schema that
    records its vectors' size keeps it: a later migration's vector columns are of that size, whatever embedder
    upgrades it (search then refuses a different one, as it always did)."""
    upgrade_dim = embedder.dim
    if db.version() > 0:
        stored = db.execute("SELECT value FROM library_meta WHERE key = 'dim'")
        upgrade_dim = int(stored[0][0]) if stored else upgrade_dim
    version = upgrade(db, schema.MIGRATIONS, schema=db.schema, dim=upgrade_dim)
    db.execute("INSERT INTO library_meta (key, value) VALUES ('embedding_model', %s), ('dim', %s), ('generation', '0'),"
               " ('analyzer', %s), ('embedding_revision', %s) ON CONFLICT (key) DO NOTHING",
               (embedder.name, str(embedder.dim), analyzer.version(), revision_of(embedder) or ""))
    db.reopen()  # connections opened before the extension existed lack pgvector's adapters
    return version


class PgLibrary(protocols.Library):
    """The library of one schema: its store, its search view, its files and job leases."""

    def __init__(self, db: Database, embedder, skip_common: bool = False):
        self.db = db
        self.embedder = embedder
        self.store = PgStore(db)
        self.files = PgFiles(db)
        self.leases = PgLeases(db)
        self.view = PgView(db, db.pgvector_version(), skip_common)
        self.reembedding: Reembedding | None = None  # passages whose vectors were made from another form of text
        self.sentences = SentenceVectors(embedder, PgTable(db))  # kept sentence vectors, shared by every server

    @classmethod
    def open(cls, db: Database, embedder, create_schema: bool = False, skip_common: bool = False) -> "PgLibrary":
        """The library in db's schema, checked for this embedder (and this Evidenz's schema version); skip_common:
        its BM25 leaves out the words of more than half the chunks (DATABASE_BM25_COMMON=skip, postgres/search.py)."""
        if create_schema:
            create(db, embedder)
        require_current(db, len(schema.MIGRATIONS))
        meta = dict(db.execute("SELECT key, value FROM library_meta"))
        if meta.get("embedding_model") != embedder.name or int(meta.get("dim", 0)) != embedder.dim:
            raise LibraryError(
                f"schema {db.schema} holds vectors of the embedding model {meta.get('embedding_model')} "
                f"({meta.get('dim')}-d), but EMBEDDING_MODEL is {embedder.name} ({embedder.dim}-d); set "
                f"FLASK_EMBEDDING_MODEL={meta.get('embedding_model')} or use another DATABASE_SCHEMA")
        recorded = recorded_revision(meta.get("embedding_revision") or None, embedder)
        if recorded != revision_of(embedder):
            raise LibraryError(
                f"schema {db.schema} holds vectors of another training of {embedder.name} (revision "
                f"{recorded or 'unrecorded'}, now {revision_of(embedder)}); move the library "
                "in again: a new DATABASE_SCHEMA and `flask --app app db import-library`")
        if meta.get("analyzer") != analyzer.version():
            raise LibraryError(f"schema {db.schema} was indexed with another text analysis ({meta.get('analyzer')}); "
                               "move the library in again: a new DATABASE_SCHEMA and `flask --app app db import-library`")
        library = cls(db, embedder, skip_common)
        if form_of(embedder) is not None and meta.get("model_form") != embedder.form:
            library._find_stale()
        return library

    def passage_pages(self, size: int):
        """Every passage of the library, size at a time, in library order (what the worker warms)."""
        last = 0
        while rows := self.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE id > %s ORDER BY id LIMIT %s",
                                      (last, size)):
            last = rows[-1][0]
            yield [chunk(r) for r in rows]

    def reembed(self, progress: bool = False) -> int:
        """Embed again the passages whose vectors were made from another form of text; returns how many."""
        def write(keys, vectors):
            self.db.run(lambda conn: self._write_vectors(conn, keys, vectors))

        return embed_again(self, write, progress)

    def _write_vectors(self, conn, keys: list[int], vectors) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        with conn.cursor() as cursor:  # a chunk deleted meanwhile is no row; one re-indexed has new vectors
            cursor.executemany("UPDATE chunks SET embedding = %s WHERE id = %s", list(zip(vectors, keys, strict=True)))
        self._record_form(conn)
        conn.execute("UPDATE library_meta SET value = (value::bigint + 1)::text WHERE key = 'generation'")

    def reembed_status(self) -> dict | None:
        """What /api/health says of a re-embed waiting or running (here or in another process); None when none."""
        pending = self.reembedding
        if pending is not None and not pending.running and self.db.execute(
                "SELECT 1 FROM library_meta WHERE key = 'model_form' AND value = %s", (self.embedder.form,)):
            self.reembedding = pending = None  # another process's worker did it
        return pending.status() if pending else None

    def _find_stale(self) -> None:
        """The passages to embed again (only those with Hebrew marks can be); none: record the form at once."""
        rows = self.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE title ~ %(m)s OR text ~ %(m)s "
                               "OR section_path::text ~ %(m)s", {"m": MARKED})
        self.reembedding = stale((row[0], chunk(row).passage_text) for row in rows)
        if self.reembedding is None:
            self.db.run(self._record_form)

    def _record_form(self, conn) -> None:
        conn.execute("INSERT INTO library_meta (key, value) VALUES ('model_form', %s) ON CONFLICT (key) "
                     "DO UPDATE SET value = excluded.value", (self.embedder.form,))

    @property
    def closed(self) -> bool:
        return self.db.closed

    def health(self) -> dict:
        return self.db.health()

    def current(self) -> PgView:
        return self.view

    @property
    def relations(self) -> PgRelations:
        """The relations between passages (postgres/relation_store.py)."""
        return PgRelations(self.db)

    def replace_documents(self, entries) -> None:
        """Add or replace documents: (info, text, chunks, embeddings, source path) each, in one transaction."""
        self.db.run(lambda conn: self._replace(conn, entries))

    def add_questions(self, doc_id: str, rows: list[tuple[str, str, str]], vectors) -> int:
        """Keep questions (ref, language, text) with their vectors beside a document's passages (search/asked.py);
        returns how many were new. Every server searches them once it sees the generation move."""
        def add(conn):
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            added = 0
            for (ref, language, text), vector in zip(rows, vectors, strict=True):
                added += conn.execute("INSERT INTO asked (doc_id, ref, language, text, embedding) VALUES (%s, %s, %s, %s, %s)"
                                      " ON CONFLICT DO NOTHING",
                                      (doc_id, ref, language, text, np.asarray(vector, dtype=np.float32))).rowcount
            if added:
                conn.execute("UPDATE library_meta SET value = (value::bigint + 1)::text WHERE key = 'generation'")
            return added

        return self.db.run(add)

    def delete_document(self, doc_id: str) -> int:
        """Remove a document, its chunks and their term counts; returns how many chunks went."""
        def delete(conn):
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            removed = self._remove(conn, [doc_id])
            if conn.execute("DELETE FROM documents WHERE id = %s", (doc_id,)).rowcount:
                self._settle(conn)
            return removed

        return self.db.run(delete)

    # inside a transaction

    def _replace(self, conn, entries) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        self._remove(conn, [info.id for info, *_ in entries])
        for info, text, chunks, embeddings, source_path in entries:
            old = conn.execute("DELETE FROM documents WHERE id = %s RETURNING created_at", (info.id,)).fetchone()
            corpus, tier = self._corpus(conn, info)
            now = conn.execute("SELECT extract(epoch FROM clock_timestamp())::float8").fetchone()[0]
            conn.execute(
                "INSERT INTO documents (id, corpus_id, title, author, language, format, work, tier, community, filename,"
                " owner, source_path, content_hash, status, chunk_count, created_at, updated_at, metadata, text) VALUES"
                " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 'ready', %s, %s, %s, %s, %s)",
                (info.id, corpus, info.title, info.author, info.language, info.format, info.work, info.tier,
                 info.community, info.filename, info.owner, source_path, info.content_hash, len(chunks),
                 old[0] if old else now,
                 now, Jsonb(info.metadata), text))
            self._insert_chunks(conn, info, corpus, tier, chunks, np.asarray(embeddings, dtype=np.float32))
        self._settle(conn)

    def _corpus(self, conn, info: DocumentInfo) -> tuple[str, str]:
        """The document's corpus (metadata "corpus", else its tier's, else the default) and that corpus's tier."""
        corpus = info.metadata.get("corpus") or info.tier or DEFAULT_CORPUS
        conn.execute("INSERT INTO corpora (id, title, tier, license, source_url) VALUES (%s, %s, %s, %s, %s) "
                     "ON CONFLICT (id) DO NOTHING", (corpus, corpus, info.tier or "public",
                                                     info.metadata.get("license"), info.metadata.get("source_url")))
        return corpus, conn.execute("SELECT tier FROM corpora WHERE id = %s", (corpus,)).fetchone()[0]

    def _insert_chunks(self, conn, info, corpus, tier, chunks: list[Chunk], vectors: np.ndarray) -> None:
        if not chunks:
            return
        ids = [r[0] for r in conn.execute("SELECT nextval('chunks_id_seq') FROM generate_series(1, %s)", (len(chunks),))]
        counts = [Counter(analyzer.analyze(c.passage_text)) for c in chunks]
        lengths = [sum(words.values()) for words in counts]  # BM25's document lengths
        chunks = [c.in_document(info) for c in chunks]
        with conn.cursor().copy(f"COPY chunks ({', '.join(CHUNK_INSERT)}) FROM STDIN") as copy:
            for key, seq, c, length, vector in zip(ids, range(len(chunks)), chunks, lengths, vectors, strict=True):
                copy.write_row((key, c.id, info.id, corpus, tier, seq, c.title, c.text, c.start, c.end,
                                Jsonb(list(c.section_path)), c.ref, c.parent_ref, info.work, info.language,
                                info.author, c.community, c.authority_weight if tier == "canonical" else 0.0, c.era,
                                length, vector))
        vocabulary = sorted({t for words in counts for t in words})
        df = Counter(t for words in counts for t in words)
        term_ids = dict(conn.execute(
            "INSERT INTO terms (term, df) SELECT * FROM unnest(%s::text[], %s::int[]) ON CONFLICT (term) "
            "DO UPDATE SET df = terms.df + excluded.df RETURNING term, id", (vocabulary, [df[t] for t in vocabulary])))
        with conn.cursor().copy("COPY postings (term_id, chunk, tf, length) FROM STDIN") as copy:
            for key, words, length in zip(ids, counts, lengths):
                for term, tf in words.items():
                    copy.write_row((term_ids[term], key, tf, length))
        conn.execute("UPDATE bm25 SET n = n + %s, total_length = total_length + %s",
                     (len(chunks), sum(lengths)))

    def _remove(self, conn, doc_ids: list[str]) -> int:
        """Take the documents' chunks out of the term statistics (their rows go with the documents); how many."""
        found = conn.execute("SELECT count(*), coalesce(sum(length), 0) FROM chunks WHERE doc_id = ANY(%s)",
                             (doc_ids,)).fetchone()
        if not found[0]:
            return 0
        conn.execute("UPDATE terms SET df = terms.df - gone.n FROM (SELECT p.term_id, count(*) AS n FROM postings p "
                     "JOIN chunks c ON c.id = p.chunk WHERE c.doc_id = ANY(%s) GROUP BY p.term_id) gone "
                     "WHERE terms.id = gone.term_id", (doc_ids,))
        conn.execute("UPDATE bm25 SET n = n - %s, total_length = total_length - %s", (found[0], found[1]))
        return found[0]

    @staticmethod
    def _settle(conn) -> None:
        """After a change: drop terms no chunk uses, recompute the mean idf, bump the generation."""
        conn.execute("DELETE FROM terms WHERE df <= 0")
        conn.execute("UPDATE bm25 SET mean_idf = (SELECT coalesce(avg(ln(bm25.n - df + 0.5) - ln(df + 0.5)), 0) "
                     "FROM terms)")
        conn.execute("UPDATE library_meta SET value = (value::bigint + 1)::text WHERE key = 'generation'")
