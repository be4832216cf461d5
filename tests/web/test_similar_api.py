"""Reviewed answers to similar questions over HTTP, on each backend: beside a new answer (/api/query and its
stream) and listed by GET /api/history/similar, for each reader only the answers they may read.

A real library, history and users; the embedder (a bag of hashed words: questions that share their words are
near), classifier and writer are fakes, so the fake embedder's threshold is UNCALIBRATED's (0.80).
"""
import json
from dataclasses import replace

import pytest

from accounts.passwords import digest, hash_password, new_token
from builders import BOOK, library_app, upload, wait_for

PENICILLIN = "Who discovered penicillin?"
KETTLE = "How hot should the water for green tea be?"
CORRECTION = "Alexander Fleming discovered it in 1928 [1]."


@pytest.fixture
def app(tmp_path, backend):
    return library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, tmp_path / "lib", backend=backend)


def make_user(app, name, role):
    """A user of role and the Authorization header of a fresh token of theirs."""
    accounts = app.extensions["history"].accounts
    user = accounts.create(name, role, hash_password("correct horse battery"))
    token = new_token()
    accounts.add_token(user["id"], digest(token), "test", None)
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def roles(app):
    """Tokens of two learners, a reviewer, an editor and an admin."""
    return {name: make_user(app, name, role) for name, role in (("dan", "learner"), ("eli", "learner"),
                                                                ("rivka", "reviewer"), ("editor", "editor"),
                                                                ("admin", "admin"))}


def ask(client, headers, question=PENICILLIN):
    response = client.post("/api/query", json={"question": question}, headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def similar(client, headers, question=PENICILLIN, **params):
    return client.get("/api/history/similar", query_string={"q": question, **params}, headers=headers)


def test_a_reviewers_correction_is_shown_beside_the_same_question_asked_again(app, roles):
    client, dan, rivka = app.test_client(), roles["dan"], roles["rivka"]
    first = ask(client, dan)
    assert first["reviewed"] == []  # nothing reviewed yet
    reviewed = client.post(f"/api/history/{first['id']}/review", headers=rivka,
                           json={"status": "corrected", "corrected_text": CORRECTION})
    assert reviewed.status_code == 200

    again = ask(client, dan, "Who first discovered penicillin?")
    [item] = again["reviewed"]
    assert (item["id"], item["question"], item["answer"], item["review_status"], item["reviewer"]) == (
        first["id"], PENICILLIN, CORRECTION, "corrected", "rivka")
    assert item["reviewed_at"] == reviewed.get_json()["reviewed_at"] and 0.8 <= item["similarity"] < 1
    streamed = client.post("/api/query/stream", json={"question": PENICILLIN}, headers=dan).get_data(as_text=True)
    answer = json.loads(next(b for b in streamed.split("\n\n") if b.startswith("event: answer")).split("data: ", 1)[1])
    assert [r["id"] for r in answer["reviewed"]] == [first["id"]] and answer["reviewed"][0]["similarity"] == 1.0
    assert ask(client, dan, "How high is Mount Everest?")["reviewed"] == []  # an unrelated question: none

    listed = similar(client, dan, "who discovered PENICILLIN").get_json()
    assert [i["id"] for i in listed["items"]] == [first["id"]] and listed["threshold"] == 0.8
    assert similar(client, dan, "Where is Mount Everest?").get_json()["items"] == []
    assert client.get(f"/api/history/{again['id']}", headers=dan).get_json()["answer"] == again["answer"]


def test_approved_answers_are_reused_and_rejected_or_unreviewed_ones_are_not(app, roles):
    client, dan, rivka = app.test_client(), roles["dan"], roles["rivka"]
    approved, rejected, unreviewed = (ask(client, dan)["id"] for _ in range(3))
    for answer_id, status in ((approved, "approved"), (rejected, "rejected")):
        assert client.post(f"/api/history/{answer_id}/review", json={"status": status}, headers=rivka).status_code == 200
    items = similar(client, dan, limit=10).get_json()["items"]
    assert [i["id"] for i in items] == [approved] and items[0]["answer"].startswith("Fleming discovered penicillin")
    assert unreviewed not in {i["id"] for i in ask(client, dan)["reviewed"]}


def test_each_reader_sees_only_the_reviewed_answers_they_may_read(app, roles):
    client, dan, eli, rivka, editor, admin = (app.test_client(), *(roles[n] for n in ("dan", "eli", "rivka",
                                                                                       "editor", "admin")))
    sent = upload(client, "kettles.txt", BOOK.encode(), headers=editor, tier="private")
    kettles = wait_for(client, sent.get_json(), headers=editor)["document_id"]
    dans = ask(client, dan)["id"]
    editors = ask(client, editor, KETTLE)
    assert kettles in {p["doc_id"] for p in editors["passages"]}  # the answer rests on the private book
    for answer_id in (dans, editors["id"]):
        assert client.post(f"/api/history/{answer_id}/review", json={"status": "approved"},
                           headers=admin).status_code == 200

    def seen(headers, question):
        return ({i["id"] for i in similar(client, headers, question).get_json()["items"]},
                {i["id"] for i in ask(client, headers, question)["reviewed"]})

    assert seen(dan, PENICILLIN) == ({dans}, {dans})  # their own
    assert seen(eli, PENICILLIN) == (set(), set())  # another learner's answer is not theirs to read
    assert seen(rivka, PENICILLIN) == ({dans}, {dans})  # reviewers read every answer...
    assert seen(rivka, KETTLE) == (set(), set())  # ...but not one resting on a book hidden from them
    assert seen(editor, KETTLE) == ({editors["id"]}, {editors["id"]})
    assert seen(admin, KETTLE) == ({editors["id"]}, {editors["id"]})
    assert "kettle" not in json.dumps(similar(client, rivka, KETTLE).get_json()["items"]).lower()
    assert client.get("/api/history/similar?q=tea").status_code == 401  # a shared server: sign in first


@pytest.mark.parametrize("query, message", [
    ("", 'Send "q": the question'),
    ("q=", 'Send "q": the question'),
    ("q=%20%20", 'Send "q": the question'),
    ("q=" + "x" * 2001, '"q" has 2,001 characters; the limit is 2,000'),
    ("q=tea&limit=0", '"limit" must be a whole number from 1 to 20'),
    ("q=tea&limit=21", '"limit" must be a whole number from 1 to 20'),
    ("q=tea&limit=three", '"limit" must be a whole number'),
    ("q=tea&status=approved", "Unknown parameter(s): status. Allowed: q, limit"),
])
def test_bad_parameters_are_400_with_what_to_send(app, roles, query, message):
    response = app.test_client().get(f"/api/history/similar?{query}", headers=roles["dan"])
    assert response.status_code == 400 and message in response.get_json()["error"]
    assert "Traceback" not in response.get_data(as_text=True)


def test_a_threshold_that_is_no_cosine_stops_the_app_with_the_settings_name():
    from configuration.settings import Settings

    with pytest.raises(ValueError, match="SIMILAR_THRESHOLD is a cosine, from -1 to 1, not 5.0"):
        Settings.of({"SIMILAR_THRESHOLD": "5"})
    assert Settings.of({"SIMILAR_THRESHOLD": "0.9"}).search.similar_threshold == 0.9


def test_the_configured_threshold_is_the_one_used(app, roles):
    client, dan = app.test_client(), roles["dan"]
    first = ask(client, dan)
    client.post(f"/api/history/{first['id']}/review", json={"status": "approved"}, headers=roles["rivka"])
    assert [i["id"] for i in ask(client, dan, "Who first discovered penicillin?")["reviewed"]] == [first["id"]]
    app.extensions["settings"] = replace(app.extensions["settings"], search=replace(
        app.extensions["settings"].search, similar_threshold=0.9))  # 0.87 is not near enough any more
    assert ask(client, dan, "Who first discovered penicillin?")["reviewed"] == []
    assert similar(client, dan, "Who first discovered penicillin?").get_json()["threshold"] == 0.9
