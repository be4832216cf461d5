"""A search's first stage in one statement against a real PostgreSQL with pgvector: the same candidates, scores
and refs as asking each question on its own, a hybrid search in two statements, and the schema that makes them
cheap (BM25 from the postings' index alone, vectors in their rows)."""
import numpy as np
import pytest

from builders import entry
from conftest import WIKI_SAMPLE, FakeEmbedder
from ingest import corpus
from postgres.database import Database
from postgres.library import PgLibrary
from retrieval import Retriever
from search.view import Scope, composed

QUERIES = ["Who discovered penicillin?", "highest mountain", "the the the", "kettle water", "ובשבת מים",
           "nothing matches zzzz"]
SCOPES = [Scope(), Scope(frozenset({"Moon", "kettle"})), Scope(excluded=frozenset({"Penicillin"}))]


@pytest.fixture
def library(pg_db):
    library = PgLibrary.open(pg_db, FakeEmbedder())
    library.replace_documents(corpus.corpus_entries(WIKI_SAMPLE, FakeEmbedder(), 1200, 200))
    library.replace_documents([entry("kettle", ["A kettle boils water.", "The kettle whistles when the water boils."]),
                               entry("shabbat", ["בשבת אסור לבשל מים.", "ובשבת מותר לשתות מים קרים."])])
    return library


def assert_same(one, each):
    np.testing.assert_array_equal(one.keys, each.keys)
    np.testing.assert_allclose(one.bm25, each.bm25, atol=1e-6)
    np.testing.assert_allclose(one.dense, each.dense, atol=1e-5)
    assert one.bm25_max == pytest.approx(each.bm25_max, abs=1e-6)


@pytest.mark.parametrize("scope", SCOPES, ids=["all", "documents", "excluded"])
def test_one_statement_finds_what_each_question_finds(library, scope):
    view = library.current()
    for query in QUERIES:
        words, vector = Retriever.bm25_words(query), FakeEmbedder().embed_queries([query])[0]
        for w, v in ((words, vector), (words, None), (None, vector)):
            one = view.candidates(w, v, 7, scope)
            assert_same(one, composed(view, w, v, 7, scope))
            assert one.refs == view.refs_of(one.keys)  # read on the way, for the second look


def test_hnsw_settings_travel_with_the_statement(library, monkeypatch):
    import postgres.search as search

    monkeypatch.setattr(search, "HNSW_ABOVE", 3)
    view = library.current()
    view._size = (-1e9, 0)  # read the size again
    vector = FakeEmbedder().embed_queries(["kettle water"])[0]
    assert not view.exact(Scope())
    found = view.candidates(None, vector, 50, Scope())
    assert len(found.keys) == min(50, view.size())  # ef_search was raised: at 40 the index gives at most 40
    np.testing.assert_array_equal(np.sort(found.keys), np.sort(view.nearest(vector, 50, Scope())))


def test_a_hybrid_search_is_two_statements(library, monkeypatch):
    retriever = Retriever(library, FakeEmbedder())
    retriever.search("kettle water")  # reads the library's size once, for the choice of exact or HNSW search
    calls = []
    run = Database.run
    monkeypatch.setattr(Database, "run", lambda self, work, *a, **k: calls.append(k.get("pipelined")) or run(
        self, work, *a, **k))
    hits = retriever.search("Does the kettle whistle?", top_k=3)
    # a glossary word ("kettle"): which of its text words the library has, all in one; then the candidates with their
    # scores; then the shown passages with their neighbours
    assert calls == [True, True, True]
    assert hits[0].chunk.doc_id == "kettle" and hits[0].context_before == "A kettle boils water."
    calls.clear()
    assert retriever.search("Who discovered penicillin?", top_k=3)[0].chunk.doc_id == "Alexander_Fleming"
    assert calls == [True, True]  # no glossary word: the candidates, then the passages


def test_the_schema_reads_bm25_from_an_index_and_keeps_vectors_in_their_rows(pg_db):
    included = pg_db.execute("SELECT pg_get_indexdef('postings_pkey'::regclass)")[0][0]
    assert "INCLUDE (tf, length)" in included
    storage = pg_db.execute("SELECT attstorage FROM pg_attribute WHERE attrelid = 'chunks'::regclass "
                            "AND attname = 'embedding'")
    assert storage == [("m",)]


def test_skipping_common_words_leaves_out_only_the_terms_of_more_than_half_the_chunks(library):
    from postgres.search import PgView

    view, skipping = library.current(), PgView(library.db, (), skip_common=True)
    n = view.size()
    common = library.db.execute("SELECT term FROM terms WHERE 2 * df > %s ORDER BY df DESC LIMIT 1", (n,))[0][0]
    rare = library.db.execute("SELECT term FROM terms WHERE 2 * df <= %s ORDER BY df, term LIMIT 1", (n,))[0][0]
    keys = np.arange(1, 200, dtype=np.int64)
    alone = skipping.lexical([[common]], 50, Scope())
    assert alone.max == 0 and not len(alone.top)  # the common word scores nothing
    np.testing.assert_allclose(skipping.lexical([[common], [rare]], 50, Scope()).scores_of(keys),
                               view.lexical([[rare]], 50, Scope()).scores_of(keys), atol=1e-9)
    assert view.lexical([[common]], 50, Scope()).max > 0  # scored as the embedded engine scores it by default
