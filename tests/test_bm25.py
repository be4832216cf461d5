"""Tokenization keeps every script; BM25 scores equal rank_bm25's BM25Okapi on the same tokens."""
import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from bm25 import BM25, tokenize


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("Who discovered Penicillin?", ["who", "discovered", "penicillin"]),
        ("Müller's café, 1928!", ["müller", "s", "café", "1928"]),
        ("האם מותר לחמם מים בשבת?", ["האם", "מותר", "לחמם", "מים", "בשבת"]),
        ("בְּרֵאשִׁית בָּרָא", ["בְּרֵאשִׁית", "בָּרָא"]),  # vowel points stay inside their word
        ("Shulchan Arukh, אורח חיים 2:3", ["shulchan", "arukh", "אורח", "חיים", "2", "3"]),
        ("Москва и 東京", ["москва", "и", "東京"]),
    ],
)
def test_tokenize_keeps_letters_of_every_script(text, tokens):
    assert tokenize(text) == tokens


def random_corpus(seed, n_docs=300, vocab=400):
    """Documents of Zipf-distributed words, so some words are in most documents (negative idf)."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(vocab)]
    ranks = np.minimum(rng.zipf(1.3, size=(n_docs, 60)), vocab) - 1
    lengths = rng.integers(5, 60, size=n_docs)
    return [[words[r] for r in ranks[d, : lengths[d]]] for d in range(n_docs)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_scores_equal_rank_bm25(seed):
    corpus = random_corpus(seed)
    reference = BM25Okapi(corpus)
    ours = BM25.index(corpus)
    assert sum("w0" in doc for doc in corpus) > len(corpus) / 2, "w0 must have a negative idf, to test the floor"
    queries = [["w0"], ["w1", "w5", "w30"], ["w3", "w3", "w7"], ["unknown", "w2"], ["w0", "w1", "w2", "w399"], []]
    for query in queries:
        np.testing.assert_allclose(ours.scores(query), reference.get_scores(query), rtol=0, atol=1e-9)


def test_scores_equal_rank_bm25_on_real_text():
    texts = [
        "Alexander Fleming discovered penicillin in 1928.",
        "Penicillin was the first antibiotic; its discovery changed medicine.",
        "Mount Everest is the highest mountain on Earth.",
        "The discovery of the mountain's height was made in 1856.",
    ]
    corpus = [tokenize(t) for t in texts]
    query = tokenize("Who discovered penicillin?")
    np.testing.assert_allclose(BM25.index(corpus).scores(query), BM25Okapi(corpus).get_scores(query), atol=1e-9)


def test_save_and_load_round_trip(tmp_path):
    corpus = random_corpus(5, n_docs=50)
    index = BM25.index(corpus)
    index.save(tmp_path)
    loaded = BM25.load(tmp_path)
    assert loaded.n_docs == 50 and loaded.params == {"k1": 1.5, "b": 0.75, "epsilon": 0.25}
    np.testing.assert_array_equal(loaded.scores(["w1", "w2"]), index.scores(["w1", "w2"]))
