"""Metrics against cases computed by hand."""
import math

import pytest

from measuring.metrics import contains_gold, f1_score, mrr_at_k, ndcg_at_k, normalize_answer, percentile, recall_at_k


def test_ndcg_binary():
    # relevant a and c at ranks 1 and 3: DCG = 1 + 1/log2(4) = 1.5; ideal = 1 + 1/log2(3)
    assert ndcg_at_k(["a", "b", "c"], {"a": 1, "c": 1}) == pytest.approx(1.5 / (1 + 1 / math.log2(3)))


def test_ndcg_graded():
    # grades 2 at rank 2, 1 at rank 1: DCG = 1 + 2/log2(3); ideal order 2 then 1: 2 + 1/log2(3)
    assert ndcg_at_k(["x", "y"], {"x": 1, "y": 2}) == pytest.approx((1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3)))


def test_ndcg_cut_and_empty_cases():
    assert ndcg_at_k(["b", "a"], {"a": 1}, k=1) == 0.0
    assert ndcg_at_k(["a"], {"a": 1}) == 1.0
    assert ndcg_at_k(["a"], {"a": 0}) == 0.0  # judged, but not relevant
    assert ndcg_at_k([], {"a": 1}) == 0.0


def test_recall_and_mrr():
    qrels = {"a": 1, "b": 1, "c": 0}
    assert recall_at_k(["c", "a", "x"], qrels, 2) == 0.5
    assert recall_at_k(["c", "a", "b"], qrels, 3) == 1.0
    assert mrr_at_k(["c", "x", "b"], qrels) == pytest.approx(1 / 3)
    assert mrr_at_k(["c", "x", "b"], qrels, k=2) == 0.0


def test_percentile_interpolates():
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile([10], 95) == 10
    assert percentile(list(range(1, 101)), 95) == pytest.approx(95.05)


def test_squad_normalisation_and_matching():
    assert normalize_answer("The  Denver Broncos!") == "denver broncos"
    assert contains_gold("It was won by the Denver Broncos [1].", ["Denver Broncos"])
    assert not contains_gold("Broncos-ish", ["Denver Broncos"])
    assert not contains_gold("An answer", ["a"])  # a gold that normalises to nothing never matches
    assert f1_score("the Denver Broncos won", ["Denver Broncos"]) == pytest.approx(2 * (2 / 3) * 1 / (2 / 3 + 1))
    assert f1_score("Carolina", ["Denver Broncos", "Carolina Panthers"]) == pytest.approx(2 * 1 * 0.5 / 1.5)
