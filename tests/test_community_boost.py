"""The seeds' boosts (COMMUNITY_BOOST): after fusion, passages of the reader's community, of all communities and
of canonical texts move up, on both backends; with the boosts off, or ranked by one stage, nothing moves."""
from dataclasses import replace

import pytest

from accounts.roles import Reader
from app import DEFAULTS
from configuration.settings import Settings
from conftest import FakeClassifier, FakeEmbedder, make_pipeline
from ingest import corpus
from models import Chunk, Document
from pg import Backend
from pipeline import Pipeline
from postgres.library import PgLibrary
from retrieval import RetrievalConfig, Retriever, authority_boost
from search.library import Library

TEXT = "Water heated before Shabbat may be drunk on Shabbat."
# Five passages alike in every word, so only the boosts can order them; "ashkenazi" says so itself (as the
# Rema's gloss does), the others' documents say it for them.
DOCS = [Document(name, "Heating water", TEXT) for name in ("plain", "general", "canonical", "sephardi", "ashkenazi")]
DOCUMENT_SAYS = {"general": {"community": "General"}, "canonical": {"tier": "canonical"},
                 "sephardi": {"community": "Sephardi"}}


def build(backend, embedder):
    """DOCS in a library of the backend, each with its community or tier."""
    entries = corpus.corpus_entries(DOCS, embedder, 1200, 200)
    for info, _, chunks, _, _ in entries:
        for name, value in DOCUMENT_SAYS.get(info.id, {}).items():
            setattr(info, name, value)
        if info.id == "ashkenazi":
            chunks[:] = [replace(c, community="Ashkenazi") for c in chunks]
    library = (Library.open(backend.folder, embedder, create=True) if backend.db is None
               else PgLibrary.open(backend.db, embedder))
    library.replace_documents(entries)
    return library


@pytest.mark.parametrize("chunk, community, boost", [
    (Chunk("a", "a", "t", "x", 0, 1, community="Ashkenazi"), "Ashkenazi", 0.15),
    (Chunk("a", "a", "t", "x", 0, 1, community="Ashkenazi"), "Sephardi", 0.0),
    (Chunk("a", "a", "t", "x", 0, 1, community="Ashkenazi"), None, 0.0),
    (Chunk("a", "a", "t", "x", 0, 1, community="General"), "Sephardi", 0.05),
    (Chunk("a", "a", "t", "x", 0, 1, tier="canonical", authority_weight=1.0), None, 0.10),
    (Chunk("a", "a", "t", "x", 0, 1, community="Sephardi", tier="canonical", authority_weight=1.0), "Sephardi", 0.25),
    (Chunk("a", "a", "t", "x", 0, 1, tier="public"), "Sephardi", 0.0),
    (None, "Sephardi", 0.0),  # removed since it was found
])
def test_authority_boost_is_the_seeds(chunk, community, boost):
    assert authority_boost(chunk, community) == pytest.approx(boost)


@pytest.mark.parametrize("community, first", [
    ("Ashkenazi", ["ashkenazi", "canonical", "general"]),
    ("Sephardi", ["sephardi", "canonical", "general"]),
    (None, ["canonical", "general"]),
])
def test_the_boosts_order_alike_passages_on_both_backends(backend, community, first):
    embedder = FakeEmbedder()
    library = build(backend, embedder)
    hits = Retriever(library, embedder, config=RetrievalConfig(community_boost=True)).search(
        "May heated water be drunk on Shabbat?", top_k=5, community=community)
    ranked = [h.chunk.doc_id for h in hits]
    assert ranked[:len(first)] == first and sorted(ranked) == sorted(d.id for d in DOCS)
    score = {h.chunk.doc_id: h.hybrid_score for h in hits}
    assert score[first[-1]] - score["plain"] == pytest.approx(0.05, abs=1e-5)  # the boost is in the fused score
    assert hits[0].chunk.community == (community if community else None)
    assert {h.chunk.doc_id: h.chunk.tier for h in hits}["canonical"] == "canonical"


def test_without_the_boosts_or_in_one_stage_nothing_moves(backend):
    embedder = FakeEmbedder()
    library = build(backend, embedder)
    plain = Retriever(library, embedder).search("May heated water be drunk on Shabbat?", top_k=5, community="Ashkenazi")
    assert max(h.hybrid_score for h in plain) == pytest.approx(min(h.hybrid_score for h in plain), abs=1e-5)
    boosted = Retriever(library, embedder, config=RetrievalConfig(community_boost=True))
    for mode in ("bm25", "dense"):  # ranked by one stage's score, which the boosts leave alone
        hits = boosted.search("May heated water be drunk on Shabbat?", top_k=5, mode=mode, community="Ashkenazi")
        alone = Retriever(library, embedder).search("May heated water be drunk on Shabbat?", top_k=5, mode=mode)
        assert [(h.chunk.id, h.hybrid_score) for h in hits] == [(h.chunk.id, h.hybrid_score) for h in alone]
    assert len(hits) == 5


def test_the_pipeline_searches_for_the_readers_community(tmp_path):
    embedder = FakeEmbedder()
    library = build(Backend("embedded", tmp_path / "lib"), embedder)
    pipeline = make_pipeline()
    pipeline.retriever = Retriever(library, embedder, config=RetrievalConfig(community_boost=True))
    reader = Reader(7, "dina", "learner", frozenset({"canonical", "public"}), profile={"community": "Sephardi"})
    asked = pipeline.ask("May heated water be drunk on Shabbat?", top_k=3, reader=reader)
    assert [h.chunk.doc_id for h in asked.evidence.hits] == ["sephardi", "canonical", "general"]
    anonymous = pipeline.ask("May heated water be drunk on Shabbat?", top_k=2)
    assert [h.chunk.doc_id for h in anonymous.evidence.hits] == ["canonical", "general"]


@pytest.mark.parametrize("setting", [False, True])
def test_pipeline_load_reads_community_boost(tmp_path, monkeypatch, setting):
    from question import classifier

    monkeypatch.setattr(classifier.QueryClassifier, "load",
                        classmethod(lambda cls, path, runtime="torch": FakeClassifier()))
    library = build(Backend("embedded", tmp_path / "lib"), FakeEmbedder())
    config = {**DEFAULTS, "JUDGE_DIR": "", "GEMINI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "",
              "GENERATOR": "offline", "COMMUNITY_BOOST": setting}
    assert Pipeline.load(Settings.of(config), library).retriever.config.community_boost is setting
