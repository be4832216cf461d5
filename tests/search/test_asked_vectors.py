"""A question's vector is computed once: search, the writer and its second look all read it; the embedder remembers
the last ASKED_KEPT questions and no more, and a caller cannot change what it remembers."""
import numpy as np

from search import embedding


def test_a_question_is_embedded_once_and_the_memory_is_bounded(real_embedder, monkeypatch):
    computed = []
    embed = real_embedder.embed
    monkeypatch.setattr(real_embedder, "embed", lambda texts, *a, **k: computed.append(list(texts)) or embed(texts, *a, **k))
    first = real_embedder.embed_queries(["Who discovered penicillin?"])
    first[0, 0] = 99.0  # the caller's copy
    again = real_embedder.embed_queries(["Who discovered penicillin?"])
    assert computed == [["Who discovered penicillin?"]] and again[0, 0] != 99.0
    assert np.allclose(again, embed(["Who discovered penicillin?"], role="query"), atol=1e-6)

    monkeypatch.setattr(embedding, "ASKED_KEPT", 3)
    for n in range(5):
        real_embedder.embed_queries([f"Question {n}?"])
    assert list(real_embedder._asked) == ["Question 2?", "Question 3?", "Question 4?"]
    real_embedder.embed_queries(["Who discovered penicillin?"])
    assert computed[-1] == ["Who discovered penicillin?"]  # forgotten, so computed again
