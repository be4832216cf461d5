"""`flask --app app users ...` and the refusal to serve a public address without users, on each backend."""
import pytest

from accounts.passwords import check_password, hash_password
from app import create_app
from conftest import make_pipeline
from web.server import refuse_without_users

PASSWORD = "correct horse battery"


@pytest.fixture
def app(tmp_path, backend):
    config = {"TESTING": True, "HISTORY_DB": str(tmp_path / "history.sqlite3"), **backend.config}
    return create_app(config, pipeline=make_pipeline())


def run(app, *args, stdin=None):
    return app.test_cli_runner().invoke(args=["users", *args], input=stdin)


def test_create_list_set_role_token_and_revoke(app):
    made = run(app, "create", "Admin", "--role", "admin", "--password-stdin", stdin=PASSWORD + "\n")
    assert made.exit_code == 0 and "created admin (admin" in made.output
    stored = app.extensions["history"].accounts.user_named("admin")
    assert check_password(PASSWORD, stored["password_hash"]) and PASSWORD not in stored["password_hash"]
    assert run(app, "create", "admin", "--password-stdin", stdin=PASSWORD + "\n").exit_code != 0  # exists
    short = run(app, "create", "bob", "--password-stdin", stdin="short\n")
    assert short.exit_code != 0 and "10 to" in short.output
    assert run(app, "create", "bob", "--tiers", "canonical,secret", "--password-stdin", stdin=PASSWORD + "\n").exit_code
    assert run(app, "create", "bob", "--password-stdin", stdin=PASSWORD + "\n").exit_code == 0
    assert "bob" in run(app, "list").output and "learner" in run(app, "list").output
    assert run(app, "set-role", "bob", "editor", "--tiers", "canonical,private").exit_code == 0
    bob = app.extensions["history"].accounts.user_named("bob")
    assert bob["role"] == "editor" and bob["tiers"] == ["canonical", "private"]

    token = run(app, "token", "bob", "--expires-days", "30").stdout.strip().splitlines()[0]
    client = app.test_client()
    assert token.startswith("evz_")
    assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).get_json()["user"]["name"] == "bob"
    assert "live" in run(app, "list-tokens", "bob").output
    assert run(app, "revoke", "bob").exit_code == 0
    assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert "revoked" in run(app, "list-tokens", "bob").output
    assert run(app, "revoke", "nobody").exit_code != 0


def test_a_public_address_without_users_refuses_to_start_and_names_the_command(app):
    import click

    with pytest.raises(click.ClickException) as refused:
        refuse_without_users(app, "0.0.0.0")
    assert "flask --app app users create NAME --role admin" in refused.value.message
    app.extensions["history"].accounts.create("admin", "admin", hash_password(PASSWORD))
    refuse_without_users(app, "0.0.0.0")  # with a user it starts


def test_auth_required_on_the_loopback_refuses_without_users_and_asks_for_sign_in_with_them(tmp_path, backend):
    import click

    app = create_app({"TESTING": True, "AUTH": "required", "HISTORY_DB": str(tmp_path / "h.sqlite3"),
                      **backend.config}, pipeline=make_pipeline())
    with pytest.raises(click.ClickException):
        refuse_without_users(app, "127.0.0.1")
    assert app.test_client().get("/api/me").status_code == 401
    assert app.test_client().get("/api/health").status_code != 401


def test_a_loopback_server_without_users_is_personal(tmp_path):
    app = create_app({"TESTING": True, "HISTORY_DB": str(tmp_path / "h.sqlite3")}, pipeline=make_pipeline())
    refuse_without_users(app, "127.0.0.1")
    me = app.test_client().get("/api/me").get_json()
    assert me["mode"] == "personal" and me["user"]["role"] == "admin"
    assert app.test_client().post("/api/session", json={"name": "x", "password": "y"}).status_code == 409
