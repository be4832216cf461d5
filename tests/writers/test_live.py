"""LiveWriters (writers/live.py) with a table and a clock of the test's own: the table is read again once its reading
is FRESH_SECONDS old or expired; a provider whose settings did not change keeps its writer (and circuit); a changed
one gets a new writer, announced; settings that make no writer leave it out at run time and stop the start."""
import logging

import pytest

from configuration.settings import Settings
from conftest import FakeWriter
from generator import Generator
from writers.live import FRESH_SECONDS, LiveWriters


class Table:
    """The providers table as LiveWriters reads it, counting the reads."""

    def __init__(self, rows=None):
        self.rows, self.reads = rows or {}, 0

    def all(self):
        self.reads += 1
        return {name: dict(row) for name, row in self.rows.items()}


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


def live(table, clock, **flat):
    return LiveWriters(Settings.of(flat).writers, {"offline": FakeWriter("offline")}, table, clock=clock)


def test_the_table_is_read_again_only_when_its_reading_is_stale_or_expired():
    table, clock = Table(), Clock()
    writers = live(table, clock)
    assert sorted(writers) == ["offline"] and table.reads == 1
    table.rows["claude"] = {"api_key": "sk-ant-one", "model": None}
    assert "claude" not in writers and table.reads == 1  # fresh: not read again
    clock.now += FRESH_SECONDS
    assert writers["claude"].client.api_key == "sk-ant-one" and table.reads == 2
    table.rows["claude"]["api_key"] = "sk-ant-two"
    writers.expire()
    assert writers["claude"].client.api_key == "sk-ant-two" and table.reads == 3


def test_an_unchanged_provider_keeps_its_writer_and_a_changed_one_is_announced():
    table, clock = Table({"gemini": {"api_key": "AIza-first", "model": None}}), Clock()
    writers, announced = live(table, clock, ANTHROPIC_API_KEY="sk-ant-env"), []
    writers.on_new.append(lambda name, writer: announced.append(name))
    claude, gemini = writers["claude"], writers["gemini"]
    table.rows["gemini"]["model"] = "gemini-2.5-pro"
    writers.expire()
    assert writers["claude"] is claude and writers["gemini"] is not gemini
    assert writers["gemini"].model == "gemini-2.5-pro" and announced == ["gemini"]
    table.rows.clear()
    writers.expire()
    assert sorted(writers) == ["claude", "offline"]  # gemini had only the table's key


def test_settings_that_make_no_writer_stop_the_start_but_only_leave_out_a_provider_later(caplog):
    table, clock = Table({"openai": {"api_key": None, "model": "llama3.1:8b"}}), Clock()
    writers = live(table, clock, OPENAI_BASE_URL="http://127.0.0.1:9/v1")
    assert writers["openai"].model == "llama3.1:8b"
    table.rows.clear()  # the model is cleared, and the environment names none
    writers.expire()
    with caplog.at_level(logging.WARNING):
        assert sorted(writers) == ["offline"]
    assert "OPENAI_MODEL" in caplog.text
    with pytest.raises(ValueError, match="OPENAI_MODEL"):
        live(table, clock, OPENAI_BASE_URL="http://127.0.0.1:9/v1")


def test_a_writer_set_by_hand_stands_in_until_deleted():
    writers = live(None, Clock(), ANTHROPIC_API_KEY="sk-ant-env")
    hosted, stand_in = writers["claude"], FakeWriter("claude")
    writers["claude"] = stand_in
    assert writers["claude"] is stand_in
    del writers["claude"]
    assert writers["claude"] is hosted


def test_the_default_writer_follows_the_providers_there_are():
    writers = {"offline": FakeWriter("offline"), "openai": FakeWriter("openai")}
    generator = Generator(writers, None)
    assert generator.default == "openai"
    writers["gemini"] = FakeWriter("gemini")
    assert generator.default == "gemini"
    generator.default = "claude"  # GENERATOR names one that is not there (its key was cleared): by preference
    assert generator.default == "gemini"
    writers["claude"] = FakeWriter("claude")
    assert generator.default == "claude"
