"""The answer history's HTTP API: list and search answers, read one, give feedback, review.

GET /api/history?q=&session_id=&status=&limit=&offset= lists answer summaries, newest first;
GET /api/history/<id> gives one answer in full with its feedback; POST /api/history/<id>/feedback
takes {"rating": "up"|"down", "comment"?}; POST /api/history/<id>/review takes {"status", "corrected_text"?}.
Shapes and types are checked here, values by History (its HistoryError messages are written for the client);
every refusal is an ApiError. The History lives in current_app.extensions["history"].
Does not: log answers (the pipeline calls History.log) or delete them.
"""
from flask import Blueprint, current_app, request

from storage.history import MAX_PAGE, SESSION_ID, STATUSES, History, HistoryError, UnknownAnswer
from web.api import ApiError

bp = Blueprint("history", __name__)

SEARCH_PARAMS = ("q", "session_id", "status", "limit", "offset")
FEEDBACK_FIELDS = ("rating", "comment")
REVIEW_FIELDS = ("status", "corrected_text")
DEFAULT_PAGE = 20
MAX_OFFSET = 1_000_000_000  # SQLite integers are 64-bit; anything near that is a mistake


def history() -> History:
    """The app's History, or a 503 saying it is not set up."""
    store = current_app.extensions.get("history")
    if store is None:
        raise ApiError("This server keeps no answer history (no History configured).", 503)
    return store


def whole_number(name: str, default: int, low: int, high: int) -> int:
    """The query parameter name as an int from low to high, or default when absent."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isascii() or not raw.isdigit() or not low <= int(raw) <= high:
        raise ApiError(f'"{name}" must be a whole number from {low} to {high:,}.')
    return int(raw)


def json_body(allowed: tuple[str, ...], example: str) -> dict:
    """The request's JSON object, with no fields outside allowed."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ApiError(f"Send a JSON object (Content-Type: application/json) such as {example}.")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(f"Unknown field(s): {', '.join(unknown)}. Allowed fields: {', '.join(allowed)}.")
    return body


def not_found(answer_id: str) -> ApiError:
    """The 404 for an answer id that is not in the history."""
    return ApiError(f"No answer with id {answer_id[:64]!r} in the history. Ids come from the \"id\" of a "
                    "/api/query answer or from GET /api/history.", 404)


@bp.errorhandler(HistoryError)
def invalid(exc: HistoryError):
    """A value the history refuses: its message says what to send instead (written for users, no internals)."""
    return {"error": str(exc)}, 400


@bp.errorhandler(UnknownAnswer)
def unknown_answer(exc: UnknownAnswer):
    """An answer id that is not in the history."""
    error = not_found(exc.args[0] if exc.args else "")
    return {"error": error.message}, error.status


@bp.get("/api/history")
def search():
    """A page of answer summaries, newest first, filtered by text, session and review status."""
    unknown = sorted(set(request.args) - set(SEARCH_PARAMS))
    if unknown:
        raise ApiError(f"Unknown parameter(s): {', '.join(unknown)}. Allowed: {', '.join(SEARCH_PARAMS)}.")
    session_id = request.args.get("session_id") or None
    if session_id is not None and not SESSION_ID.match(session_id):
        raise ApiError('"session_id" must be 1-100 characters of letters, digits, "_" and "-".')
    status = request.args.get("status") or None
    if status is not None and status not in STATUSES:
        raise ApiError(f'"status" must be one of {", ".join(STATUSES)}.')
    limit = whole_number("limit", DEFAULT_PAGE, 1, MAX_PAGE)
    offset = whole_number("offset", 0, 0, MAX_OFFSET)
    items, total = history().search(request.args.get("q", ""), session_id, status, limit, offset)
    return {"items": items, "total": total, "limit": limit, "offset": offset}


@bp.get("/api/history/<answer_id>")
def record(answer_id: str):
    """One answer in full, with its citations, passages, timings, review and feedback."""
    found = history().get(answer_id)
    if found is None:
        raise not_found(answer_id)
    return found


@bp.post("/api/history/<answer_id>/feedback")
def feedback(answer_id: str):
    """Record a thumbs up or down, optionally with a comment; 201 with the answer's counts."""
    body = json_body(FEEDBACK_FIELDS, '{"rating": "up", "comment": "clear and well sourced"}')
    if "rating" not in body:
        raise ApiError('Missing "rating": send "up" or "down".')
    counts = history().add_feedback(answer_id, body["rating"], body.get("comment"))
    current_app.logger.info("feedback %s on answer %s", body["rating"], answer_id)
    return {"id": answer_id, "feedback": counts}, 201


@bp.post("/api/history/<answer_id>/review")
def review(answer_id: str):
    """Set the answer's review status (and, for "corrected", the corrected text)."""
    body = json_body(REVIEW_FIELDS, '{"status": "corrected", "corrected_text": "the answer as it should read"}')
    if "status" not in body:
        raise ApiError(f'Missing "status": send one of {", ".join(STATUSES)}.')
    result = history().review(answer_id, body["status"], body.get("corrected_text"))
    current_app.logger.info("answer %s reviewed: %s", answer_id, result["review_status"])
    return {"id": answer_id, **result}
