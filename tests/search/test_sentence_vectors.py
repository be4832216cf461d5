"""Passage sentences' kept vectors, on both backends: a question over warm passages embeds only itself; what is
computed is kept once and read back the same; a claim is looked up but never kept; the worker's warming walks the
library once, and again only after a job changed it."""
import numpy as np
from conftest import CORPUS, FakeClassifier, FakeEmbedder
from generator import Generator
from ingest.jobs import Ingestor
from ingest.warming import Warmer
from pg import Backend, backend  # noqa: F401 - the fixture
from pipeline import Pipeline
from retrieval import Retriever
from search.sentence_vectors import SentenceVectors, SqliteTable
from writers.offline import ExtractiveWriter
from checks.sentences import forms
from checks.verify import Verifier

BOOK = ("Kettles\n\nA kettle boils water for tea. Copper kettles were made in Birmingham in 1790. "
        "Electric kettles switch off when the water boils.")


class CountingEmbedder(FakeEmbedder):
    """The fake embedder, counting the passage texts it was asked to embed."""

    def __init__(self):
        self.texts = []

    def embed(self, texts, batch_size=32, progress=False):
        self.texts += list(texts)
        return super().embed(texts, batch_size, progress)


def ask(library, embedder, question="When did Alexander Fleming discover penicillin?"):
    """The offline writer and the citation check over library, as Pipeline.load wires them."""
    kept = library.sentences
    generator = Generator({"offline": ExtractiveWriter(kept, thresholds=(0.0, 0.0))}, "offline", verifier=Verifier(kept))
    return Pipeline(FakeClassifier(), Retriever(library, embedder), generator, {}, store=library.store,
                    relations=library.relations).ask(question, top_k=3)


def test_a_question_over_warm_passages_embeds_only_itself(backend):  # noqa: F811
    embedder = CountingEmbedder()
    library = backend.build(CORPUS, embedder)
    embedder.texts = []
    cold = ask(library, embedder)
    assert len(embedder.texts) >= 6  # every sentence of the passages shown, each under its heading, and the claims
    Warmer(library, forms).step()  # the whole test library is one page

    embedder.texts = []
    warm = ask(library, embedder)
    assert embedder.texts == []  # the question went to embed_queries; no passage sentence was embedded again
    assert warm.answer.text == cold.answer.text and not warm.answer.declined
    assert [(c.support, c.verified) for c in warm.answer.citations] == [(c.support, c.verified) for c in cold.answer.citations]
    assert all(c.verified for c in warm.answer.citations)


def test_what_is_computed_is_kept_once_and_read_back_the_same(backend):  # noqa: F811
    embedder = CountingEmbedder()
    library = backend.build(CORPUS[:1], embedder)
    kept, texts = library.sentences, ["Copper kettles were made in 1790.", "Tea is brewed.", "Tea is brewed."]
    before = kept.table.count()
    first = kept.embed(texts)
    assert kept.table.count() == before + 2 and np.allclose(first, embedder.embed(texts))
    embedder.texts = []
    assert np.array_equal(kept.embed(texts), first) and embedder.texts == []
    kept.embed(["A claim a hosted model wrote."], keep=False)
    assert kept.table.count() == before + 2  # a claim is looked up, never kept


def test_the_background_pass_repairs_a_library_built_cold_and_a_job_warms_its_own(tmp_path):
    embedder = CountingEmbedder()
    library = Backend("embedded", tmp_path / "lib").build(CORPUS, embedder)  # built cold, as before builds warmed
    ingestor = Ingestor(library, warmer=Warmer(library, forms))
    embedder.texts = []
    assert ingestor.warmer.state == "checking"  # a pass is owed: it has found nothing cold yet
    assert ingestor.warmer.step() > 0 and ingestor.warmer.state == "repairing"
    while ingestor.warmer.step():
        pass
    assert ingestor.warmer.state == "warm"
    warmed = len(embedder.texts)
    assert warmed > 0 and ingestor.warmer.warmed == library.store.stats()["chunks"]
    assert ingestor.warmer.step() == 0 and len(embedder.texts) == warmed  # nothing owed until the library changes

    embedder.texts = []
    job = ingestor.submit_file(BOOK.encode(), "kettles.txt", {})
    ingestor.run_pending()
    assert library.store.job(job.id).status == "done"
    assert any("ettle" in t for t in embedder.texts)  # the job warmed its own passages' sentences
    embedder.texts = []
    assert ingestor.warmer.state == "checking"  # the library's generation moved: the pass walks it again ...
    while ingestor.warmer.step():
        pass
    assert ingestor.warmer.state == "warm" and embedder.texts == []  # ... and finds nothing cold
    assert ask(library, embedder, "Where were copper kettles made in 1790?").answer.citations
    assert embedder.texts == []  # the upload's first question embeds only itself


def test_a_library_warmed_when_built_answers_its_first_question_embedding_only_itself(backend):  # noqa: F811
    embedder = CountingEmbedder()
    library = backend.build(CORPUS, embedder)
    warmer = Warmer(library, forms)
    assert warmer.warm_library() == library.store.stats()["chunks"]  # the build's last step
    embedder.texts = []
    answer = ask(library, embedder).answer
    assert not answer.declined and answer.citations and embedder.texts == []
    assert warmer.state == "warm" and warmer.step() == 0  # the background pass owes nothing


def test_vectors_are_kept_per_model_and_survive_a_reopen(tmp_path):
    table_path = tmp_path / "sentences.sqlite3"
    one = SentenceVectors(FakeEmbedder(), SqliteTable(table_path))
    one.embed(["The Rhine flows north."])

    other = CountingEmbedder()
    other.name = "another-embedder"
    SentenceVectors(other, SqliteTable(table_path)).embed(["The Rhine flows north."])
    assert other.texts == ["The Rhine flows north."]  # another model's vector is not this one's
    again = CountingEmbedder()
    assert np.allclose(SentenceVectors(again, SqliteTable(table_path)).embed(["The Rhine flows north."]),
                       FakeEmbedder().embed(["The Rhine flows north."])) and again.texts == []


def test_the_real_embedders_kept_vectors_are_its_own(tmp_path, real_embedder):
    kept = SentenceVectors(real_embedder, SqliteTable(tmp_path / "sentences.sqlite3"))
    texts = ["Alexander Fleming: He discovered penicillin in 1928.", "Canberra is the capital of Australia."]
    first = kept.embed(texts)
    assert np.allclose(kept.embed(texts[::-1]), first[::-1], atol=1e-6)
    assert np.allclose(first, real_embedder.embed(texts), atol=1e-5)
