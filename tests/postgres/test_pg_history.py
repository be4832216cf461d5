"""The answer history in PostgreSQL (postgres/history.py) beyond the tests both backends share
(tests/storage/test_history.py, tests/web/test_history_api.py): the same records as the SQLite file, providers'
states, what PostgreSQL cannot hold, and concurrent writers on one schema."""
import threading

import pytest

from builders import logged_answer as entry
from postgres.database import Database
from postgres.history import PgHistory
from storage import provider_state
from storage.history import History, HistoryError, UnknownAnswer


@pytest.fixture
def pg_history(pg_db):
    return PgHistory(pg_db)


def without_ids(value):
    """value without what differs between two logs of one entry: ids and times."""
    if isinstance(value, dict):
        return {k: without_ids(v) for k, v in value.items() if k not in ("id", "created_at", "reviewed_at")}
    if isinstance(value, (list, tuple)):
        return [without_ids(v) for v in value]
    return value


def test_every_method_answers_as_the_sqlite_history_does(pg_history, tmp_path):
    twins = (History(tmp_path / "h.sqlite3"), pg_history)
    told = []
    for history in twins:
        first = history.log(entry(answer="A" * 500, timings={"total": 0.1 + 0.2}))
        second = history.log(entry("שַׁבָּת?", "מותר [1].", language="he", declined=True))
        history.add_feedback(first, "up", " clear ")
        history.add_feedback(first, "down")
        reviewed = history.review(second, "corrected", "אסור [1].")
        told.append(without_ids([history.get(first), history.get(second), history.search(), history.search("שבת"),
                                 history.turns("s1", limit=5), reviewed, history.add_feedback(second, "up")]))
    assert told[0] == told[1]
    record = twins[1].get(twins[1].search("aaa")[0][0]["id"])
    assert list(record) == list(twins[0].get(twins[0].search("aaa")[0][0]["id"]))  # the same keys in the same order
    assert record["timings"] == {"total": 0.1 + 0.2} and "seq" not in record and "search_text" not in record


def test_provider_states_are_kept_replaced_and_shared(pg_history, pg_db):
    provider_state.save(pg_history, "claude", {"circuit": "open", "last_call": {"ok": False, "error": "שגיאה"}})
    provider_state.save(pg_history, "claude", {"circuit": "closed", "last_call": {"ok": True}})
    provider_state.save(pg_history, "gemini", {"circuit": "open", "last_call": None})
    other = PgHistory(Database(pg_db.url, pg_db.schema))  # another server's pool
    try:
        assert provider_state.load(other) == {"claude": {"circuit": "closed", "last_call": {"ok": True}},
                                              "gemini": {"circuit": "open", "last_call": None}}
    finally:
        other.db.close()


def test_what_postgresql_cannot_hold_is_stored_without_it(pg_history):
    answer_id = pg_history.log(entry("who\x00 found it?", "Fleming\x00 [1].", standalone_question="who found\x00 it?",
                                     citations=[{"n": 1, "quote": "a\x00b"}],
                                     timings={"total": float("nan"), "retrieve": float("inf")}))
    record = pg_history.get(answer_id)
    assert (record["question"], record["standalone_question"], record["answer"]) == (
        "who found it?", "who found it?", "Fleming [1].")
    assert record["citations"] == [{"n": 1, "quote": "ab"}] and record["timings"] == {"total": None, "retrieve": None}
    assert [i["id"] for i in pg_history.search("fleming")[0]] == [answer_id]
    with pytest.raises(HistoryError, match="NUL"):  # a search for one is refused, as in the SQLite file
        pg_history.search("fleming\x00")
    assert pg_history.add_feedback(answer_id, "up", "fine\x00")["up"] == 1
    assert pg_history.get(answer_id)["feedback"][0]["comment"] == "fine"
    assert pg_history.review(answer_id, "corrected", "Fleming\x00, 1928")["corrected_text"] == "Fleming, 1928"
    # an id holding a NUL is no stored answer: found nowhere, as in the SQLite file
    assert pg_history.get(answer_id + "\x00") is None and pg_history.turns("s1\x00") == []
    with pytest.raises(UnknownAnswer):
        pg_history.add_feedback(answer_id[:8] + "\x00" + answer_id[8:], "up")
    with pytest.raises(UnknownAnswer):
        pg_history.review("\x00", "approved")
    assert pg_history.search(session_id="s1\x00") == ([], 0)


def test_a_retried_log_of_an_answer_already_committed_keeps_one_row(pg_history, monkeypatch):
    from storage.answers import entry_row

    row = entry_row(entry())
    monkeypatch.setattr("storage.answers.entry_row", lambda e: dict(row))
    assert pg_history.log(entry()) == pg_history.log(entry()) == row["id"]
    assert pg_history.search()[1] == 1


def test_feedback_pressed_at_once_stops_at_the_bound(pg_history, monkeypatch):
    monkeypatch.setattr("storage.answers.MAX_FEEDBACK_PER_ANSWER", 5)
    answer_id = pg_history.log(entry())
    barrier = threading.Barrier(8)
    outcomes = []

    def press():
        barrier.wait()
        try:
            outcomes.append(pg_history.add_feedback(answer_id, "up"))
        except HistoryError as exc:
            outcomes.append(str(exc))

    threads = [threading.Thread(target=press) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(o["up"] for o in outcomes if isinstance(o, dict)) == [1, 2, 3, 4, 5]
    assert outcomes.count("This answer already has 5 feedback entries; no more are kept.") == 3
    assert len(pg_history.get(answer_id)["feedback"]) == 5
