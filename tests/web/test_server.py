"""The real server (web/server.py: waitress): a streamed answer arrives event by event; and under slow clients, fifty sockets that send a request's headers and
then stall in its body, or stall in the headers, hold no thread, so health and a question are still answered
within two seconds; a connection that stays silent is dropped after the channel timeout. Loopback only, and
every loop is bounded."""
import json
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

from app import create_app
from conftest import FakeWriter, make_pipeline
from web.server import create_server

STALLED_BODY = (b"POST /api/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 1000\r\n\r\n{\"question\":")
STALLED_HEADERS = b"POST /api/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"


WORDS = "Fleming discovered penicillin in 1928 at St Mary's Hospital in London [1]."


@pytest.fixture
def server():
    app = create_app({"TESTING": True}, pipeline=make_pipeline(FakeWriter("offline", [WORDS] * 5, delay=0.15)))
    served = create_server(app, "127.0.0.1", 0, threads=4, channel_timeout=3)

    def run():
        try:
            served.run()
        except (OSError, ValueError):  # close() below ends the loop under its feet
            pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{served.effective_port}"
    served.close()
    thread.join(timeout=5)


def stalled(port: int, count: int) -> list[socket.socket]:
    """count sockets, each stopped partway through a request."""
    sockets = []
    for n in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(STALLED_BODY if n % 2 else STALLED_HEADERS)
        sockets.append(sock)
    return sockets


def timed(request) -> tuple[float, int, dict]:
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=10) as response:
        return time.perf_counter() - started, response.status, json.loads(response.read())


def test_fifty_stalled_clients_leave_health_and_questions_answered(server):
    port = int(server.rsplit(":", 1)[1])
    sockets = stalled(port, 50)
    try:
        time.sleep(0.5)  # every stalled request has reached the server
        seconds, status, body = timed(server + "/api/health")
        assert status == 200 and body["status"] == "ok" and seconds < 2.0
        question = urllib.request.Request(server + "/api/query", json.dumps({"question": "Who discovered penicillin?"}).encode(),
                                          {"Content-Type": "application/json"})
        for _ in range(3):
            seconds, status, body = timed(question)
            assert status == 200 and body["answer"] and seconds < 2.0
    finally:
        for sock in sockets:
            sock.close()


def test_a_silent_connection_is_dropped_after_the_channel_timeout(server):
    port = int(server.rsplit(":", 1)[1])
    (sock,) = stalled(port, 1)
    sock.settimeout(15)
    started = time.monotonic()
    try:
        assert sock.recv(100) == b""  # the server closed it without an answer
    finally:
        sock.close()
    assert 2.5 <= time.monotonic() - started < 15


def test_a_streamed_answer_arrives_event_by_event(server):
    question = urllib.request.Request(server + "/api/query/stream", json.dumps({"question": "Who discovered penicillin?"}).encode(),
                                      {"Content-Type": "application/json"})
    started, seen = time.perf_counter(), []
    with urllib.request.urlopen(question, timeout=10) as response:
        for line in response:
            if line.startswith(b"event: "):
                seen.append((line[7:].strip().decode(), time.perf_counter() - started))
    names = [name for name, _ in seen]
    assert names[:2] == ["meta", "sources"] and names[-2:] == ["answer", "done"] and names.count("delta") >= 10
    first_delta = next(t for name, t in seen if name == "delta")
    assert first_delta < seen[-1][1] - 1.0  # the words came as they were written, not all at the end


@pytest.mark.parametrize("path, shape", [
    ("/v1/chat/completions", lambda body: body["error"]["code"] == 413 and body["error"]["type"] == "invalid_request_error"),
    ("/api/query", lambda body: isinstance(body["error"], str) and "POST /api/documents" in body["error"]),
])
def test_a_body_over_the_apis_limit_is_refused_in_the_apis_json_shape(server, path, shape):
    request = urllib.request.Request(f"{server}{path}", data=b"{" + b" " * 70_000 + b"}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 413 and refused.value.headers["Content-Type"] == "application/json"
    assert shape(json.loads(refused.value.read()))
