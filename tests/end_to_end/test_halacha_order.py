"""Issue 36 over real seifim of the Shulchan Arukh (from ../shared, with the fake embedder and the real answerability
judge), through /api/query: a gloss of the Rema is shown right after the ruling it glosses (brought in when the
search found only the gloss) and numbered so; a decline names the nearest passages by reference, cited, also for an
English question over the Hebrew texts, and ends with no rabbi line; a Hebrew follow-up becomes one standalone
question that keeps its own words and drops its opener."""

import pytest

from app import create_app
from builders import SHARED_SA, halacha_pipeline
from checks.declines import NEAREST
from question.halacha import rabbi_line

SIMANIM = {f"Shulchan Arukh, Orach Chayim {n}" for n in (58, 318, 511, 671, 672)} | {
    f"Shulchan Arukh, Yoreh De'ah {n}" for n in (87, 88, 89)}
QUESTIONS = ["האם מותר לחמם מים בשבת?", "האם מותר לבשל ביום טוב?", "כמה זמן צריך לחכות בין בשר לחלב?",
             "What is the capital of France?", "How many Hanukkah candles are lit on the first night?"]

pytestmark = pytest.mark.skipif(not SHARED_SA.exists(), reason="../shared/data/shulchan-arukh is not beside the project")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    retriever, pipeline, _ = halacha_pipeline(tmp_path_factory.mktemp("order"), SIMANIM)
    return retriever, create_app({"TESTING": True}, pipeline=pipeline).test_client()


def shown_by_search(retriever, question: str) -> list[str]:
    """The refs the search alone gives an explanation question (question/policy.py: 5 of 200 candidates)."""
    return [h.chunk.ref for h in retriever.search(question, 5, 200)]


def out_of_order(refs: list[str]) -> bool:
    """Whether a gloss comes before its ruling, or without it."""
    return any(r.endswith(", Rema") and r.removesuffix(", Rema") not in refs[:i] for i, r in enumerate(refs))


def test_every_gloss_is_shown_right_after_the_ruling_it_glosses(built):
    retriever, client = built
    searched = {q: shown_by_search(retriever, q) for q in QUESTIONS}
    assert sum(map(out_of_order, searched.values())) >= 3  # the search alone puts glosses first or alone
    for question in QUESTIONS:
        body = client.post("/api/query", json={"question": question}).json
        refs = [p["ref"] for p in body["passages"]]
        assert [p["n"] for p in body["passages"]] == list(range(1, len(refs) + 1))
        assert not out_of_order(refs), (question, refs)
        for i, passage in enumerate(body["passages"]):
            if passage["ref"].endswith(", Rema"):
                assert refs[i - 1] == passage["parent_ref"], (question, refs)  # right after: [n - 1] is its ruling
        assert set(searched[question]) <= set(refs)  # moved and added to, none lost


def test_a_gloss_found_alone_brings_in_its_ruling_before_it(built):
    retriever, client = built
    question = "האם מותר לבשל ביום טוב?"
    searched = shown_by_search(retriever, question)
    alone = [r.removesuffix(", Rema") for r in searched if r.endswith(", Rema") and r.removesuffix(", Rema") not in searched]
    assert alone  # the search shows these glosses without their rulings
    refs = [p["ref"] for p in client.post("/api/query", json={"question": question}).json["passages"]]
    assert all(refs.index(r) + 1 == refs.index(f"{r}, Rema") for r in alone)


@pytest.mark.parametrize("question", ["How many Hanukkah candles are lit on the first night?",
                                      "What is the capital of France?"])
def test_an_english_decline_names_the_texts_language_and_sends_no_one_to_a_rabbi(built, question):
    """Over seifim with no English questions beside them, an English question's decline says the texts are Hebrew
    and cites no nearest passage found for words they do not use (issue 47; a library with English questions
    beside its seifim is asked in English, and names its nearest seifim, as issue 36 had it)."""
    _, client = built
    body = client.post("/api/query", json={"question": question}).json
    assert body["declined"] and body["answer"].startswith("The provided sources do not answer this question.")
    assert "The library's texts are in Hebrew, not in English; ask the question in Hebrew" in body["answer"]
    assert NEAREST["en"] not in body["answer"] and ("What they do say:" in body["answer"] or not body["citations"])
    assert rabbi_line("en") not in body["answer"] and rabbi_line("he") not in body["answer"]


def test_a_hebrew_follow_up_keeps_its_words_and_drops_its_opener(built):
    _, client = built
    first = client.post("/api/query", json={"question": "כמה זמן צריך לחכות בין בשר לחלב?"}).json
    follow = client.post("/api/query", json={"question": "ומה לגבי חלב אחרי בשר?",
                                             "session_id": first["session_id"]}).json
    assert follow["rewritten"] and follow["standalone_question"] == "כמה זמן צריך לחכות חלב אחרי בשר?"
    searched = " ".join([s["query"] for s in follow["searches"]] + [(follow["followup_retrieval"] or {}).get("query", "")])
    assert "אחרי" in searched and "ומה" not in searched and "לגבי" not in searched
