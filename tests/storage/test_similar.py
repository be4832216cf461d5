"""Reviewed answers to similar questions (History.similar, storage/reviewed.py), on each backend: which answers
match, in which order, as what, and for whom. Vectors are made by hand, 64-d as the test schema's column."""
import sqlite3

import numpy as np
import pytest

from accounts.roles import Reader
from builders import logged_answer as entry
from storage.database import migrate
from storage.history import MIGRATIONS, History

MODEL = "fake-embedder"


@pytest.fixture
def history(any_history):
    """A History file, then the PostgreSQL one (tests/pg.py)."""
    return any_history


def unit(*weights: float) -> np.ndarray:
    """A 64-d unit vector whose first components are weights."""
    vector = np.zeros(64, dtype=np.float32)
    vector[:len(weights)] = weights
    return vector / np.linalg.norm(vector)


def logged(history, question="Who discovered penicillin?", vector=unit(1), model=MODEL, **fields) -> str:
    return history.log(entry(question, question_vector=vector, question_model=model, **fields))


def test_only_approved_and_corrected_answers_near_enough_match_nearest_first(history):
    reviewer = history.accounts.create("rivka", "reviewer", None)
    history.accounts.update(reviewer["id"], display_name="Rivka L.")
    approved = logged(history, vector=unit(1, 0.2))
    corrected = logged(history, "Who found penicillin?", unit(1))
    far = logged(history, "How high is Everest?", unit(0, 1))
    logged(history, vector=unit(1))  # unreviewed
    history.review(logged(history, vector=unit(1)), "rejected")
    history.review(approved, "approved", reviewer=reviewer["id"])
    history.review(corrected, "corrected", "Alexander Fleming, in 1928 [1].", reviewer=reviewer["id"])
    history.review(far, "approved")

    found = history.similar(unit(1), MODEL, 0.9)
    assert [f["id"] for f in found] == [corrected, approved]
    assert set(found[0]) == {"id", "question", "answer", "review_status", "reviewer", "reviewed_at", "similarity"}
    assert (found[0]["answer"], found[0]["review_status"], found[0]["reviewer"]) == (
        "Alexander Fleming, in 1928 [1].", "corrected", "Rivka L.")
    assert found[0]["similarity"] == pytest.approx(1.0, abs=1e-4) and found[1]["similarity"] == pytest.approx(0.9806, abs=1e-4)
    assert found[1]["answer"].startswith("Alexander Fleming discovered") and found[1]["reviewed_at"] > 0
    assert [f["id"] for f in history.similar(unit(1), MODEL, 0.99)] == [corrected]
    assert [f["id"] for f in history.similar(unit(1), MODEL, 0.9, limit=1)] == [corrected]
    assert [f["id"] for f in history.similar(unit(1), MODEL, 0.9, exclude=corrected)] == [approved]
    assert history.similar(unit(1), MODEL, -1.0, limit=5)[-1]["id"] == far  # far, but reviewed: the last
    assert history.similar(unit(0, 0, 1), MODEL, 0.5) == []


def test_another_embedders_vectors_and_answers_without_one_never_match(history):
    for answer_id in (logged(history, model="another-embedder"), logged(history, vector=None, model=None)):
        history.review(answer_id, "approved")
    assert history.similar(unit(1), MODEL, -1.0, limit=20) == []
    record = history.get(logged(history))
    assert "question_vector" not in record and "question_model" not in record  # a record never shows them


@pytest.mark.parametrize("kwargs, message", [({"limit": 0}, "limit must be 1 to 20"), ({"limit": 21}, "limit"),
                                             ({"threshold": 1.5}, "threshold is a cosine")])
def test_bad_arguments_are_refused(history, kwargs, message):
    with pytest.raises(ValueError, match=message):
        history.similar(unit(1), MODEL, **{"threshold": 0.5, **kwargs})


def test_a_reader_finds_their_own_answers_and_a_reviewer_every_one_they_may_read(history):
    accounts = history.accounts
    learner, other, reviewer = (accounts.create(n, r, None) for n, r in (("dan", "learner"), ("eli", "learner"),
                                                                         ("rivka", "reviewer")))
    readers = {u["name"]: Reader(u["id"], u["name"], u["role"], frozenset({"canonical", "public"}))
               for u in (learner, other, reviewer)}
    mine = logged(history, user_id=learner["id"])
    theirs = logged(history, user_id=other["id"])
    private = logged(history, user_id=other["id"], passages=[{"n": 1, "id": "kettles#0", "doc_id": "kettles"}])
    for answer_id in (mine, theirs, private):
        history.review(answer_id, "approved", reviewer=reviewer["id"])

    def found(name, hidden=frozenset()):
        return {f["id"] for f in history.similar(unit(1), MODEL, 0.5, limit=10, reader=readers[name], hidden=hidden)}

    assert found("dan") == {mine} and found("eli") == {theirs, private}
    # their own answer too, once the book is hidden from them (an admin narrowed their tiers): checked as it is read
    assert found("eli", frozenset({"kettles"})) == {theirs}
    assert found("rivka") == {mine, theirs, private}
    assert found("rivka", frozenset({"kettles"})) == {mine, theirs}  # another's answer resting on a hidden book
    assert {f["id"] for f in history.similar(unit(1), MODEL, 0.5, limit=10)} == {mine, theirs, private}  # no reader
    assert {f["reviewer"] for f in history.similar(unit(1), MODEL, 0.5, limit=10)} == {"rivka"}


def test_a_file_from_before_vectors_opens_and_its_old_answers_are_never_matched(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    migrate(db, MIGRATIONS[:3], path, "FLASK_HISTORY_DB")  # the file as the previous release left it
    db.execute("INSERT INTO answers (id, question, standalone_question, answer, created_at, search_text, review_status)"
               " VALUES ('old', 'Who?', 'Who?', 'Fleming [1].', 1.0, 'who fleming', 'approved')")
    db.commit()
    db.close()
    history = History(path)
    new = logged(history)
    history.review(new, "approved")
    assert [f["id"] for f in history.similar(unit(1), MODEL, -1.0)] == [new]
    assert history.get("old")["answer"] == "Fleming [1]."


def test_a_postgresql_schema_from_before_vectors_is_upgraded_and_its_old_answers_never_match(pg_server):
    import uuid

    from postgres.database import Database, upgrade
    from postgres.history import PgHistory
    from postgres.schema import MIGRATIONS as PG_MIGRATIONS

    db = Database(pg_server.get_uri(), schema=f"t_{uuid.uuid4().hex[:12]}", wait_seconds=10)
    try:
        upgrade(db, PG_MIGRATIONS[:3], schema=db.schema, dim=64)  # the schema as the previous release left it
        db.execute("INSERT INTO answers (id, question, standalone_question, answer, created_at, search_text, "
                   "review_status) VALUES ('old', 'Who?', 'Who?', 'Fleming [1].', 1.0, 'who fleming', 'approved')")
        assert upgrade(db, PG_MIGRATIONS, schema=db.schema, dim=64) == len(PG_MIGRATIONS)  # `db upgrade`
        db.reopen()
        history = PgHistory(db)
        new = logged(history)
        history.review(new, "approved")
        assert [f["id"] for f in history.similar(unit(1), MODEL, -1.0)] == [new]
        assert history.get("old")["answer"] == "Fleming [1]."
    finally:
        db.execute(f"DROP SCHEMA {db.schema} CASCADE")
        db.close()


def test_moving_in_copies_the_vectors_of_the_schemas_embedder_only(tmp_path, pg_db):
    from postgres.history import PgHistory
    from postgres.moving_in import import_history

    embedded = History(tmp_path / "h.sqlite3")
    mine, other = logged(embedded), logged(embedded, model="another-embedder")
    for answer_id in (mine, other):
        embedded.review(answer_id, "approved")
    assert import_history(tmp_path / "h.sqlite3", pg_db) == 2
    moved = PgHistory(pg_db)
    assert [f["id"] for f in moved.similar(unit(1), MODEL, 0.5, limit=5)] == [mine]
    assert pg_db.execute("SELECT question_model FROM answers WHERE id = %s", (other,)) == [(None,)]
