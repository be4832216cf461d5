"""The request log: one JSON line per request on the logger `evidenz.requests`.

Each line holds the request's id (the client's X-Request-ID when it is a short safe token, else a new one; the
response echoes it), the route (the URL rule, never the raw path), the method, the status and the milliseconds.
A request that answered a question adds what shaping.logged handed over in g.answer: the pipeline's timings, the
query type, whether it declined or degraded, and its writer: provider, model and the milliseconds it took to write.
The writers do not report tokens, so none are logged. The question's text is logged only with LOG_QUESTIONS.
A stream is logged when it ends (its response is closed), so its time is the whole stream's.
Does not: log headers, bodies or addresses, or choose where the lines go: they go to stderr as bare JSON unless
the logger `evidenz.requests` is given handlers before the app is created.
"""
import json
import logging
import re
import sys
import time
import uuid

from flask import g, request

from configuration.settings import current

log = logging.getLogger("evidenz.requests")

REQUEST_ID_HEADER = "X-Request-ID"
SAFE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,100}")


class StderrLines(logging.StreamHandler):
    """Each record's message alone, on the stderr of the moment (a test's captured stderr is followed)."""

    def __init__(self):
        super().__init__()
        self.setFormatter(logging.Formatter("%(message)s"))

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        """Ignored: the stream is whatever sys.stderr is when a line is written."""


def enabled(value) -> bool:
    """A setting's truth, whether a test gave a bool or the environment a string ("1", "true", "yes", "on")."""
    return value is True or str(value).strip().lower() in ("1", "true", "yes", "on")


def request_id() -> str:
    """The client's X-Request-ID when it is a short token of letters, digits, dots, dashes and underscores; else new."""
    sent = request.headers.get(REQUEST_ID_HEADER, "")
    return sent if SAFE_REQUEST_ID.fullmatch(sent) else uuid.uuid4().hex


def start() -> None:
    """Name the request and start its clock (before the Host and sign-in checks, so refusals are timed too)."""
    g.request_id = request_id()
    g.request_started = time.perf_counter()


def answer_fields(body: dict, with_question: bool) -> dict:
    """What the log keeps of an answer's JSON: its timings and writer, and the question only when asked to."""
    timings = body.get("timings_ms") or {}
    fields = {
        "answer_id": body.get("id"),
        "query_type": body.get("query_type"),
        "declined": body.get("declined"),
        "degraded": body.get("degraded"),
        "timings_ms": timings,
        "writer": {"provider": body.get("generator"), "model": body.get("model"), "latency_ms": timings.get("generate")},
    }
    if with_question:
        fields["question"] = body.get("question")
    return fields


def emit(record: dict, started: float, answer: dict | None, with_question: bool) -> None:
    """Write the request's line, timed to now."""
    record["ms"] = round((time.perf_counter() - started) * 1000, 2)
    if answer is not None:
        record.update(answer_fields(answer, with_question))
    log.info(json.dumps(record, ensure_ascii=False, default=str))


def finish(response):
    """Echo the request id; log the request now, or when a streamed response is closed."""
    rid = g.get("request_id") or request_id()  # a request refused before start() ran still gets one
    response.headers[REQUEST_ID_HEADER] = rid
    record = {"time": round(time.time(), 3), "request_id": rid, "method": request.method,
              "route": request.url_rule.rule if request.url_rule else None, "status": response.status_code}
    started = g.get("request_started", time.perf_counter())
    with_question = enabled(current().server.log_questions)
    if response.is_streamed:
        state = g._get_current_object()  # the stream sets g.answer while it runs, in this same g
        response.call_on_close(lambda: emit(record, started, state.get("answer"), with_question))
    else:
        emit(record, started, g.get("answer"), with_question)
    return response


def register_logs(app) -> None:
    """Log every request; call before the other before_request hooks so that even refused requests are timed."""
    if not log.handlers:
        log.addHandler(StderrLines())
        log.propagate = False  # bare JSON lines, not wrapped in the root logger's format
    log.setLevel(logging.INFO)
    app.before_request(start)
    app.after_request(finish)
