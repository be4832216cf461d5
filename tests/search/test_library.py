"""The library on disk: build, load, incremental changes, and refusal of a missing or mismatched library."""
import json

import numpy as np
import pytest

from builders import assert_view_matches_a_fresh_build, entry
from conftest import CORPUS, FakeEmbedder
from hebrew import analyzer
from hebrew.words import tokenize
from ingest import corpus
from retrieval import Retriever
from search import library
from search.bm25 import BM25
from search.embedders import E5_SA, EMBEDDERS


def test_build_then_load_gives_the_same_index(tmp_path):
    built = corpus.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200).view
    assert [c.id for c in built.chunks] == ["fleming#0", "everest#0", "photosynthesis#0", "rome#0"]
    loaded = library.load(tmp_path, FakeEmbedder()).view
    assert loaded.chunks == built.chunks and loaded.generation == built.generation == 1
    np.testing.assert_array_equal(loaded.bm25.scores(["penicillin"]), built.bm25.scores(["penicillin"]))
    assert loaded.index.ntotal == 4
    np.testing.assert_array_equal(loaded.index.reconstruct(int(loaded.labels[2])), built.index.reconstruct(int(built.labels[2])))
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["chunks"] == 4 and manifest["documents"] == 4 and manifest["embedding_model"] == "fake-embedder"
    assert manifest["analyzer"] == analyzer.version()


def test_missing_library_says_how_to_build_it(tmp_path):
    with pytest.raises(library.LibraryError, match="ingest-default"):
        library.load(tmp_path, FakeEmbedder())


def test_library_of_the_old_format_is_refused(tmp_path):
    (tmp_path / "chunks.jsonl").write_text("")
    with pytest.raises(library.LibraryError, match="old format.*ingest-default"):
        library.load(tmp_path, FakeEmbedder())


class OtherEmbedder(FakeEmbedder):
    name = "sentence-transformers/all-MiniLM-L6-v2"


def test_mismatched_embedding_model_is_refused(tmp_path):
    corpus.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    with pytest.raises(library.LibraryError, match="built with the embedding model fake-embedder.*ingest-default"):
        library.load(tmp_path, OtherEmbedder())


class Retrained(FakeEmbedder):
    revision = "b" * 12


def test_a_library_of_another_training_of_the_embedder_is_refused(tmp_path):
    corpus.build(CORPUS, Retrained(), tmp_path, 1200, 200)
    assert library.load(tmp_path, Retrained()).embedder.revision == "b" * 12
    with pytest.raises(library.LibraryError, match="another training of fake-embedder.*revision bbbb.*now None"):
        library.load(tmp_path, FakeEmbedder())
    corpus.build(CORPUS, FakeEmbedder(), tmp_path / "before", 1200, 200)  # built before revisions were recorded
    with pytest.raises(library.LibraryError, match="revision unrecorded, now bbbbbbbbbbbb.*build it again"):
        library.load(tmp_path / "before", Retrained())


def test_a_library_of_the_fitted_embedder_built_before_revisions_is_its_first_training(tmp_path):
    class Fitted(FakeEmbedder):
        name, revision = E5_SA, EMBEDDERS[E5_SA].unrecorded_revision

    corpus.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    (tmp_path / "manifest.json").write_text(json.dumps({**manifest, "embedding_model": E5_SA,
                                                        "embedding_revision": None}))
    assert library.load(tmp_path, Fitted()).embedder.revision == "0b35a97fb2e3"  # issue 20's layers: kept
    with pytest.raises(library.LibraryError, match="revision 0b35a97fb2e3, now cccc"):
        library.load(tmp_path, type("Retrained", (Fitted,), {"revision": "c" * 12})())


def test_adding_replacing_and_removing_documents_keeps_indexes_exact(tmp_path):
    lib = corpus.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    lib.replace_documents([entry("kettle", ["A kettle boils water on the stove.", "Tea needs hot water."])])
    assert_view_matches_a_fresh_build(lib)
    assert lib.store.document("kettle").chunk_count == 2
    lib.replace_documents([entry("kettle", ["An electric kettle boils water quickly."])])  # a changed file
    assert [c.id for c in lib.view.chunks if c.doc_id == "kettle"] == ["kettle#0"]
    assert_view_matches_a_fresh_build(lib)
    assert lib.delete_document("fleming") == 1 and lib.delete_document("fleming") == 0
    assert_view_matches_a_fresh_build(lib)
    hits = Retriever(lib, FakeEmbedder()).search("kettle boils water", top_k=2)
    assert hits[0].chunk.doc_id == "kettle" and hits[0].chunk.ref == "kettle 1:1"
    reopened = library.load(tmp_path, FakeEmbedder())  # the saved files are the edited view
    assert reopened.view.chunks == lib.view.chunks
    assert_view_matches_a_fresh_build(reopened)


def test_index_files_that_lag_behind_the_store_are_rebuilt_from_it(tmp_path):
    lib = corpus.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    lib.store.replace_documents([entry("kettle", ["A kettle boils water."])])  # committed, but no index saved:
    reopened = library.load(tmp_path, FakeEmbedder())  # as if the process died right after the commit
    assert "kettle#0" in [c.id for c in reopened.view.chunks]
    assert_view_matches_a_fresh_build(reopened)


def test_another_process_change_is_seen_by_current(tmp_path):
    first = corpus.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    second = library.load(tmp_path, FakeEmbedder())
    second.replace_documents([entry("kettle", ["A kettle boils water."])])
    assert "kettle#0" in [c.id for c in first.current().chunks]


def test_filters_and_neighbours(tmp_path):
    lib = corpus.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    lib.replace_documents([entry("kettle", ["A kettle boils water.", "Tea needs hot water.", "Coffee too."])])
    retriever = Retriever(lib, FakeEmbedder())
    only = retriever.search("water", top_k=5, filters={"document_ids": ["photosynthesis"]})
    assert {h.chunk.doc_id for h in only} == {"photosynthesis"}
    middle = next(h for h in retriever.search("Tea needs hot water", top_k=5) if h.chunk.id == "kettle#1")
    assert middle.context_before == "A kettle boils water." and middle.context_after == "Coffee too."


def test_large_libraries_get_an_hnsw_index_that_search_can_use(tmp_path, monkeypatch):
    monkeypatch.setattr(library, "HNSW_ABOVE", 3)  # the test corpus has 4 chunks
    lib = corpus.build(CORPUS, FakeEmbedder(), tmp_path, 1200, 200)
    assert json.loads((tmp_path / "manifest.json").read_text())["faiss_index"] == "IndexHNSWFlat"
    loaded = library.load(tmp_path, FakeEmbedder())
    import faiss
    assert faiss.downcast_index(loaded.view.index.index).hnsw.efSearch == library.HNSW_EF_SEARCH
    hits = Retriever(loaded, FakeEmbedder()).search("Who discovered penicillin?", mode="dense")
    assert hits[0].chunk.doc_id == "fleming" and hits[0].dense_score > 0
    lib.delete_document("fleming")  # HNSW cannot remove: rebuilt from the store
    assert lib.view.index.ntotal == 3


def test_small_libraries_keep_exact_search():
    import faiss
    assert type(faiss.downcast_index(library.make_index(8, library.HNSW_ABOVE).index)).__name__ == "IndexFlatIP"


class CountingEmbedder(FakeEmbedder):
    """The fake embedder, counting the texts it embeds."""

    def __init__(self):
        self.embedded = 0

    def embed(self, texts, batch_size=32, progress=False):
        self.embedded += len(texts)
        return super().embed(texts, batch_size, progress)


HEBREW_DOCS = [CORPUS[0].__class__("bayit", "הבית", "הבית הגדול עומד על ההר."),
               CORPUS[0].__class__("shabbat", "שבת", 'לפי השו"ע מותר לשתות מים שהוחמו מערב שבת.')]


def test_a_library_built_with_another_analysis_rebuilds_bm25_without_re_embedding(tmp_path):
    corpus.build(CORPUS + HEBREW_DOCS, FakeEmbedder(), tmp_path, 1200, 200)
    old = library.load(tmp_path, FakeEmbedder()).view  # make it look like a library of the plain tokenizer
    BM25.index([tokenize(c.passage_text) for c in old.chunks]).save(tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    del manifest["analyzer"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    assert BM25.load(tmp_path).scores(["בית"]).max() == 0  # the plain tokenizer kept הבית whole

    embedder = CountingEmbedder()
    reopened = library.load(tmp_path, embedder)
    assert embedder.embedded == 0  # the vectors are kept; only BM25 is rebuilt, from the stored chunk texts
    assert json.loads((tmp_path / "manifest.json").read_text())["analyzer"] == analyzer.version()
    assert_view_matches_a_fresh_build(reopened)
    hits = Retriever(reopened, embedder).search("והבית", top_k=1, mode="bm25")
    assert hits[0].chunk.doc_id == "bayit"
    hits = Retriever(reopened, embedder).search("שולחן ערוך", top_k=1, mode="bm25")
    assert hits[0].chunk.doc_id == "shabbat"
    np.testing.assert_array_equal(library.load(tmp_path, FakeEmbedder()).view.bm25.scores(["בית"]),
                                  reopened.view.bm25.scores(["בית"]))  # saved: the next open reads it as it is


@pytest.fixture
def fewer_prefix_forms(monkeypatch):
    """A later analysis (version "he-next") that keeps a word's prefix-less forms only when 3 letters remain."""
    monkeypatch.setattr(analyzer, "version", lambda: "he-next")
    monkeypatch.setattr(analyzer, "STEM_MIN", 3)
    analyzer.word_forms.cache_clear()
    yield
    monkeypatch.undo()
    analyzer.word_forms.cache_clear()


def test_a_new_analyzer_version_rebuilds_bm25(tmp_path, request):
    corpus.build(HEBREW_DOCS, FakeEmbedder(), tmp_path, 1200, 200)
    assert "הר" in library.load(tmp_path, FakeEmbedder()).view.bm25.vocab  # ההר without its article
    request.getfixturevalue("fewer_prefix_forms")
    reopened = library.load(tmp_path, FakeEmbedder())
    assert json.loads((tmp_path / "manifest.json").read_text())["analyzer"] == "he-next"
    assert "ההר" in reopened.view.bm25.vocab and "הר" not in reopened.view.bm25.vocab
