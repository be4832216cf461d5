"""One way to turn an error into a response: every expected error becomes {"error": message} with its 4xx.

Views raise ApiError, or let an error of a lower layer rise whose message is written for the client
(storage's HistoryError, a file's RejectedFile; the database's Unavailable is a 503): register_error_handlers maps
each to an ApiError and answers it through `respond`. werkzeug's own errors (404, 405, 413) get messages that say what to do; anything else
is a 500 with a generic message, the traceback in the log, never exception text. The page's security headers
are set here too.
"""
from flask import request
from werkzeug.exceptions import HTTPException

from accounts.limits import OverLimit
from ingest.records import RejectedFile
from postgres.database import TimedOut, Unavailable
from storage.answers import UnknownFeedback
from storage.history import HistoryError, UnknownAnswer

# The page loads its script and style from this origin only and never runs inline code.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


class ApiError(Exception):
    """An expected error, shown to the client as {"error": message} with status."""

    def __init__(self, message: str, status: int = 400, headers: dict | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.headers = headers or {}  # WWW-Authenticate of a 401, Retry-After of a 429


def respond(error: ApiError):
    """The one JSON shape of an error response; under /v1/ the OpenAI API's, which its clients read."""
    if request.path.startswith("/v1/"):
        kind = {401: "authentication_error", 403: "permission_error", 404: "not_found_error",
                429: "rate_limit_error"}.get(error.status, "invalid_request_error" if error.status < 500 else "api_error")
        return {"error": {"message": error.message, "type": kind, "code": error.status}}, error.status, error.headers
    return {"error": error.message}, error.status, error.headers


def unknown_answer(answer_id: str) -> ApiError:
    """The 404 for an answer id that is not in the history."""
    return ApiError(f"No answer with id {answer_id[:64]!r} in the history. Ids come from the \"id\" of a "
                    "/api/query answer or from GET /api/history.", 404)


def http_error(e: HTTPException) -> ApiError:
    """404, 405, 413 and the rest of werkzeug's errors, with a message that says what to do."""
    messages = {
        404: f"Not found: {request.path}. See README for the API (/api/health, /api/query, /api/documents ...).",
        405: f"{request.method} is not allowed on {request.path}.",
        413: f"The request body is larger than the limit of {request.max_content_length:,} bytes"
             + (" for an upload; split the file or raise MAX_UPLOAD_BYTES." if request.path.startswith("/api/documents")
                else "."),
    }
    return ApiError(messages.get(e.code, e.description or e.name), e.code)


def register_error_handlers(app) -> None:
    """Every error through `respond`, and the page's security headers on every response."""
    app.register_error_handler(ApiError, respond)
    # lower layers' errors whose messages are written for the client
    app.register_error_handler(HistoryError, lambda e: respond(ApiError(str(e), 400)))
    app.register_error_handler(UnknownAnswer, lambda e: respond(unknown_answer(e.args[0] if e.args else "")))
    app.register_error_handler(UnknownFeedback, lambda e: respond(ApiError(e.args[0], 404)))
    app.register_error_handler(OverLimit, lambda e: respond(ApiError(e.message, 429,
                                                                     {"Retry-After": str(e.retry_after)})))
    app.register_error_handler(RejectedFile, lambda e: respond(ApiError(str(e), 415)))
    app.register_error_handler(Unavailable, lambda _e: respond(ApiError(
        "The library's database cannot be reached right now; try again in a few seconds.", 503)))
    app.register_error_handler(TimedOut, lambda _e: respond(ApiError(
        "The library's database took longer than its time limit for this request; try again, or ask for less "
        "(a narrower filter, fewer results). If it keeps happening, an admin can raise DATABASE_TIMEOUT_MS.", 503)))
    app.register_error_handler(HTTPException, lambda e: respond(http_error(e)))
    # an unexpected failure: the traceback is in the log, the client gets no details
    app.register_error_handler(500, lambda _e: respond(
        ApiError("Something went wrong on the server; it has been logged. Try again.", 500)))

    @app.after_request
    def security_headers(response):
        """Forbid inline scripts and foreign images on the page, and content sniffing."""
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response
