"""Hybrid retrieval: the fusion formula, exact ranks on small English and Hebrew corpora, and the rerank stage."""
import faiss
import numpy as np
import pytest

from conftest import CORPUS, FakeEmbedder, make_retriever
from measuring.libraries import FixedLibrary
from hebrew.glossary import query_words
from ingest.corpus import chunk_documents
from models import Document
from retrieval import Retriever, fuse
from search.library import View, index_bm25
from search.reranker import Reranker


def test_fuse_is_the_design_formula():
    dense = np.array([0.5, 0.9, 0.1])
    bm25 = np.array([10.0, 0.0, 5.0])
    np.testing.assert_allclose(fuse(dense, bm25, 10.0, 0.6), [0.6 * 0.5 + 0.4 * 1.0, 0.6 * 0.9, 0.6 * 0.1 + 0.4 * 0.5])


def test_fuse_without_any_bm25_match_uses_dense_only():
    np.testing.assert_allclose(fuse(np.array([0.2, 0.4]), np.zeros(2), 0.0, 0.6), [0.12, 0.24])


@pytest.mark.parametrize(
    "query, first",
    [
        ("Who discovered penicillin?", "fleming"),
        ("highest mountain on Earth", "everest"),
        ("how do plants make oxygen from light", "photosynthesis"),
        ("When was Rome founded?", "rome"),
    ],
)
def test_right_passage_ranks_first(query, first):
    hits = make_retriever().search(query, top_k=4)
    assert hits[0].chunk.doc_id == first
    assert [h.hybrid_score for h in hits] == sorted((h.hybrid_score for h in hits), reverse=True)


def test_hits_carry_every_stage_score():
    retriever = make_retriever()
    timings = {}
    hit = retriever.search("Who discovered penicillin?", top_k=1, timings=timings)[0]
    bm25_all = retriever.library.current().bm25.scores(["who", "discovered", "penicillin"])
    assert hit.bm25_score == pytest.approx(bm25_all.max())
    alpha = retriever.config.alpha
    assert hit.hybrid_score == pytest.approx(alpha * hit.dense_score + (1 - alpha) * 1.0)
    assert hit.ce_score is None and hit.score == hit.hybrid_score
    assert set(timings) == {"embed_query", "search", "fusion"}


def test_top_k_and_candidates_bound_the_result():
    retriever = make_retriever()
    assert len(retriever.search("Rome", top_k=2)) == 2
    assert len(retriever.search("Rome", top_k=10)) == len(CORPUS)  # the dense side reaches every chunk


class ReverseReranker:
    """Prefers the passage the fusion liked least."""

    name = "reverse"
    languages = ("en",)

    def __init__(self):
        self.seen = []

    def score(self, query, passages):
        self.seen = passages
        return -np.arange(len(passages), dtype=float)[::-1]


def test_rerank_stage_reorders_the_fused_candidates():
    reranker = ReverseReranker()
    retriever = make_retriever(reranker=reranker)
    plain = make_retriever().search("Who discovered penicillin?", top_k=4)
    reranked = retriever.search("Who discovered penicillin?", top_k=4)
    assert len(reranker.seen) == 4  # every fused candidate, up to the rerank depth
    assert [h.chunk.id for h in reranked] == [h.chunk.id for h in plain][::-1]
    assert all(h.ce_score is not None and h.score == h.ce_score for h in reranked)


@pytest.fixture(scope="module")
def tiny_cross_encoder(tiny_bert, tmp_path_factory):
    """A real, untrained cross-encoder on the tiny BERT, saved as sentence-transformers saves one."""
    from sentence_transformers import CrossEncoder

    folder = tmp_path_factory.mktemp("tiny-ce")
    CrossEncoder(tiny_bert, num_labels=1, device="cpu").save(str(folder))
    return folder


def test_real_cross_encoder_loads_by_path_and_scores_pairs(tiny_cross_encoder):
    reranker = Reranker.load(str(tiny_cross_encoder))
    scores = reranker.score("Who discovered penicillin?", ["Fleming discovered penicillin.", "Everest is high."])
    assert scores.shape == (2,) and np.all(np.isfinite(scores)) and scores[0] != scores[1]
    direct = reranker.model.predict([("Who discovered penicillin?", "Everest is high.")])
    assert scores[1] == pytest.approx(float(np.ravel(direct)[0]), abs=1e-5)
    hits = make_retriever(reranker=reranker).search("Who discovered penicillin?", top_k=3)
    assert [h.ce_score for h in hits] == sorted((h.ce_score for h in hits), reverse=True)


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_each_mode_ranks_by_its_own_score(mode):
    hits = make_retriever().search("Rome was founded in Italy by tradition", top_k=4, mode=mode)
    key = {"bm25": "bm25_score", "dense": "dense_score", "hybrid": "hybrid_score"}[mode]
    scores = [getattr(h, key) for h in hits]
    assert scores == sorted(scores, reverse=True) and hits[0].chunk.doc_id == "rome"
    if mode == "bm25":
        assert all(h.dense_score == 0 for h in hits)  # the dense stage was skipped


def test_rerank_mode_without_a_cross_encoder_is_refused():
    with pytest.raises(ValueError, match="RERANKER_MODEL"):
        make_retriever().search("Rome", mode="rerank")


SEIFIM = [
    Document("oc-253", "הלכות שבת", "כירה שהסיקוה בגפת או בעצים, אין משהין עליה תבשיל בשבת אלא אם כן גרופה או קטומה."),
    Document("oc-318", "הלכות שבת", "הַמְבַשֵּׁל בַּשַּׁבָּת חייב. מים שהוחמו מערב שבת מותר לשתותם."),
    Document("oc-1", "הלכות השכמת הבוקר", "יתגבר כארי לעמוד בבוקר לעבודת בוראו, שיהא הוא מעורר השחר."),
    Document("oc-90", "הלכות תפילה", 'ישתדל אדם להתפלל בביהכ"נ עם הציבור, ולא יתפלל ביחידות.'),
]


def make_hebrew_retriever():
    """A Retriever over SEIFIM whose BM25 is built as the library builds it (analysed text)."""
    embedder = FakeEmbedder()
    chunks = chunk_documents(SEIFIM, 1200, 200)
    index = faiss.IndexFlatIP(embedder.dim)
    index.add(embedder.embed([c.passage_text for c in chunks]))
    return Retriever(FixedLibrary(View.of(chunks, index_bm25(chunks), index)), embedder)


@pytest.mark.parametrize(
    "query, first",
    [
        ("האם מותר לחמם מים בשבת?", "oc-318"),
        ("מה אומר השולחן ערוך על תפילה בבית הכנסת?", "oc-90"),  # ביהכ"נ written out, with prefixes
        ("מה הדין במבשל?", "oc-318"),  # vowel points in the passage, another prefix in the query
        ("Shulchan Arukh: לעמוד בבוקר", "oc-1"),  # mixed Hebrew and English
        ("והכירה", "oc-253"),
    ],
)
def test_hebrew_queries_are_analysed_like_the_passages(query, first):
    retriever = make_hebrew_retriever()
    hits = retriever.search(query, top_k=4, mode="bm25")
    assert hits[0].chunk.doc_id == first
    bm25_all = retriever.library.current().bm25.scores_any(query_words(query))  # the glossary's words too
    assert bm25_all.max() > 0 and hits[0].bm25_score == pytest.approx(bm25_all.max())


def test_hebrew_query_in_hybrid_mode_keeps_the_bm25_winner():
    hits = make_hebrew_retriever().search("ישתדל להתפלל בבית הכנסת", top_k=2)
    assert hits[0].chunk.doc_id == "oc-90" and hits[0].bm25_score > hits[1].bm25_score


def test_hebrew_queries_fuse_with_their_own_weight_and_skip_the_reranker():
    retriever = make_hebrew_retriever()
    retriever.reranker = ReverseReranker()
    retriever.config.alpha, retriever.config.alpha_he = 0.9, 0.2
    [hit] = retriever.search("האם מותר לחמם מים בשבת?", top_k=1)
    assert hit.hybrid_score == pytest.approx(0.2 * hit.dense_score + 0.8 * hit.bm25_score / hit.bm25_score)
    assert hit.ce_score is None and retriever.reranker.seen == []  # no cross-encoder reads Hebrew here
    [english] = retriever.search("Shulchan Arukh", top_k=1)
    assert english.ce_score is not None  # other queries are re-ranked and fused with alpha


def test_a_cross_encoder_trained_to_read_hebrew_re_ranks_hebrew_queries():
    retriever = make_hebrew_retriever()
    retriever.reranker = ReverseReranker()
    retriever.reranker.languages = ("he", "en")  # as train-lay-reranker's card says
    hits = retriever.search("ישתדל להתפלל בבית הכנסת", top_k=2)
    assert hits[0].ce_score is not None and retriever.reranker.seen
    assert hits[0].ce_score >= hits[1].ce_score



def test_a_giant_passage_reaches_answering_cut_to_max_passage_read():
    import faiss

    from conftest import CORPUS, FakeEmbedder
    from measuring.libraries import FixedLibrary
    from ingest.corpus import chunk_documents
    from models import MAX_PASSAGE_READ, Chunk
    from search.library import View, index_bm25

    text = "Penicillin " + "x" * (3 * MAX_PASSAGE_READ)  # stored before uploads were cut to size
    chunks = chunk_documents(CORPUS, 1200, 200) + [Chunk("giant#0", "giant", "Penicillin notes", text, 0, len(text)),
                                                    Chunk("giant#1", "giant", "Penicillin notes", text, 0, len(text))]
    embedder = FakeEmbedder()
    index = faiss.IndexFlatIP(embedder.dim)
    index.add(embedder.embed([c.passage_text for c in chunks]))
    retriever = Retriever(FixedLibrary(View.of(chunks, index_bm25(chunks), index)), embedder)
    hits = retriever.search("penicillin notes", 5)
    found = next(h for h in hits if h.chunk.doc_id == "giant")
    assert len(found.chunk.text) == MAX_PASSAGE_READ and found.chunk.end == found.chunk.start + MAX_PASSAGE_READ
    assert len(found.context_after or found.context_before) == MAX_PASSAGE_READ  # its neighbour is cut too
