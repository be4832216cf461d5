"""/metrics (web/metrics.py): Prometheus's text format, each app its own registry; admins only on a shared server."""
import pytest
from prometheus_client.parser import text_string_to_metric_families

from accounts.passwords import digest, hash_password, new_token
from app import create_app
from builders import BOOK, library_app, upload, wait_for
from conftest import FakeWriter, make_pipeline
from generator import Generator
from pipeline import Pipeline
from writers.writer import ProviderError

QUESTION = "Who discovered penicillin?"


def samples(client, headers=None) -> dict:
    """The scraped samples by name and labels: {(name, (("label", "value"), ...)): value}."""
    response = client.get("/metrics", headers=headers or {})
    assert response.status_code == 200 and response.content_type.startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(response.get_data(as_text=True)) for s in family.samples}


class FailingWriter(FakeWriter):
    """A hosted provider that is down, with its circuit breaker open."""

    def write(self, request):
        raise ProviderError("Claude: HTTP 503 after 3 attempts")

    def status(self):
        return {"name": self.name, "model": "claude-test", "configured": True, "circuit": "open", "last_call": None}


def test_stage_histograms_and_answers_are_counted_after_questions(client):
    for _ in range(3):
        assert client.post("/api/query", json={"question": QUESTION}).status_code == 200
    stream = client.post("/api/query/stream", json={"question": QUESTION})
    assert "event: done" in stream.get_data(as_text=True)
    found = samples(client)
    for stage in ("classify", "retrieve", "generate", "total"):
        assert found[("evidenz_answer_stage_seconds_count", (("stage", stage),))] == 4
        assert found[("evidenz_answer_stage_seconds_bucket", (("le", "+Inf"), ("stage", stage)))] == 4
        assert ("evidenz_answer_stage_seconds_bucket", (("le", "0.005"), ("stage", stage))) in found
    assert found[("evidenz_answers_total", (("declined", "false"), ("generator", "offline")))] == 4
    assert found[("evidenz_degraded_answers_total", ())] == 0
    assert found[("evidenz_loaded", ())] == 1
    assert found[("evidenz_library_chunks", ())] == 4
    assert found[("evidenz_provider_circuit", (("provider", "offline"), ("state", "closed")))] == 1


def test_a_failed_provider_counts_a_degraded_answer_and_shows_its_open_circuit():
    writers = {"claude": FailingWriter("claude"), "offline": FakeWriter("offline")}
    pipeline = make_pipeline()
    pipeline = Pipeline(pipeline.classifier, pipeline.retriever, Generator(writers, "claude"), pipeline.info)
    client = create_app({"TESTING": True}, pipeline=pipeline).test_client()
    assert client.post("/api/query", json={"question": QUESTION}).get_json()["degraded"] is True
    found = samples(client)
    assert found[("evidenz_degraded_answers_total", ())] == 1
    assert found[("evidenz_answers_total", (("declined", "false"), ("generator", "offline")))] == 1
    assert found[("evidenz_provider_circuit", (("provider", "claude"), ("state", "open")))] == 1
    assert found[("evidenz_provider_circuit", (("provider", "claude"), ("state", "closed")))] == 0


def test_each_app_counts_alone(client):
    client.post("/api/query", json={"question": QUESTION})
    other = create_app({"TESTING": True}, pipeline=make_pipeline()).test_client()
    assert samples(other)[("evidenz_answer_stage_seconds_count", (("stage", "total"),))] == 0
    assert samples(client)[("evidenz_answer_stage_seconds_count", (("stage", "total"),))] == 1


def test_a_server_still_loading_says_so_and_nothing_else(monkeypatch):
    app = create_app({"TESTING": True}, pipeline=make_pipeline())
    monkeypatch.setattr(app.extensions["rag"], "services", None)
    monkeypatch.setattr(app.extensions["rag"], "start", lambda: None)
    found = samples(app.test_client())
    assert found[("evidenz_loaded", ())] == 0 and not any(name == "evidenz_library_chunks" for name, _ in found)


def make_user(app, name, role):
    """A user of role and the Authorization header of a token of theirs."""
    accounts = app.extensions["history"].accounts
    user = accounts.create(name, role, hash_password("correct horse battery"), None)
    token = new_token()
    accounts.add_token(user["id"], digest(token), "test", None)
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def shared_app(tmp_path):
    """A shared server (it has users) over a real library that can change."""
    return library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, tmp_path / "lib")


def test_on_a_shared_server_only_admins_may_scrape(shared_app):
    admin, learner = make_user(shared_app, "admin", "admin"), make_user(shared_app, "learner", "learner")
    client = shared_app.test_client()
    assert client.get("/metrics").status_code == 401
    refused = client.get("/metrics", headers=learner)
    assert refused.status_code == 403 and "metrics" in refused.get_json()["error"]
    assert samples(client, admin)[("evidenz_loaded", ())] == 1


def test_the_library_size_and_jobs_by_state_of_a_library_that_can_change(shared_app):
    admin = make_user(shared_app, "admin", "admin")
    client = shared_app.test_client()
    before = samples(client, admin)
    assert before[("evidenz_library_documents", ())] == 4
    assert before[("evidenz_ingest_jobs", (("state", "done"),))] == 0
    job = upload(client, "kettles.txt", BOOK.encode(), headers=admin)
    assert wait_for(client, job.get_json(), headers=admin)["status"] == "done"
    after = samples(client, admin)
    assert after[("evidenz_library_documents", ())] == 5
    assert after[("evidenz_library_chunks", ())] > before[("evidenz_library_chunks", ())]
    assert after[("evidenz_ingest_jobs", (("state", "done"),))] == 1
    assert after[("evidenz_ingest_jobs", (("state", "queued"),))] == 0
