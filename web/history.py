"""The answer history's HTTP API: list and search answers, read one, give feedback, review.

GET /api/history?q=&session_id=&status=&limit=&offset= lists answer summaries, newest first;
GET /api/history/<id> gives one answer in full with its feedback; POST /api/history/<id>/feedback
takes {"rating": "up"|"down", "comment"?, "entry"?} (entry: change one's own rating, as a comment written after the
thumb does); POST /api/history/<id>/review takes {"status", "corrected_text"?}.
A reader reads and rates their own answers; reviewers (posek, reviewer, admin) read every answer and review them,
and see no passage of a document hidden from them. Another user's answer is as absent as one never logged (404).
Shapes and types are checked here, values by History (its HistoryError messages are written for the client,
and errors.py answers them, as it answers an unknown id with a 404).
Does not: log answers (shaping.logged does) or delete them.
"""
from flask import Blueprint, current_app, request

from accounts.roles import FEEDBACK, HISTORY, REVIEW
from storage.history import MAX_PAGE, SESSION_ID, STATUSES
from web.auth import require
from web.errors import ApiError, unknown_answer
from web.services import hidden_documents, hidden_from, history
from web.validation import MAX_OFFSET, json_body, whole_number

bp = Blueprint("history", __name__)

SEARCH_PARAMS = ("q", "session_id", "status", "limit", "offset")
FEEDBACK_FIELDS = ("rating", "comment", "entry")
REVIEW_FIELDS = ("status", "corrected_text")
DEFAULT_PAGE = 20
WITHHELD = "(withheld: this answer rests on passages you may not read)"


@bp.get("/api/history")
def search():
    """A page of answer summaries, newest first, filtered by text, session and review status."""
    who = require(HISTORY)
    unknown = sorted(set(request.args) - set(SEARCH_PARAMS))
    if unknown:
        raise ApiError(f"Unknown parameter(s): {', '.join(unknown)}. Allowed: {', '.join(SEARCH_PARAMS)}.")
    session_id = request.args.get("session_id") or None
    if session_id is not None and not SESSION_ID.fullmatch(session_id):
        raise ApiError('"session_id" must be 1-100 characters of letters, digits, "_" and "-".')
    status = request.args.get("status") or None
    if status is not None and status not in STATUSES:
        raise ApiError(f'"status" must be one of {", ".join(STATUSES)}.')
    limit = whole_number("limit", DEFAULT_PAGE, 1, MAX_PAGE)
    offset = whole_number("offset", 0, 0, MAX_OFFSET)
    hidden = hidden_from(who) if not who.everything else frozenset()  # checked as they are read: tiers change
    items, total = history().search(request.args.get("q", ""), session_id, status, limit, offset, reader=who,
                                    hidden=hidden)
    items = withheld(items, who, hidden)
    return {"items": items, "total": total, "limit": limit, "offset": offset}


@bp.get("/api/history/<answer_id>")
def record(answer_id: str):
    """One answer in full, with its citations, passages, timings, review and feedback."""
    return readable(answer_id, require(HISTORY))


def readable(answer_id: str, who, hidden=...) -> dict:
    """The answer if who may read it, else a 404. It comes without the passages of documents hidden from who now,
    and, when it rested on any, without its text (a quote of them): another user's, and the reader's own after an
    admin narrowed their tiers (access is checked as an answer is read, not only when it was written).
    hidden: the documents hidden from who, when the caller has them already (web/services.hidden_documents)."""
    found = history().get(answer_id, reader=who)
    if found is None:
        raise unknown_answer(answer_id)
    found["feedback"] = [{**{k: v for k, v in f.items() if k != "user_id"}, "mine": f.get("user_id") == who.id}
                         for f in found["feedback"]]  # who gave the others is not told
    if not who.everything:
        hidden = hidden_documents(who) if hidden is ... else hidden
        kept = [p for p in found["passages"] if hidden is not None and p.get("doc_id") not in hidden]
        keys = {k for p in kept for k in (p.get("ref"), p.get("id"))}
        if len(kept) < len(found["passages"]):
            found.update(answer=WITHHELD, corrected_text=found["corrected_text"] and WITHHELD)
        found["passages"] = [p if (p.get("relation") or {}).get("passage") in keys else {**p, "relation": None}
                             for p in kept]
        numbers = {p.get("n") for p in kept}
        found["citations"] = [c for c in found["citations"] if c.get("n") in numbers]
    return found


def withheld(items: list[dict], who, hidden: frozenset[str]) -> list[dict]:
    """Summaries of answers, their text withheld where it rested on passages hidden from who now (the documents
    hidden from who, read once for the page)."""
    if who.everything:
        return items
    for item in items:
        found = readable(item["id"], who, hidden)
        if found["answer"] == WITHHELD:
            item["answer"] = WITHHELD
    return items


@bp.post("/api/history/<answer_id>/feedback")
def feedback(answer_id: str):
    """Record a thumbs up or down, optionally with a comment: 201 with the entry's id and the answer's counts.
    With "entry" (that id), change the reader's own entry instead, e.g. with a comment written after the thumb: 200
    (a change without "comment" keeps the entry's comment; null or "" clears it)."""
    who = require(FEEDBACK)
    readable(answer_id, who)
    body = json_body(FEEDBACK_FIELDS, '{"rating": "up", "comment": "clear and well sourced"}')
    if "rating" not in body:
        raise ApiError('Missing "rating": send "up" or "down".')
    given = history().add_feedback(answer_id, body["rating"], body.get("comment"), user=who.id,
                                   entry=body.get("entry"), keep_comment="comment" not in body)
    current_app.logger.info("feedback %s on answer %s", body["rating"], answer_id)
    entry = given.pop("entry")
    return {"id": answer_id, "entry": entry, "feedback": given}, 200 if body.get("entry") is not None else 201


@bp.post("/api/history/<answer_id>/review")
def review(answer_id: str):
    """Set the answer's review status (and, for "corrected", the corrected text)."""
    who = require(REVIEW)
    body = json_body(REVIEW_FIELDS, '{"status": "corrected", "corrected_text": "the answer as it should read"}')
    if "status" not in body:
        raise ApiError(f'Missing "status": send one of {", ".join(STATUSES)}.')
    readable(answer_id, who)
    result = history().review(answer_id, body["status"], body.get("corrected_text"), reviewer=who.id)
    current_app.logger.info("answer %s reviewed: %s", answer_id, result["review_status"])
    return {"id": answer_id, **result}
