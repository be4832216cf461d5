"""The PostgreSQL library against a real PostgreSQL 16 with pgvector: the embedded engine's scores to 1e-6 through
adds, replacements and removals, the same search results, the seed's constraints, HNSW and the schema's version."""
import numpy as np
import psycopg
import pytest

from builders import entry
from conftest import WIKI_SAMPLE, FakeEmbedder
from hebrew import analyzer
from ingest import corpus
from models import Document
from postgres import schema
from postgres.database import NewerSchema, SchemaMissing, require_current
from postgres.library import PgLibrary
from postgres.search import CHUNK_COLUMNS, chunk
from retrieval import Retriever
from search.bm25 import BM25
from search.library import LibraryError
from search.view import Scope

QUERIES = ["Who discovered penicillin?", "highest mountain", "when was rome founded", "sun light water",
           "kettle", "שבת", "Moon landing Armstrong 1969", "the the the"]


def fresh_bm25(library: PgLibrary) -> tuple[BM25, list[int]]:
    """BM25 built from scratch over the chunks the database holds, and their ids in the same order."""
    rows = library.db.execute(f"SELECT {CHUNK_COLUMNS} FROM chunks ORDER BY id")
    return BM25.index([analyzer.analyze(chunk(r).passage_text) for r in rows]), [r[0] for r in rows]


def assert_scores_match_a_fresh_build(library: PgLibrary) -> None:
    fresh, ids = fresh_bm25(library)
    for query in QUERIES:
        words = analyzer.analyze_query(query)
        expected = fresh.scores_any(words)
        found = library.current().lexical(words, 10_000, Scope())
        got = found.scores_of(np.array(ids, dtype=np.int64))
        np.testing.assert_allclose(got, expected, atol=1e-6)
        assert found.max == pytest.approx(max(0.0, expected.max(initial=0.0)), abs=1e-6)


def test_bm25_equals_the_embedded_engine_through_adds_replacements_and_removals(pg_db):
    library = PgLibrary.open(pg_db, FakeEmbedder())
    library.replace_documents(corpus.corpus_entries(WIKI_SAMPLE, FakeEmbedder(), 1200, 200))
    assert_scores_match_a_fresh_build(library)
    library.replace_documents([entry("kettle", ["A kettle boils water.", "The kettle whistles when the water boils."])])
    library.replace_documents([entry("Moon", ["The Moon has no air."])])  # replaces the Moon article
    assert_scores_match_a_fresh_build(library)
    assert library.delete_document("Penicillin") == 1 and library.delete_document("Penicillin") == 0
    assert_scores_match_a_fresh_build(library)
    assert library.store.stats()["documents"] == len(WIKI_SAMPLE)  # -1 Penicillin, +1 kettle
    unused = pg_db.execute("SELECT count(*) FROM terms t WHERE NOT EXISTS (SELECT 1 FROM postings p WHERE p.term_id = t.id)")
    assert unused[0][0] == 0  # terms no chunk uses are dropped, as a fresh index has none


def test_search_gives_the_embedded_results_and_scores(pg_db, tmp_path):
    embedded = corpus.build(WIKI_SAMPLE, FakeEmbedder(), tmp_path / "lib", 1200, 200)
    library = PgLibrary.open(pg_db, FakeEmbedder())
    library.replace_documents(corpus.corpus_entries(WIKI_SAMPLE, FakeEmbedder(), 1200, 200))
    for query in QUERIES:
        for mode in ("bm25", "dense", "hybrid"):
            a = Retriever(embedded, FakeEmbedder()).search(query, top_k=5, mode=mode)
            b = Retriever(library, FakeEmbedder()).search(query, top_k=5, mode=mode)
            assert [h.chunk.id for h in a] == [h.chunk.id for h in b], (query, mode)
            for x, y in zip(a, b):
                assert (x.bm25_score, x.dense_score, x.hybrid_score) == pytest.approx(
                    (y.bm25_score, y.dense_score, y.hybrid_score), abs=1e-6)
                assert (x.context_before, x.context_after, x.chunk) == (y.context_before, y.context_after, y.chunk)


def test_filters_scope_every_route(pg_db):
    library = PgLibrary.open(pg_db, FakeEmbedder())
    docs = [Document("a", "Alpha", "Penicillin was discovered in 1928."), Document("b", "Beta", "Penicillin cures."),
            Document("c", "Gamma", "Rome was founded."), Document("d", "Delta", "Everest is high.")]
    library.replace_documents(corpus.corpus_entries(docs, FakeEmbedder(), 1200, 200))
    retriever = Retriever(library, FakeEmbedder())
    hits = retriever.search("penicillin", filters={"document_ids": ["b"]})
    assert {h.chunk.doc_id for h in hits} == {"b"}
    assert retriever.search("penicillin", filters={"language": "xx"}) == []
    view = library.current()
    words = analyzer.analyze_query("discovered cures")
    assert len(view.lexical(words, 10, Scope()).top) == 2
    excluded = view.lexical(words, 10, Scope(excluded=frozenset({"a"})))
    assert view.chunks_of(excluded.top)[0].doc_id == "b" and len(excluded.top) == 1


def test_the_seed_constraints_hold(pg_db):
    library = PgLibrary.open(pg_db, FakeEmbedder())
    library.replace_documents([entry("kettle", ["A kettle boils water."])])
    with pytest.raises(psycopg.errors.CheckViolation):  # a non-canonical chunk has no authority
        pg_db.execute("UPDATE chunks SET authority_weight = 0.5")
    with pytest.raises(psycopg.errors.ForeignKeyViolation):  # a chunk's tier is its corpus's
        pg_db.execute("UPDATE chunks SET corpus_tier = 'canonical'")
    pg_db.execute("UPDATE corpora SET tier = 'canonical'")  # the corpus changes tier: its chunks follow
    pg_db.execute("UPDATE chunks SET authority_weight = 0.5")
    assert pg_db.execute("SELECT corpus_tier, authority_weight FROM chunks") == [("canonical", 0.5)]


def test_a_large_library_uses_hnsw_with_enough_candidates(pg_db, monkeypatch):
    import postgres.search as search

    library = PgLibrary.open(pg_db, FakeEmbedder())
    docs = [Document(f"d{i}", f"Doc {i}", f"word{i} shared text number {i}") for i in range(300)]
    library.replace_documents(corpus.corpus_entries(docs, FakeEmbedder(), 1200, 200))
    monkeypatch.setattr(search, "HNSW_ABOVE", 10)
    vector = FakeEmbedder().embed(["word7 shared text"])[0]
    assert not library.current().exact(Scope())
    found = library.current().nearest(vector, 200, Scope())
    assert len(found) == 200  # at hnsw.ef_search's default of 40, LIMIT 200 would give 40
    plan = pg_db.run(lambda conn: (conn.execute("SET LOCAL enable_seqscan = off"), conn.execute(
        "EXPLAIN SELECT id FROM chunks ORDER BY embedding <=> %s LIMIT 5", (vector,)).fetchall())[1])
    assert "chunks_embedding" in " ".join(r[0] for r in plan)
    assert library.current().exact(Scope(frozenset({"d1"})))  # a selective filter is searched exactly


def test_a_library_for_another_embedder_is_refused(pg_db):
    class Other(FakeEmbedder):
        name, dim = "other", 32

    with pytest.raises(LibraryError, match="fake-embedder.*FLASK_EMBEDDING_MODEL=fake-embedder"):
        PgLibrary.open(pg_db, Other())

    class Retrained(FakeEmbedder):
        revision = "c" * 12

    with pytest.raises(LibraryError, match="another training of fake-embedder.*unrecorded, now cccccccccccc"):
        PgLibrary.open(pg_db, Retrained())


def test_a_newer_or_missing_schema_is_refused_with_what_to_do(pg_db):
    require_current(pg_db, len(schema.MIGRATIONS))
    pg_db.execute("INSERT INTO schema_version (version) VALUES (%s)", (len(schema.MIGRATIONS) + 1,))
    with pytest.raises(NewerSchema, match="newer Evidenz.*upgrade Evidenz"):
        PgLibrary.open(pg_db, FakeEmbedder())
    from postgres.database import Database

    empty = Database(pg_db.url, schema="nothing_here")
    with pytest.raises(SchemaMissing, match="db upgrade"):
        require_current(empty, len(schema.MIGRATIONS))
    empty.close()
