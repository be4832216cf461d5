"""What only evaluation asks of retrieval: documents left out, the plain baseline, and caches built whole or not at all."""
import json
from pathlib import Path

import pytest

from conftest import CORPUS, FakeEmbedder, make_retriever
from measuring import libraries
from measuring.datasets import judged_id
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


SHARED_SA = Path(__file__).resolve().parents[3] / "shared" / "data" / "shulchan-arukh" / "shulchan_arukh_he.jsonl"


@pytest.mark.skipif(not SHARED_SA.exists(), reason="../shared/data/shulchan-arukh is not beside the project")
def test_in_a_book_the_excluded_seifim_are_left_out_with_their_glosses(tmp_path):
    records = [line for line in SHARED_SA.read_text(encoding="utf-8").splitlines()
               if json.loads(line)["part"] == "Orach Chayim" and json.loads(line)["siman"] in (253, 318)]
    (book := tmp_path / "sa.jsonl").write_text("\n".join(records), encoding="utf-8")
    searched = libraries.ingested_library(book, FakeEmbedder(), tmp_path / "cache")
    retriever = libraries.EvalRetriever(searched, FakeEmbedder())
    question = "מותר לחמם מים בשבת על הכירה"
    first = retriever.search(question, top_k=10)
    gold = judged_id(first[0].chunk.doc_id, first[0].chunk.ref)
    with retriever.excluding(frozenset({gold})):
        left = retriever.search(question, top_k=10)
    assert left and gold not in {judged_id(h.chunk.doc_id, h.chunk.ref) for h in left}
    assert {h.chunk.doc_id for h in left} == {first[0].chunk.doc_id}  # the book itself is still searched
    again = retriever.search(question, top_k=1)[0].chunk  # afterwards nothing is left out
    assert judged_id(again.doc_id, again.ref) == gold
