"""/api/openapi.json describes the whole API, and schemathesis keeps it true.

schemathesis (its own command, as an operator would run it) reads the document from a live server on a small
real library (tests/builders.library_app; fake models) and sends each operation the examples, boundary cases and
generated bodies, valid and not, that the document implies. It must find no 5xx, no status the document does not
give, no content type it does not give, and no response that breaks its schema: once on a personal server, and
once on a shared one as an admin, where every route needs sign-in and the users API is open.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from accounts.passwords import digest, hash_password, new_token
from builders import library_app
from web.spec import document

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,"
          "response_schema_conformance")
EXAMPLES = 40  # cases per operation and phase; each run takes about half a minute


@pytest.fixture
def app(tmp_path):
    return library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000, "LIMIT_QUERIES_PER_MINUTE": 10_000,
                        "LIMIT_ADDRESS_QUERIES_PER_MINUTE": 10_000}, tmp_path / "lib")


def openapi_path(rule: str) -> str:
    """A werkzeug rule as an OpenAPI path: <int(max=9):user_id> and <path:filename> become {user_id}, {filename}."""
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule)


def test_every_route_and_method_of_the_app_is_described(app):
    paths = document()["paths"]
    missing = [f"{method} {openapi_path(rule.rule)}" for rule in app.url_map.iter_rules()
               for method in sorted(rule.methods - {"HEAD", "OPTIONS"})
               if method.lower() not in paths.get(openapi_path(rule.rule), {})]
    assert missing == []
    served = app.test_client().get("/api/openapi.json")
    assert served.status_code == 200 and served.get_json()["openapi"] == "3.1.0"


def schemathesis(url: str, cwd: Path, *options: str) -> subprocess.CompletedProcess:
    """The schemathesis command on the server at url, run in cwd (where it keeps what it writes)."""
    return subprocess.run([str(SCHEMATHESIS), "run", f"{url}/api/openapi.json", "--checks", CHECKS,
                           "--max-examples", str(EXAMPLES), "--seed", "20261124", "--generation-database", "none",
                           "--workers", "1", "--no-color", *options],
                          capture_output=True, text=True, timeout=1200, cwd=cwd)


def test_schemathesis_finds_nothing_on_a_personal_server(app, serve, tmp_path):
    # Creating a user makes the server shared for good (web/auth.py): that is the shared run's to try.
    result = schemathesis(serve(app).url, tmp_path, "--exclude-operation-id", "createUser")
    assert result.returncode == 0, result.stdout[-30_000:] + result.stderr[-5_000:]


def test_schemathesis_finds_nothing_on_a_shared_server_as_an_admin(app, serve, tmp_path):
    accounts = app.extensions["history"].accounts
    admin = accounts.create("admin", "admin", hash_password("correct horse battery"))
    token = new_token()
    accounts.add_token(admin["id"], digest(token), "schemathesis", None)
    server, signed = serve(app), ("--header", f"Authorization: Bearer {token}")
    # Revoking user 1's tokens, or changing their password, signs the admin out: everything else first, then those.
    last = ("revokeTokens", "changeUser")
    for only in ([arg for name in last for arg in ("--exclude-operation-id", name)],
                 [arg for name in (*last, "createUser") for arg in ("--include-operation-id", name)]):
        result = schemathesis(server.url, tmp_path, *signed, *only)
        assert result.returncode == 0, result.stdout[-30_000:] + result.stderr[-5_000:]
