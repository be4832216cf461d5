"""Feedback: up or down with a comment, counted and listed in order, bounded per answer; and feedback that sticks:
a reader changes their own entry (a comment written after the thumb) and no one else's. On each backend."""
import pytest

from builders import logged_answer as entry
from storage.answers import MAX_COMMENT_CHARS, HistoryError, UnknownFeedback


@pytest.fixture
def history(any_history):
    return any_history


def test_a_reader_changes_their_own_entry_and_no_one_elses(history):
    answer_id = history.log(entry())
    given = history.add_feedback(answer_id, "up", user=7)
    changed = history.add_feedback(answer_id, "down", "the date is wrong", user=7, entry=given["entry"])
    assert changed == {"entry": given["entry"], "up": 0, "down": 1}  # changed, not added
    assert [(f["rating"], f["comment"]) for f in history.get(answer_id)["feedback"]] == [("down", "the date is wrong")]
    history.add_feedback(answer_id, "up", user=7, entry=given["entry"], keep_comment=True)  # the other thumb alone
    assert [(f["rating"], f["comment"]) for f in history.get(answer_id)["feedback"]] == [("up", "the date is wrong")]
    for user, entry_id in ((8, given["entry"]), (None, given["entry"]), (7, given["entry"] + 1)):
        with pytest.raises(UnknownFeedback, match="No feedback entry"):
            history.add_feedback(answer_id, "up", user=user, entry=entry_id)
    other = history.log(entry())
    with pytest.raises(UnknownFeedback):  # an entry of another answer
        history.add_feedback(other, "up", user=7, entry=given["entry"])
    with pytest.raises(HistoryError, match="whole number"):
        history.add_feedback(answer_id, "up", user=7, entry="1")
    assert history.get(answer_id)["feedback"][0]["comment"] == "the date is wrong"  # the refused changed nothing
    history.add_feedback(answer_id, "down", user=7, entry=given["entry"])  # a comment not kept is cleared
    assert [(f["rating"], f["comment"]) for f in history.get(answer_id)["feedback"]] == [("down", None)]


def test_feedback_is_counted_and_listed_in_order(history):
    answer_id = history.log(entry())
    first = history.add_feedback(answer_id, "up", "  clear  ")
    assert {k: first[k] for k in ("up", "down")} == {"up": 1, "down": 0}
    second = history.add_feedback(answer_id, "down", "", user=7)
    assert {k: second[k] for k in ("up", "down")} == {"up": 1, "down": 1} and second["entry"] != first["entry"]
    feedback = history.get(answer_id)["feedback"]
    assert [(f["id"], f["rating"], f["comment"], f["user_id"]) for f in feedback] == [
        (first["entry"], "up", "clear", None), (second["entry"], "down", None, 7)]


@pytest.mark.parametrize("rating, comment, message", [
    ("meh", None, '"up" or "down"'),
    ("up", 5, "text"),
    ("down", "x" * (MAX_COMMENT_CHARS + 1), "limit is 2,000"),
])
def test_feedback_refuses_bad_values(history, rating, comment, message):
    answer_id = history.log(entry())
    with pytest.raises(HistoryError, match=message):
        history.add_feedback(answer_id, rating, comment)
    assert history.get(answer_id)["feedback"] == []


def test_feedback_per_answer_is_bounded(history, monkeypatch):
    monkeypatch.setattr("storage.answers.MAX_FEEDBACK_PER_ANSWER", 2)
    answer_id = history.log(entry())
    history.add_feedback(answer_id, "up")
    history.add_feedback(answer_id, "up")
    with pytest.raises(HistoryError, match="already has 2"):
        history.add_feedback(answer_id, "down")
