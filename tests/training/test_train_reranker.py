"""Training our own cross-encoder: hard negatives from BM25, SciFact refused, a loadable fp16 model."""
import json

import pytest
import torch

from conftest import QUERIES
from training.train_reranker import train, training_pairs
from search.reranker import Reranker


def test_pairs_are_gold_positives_and_bm25_hard_negatives(beir):
    pairs = training_pairs(beir, queries_per_set=10, negatives=2, seed=0, random_negatives=1)
    positives = [p for p in pairs if p[2] == 1.0]
    assert len(positives) == len(QUERIES) and len(pairs) == 4 * len(QUERIES)
    gold = {text: doc for _, text, doc, _ in QUERIES}
    for question, passage, label in pairs:
        title = passage.split("\n")[0].replace(" ", "_")
        assert (title == gold[question]) == (label == 1.0)


def test_scifact_is_never_trained_on(tmp_path):
    folder = tmp_path / "scifact-dev"
    folder.mkdir()
    with pytest.raises(ValueError, match="evaluation only"):
        training_pairs(folder, 10, 2, 0)


def test_trained_model_is_fp16_on_disk_and_loads_as_a_reranker(tmp_path, beir, tiny_bert):
    card = train([beir], tiny_bert, tmp_path / "ce", queries_per_set=10, negatives=1, max_length=64, batch_size=4)
    assert card["pairs"] == 12 and card["training_sets"] == ["tiny-beir"] and card["dtype"] == "float16"
    assert json.loads((tmp_path / "ce" / "training.json").read_text()) == card
    reranker = Reranker.load(str(tmp_path / "ce"))
    assert next(reranker.model.parameters()).dtype == torch.float32  # computed in fp32 on the CPU
    assert reranker.model.max_length == 64  # the length it was trained at
    scores = reranker.score("Who discovered penicillin?", ["Fleming discovered penicillin.", "Everest is high."])
    assert scores.shape == (2,) and scores[0] != scores[1]
