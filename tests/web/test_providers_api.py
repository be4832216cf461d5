"""/api/admin/providers over HTTP, on each backend: an admin (or a personal server's owner) sets and clears a
provider's key and model; every other role gets 403; bad input gets a 4xx that says what to send; and no response,
error included, ever holds the key."""
import pytest

from accounts.passwords import digest, hash_password, new_token
from app import create_app
from conftest import make_pipeline

KEY = "sk-ant-api03-" + "k" * 40 + "WXYZ"


@pytest.fixture
def app(backend):
    return create_app({"TESTING": True, **backend.config}, pipeline=make_pipeline())


def token_of(app, name, role):
    """The Authorization header of a fresh token of a new user (the first user makes the server shared)."""
    accounts = app.extensions["history"].accounts
    user = accounts.create(name, role, hash_password("correct horse battery"))
    token = new_token()
    accounts.add_token(user["id"], digest(token), "test", None)
    return {"Authorization": f"Bearer {token}"}


def listed(client, name, headers=None):
    response = client.get("/api/admin/providers", headers=headers or {})
    assert response.status_code == 200 and KEY not in response.get_data(as_text=True)
    return next(p for p in response.json["providers"] if p["name"] == name)


def test_the_owner_sets_a_key_and_a_model_and_sees_neither_key_back(app):
    client = app.test_client()
    assert [p["name"] for p in client.get("/api/admin/providers").json["providers"]] == ["claude", "gemini", "openai"]
    before = listed(client, "claude")
    assert (before["answers"], before["key_set"], before["key_from"], before["key_last4"]) == (False, False, None, None)
    assert before["model"] == before["environment_model"] == "claude-sonnet-4-5" and before["model_from"] == "environment"
    assert "ANTHROPIC_API_KEY" in before["lacking"]

    response = client.put("/api/admin/providers/claude", json={"api_key": f"  {KEY}\n", "model": "claude-opus-4-1"})
    assert response.status_code == 200 and KEY not in response.get_data(as_text=True)
    after = response.json["provider"]
    assert (after["answers"], after["lacking"], after["key_set"], after["key_from"], after["key_last4"]) == (
        True, None, True, "table", "WXYZ")
    assert (after["model"], after["model_from"], after["updated_by"]) == ("claude-opus-4-1", "table", "owner")
    assert app.extensions["history"].provider_settings.all()["claude"]["api_key"] == KEY  # stored stripped

    assert client.put("/api/admin/providers/claude", json={"model": None}).json["provider"]["model_from"] == "environment"
    cleared = client.delete("/api/admin/providers/claude")
    assert cleared.status_code == 200 and cleared.json["provider"]["key_set"] is False
    assert app.extensions["history"].provider_settings.all() == {}
    assert client.delete("/api/admin/providers/claude").status_code == 200  # nothing to clear is no error


def test_a_short_key_shows_none_of_its_characters(app):
    client = app.test_client()
    assert client.put("/api/admin/providers/gemini", json={"api_key": "short-key"}).json["provider"]["key_last4"] is None


@pytest.mark.parametrize("body, message", [
    ({}, 'Send "api_key", "model" or both'),
    ({"api_key": "sk-ant-" + "x" * 600}, '"api_key" must be the key as the provider gave it'),
    ({"api_key": "sk-ant with a space " + KEY}, '"api_key" must be the key'),
    ({"api_key": "sk-ant-\r\nX-Other: header" + KEY}, '"api_key" must be the key'),
    ({"api_key": "sk-ant-ключ" + KEY}, '"api_key" must be the key'),
    ({"api_key": "short"}, '"api_key" must be the key'),
    ({"api_key": 12345678}, '"api_key" must be the key'),
    ({"model": "-leading-dash"}, '"model" must be a model name'),
    ({"model": "m" * 101}, '"model" must be a model name'),
    ({"model": "two words"}, '"model" must be a model name'),
    ({"api_key": KEY, "base_url": "http://198.51.100.7/"}, "Unknown field(s): base_url"),
])
def test_bad_bodies_are_refused_with_what_to_send_and_never_echo_the_key(app, body, message):
    response = app.test_client().put("/api/admin/providers/claude", json=body)
    assert response.status_code == 400 and message in response.json["error"]
    sent, text = str(body.get("api_key", KEY)), response.get_data(as_text=True)
    assert sent not in text and sent[-8:] not in text and KEY[-8:] not in text
    assert app.extensions["history"].provider_settings.all() == {}


def test_a_body_that_is_not_json_is_refused(app):
    response = app.test_client().put("/api/admin/providers/claude", data="api_key=x", content_type="text/plain")
    assert response.status_code == 400 and "JSON object" in response.json["error"]


@pytest.mark.parametrize("name", ["offline", "openai2", "Claude"])
def test_an_unknown_provider_is_404_naming_the_providers(app, name):
    client = app.test_client()
    for response in (client.put(f"/api/admin/providers/{name}", json={"api_key": KEY}),
                     client.delete(f"/api/admin/providers/{name}")):
        assert response.status_code == 404 and "claude, gemini, openai" in response.json["error"]


def test_a_key_for_an_openai_compatible_server_the_environment_does_not_name_is_409(app):
    response = app.test_client().put("/api/admin/providers/openai", json={"api_key": KEY})
    assert response.status_code == 409 and "OPENAI_BASE_URL" in response.json["error"]
    assert "OPENAI_BASE_URL" in listed(app.test_client(), "openai")["lacking"]


def test_an_openai_compatible_server_takes_its_model_here(backend):
    app = create_app({"TESTING": True, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1", **backend.config},
                     pipeline=make_pipeline())
    client = app.test_client()
    assert "OPENAI_MODEL" in listed(client, "openai")["lacking"]
    done = client.put("/api/admin/providers/openai", json={"model": "llama3.1:8b"}).json["provider"]
    assert done["answers"] and done["model"] == "llama3.1:8b" and done["key_set"] is False


def test_only_admins_may_on_a_shared_server(app):
    client = app.test_client()
    admin = token_of(app, "rivka", "admin")
    assert client.get("/api/admin/providers").status_code == 401  # shared now: sign in first
    for role in ("editor", "learner", "reviewer", "posek"):
        headers = token_of(app, role, role)
        for response in (client.get("/api/admin/providers", headers=headers),
                         client.put("/api/admin/providers/claude", json={"api_key": KEY}, headers=headers),
                         client.delete("/api/admin/providers/claude", headers=headers)):
            assert response.status_code == 403 and "may not set providers" in response.json["error"]
    assert app.extensions["history"].provider_settings.all() == {}
    done = client.put("/api/admin/providers/gemini", json={"api_key": KEY}, headers=admin)
    assert done.status_code == 200 and done.json["provider"]["updated_by"] == "rivka"
    assert listed(client, "gemini", admin)["key_from"] == "table"


def test_the_key_is_in_no_other_answer(app):
    client = app.test_client()
    client.put("/api/admin/providers/claude", json={"api_key": KEY})
    for path in ("/api/health", "/api/me", "/api/openapi.json", "/metrics", "/api/admin/providers", "/v1/models"):
        body = client.get(path).get_data(as_text=True)
        assert KEY not in body and KEY[-12:] not in body, path
