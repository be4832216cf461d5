"""The shipped answerability judge, loaded offline as the server loads it: it prefers the sentence that answers over
one that is only about the same subject, in English and in Hebrew, and its folder carries its card."""
import json

import pytest

from writers.judge import DEFAULT_FOLDER, AnswerabilityJudge, pair_text


@pytest.fixture(scope="module")
def judge():
    return AnswerabilityJudge.load(DEFAULT_FOLDER)


@pytest.mark.parametrize("question, heading, answering, related", [
    ("Who wrote War and Peace?", "War and Peace",
     "War and Peace is an epic novel by the Russian author Leo Tolstoy.",
     "An early version was published serially beginning in 1865."),
    ("When did the Berlin Wall fall?", "Berlin Wall",
     "It fell on 9 November 1989, opening the border between East and West Germany.",
     "The Berlin Wall was a guarded barrier that divided Berlin."),
    ("מי כתב את מלחמה ושלום?", "מלחמה ושלום",
     "מלחמה ושלום הוא רומן מאת הסופר הרוסי לב טולסטוי.",
     "גרסה מוקדמת פורסמה בהמשכים החל משנת 1865."),
    ("מתי נוסדה תל אביב?", "תל אביב",
     "העיר תל אביב נוסדה בשנת 1909 על ידי קבוצת משפחות בהנהגת מאיר דיזנגוף.",
     "תל אביב היא העיר השנייה בגודלה בישראל."),
])
def test_the_answering_sentence_scores_above_a_related_one(judge, question, heading, answering, related):
    scores = judge.score(question, [pair_text(heading, answering), pair_text(heading, related)])
    assert scores[0] > scores[1] and 0.0 <= scores.min() and scores.max() <= 1.0


def test_the_folder_holds_the_trained_weights_a_card_and_a_threshold(judge):
    card = json.loads((DEFAULT_FOLDER / "judge.json").read_text())
    assert card["base"] == "intfloat/multilingual-e5-small" and 0 < judge.threshold < 1
    assert "scifact-dev" not in card["training_sets"] and (DEFAULT_FOLDER / "README.md").exists()
    assert judge.describe()["threshold"] == judge.threshold
    assert judge.score("Anything?", []).shape == (0,)


def test_a_missing_judge_says_how_to_make_one(tmp_path):
    with pytest.raises(FileNotFoundError, match="train-judge"):
        AnswerabilityJudge.load(tmp_path)
