"""Two workers (two apps over one history file, each with its own provider client) report the same provider
state: the circuit and the last call of whichever worker called the provider last (app.share_provider_state)."""
from app import create_app
from conftest import FakeClassifier, FakeWriter, make_retriever
from generator import Generator
from pipeline import Pipeline
from standin import answer_body, error_body, make_writer


def worker(standin, history_db):
    """One worker: its own client of the provider (and its own circuit), the shared history file."""
    hosted = make_writer("openai", standin.url, retries=0, failures_to_open=1, cooldown=60.0)
    generator = Generator({"openai": hosted, "offline": FakeWriter("offline")}, "openai")
    pipeline = Pipeline(FakeClassifier(), make_retriever(), generator, {"library": {"chunks": 4}})
    return create_app({"TESTING": True, "HISTORY_DB": str(history_db)}, pipeline=pipeline).test_client()


def providers(client) -> dict:
    return client.get("/api/health").get_json()["providers"]["openai"]


def test_consecutive_health_calls_on_two_workers_agree(standin, tmp_path):
    first, second = worker(standin, tmp_path / "history.sqlite3"), worker(standin, tmp_path / "history.sqlite3")
    assert providers(first)["last_call"] is None and providers(second)["last_call"] is None
    standin.reply(503, error_body(503))
    assert first.post("/api/query", json={"question": "Who discovered penicillin?"}).status_code == 200  # degraded
    told = [providers(first), providers(second), providers(first), providers(second)]
    assert all(t == told[0] for t in told)
    assert told[0]["circuit"] == "open" and told[0]["last_call"]["ok"] is False
    assert "HTTP 503" in told[0]["last_call"]["error"]

    standin.replies.clear()
    standin.reply(200, answer_body("openai"))
    assert second.post("/api/query", json={"question": "Who discovered penicillin?"}).status_code == 200
    told = [providers(first), providers(second)]
    assert told[0] == told[1] and told[0]["circuit"] == "closed" and told[0]["last_call"]["ok"] is True


def test_an_open_circuit_whose_cooldown_has_passed_is_not_shown_open(standin, tmp_path):
    from storage import provider_state

    client = worker(standin, tmp_path / "history.sqlite3")
    history = client.application.extensions["history"]
    provider_state.save(history, "openai", {"circuit": "open", "last_call": {"ok": False}, "retry_at": 1.0})
    assert providers(client)["circuit"] == "half_open"
    provider_state.save(history, "openai", {"circuit": "open", "last_call": {"ok": False}, "retry_at": 4e9})
    assert providers(client)["circuit"] == "open"
