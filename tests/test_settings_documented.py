"""Every field of the settings record (configuration/settings.py) has a row in the configuration table
(docs/configuration.md), and every setting a row names is one the record reads: a setting added without its
documentation fails here."""
import re
from pathlib import Path

from app import DEFAULTS
from configuration.settings import Settings, paths

CONFIGURATION = Path(__file__).resolve().parents[1] / "docs" / "configuration.md"


def documented() -> set[str]:
    """The settings named in the first cell of the configuration table's rows."""
    table = CONFIGURATION.read_text(encoding="utf-8")
    table = table[:table.index("\n\n", table.index("| setting |"))]
    return {name for row in re.findall(r"^\| ([^|]+) \|", table, re.M) for name in re.findall(r"`([A-Z_0-9]+)`", row)}


def test_every_setting_is_documented_and_every_documented_one_exists():
    names = documented()
    assert sorted(set(DEFAULTS) - names) == []
    assert sorted(names - set(DEFAULTS) - {"GOOGLE_API_KEY", "FLASK_DATABASE_URL"}) == []  # the two aliases


def test_every_field_of_the_record_has_a_flat_name_in_the_defaults():
    assert set(paths()) - {"TESTING"} == set(DEFAULTS)
    read = Settings.of({**DEFAULTS, "TOP_K": "8", "INGEST_WORKER": "off", "CLAUDE_MODELS": "a, b"})
    assert (read.search.top_k, read.library.ingest_worker, read.writers.claude.models) == (8, False, ("a", "b"))


def test_a_setting_of_the_wrong_type_is_named():
    import pytest

    with pytest.raises(ValueError, match="TOP_K must be int"):
        Settings.of({"TOP_K": "many"})
