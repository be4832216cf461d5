"""What only evaluation asks of retrieval: documents left out, the plain baseline, and caches built whole or not at all."""
import pytest

from conftest import CORPUS, FakeEmbedder, make_retriever
from measuring import libraries
from ingest import corpus


def test_excluded_documents_are_never_returned():
    retriever = libraries.EvalRetriever.of(make_retriever())
    with retriever.excluding(frozenset({"fleming"})):
        hits = retriever.search("Who discovered penicillin?", top_k=4)
    assert hits and "fleming" not in {h.chunk.doc_id for h in hits}
    assert retriever.search("Who discovered penicillin?", top_k=1)[0].chunk.doc_id == "fleming"


def test_the_plain_baseline_searches_plain_words_without_the_glossary():
    baseline = libraries.plain_baseline(make_retriever())
    assert baseline.bm25_words("Who discovered penicillin?") == [["who"], ["discovered"], ["penicillin"]]
    assert baseline.dense_text("hot plate on Shabbat", {"כירה"}) == "hot plate on Shabbat"
    assert baseline.search("penicillin", top_k=1)[0].chunk.doc_id == "fleming"


def test_a_cache_build_cut_short_leaves_nothing_that_opens(tmp_path, monkeypatch):
    real_build = corpus.build

    def dies_after_the_first_document(docs, embedder, folder, *args, **kwargs):
        real_build(docs[:1], embedder, folder, *args, **kwargs)
        raise KeyboardInterrupt  # as if the process were stopped mid-build

    monkeypatch.setattr(corpus, "build", dies_after_the_first_document)
    with pytest.raises(KeyboardInterrupt):
        libraries.cached_library(CORPUS, FakeEmbedder(), 1200, 200, tmp_path)
    assert not any(p.name.startswith(".") is False for p in tmp_path.iterdir())  # no half library under its key
    monkeypatch.setattr(corpus, "build", real_build)
    whole = libraries.cached_library(CORPUS, FakeEmbedder(), 1200, 200, tmp_path)
    assert len(whole.current().chunks) == len(CORPUS)
