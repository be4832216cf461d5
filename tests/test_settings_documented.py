"""Every setting in app.DEFAULTS has a row in the configuration table (docs/configuration.md), and every setting a row names is
one the app reads: a setting added without its documentation fails here."""
import re
from pathlib import Path

from app import DEFAULTS

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
