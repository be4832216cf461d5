"""The load command against a real server on 127.0.0.1: bounded by requests or by seconds, each of its own
questions asked before any again, the server's memory read through its health; other addresses refused."""
import json
import threading

import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from app import create_app
from conftest import FakeWriter, make_pipeline
from benchmarks.load import load_command, run


class Recording(FakeWriter):
    """The fake writer, remembering every question it answered (from any thread)."""

    def __init__(self):
        super().__init__()
        self.asked, self.lock = [], threading.Lock()

    def write(self, request):
        with self.lock:
            self.asked.append(request.question)
        return super().write(request)


def serve(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


@pytest.fixture
def served():
    writer = Recording()
    server, url = serve(create_app({"TESTING": True}, pipeline=make_pipeline(writer)))
    yield url, writer
    server.shutdown()


def test_two_servers_share_the_clients_and_each_reports(served):
    url, writer = served
    other_writer = Recording()
    other, other_url = serve(create_app({"TESTING": True}, pipeline=make_pipeline(other_writer)))
    try:
        result = CliRunner().invoke(load_command, ["--url", url, "--url", other_url, "--clients", "4",
                                                   "--requests", "12"])
    finally:
        other.shutdown()
    figures = json.loads(result.stdout)
    assert result.exit_code == 0 and figures["answered"] == 12 and figures["errors"] == 0
    assert [s["url"] for s in figures["servers"]] == [url, other_url]
    assert sum(s["answered"] for s in figures["servers"]) == 12 and len(writer.asked) == figures["servers"][0]["answered"]
    assert all(s["answered"] > 0 and s["server_rss_mb"]["first"] > 0 for s in figures["servers"])


def test_a_failed_question_is_counted_with_the_servers_message():
    from flask import Flask, jsonify

    app = Flask("timing-out")
    app.post("/api/query")(lambda: (jsonify(error="The library's database took longer than its time limit"), 503))
    server, url = serve(app)
    try:
        figures = run(url, 2, requests=4)
    finally:
        server.shutdown()
    assert figures["answered"] == 0 and figures["errors"] == 4
    assert figures["error_examples"] == ["503: The library's database took longer than its time limit"]


def test_each_question_is_asked_once_before_any_again(served, tmp_path):
    url, writer = served
    questions = tmp_path / "queries.jsonl"
    questions.write_text("".join(json.dumps({"_id": str(i), "text": f"Who built bridge {i}?"}) + "\n" for i in range(6)))
    result = CliRunner().invoke(load_command, ["--url", url, "--clients", "3", "--requests", "8",
                                               "--questions", str(questions)])
    figures = json.loads(result.stdout)
    assert result.exit_code == 0 and figures["answered"] == 8 and figures["errors"] == 0
    assert sorted(set(writer.asked)) == [f"Who built bridge {i}?" for i in range(6)] and len(writer.asked) == 8
    assert figures["distinct_questions"] == 6 and figures["p50_ms"] <= figures["p95_ms"]
    assert figures["server_rss_mb"]["first"] > 0 and figures["server_rss_mb"]["max"] >= figures["server_rss_mb"]["last"]
    assert len(figures["machine_load"]["before"]) == 3


def test_a_steady_load_stops_by_itself(served):
    url, writer = served
    figures = run(url, 2, seconds=1.0)
    assert figures["answered"] > 0 and figures["answered"] == len(writer.asked)
    assert 1.0 <= figures["seconds"] < 5.0


class Spinning(Recording):
    """A writer that spends 40 ms of CPU on each answer."""

    def write(self, request):
        import time

        until = time.thread_time() + 0.04
        while time.thread_time() < until:
            pass
        return super().write(request)


def test_the_servers_cpu_per_question_is_read_from_its_process():
    server, url = serve(create_app({"TESTING": True}, pipeline=make_pipeline(Spinning())))
    try:
        figures = run(url, 2, requests=10)
    finally:
        server.shutdown()
    assert figures["answered"] == 10 and figures["server_cpu_ms_per_question"] >= 35


def test_only_this_machine_is_loaded_and_the_bounds_are_checked():
    runner = CliRunner()
    refused = runner.invoke(load_command, ["--url", "http://192.0.2.1:5000", "--requests", "1"])
    assert refused.exit_code == 2 and "only sends traffic to this machine" in refused.output
    both = runner.invoke(load_command, ["--requests", "4", "--seconds", "2"])
    assert both.exit_code == 2 and "not both" in both.output
    assert runner.invoke(load_command, ["--seconds", "7200"]).exit_code == 2
