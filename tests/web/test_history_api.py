"""The answer history's API through a real Flask app, over a real history on each backend (a fresh file, a fresh schema)."""
import pytest

from builders import history_client
from builders import logged_answer as entry


@pytest.fixture
def history(any_history):
    """A History file, then the PostgreSQL one (tests/pg.py): every test that takes it runs on both backends."""
    return any_history


@pytest.fixture
def client(history):
    return history_client(history)


def test_list_and_search_over_http(client, history):
    first = history.log(entry())
    second = history.log(entry("How high is Mount Everest?", "8,849 metres [1].", session_id="s2"))
    body = client.get("/api/history").json
    assert body["total"] == 2 and body["limit"] == 20 and body["offset"] == 0
    assert [i["id"] for i in body["items"]] == [second, first]
    assert set(body["items"][0]) == {"id", "session_id", "question", "answer", "query_type", "generator", "declined",
                                     "review_status", "created_at", "feedback"}
    body = client.get("/api/history", query_string={"q": "everest", "limit": 5}).json
    assert body["total"] == 1 and body["items"][0]["id"] == second and body["limit"] == 5
    assert client.get("/api/history?session_id=s1").json["items"][0]["id"] == first
    assert client.get("/api/history?limit=1&offset=1").json["items"][0]["id"] == first
    assert client.get("/api/history?status=approved").json == {"items": [], "total": 0, "limit": 20, "offset": 0}
    assert client.get("/api/history?q=&session_id=&status=").json["total"] == 2  # empty parameters are absent


def test_hebrew_search_over_http(client, history):
    answer_id = history.log(entry("האם מותר לחמם מים בשַׁבָּת?", "מותר [1].", language="he"))
    history.log(entry())
    body = client.get("/api/history", query_string={"q": "בשבת"}).json
    assert body["total"] == 1 and body["items"][0]["id"] == answer_id


@pytest.mark.parametrize("query, message", [
    ("limit=0", '"limit" must be a whole number from 1 to 100'),
    ("limit=101", '"limit" must be a whole number from 1 to 100'),
    ("limit=ten", '"limit" must be a whole number'),
    ("offset=-1", '"offset" must be a whole number from 0'),
    ("offset=99999999999999999999999", '"offset" must be a whole number from 0'),
    ("status=done", '"status" must be one of unreviewed, approved, corrected, rejected'),
    ("session_id=a%20b", '"session_id" must be'),
    ("page=2", "Unknown parameter(s): page. Allowed: q, session_id, status, limit, offset"),
    ("q=" + "x" * 201, "at most 200 characters"),
    ("q=penic%00illin", "must not contain a NUL character"),
])
def test_bad_list_parameters_are_400_with_what_to_send(client, query, message):
    response = client.get(f"/api/history?{query}")
    assert response.status_code == 400 and response.is_json
    assert message in response.json["error"] and "Traceback" not in response.get_data(as_text=True)


def test_one_answer_in_full_and_404_for_an_unknown_id(client, history):
    answer_id = history.log(entry())
    body = client.get(f"/api/history/{answer_id}").json
    assert body["id"] == answer_id and body["passages"][0]["id"] == "fleming#0" and body["feedback"] == []
    response = client.get("/api/history/nope")
    assert response.status_code == 404 and "No answer with id 'nope'" in response.json["error"]
    assert "GET /api/history" in response.json["error"]


def test_feedback_over_http(client, history):
    answer_id = history.log(entry())
    response = client.post(f"/api/history/{answer_id}/feedback", json={"rating": "down", "comment": "wrong year"})
    entry_id = response.json["entry"]
    assert response.status_code == 201 and response.json == {"id": answer_id, "entry": entry_id,
                                                              "feedback": {"up": 0, "down": 1}}
    assert client.post(f"/api/history/{answer_id}/feedback", json={"rating": "up"}).json["feedback"] == {"up": 1, "down": 1}
    assert [f["comment"] for f in history.get(answer_id)["feedback"]] == ["wrong year", None]
    assert client.get("/api/history").json["items"][0]["feedback"] == {"up": 1, "down": 1}


def test_a_comment_written_after_the_thumb_changes_the_same_entry_and_is_shown_again(client, history):
    answer_id = history.log(entry())
    first = client.post(f"/api/history/{answer_id}/feedback", json={"rating": "up"}).json
    later = client.post(f"/api/history/{answer_id}/feedback",
                        json={"rating": "up", "comment": "clear and sourced", "entry": first["entry"]})
    assert later.status_code == 200 and later.json["feedback"] == {"up": 1, "down": 0}  # one entry, now with a comment
    record = client.get(f"/api/history/{answer_id}").json
    assert record["feedback"] == [{"id": first["entry"], "rating": "up", "comment": "clear and sourced",
                                   "created_at": record["feedback"][0]["created_at"], "mine": True}]
    missing = client.post(f"/api/history/{answer_id}/feedback", json={"rating": "up", "entry": first["entry"] + 9})
    assert missing.status_code == 404 and 'without "entry"' in missing.json["error"]
    wrong = client.post(f"/api/history/{answer_id}/feedback", json={"rating": "up", "entry": "first"})
    assert wrong.status_code == 400 and "whole number" in wrong.json["error"]


@pytest.mark.parametrize("body, message", [
    ({}, 'Missing "rating"'),
    ({"rating": "meh"}, '"rating" must be "up" or "down"'),
    ({"rating": ["up"]}, '"rating" must be "up" or "down"'),
    ({"rating": "up", "comment": 3}, '"comment" must be text'),
    ({"rating": "up", "comment": "x" * 2001}, "the limit is 2,000"),
    ({"rating": "up", "stars": 5}, "Unknown field(s): stars. Allowed fields: rating, comment, entry"),
    ([1, 2], "Send a JSON object"),
])
def test_bad_feedback_is_400(client, history, body, message):
    answer_id = history.log(entry())
    response = client.post(f"/api/history/{answer_id}/feedback", json=body)
    assert response.status_code == 400 and message in response.json["error"]
    assert history.get(answer_id)["feedback"] == []


def test_feedback_that_is_not_json_is_400(client, history):
    answer_id = history.log(entry())
    response = client.post(f"/api/history/{answer_id}/feedback", data="up", content_type="text/plain")
    assert response.status_code == 400 and "application/json" in response.json["error"]


def test_feedback_and_review_on_an_unknown_answer_are_404(client):
    assert client.post("/api/history/abc/feedback", json={"rating": "up"}).status_code == 404
    response = client.post("/api/history/abc/review", json={"status": "approved"})
    assert response.status_code == 404 and "No answer with id 'abc'" in response.json["error"]


def test_review_over_http(client, history):
    answer_id = history.log(entry())
    url = f"/api/history/{answer_id}/review"
    body = client.post(url, json={"status": "corrected", "corrected_text": "Fleming, in 1928 [1]."}).json
    assert body["id"] == answer_id and body["review_status"] == "corrected" and body["reviewed_at"] > 0
    assert history.get(answer_id)["corrected_text"] == "Fleming, in 1928 [1]."
    assert client.get("/api/history?status=corrected").json["total"] == 1
    assert client.post(url, json={"status": "approved"}).json["corrected_text"] is None
    assert history.get(answer_id)["review_status"] == "approved"


@pytest.mark.parametrize("body, message", [
    ({}, 'Missing "status": send one of unreviewed, approved, corrected, rejected'),
    ({"status": "corrected"}, 'needs "corrected_text"'),
    ({"status": "approved", "corrected_text": "x"}, 'goes with status "corrected" only'),
    ({"status": "fine"}, '"status" must be one of'),
    ({"status": "approved", "note": "x"}, "Unknown field(s): note"),
])
def test_bad_review_is_400_and_changes_nothing(client, history, body, message):
    answer_id = history.log(entry())
    response = client.post(f"/api/history/{answer_id}/review", json=body)
    assert response.status_code == 400 and message in response.json["error"]
    assert history.get(answer_id)["review_status"] == "unreviewed"


def test_without_a_history_the_api_says_so():
    response = history_client(None).get("/api/history")
    assert response.status_code == 503 and "no answer history" in response.json["error"]
