"""Reciprocal rank fusion (FUSION=rrf) beside the weighted fusion: ranks, scale, and the setting read end to end."""
import numpy as np
import pytest

from conftest import make_retriever
from retrieval import RetrievalConfig, rrf


def test_rrf_adds_the_reciprocal_of_each_rank_and_scales_first_in_both_to_one():
    dense, bm25 = np.array([0.9, 0.5, 0.1]), np.array([2.0, 7.0, 1.0])
    fused = rrf(dense, bm25, 60)
    expected = (np.array([1 / 61 + 1 / 62, 1 / 62 + 1 / 61, 1 / 63 + 1 / 63])) * 61 / 2
    assert np.allclose(fused, expected)
    assert rrf(np.array([1.0, 0.0]), np.array([1.0, 0.0]), 60)[0] == pytest.approx(1.0)


def test_rrf_ranks_by_agreement_not_by_the_scale_of_scores():
    # weighted fusion lets one huge BM25 score win; rank fusion prefers the candidate both rank high
    dense, bm25 = np.array([0.80, 0.79, 0.10]), np.array([1.0, 0.9, 100.0])
    assert int(np.argmax(rrf(dense, bm25, 60))) in (0, 1)


def test_a_retriever_with_rrf_orders_by_rank_fusion():
    weighted = make_retriever()
    fused = make_retriever()
    fused.config = RetrievalConfig(fusion="rrf")
    a = weighted.search("Who discovered penicillin?", 4)
    b = fused.search("Who discovered penicillin?", 4)
    assert a[0].chunk.id == b[0].chunk.id == "fleming#0"
    assert 0 < b[0].score <= 1.0 and [h.score for h in b] == sorted((h.score for h in b), reverse=True)
