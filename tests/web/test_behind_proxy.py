"""The real server (waitress, web/server.py) of a shared library, behind a TLS proxy and before sign-in.

From TRUSTED_PROXY alone, X-Forwarded-Proto makes the session cookie Secure and X-Forwarded-For is the address
the sign-in limit counts; from any other peer both headers are ignored. A body larger than the API's limit is
refused with 413 before it is read, unless it is an upload with a live token (web/bodies.py).
Loopback only; each test sends a bounded number of requests.
"""
import http.client
import socket
import threading

import pytest

from accounts.passwords import digest, hash_password, new_token
from builders import library_app
from web.server import create_server

PASSWORD = "correct horse battery"


@pytest.fixture
def serve_shared(tmp_path):
    """start(trusted_proxy) -> (port, token of an editor) of a shared library served by waitress."""
    servers = []

    def start(proxy=""):
        app = library_app({"TESTING": True, "AUTH": "required", "TRUSTED_PROXY": proxy, "MAX_UPLOAD_BYTES": 4_000_000},
                          tmp_path / f"lib{len(servers)}")
        accounts = app.extensions["history"].accounts
        editor = accounts.create("editor", "editor", hash_password(PASSWORD))
        token = new_token()
        accounts.add_token(editor["id"], digest(token), "test", None)
        server = create_server(app, "127.0.0.1", 0, threads=2, channel_timeout=5)
        thread = threading.Thread(target=lambda: run(server), daemon=True)
        thread.start()
        servers.append((server, thread))
        return server.effective_port, token

    yield start
    for server, thread in servers:
        server.close()
        thread.join(timeout=5)


def run(server):
    try:
        server.run()
    except (OSError, ValueError):  # close() ends the loop under its feet
        pass


def sign_in(port, headers, password=PASSWORD, name="editor"):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", "/api/session", body=f'{{"name": "{name}", "password": "{password}"}}',
                       headers={"Content-Type": "application/json", **headers})
    response = connection.getresponse()
    response.read()
    return response.status, response.getheader("Set-Cookie") or ""


def test_behind_the_trusted_proxy_the_cookie_is_secure_and_the_client_address_is_counted(serve_shared, monkeypatch):
    import accounts.limits

    monkeypatch.setattr(accounts.limits, "clock", lambda: 1_800_000_000.0 + 20)  # eleven tries in one minute's window
    port, _ = serve_shared("127.0.0.1")
    status, cookie = sign_in(port, {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"})
    assert status == 200 and "Secure" in cookie
    # ten more tries from one client behind the proxy (each for another name): that client is stopped, not the next
    codes = [sign_in(port, {"X-Forwarded-For": "203.0.113.7"}, "wrong", f"n{n}")[0] for n in range(11)]
    assert codes[:10] == [401] * 10 and codes[10] == 429
    assert sign_in(port, {"X-Forwarded-For": "203.0.113.8"}, "wrong", "other")[0] == 401


def test_from_any_other_peer_the_forwarded_headers_are_ignored(serve_shared, monkeypatch):
    import accounts.limits

    monkeypatch.setattr(accounts.limits, "clock", lambda: 1_800_000_000.0 + 20)  # the count, whatever the time
    port, _ = serve_shared("")  # no proxy trusted
    status, cookie = sign_in(port, {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"})
    assert status == 200 and "Secure" not in cookie
    codes = [sign_in(port, {"X-Forwarded-For": f"203.0.113.{n}"}, "wrong", f"n{n}")[0] for n in range(10)]
    assert codes[:9] == [401] * 9 and codes[9] == 429  # all eleven came from 127.0.0.1, whatever the header said


def headers_only(port, path, length, extra=b""):
    """The status line waitress answers to a request's headers alone, declaring a body of length it never sends."""
    with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
                     f"Content-Length: {length}\r\n".encode() + extra + b"\r\n")
        try:
            return sock.recv(200).split(b"\r\n")[0].decode()
        except socket.timeout:
            return "no answer: waiting for the body"


def test_a_large_body_is_read_only_for_a_signed_in_upload(serve_shared):
    port, token = serve_shared()
    big = 3_000_000
    assert " 413 " in headers_only(port, "/api/documents", big)  # unsigned: refused before its body
    assert " 413 " in headers_only(port, "/api/query", big, f"Authorization: Bearer {token}\r\n".encode())
    assert " 413 " in headers_only(port, "/api/documents", big, b"Authorization: Bearer evz_not-a-token\r\n")
    signed = headers_only(port, "/api/documents", big, f"Authorization: Bearer {token}\r\n".encode())
    assert signed == "no answer: waiting for the body"
    assert " 413 " not in headers_only(port, "/api/query", 100)  # a small body is read, then answered (401)
