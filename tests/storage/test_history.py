"""The answer history: real SQLite in a fresh folder per test, and real PostgreSQL (the `history` fixture)."""
import os
import sqlite3
import threading

import pytest

from builders import logged_answer as entry
from postgres.history import PgHistory
from storage.history import (
    MAX_CORRECTED_CHARS,
    MIGRATIONS,
    History,
    HistoryError,
    UnknownAnswer,
    trigram_available,
)

SEARCH_MODES = ["fts5-trigram", "like", "postgres"]  # History with its trigram index, without it, PgHistory


@pytest.fixture
def history(any_history):
    """A History file, then the PostgreSQL one (tests/pg.py): each test that takes it runs on both."""
    return any_history


@pytest.fixture(params=SEARCH_MODES)
def searched(request, tmp_path):
    """A history in each way it searches: SQLite's trigram index, SQLite's LIKE, PostgreSQL's strpos."""
    if request.param == "postgres":
        return PgHistory(request.getfixturevalue("pg_db"))
    return History(tmp_path / "h.sqlite3", use_fts=request.param == "fts5-trigram")


# History


def test_a_new_file_is_migrated_in_wal_mode(tmp_path):
    History(tmp_path / "h.sqlite3")
    db = sqlite3.connect(tmp_path / "h.sqlite3")
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) == 6
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"answers", "feedback", "provider_state"} <= {r[0] for r in db.execute("SELECT name FROM sqlite_master")}



def test_a_file_from_a_newer_version_is_refused_with_what_to_do(tmp_path):
    db = sqlite3.connect(tmp_path / "h.sqlite3")
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(HistoryError, match="newer Evidenz.*FLASK_HISTORY_DB"):
        History(tmp_path / "h.sqlite3")


def test_log_keeps_the_answer_and_its_passages_without_their_scores(history):
    answer_id = history.log(entry())
    assert len(answer_id) == 32 and int(answer_id, 16) >= 0
    record = history.get(answer_id)
    assert record["question"] == record["standalone_question"] == "Who discovered penicillin?"
    assert record["session_id"] == "s1" and record["query_type"] == "factual_lookup" and record["language"] == "en"
    assert record["declined"] is False and record["generator"] == "offline" and record["model"] is None
    assert record["citations"][0]["passage_id"] == "fleming#0" and record["citations"][0]["spans"] == [[0, 20]]
    assert record["passages"] == [{"n": 1, "id": "fleming#0", "doc_id": "fleming", "title": "Alexander Fleming",
                                   "ref": None, "ref_he": None, "chunk": "Alexander Fleming was a Scottish physician.",
                                   **dict.fromkeys(("community", "era", "authority_weight", "tier", "relation"))}]
    assert record["timings"] == {"classify": 1.5, "retrieve": 2.5, "total": 9.0}
    assert record["review_status"] == "unreviewed" and record["corrected_text"] is None
    assert record["reviewed_at"] is None and record["feedback"] == []
    assert record["created_at"] > 0 and "search_text" not in record and "rowid" not in record


def test_log_defaults_the_standalone_question_and_takes_degraded_reason(history):
    answer_id = history.log({"question": "Why?", "answer": "", "declined": True, "degraded_reason": "Claude: timeout"})
    record = history.get(answer_id)
    assert record["standalone_question"] == "Why?" and record["session_id"] is None
    assert record["declined"] is True and record["degraded_reason"] == "Claude: timeout"
    assert record["citations"] == [] and record["passages"] == [] and record["timings"] == {}


@pytest.mark.parametrize("bad, message", [
    ({"answer": "x"}, "question"),
    ({"question": "  ", "answer": "x"}, "question"),
    ({"question": "q"}, "answer"),
    ({"question": "q", "answer": "x", "session_id": "has space"}, "session_id"),
    ({"question": "q", "answer": "x", "session_id": "x" * 101}, "session_id"),
])
def test_log_refuses_entries_it_cannot_store(history, bad, message):
    with pytest.raises(HistoryError, match=message):
        history.log(bad)


def test_get_of_an_unknown_id_is_none(history):
    assert history.get("0" * 32) is None


def test_turns_are_the_last_ones_of_the_session_oldest_first(history):
    for n in range(5):
        history.log(entry(f"question {n}", f"answer {n}", standalone_question=f"standalone {n}"))
    history.log(entry("other session", "x", session_id="s2"))
    assert history.turns("s1") == [{"question": f"question {n}", "standalone_question": f"standalone {n}",
                                    "answer": f"answer {n}"} for n in (2, 3, 4)]
    assert [t["question"] for t in history.turns("s2", limit=3)] == ["other session"]
    assert history.turns("nobody") == []


def test_trigram_index_is_used_when_this_sqlite_has_it(tmp_path):
    assert History(tmp_path / "a.sqlite3").fts == trigram_available()
    assert History(tmp_path / "b.sqlite3", use_fts=False).fts is False


def test_search_finds_every_word_in_question_standalone_question_or_answer(searched):
    history = searched
    fleming = history.log(entry())
    everest = history.log(entry("How high is Mount Everest?", "It is 8,849 metres high [1].", session_id="s2"))
    shabbat = history.log(entry("and on Yom Tov?", "Cooking for the day is permitted [1].",
                                standalone_question="Is it permitted to heat water on Yom Tov?"))

    def found(text, **kw):
        return [item["id"] for item in history.search(text, **kw)[0]]

    assert found("penicillin") == [fleming]
    with pytest.raises(HistoryError, match="NUL"):  # said, not dropped: no answer holds one
        found("penic\x00illin")
    assert found("FLEMING 1928") == [fleming]  # case-folded, every word, question and answer together
    assert found("metres everest") == [everest]  # any order
    assert found("heat water") == [shabbat]  # only in the standalone question
    assert found("Everest?") == [everest]  # punctuation is not searched
    assert found("it") == [shabbat, everest]  # a short word by LIKE, as a substring; newest first
    assert found("8,849") == [everest] and found("849") == [everest]
    assert found("penicillin everest") == []
    assert found("") == [shabbat, everest, fleming]
    assert found("100%") == [] and found("_") == [shabbat, everest, fleming]  # wildcards are plain text


def test_search_in_hebrew_ignores_vowel_points(searched):
    history = searched
    pointed = history.log(entry("האם מותר לחמם מים בשַׁבָּת?", "מותר לחמם מים שהוחמו מערב שבת [1].", language="he"))
    plain = history.log(entry("ומה ביום טוב?", "ביום טוב מותר לבשל לצורך היום [1].", language="he",
                              standalone_question="האם מותר לחמם מים ביום טוב?"))
    history.log(entry())

    def found(text):
        return [item["id"] for item in history.search(text)[0]]

    assert found("בשבת") == [pointed]  # the question has vowel points, the query none
    assert found("שַׁבָּת") == [pointed]  # and the other way round
    assert found("לחמם") == [plain, pointed]
    assert found("יום טוב") == [plain]
    assert found("לבשל") == [plain]
    assert found("מים penicillin") == []


def test_search_pages_filters_and_counts(searched):
    history = searched
    ids = [history.log(entry(f"question {n} about Rome", f"answer {n}", session_id="s1" if n % 2 else "s2"))
           for n in range(7)]
    items, total = history.search("rome", limit=3)
    assert total == 7 and [i["id"] for i in items] == ids[::-1][:3]
    items, total = history.search("rome", limit=3, offset=6)
    assert total == 7 and [i["id"] for i in items] == [ids[0]]
    assert history.search("rome", offset=7) == ([], 7)
    items, total = history.search(session_id="s1")
    assert total == 3 and [i["id"] for i in items] == [ids[5], ids[3], ids[1]]
    history.review(ids[2], "approved")
    items, total = history.search("rome", session_id="s2", status="approved")
    assert total == 1 and items[0]["id"] == ids[2] and items[0]["review_status"] == "approved"
    assert history.search(status="rejected") == ([], 0)


def test_search_rows_are_summaries_with_feedback_counts(history):
    answer_id = history.log(entry(answer="A" * 1000))
    history.add_feedback(answer_id, "up")
    history.add_feedback(answer_id, "up")
    history.add_feedback(answer_id, "down", "too long")
    (item,), _ = history.search()
    assert item == {"id": answer_id, "session_id": "s1", "question": "Who discovered penicillin?", "answer": "A" * 300,
                    "query_type": "factual_lookup", "generator": "offline", "declined": False,
                    "review_status": "unreviewed", "created_at": item["created_at"], "feedback": {"up": 2, "down": 1}}


@pytest.mark.parametrize("kwargs, message", [
    ({"status": "done"}, "unreviewed, approved, corrected, rejected"),
    ({"limit": 0}, "limit"), ({"limit": 101}, "limit"), ({"offset": -1}, "offset"),
    ({"text": "x" * 201}, "200 characters"),
])
def test_search_refuses_bad_arguments(history, kwargs, message):
    with pytest.raises(HistoryError, match=message):
        history.search(**kwargs)


def test_a_lagging_trigram_index_is_rebuilt_on_open(tmp_path):
    if not trigram_available():
        pytest.skip("this SQLite has no trigram tokenizer")
    History(tmp_path / "h.sqlite3")  # creates the index
    answer_id = History(tmp_path / "h.sqlite3", use_fts=False).log(entry())  # logged while the index was off
    assert [i["id"] for i in History(tmp_path / "h.sqlite3").search("penicillin")[0]] == [answer_id]


def test_feedback_and_review_of_an_unknown_answer(history):
    with pytest.raises(UnknownAnswer):
        history.add_feedback("f" * 32, "up")
    with pytest.raises(UnknownAnswer):
        history.review("f" * 32, "approved")


def test_review_moves_between_every_status(history):
    answer_id = history.log(entry())
    approved = history.review(answer_id, "approved")
    assert approved["review_status"] == "approved" and approved["reviewed_at"] > 0
    corrected = history.review(answer_id, "corrected", " Fleming discovered it in 1928 [1]. ")
    assert corrected["corrected_text"] == "Fleming discovered it in 1928 [1]."
    assert history.get(answer_id)["corrected_text"] == "Fleming discovered it in 1928 [1]."
    assert history.review(answer_id, "rejected")["corrected_text"] is None  # a new verdict replaces the correction
    assert history.get(answer_id)["corrected_text"] is None
    back = history.review(answer_id, "unreviewed")
    assert back == {"review_status": "unreviewed", "corrected_text": None, "reviewed_at": None}
    assert history.get(answer_id)["review_status"] == "unreviewed"


@pytest.mark.parametrize("status, text, message", [
    ("corrected", None, "needs \"corrected_text\""),
    ("corrected", "   ", "needs \"corrected_text\""),
    ("approved", "new text", "goes with status \"corrected\" only"),
    ("done", None, "must be one of"),
    ("corrected", 5, "must be text"),
    ("corrected", "x" * (MAX_CORRECTED_CHARS + 1), "limit is 20,000"),
])
def test_review_refuses_bad_values_and_changes_nothing(history, status, text, message):
    answer_id = history.log(entry())
    with pytest.raises(HistoryError, match=message):
        history.review(answer_id, status, text)
    assert history.get(answer_id)["review_status"] == "unreviewed"


def test_two_threads_logging_at_once_lose_nothing(history):
    barrier = threading.Barrier(2)
    ids, errors = [], []

    def work(name):
        try:
            barrier.wait()
            for n in range(40):
                ids.append(history.log(entry(f"{name} question {n}", "answer", session_id=name)))
                history.add_feedback(ids[-1], "up")
        except Exception as exc:  # noqa: BLE001 - the test reports any failure in a thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(name,)) for name in ("alpha", "beta")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(set(ids)) == 80 and history.search(limit=1)[1] == 80
    assert history.search("alpha")[1] == 40 and history.search(session_id="beta")[1] == 40
    assert [t["question"] for t in history.turns("alpha")] == [f"alpha question {n}" for n in (37, 38, 39)]


def test_a_forked_process_logs_through_its_own_connection(tmp_path):
    history = History(tmp_path / "h.sqlite3")
    history.log(entry("before the fork", "x"))  # the parent's connection exists when it forks
    pid = os.fork()
    if pid == 0:  # the child: a gunicorn worker after preload
        code = 1
        try:
            history.log(entry("from the child", "x"))
            code = 0 if history._connections._local.pid == os.getpid() else 2
        finally:
            os._exit(code)
    assert os.waitpid(pid, 0)[1] == 0
    assert [i["question"] for i in history.search()[0]] == ["from the child", "before the fork"]
