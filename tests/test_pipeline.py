"""The orchestration of a question: classify, retrieve (once more for a weak reasoning question), write, time.

Real BM25 and FAISS over the four-document corpus; the classifier, embedder and writer are fakes.
"""
from conftest import make_pipeline


def test_a_reasoning_question_with_weak_evidence_gets_one_follow_up_retrieval():
    pipeline = make_pipeline(label="reasoning")
    searches = []
    search = pipeline.retriever.search
    pipeline.retriever.search = lambda query, *a, **kw: searches.append(query) or search(query, *a, **kw)
    result = pipeline.ask("Why was Rome an empire and photosynthesis xylophones?", top_k=4)
    assert len(searches) == 2 and result.evidence.followup == {"query": "xylophones", "added": 0}
    searches.clear()
    result = pipeline.ask("Why was Rome founded around the Mediterranean?", top_k=2)
    assert len(searches) == 1 and result.evidence.followup is None  # every word was found: no second search


def test_follow_up_retrieval_adds_passages_for_the_missing_part():
    pipeline = make_pipeline(label="reasoning")
    result = pipeline.ask("Why does photosynthesis matter for Everest climbers?", top_k=1)
    follow = result.evidence.followup
    assert follow and follow["added"] >= 1 and len(result.evidence.hits) == 1 + follow["added"]


def test_language_follows_the_question_unless_set():
    pipeline = make_pipeline()
    assert pipeline.ask("מי גילה את הפניצילין?").question.language == "he"
    assert pipeline.ask("Who discovered penicillin?", language="he").question.language == "he"
    assert pipeline.ask("Who discovered penicillin?").question.language == "en"
