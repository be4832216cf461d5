"""What an answer log accepts, for both backends (storage/history.py, postgres/history.py): the entry's row,
and the checks of search arguments, feedback and reviews, each refusing with a message that says what to send;
and the shape of a search's list row, whose SQL both databases read alike.
Does not: store anything.
"""
import re
import time
import uuid

import numpy as np

from hebrew.normal import normalise

STATUSES = ("unreviewed", "approved", "corrected", "rejected")
RATINGS = ("up", "down")
MAX_COMMENT_CHARS = 2000
MAX_CORRECTED_CHARS = 20_000
MAX_FEEDBACK_PER_ANSWER = 100  # keeps one answer's record bounded however often its buttons are pressed
MAX_SEARCH_CHARS = 200
MAX_PAGE = 100
SUMMARY_CHARS = 300  # of the answer, in list rows
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")  # whole ids only: fullmatch
PASSAGE_FIELDS = ("n", "id", "doc_id", "title", "ref", "ref_he", "chunk", "community", "era", "authority_weight", "tier",
                  "relation")  # the text too, so an old answer shows its evidence
SUMMARY_COLUMNS = f"""a.id, a.session_id, a.question, substr(a.answer, 1, {SUMMARY_CHARS}) AS answer, a.query_type,
    a.generator, a.declined, a.review_status, a.created_at,
    (SELECT count(*) FROM feedback f WHERE f.answer_id = a.id AND f.rating = 'up') AS up,
    (SELECT count(*) FROM feedback f WHERE f.answer_id = a.id AND f.rating = 'down') AS down"""
JSON_COLUMNS = ("citations", "passages", "timings", "tiers")  # of an answers row
SUMMARY_NAMES = ("id", "session_id", "question", "answer", "query_type", "generator", "declined", "review_status",
                 "created_at", "up", "down")  # SUMMARY_COLUMNS' names, in order


class HistoryError(ValueError):
    """A value History refuses; the message says what to send instead."""


class UnknownAnswer(LookupError):
    """No answer with that id is in the history."""


class UnknownFeedback(LookupError):
    """No feedback entry with that id was given on that answer by that reader."""

    def __init__(self, entry):
        super().__init__(f"No feedback entry {entry} of yours is on this answer; send the rating without \"entry\" "
                         "to add one.")


def check_entry(entry) -> int | None:
    """A feedback entry's id as sent (None: add a new entry); HistoryError unless a whole number."""
    if entry is not None and (isinstance(entry, bool) or not isinstance(entry, int) or not 0 < entry < 2**63):
        raise HistoryError('"entry" must be the whole number a first rating of this answer returned.')
    return entry


def entry_row(entry: dict) -> dict:
    """The answers row of a History.log entry (see there), checked; HistoryError says what is wrong.
    The JSON_COLUMNS and the question's vector hold Python values; each backend stores them its way."""
    question, answer = entry.get("question"), entry.get("answer")
    if not isinstance(question, str) or not question.strip() or not isinstance(answer, str):
        raise HistoryError('An entry needs "question" (non-empty text) and "answer" (text).')
    session_id = entry.get("session_id")
    if session_id is not None and not (isinstance(session_id, str) and SESSION_ID.fullmatch(session_id)):
        raise HistoryError('"session_id" must be 1-100 characters of letters, digits, "_" and "-".')
    standalone, vector = entry.get("standalone_question") or question, entry.get("question_vector")
    passages = [{k: p.get(k) for k in PASSAGE_FIELDS} for p in entry.get("passages") or []]
    timings = entry.get("timings", entry.get("timings_ms")) or {}
    return {
        "id": uuid.uuid4().hex, "session_id": session_id, "question": question, "standalone_question": standalone,
        "query_type": entry.get("query_type"), "language": entry.get("language"), "answer": answer,
        "declined": bool(entry.get("declined")), "citations": entry.get("citations") or [],
        "passages": passages, "generator": entry.get("generator"), "model": entry.get("model"),
        "degraded_reason": entry.get("degraded_reason"), "timings": timings, "created_at": time.time(),
        "search_text": normalise("\n".join(dict.fromkeys((question, standalone, answer)))),
        "user_id": entry.get("user_id"), "community": entry.get("community"), "tiers": entry.get("tiers"),
        "mode": entry.get("mode"),
        # the standalone question's vector and its embedder (storage/reviewed.py); absent: never matched
        "question_vector": None if vector is None else np.asarray(vector, dtype=np.float32).ravel(),
        "question_model": entry.get("question_model"),
    }


def readable_by(reader) -> int | None:
    """The user whose answers alone reader may read; None: every answer (no reader, the owner, reviewers)."""
    return None if reader is None or reader.sees_all_history() else reader.id


def own(reader) -> int | None:
    """The user whose conversations alone reader may continue; None: any (no reader, the personal owner)."""
    return None if reader is None else reader.id


def check_search(text, status, limit: int, offset: int) -> None:
    """Refuse search arguments History.search cannot use."""
    if not isinstance(text, str) or len(text) > MAX_SEARCH_CHARS:
        raise HistoryError(f"Search text must be at most {MAX_SEARCH_CHARS} characters.")
    if "\x00" in text:  # it would end an FTS5 query early, and PostgreSQL holds no NUL: a client's slip, said
        raise HistoryError("Search text must not contain a NUL character (\\0); remove it and search again.")
    if status is not None and status not in STATUSES:
        raise HistoryError(f"Unknown review status {status!r}; use one of {', '.join(STATUSES)}.")
    if not 1 <= limit <= MAX_PAGE or offset < 0:
        raise HistoryError(f"limit must be 1 to {MAX_PAGE} and offset 0 or more.")


def checked_comment(rating, comment):
    """A feedback's comment, stripped, after checking it and the rating."""
    if rating not in RATINGS:
        raise HistoryError('"rating" must be "up" or "down".')
    comment = comment.strip() if isinstance(comment, str) else comment
    if comment is not None and not isinstance(comment, str):
        raise HistoryError('"comment" must be text.')
    if comment and len(comment) > MAX_COMMENT_CHARS:
        raise HistoryError(f"The comment has {len(comment):,} characters; the limit is {MAX_COMMENT_CHARS:,}. Shorten it.")
    return comment


def checked_correction(status, corrected_text) -> str | None:
    """A review's corrected text (None for every status but "corrected"), after checking it and the status."""
    if status not in STATUSES:
        raise HistoryError(f'"status" must be one of {", ".join(STATUSES)}.')
    if corrected_text is not None and not isinstance(corrected_text, str):
        raise HistoryError('"corrected_text" must be text.')
    corrected_text = (corrected_text or "").strip() or None
    if status == "corrected" and corrected_text is None:
        raise HistoryError('Status "corrected" needs "corrected_text": the answer as it should read.')
    if status != "corrected" and corrected_text is not None:
        raise HistoryError(f'"corrected_text" goes with status "corrected" only, not {status!r}.')
    if corrected_text and len(corrected_text) > MAX_CORRECTED_CHARS:
        raise HistoryError(f"The corrected text has {len(corrected_text):,} characters; "
                           f"the limit is {MAX_CORRECTED_CHARS:,}.")
    return corrected_text


def check_feedback_room(feedback_count: int) -> None:
    """Refuse one more feedback entry for an answer that has MAX_FEEDBACK_PER_ANSWER."""
    if feedback_count >= MAX_FEEDBACK_PER_ANSWER:
        raise HistoryError(f"This answer already has {MAX_FEEDBACK_PER_ANSWER} feedback entries; no more are kept.")


def summary(row: dict) -> dict:
    """A list row from SUMMARY_COLUMNS: declined as a bool and the feedback counts as one object."""
    item = dict(row)
    item["declined"] = bool(item["declined"])
    item["feedback"] = {"up": item.pop("up"), "down": item.pop("down")}
    return item

