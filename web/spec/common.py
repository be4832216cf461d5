"""What every part of the API description shares: the error body, the error responses, sign-in, and helpers
that write a JSON request or response in one line.

An error is {"error": message} everywhere but under /v1/, where it takes the OpenAI API's shape. Every operation
may answer 400 for a Host the server does not answer to; on a shared server, 401 without sign-in; 403 for a role
that may not, or a cookie request without its CSRF token; and 503 while the models load or when the database
cannot be reached; and 414 for a URL past 8,192 characters. Those are added to each operation by `operation`.
"""
from web.validation import MAX_OFFSET

ERROR = {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}},
         "description": "What went wrong and what to do about it."}
OPENAI_ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["message", "type", "code"],
    "properties": {"message": {"type": "string"}, "type": {"type": "string"}, "code": {"type": "integer"}}}}}

DESCRIPTIONS = {400: "The request cannot be used; the message says what to send.",
                401: "This server needs sign-in: a bearer token or the page's session cookie.",
                403: "The reader's role may not do this, or a cookie request lacks X-CSRF-Token.",
                404: "No such thing, or not visible to this reader.",
                405: "The method is not allowed on this path.",
                406: "The Accept header names no media type this operation answers in.",
                409: "The request conflicts with what is there.",
                413: "The body is larger than the server takes.",
                414: "The URL is longer than the server reads (8,192 characters).",
                415: "The body's media type is not one this operation reads.",
                416: "The Range asked for lies outside the file.",
                429: "Past a limit; Retry-After says when to try again.",
                503: "The models are still loading, loading failed, or the database cannot be reached."}
ALWAYS = (400, 401, 403, 414, 503)  # any operation may answer these (web/guard.py, web/auth.py, web/services.py)


def page(key: str, item: dict, most: int, description: str) -> dict:
    """A page of a list: key holds at most `most` items; total counts every match; limit and offset as asked."""
    return {"type": "object", "description": description, "required": [key, "total", "limit", "offset"],
            "properties": {key: {"type": "array", "items": item, "maxItems": most},
                           "total": {"type": "integer", "minimum": 0, "description": "How many match in all."},
                           "limit": {"type": "integer", "minimum": 1, "maximum": most},
                           "offset": {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}},
            "additionalProperties": False}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def json_content(schema: dict) -> dict:
    return {"application/json": {"schema": schema}}


def ok(schema: dict, description: str = "Done.") -> dict:
    return {"description": description, "content": json_content(schema)}


def body(schema: dict, required: bool = True) -> dict:
    """A JSON request body."""
    return {"required": required, "content": json_content(schema)}


def error_response(status: int, openai: bool = False) -> dict:
    headers = {}
    if status == 401:
        headers["WWW-Authenticate"] = {"schema": {"type": "string"}}
    if status == 429:
        headers["Retry-After"] = {"schema": {"type": "integer"}}
    response = {"description": DESCRIPTIONS[status], "content": json_content(ref("OpenAIError" if openai else "Error"))}
    return {**response, "headers": headers} if headers else response


def operation(summary: str, responses: dict, errors=(), *, request=None, parameters=(), tags=(), openai=False,
              public=False) -> dict:
    """An operation: its 2xx responses, the errors it may give besides ALWAYS (public: no 401 or 403)."""
    statuses = {*errors, *(s for s in ALWAYS if not (public and s in (401, 403)))}
    out = {"summary": summary, "tags": list(tags),
           "responses": {**{str(k): v for k, v in responses.items()},
                         **{str(s): error_response(s, openai) for s in sorted(statuses)}}}
    if request is not None:
        out["requestBody"] = request
    if parameters:
        out["parameters"] = list(parameters)
    if public:
        out["security"] = [{}]
    return out


def path_param(name: str, schema: dict, description: str) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": schema, "description": description}


def query_param(name: str, schema: dict, description: str) -> dict:
    return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}


SECURITY_SCHEMES = {
    "bearer": {"type": "http", "scheme": "bearer", "description": "A user's token (`flask --app app users token`)."},
    "session": {"type": "apiKey", "in": "cookie", "name": "evidenz_session",
                "description": "The page's session (POST /api/session); changes also need X-CSRF-Token."},
}
# A personal server needs no sign-in; a shared one takes either.
SECURITY = [{}, {"bearer": []}, {"session": []}]
