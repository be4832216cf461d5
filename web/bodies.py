"""Who may send waitress a large body: only an upload, and on a shared server only a signed-in one.

waitress reads a request's whole body before the app sees it, so without this an unsigned client could make the
server buffer an upload's worth (MAX_UPLOAD_BYTES) on any route before the app answers 401. Once a request's
headers are read, a body longer than the API's MAX_CONTENT_LENGTH (or a chunked one) is let through only for
POST /api/documents with a live bearer token or session cookie (one index probe, on large bodies only); any
other gets a 413 before its body is read, in the API's JSON shape (JsonErrorTask), as every error is.
Does not: decide what a signed-in user may upload (web/documents.py, its limits), or check the CSRF token.
"""
import copy
import json
from http.cookies import CookieError, SimpleCookie

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer
from waitress.task import ErrorTask

from accounts.passwords import digest
from web.auth import SESSION_COOKIE, shared

UPLOAD_PATH = "/api/documents"
SLACK = 4096  # framing around the largest API body


def may_upload(app, headers: dict) -> bool:
    """Whether a request with these (waitress, upper-case) headers may send an upload's body."""
    with app.app_context():
        if not shared(app):
            return True
        store = app.extensions["history"].accounts
        scheme, _, token = headers.get("AUTHORIZATION", "").partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            return store.token_user(digest(token.strip())) is not None
        try:
            cookie = SimpleCookie(headers.get("COOKIE", "")).get(SESSION_COOKIE)
        except CookieError:
            return False
        return cookie is not None and store.session(digest(cookie.value)) is not None


class JsonErrorTask(ErrorTask):
    """waitress's own errors (a body too large, a malformed request) in the API's JSON shape, as every route
    answers (web/errors.py): {"error": message}, and under /v1/ the OpenAI API's {"error": {message, type, code}}."""

    def execute(self):
        error = self.request.error
        message = {413: "The request body is larger than this route takes; send a smaller one (only an upload to "
                        "POST /api/documents, signed in, may be large)."}.get(error.code, f"{error.reason}: {error.body}")
        body = {"error": message}
        if (self.request.path or "").startswith("/v1/"):
            body = {"error": {"message": message, "type": "invalid_request_error", "code": error.code}}
        data = json.dumps(body).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(data)
        self.write(data)


def limit_bodies(server, app) -> None:
    """Make waitress server (as waitress.create_server returns it) refuse large bodies that may_upload does not let
    through, with a 413 before reading them."""
    small = copy.copy(server.adj)
    small.max_request_body_size = app.extensions["settings"].server.max_content_length + SLACK

    class Parser(HTTPRequestParser):
        def parse_header(self, header_plus):
            super().parse_header(header_plus)
            large = self.chunked or self.content_length >= small.max_request_body_size
            if large and not (self.command == "POST" and self.path == UPLOAD_PATH and may_upload(app, self.headers)):
                self.adj = small  # the parser's own check then refuses it (RequestEntityTooLarge)

    channel = type("Channel", (HTTPChannel,), {"parser_class": Parser, "error_task_class": JsonErrorTask})
    for found in [server, *getattr(server, "map", {}).values()]:
        if isinstance(found, BaseWSGIServer):
            found.channel_class = channel
