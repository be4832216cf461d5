"""The HTTP API with a real Flask app, real BM25 and fake models."""
import threading

import pytest

import app as app_module
from app import create_app
from conftest import FakeWriter, make_pipeline


def test_query_returns_the_documented_shape(client):
    response = client.post("/api/query", json={"question": "Who discovered penicillin?"})
    assert response.status_code == 200
    body = response.json
    assert body["question"] == "Who discovered penicillin?" and body["query_type"] == "factual_lookup"
    assert body["answer"] == "Fleming discovered penicillin [1]."
    assert body["citations"] == [{"n": 1, "passage_id": "fleming#0", "title": "Alexander Fleming", "ref": "Alexander Fleming",
                                  "valid": True, "quote_verified": None, "support": None, "verified": None, "spans": [],
                                  "marks": [], "ref_he": None}]
    assert body["standalone_question"] == body["question"] and body["rewritten"] is False and body["language"] == "en"
    assert len(body["id"]) == 32 and len(body["session_id"]) == 32 and body["followup_retrieval"] is None
    assert body["removed_claims"] == []
    assert body["generator"] == "offline" and body["degraded"] is False and body["reranked"] is False
    first = body["passages"][0]
    assert set(first) >= {"id", "title", "chunk", "ce_score", "bm25_score", "dense_score"}
    assert first["id"] == "fleming#0" and first["ce_score"] == first["hybrid_score"]  # no reranker: hybrid score
    assert len(body["passages"]) == 4  # the factual_lookup policy's depth
    assert set(body["timings_ms"]) >= {"classify", "retrieve", "generate", "total"}


def test_top_k_sets_the_number_of_passages(client):
    assert len(client.post("/api/query", json={"question": "Rome", "top_k": 2}).json["passages"]) == 2


def test_query_type_selects_retrieval_depth():
    client = create_app({"TESTING": True}, pipeline=make_pipeline(label="factual_lookup")).test_client()
    deep = create_app({"TESTING": True}, pipeline=make_pipeline(label="reasoning")).test_client()
    assert len(client.post("/api/query", json={"question": "Rome"}).json["passages"]) == 4
    assert len(deep.post("/api/query", json={"question": "Rome"}).json["passages"]) == 4  # only 4 chunks exist
    writer = FakeWriter("offline")
    create_app({"TESTING": True}, pipeline=make_pipeline(writer, "reasoning")).test_client().post(
        "/api/query", json={"question": "Why did Rome grow?"})
    assert writer.calls[0][1] == "reasoning"  # the type reaches the writer, which picks the answer style


@pytest.mark.parametrize(
    "body, message",
    [
        ({}, 'Missing "question"'),
        ({"question": ""}, '"question" is empty'),
        ({"question": "   "}, '"question" is empty'),
        ({"question": 42}, '"question" must be a string'),
        ({"question": ["a"]}, '"question" must be a string'),
        ({"question": "x" * 2001}, "the limit is 2,000"),
        ({"question": "ok", "extra": 1}, "Unknown field(s): extra"),
        ({"question": "ok", "top_k": 0}, '"top_k" must be a whole number from 1 to 20'),
        ({"question": "ok", "top_k": 21}, '"top_k" must be a whole number from 1 to 20'),
        ({"question": "ok", "top_k": "5"}, '"top_k" must be a whole number'),
        ({"question": "ok", "top_k": True}, '"top_k" must be a whole number'),
        ({"question": "ok", "provider": "gpt-9"}, '"provider" must be one of the configured providers: offline'),
        ({"question": "ok", "model": ""}, '"model" must be a model name of 1 to 100'),
        ({"question": "ok", "model": 7}, '"model" must be a model name'),
        ({"question": "ok", "language": "Hebrew!"}, '"language" must be "auto" or a language code'),
        ({"question": "ok", "session_id": "../etc"}, '"session_id" must be 1 to 100 letters'),
        ({"question": "ok", "session_id": "x" * 101}, '"session_id" must be 1 to 100 letters'),
        (["question"], "must be a JSON object"),
        ("question", "must be a JSON object"),
    ],
)
def test_bad_query_is_a_400_that_says_what_to_fix(client, body, message):
    response = client.post("/api/query", json=body)
    assert response.status_code == 400
    assert message in response.json["error"]


def test_question_at_the_limit_is_accepted(client):
    assert client.post("/api/query", json={"question": "x" * 2000}).status_code == 200


def test_non_json_body_is_a_400(client):
    response = client.post("/api/query", data="question=hi", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400 and "not JSON" in response.json["error"]
    response = client.post("/api/query", data="{broken", content_type="application/json")
    assert response.status_code == 400 and "not JSON" in response.json["error"]


def test_oversized_body_is_a_413(client):
    response = client.post("/api/query", data="x" * 70_000, content_type="application/json")
    assert response.status_code == 413 and "larger than" in response.json["error"]


def test_404_and_405_answer_json(client):
    assert client.get("/api/nothing").status_code == 404
    assert "Not found" in client.get("/api/nothing").json["error"]
    response = client.get("/api/query")
    assert response.status_code == 405 and "GET is not allowed" in response.json["error"]


class ExplodingPipeline:
    generator = make_pipeline().generator

    def answer(self, ask):
        raise RuntimeError("secret at /home/user/key sk-ant-123")


def test_unexpected_error_is_a_500_without_details(caplog):
    client = create_app({"TESTING": False}, pipeline=ExplodingPipeline()).test_client()
    response = client.post("/api/query", json={"question": "Boom?"})
    assert response.status_code == 500
    assert "secret" not in response.text and "sk-ant" not in response.text and "Traceback" not in response.text
    assert response.json["error"].startswith("Something went wrong")
    assert "secret at /home/user/key" in caplog.text  # the details go to the log


def test_page_is_served_with_a_content_security_policy(client):
    response = client.get("/")
    assert response.status_code == 200 and b'<script src="/static/app.js"' in response.data
    assert "script-src" not in response.headers["Content-Security-Policy"]  # default-src 'self' covers scripts
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert client.get("/static/app.js").status_code == 200


def test_health_reports_what_is_live(client):
    response = client.get("/api/health")
    assert response.status_code == 200
    body = response.json
    assert body["status"] == "ok" and body["generator"] == "offline" and list(body["providers"]) == ["offline"]
    assert body["providers"]["offline"]["configured"] is True and {"en", "he"} <= set(body["languages"])
    assert body["reranker"] is None and "off" in body["rerank_note"]


def test_health_is_503_while_loading_then_200(monkeypatch):
    release = threading.Event()

    def slow_build(config, history=None):
        release.wait(10)
        return app_module.Services(make_pipeline())

    monkeypatch.setattr(app_module, "build", slow_build)
    client = create_app({"TESTING": True}).test_client()
    response = client.get("/api/health")
    assert response.status_code == 503 and response.json == {"status": "loading"}
    query = client.post("/api/query", json={"question": "Who discovered penicillin?"})
    assert query.status_code == 503 and "still loading" in query.json["error"]
    release.set()
    client.application.extensions["rag"]._thread.join(10)
    assert client.get("/api/health").status_code == 200
    assert client.post("/api/query", json={"question": "Who discovered penicillin?"}).status_code == 200


def test_failed_load_is_reported_with_the_fix(tmp_path):
    client = create_app({"TESTING": True, "LIBRARY_DIR": str(tmp_path / "none")}).test_client()
    client.get("/api/health")
    client.application.extensions["rag"]._thread.join(60)
    response = client.get("/api/health")
    assert response.status_code == 503 and response.json["status"] == "error"
    assert "ingest-default" in response.json["error"]
    assert "ingest-default" in client.post("/api/query", json={"question": "Hi?"}).json["error"]


@pytest.mark.parametrize("filters, message", [
    ("he", '"filters" must be an object'),
    ({"colour": "red"}, "Unknown filter(s): colour"),
    ({"document_ids": "fleming"}, "must be a list"),
    ({"language": 5}, '"filters.language" must be a string'),
])
def test_bad_filters_get_a_400_that_says_what_to_fix(client, filters, message):
    response = client.post("/api/query", json={"question": "Who discovered penicillin?", "filters": filters})
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_document_filter_narrows_the_search(client):
    body = client.post("/api/query", json={"question": "Who discovered penicillin?",
                                           "filters": {"document_ids": ["everest"]}}).get_json()
    assert {p["doc_id"] for p in body["passages"]} == {"everest"}
