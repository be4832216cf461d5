"""The providers' last states in the history file (storage/provider_state.py), also in a file of the first schema."""
import sqlite3

from storage import provider_state
from storage.history import MIGRATIONS, History


def test_a_state_is_kept_and_replaced(tmp_path):
    history = History(tmp_path / "h.sqlite3")
    provider_state.save(history, "claude", {"circuit": "open", "last_call": {"ok": False}})
    provider_state.save(history, "claude", {"circuit": "closed", "last_call": {"ok": True}})
    other = History(tmp_path / "h.sqlite3")  # another worker's connection
    assert provider_state.load(other) == {"claude": {"circuit": "closed", "last_call": {"ok": True}}}


def test_a_file_of_the_first_schema_gains_the_table(tmp_path):
    db = sqlite3.connect(tmp_path / "h.sqlite3")
    for statement in MIGRATIONS[0]:
        db.execute(statement)
    db.execute("PRAGMA user_version = 1")
    db.commit()
    history = History(tmp_path / "h.sqlite3")
    provider_state.save(history, "gemini", {"circuit": "open", "last_call": None})
    assert provider_state.load(history) == {"gemini": {"circuit": "open", "last_call": None}}
