"""Tokenization keeps every script; BM25 scores equal rank_bm25's BM25Okapi on the same tokens, also on
analysed Hebrew; a query word of alternative forms counts by its best one; exact ranks on a Hebrew corpus."""
import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from hebrew.analyzer import analyze, analyze_query
from hebrew.words import tokenize
from search.bm25 import BM25


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


def test_words_of_one_term_score_exactly_as_tokens():
    corpus = random_corpus(3)
    index = BM25.index(corpus)
    for query in (["w0"], ["w1", "w5", "w30"], ["w3", "w3", "w7"], ["unknown", "w2"], []):
        np.testing.assert_array_equal(index.scores_any([[t] for t in query]), index.scores(query))


def test_a_word_of_alternatives_counts_its_best_term_once():
    corpus = random_corpus(4)
    reference = BM25Okapi(corpus)
    words = [["w1", "w2", "w40"], ["w7"], ["w3", "unknown", "w3"], ["unknown"]]
    expected = sum(np.max([reference.get_scores([t]) for t in word], axis=0) for word in words)
    np.testing.assert_allclose(BM25.index(corpus).scores_any(words), expected, rtol=0, atol=1e-9)


HEBREW_CORPUS = [
    "הַבַּיִת הגדול עומד על ההר",  # pointed
    "בית כנסת חדש נבנה בעיר",
    "מותר לחמם מים בשבת על גבי האש",
    'לפי השו"ע אסור לבשל ביום טוב',
    "The house of prayer is open on Shabbat",
]


def test_analysed_hebrew_scores_equal_rank_bm25():
    corpus = [analyze(t) for t in HEBREW_CORPUS]
    reference, ours = BM25Okapi(corpus), BM25.index(corpus)
    for text in ("והבית", "שולחן ערוך", "לחמם מים בשבת", "house Shabbat"):
        query = analyze(text)
        np.testing.assert_allclose(ours.scores(query), reference.get_scores(query), rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "query, ranking",
    [
        ("והבית", [0, 1]),  # הבית, then בית
        ("בית", [1, 0]),  # the bare word first, then הבית
        ("ההר", [0]),
        ("הר", [0]),  # ההר without its article
        ("בַּיִת", [1, 0]),  # vowel points in the query
        ("שולחן ערוך", [3]),  # written out, finds the abbreviation
        ("שו״ע", [3]),  # another quote style
        ("מה מותר לחמם במים בשבת?", [2]),
        ("ובשבתות", []),  # the plural is another word: suffixes are not stripped
        ("house Shabbat", [4]),
    ],
)
def test_hebrew_queries_rank_the_right_passages(query, ranking):
    index = BM25.index([analyze(t) for t in HEBREW_CORPUS])
    scores = index.scores_any(analyze_query(query))
    found = [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] > 0]
    assert found == ranking
