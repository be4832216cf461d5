"""The MCP tools over Streamable HTTP at /mcp, for connectors and agents that reach the server over the network.

The official SDK's stateless transport answers each POST (one JSON-RPC message) with JSON, inside this Flask
request: the request's body goes in as an ASGI request and the SDK's response comes back whole. So /mcp passes
the same Host check, sign-in (Authorization: Bearer <token> on a shared server), request log and metrics as the
rest of the API, and its tools act for the signed-in reader: their tiers limit every result, and `ask` counts
against their question limits. GET and DELETE get 405 (no standalone event stream, no sessions to end), which
the MCP clients expect of a stateless server.
Does not: hold sessions or push notifications, or serve the tools over stdio (web/mcp_server.py does).
"""
import threading

import anyio
from flask import Blueprint, Response, current_app, request

from accounts.roles import ASK
from web.auth import require
from web.mcp_server import ACTING, build_server
from web.query import count_question
from web.services import services

bp = Blueprint("mcp", __name__)

_building = threading.Lock()  # streamable_http_app() swaps the server's session manager: take it under the lock


def mcp_server():
    """The app's MCPServer, built once from its loaded services; the reader comes with each request."""
    server = current_app.extensions.get("mcp")
    if server is None:
        with _building:
            server = current_app.extensions.setdefault("mcp", build_server(services()))
    return server


@bp.post("/mcp")
def mcp():
    """One MCP message (initialize, tools/list, tools/call ...), answered by the SDK as JSON."""
    who = require(ASK)
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
    return Response(body, status, headers)


def scope() -> dict:
    """This request as an ASGI HTTP scope, at the path the SDK's app routes."""
    server_name, _, port = request.host.rpartition(":") if ":" in request.host else (request.host, "", "")
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
            "scheme": request.scheme, "path": "/mcp", "raw_path": b"/mcp", "root_path": "", "query_string": b"",
            "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in request.headers.items()],
            "client": (request.remote_addr or "", 0), "server": (server_name, int(port) if port.isdigit() else 80)}


async def exchange(asgi, manager, scope: dict, body: bytes) -> tuple[int, list, bytes]:
    """Run the SDK's app on one request and collect its whole response."""
    start, parts, done, sent = {}, [], anyio.Event(), False

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
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))
            if not message.get("more_body"):
                done.set()

    async with manager.run():
        await asgi(scope, receive, send)
    headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in start.get("headers", [])]
    return start.get("status", 500), headers, b"".join(parts)
