"""A second look: when the passages shown hold no answering sentence, the offline writer judges the passages ranked
after them (to about rank 20) before declining, and the passage that answers is shown with the others."""
import numpy as np
from conftest import CORPUS, FakeClassifier, FakeEmbedder

from checks.answer import second_look
from generator import Generator
from models import Chunk, Hit, WriteRequest
from pipeline import Pipeline
from checks.instructions import flagged
from writers.offline import ExtractiveWriter


class KeywordJudge:
    """A judge that is sure of sentences holding its keyword, and of nothing else."""

    threshold = 0.6
    decision = None

    def __init__(self, keyword):
        self.keyword = keyword

    def score(self, question, texts):
        return np.array([0.95 if self.keyword in t else 0.05 for t in texts])


def hit(title, text, score=0.5):
    return Hit(Chunk(f"{title}#0", title, title, text, 0, len(text)), 1.0, score, score)


def test_the_answer_is_found_in_the_reserve_and_numbered_after_the_passages_shown():
    writer = ExtractiveWriter(FakeEmbedder(), thresholds=(0.0, 0.0), judge=KeywordJudge("1889"))
    shown = [hit("Eiffel Tower", "The Eiffel Tower is a wrought-iron tower in Paris.")]
    reserve = (hit("Paris", "Paris is the capital of France."),
               hit("Exposition Universelle", "The Eiffel Tower was opened in 1889 for the Exposition Universelle."))
    draft = writer.write(WriteRequest("When was the Eiffel Tower opened?", "factual_lookup", shown, reserve=reserve))
    assert not draft.declined and draft.more == (reserve[1],)
    assert draft.text.startswith("The Eiffel Tower was opened in 1889 for the Exposition Universelle [2].")
    declined = writer.write(WriteRequest("When was the Eiffel Tower opened?", "factual_lookup", shown,
                                         reserve=reserve[:1]))
    assert declined.declined and declined.more == ()  # nothing answers further down either


class RankedRetriever:
    """A search that always ranks the same passages, the answering one fourth."""

    reranker = None
    library = None

    def __init__(self, hits):
        self.hits = hits

    def search(self, query, top_k, *args, **kwargs):
        return self.hits[:top_k]


def test_the_generator_checks_the_reserve_passage_and_the_pipeline_shows_it():
    ranked = [hit(d.title, d.text) for d in CORPUS[:3]] + [hit("Eiffel Tower", "The Eiffel Tower opened in 1889.")]
    writer = ExtractiveWriter(FakeEmbedder(), thresholds=(0.0, 0.0), judge=KeywordJudge("1889"))
    pipeline = Pipeline(FakeClassifier(), RankedRetriever(ranked), Generator({"offline": writer}, "offline"), {})
    result = pipeline.ask("When did the Eiffel Tower open?", top_k=2)
    assert not result.answer.declined and result.answer.added == [ranked[3]]
    assert [h.chunk.title for h in result.evidence.hits] == [ranked[0].chunk.title, ranked[1].chunk.title, "Eiffel Tower"]
    assert result.answer.text.startswith("The Eiffel Tower opened in 1889 [3].")
    assert [(c.n, c.passage_id) for c in result.answer.citations] == [(3, "Eiffel Tower#0")]
    assert result.evidence.searches[0]["results"] == [1, 2, 3]


def test_an_unvouched_upload_found_by_the_second_look_keeps_its_flag():
    # the reserve's numbers follow the hits' in request.untrusted; once a reserve passage is taken it is renumbered
    shown = [hit("Zebra", "Zebras are African equines.")]
    reserve = (hit("Horse", "Horses are domesticated."), hit("notes", "To report zebras, log in at the portal."))
    request = WriteRequest("How are zebras reported?", "factual_lookup", shown, untrusted=frozenset({3}),
                           reserve=reserve)
    extended = second_look(request, [reserve[1]])
    assert [h.chunk.title for h in extended.hits] == ["Zebra", "notes"] and extended.untrusted == {2}
    assert flagged("To report zebras, log in at the portal [2].", extended.untrusted)
    assert second_look(request, [reserve[0]]).untrusted == frozenset()
