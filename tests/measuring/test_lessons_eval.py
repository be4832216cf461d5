"""The English lessons' test part asked end to end: answered with their sentence first, twins not answered from the
lookalike of their own lead."""
import json
from types import SimpleNamespace

import pytest

from measuring.lessons_eval import evaluate_lessons, holds, read_lessons
from models import Answer, Citation

JUPITER = "Jupiter is the fifth planet from the Sun and the largest in the Solar System"


def lesson(question, answer=True, title="Jupiter"):
    return {"question": question, "title": title, "answer": [0] if answer else [],
            "sentences": [JUPITER] if answer else [], "split": "test", "set": "wiki"}


class Pipeline:
    """Answers each question as the test says."""

    def __init__(self, answers):
        self.answers = answers

    def ask(self, question):
        return SimpleNamespace(answer=self.answers[question])


def cited(text, title="Jupiter", declined=False):
    return Answer(text, [Citation(1, f"{title}#0", title)], declined=declined)


def test_the_fact_first_from_its_lead_and_twins_not_answered_from_theirs():
    lessons = [lesson("Which planet is fifth from the Sun?"), lesson("How big is Jupiter?"),
               lesson("Which is the sixth planet from the Sun?", answer=False),
               lesson("Which planet is the smallest?", answer=False)]
    answers = {
        "Which planet is fifth from the Sun?": cited(f"[Jupiter] {JUPITER[8:]} [1]."),  # the editor's bracket
        "How big is Jupiter?": cited(f"The sources do not answer. They say: {JUPITER} [1].", declined=True),
        "Which is the sixth planet from the Sun?": cited(f"{JUPITER} [1]."),  # fooled by the lookalike
        "Which planet is the smallest?": cited("Mercury is the smallest planet [1].", title="Mercury"),
    }
    result = evaluate_lessons(Pipeline(answers), lessons)
    assert result["answered_fact_first"] == 0.5 and result["twins_not_fooled"] == 0.5
    assert result["balanced_accuracy_fact_first"] == 0.5 and result["declined_quoting_gold"] == 0.5
    assert result["answered_rate"] == 0.5 and result["twins_answered_rate"] == 1.0


def test_a_sentence_is_held_when_most_of_its_words_are_there():
    assert holds(f"[Jupiter] is the fifth planet from the Sun and the largest in the Solar System [2].", JUPITER)
    assert not holds("Jupiter is a planet [1].", JUPITER)


def test_only_the_split_asked_for_is_read(tmp_path):
    path = tmp_path / "en.jsonl"
    path.write_text("\n".join(json.dumps({**lesson(f"q{i}"), "split": s}) for i, s in enumerate(["test", "train"] * 5)))
    assert {r["split"] for r in read_lessons(path, "test")} == {"test"} and len(read_lessons(path, "test")) == 5
    assert len(read_lessons(path, "test", limit=2)) == 2


@pytest.mark.skipif(not (__import__("pathlib").Path("data/judge-lessons/en.jsonl").exists()), reason="no lessons")
def test_the_shipped_test_part_is_over_the_unseen_third():
    from authoring.lessons import unseen

    rows = read_lessons()
    assert len(rows) > 500 and all(unseen(r["title"]) for r in rows)
