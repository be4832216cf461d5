"""Graceful shutdown of the real server (web/shutdown.py): SIGTERM while an answer streams; the stream is answered
to its end, a new connection is refused, and the process exits cleanly. A subprocess on the loopback."""
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = Path(__file__).with_name("slow_stream_app.py")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_listening(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the server did not start")


def test_sigterm_lets_a_streamed_answer_finish_and_refuses_new_connections():
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "flask", "--app", str(APP), "serve", "--port", str(port)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_listening(port)
        events, first = [], threading.Event()

        def stream():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("POST", "/api/query/stream", json.dumps({"question": "Who discovered penicillin?"}),
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            for line in response:
                if line.startswith(b"event: "):
                    events.append(line[7:].strip().decode())
                    first.set()

        reader = threading.Thread(target=stream)
        reader.start()
        assert first.wait(30)
        server.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        refused = False
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        except OSError:
            refused = True
        reader.join(timeout=30)
        assert refused and not reader.is_alive()
        assert events[-2:] == ["answer", "done"] and events.count("delta") >= 5
        assert server.wait(timeout=30) == 0
        assert "the requests in flight were answered" in server.stdout.read()
    finally:
        if server.poll() is None:
            os.kill(server.pid, signal.SIGKILL)


def test_a_stop_while_the_worker_warms_sentence_vectors_exits_0(tmp_path, _real_embedder):
    """Issue 49: SIGTERM while the ingest worker's thread is inside the models aborted the exit ("terminate called
    without an active exception", 134); the worker is now stopped between two pages and waited for."""
    import urllib.request

    from ingest import corpus
    from models import Document

    docs = [Document(f"d{n}", f"Topic {n}", " ".join(f"Sentence {k} of topic {n} says something plain."
                                                      for k in range(12))) for n in range(150)]
    corpus.build(docs, _real_embedder, tmp_path / "lib", 1200, 200)  # built cold: the worker repairs it
    port = free_port()
    env = {**os.environ, "FLASK_LIBRARY_DIR": str(tmp_path / "lib"), "FLASK_HISTORY_DB": str(tmp_path / "h.sqlite3"),
           "FLASK_WARM_SENTENCES": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    server = subprocess.Popen([sys.executable, "-m", "flask", "--app", "app", "serve", "--port", str(port)],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_listening(port, timeout=120)
        deadline, state = time.monotonic() + 120, None
        while time.monotonic() < deadline and state != "repairing":
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=10) as response:
                state = json.loads(response.read()).get("library", {}).get("sentences", {}).get("state")
            time.sleep(0.2)
        assert state == "repairing"  # the worker's thread is in the models now
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=60)
        output = server.stdout.read()
        assert code == 0 and "terminate called" not in output, output[-2000:]
    finally:
        if server.poll() is None:
            os.kill(server.pid, signal.SIGKILL)
