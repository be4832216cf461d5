"""The HTTP API and the chat page: /, /api/health and /api/query.

Input is validated in one function with named limits; every expected error is an ApiError
answered as {"error": "..."} with a 4xx status and a message that says what to do. Unexpected
errors become a 500 with a generic message (Flask logs the traceback), never exception text.
"""
import json
import re
import time
from contextlib import closing

from flask import Blueprint, Response, current_app, request, stream_with_context
from werkzeug.exceptions import HTTPException

from storage.store import FILTER_FIELDS as METADATA_FILTERS

MAX_QUESTION_CHARS = 2000
TOP_K_MIN, TOP_K_MAX = 1, 20
QUERY_FIELDS = ("question", "top_k", "provider", "model", "language", "session_id", "filters")
MAX_MODEL_CHARS = 100
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
LANGUAGE = re.compile(r"auto|[a-z]{2,3}")
FILTER_FIELDS = ("document_ids", *METADATA_FILTERS)
MAX_FILTER_IDS = 200

# The page loads its script and style from this origin only and never runs inline code.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

bp = Blueprint("api", __name__)


class ApiError(Exception):
    """An expected error, shown to the client as {"error": message} with status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def loaded_pipeline():
    """The pipeline, or a 503 saying why there is none yet."""
    loader = current_app.extensions["rag"]
    if loader.pipeline is None:
        if loader.error:
            raise ApiError(f"Evidenz could not load: {loader.error}", 503)
        raise ApiError("Evidenz is still loading its models and library; try again in a few seconds.", 503)
    return loader.pipeline


def validate_query(body, providers: list[str]) -> dict:
    """Check a /api/query body; returns the arguments of Pipeline.ask."""
    if not isinstance(body, dict):
        raise ApiError('The body must be a JSON object such as {"question": "Who discovered penicillin?"}.')
    unknown = sorted(set(body) - set(QUERY_FIELDS))
    if unknown:
        raise ApiError(f"Unknown field(s): {', '.join(unknown)}. Allowed fields: {', '.join(QUERY_FIELDS)}.")
    question = body.get("question")
    if question is None:
        raise ApiError('Missing "question": send {"question": "your question"}.')
    if not isinstance(question, str):
        raise ApiError('"question" must be a string.')
    question = question.strip()
    if not question:
        raise ApiError('"question" is empty; write a question.')
    if len(question) > MAX_QUESTION_CHARS:
        raise ApiError(f'"question" has {len(question):,} characters; the limit is {MAX_QUESTION_CHARS:,}. Shorten it.')
    top_k = body.get("top_k")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or not TOP_K_MIN <= top_k <= TOP_K_MAX):
        raise ApiError(f'"top_k" must be a whole number from {TOP_K_MIN} to {TOP_K_MAX}.')
    provider = body.get("provider")
    if provider is not None and (not isinstance(provider, str) or provider not in providers):
        raise ApiError(f'"provider" must be one of the configured providers: {", ".join(providers)}.')
    model = body.get("model")
    if model is not None and (not isinstance(model, str) or not 0 < len(model.strip()) <= MAX_MODEL_CHARS):
        raise ApiError(f'"model" must be a model name of 1 to {MAX_MODEL_CHARS} characters, or left out for the default.')
    language = body.get("language")
    if language is not None and (not isinstance(language, str) or not LANGUAGE.fullmatch(language)):
        raise ApiError('"language" must be "auto" or a language code such as "en" or "he".')
    session_id = body.get("session_id")
    if session_id is not None and (not isinstance(session_id, str) or not SESSION_ID.fullmatch(session_id)):
        raise ApiError('"session_id" must be 1 to 100 letters, digits, "-" or "_"; leave it out to start a conversation.')
    return {"question": question, "top_k": top_k, "provider": provider, "model": model.strip() if model else None,
            "language": language, "session_id": session_id, "filters": validate_filters(body.get("filters"))}


def validate_filters(filters) -> dict | None:
    """Check the optional "filters" object of a query."""
    if filters is None:
        return None
    example = '{"document_ids": ["my-book"], "language": "he", "work": "...", "tier": "canonical", "community": "..."}'
    if not isinstance(filters, dict):
        raise ApiError(f'"filters" must be an object such as {example}.')
    unknown = sorted(set(filters) - set(FILTER_FIELDS))
    if unknown:
        raise ApiError(f"Unknown filter(s): {', '.join(unknown)}. Allowed filters: {', '.join(FILTER_FIELDS)}.")
    ids = filters.get("document_ids")
    if ids is not None and (not isinstance(ids, list) or not all(isinstance(i, str) for i in ids) or len(ids) > MAX_FILTER_IDS):
        raise ApiError(f'"filters.document_ids" must be a list of at most {MAX_FILTER_IDS} document ids (strings).')
    for field in FILTER_FIELDS[1:]:
        if filters.get(field) is not None and not isinstance(filters[field], str):
            raise ApiError(f'"filters.{field}" must be a string.')
    return {k: v for k, v in filters.items() if v is not None} or None


@bp.get("/")
def index():
    """The chat page."""
    return current_app.send_static_file("index.html")


@bp.get("/api/health")
def health():
    """200 with what is live once loaded; 503 while loading or after a failed load."""
    loader = current_app.extensions["rag"]
    if loader.pipeline is not None:
        return {"status": "ok", **loader.pipeline.describe()}
    if loader.error:
        return {"status": "error", "error": loader.error}, 503
    return {"status": "loading"}, 503


def query_arguments(pipeline) -> dict:
    """The checked arguments of a /api/query or /api/query/stream request."""
    body = request.get_json(silent=True)
    if body is None:
        raise ApiError('The body is not JSON. Send Content-Type: application/json and {"question": "..."}.')
    return validate_query(body, sorted(pipeline.generator.writers))


@bp.post("/api/query")
def query():
    """Answer a question with cited evidence."""
    pipeline = loaded_pipeline()
    result = pipeline.ask(**query_arguments(pipeline))
    current_app.logger.info("%s question answered by %s in %.0f ms", result["query_type"], result["generator"],
                            result["timings_ms"]["total"])
    return result


@bp.post("/api/query/stream")
def query_stream():
    """The answer as server-sent events: meta, sources, delta..., answer, done (or error).

    A client that disconnects closes this stream, which closes the writer's and so stops generation.
    """
    pipeline = loaded_pipeline()
    args = query_arguments(pipeline)
    logger = current_app.logger

    def events():
        started = time.perf_counter()
        with closing(pipeline.stream(**args)) as stream:
            try:
                for name, data in stream:
                    yield sse(name, data)
                    if name == "answer":
                        yield sse("done", {"id": data["id"], "timings_ms": data["timings_ms"]})
                        logger.info("%s question streamed by %s in %.0f ms", data["query_type"], data["generator"],
                                    (time.perf_counter() - started) * 1000)
            except Exception:  # noqa: BLE001 - the 200 and its headers are sent: an error can only be an event now
                logger.exception("the answer stream failed")
                yield sse("error", {"error": "Something went wrong while writing the answer; it has been logged. Try again."})

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def sse(event: str, data: dict) -> str:
    """One server-sent event."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def register_error_handlers(app) -> None:
    """One JSON shape for every error, and the page's security headers."""
    app.register_error_handler(ApiError, lambda e: ({"error": e.message}, e.status))

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        """404, 405, 413 and the rest of werkzeug's errors, as JSON."""
        messages = {
            404: f"Not found: {request.path}. See README for the API (/api/health, /api/query, /api/documents ...).",
            405: f"{request.method} is not allowed on {request.path}.",
            413: f"The request body is larger than the limit of {request.max_content_length:,} bytes"
                 + (" for an upload; split the file or raise MAX_UPLOAD_BYTES." if request.path.startswith("/api/documents")
                    else "."),
        }
        return {"error": messages.get(e.code, e.description or e.name)}, e.code

    @app.errorhandler(500)
    def server_error(_e):
        """An unexpected failure: the traceback is in the log, the client gets no details."""
        return {"error": "Something went wrong on the server; it has been logged. Try again."}, 500

    @app.after_request
    def security_headers(response):
        """Forbid inline scripts and foreign images on the page, and content sniffing."""
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        return response
