"""The request log (web/logs.py): one JSON line per request, with its id, route, status, time and answer timings."""
import json
import logging

import pytest

from app import create_app
from conftest import make_pipeline
from web.logs import enabled, log

QUESTION = "Who discovered penicillin?"


class Lines(logging.Handler):
    """Keeps every record's message."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture
def lines():
    """The request log's lines, parsed, as they are written during the test."""
    handler = Lines()
    log.addHandler(handler)
    yield lambda: [json.loads(message) for message in handler.messages]
    log.removeHandler(handler)


def test_a_safe_request_id_is_echoed_and_logged(client, lines):
    response = client.get("/api/health", headers={"X-Request-ID": "trace-42.a_b"})
    assert response.headers["X-Request-ID"] == "trace-42.a_b"
    [line] = lines()
    assert line["request_id"] == "trace-42.a_b"
    assert (line["method"], line["route"], line["status"]) == ("GET", "/api/health", 200)
    assert line["ms"] >= 0 and "timings_ms" not in line


@pytest.mark.parametrize("sent", [None, "", "has space", "semi;colon", "x" * 101, "ü"])
def test_an_absent_or_unsafe_request_id_is_replaced_by_a_new_one(client, lines, sent):
    response = client.get("/api/health", headers={"X-Request-ID": sent} if sent is not None else {})
    made = response.headers["X-Request-ID"]
    assert made != sent and len(made) == 32 and int(made, 16) >= 0
    assert lines()[0]["request_id"] == made


def test_each_request_gets_its_own_id(client):
    ids = {client.get("/api/health").headers["X-Request-ID"] for _ in range(3)}
    assert len(ids) == 3


def test_an_answer_is_logged_with_its_timings_and_writer_but_not_its_question(client, lines):
    response = client.post("/api/query", json={"question": QUESTION})
    body = response.get_json()
    [line] = lines()
    assert (line["route"], line["method"], line["status"]) == ("/api/query", "POST", 200)
    assert line["timings_ms"] == body["timings_ms"]
    assert set(line["timings_ms"]) >= {"classify", "retrieve", "generate", "total"}
    assert line["writer"] == {"provider": "offline", "model": None, "latency_ms": body["timings_ms"]["generate"]}
    assert line["answer_id"] == body["id"] and line["declined"] is False and line["degraded"] is False
    assert line["ms"] >= line["timings_ms"]["total"]
    assert "question" not in line and "penicillin" not in json.dumps(line).lower()


@pytest.mark.parametrize("setting", [True, "true", "1"])
def test_the_question_is_logged_only_with_log_questions(lines, setting):
    client = create_app({"TESTING": True, "LOG_QUESTIONS": setting}, pipeline=make_pipeline()).test_client()
    client.post("/api/query", json={"question": QUESTION})
    assert lines()[0]["question"] == QUESTION


def test_a_stream_is_logged_when_it_ends_with_the_answers_timings(client, lines):
    response = client.post("/api/query/stream", json={"question": QUESTION}, headers={"X-Request-ID": "stream-1"})
    text = response.get_data(as_text=True)
    assert response.headers["X-Request-ID"] == "stream-1"
    assert "event: done" in text
    response.close()
    [line] = [line for line in lines() if line["request_id"] == "stream-1"]
    assert (line["route"], line["status"]) == ("/api/query/stream", 200)
    assert set(line["timings_ms"]) >= {"classify", "retrieve", "generate", "total"}
    assert line["writer"]["provider"] == "offline" and "question" not in line


def test_the_route_is_the_url_rule_not_the_path(client, lines):
    client.get("/api/history/not-an-answer")
    client.get("/no/such/page")
    routed, unrouted = lines()
    assert routed["route"] == "/api/history/<answer_id>" and "not-an-answer" not in json.dumps(routed)
    assert (unrouted["route"], unrouted["status"]) == (None, 404)


def test_a_request_refused_by_the_host_check_is_logged_too(client, lines):
    response = client.get("/api/health", headers={"Host": "rebound.example", "X-Request-ID": "refused"})
    assert response.status_code == 400 and response.headers["X-Request-ID"] == "refused"
    assert lines()[0]["status"] == 400


@pytest.mark.parametrize("value, on", [(False, False), (True, True), ("false", False), ("0", False), (0, False),
                                       ("", False), ("yes", True), ("on", True), (1, True)])
def test_log_questions_reads_a_bool_or_the_environments_string(value, on):
    assert enabled(value) is on
