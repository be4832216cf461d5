"""The MCP tools over Streamable HTTP at /mcp, for connectors and agents that reach the server over the network.

The official SDK's stateless transport answers each POST (one JSON-RPC message) with JSON, inside this Flask
request: the request's body goes in as an ASGI request and the SDK's response comes back whole. So /mcp passes
the same Host check, sign-in (Authorization: Bearer <token> on a shared server), request log and metrics as the
rest of the API, and its tools act for the signed-in reader: their tiers limit every result, and `ask` counts
against their question limits. GET and DELETE get 405 (no standalone event stream, no sessions to end), which
the MCP clients expect of a stateless server.
Does not: hold sessions or push notifications (a subscriptions/listen request, which would open an event
stream, gets 400), or serve the tools over stdio (web/protocols/mcp_server.py does).
"""
import threading

import anyio
from flask import Blueprint, Response, current_app, request

from accounts.roles import ASK
from web.auth import require
from web.errors import ApiError
from web.protocols.mcp_server import ACTING, build_server
from web.query import count_question
from web.services import kept_history, services

bp = Blueprint("mcp", __name__)

_building = threading.Lock()  # streamable_http_app() swaps the server's session manager: take it under the lock
# What the SDK's bodiless refusals mean, said as the rest of the API says it ({"error": ...}).
BODILESS = {406: "Send Accept: application/json; this server answers each MCP request with JSON."}
NO_STREAMS = ("This server answers each MCP request with one JSON response and holds no event streams, so "
              "subscriptions/listen is not offered; call the tools directly.")


def mcp_server():
    """The app's MCPServer, built once from its loaded services; the reader comes with each request."""
    server = current_app.extensions.get("mcp")
    if server is None:
        with _building:
            server = current_app.extensions.setdefault("mcp", build_server(services(), history=kept_history()))
    return server


@bp.post("/mcp")
def mcp():
    """One MCP message (initialize, tools/list, tools/call ...), answered by the SDK as JSON."""
    who = require(ASK)
    if request.mimetype != "application/json":  # the SDK's own refusal is a bare line, not JSON
        raise ApiError("Send one JSON-RPC message with Content-Type: application/json.", 415)
    pipeline = services().pipeline
    server = mcp_server()
    with _building:
        asgi = server.streamable_http_app(stateless_http=True, json_response=True, transport_security=None,
                                          host="0.0.0.0")  # the Host check is web/guard.py's, for every route
        manager = server.session_manager
    token = ACTING.set((who, lambda: count_question(who, pipeline, None)))
    try:
        status, headers, body = anyio.run(exchange, asgi, manager, scope(), request.get_data())
    finally:
        ACTING.reset(token)
    if status is None:  # the SDK began an event stream, which this server does not hold open
        raise ApiError(NO_STREAMS, 400)
    if status >= 400 and not any(k.lower() == "content-type" for k, _ in headers):
        raise ApiError(BODILESS.get(status, f"The MCP request was refused ({status}); send one JSON-RPC message "
                                            "as application/json."), status)
    response = Response(body, status, headers)
    if not body:  # 202 for a notification: no body, so no media type
        del response.headers["Content-Type"]
    return response


def scope() -> dict:
    """This request as an ASGI HTTP scope, at the path the SDK's app routes; its Content-Type as mcp() checked it
    (werkzeug reads "Application/JSON" as JSON, the SDK would not)."""
    headers = [(k, request.mimetype if k.lower() == "content-type" else v) for k, v in request.headers.items()]
    server_name, _, port = request.host.rpartition(":") if ":" in request.host else (request.host, "", "")
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
            "scheme": request.scheme, "path": "/mcp", "raw_path": b"/mcp", "root_path": "", "query_string": b"",
            "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
            "client": (request.remote_addr or "", 0), "server": (server_name, int(port) if port.isdigit() else 80)}


async def exchange(asgi, manager, scope: dict, body: bytes) -> tuple[int | None, list, bytes]:
    """Run the SDK's app on one request and collect its whole response; status None when the SDK began an event
    stream instead (subscriptions/listen), which never ends by itself and so is cut off at once."""
    start, parts, done, sent = {}, [], anyio.Event(), False
    cut = anyio.CancelScope()

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await done.wait()  # the body is read: the client stays connected until the response is out
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            start.update(message)
            if dict(message.get("headers", [])).get(b"content-type", b"").startswith(b"text/event-stream"):
                cut.cancel()
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))
            if not message.get("more_body"):
                done.set()

    async with manager.run():
        with cut:
            await asgi(scope, receive, send)
    if cut.cancel_called:
        return None, [], b""
    headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in start.get("headers", [])]
    return start.get("status", 500), headers, b"".join(parts)
