"""Request bodies and parameters checked in one place, with named limits and messages that say what to send.

Every refusal is an ApiError (400). Values that only a lower layer can judge (a review status, a comment's
length) are checked there, and its messages are written for the client too.
"""
import re

from flask import request
from werkzeug.exceptions import NotFound
from werkzeug.routing import BaseConverter

from question.policy import MODES
from search.section_filters import SectionFilterError, read_sections
from storage.history import SESSION_ID
from storage.queries import FILTER_FIELDS as METADATA_FILTERS
from web.errors import ApiError
from writers.prompt import LANGUAGE_CODE

MAX_QUESTION_CHARS = 2000
TOP_K_MIN, TOP_K_MAX = 1, 20
QUERY_FIELDS = ("question", "top_k", "provider", "model", "language", "session_id", "filters", "mode")
MAX_MODEL_CHARS = 100
LANGUAGE = re.compile(f"auto|{LANGUAGE_CODE.pattern}")
FILTER_FIELDS = ("document_ids", *METADATA_FILTERS, "part", "section")
MAX_FILTER_IDS = 200
MAX_OFFSET = 1_000_000_000  # SQLite integers are 64-bit; anything near that is a mistake
MAX_ID = 2**31 - 1  # the largest id PostgreSQL's integer columns hold


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
    mode = body.get("mode", "practical")
    if mode not in MODES:
        raise ApiError(f'"mode" must be one of {", ".join(MODES)}: practical answers, deep research, or the posek\'s '
                       "view of every opinion.")
    return {"question": question, "top_k": top_k, "provider": provider, "model": model.strip() if model else None,
            "language": language, "session_id": session_id, "filters": validate_filters(body.get("filters")),
            "mode": mode}


def check_model(generator, provider: str | None, model: str | None) -> None:
    """A 400 for a model name the chosen writer does not offer (its allowlist), before any provider is called.

    The offline writer has no models and ignores the name.
    """
    name = provider or generator.default
    writer = generator.writers.get(name)
    offered = writer.models if writer is not None else ()
    if model is not None and offered and model not in offered:
        raise ApiError(f'"model" {model[:100]!r} is not offered by {name} on this server; choose one of '
                       f'{", ".join(offered)}, or leave it out for the default ({name.upper()}_MODELS lists them).')


def validate_filters(filters) -> dict | None:
    """Check the optional "filters" object of a query."""
    if filters is None:
        return None
    example = ('{"document_ids": ["my-book"], "language": "he", "work": "...", "tier": "canonical", "community": "...", '
               '"part": "אורח חיים", "section": "253-254"}')
    if not isinstance(filters, dict):
        raise ApiError(f'"filters" must be an object such as {example}.')
    unknown = sorted(set(filters) - set(FILTER_FIELDS))
    if unknown:
        raise ApiError(f"Unknown filter(s): {', '.join(unknown)}. Allowed filters: {', '.join(FILTER_FIELDS)}.")
    ids = filters.get("document_ids")
    if ids is not None and (not isinstance(ids, list) or not all(isinstance(i, str) for i in ids) or len(ids) > MAX_FILTER_IDS):
        raise ApiError(f'"filters.document_ids" must be a list of at most {MAX_FILTER_IDS} document ids (strings).')
    for field in FILTER_FIELDS[1:-1]:
        if filters.get(field) is not None and not isinstance(filters[field], str):
            raise ApiError(f'"filters.{field}" must be a string.')
    if filters.get("section") is not None:
        try:
            read_sections(filters["section"])
        except SectionFilterError as exc:  # its messages are written for the client
            raise ApiError(str(exc)) from None
    return {k: v for k, v in filters.items() if v is not None} or None


def unpaired_surrogate(value) -> bool:
    """Whether a parsed JSON value holds a string with a lone surrogate ("\\ud800"), which no text can store."""
    pending = [value]
    while pending:  # a loop, not recursion: the value may be nested as deep as the parser allows
        item = pending.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            pending += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            pending += item
    return False


def request_json():
    """The request's parsed JSON body, or None when it is not JSON; a 400 for what parses but cannot be kept."""
    try:
        body = request.get_json(silent=True)
    except RecursionError:
        raise ApiError("The JSON body is nested too deeply; send a flat object such as {\"question\": \"...\"}.") from None
    if unpaired_surrogate(body):
        raise ApiError("The JSON body holds an unpaired surrogate escape (such as \\ud800), which is not text; "
                       "send valid UTF-8.")
    return body


def json_body(allowed: tuple[str, ...], example: str) -> dict:
    """The request's JSON object, with no fields outside allowed."""
    body = request_json()
    if not isinstance(body, dict):
        raise ApiError(f"Send a JSON object (Content-Type: application/json) such as {example}.")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(f"Unknown field(s): {', '.join(unknown)}. Allowed fields: {', '.join(allowed)}.")
    return body


def whole_number(name: str, default: int, low: int, high: int) -> int:
    """The query parameter name as an int from low to high, or default when absent."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > len(str(high)) or not low <= int(raw) <= high:
        raise ApiError(f'"{name}" must be a whole number from {low} to {high:,}.')
    return int(raw)


class IdConverter(BaseConverter):
    """<id:name> in a route: a row id, a whole number. One past MAX_ID is a 404 for every method; werkzeug's
    int(max=...) would skip the rule instead, and a path whose other methods have their own rules then answers
    405 ("not allowed") for it."""

    regex = r"\d+"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise NotFound()
        return number
