"""The second look over books with refs (SECTION_WEIGHT): a seif whose siman has other good candidates overtakes a
stray seif elsewhere, on both backends; passages without refs, one-stage modes and weight 0 are left alone."""
from dataclasses import replace

import numpy as np
import pytest

from app import DEFAULTS
from configuration.settings import Settings
from conftest import FakeClassifier, FakeEmbedder
from ingest import corpus
from models import Document
from pipeline import Pipeline
from postgres.library import PgLibrary
from retrieval import RetrievalConfig, Retriever
from search.library import Library

QUESTION = "may water be heated on shabbat"
SEIFIM = {  # the stray seif says the question's every word; the siman's seifim say most of them
    "Shulchan Arukh, Orach Chayim 511:2": "may water be heated on shabbat",
    "Shulchan Arukh, Orach Chayim 318:12": "water may be heated on shabbat where it cannot cook",
    "Shulchan Arukh, Orach Chayim 318:13": "water may not be heated on shabbat in a first vessel",
    "Shulchan Arukh, Orach Chayim 318:14": "water heated before shabbat may be kept hot",
    "Wiki_Water": "a kettle boils water on a stove in minutes",
}


def build(backend, embedder):
    docs = [Document(ref.replace(" ", "_"), "Shulchan Arukh", text) for ref, text in SEIFIM.items()]
    entries = corpus.corpus_entries(docs, embedder, 1200, 200)
    for (info, _, chunks, _, _), ref in zip(entries, SEIFIM):
        if ref.startswith("Shulchan"):
            chunks[:] = [replace(c, ref=ref) for c in chunks]
    library = (Library.open(backend.folder, embedder, create=True) if backend.db is None
               else PgLibrary.open(backend.db, embedder))
    library.replace_documents(entries)
    return library


def refs(hits):
    return [h.chunk.ref or h.chunk.doc_id for h in hits]


def test_a_seif_of_a_siman_with_other_good_candidates_comes_first_on_both_backends(backend):
    embedder = FakeEmbedder()
    library = build(backend, embedder)
    plain = Retriever(library, embedder).search(QUESTION, top_k=5)
    assert refs(plain)[0] == "Shulchan Arukh, Orach Chayim 511:2"
    looked = Retriever(library, embedder, config=RetrievalConfig(section_weight=0.5)).search(QUESTION, top_k=5)
    assert refs(looked)[0].startswith("Shulchan Arukh, Orach Chayim 318:")
    assert sorted(refs(looked)) == sorted(refs(plain))
    by_ref = {r: h.hybrid_score for r, h in zip(refs(looked), looked)}
    before = {r: h.hybrid_score for r, h in zip(refs(plain), plain)}
    assert by_ref["Wiki_Water"] == pytest.approx(before["Wiki_Water"])  # no ref: no section, no change
    assert by_ref["Shulchan Arukh, Orach Chayim 511:2"] == pytest.approx(
        before["Shulchan Arukh, Orach Chayim 511:2"] * (1 + 0.5 / 3))  # alone in its siman: its own best, 2 missing
    view = library.current()
    keys = np.array([h.position for h in looked])
    assert view.refs_of(keys) == [c.ref for c in view.chunks_of(keys)]  # what the look reads: the refs alone
    assert view.refs_of(keys).count(None) == 1
    for mode in ("bm25", "dense"):  # one stage's own score is left alone
        one = Retriever(library, embedder, config=RetrievalConfig(section_weight=0.5)).search(QUESTION, top_k=5, mode=mode)
        alone = Retriever(library, embedder).search(QUESTION, top_k=5, mode=mode)
        assert [(h.chunk.id, h.hybrid_score) for h in one] == [(h.chunk.id, h.hybrid_score) for h in alone]


@pytest.mark.parametrize("setting", [0, 0.5])
def test_pipeline_load_reads_section_weight(tmp_path, monkeypatch, setting):
    from pg import Backend
    from question import classifier

    monkeypatch.setattr(classifier.QueryClassifier, "load",
                        classmethod(lambda cls, path, runtime="torch": FakeClassifier()))
    library = build(Backend("embedded", tmp_path / "lib"), FakeEmbedder())
    config = {**DEFAULTS, "JUDGE_DIR": "", "GEMINI_API_KEY": "", "ANTHROPIC_API_KEY": "", "OPENAI_BASE_URL": "",
              "GENERATOR": "offline", "SECTION_WEIGHT": setting}
    assert Pipeline.load(Settings.of(config), library).retriever.config.section_weight == setting
    assert DEFAULTS["SECTION_WEIGHT"] == 0.5
