"""The protocols part of the API description (web/spec/__init__.py): Evidenz as an OpenAI-compatible model
(web/protocols/openai_api.py), the MCP tools over Streamable HTTP (web/protocols/mcp_http.py), Prometheus metrics (web/metrics.py),
this document (web/openapi.py), and the page's static files.
"""
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS

from web.protocols.openai_api import FIELDS, MAX_MESSAGES, MODEL, ROLES
from web.spec.asking import BAD_TOKEN, PROVIDERS, with_response
from web.spec.common import body, json_content, ok, operation, path_param, ref
from web.validation import MAX_QUESTION_CHARS

TEXT = {"type": "string"}
NULLABLE_TEXT = {"type": ["string", "null"]}
COUNT = {"type": "integer", "minimum": 0}
UNUSED = "Accepted for compatibility; unused."
MODELS = [MODEL, *(f"{MODEL}-{name}" for name in PROVIDERS)]
CHUNKS = {"text/event-stream": {"schema": {  # each event: a chat.completion.chunk, then "[DONE]"
    "type": "object", "required": ["data"], "properties": {"event": {"const": "message"}, "data": TEXT},
    "if": {"properties": {"data": {"const": "[DONE]"}}},
    "else": {"properties": {"data": {"type": "string", "contentMediaType": "application/json",
                                     "contentSchema": ref("ChatCompletionChunk")}}}}}}


def either(*schemas: dict) -> dict:
    """A JSON body of any of these shapes."""
    return json_content({"anyOf": list(schemas)})


def examples(request: dict, values: dict) -> dict:
    """A JSON request body with named examples."""
    request["content"]["application/json"]["examples"] = {name: {"value": v} for name, v in values.items()}
    return request


def described(text: str, content: dict | None = None) -> dict:
    """A response: its description, and its content when it has a body."""
    return {"description": text, **({"content": content} if content else {})}


def completion_head(kind: str, part: str, finish: dict, content: dict) -> dict:
    """What a chat completion and a chunk of one share: id, object, created, model and the one choice."""
    return {"id": {"type": "string", "pattern": "^chatcmpl-"}, "object": {"const": kind},
            "created": {"type": "integer"}, "model": {"enum": MODELS},
            "choices": {"type": "array", "minItems": 1, "maxItems": 1, "items": {
                "type": "object", "required": ["index", part, "finish_reason"],
                "properties": {"index": {"const": 0}, "finish_reason": finish, part: content}}}}


SCHEMAS = {
    # /v1: the OpenAI chat completions API
    "ChatMessage": {
        "type": "object", "required": ["role"],
        "properties": {
            "role": {"enum": list(ROLES), "description": "user and assistant messages are the conversation; the "
                                                         "others are read past."},
            "content": {"anyOf": [TEXT, {"type": "array", "items": ref("ChatContentPart")}, {"type": "null"}],
                        "description": "Text, or parts of which the text ones are read; null for a tool call."},
        },
    },
    "ChatContentPart": {
        "type": "object",
        "properties": {"type": {**TEXT, "description": '"text" parts are read; others are ignored.'}, "text": TEXT},
    },
    "ChatCompletionRequest": {
        "type": "object", "required": ["messages"], "additionalProperties": False,
        "description": "The last message is the question (the user's, at most "
                       f"{MAX_QUESTION_CHARS:,} characters); earlier ones are the conversation.",
        "properties": {
            "model": {"enum": [*MODELS, None], "default": MODEL,
                      "description": "evidenz: the default writer; evidenz-<provider>: a configured one (404 else)."},
            "messages": {"type": "array", "minItems": 1, "maxItems": MAX_MESSAGES, "items": ref("ChatMessage")},
            "stream": {"type": ["boolean", "null"], "description": "true: the answer as server-sent events."},
            **{name: {"description": UNUSED} for name in FIELDS if name not in ("model", "messages", "stream")},
        },
    },
    "ChatCitation": {
        "allOf": [ref("Citation"), {"type": "object", "required": ["text"], "properties": {"text": NULLABLE_TEXT}}],
        "description": "A checked citation with its passage's text.",
    },
    "ChatCompletion": {
        "type": "object",
        "required": ["id", "object", "created", "model", "choices", "usage", "citations", "evidenz"],
        "properties": {
            **completion_head("chat.completion", "message", {"const": "stop"},
                              {"type": "object", "required": ["role", "content"],
                               "properties": {"role": {"const": "assistant"}, "content": TEXT}}),
            "usage": {"type": "object", "required": ["prompt_tokens", "completion_tokens", "total_tokens"],
                      "description": "Not counted: always 0.",
                      "properties": {k: COUNT for k in ("prompt_tokens", "completion_tokens", "total_tokens")}},
            "citations": {"type": "array", "items": ref("ChatCitation")},
            "evidenz": ref("ChatEvidenz"),
        },
    },
    "ChatEvidenz": {
        "type": "object", "description": "What Evidenz says of the answer besides its text.",
        "required": ["declined", "answer_id", "query_type", "standalone_question", "generator"],
        "properties": {"declined": {"type": "boolean"}, "answer_id": NULLABLE_TEXT, "query_type": TEXT,
                       "standalone_question": TEXT, "generator": TEXT},
    },
    "ChatCompletionChunk": {
        "type": "object", "required": ["id", "object", "created", "model", "choices"],
        "description": "A piece of the streamed answer: the role first, then the checked text; the last one "
                       "(finish_reason stop) also holds citations and evidenz.",
        "properties": {
            **completion_head("chat.completion.chunk", "delta", {"enum": ["stop", None]},
                              {"type": "object", "properties": {"role": {"const": "assistant"}, "content": TEXT}}),
            "citations": {"type": "array", "items": ref("ChatCitation")},
            "evidenz": ref("ChatEvidenz"),
        },
    },
    "ModelList": {
        "type": "object", "required": ["object", "data"],
        "properties": {"object": {"const": "list"}, "data": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["id", "object", "created", "owned_by"],
            "properties": {"id": {"enum": MODELS}, "object": {"const": "model"}, "created": {"type": "integer"},
                           "owned_by": {"const": "evidenz"}}}}},
    },
    # /mcp: JSON-RPC 2.0 messages of the Model Context Protocol
    "JsonRpcMessage": {
        "type": "object", "required": ["jsonrpc", "method"],
        "description": "A request (with an id) or a notification (without).",
        "properties": {
            "jsonrpc": {"const": "2.0"},
            "id": {"type": ["string", "integer"]},
            "method": {"type": "string", "minLength": 1,
                       "examples": ["initialize", "tools/list", "tools/call", "resources/read", "ping"]},
            "params": {"type": "object"},
        },
    },
    "JsonRpcResult": {
        "type": "object", "required": ["jsonrpc", "id", "result"],
        "properties": {"jsonrpc": {"const": "2.0"}, "id": {"type": ["string", "integer"]},
                       "result": {"type": "object", "description": "A tool's failure is a result with isError."}},
    },
    "JsonRpcError": {
        "type": "object", "required": ["jsonrpc", "id", "error"],
        "properties": {
            "jsonrpc": {"const": "2.0"}, "id": {"type": ["string", "integer", "null"]},
            "error": {"type": "object", "required": ["code", "message"],
                      "properties": {"code": {"type": "integer"}, "message": TEXT, "data": {}}},
        },
    },
}

ASKED = {"role": "user", "content": "Who discovered penicillin?"}
CHAT_EXAMPLES = {
    "question": {"model": MODEL, "messages": [ASKED]},
    "stream": {"model": f"{MODEL}-offline", "messages": [{"role": "system", "content": "Be brief."}, ASKED],
               "stream": True},
    "follow-up": {"messages": [ASKED, {"role": "assistant", "content": "Alexander Fleming [1]."},
                               {"role": "user", "content": [{"type": "text", "text": "When?"}]}]},
}
MCP_EXAMPLES = {
    "initialize": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "client", "version": "1"}}},
    "tools": {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    "search": {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "search", "arguments": {"query": "penicillin", "top_k": 3}}},
    "ask": {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": "ask", "arguments": {"question": "Who discovered penicillin?"}}},
    "works": {"jsonrpc": "2.0", "id": 5, "method": "resources/read", "params": {"uri": "evidenz://works"}},
    "initialized": {"jsonrpc": "2.0", "method": "notifications/initialized"},
}

mcp = operation(
    "One MCP message (stateless Streamable HTTP): search, fetch and ask as the signed-in reader",
    {200: described("The JSON-RPC response: a result, or an error such as an unknown method.",
                    json_content({"anyOf": [ref("JsonRpcResult"), ref("JsonRpcError")]})),
     202: described("A notification (or a response) was accepted; no body.")},
    (413, 415),
    request=examples(body(ref("JsonRpcMessage")), MCP_EXAMPLES),
    parameters=[{"name": "MCP-Protocol-Version", "in": "header", "required": False,
                 "schema": {"enum": list(KNOWN_PROTOCOL_VERSIONS)},
                 "description": "After initialize, the version it agreed; 2026-07-28 takes the per-request "
                                "envelope (params._meta, Mcp-Method header) instead of initialize."}],
    tags=("mcp",))
with_response(mcp, 400, described("Not JSON-RPC (a JSON-RPC error), or refused before it was read.",
                                  either(ref("JsonRpcError"), ref("Error"))))
with_response(mcp, 404, described("2026-07-28: no such method.", json_content(ref("JsonRpcError"))))
with_response(mcp, 406, described("Accept does not take application/json.",
                                  either(ref("JsonRpcError"), ref("Error"))))

STATIC_TYPES = ("text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml",
                "application/json", "application/octet-stream")

PATHS = {
    "/v1/chat/completions": {"post": operation(
        "The checked answer to the last user message, as an OpenAI chat completion",
        {200: described("The completion; with stream, server-sent `data:` chunks (chat.completion.chunk, the last "
                        "with citations and evidenz) and then `data: [DONE]`.",
                        {**json_content(ref("ChatCompletion")), **CHUNKS})},
        (404, 413, 429), request=examples(body(ref("ChatCompletionRequest")), CHAT_EXAMPLES), tags=("openai",),
        openai=True)},
    "/v1/models": {"get": operation("The models a chat app may pick", {200: ok(ref("ModelList"))},
                                    tags=("openai",), openai=True)},
    "/mcp": {"post": mcp},
    "/metrics": {"get": operation(
        "The server's numbers in Prometheus's text format (the metrics permission)",
        {200: described("Prometheus text exposition.", {"text/plain": {"schema": TEXT}})}, tags=("operations",))},
    "/api/openapi.json": {"get": operation(
        "This API described in OpenAPI 3.1",
        {200: ok({"type": "object", "required": ["openapi", "info", "paths", "components"],
                  "properties": {"openapi": {"const": "3.1.0"}}})}, BAD_TOKEN, tags=("operations",), public=True)},
    "/static/{filename}": {"get": operation(
        "A file of the page (script, style, image)",
        {200: described("The file, with the media type its name implies.",
                        {t: {"schema": TEXT} for t in STATIC_TYPES}),
         206: described("The part of the file a Range header asked for.", {t: {"schema": TEXT} for t in STATIC_TYPES}),
         304: {"description": "Not modified since the copy the client holds (If-None-Match, If-Modified-Since)."}},
        (*BAD_TOKEN, 404, 416), parameters=[{**path_param("filename", {"type": "string", "minLength": 1},
                                          "A path under static/, such as app.js or vendor/marked.umd.js."),
                             "examples": {name: {"value": name} for name in ("app.js", "style.css", "favicon.svg")}}],
        tags=("page",), public=True)},
}
