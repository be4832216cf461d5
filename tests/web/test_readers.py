"""Readers, reviewers and editors over HTTP, on each backend: who may reach which passage, answer and action.

A real library, store, history and users (scrypt passwords, hashed tokens, cookie sessions); the embedder,
classifier and writer are fakes. Every request below acts as one role through a bearer token or the page's
session cookie.
"""
import json
import re
import time

import pytest

from accounts.passwords import digest, hash_password, new_token
from builders import BOOK, library_app, upload, wait_for
from web.auth import SESSION_COOKIE

KETTLE = "How hot should the water for green tea be?"
PASSWORD = "correct horse battery"


@pytest.fixture
def app(tmp_path, backend):
    return library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, tmp_path / "lib", backend=backend)


def make_user(app, name, role, tiers=None, expires_at=None):
    """A user of role and the Authorization header of a fresh token of theirs."""
    accounts = app.extensions["history"].accounts
    user = accounts.create(name, role, hash_password(PASSWORD), tiers)
    token = new_token()
    accounts.add_token(user["id"], digest(token), "test", expires_at)
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def roles(app):
    """admin, editor, learner and reviewer tokens; the editor has uploaded a private book (its id: roles["kettles"])."""
    heads = {role: make_user(app, role, role) for role in ("admin", "editor", "learner", "reviewer")}
    client = app.test_client()
    response = upload(client, "kettles.txt", BOOK.encode(), headers=heads["editor"], tier="private")
    assert response.status_code == 202
    job = wait_for(client, response.get_json(), headers=heads["editor"])
    assert job["status"] == "done" and job["document_id"].startswith("kettles-")  # marked as the editor's
    heads["job_url"], heads["kettles"] = job["url"], job["document_id"]
    return heads


def ask(client, headers, question=KETTLE, **body):
    return client.post("/api/query", json={"question": question, **body}, headers=headers)


def stream_sources(client, headers, question=KETTLE):
    text = client.post("/api/query/stream", json={"question": question}, headers=headers).get_data(as_text=True)
    event = next(block for block in text.split("\n\n") if block.startswith("event: sources"))
    return json.loads(event.split("data: ", 1)[1])


def test_a_learner_cannot_reach_a_private_book_by_any_endpoint_nor_learn_it_exists(app, roles):
    client, learner, editor, kettles = app.test_client(), roles["learner"], roles["editor"], roles["kettles"]
    mine = ask(client, editor).get_json()
    assert kettles in {p["doc_id"] for p in mine["passages"]}  # the editor's answers cite their book
    assert any(c["passage_id"].startswith(kettles) for c in mine["citations"])

    for body in ({}, {"mode": "deep"}):
        answer = ask(client, learner, **body).get_json()
        assert kettles not in {p["doc_id"] for p in answer["passages"]}, body
        assert not any(c["passage_id"].startswith(kettles) for c in answer["citations"])
        assert "kettle" not in answer["answer"].lower()
    assert kettles not in {p["doc_id"] for p in stream_sources(client, learner)["passages"]}
    listed = client.get("/api/documents?q=Kettles", headers=learner).get_json()
    assert listed["total"] == 0 and listed["documents"] == []
    stats = client.get("/api/stats", headers=learner).get_json()
    assert stats["documents"] == 4 and kettles not in {d["id"] for d in stats["per_document"]}
    assert "jobs" not in stats and "uploaded_bytes" not in stats
    assert client.get(roles["job_url"], headers=learner).status_code == 404
    assert "chunks" not in client.get("/api/health", headers=learner).get_json()["library"]  # nothing of its size
    assert "library" not in client.get("/api/health").get_json()  # signed out: nothing but that it is ready
    assert client.get("/api/health", headers=roles["admin"]).get_json()["library"]["chunks"] > 0
    assert client.delete(f"/api/documents/{kettles}", headers=learner).status_code == 403
    assert client.post(f"/api/documents/{kettles}/reindex", headers=learner).status_code == 403
    # the editor's answer is another user's: not found by search, and 404 (not 403) when asked for
    assert client.get(f"/api/history/{mine['id']}", headers=learner).status_code == 404
    assert client.get("/api/history?q=kettle", headers=learner).get_json()["total"] == 0
    assert client.post(f"/api/history/{mine['id']}/feedback", json={"rating": "up"}, headers=learner).status_code == 404


def test_another_editor_does_not_see_the_private_book_and_an_admin_does(app, roles):
    client, other, kettles = app.test_client(), make_user(app, "editor2", "editor"), roles["kettles"]
    assert client.delete(f"/api/documents/{kettles}", headers=other).status_code == 404
    assert kettles not in {p["doc_id"] for p in ask(client, other).get_json()["passages"]}
    assert kettles in {d["id"] for d in client.get("/api/documents", headers=roles["admin"]).get_json()["documents"]}
    assert client.get("/api/stats", headers=roles["editor"]).get_json()["documents"] == 5
    assert client.delete(f"/api/documents/{kettles}", headers=roles["editor"]).status_code == 200


def test_a_document_is_its_owners_and_another_id_tells_nothing(app, roles):
    # The probe of 2026-11-25: an editor took over another's public book by uploading to its id; a 409 (hidden id)
    # against a 202 (free id) told whether a private book existed; an unknown tier hid a book from the admins.
    # The probe of 2026-11-28: a taken id came back with a suffix and a free one without; now every id an uploader
    # may not change comes back marked as theirs alike, and the same name again is their same document.
    client, editor, admin, kettles = app.test_client(), roles["editor"], roles["admin"], roles["kettles"]
    other = make_user(app, "editor2", "editor")
    public = upload(client, "garden.txt", b"The garden gate is painted green every spring.", headers=editor,
                    tier="public", document_id="garden")
    garden = wait_for(client, public.get_json(), headers=editor)
    assert garden["status"] == "done" and garden["document_id"] == kettles.replace("kettles", "garden")
    placed = {}
    for target in (kettles, garden["document_id"], "nothing-here"):  # hidden, seen, free: one answer
        sent = upload(client, "mine.txt", f"My notes, {target}.".encode(), headers=other, document_id=target)
        assert sent.status_code == 202, sent.get_json()
        job = wait_for(client, sent.get_json(), headers=other)
        assert job["status"] == "done"
        placed[target] = job["document_id"]
    marks = {target: placed[target].removeprefix(target) for target in placed}
    assert len(set(marks.values())) == 1 and len(marks[kettles]) == 7, placed  # "-" and the same six hex digits
    again = upload(client, "mine.txt", b"My notes, revised.", headers=other, document_id="nothing-here")
    assert wait_for(client, again.get_json(), headers=other)["document_id"] == placed["nothing-here"]  # a new version
    documents = {d["id"]: d for d in client.get("/api/documents?limit=500", headers=admin).get_json()["documents"]}
    assert documents[garden["document_id"]]["title"] == "garden" and documents[kettles]["tier"] == "private"
    for doc in (garden["document_id"], kettles):  # not theirs to change: as if it were not there
        assert client.delete(f"/api/documents/{doc}", headers=other).status_code == 404
        assert client.post(f"/api/documents/{doc}/reindex", headers=other).status_code == 404
    again = upload(client, "garden.txt", b"The garden gate is painted blue.", headers=admin,
                   document_id=garden["document_id"])
    assert wait_for(client, again.get_json(), headers=admin)["document_id"] == garden["document_id"]  # an admin's own
    assert client.get("/api/documents?q=garden", headers=editor).get_json()["documents"][0]["id"] == garden["document_id"]
    unknown = upload(client, "notes.txt", b"Notes.", headers=editor, tier="Zzz-not-a-tier")
    assert unknown.status_code == 400 and "canonical" in unknown.get_json()["error"]


def test_history_is_each_users_own_and_reviewers_read_and_correct_every_answer(app, roles):
    client, learner, reviewer = app.test_client(), roles["learner"], roles["reviewer"]
    answer = ask(client, learner, "Who discovered penicillin?", session_id="s1").get_json()
    own = client.get("/api/history", headers=learner).get_json()
    assert [i["id"] for i in own["items"]] == [answer["id"]]
    rated = client.post(f"{(url := '/api/history/' + answer['id'])}/feedback", json={"rating": "up"}, headers=learner).json
    assert client.post(f"{url}/feedback", json={"rating": "down", "entry": rated["entry"]}, headers=reviewer).status_code == 404  # theirs alone
    assert [client.get(url, headers=h).get_json()["feedback"][0]["mine"] for h in (learner, reviewer)] == [True, False]
    assert client.post(f"/api/history/{answer['id']}/review", json={"status": "approved"},
                       headers=learner).status_code == 403
    editors = ask(client, roles["editor"]).get_json()
    queue = client.get("/api/history", headers=reviewer).get_json()
    assert {answer["id"], editors["id"]} <= {i["id"] for i in queue["items"]}
    seen = client.get(f"/api/history/{editors['id']}", headers=reviewer).get_json()
    assert roles["kettles"] not in {p["doc_id"] for p in seen["passages"]}  # the reviewer's tiers hide the private book
    assert all(not c["passage_id"].startswith(roles["kettles"]) for c in seen["citations"])
    assert "withheld" in seen["answer"] and "kettle" not in json.dumps(seen).lower()
    listed = {i["id"]: i for i in client.get("/api/history", headers=reviewer).get_json()["items"]}
    assert "withheld" in listed[editors["id"]]["answer"] and "withheld" not in listed[answer["id"]]["answer"]
    fixed = client.post(f"/api/history/{answer['id']}/review", headers=reviewer,
                        json={"status": "corrected", "corrected_text": "Alexander Fleming, in 1928."})
    assert fixed.status_code == 200
    record = client.get(f"/api/history/{answer['id']}", headers=learner).get_json()
    assert record["review_status"] == "corrected" and record["corrected_text"] == "Alexander Fleming, in 1928."
    reviewer_id = app.extensions["history"].accounts.user_named("reviewer")["id"]
    learner_user = app.extensions["history"].accounts.user_named("learner")
    assert record["reviewed_by"] == reviewer_id and record["user_id"] == learner_user["id"]
    assert record["tiers"] == ["canonical", "public"] and record["mode"] == "practical"
    # another user cannot continue the learner's conversation: its turns are not theirs
    assert app.extensions["history"].turns("s1", reader=None)
    from web.auth import reader_of
    assert app.extensions["history"].turns("s1", reader=reader_of(app.extensions["history"].accounts.user_named("editor"))) == []


def test_an_unsigned_request_gets_401_everywhere_but_the_page_health_sign_in_and_the_api_spec(app, roles):
    client = app.test_client()
    open_paths = {"/", "/api/health", "/api/session", "/api/openapi.json"}
    checked = 0
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<[^>]+>", "1", rule.rule.replace("<path:filename>", "app.js"))
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = client.open(path, method=method, json={} if method != "GET" else None)
            if rule.endpoint == "static" or (path in open_paths and not (path == "/api/session" and method == "DELETE")):
                assert response.status_code != 401, (method, path)
            else:
                assert response.status_code == 401, (method, path, response.status_code)
                error = response.get_json()["error"]  # under /v1/ in the OpenAI API's shape
                assert "sign in" in (error["message"] if isinstance(error, dict) else error)
                assert response.headers["WWW-Authenticate"]
                checked += 1
    assert checked >= 25


def test_sign_in_sets_a_session_whose_changes_need_the_csrf_token(app, roles):
    client = app.test_client()
    assert client.post("/api/session", json={"name": "learner", "password": "wrong password"}).status_code == 401
    signed = client.post("/api/session", json={"name": "learner", "password": PASSWORD})
    assert signed.status_code == 200
    cookie = signed.headers["Set-Cookie"]
    assert SESSION_COOKIE in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    csrf = signed.get_json()["csrf_token"]
    me = client.get("/api/me").get_json()
    assert me["mode"] == "shared" and me["user"]["name"] == "learner" and me["csrf_token"] == csrf
    assert "password_hash" not in me["user"]
    refused = client.post("/api/query", json={"question": KETTLE})
    assert refused.status_code == 403 and "X-CSRF-Token" in refused.get_json()["error"]
    assert client.post("/api/query", json={"question": KETTLE}, headers={"X-CSRF-Token": csrf}).status_code == 200
    profile = client.patch("/api/me", json={"community": "Sephardi", "poskim": ["Kaf HaChaim"]},
                           headers={"X-CSRF-Token": csrf}).get_json()["user"]
    assert profile["community"] == "Sephardi" and profile["poskim"] == ["Kaf HaChaim"]
    client.patch("/api/me", json={"answer_language": "he"}, headers={"X-CSRF-Token": csrf})
    answer = client.post("/api/query", json={"question": KETTLE}, headers={"X-CSRF-Token": csrf}).get_json()
    assert answer["language"] == "he"  # the profile's answer language, when the question names none
    assert client.delete("/api/session", headers={"X-CSRF-Token": csrf}).status_code == 200
    assert client.get("/api/me").status_code == 401


def test_tokens_can_be_revoked_and_expire(app, roles):
    client, accounts = app.test_client(), app.extensions["history"].accounts
    expired = make_user(app, "old", "learner", expires_at=time.time() - 1)
    assert client.get("/api/me", headers=expired).status_code == 401
    assert client.get("/api/me", headers=roles["learner"]).status_code == 200
    learner_id = accounts.user_named("learner")["id"]
    assert client.delete(f"/api/users/{learner_id}/tokens", headers=roles["learner"]).status_code == 403
    assert client.delete(f"/api/users/{learner_id}/tokens", headers=roles["admin"]).get_json()["revoked"] == 1
    assert client.get("/api/me", headers=roles["learner"]).status_code == 401
    stored = [t for t in accounts.tokens(learner_id)]
    assert stored and all(t["revoked_at"] for t in stored)


def test_an_admin_creates_users_and_sets_roles_and_tiers(app, roles):
    client, admin = app.test_client(), roles["admin"]
    made = client.post("/api/users", headers=admin, json={"name": "Rivka", "password": PASSWORD, "role": "researcher"})
    assert made.status_code == 201 and made.get_json()["user"]["name"] == "rivka"
    assert "apocrypha" in made.get_json()["user"]["tiers"]
    assert client.post("/api/users", headers=admin, json={"name": "rivka", "password": PASSWORD}).status_code == 409
    assert client.post("/api/users", headers=admin, json={"name": "x y", "password": PASSWORD}).status_code == 400
    assert client.post("/api/users", headers=admin, json={"name": "short", "password": "123"}).status_code == 400
    assert client.post("/api/users", headers=roles["editor"], json={"name": "z", "password": PASSWORD}).status_code == 403
    user_id = made.get_json()["user"]["id"]
    changed = client.patch(f"/api/users/{user_id}", headers=admin, json={"role": "learner", "tiers": ["canonical"]})
    assert changed.get_json()["user"]["tiers"] == ["canonical"]
    for bad in ({"tiers": ["secret"]}, {"tiers": [[1]]}, {"role": []}, {"role": {}}, {"disabled": "yes"}):
        assert client.patch(f"/api/users/{user_id}", headers=admin, json=bad).status_code == 400, bad
    assert client.patch(f"/api/users/{2**70}", headers=admin, json={}).status_code == 404
    for method in ("POST", "DELETE"):  # past the id converter's max is no user, whichever the method (not a 405)
        assert client.open(f"/api/users/{2**31}/tokens", method=method, headers=admin, json={}).status_code == 404
    # PostgreSQL holds no NUL: a profile keeps its text without it there, and a name holding one is no one's
    nul = client.patch(f"/api/users/{user_id}", headers=admin, json={"display_name": "R\x00", "customs": ["a\x00"]})
    assert nul.status_code == 200 and nul.get_json()["user"]["customs"][0].replace("\x00", "") == "a"
    assert client.post("/api/session", json={"name": "rivka\x00", "password": PASSWORD}).status_code == 401
    token = client.post(f"/api/users/{user_id}/tokens", headers=admin, json={"expires_days": 1}).get_json()
    me = client.get("/api/me", headers={"Authorization": f"Bearer {token['token']}"}).get_json()
    assert me["user"]["name"] == "rivka" and me["user"]["role"] == "learner"


@pytest.fixture
def still_clock(monkeypatch):
    """The limits' clock stopped 20 s into a minute, so no count is split by a window's end."""
    import accounts.limits

    monkeypatch.setattr(accounts.limits, "clock", lambda: 1_800_000_000.0 + 20)


def test_limits_answer_429_with_retry_after_and_hold_across_processes(tmp_path, backend, still_clock):
    config = {"TESTING": True, "LIMIT_QUERIES_PER_MINUTE": 2, "HISTORY_DB": str(tmp_path / "shared.sqlite3")}
    first = library_app(config, tmp_path / "lib", backend=backend)
    second = library_app(config, tmp_path / "lib2", backend=backend)  # another worker on the same history
    learner = make_user(first, "learner", "learner")
    assert ask(first.test_client(), learner).status_code == 200
    assert ask(second.test_client(), learner).status_code == 200
    over = ask(first.test_client(), learner)
    # 20 s into the minute, three counted: in the next minute, 40 s in, three fade to one, and one more passes
    assert over.status_code == 429 and over.headers["Retry-After"] == "80"
    assert "minute" in over.get_json()["error"]


def test_sign_in_attempts_are_limited_per_address(app, roles, still_clock):
    client = app.test_client()
    codes = [client.post("/api/session", json={"name": "learner", "password": "nope nope nope"}).status_code
             for _ in range(11)]
    assert codes[:10] == [401] * 10 and codes[10] == 429


def test_searching_history_tells_nothing_of_a_withheld_answer(app, roles):
    # The probe of 2026-11-25: a reviewer read a withheld answer's words back from the totals of guessed searches.
    client, reviewer, editor = app.test_client(), roles["reviewer"], roles["editor"]
    editors = ask(client, editor).get_json()
    words = [w for w in re.findall(r"[a-z]{5,}", editors["answer"].lower()) if w not in KETTLE.lower()]
    assert words, editors["answer"]
    mine = ask(client, reviewer, "Who discovered penicillin?").get_json()

    def found(headers, q):
        page = client.get("/api/history", query_string={"q": q}, headers=headers).get_json()
        return {i["id"] for i in page["items"]}, page["total"]

    for word in words[:3]:
        seen, total = found(reviewer, word)
        everything, all_total = found(roles["admin"], word)
        assert editors["id"] in everything and editors["id"] in found(editor, word)[0]
        assert editors["id"] not in seen and total == all_total - 1  # neither the row nor its count
    assert mine["id"] in found(reviewer, "penicillin")[0]
    assert editors["id"] in {i["id"] for i in client.get("/api/history", headers=reviewer).get_json()["items"]}
