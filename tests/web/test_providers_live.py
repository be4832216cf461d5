"""A key or model set through /api/admin/providers is what each provider's real SDK sends, over real HTTP to its
stand-in (tests/standin.py): at once on the server where it was set, and within writers/live.FRESH_SECONDS on
another server of the same database (each backend); the table's key wins over the environment's until cleared;
and no log line, at any level, holds the key."""
import logging

import pytest

from app import create_app
from configuration.settings import Settings
from conftest import FakeClassifier, FakeWriter, make_retriever
from generator import Generator
from pipeline import Pipeline
from standin import answer_body
from writers.live import FRESH_SECONDS, LiveWriters

KEY = "table-key-" + "t" * 30 + "TBLE"
ENV_KEY = "env-key-" + "e" * 30 + "ENVK"
QUESTION = "Who discovered penicillin?"
SENT = {"claude": ("x-api-key", "authorization"), "gemini": ("x-goog-api-key",), "openai": ("authorization",)}
MODELS = {"claude": "claude-opus-4-1", "gemini": "gemini-2.5-pro", "openai": "llama3.1:8b"}


class Clock:
    now = 1000.0

    def __call__(self):
        return self.now


def config_of(standins, **extra) -> dict:
    """Every provider's server is its stand-in; no key is set in the environment unless extra sets one."""
    return {"TESTING": True, "ANTHROPIC_BASE_URL": standins["claude"].url, "GEMINI_BASE_URL": standins["gemini"].url,
            "OPENAI_BASE_URL": standins["openai"].url + "/v1", "OPENAI_MODEL": "local-standin", "LLM_TIMEOUT": 3.0,
            "LLM_RETRIES": 0, "ANTHROPIC_API_KEY": "", "GEMINI_API_KEY": "", "OPENAI_API_KEY": "", **extra}


def live_app(config, clock=None):
    """The app over a pipeline of fake models whose hosted writers are built as a server's are (LiveWriters)."""
    writers = LiveWriters(Settings.of(config).writers, {"offline": FakeWriter("offline")},
                          **({"clock": clock} if clock else {}))
    pipeline = Pipeline(FakeClassifier(), make_retriever(), Generator(writers, None), {"library": {"chunks": 4}},
                        max_searches=0)  # the writers are given the passages: one call each
    return create_app(config, pipeline=pipeline)


def ask(app, provider=None):
    body = {"question": QUESTION, **({"provider": provider} if provider else {})}
    return app.test_client().post("/api/query", json=body)


def sent(standin, provider) -> str | None:
    """The key the provider's SDK sent in its last request, in the header its API reads (anthropic's SDK sends
    x-api-key or, in newer versions, a bearer token)."""
    headers = standin.requests[-1]["headers"]
    value = next((headers[h] for h in SENT[provider] if h in headers), None)
    return value if value is None else value.removeprefix("Bearer ")


@pytest.fixture(autouse=True)
def replies(standins):
    for name, standin in standins.items():
        standin.replies.clear()
        standin.requests.clear()
        standin.reply(200, answer_body(name))


@pytest.mark.parametrize("provider", ["claude", "gemini", "openai"])
def test_the_key_and_model_set_are_what_the_sdk_sends_and_no_log_holds_the_key(provider, standins, caplog):
    caplog.set_level(logging.DEBUG)  # the SDKs' and HTTP clients' debug lines too
    app = live_app(config_of(standins))
    put = app.test_client().put(f"/api/admin/providers/{provider}", json={"api_key": KEY, "model": MODELS[provider]})
    assert put.status_code == 200 and put.json["provider"]["answers"]
    answer = ask(app, provider)
    assert answer.status_code == 200 and answer.json["generator"] == provider and not answer.json["degraded"]
    assert sent(standins[provider], provider) == KEY
    request = standins[provider].requests[-1]
    assert MODELS[provider] in (request["path"] if provider == "gemini" else request["json"]["model"])
    assert KEY not in put.get_data(as_text=True) + answer.get_data(as_text=True)
    logged = caplog.text + "".join(r.getMessage() for r in caplog.records)
    assert len(caplog.records) > 3 and KEY not in logged and KEY[-12:] not in logged


def test_the_tables_key_wins_over_the_environments_until_it_is_cleared(standins):
    app = live_app(config_of(standins, ANTHROPIC_API_KEY=ENV_KEY))
    client, claude = app.test_client(), standins["claude"]
    ask(app, "claude")
    assert sent(claude, "claude") == ENV_KEY and claude.requests[-1]["json"]["model"] == "claude-sonnet-4-5"
    client.put("/api/admin/providers/claude", json={"api_key": KEY})
    ask(app, "claude")
    assert sent(claude, "claude") == KEY and claude.requests[-1]["json"]["model"] == "claude-sonnet-4-5"
    listed = client.get("/api/admin/providers").json["providers"][0]
    assert (listed["key_from"], listed["key_last4"], listed["model_from"]) == ("table", "TBLE", "environment")
    client.delete("/api/admin/providers/claude")
    ask(app, "claude")
    assert sent(claude, "claude") == ENV_KEY


def test_a_key_set_for_a_provider_makes_it_the_default_when_generator_is_unset(standins):
    app = live_app(config_of(standins))
    client = app.test_client()
    assert client.get("/api/health").json["generator"] == "openai"  # the only one with a server and model
    assert ask(app, "gemini").status_code == 400  # not configured yet
    client.put("/api/admin/providers/gemini", json={"api_key": KEY})
    assert client.get("/api/health").json["generator"] == "gemini"  # gemini comes first when it is there
    assert ask(app).json["generator"] == "gemini" and sent(standins["gemini"], "gemini") == KEY
    client.delete("/api/admin/providers/gemini")
    assert client.get("/api/health").json["generator"] == "openai"


def test_another_server_on_the_same_database_uses_the_key_within_seconds(backend, standins, tmp_path):
    config = config_of(standins, HISTORY_DB=str(tmp_path / "history.sqlite3"), **backend.config)
    clock = Clock()
    here, there = live_app(config), live_app(config, clock)  # two servers: one history file, or one schema
    assert here.extensions["history"] is not there.extensions["history"]
    assert ask(there, "claude").status_code == 400  # no key anywhere yet
    here.test_client().put("/api/admin/providers/claude", json={"api_key": KEY})
    assert ask(here, "claude").status_code == 200 and sent(standins["claude"], "claude") == KEY  # at once here
    assert ask(there, "claude").status_code == 400  # there, its reading of the table is still fresh
    clock.now += FRESH_SECONDS
    assert ask(there, "claude").json["generator"] == "claude" and sent(standins["claude"], "claude") == KEY
    here.test_client().delete("/api/admin/providers/claude")
    clock.now += FRESH_SECONDS
    assert ask(there, "claude").status_code == 400


@pytest.mark.parametrize("provider", ["claude", "gemini", "openai"])
def test_a_refused_key_echoed_by_the_provider_reaches_neither_the_reader_nor_the_log(provider, standins, caplog):
    caplog.set_level(logging.DEBUG)
    app = live_app(config_of(standins))
    app.test_client().put(f"/api/admin/providers/{provider}", json={"api_key": KEY})
    standins[provider].replies.clear()
    standins[provider].reply(401, {"error": {"type": "authentication_error", "code": 401, "status": "UNAUTHENTICATED",
                                             "message": f"Incorrect API key provided: {KEY}"}})
    answer = ask(app, provider)
    assert answer.status_code == 200 and "HTTP 401" in answer.json["degraded_reason"]  # written offline instead
    logged = caplog.text + "".join(r.getMessage() for r in caplog.records)
    assert KEY not in answer.get_data(as_text=True) and KEY not in logged
