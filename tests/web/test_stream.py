"""POST /api/query/stream: server-sent events in order, the same final body as /api/query, and a client
that disconnects stops the writer. Conversations, history logging and the bounded follow-up retrieval."""
import json
import socket
import threading

from werkzeug.serving import make_server

from app import create_app
from conftest import EndlessWriter, FakeWriter, make_pipeline
from generator import Generator


def events(response) -> list[tuple[str, dict]]:
    """The (event, data) pairs of an SSE body."""
    out = []
    for block in response.get_data(as_text=True).strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.split("\n"))
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_stream_sends_meta_sources_deltas_answer_done_in_order(client):
    response = client.post("/api/query/stream", json={"question": "Who discovered penicillin?"})
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    got = events(response)
    names = [name for name, _ in got]
    assert names[:2] == ["meta", "sources"] and names[-2:] == ["answer", "done"]
    assert set(names[2:-2]) == {"delta"} and len(names[2:-2]) == 4  # four words, as the fake writer streams them
    assert "".join(data["text"] for name, data in got if name == "delta") == "Fleming discovered penicillin [1]."
    meta, sources, answer, done = got[0][1], got[1][1], got[-2][1], got[-1][1]
    assert meta["query_type"] == "factual_lookup" and meta["standalone_question"] == "Who discovered penicillin?"
    assert sources["passages"][0]["id"] == "fleming#0" and answer["passages"] == sources["passages"]
    assert answer["answer"] == "Fleming discovered penicillin [1]." and done["id"] == answer["id"]


def test_stream_and_query_give_the_same_answer(client):
    plain = client.post("/api/query", json={"question": "Who discovered penicillin?", "session_id": "a"}).json
    streamed = events(client.post("/api/query/stream", json={"question": "Who discovered penicillin?", "session_id": "b"}))[-2][1]
    for key in ("answer", "citations", "passages", "query_type", "generator", "declined"):
        assert plain[key] == streamed[key]


def test_bad_stream_request_is_a_plain_400(client):
    response = client.post("/api/query/stream", json={"question": ""})
    assert response.status_code == 400 and response.json["error"].startswith('"question" is empty')


def test_failure_inside_the_stream_is_an_error_event_without_details():
    class Exploding(FakeWriter):
        def stream(self, request):
            yield "Fleming "
            raise RuntimeError("secret sk-ant-123")

    client = create_app({"TESTING": True}, pipeline=make_pipeline(Exploding("offline"))).test_client()
    got = events(client.post("/api/query/stream", json={"question": "Who discovered penicillin?"}))
    assert got[-1][0] == "error" and "secret" not in json.dumps(got) and got[-1][1]["error"].startswith("Something went wrong")


def test_a_client_that_disconnects_stops_the_writer():
    writer = EndlessWriter(words=200)
    server = make_server("127.0.0.1", 0, create_app({"TESTING": True}, pipeline=make_pipeline(writer)),
                         threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        body = json.dumps({"question": "Who discovered penicillin?"}).encode()
        with socket.create_connection(("127.0.0.1", server.server_port)) as sock:
            sock.sendall(b"POST /api/query/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            received = b""
            while b"event: delta" not in received:
                piece = sock.recv(4096)
                assert piece, received  # the server answered and closed before any text
                received += piece
        assert writer.closed.wait(5), "the writer kept going after the client left"
        assert len(writer.produced) < 200
    finally:
        server.shutdown()


def test_each_answer_is_logged_with_its_session():
    app = create_app({"TESTING": True}, pipeline=make_pipeline())
    client = app.test_client()
    first = client.post("/api/query", json={"question": "Who discovered penicillin?", "session_id": "s1"}).json
    record = app.extensions["history"].get(first["id"])
    assert record["question"] == "Who discovered penicillin?" and record["session_id"] == "s1"
    assert record["answer"] == first["answer"] and record["generator"] == "offline"
    assert client.get(f"/api/history/{first['id']}").json["question"] == "Who discovered penicillin?"


def test_a_follow_up_is_rewritten_from_the_conversation():
    writer = FakeWriter("offline")
    client = create_app({"TESTING": True}, pipeline=make_pipeline(writer)).test_client()
    client.post("/api/query", json={"question": "When was Rome founded?", "session_id": "s2"})
    body = client.post("/api/query", json={"question": "and what about Everest?", "session_id": "s2"}).json
    assert body["rewritten"] is True and body["standalone_question"] != "and what about Everest?"
    assert "Everest" in body["standalone_question"] and writer.calls[-1][0] == body["standalone_question"]
    other = client.post("/api/query", json={"question": "and what about Everest?", "session_id": "s3"}).json
    assert other["rewritten"] is False  # a new conversation has nothing to refer back to


def test_health_lists_each_provider_status():
    pipeline = make_pipeline()
    pipeline.generator = Generator({"offline": FakeWriter("offline"), "b": FakeWriter("b")}, "offline")
    body = create_app({"TESTING": True}, pipeline=pipeline).test_client().get("/api/health").json
    assert set(body["providers"]) == {"offline", "b"} and body["providers"]["b"]["last_call"] is None


def test_a_logged_answer_keeps_the_text_of_its_passages():
    app = create_app({"TESTING": True}, pipeline=make_pipeline())
    client = app.test_client()
    first = client.post("/api/query", json={"question": "Who discovered penicillin?"}).json
    record = client.get(f"/api/history/{first['id']}").json
    assert record["passages"][0]["chunk"] == first["passages"][0]["chunk"]
    assert record["citations"][0]["n"] == 1
