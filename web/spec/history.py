"""The history part of the API description (web/spec/__init__.py): /api/history, the answer log (web/history.py).

A record is what storage/history.py (or postgres/history.py) keeps of a /api/query answer (web/shaping.py
result_json): its passages cut to storage/answers.PASSAGE_FIELDS, and feedback and review beside it. Answers
logged by older versions lack the passage and citation fields added since, so only the first ones are required.
Another user's answer, read by a reviewer, may come with its text withheld (web/history.WITHHELD).
/api/history/similar lists reviewed answers to like questions (web/similar.py), as /api/query's "reviewed" does.
"""
from accounts.roles import TIERS
from models import RELATION_KINDS
from storage.answers import (
    MAX_COMMENT_CHARS,
    MAX_CORRECTED_CHARS,
    MAX_FEEDBACK_PER_ANSWER,
    MAX_PAGE,
    MAX_SEARCH_CHARS,
    RATINGS,
    SESSION_ID,
    STATUSES,
    SUMMARY_CHARS,
)
from storage.reviewed import MAX_SIMILAR, REVIEWED
from web.spec.common import body, json_content, ok, operation, page, path_param, query_param, ref
from web.validation import MAX_OFFSET, MAX_QUESTION_CHARS, MODES

TAGS = ("history",)
TEXT = {"type": "string"}
NULLABLE_TEXT = {"type": ["string", "null"]}
COUNT = {"type": "integer", "minimum": 0}
SESSION = {"type": "string", "pattern": f"^{SESSION_ID.pattern}$"}
ANSWER_ID = path_param("answer_id", {"type": "string", "minLength": 1},
                       'The answer\'s "id" (from /api/query or GET /api/history).')

MILLISECONDS = {"type": ["number", "null"]}  # null: PostgreSQL keeps no NaN
TIMINGS = {"type": "object", "description": "Milliseconds per stage, and per retrieval stage.",
           "properties": {**{k: MILLISECONDS for k in ("classify", "retrieve", "generate", "total")},
                          "stages": {"type": "object", "additionalProperties": MILLISECONDS}},
           "additionalProperties": MILLISECONDS}
FEEDBACK_COUNTS = {"type": "object", "required": list(RATINGS), "properties": {r: COUNT for r in RATINGS},
                   "additionalProperties": False, "description": "How many readers rated the answer up and down."}

SCHEMAS = {
    "HistorySummary": {
        "type": "object", "description": f"An answer in a list: its text cut to its first {SUMMARY_CHARS} characters.",
        "required": ["id", "session_id", "question", "answer", "query_type", "generator", "declined",
                     "review_status", "created_at", "feedback"],
        "properties": {
            "id": TEXT, "session_id": NULLABLE_TEXT, "question": TEXT,
            "answer": {"type": "string", "maxLength": SUMMARY_CHARS}, "query_type": NULLABLE_TEXT,
            "generator": NULLABLE_TEXT, "declined": {"type": "boolean"}, "review_status": {"enum": list(STATUSES)},
            "created_at": {"type": "number"}, "feedback": FEEDBACK_COUNTS,
        },
        "additionalProperties": False,
    },
    "HistoryPage": page("items", ref("HistorySummary"), MAX_PAGE, "A page of the answers that match, newest first."),
    "StoredCitation": {
        "type": "object", "description": "A checked citation of the answer, as logged.",
        "required": ["n", "passage_id", "title", "ref", "valid", "quote_verified", "support", "verified", "spans"],
        "properties": {
            "n": {"type": "integer"}, "passage_id": TEXT, "title": TEXT, "ref": NULLABLE_TEXT,
            "ref_he": NULLABLE_TEXT, "valid": {"type": "boolean"}, "quote_verified": {"type": ["boolean", "null"]},
            "support": {"type": ["number", "null"]}, "verified": {"type": ["boolean", "null"]},
            "spans": {"type": "array", "items": {"type": "array", "items": {"type": "integer"},
                                                 "minItems": 2, "maxItems": 2}},
            "marks": {"type": "array", "description": "Each marker's own range (absent in answers logged before it).",
                      "items": {"type": ["array", "null"], "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}},
        },
        "additionalProperties": False,
    },
    "StoredPassage": {
        "type": "object", "description": "A passage the answer was given, as logged (its text, not its scores).",
        "required": ["n", "id", "doc_id", "title", "ref"],
        "properties": {
            "n": {"type": "integer"}, "id": TEXT, "doc_id": TEXT, "title": TEXT, "ref": NULLABLE_TEXT,
            "ref_he": NULLABLE_TEXT, "chunk": TEXT, "community": NULLABLE_TEXT, "era": NULLABLE_TEXT,
            "authority_weight": {"type": ["number", "null"]}, "tier": NULLABLE_TEXT,
            "relation": {"oneOf": [{"type": "null"}, ref("PassageRelation")]},
        },
        "additionalProperties": False,
    },
    "PassageRelation": {
        "type": "object", "description": "The relation that brought the passage in, or another in beside it.",
        "required": ["id", "kind", "passage", "direction", "confidence", "notes"],
        "properties": {"id": {"type": "integer"}, "kind": {"enum": list(RELATION_KINDS)},
                       "passage": {"type": "string", "description": "The other passage's key."},
                       "direction": {"enum": ["to", "from"]}, "confidence": {"type": "number"},
                       "notes": NULLABLE_TEXT},
        "additionalProperties": False,
    },
    "Feedback": {
        "type": "object", "required": ["id", "rating", "comment", "created_at", "mine"],
        "properties": {"id": {"type": "integer", "description": "The entry, to change it (FeedbackRequest.entry)."},
                       "rating": {"enum": list(RATINGS)}, "comment": NULLABLE_TEXT, "created_at": {"type": "number"},
                       "mine": {"type": "boolean", "description": "Given by the reader who asks."}},
        "additionalProperties": False,
    },
    "AnswerRecord": {
        "type": "object", "description": "One logged answer in full, with its review and feedback.",
        "required": ["id", "session_id", "question", "standalone_question", "query_type", "language", "answer",
                     "declined", "citations", "passages", "generator", "model", "degraded_reason", "timings",
                     "created_at", "review_status", "corrected_text", "reviewed_at", "user_id", "community", "tiers",
                     "mode", "reviewed_by", "feedback"],
        "properties": {
            "id": TEXT, "session_id": NULLABLE_TEXT, "question": TEXT, "standalone_question": TEXT,
            "query_type": NULLABLE_TEXT, "language": NULLABLE_TEXT, "answer": TEXT, "declined": {"type": "boolean"},
            "citations": {"type": "array", "items": ref("StoredCitation")},
            "passages": {"type": "array", "items": ref("StoredPassage")},
            "generator": NULLABLE_TEXT, "model": NULLABLE_TEXT, "degraded_reason": NULLABLE_TEXT,
            "timings": TIMINGS,
            "created_at": {"type": "number"}, "review_status": {"enum": list(STATUSES)},
            "corrected_text": NULLABLE_TEXT, "reviewed_at": {"type": ["number", "null"]},
            "user_id": {"type": ["integer", "null"], "description": "Who asked (null: the personal server's owner)."},
            "community": NULLABLE_TEXT,
            "tiers": {"type": ["array", "null"], "items": {"enum": list(TIERS)}, "description": "The tiers searched."},
            "mode": {"enum": [*MODES, None]}, "reviewed_by": {"type": ["integer", "null"]},
            "feedback": {"type": "array", "items": ref("Feedback"), "maxItems": MAX_FEEDBACK_PER_ANSWER},
        },
        "additionalProperties": False,
    },
    "FeedbackRequest": {
        "type": "object", "required": ["rating"],
        "properties": {"rating": {"enum": list(RATINGS)},
                       "comment": {"type": ["string", "null"], "maxLength": MAX_COMMENT_CHARS},
                       "entry": {"type": "integer", "minimum": 1,
                                 "description": "Change this entry of the reader's (its id, as the first rating "
                                                "returned) instead of adding one: a comment written after the thumb, "
                                                "or the other thumb."}},
        "additionalProperties": False,
    },
    "FeedbackCounts": {
        "type": "object", "required": ["id", "entry", "feedback"],
        "properties": {"id": TEXT, "entry": {"type": "integer", "description": "The feedback entry's id."},
                       "feedback": FEEDBACK_COUNTS},
        "additionalProperties": False,
    },
    "ReviewRequest": {
        "description": '"corrected" takes the corrected text; every other status takes none (and clears it).',
        "oneOf": [
            {"type": "object", "required": ["status", "corrected_text"],
             "properties": {"status": {"const": "corrected"},
                            "corrected_text": {"type": "string", "pattern": r"\S", "maxLength": MAX_CORRECTED_CHARS}},
             "additionalProperties": False},
            {"type": "object", "required": ["status"],
             "properties": {"status": {"enum": [s for s in STATUSES if s != "corrected"]},
                            "corrected_text": {"type": "null"}},
             "additionalProperties": False},
        ],
    },
    "Review": {
        "type": "object", "required": ["id", "review_status", "corrected_text", "reviewed_at"],
        "properties": {"id": TEXT, "review_status": {"enum": list(STATUSES)}, "corrected_text": NULLABLE_TEXT,
                       "reviewed_at": {"type": ["number", "null"], "description": 'Null once "unreviewed".'}},
        "additionalProperties": False,
    },
    "ReviewedAnswer": {
        "type": "object", "description": "An approved or corrected answer to a question like the one asked "
                                         "(the corrected text, when corrected).",
        "required": ["id", "question", "answer", "review_status", "reviewer", "reviewed_at", "similarity"],
        "properties": {"id": TEXT, "question": TEXT, "answer": TEXT, "review_status": {"enum": list(REVIEWED)},
                       "reviewer": {**NULLABLE_TEXT, "description": "The reviewer's name (null: the owner)."},
                       "reviewed_at": {"type": "number"},
                       "similarity": {"type": "number", "description": "The cosine of the two questions."}},
        "additionalProperties": False,
    },
    "SimilarAnswers": {
        "type": "object", "required": ["question", "threshold", "items"],
        "properties": {"question": TEXT, "threshold": {"type": "number", "description": "SIMILAR_THRESHOLD's cosine."},
                       "items": {"type": "array", "items": ref("ReviewedAnswer"), "maxItems": MAX_SIMILAR}},
        "additionalProperties": False,
    },
}

# A listed answer's id leads to the operations on it (schemathesis follows these links in its stateful phase).
LISTED = {name: {"operationId": target, "parameters": {"answer_id": "$response.body#/items/0/id"}}
          for name, target in (("read", "getAnswer"), ("rate", "rateAnswer"), ("review", "reviewAnswer"))}

PATHS = {
    "/api/history": {"get": operation(
        "A page of answer summaries, newest first: a reader's own answers, a reviewer's every answer.",
        {200: {**ok(ref("HistoryPage")), "links": LISTED}}, tags=TAGS,
        parameters=[
            query_param("q", {"type": "string", "maxLength": MAX_SEARCH_CHARS},
                        "Words that must all occur in the question or the answer (any order, any script)."),
            query_param("session_id", SESSION, "Only this conversation's answers."),
            query_param("status", {"enum": list(STATUSES)}, "Only answers with this review status."),
            query_param("limit", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 20}, "Page size."),
            query_param("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0},
                        "Answers to skip."),
        ])},
    "/api/history/similar": {"get": operation(
        "Reviewed (approved or corrected) answers you may read to questions like q, nearest first.",
        {200: ok(ref("SimilarAnswers"))}, tags=TAGS,
        parameters=[
            {**query_param("q", {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION_CHARS, "pattern": r"\S"},
                           "The question."), "required": True},
            query_param("limit", {"type": "integer", "minimum": 1, "maximum": MAX_SIMILAR, "default": 3},
                        "How many at most."),
        ])},
    "/api/history/{answer_id}": {"get": {"operationId": "getAnswer", **operation(
        "One answer in full, with its citations, passages, timings, review and feedback.",
        {200: ok(ref("AnswerRecord"))}, (404,), tags=TAGS, parameters=[ANSWER_ID])}},
    "/api/history/{answer_id}/feedback": {"post": {"operationId": "rateAnswer", **operation(
        f"Rate an answer up or down, with an optional comment (at most {MAX_FEEDBACK_PER_ANSWER} an answer).",
        {201: {"description": "Recorded; the answer's counts.", "content": json_content(ref("FeedbackCounts"))},
         200: {"description": "The reader's entry changed; the answer's counts.",
               "content": json_content(ref("FeedbackCounts"))}},
        (404, 413), tags=TAGS, parameters=[ANSWER_ID], request=body(ref("FeedbackRequest")))}},
    "/api/history/{answer_id}/review": {"post": {"operationId": "reviewAnswer", **operation(
        "Set an answer's review status (reviewers): approved, corrected with the corrected text, rejected.",
        {200: ok(ref("Review"))}, (404, 413), tags=TAGS, parameters=[ANSWER_ID], request=body(ref("ReviewRequest")))}},
}
