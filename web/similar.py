"""Reviewed answers to similar questions: the question's vector an answer is logged with, the reviewed answers
shown beside a new one, and GET /api/history/similar?q=&limit=.

A question is embedded by the library's own embedder, as a question: one more short text per answer (the search
embedded the question with its glossary words, so its vector is not this one). When that fails, the answer is
logged without a vector and matched to none, rather than lost. The answers matched are those a reviewer approved or corrected whose
standalone question has a cosine of at least SIMILAR_THRESHOLD with the new one (None: the embedder's row of
search/embedders.py), nearest first; a corrected answer is shown as corrected, with its reviewer and the date.
Who may see what is the history's rule (web/history.py): a reader's own answers, every answer for reviewers and
the owner, and never another user's answer that rests on a document hidden from the reader.
Does not: store anything (storage/reviewed.py), or show the answers on the page (static/similar.js).
"""
import logging

from flask import Blueprint, request

from accounts.roles import HISTORY
from configuration.settings import current
from search.embedders import settings as embedder_row
from storage.reviewed import MAX_SIMILAR
from web.auth import require
from web.errors import ApiError
from web.services import hidden_from, history, services
from web.validation import MAX_QUESTION_CHARS, whole_number

bp = Blueprint("similar", __name__)
logger = logging.getLogger(__name__)

SHOWN = 3  # reviewed answers beside a new one
PARAMS = ("q", "limit")


def question_vector(question: str, embedder=None) -> dict:
    """The fields History.log keeps of a question's vector: "question_vector" and "question_model".
    embedder: the library's (None: the loaded pipeline's, read in a request)."""
    embedder = embedder or services().pipeline.retriever.embedder
    try:
        return {"question_vector": embedder.embed_queries([question])[0], "question_model": embedder.name}
    except Exception:  # noqa: BLE001 - an answer already written is logged whatever the embedder does
        logger.exception("the question's vector could not be made; the answer is logged without one")
        return {}


def threshold(model: str) -> float:
    """The cosine from which an earlier question is the same one: SIMILAR_THRESHOLD, or the embedder's."""
    configured = current().search.similar_threshold
    return configured if configured is not None else embedder_row(model).similar


def reviewed(log, asked: dict, who, exclude: str | None = None, limit: int = SHOWN) -> list[dict]:
    """The reviewed answers who may read to questions like the one asked (question_vector's fields), nearest first;
    none for no reader (to History, None is anyone)."""
    if who is None or not asked:
        return []
    hidden = hidden_from(who) if not who.everything else frozenset()  # checked as it is read: tiers change
    model = asked["question_model"]
    return log.similar(asked["question_vector"], model, threshold(model), limit, reader=who, hidden=hidden,
                       exclude=exclude)


@bp.get("/api/history/similar")
def similar():
    """The reviewed answers the reader may read to questions like q, nearest first."""
    who = require(HISTORY)
    unknown = sorted(set(request.args) - set(PARAMS))
    if unknown:
        raise ApiError(f"Unknown parameter(s): {', '.join(unknown)}. Allowed: {', '.join(PARAMS)}.")
    question = request.args.get("q", "").strip()
    if not question:
        raise ApiError('Send "q": the question to find reviewed answers to, e.g. ?q=Who discovered penicillin?')
    if len(question) > MAX_QUESTION_CHARS:
        raise ApiError(f'"q" has {len(question):,} characters; the limit is {MAX_QUESTION_CHARS:,}. Shorten it.')
    limit = whole_number("limit", SHOWN, 1, MAX_SIMILAR)
    log, asked = history(), question_vector(question)
    return {"question": question, "threshold": threshold(asked["question_model"]),
            "items": reviewed(log, asked, who, limit=limit)}
