"""The Host check and the cross-site check (web/guard.py) over HTTP: what a foreign page's browser sends is
refused, what the page and scripts send passes."""
import pytest

from app import create_app
from builders import BOOK, library_app
from conftest import make_pipeline
from web.guard import CLIENT_HEADER

PAGE = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin", CLIENT_HEADER: "page"}
FOREIGN = [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:8080"},  # another port of the same machine
    {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"},  # the page's origin, without the page's header
]


@pytest.fixture
def lib_client(tmp_path):
    return library_app({"TESTING": True, "BUILTIN_REMOVABLE": True}, tmp_path / "lib").test_client()  # deletes "fleming"


@pytest.mark.parametrize("headers", FOREIGN)
def test_a_browser_write_from_elsewhere_is_refused_before_it_acts(lib_client, headers):
    from io import BytesIO

    before = lib_client.get("/api/documents").get_json()["total"]
    calls = [
        lambda: lib_client.post("/api/documents", data={"file": (BytesIO(BOOK.encode()), "kettles.txt")},
                                content_type="multipart/form-data", headers=headers),
        lambda: lib_client.post("/api/documents/fleming/reindex", data="x", content_type="text/plain", headers=headers),
        lambda: lib_client.delete("/api/documents/fleming", headers=headers),
        lambda: lib_client.post("/api/query", json={"question": "Who discovered penicillin?"}, headers=headers),
        lambda: lib_client.post("/api/history/abc/feedback", json={"rating": "up"}, headers=headers),
        lambda: lib_client.post("/api/history/abc/review", json={"status": "approved"}, headers=headers),
    ]
    for call in calls:
        response = call()
        assert response.status_code == 403, response.get_json()
        assert "not from other sites" in response.get_json()["error"]
    assert lib_client.get("/api/documents").get_json()["total"] == before
    assert lib_client.get("/api/stats").get_json()["jobs"] == {}


def test_the_page_and_scripts_may_write(lib_client):
    from io import BytesIO

    page = lib_client.post("/api/documents", data={"file": (BytesIO(BOOK.encode()), "kettles.txt")},
                           content_type="multipart/form-data", headers=PAGE)
    assert page.status_code == 202
    script = lib_client.delete("/api/documents/fleming")  # curl: no Origin, no Sec-Fetch-Site
    assert script.status_code == 200 and script.get_json()["deleted"] == "fleming"
    assert lib_client.post("/api/query", json={"question": "Who discovered penicillin?"}, headers=PAGE).status_code == 200


def test_reading_needs_no_header(lib_client):
    assert lib_client.get("/api/documents", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:5000", "127.0.0.1.evil.example", "[::2]:80"])
def test_a_foreign_host_is_refused(client, host):
    response = client.get("/api/health", headers={"Host": host})
    assert response.status_code == 400
    assert "ALLOWED_HOSTS" in response.get_json()["error"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:5000", "[::1]:5000", "LOCALHOST:80"])
def test_local_names_are_served(client, host):
    assert client.get("/api/health", headers={"Host": host}).status_code == 200


def test_allowed_hosts_and_the_bind_address_extend_the_names():
    app = create_app({"TESTING": True, "ALLOWED_HOSTS": "evidenz.school.example, Other.example",
                      "BIND_HOST": "10.0.0.5"}, pipeline=make_pipeline())
    client = app.test_client()
    for host in ("evidenz.school.example", "other.example:8000", "10.0.0.5:5000", "localhost"):
        assert client.get("/api/health", headers={"Host": host}).status_code == 200, host
    assert client.get("/api/health", headers={"Host": "evil.example"}).status_code == 400
    anywhere = create_app({"TESTING": True, "ALLOWED_HOSTS": "*"}, pipeline=make_pipeline()).test_client()
    assert anywhere.get("/api/health", headers={"Host": "evil.example"}).status_code == 200


def test_a_server_bound_to_every_address_does_not_answer_every_name():
    app = create_app({"TESTING": True, "BIND_HOST": "0.0.0.0"}, pipeline=make_pipeline())
    assert app.test_client().get("/api/health", headers={"Host": "0.0.0.0"}).status_code == 400


def test_an_over_long_url_is_a_json_414(client):
    response = client.get("/api/documents?q=" + "x" * 10_000)
    assert response.status_code == 414 and "JSON body" in response.get_json()["error"]


@pytest.mark.parametrize("origin", ["http://[", "http://[::1", "http://a]b"])
def test_a_malformed_origin_is_foreign(client, origin):
    response = client.post("/api/query", json={"question": "Who?"}, headers={"Origin": origin, CLIENT_HEADER: "page"})
    assert response.status_code == 403


def test_behind_a_tls_proxy_the_page_still_writes(client):
    # the browser saw https://evidenz.example; the proxy reached us over http as localhost
    headers = {"Origin": "https://evidenz.example", "Sec-Fetch-Site": "same-origin", CLIENT_HEADER: "page"}
    assert client.post("/api/query", json={"question": "Who discovered penicillin?"}, headers=headers).status_code == 200


def test_allowed_hosts_may_name_ports_and_brackets():
    app = create_app({"TESTING": True, "ALLOWED_HOSTS": "evidenz.lan:8080,[fe80::1]"}, pipeline=make_pipeline())
    client = app.test_client()
    assert client.get("/api/health", headers={"Host": "evidenz.lan:8080"}).status_code == 200
    assert client.get("/api/health", headers={"Host": "[fe80::1]:5000"}).status_code == 200
