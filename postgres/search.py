"""Hybrid search's questions (search/view.py) answered inside PostgreSQL, with the embedded engine's scores.

BM25: the query's words, analysed in Python by the same analyzer, are scored in SQL from the term statistics the
library keeps (terms.df, postings.tf and length, bm25's document count, total length and mean idf) with
rank_bm25's formula, its epsilon floor, k1 and b, each word counting by its best form, as BM25.scores_any does.
Dense: pgvector. A library of at most HNSW_ABOVE chunks, or a search whose scope allows at most EXACT_SCOPE of
them, is searched exactly (a sequential scan by inner product, as FAISS's flat index). Above that the HNSW index
(cosine) answers, with `hnsw.ef_search` at least the number of candidates asked for; pgvector 0.8+ scans it
iteratively when a scope filters it, older ones return what the filter leaves. Chunks are named by their id.
A search's first stage is one statement (`candidates`: BM25's best, the nearest, both scores of each) sent with its
settings in one round trip; the shown passages and their neighbours are a second (`passages`).
Does not: fuse scores (retrieval.py) or change the library (postgres/library.py).
"""
import json
import time

import numpy as np

from models import Chunk
from postgres.asked import PgAsked, with_asked
from postgres.database import Database
from postgres.vocabulary import Vocabulary
from search.library import HNSW_EF_SEARCH
from search.view import Candidates, Scope

# pgvector's exact scan costs 10 ms at 10,000 real MiniLM vectors on 2 cores and 54 ms at 100,000, HNSW at ef_search
# 200 4-5 ms with recall@10 0.998 (FAISS's flat search: 1 ms at 10,000), so the HNSW index takes over far sooner
# than the embedded library's 250,000 (bench --backend postgres --scale, docs/postgres.md).
HNSW_ABOVE = 10_000
EXACT_SCOPE = 10_000
MAX_EF_SEARCH = 1000  # pgvector's limit
# BM25 of a question of common words groups a row per posting of each word: memory for that in one hash table
WORK_MEM = "SET LOCAL work_mem = '32MB'"
SIZE_FRESH = 10.0  # seconds a search trusts the library's size it read to choose exact or HNSW search

# BM25 of the query words over the postings the scope allows, each term's postings read from the postings' primary
# key alone (it carries tf and length; LATERAL keeps the planner to one index range a term): a word of one form
# adds its term's weight (times the word recurs), a word of several forms (the glossary's, Hebrew prefixes) counts
# by its best form in a chunk.
IDF = ("CASE WHEN ln(s.n - terms.df + 0.5) - ln(terms.df + 0.5) < 0 THEN s.epsilon * s.mean_idf "
       "ELSE ln(s.n - terms.df + 0.5) - ln(terms.df + 0.5) END")
WEIGHT = "p.tf * (s.k1 + 1) / (p.tf + s.k1 * (1 - s.b + s.b * p.length / s.avgdl))"
POSTINGS = "CROSS JOIN LATERAL (SELECT chunk, tf, length FROM postings WHERE term_id = {terms}.id) p"
LEXICAL = f"""s AS MATERIALIZED (SELECT n, total_length::float8 / greatest(n, 1) AS avgdl, mean_idf, k1, b, epsilon
                   FROM bm25 LIMIT 1),
one AS MATERIALIZED (SELECT terms.id, count(*) AS times, min({IDF}) AS idf
        FROM unnest(%(one)s::text[]) AS q(term) JOIN terms ON terms.term = q.term CROSS JOIN s
        WHERE NOT (%(skip_common)s AND 2 * terms.df > s.n) GROUP BY terms.id),
several AS MATERIALIZED (SELECT DISTINCT q.word, terms.id, {IDF} AS idf
        FROM unnest(%(words)s::int[], %(terms)s::text[]) AS q(word, term) JOIN terms ON terms.term = q.term CROSS JOIN s
        WHERE NOT (%(skip_common)s AND 2 * terms.df > s.n)),
hits AS (SELECT p.chunk, one.times * one.idf * {WEIGHT} AS w FROM one CROSS JOIN s {POSTINGS.format(terms="one")}
         WHERE {{where}}
         UNION ALL
         SELECT chunk, max(w) FROM (SELECT p.chunk, several.word, several.idf * {WEIGHT} AS w
             FROM several CROSS JOIN s {POSTINGS.format(terms="several")} WHERE {{where}}) best_form
         GROUP BY chunk, word),
lexical AS MATERIALIZED (SELECT chunk, sum(w) AS score FROM hits GROUP BY chunk)"""
BEST = "best AS (SELECT chunk, score FROM lexical WHERE score > 0 ORDER BY score DESC, chunk LIMIT %(k)s)"
NO_BEST = "best(chunk, score) AS (SELECT NULL::bigint, NULL::float8 WHERE false)"
NO_NEAR = "near(chunk) AS (SELECT NULL::bigint WHERE false)"
# The BM25 of the nearest chunks that are not among BM25's best, each (term, chunk) one probe of the postings' key:
# a few thousand probes instead of joining every scored chunk (OFFSET 0 keeps the planner from flattening them).
PROBE = ("CROSS JOIN LATERAL (SELECT tf, length FROM postings WHERE term_id = {terms}.id AND chunk = rest.chunk "
         "OFFSET 0) p")
REST_SCORED = f"""rest_scored AS (SELECT chunk, sum(w) AS score FROM (
    SELECT rest.chunk, one.times * one.idf * {WEIGHT} AS w
        FROM rest CROSS JOIN one CROSS JOIN s {PROBE.format(terms="one")}
    UNION ALL
    SELECT chunk, max(w) FROM (SELECT rest.chunk, several.word, several.idf * {WEIGHT} AS w
        FROM rest CROSS JOIN several CROSS JOIN s {PROBE.format(terms="several")}) best_form GROUP BY chunk, word
    ) rest_hits GROUP BY chunk)"""
NO_REST_SCORED = "rest_scored(chunk, score) AS (SELECT NULL::bigint, NULL::float8 WHERE false)"
# One search's first stage in one statement: BM25 over the scope and its best k with their scores, the k nearest
# and their BM25, the cosine and ref of each, and the best BM25 score of the scope (on every row).
CANDIDATES = """WITH {ctes},
rest AS (SELECT chunk FROM near WHERE NOT EXISTS (SELECT 1 FROM best WHERE best.chunk = near.chunk)),
{rest_scored},
found AS (SELECT chunk, score FROM best
          UNION ALL SELECT rest.chunk, coalesce(rest_scored.score, 0) FROM rest LEFT JOIN rest_scored USING (chunk))
SELECT f.chunk, f.score, {cosine}, c.section_ref, (SELECT coalesce(max(score), 0) FROM best)
FROM found f JOIN chunks c ON c.id = f.chunk ORDER BY f.chunk"""
NEAREST = "near AS (SELECT id AS chunk FROM chunks WHERE {where} ORDER BY {order} LIMIT %(k)s)"
CHUNK_COLUMNS = ("id, chunk_id, doc_id, title, text, start_offset, end_offset, section_path, section_ref, parent_ref, "
                 "community, era, authority_weight, corpus_tier")


def bm25_sql(words: list[list[str]], where: str, skip_common: bool = False) -> tuple[str, dict]:
    """The CTEs that define lexical(chunk, score): the BM25 of the query words (each with its forms) over the
    postings where allows, and their arguments; skip_common leaves out terms of more than half the chunks."""
    several = [(i, form) for i, forms in enumerate(words) if len(set(forms)) > 1 for form in forms]
    return LEXICAL.format(where=where), {"one": [forms[0] for forms in words if len(set(forms)) == 1],
                                         "words": [i for i, _ in several], "terms": [form for _, form in several],
                                         "skip_common": skip_common}


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


class PgLexical:
    """A query's BM25 over a scope: its best candidates (ids), its best score, and the score of any chunk."""

    def __init__(self, db: Database, words: list[list[str]], k: int, scope: Scope, skip_common: bool = False):
        self.db, self.scope, self.words, self.skip_common = db, scope, words, skip_common
        where, extra = scope_sql(scope, "p.chunk")
        ctes, args = bm25_sql(words, where, skip_common)
        rows = db.execute(f"WITH {ctes} SELECT chunk, score FROM lexical ORDER BY score DESC, chunk LIMIT %(k)s",
                          {**args, **extra, "k": k})
        self.found = {chunk: score for chunk, score in rows}
        self.top = np.array([chunk for chunk, score in rows if score > 0], dtype=np.int64)
        self.max = max(0.0, rows[0][1]) if rows else 0.0

    def scores_of(self, keys: np.ndarray) -> np.ndarray:
        missing = [int(k) for k in keys if int(k) not in self.found]
        if missing:
            where, extra = scope_sql(self.scope, "p.chunk")
            ctes, args = bm25_sql(self.words, f"p.chunk = ANY(%(keys)s) AND {where}", self.skip_common)
            rows = self.db.execute(f"WITH {ctes} SELECT chunk, score FROM lexical", {**args, **extra, "keys": missing})
            self.found.update({chunk: 0.0 for chunk in missing} | dict(rows))
        return np.array([self.found[int(k)] for k in keys], dtype=np.float64)


class PgView:
    """The library as one search reads it; every answer comes from the database as it is now."""

    def __init__(self, db: Database, vector_version: tuple[int, ...] = (), skip_common: bool = False):
        self.db, self.skip_common = db, skip_common
        self.vocabulary = Vocabulary(db)
        self.iterative = vector_version >= (0, 8)
        self.asked = PgAsked(db)  # the questions written beside passages, as this server last read them
        self._size = (-SIZE_FRESH - 1.0, 0)  # (when it was read, the library's size)

    def size(self) -> int:
        return int(self.db.execute("SELECT n FROM bm25")[0][0])

    def size_now(self) -> int:
        """The library's size as the choice of exact or HNSW search reads it: read again after SIZE_FRESH seconds,
        not on every search (it only chooses how the nearest chunks are found, never what a search may return)."""
        read_at, size = self._size
        if time.monotonic() - read_at > SIZE_FRESH:
            self._size = (time.monotonic(), size := self.size())
        return size

    @staticmethod
    def key_of(position: int) -> int:
        """The chunk key a Scope's chunks name: here a chunk is named by its id everywhere."""
        return int(position)

    def lexical(self, words: list[list[str]], k: int, scope: Scope) -> PgLexical:
        return PgLexical(self.db, words, k, scope, self.skip_common)

    def candidates(self, words: list[list[str]] | None, vector: np.ndarray | None, k: int, scope: Scope,
                   query: str | None = None) -> Candidates:
        """The best k of BM25 and of dense search over scope, with both scores and the ref of each, in one statement
        (sent with the settings an HNSW search needs in one round trip). The passages' written questions are
        searched beside the passages (postgres/asked.py) when query is given: three more statements, only when
        they bring candidates of their own."""
        where, args = scope_sql(scope, "p.chunk")
        args["k"] = k
        ctes, rest_scored = [NO_BEST], NO_REST_SCORED
        if words is not None:
            lexical, extra = bm25_sql(words, where, self.skip_common)
            ctes, args, rest_scored = [lexical, BEST], args | extra, REST_SCORED
        settings = [WORK_MEM]
        if vector is not None:
            args["vector"] = np.asarray(vector, dtype=np.float32)
            exact = self.exact(scope)
            settings += [] if exact else self.hnsw_settings(k, scope)
            ctes.append(NEAREST.format(where=scope_sql(scope, "id")[0],
                                       order="embedding <#> %(vector)s, id" if exact else "embedding <=> %(vector)s"))
        else:
            ctes.append(NO_NEAR)
        if words is None and vector is None:
            return Candidates(np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0), 0.0, [])
        sql = CANDIDATES.format(ctes=",\n".join(ctes), rest_scored=rest_scored,
                                cosine="-(c.embedding <#> %(vector)s)" if vector is not None else "0::float8")
        rows = self.db.query(sql, args, settings)
        found = Candidates(np.array([r[0] for r in rows], dtype=np.int64),
                           np.array([r[1] for r in rows], dtype=np.float64),
                           np.array([r[2] for r in rows], dtype=np.float32),
                           max(0.0, rows[0][4]) if rows else 0.0, [r[3] for r in rows])
        return with_asked(self, found, query, words, vector, k, scope) if query is not None else found

    def text_scores(self, keys: np.ndarray, words, vector, scope: Scope) -> tuple[np.ndarray, np.ndarray, list]:
        """The BM25 (over scope) and cosine of chunks the first stage did not find, and their refs."""
        bm25 = np.zeros(len(keys))
        if words is not None:
            where, extra = scope_sql(scope, "p.chunk")
            ctes, args = bm25_sql(words, f"p.chunk = ANY(%(keys)s) AND {where}", self.skip_common)
            found = dict(self.db.execute(f"WITH {ctes} SELECT chunk, score FROM lexical",
                                         {**args, **extra, "keys": [int(k) for k in keys]}))
            bm25 = np.array([found.get(int(k), 0.0) for k in keys], dtype=np.float64)
        dense = self.cosines(keys, vector) if vector is not None else np.zeros(len(keys), dtype=np.float32)
        return bm25, dense, self.refs_of(keys)

    def hnsw_settings(self, k: int, scope: Scope) -> list[str]:
        """What an HNSW search of k over scope sets first: ef_search of at least k, and on pgvector 0.8+ an iterative
        scan when a scope filters it."""
        settings = [f"SET LOCAL hnsw.ef_search = {min(max(k, HNSW_EF_SEARCH), MAX_EF_SEARCH)}"]
        return settings + (["SET LOCAL hnsw.iterative_scan = relaxed_order"] if scope and self.iterative else [])

    def passages(self, keys: np.ndarray, context: int) -> tuple[list[Chunk | None], dict]:
        """The chunks of keys (None for one removed since it was found), and the neighbours (before, after) of the
        first `context` of them by key, in one statement."""
        columns = ", ".join("n." + c for c in CHUNK_COLUMNS.split(", "))
        rows = self.db.execute(
            f"SELECT 0, n.id, {columns} FROM chunks n WHERE n.id = ANY(%(keys)s) UNION ALL "
            f"SELECT n.seq - h.seq, h.id, {columns} FROM chunks h JOIN chunks n ON n.doc_id = h.doc_id "
            "AND n.seq IN (h.seq - 1, h.seq + 1) WHERE h.id = ANY(%(around)s)",
            {"keys": [int(k) for k in keys], "around": [int(k) for k in keys[:context]]})
        found = {(side, key): chunk(row) for side, key, *row in rows}
        around = {int(k): (found.get((-1, int(k))), found.get((1, int(k)))) for k in keys[:context]}
        return [found.get((0, int(k))) for k in keys], around

    def nearest(self, vector: np.ndarray, k: int, scope: Scope) -> np.ndarray:
        """Ids of the k chunks nearest the vector: exact for small libraries and selective scopes, else HNSW."""
        where, args = scope_sql(scope, "id")
        args |= {"vector": np.asarray(vector, dtype=np.float32), "k": k}
        if self.exact(scope):
            sql = f"SELECT id FROM chunks WHERE {where} ORDER BY embedding <#> %(vector)s, id LIMIT %(k)s"
            return np.array([r[0] for r in self.db.execute(sql, args)], dtype=np.int64)

        rows = self.db.query(f"SELECT id FROM chunks WHERE {where} ORDER BY embedding <=> %(vector)s LIMIT %(k)s", args,
                             self.hnsw_settings(k, scope))
        return np.array([r[0] for r in rows], dtype=np.int64)

    def exact(self, scope: Scope) -> bool:
        """Whether a search over scope is exact: the library is small, or the scope allows few chunks."""
        if self.size_now() <= HNSW_ABOVE or (scope.chunks is not None and len(scope.chunks) <= EXACT_SCOPE):
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
