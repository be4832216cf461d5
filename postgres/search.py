"""Hybrid search's questions (search/view.py) answered inside PostgreSQL, with the embedded engine's scores.

BM25: the query's words, analysed in Python by the same analyzer, are scored in SQL from the term statistics the
library keeps (terms.df, postings.tf and length, bm25's document count, total length and mean idf) with
rank_bm25's formula, its epsilon floor, k1 and b, each word counting by its best form, as BM25.scores_any does.
Dense: pgvector. A library of at most HNSW_ABOVE chunks, or a search whose scope allows at most EXACT_SCOPE of
them, is searched exactly (a sequential scan by inner product, as FAISS's flat index). Above that the HNSW index
(cosine) answers, with `hnsw.ef_search` at least the number of candidates asked for; pgvector 0.8+ scans it
iteratively when a scope filters it, older ones return what the filter leaves. Chunks are named by their id.
Does not: fuse scores (retrieval.py) or change the library (postgres/library.py).
"""
import json

import numpy as np

from models import Chunk
from postgres.database import Database
from search.library import HNSW_EF_SEARCH
from search.view import Scope

# pgvector's exact scan costs about 22 ms at 8,700 MiniLM vectors on 2 cores (FAISS's flat search 2 ms), so the
# HNSW index takes over far sooner than the embedded library's 250,000 (bench --backend postgres, README).
HNSW_ABOVE = 20_000
EXACT_SCOPE = 20_000
MAX_EF_SEARCH = 1000  # pgvector's limit

SCORED = """
WITH q(word, term) AS (SELECT * FROM unnest(%(words)s::int[], %(terms)s::text[])),
s AS (SELECT n, total_length::float8 / greatest(n, 1) AS avgdl, mean_idf, k1, b, epsilon FROM bm25),
t AS (SELECT DISTINCT q.word, terms.id, ln(s.n - terms.df + 0.5) - ln(terms.df + 0.5) AS raw
      FROM q JOIN terms ON terms.term = q.term, s),
per AS (SELECT p.chunk, t.word,
               max(CASE WHEN t.raw < 0 THEN s.epsilon * s.mean_idf ELSE t.raw END
                   * p.tf * (s.k1 + 1) / (p.tf + s.k1 * (1 - s.b + s.b * p.length / s.avgdl))) AS w
        FROM t JOIN postings p ON p.term_id = t.id, s
        WHERE {where}
        GROUP BY p.chunk, t.word)
SELECT chunk, sum(w) AS score FROM per GROUP BY chunk
"""
CHUNK_COLUMNS = ("id, chunk_id, doc_id, title, text, start_offset, end_offset, section_path, section_ref, parent_ref, "
                 "community, era, authority_weight, corpus_tier")


def scope_sql(scope: Scope, column: str) -> tuple[str, dict]:
    """A condition on a chunk id column that holds for the chunks scope allows, and its arguments."""
    conditions, args = [], {}
    if scope.documents is not None:
        conditions.append(f"{column} IN (SELECT id FROM chunks WHERE doc_id = ANY(%(allowed)s))")
        args["allowed"] = list(scope.documents)
    if scope.excluded:
        conditions.append(f"{column} NOT IN (SELECT id FROM chunks WHERE doc_id = ANY(%(excluded)s))")
        args["excluded"] = list(scope.excluded)
    if scope.chunks is not None:
        conditions.append(f"{column} = ANY(%(chunks)s)")
        args["chunks"] = sorted(scope.chunks)
    return " AND ".join(conditions) or "true", args


class Vocabulary:
    """The library's BM25 terms, asked one at a time (`term in vocabulary`)."""

    def __init__(self, db: Database):
        self.db = db

    def __contains__(self, term: str) -> bool:
        return bool(self.db.execute("SELECT 1 FROM terms WHERE term = %s", (term,)))


class PgLexical:
    """A query's BM25 over a scope: its best candidates (ids), its best score, and the score of any chunk."""

    def __init__(self, db: Database, words: list[list[str]], k: int, scope: Scope):
        self.db, self.scope = db, scope
        self.args = {"words": [i for i, w in enumerate(words) for _ in w], "terms": [t for w in words for t in w]}
        where, extra = scope_sql(scope, "p.chunk")
        rows = db.execute(SCORED.format(where=where) + " ORDER BY score DESC, chunk LIMIT %(k)s",
                          {**self.args, **extra, "k": k})
        self.found = {chunk: score for chunk, score in rows}
        self.top = np.array([chunk for chunk, score in rows if score > 0], dtype=np.int64)
        self.max = max(0.0, rows[0][1]) if rows else 0.0

    def scores_of(self, keys: np.ndarray) -> np.ndarray:
        missing = [int(k) for k in keys if int(k) not in self.found]
        if missing:
            where, extra = scope_sql(self.scope, "p.chunk")
            rows = self.db.execute(SCORED.format(where=f"p.chunk = ANY(%(keys)s) AND {where}"),
                                   {**self.args, **extra, "keys": missing})
            self.found.update({chunk: 0.0 for chunk in missing} | dict(rows))
        return np.array([self.found[int(k)] for k in keys], dtype=np.float64)


class PgView:
    """The library as one search reads it; every answer comes from the database as it is now."""

    def __init__(self, db: Database, vector_version: tuple[int, ...] = ()):
        self.db = db
        self.vocabulary = Vocabulary(db)
        self.iterative = vector_version >= (0, 8)

    def size(self) -> int:
        return int(self.db.execute("SELECT n FROM bm25")[0][0])

    @staticmethod
    def key_of(position: int) -> int:
        """The chunk key a Scope's chunks name: here a chunk is named by its id everywhere."""
        return int(position)

    def lexical(self, words: list[list[str]], k: int, scope: Scope) -> PgLexical:
        return PgLexical(self.db, words, k, scope)

    def nearest(self, vector: np.ndarray, k: int, scope: Scope) -> np.ndarray:
        """Ids of the k chunks nearest the vector: exact for small libraries and selective scopes, else HNSW."""
        where, args = scope_sql(scope, "id")
        args |= {"vector": np.asarray(vector, dtype=np.float32), "k": k}
        if self.exact(scope):
            sql = f"SELECT id FROM chunks WHERE {where} ORDER BY embedding <#> %(vector)s, id LIMIT %(k)s"
            return np.array([r[0] for r in self.db.execute(sql, args)], dtype=np.int64)

        def approximate(conn):
            conn.execute(f"SET LOCAL hnsw.ef_search = {min(max(k, HNSW_EF_SEARCH), MAX_EF_SEARCH)}")
            if scope and self.iterative:
                conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            return conn.execute(f"SELECT id FROM chunks WHERE {where} ORDER BY embedding <=> %(vector)s LIMIT %(k)s",
                                args).fetchall()

        return np.array([r[0] for r in self.db.run(approximate)], dtype=np.int64)

    def exact(self, scope: Scope) -> bool:
        """Whether a search over scope is exact: the library is small, or the scope allows few chunks."""
        if self.size() <= HNSW_ABOVE or (scope.chunks is not None and len(scope.chunks) <= EXACT_SCOPE):
            return True
        if scope.documents is None:
            return False
        allowed = self.db.execute("SELECT count(*) FROM chunks WHERE doc_id = ANY(%s)", (list(scope.documents),))
        return allowed[0][0] <= EXACT_SCOPE

    def cosines(self, keys: np.ndarray, vector: np.ndarray) -> np.ndarray:
        """The inner product of each chunk's stored vector with vector (cosine: both are unit length)."""
        if not len(keys):
            return np.zeros(0, dtype=np.float32)
        rows = dict(self.db.execute("SELECT id, -(embedding <#> %s) FROM chunks WHERE id = ANY(%s)",
                                    (np.asarray(vector, dtype=np.float32), [int(k) for k in keys])))
        return np.array([rows.get(int(k), 0.0) for k in keys], dtype=np.float32)

    def chunks_of(self, keys: np.ndarray) -> list[Chunk | None]:
        """The chunks of the ids, in order; None for one removed since it was found."""
        rows = self.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks WHERE id = ANY(%s)", ([int(k) for k in keys],))
        found = {r[0]: chunk(r) for r in rows}
        return [found.get(int(k)) for k in keys]

    def refs_of(self, keys: np.ndarray) -> list[str | None]:
        """The canonical ref of each chunk, in order (None for one without, or removed since it was found): one
        column, not the candidates' whole rows, on every search."""
        rows = self.db.execute("SELECT id, section_ref FROM chunks WHERE id = ANY(%s)", ([int(k) for k in keys],))
        found = dict(rows)
        return [found.get(int(k)) for k in keys]

    def by_id(self, chunk_id: str) -> int | None:
        """The id of the chunk with this chunk id; None when there is none."""
        rows = self.db.execute("SELECT id FROM chunks WHERE chunk_id = %s LIMIT 1", (chunk_id,))
        return rows[0][0] if rows else None

    def by_keys(self, keys) -> list[tuple[int, str]]:
        """(id, passage key) of every chunk of the passages named (a long seif is several), in library order."""
        rows = self.db.execute("SELECT id, coalesce(section_ref, chunk_id) FROM chunks WHERE section_ref = ANY(%(k)s) "
                               "OR (section_ref IS NULL AND chunk_id = ANY(%(k)s)) ORDER BY id", {"k": list(keys)})
        return [(r[0], r[1]) for r in rows]

    def neighbours(self, key: int) -> tuple[Chunk | None, Chunk | None]:
        """The chunks before and after a chunk in its document (None at either end)."""
        rows = self.db.execute(f"SELECT n.seq - h.seq, {', '.join('n.' + c for c in CHUNK_COLUMNS.split(', '))} "
                               "FROM chunks h JOIN chunks n ON n.doc_id = h.doc_id AND n.seq IN (h.seq - 1, h.seq + 1) "
                               "WHERE h.id = %s", (int(key),))
        side = {r[0]: chunk(r[1:]) for r in rows}
        return side.get(-1), side.get(1)


def chunk(row) -> Chunk:
    """A Chunk from a row of CHUNK_COLUMNS."""
    section_path = row[7] if isinstance(row[7], list) else json.loads(row[7])
    return Chunk(row[1], row[2], row[3], row[4], row[5], row[6], tuple(section_path), row[8], row[9], row[10],
                 row[11], float(row[12]), row[13])
