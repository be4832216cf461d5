"""The settings read under their plain names (API keys, DATABASE_URL) are read when an app is created, not when
app.py is imported, with FLASK_-prefixed ones and a given config above them."""
from app import create_app


def test_plain_names_are_read_at_create_app_and_yield_to_prefixed_ones(monkeypatch, tmp_path):
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    monkeypatch.setenv("GOOGLE_API_KEY", "from-google")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "plain")
    monkeypatch.setenv("FLASK_ANTHROPIC_API_KEY", "prefixed")
    app = create_app({"TESTING": True, "HISTORY_DB": str(tmp_path / "h.sqlite3")})
    assert app.config["GEMINI_API_KEY"] == "from-google" and app.config["ANTHROPIC_API_KEY"] == "prefixed"
    monkeypatch.setenv("GEMINI_API_KEY", "gemini")
    later = create_app({"TESTING": True, "HISTORY_DB": str(tmp_path / "h.sqlite3"), "OPENAI_API_KEY": "given"})
    assert later.config["GEMINI_API_KEY"] == "gemini" and later.config["OPENAI_API_KEY"] == "given"
