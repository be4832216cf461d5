"""The cross-encoder that re-scores fused candidates, when one is configured (RERANKER_MODEL).

No pretrained cross-encoder can be installed offline; `flask --app app train-reranker` trains one from a
shipped encoder (training/train_reranker.py), and any sentence-transformers CrossEncoder folder works.
Does not: decide when to re-rank (retrieval.py does).
"""
import json
import logging
from pathlib import Path

import numpy as np

from hebrew.normal import for_models
from search.compute import turn
from search.embedding import load_sentence_transformer

log = logging.getLogger(__name__)


class Reranker:
    """A sentence-transformers CrossEncoder that scores (query, passage) pairs."""

    def __init__(self, model, name: str, languages: tuple[str, ...] = ("en",)):
        self.model = model
        self.name = name
        self.languages = languages  # what it was trained to read: one trained on English keeps off Hebrew queries

    @classmethod
    def load(cls, name: str) -> "Reranker":
        """Load a cross-encoder by id or local path."""
        import torch
        from sentence_transformers import CrossEncoder

        log.info("loading cross-encoder %s", name)
        # weights may ship in fp16 to stay small; CPUs compute fp32 much faster
        model = load_sentence_transformer(name, cls=CrossEncoder, model_kwargs={"dtype": torch.float32})
        card = Path(name) / "training.json"  # one of ours: score pairs at the length it was trained on
        languages = ("en",)
        if card.exists():
            card = json.loads(card.read_text())
            model.max_length = card["max_length"]
            languages = tuple(card.get("languages", languages))
        return cls(model, name, languages)

    def score(self, query: str, passages: list[str]) -> np.ndarray:
        """Relevance of each passage to the query (higher is better)."""
        if not passages:
            return np.zeros(0)
        query = for_models(query)
        with turn():  # search/compute.py
            scores = self.model.predict([(query, for_models(p)) for p in passages], batch_size=32, show_progress_bar=False)
        return np.asarray(scores, dtype=np.float64)
