"""A history file written before readers were recorded opens, and its old answers read as before."""
import sqlite3

from storage.database import migrate
from storage.history import MIGRATIONS, History


def test_an_answer_logged_before_the_readers_migration_reads_with_no_user_or_tiers(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    migrate(db, MIGRATIONS[:2], path, "FLASK_HISTORY_DB")  # the file as the previous release left it
    db.execute("INSERT INTO answers (id, question, standalone_question, answer, created_at, search_text) "
               "VALUES ('old', 'Who?', 'Who?', 'Fleming [1].', 1.0, 'who fleming')")
    db.commit()
    db.close()
    history = History(path)
    record = history.get("old")
    assert record["answer"] == "Fleming [1]." and record["tiers"] is None and record["user_id"] is None
    assert history.review("old", "approved", reviewer=3)["review_status"] == "approved"
    assert history.get("old")["reviewed_by"] == 3
    assert history.accounts.count() == 0
