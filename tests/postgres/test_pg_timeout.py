"""A statement that runs past PostgreSQL's statement timeout: TimedOut at once (running it again would take as long),
not the retries and the "cannot be reached" of a lost connection; the API says which it was."""
import pytest

from builders import history_client
from postgres.database import Database, TimedOut, Unavailable
from storage.history import History


def test_a_statement_past_the_timeout_is_timed_out_and_not_run_again(pg_server):
    db = Database(pg_server.get_uri(), schema="public", timeout_ms=50, wait_seconds=10)
    tries = []

    def slow(conn):
        tries.append(1)
        return conn.execute("SELECT pg_sleep(1)").fetchall()

    try:
        with pytest.raises(TimedOut, match="50 ms") as raised:
            db.run(slow)
        assert len(tries) == 1 and not isinstance(raised.value, Unavailable)
        assert db.execute("SELECT 1") == [(1,)]  # the connection it ran on is fine for the next statement
    finally:
        db.close()


def test_the_api_says_a_timeout_is_a_timeout(tmp_path, monkeypatch):
    def timing_out(*args, **kwargs):
        raise TimedOut("a statement ran past the timeout of 30000 ms")

    history = History(tmp_path / "history.sqlite3")
    monkeypatch.setattr(history, "search", timing_out)  # as PgHistory.search raises it past the timeout
    response = history_client(history).get("/api/history?q=tea")
    assert response.status_code == 503 and "time limit" in response.json["error"]
    assert "cannot be reached" not in response.json["error"] and "30000" not in response.json["error"]
