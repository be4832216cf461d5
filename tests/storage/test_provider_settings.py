"""The providers' keys and models an admin set (storage/provider_settings.py), on both backends: fields are set
and cleared one at a time, a row with neither is gone, and another connection reads what one wrote."""
import sqlite3

import pytest

from storage.history import MIGRATIONS, History


def test_fields_are_set_alone_and_cleared_alone(any_history):
    table = any_history.provider_settings
    assert table.all() == {}
    table.put("claude", {"api_key": "sk-ant-first"}, "rivka")
    table.put("claude", {"model": "claude-opus-4-1"}, "dan")  # the key stays
    row = table.all()["claude"]
    assert (row["api_key"], row["model"], row["updated_by"]) == ("sk-ant-first", "claude-opus-4-1", "dan")
    assert row["updated_at"] > 0
    table.put("claude", {"api_key": None}, "dan")  # only the key is cleared
    assert (table.all()["claude"]["api_key"], table.all()["claude"]["model"]) == (None, "claude-opus-4-1")
    table.put("claude", {"model": None}, "dan")  # nothing left: the row goes
    assert table.all() == {}


def test_clear_removes_the_row_and_says_whether_there_was_one(any_history):
    table = any_history.provider_settings
    table.put("gemini", {"api_key": "AIza-key", "model": "gemini-2.5-pro"}, None)
    table.put("openai", {"model": "llama3.1:8b"}, None)
    assert table.clear("gemini") is True and table.clear("gemini") is False
    assert list(table.all()) == ["openai"]


def test_a_put_of_nothing_is_refused(any_history):
    with pytest.raises(ValueError, match="api_key, model"):
        any_history.provider_settings.put("claude", {}, None)


def test_another_connection_reads_what_one_wrote(tmp_path):
    History(tmp_path / "h.sqlite3").provider_settings.put("claude", {"api_key": "sk-ant-x"}, "rivka")
    assert History(tmp_path / "h.sqlite3").provider_settings.all()["claude"]["api_key"] == "sk-ant-x"


def test_a_file_of_the_previous_schema_gains_the_table(tmp_path):
    db = sqlite3.connect(tmp_path / "h.sqlite3")
    for statements in MIGRATIONS[:-1]:
        for statement in statements:
            db.execute(statement)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")
    db.commit()
    history = History(tmp_path / "h.sqlite3")
    history.provider_settings.put("openai", {"api_key": "local-key"}, None)
    assert history.provider_settings.all()["openai"]["api_key"] == "local-key"
