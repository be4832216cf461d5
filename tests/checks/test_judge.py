"""The shipped answerability judge, loaded offline as the server loads it: it prefers the sentence that answers over
one that is only about the same subject, in English and in Hebrew, and its folder carries its card."""
import json

import pytest

from training.judge_data import pairs
from training.train_judge import figures
from checks.judge import DEFAULT_FOLDER, AnswerabilityJudge, pair_text

SHARED = DEFAULT_FOLDER.parents[3] / "shared" / "data"


@pytest.fixture(scope="module")
def judge():
    return AnswerabilityJudge.load(DEFAULT_FOLDER)


@pytest.mark.parametrize("question, heading, answering, related", [
    ("When did the Berlin Wall fall?", "Berlin Wall",
     "It fell on 9 November 1989, opening the border between East and West Germany.",
     "The Berlin Wall was a guarded barrier that divided Berlin."),
    ("How far is the Moon from the Earth?", "Moon",
     "It orbits around Earth at an average distance of 384,399 kilometers.",
     "The Moon is the only natural satellite of Earth."),
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


@pytest.mark.skipif(not (SHARED / "heq-dev").exists(), reason="../shared/data/heq-dev is absent")
def test_the_shipped_weights_give_the_figures_their_card_records(judge):
    """heq-dev's held-out test pairs, built as training built them, scored again: the card's AUC, to 0.005."""
    card = json.loads((DEFAULT_FOLDER / "judge.json").read_text())
    held = [p for p in pairs(SHARED / "heq-dev", same=card.get("same_paragraph_negatives", 2)) if p.split == "test"]
    by_question = {}
    for p in held:
        by_question.setdefault(p.question, []).append(p)
    scored = [(p, float(x)) for ps in by_question.values() for p, x in zip(ps, judge.score(ps[0].question, [p.text for p in ps]))]
    held, scores = [p for p, _ in scored], [x for _, x in scored]
    assert abs(figures(list(zip(held, scores)))["auc"] - card["held_out"]["heq-dev/test"]["auc"]) <= 0.005
