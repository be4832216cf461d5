"""The asking part of the API description (web/spec/__init__.py): the chat page and asking a question
(web/query.py), whose answers are shaped by web/shaping.py and checked by web/validation.py.
"""
from models import RELATION_KINDS
from question.policy import QUERY_POLICIES
from search.section_filters import MAX_NUMBER, MAX_RANGES, RANGE
from storage.answers import SESSION_ID
from web.spec.common import body, ok, operation, ref
from web.validation import (
    FILTER_FIELDS,
    LANGUAGE,
    MAX_FILTER_IDS,
    MAX_MODEL_CHARS,
    MAX_QUESTION_CHARS,
    MODES,
    TOP_K_MAX,
    TOP_K_MIN,
)

TAGS = ("asking",)
PROVIDERS = ("offline", "claude", "gemini", "openai")  # every writer pipeline.Pipeline.load can configure
TEXT = {"type": "string"}
NULLABLE_TEXT = {"type": ["string", "null"]}
NUMBER = {"type": "number"}
COUNT = {"type": "integer", "minimum": 0}
BOOLEAN = {"type": "boolean"}


def nullable(schema: dict) -> dict:
    """schema, or null (the server takes null as "left out")."""
    return {"anyOf": [schema, {"type": "null"}]}


def with_response(op: dict, status: int, response: dict) -> dict:
    """op with the response for status replaced (`operation` gives every ALWAYS status the Error body)."""
    op["responses"][str(status)] = response
    return op


QUESTION = {
    "type": "object",
    "required": ["session_id", "question", "standalone_question", "rewritten", "query_type",
                 "query_type_confidence", "language"],
    "properties": {
        "session_id": {**TEXT, "description": "The conversation: the one sent, else a new one."},
        "question": {**TEXT, "description": "As asked."},
        "standalone_question": {**TEXT, "description": "Rewritten from the conversation when a follow-up."},
        "rewritten": BOOLEAN,
        "query_type": {"enum": list(QUERY_POLICIES)},
        "query_type_confidence": NUMBER,
        "language": {**TEXT, "description": "The answer's language code."},
    },
}

SECTION = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": MAX_NUMBER},
                     {"type": "string", "pattern": RANGE.pattern.join(("^", "$"))}],
           "description": "A section number (siman, chapter, lesson), or a range such as \"253-254\"."}

SCHEMAS = {
    "QueryFilters": {
        "type": "object", "additionalProperties": False,
        "description": "Search only documents matching every filter given.",
        "properties": {
            FILTER_FIELDS[0]: nullable({"type": "array", "items": TEXT, "maxItems": MAX_FILTER_IDS}),
            **{field: NULLABLE_TEXT for field in FILTER_FIELDS[1:-1]},
            "section": nullable({"oneOf": [SECTION, {"type": "array", "items": SECTION, "minItems": 1,
                                                      "maxItems": MAX_RANGES}]}),
        },
    },
    "QueryRequest": {
        "type": "object", "required": ["question"], "additionalProperties": False,
        "properties": {
            "question": {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION_CHARS, "pattern": r"\S",
                         "description": "The question; blank space around it is dropped."},
            "top_k": {"type": ["integer", "null"], "minimum": TOP_K_MIN, "maximum": TOP_K_MAX,
                      "description": "Passages to find and show; default: what the question's type needs."},
            "provider": {"enum": [*PROVIDERS, None],
                         "description": "A configured writer (GET /api/health lists them); default the server's."},
            "model": {"type": ["string", "null"], "minLength": 1, "maxLength": MAX_MODEL_CHARS, "pattern": r"\S",
                      "description": "One of the writer's offered models; the offline writer ignores it."},
            "language": {"type": ["string", "null"], "pattern": f"^({LANGUAGE.pattern})$",
                         "description": 'The answer\'s language: "auto" (the question\'s) or a code such as "he".'},
            "session_id": {"type": ["string", "null"], "pattern": f"^{SESSION_ID.pattern}$",
                           "description": "Continue this conversation; leave out to start one."},
            "filters": nullable(ref("QueryFilters")),
            "mode": {"enum": list(MODES), "default": "practical",
                     "description": "practical answers, deep research, or the posek's view of every opinion."},
        },
    },
    "Question": {**QUESTION, "description": "The question as the pipeline understood it (the stream's meta event)."},
    "RelationMark": {
        "type": "object", "description": "The relation that brought the passage in, or another in beside it.",
        "required": ["id", "kind", "passage", "direction", "confidence", "notes"],
        "properties": {"id": {"type": "integer"}, "kind": {"enum": list(RELATION_KINDS)},
                       "passage": {**TEXT, "description": "The other passage's key."},
                       "direction": {"enum": ["to", "from"]}, "confidence": NUMBER, "notes": NULLABLE_TEXT},
    },
    "Passage": {
        "type": "object", "description": "A passage found; [n] in the answer cites passage n.",
        "required": ["n", "id", "doc_id", "title", "chunk", "ce_score", "bm25_score", "dense_score", "hybrid_score",
                     "ref", "ref_he", "parent_ref", "section_path", "community", "era", "authority_weight", "tier",
                     "context_before", "context_after", "truncated", "relation", "link", "format"],
        "properties": {
            "n": {"type": "integer", "minimum": 1}, "id": TEXT, "doc_id": TEXT, "title": TEXT, "chunk": TEXT,
            "ce_score": {**NUMBER, "description": "The cross-encoder's score, else the hybrid one."},
            "bm25_score": NUMBER, "dense_score": NUMBER, "hybrid_score": NUMBER,
            "ref": NULLABLE_TEXT, "ref_he": NULLABLE_TEXT, "parent_ref": NULLABLE_TEXT,
            "section_path": {"type": "array", "items": TEXT},
            "community": NULLABLE_TEXT, "era": NULLABLE_TEXT, "authority_weight": NUMBER, "tier": NULLABLE_TEXT,
            "context_before": NULLABLE_TEXT, "context_after": NULLABLE_TEXT,
            "truncated": {**BOOLEAN, "description": "A text was cut to the longest a passage may be."},
            "relation": nullable(ref("RelationMark")),
            "link": {"type": ["string", "null"], "pattern": "^https?://",
                     "description": "The link of the passage's lesson, when a course script gives one."},
            "format": {**NULLABLE_TEXT, "description": "Its document's format (markdown: rendered as markdown)."},
        },
    },
    "Citation": {
        "type": "object", "description": "A checked [n] marker of the answer.",
        "required": ["n", "passage_id", "title", "ref", "valid", "quote_verified", "support", "verified", "spans",
                     "marks", "ref_he"],
        "properties": {
            "n": {"type": "integer"}, "passage_id": TEXT, "title": TEXT,
            "ref": {**NULLABLE_TEXT, "description": "The passage's canonical reference, else its title."},
            "valid": BOOLEAN,
            "quote_verified": {"type": ["boolean", "null"], "description": "null when nothing is quoted."},
            "support": {"type": ["number", "null"], "description": "null when unchecked."},
            "verified": {"type": ["boolean", "null"], "description": "null when no check ran."},
            "spans": {"type": "array", "description": "Character ranges of the passage the claims rest on.",
                      "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}},
            "marks": {"type": "array", "description": "The range each [n] marker of the answer rests on, in reading "
                                                      "order: the k-th [n] of the text rests on marks[k] (null: on no "
                                                      "single sentence).",
                      "items": {"type": ["array", "null"], "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}},
            "ref_he": NULLABLE_TEXT,
        },
    },
    "Timings": {
        "type": "object", "required": ["classify", "retrieve", "generate", "total", "stages"],
        "description": "Milliseconds per stage; stages: retrieval's own.",
        "properties": {"classify": NUMBER, "retrieve": NUMBER, "generate": NUMBER, "total": NUMBER,
                       "stages": {"type": "object", "additionalProperties": NUMBER}},
    },
    "Sources": {
        "type": "object", "required": ["passages", "reranked", "followup_retrieval", "searches"],
        "description": "The stream's sources event: the passages found.",
        "properties": {"passages": {"type": "array", "items": ref("Passage")}, "reranked": BOOLEAN,
                       "followup_retrieval": nullable(ref("FollowUp")),
                       "searches": {"type": "array", "items": ref("Search")}},
    },
    "Search": {
        "type": "object", "required": ["query", "filters", "results", "error"],
        "description": "One search for the answer: the pipeline's, or one a model writer chose, with its filters.",
        "properties": {
            "query": NULLABLE_TEXT,
            "filters": {"type": "object", "description": "The filters it ran with (a writer's: work, section, "
                                                         "language), the reader's own besides."},
            "results": {"type": "array", "items": {"type": "integer", "minimum": 1},
                        "description": "The numbers of the passages it found."},
            "error": {**NULLABLE_TEXT, "description": "Why it was refused (bad arguments, the search limit)."},
        },
    },
    "FollowUp": {
        "type": "object", "required": ["query", "added"],
        "description": "The one more search a question whose passages missed some of its words made.",
        "properties": {"query": TEXT, "added": COUNT},
    },
    "Answer": {
        "type": "object", "description": "The checked answer with its evidence (also the stream's answer event).",
        "required": ["id", *QUESTION["required"], "answer", "declined", "answerability", "halachic", "mode",
                     "citations", "invalid_citations", "removed_claims", "flagged_claims", "passages", "generator",
                     "model", "degraded", "reranked", "followup_retrieval", "searches", "second_look",
                     "from_library", "timings_ms", "reviewed"],
        "properties": {
            "id": {**NULLABLE_TEXT, "description": "Its id in the history; null when the server keeps none."},
            **QUESTION["properties"],
            "answer": {**TEXT, "description": "Markdown with [n] markers."},
            "declined": {**BOOLEAN, "description": "The sources do not answer; the text says so."},
            "answerability": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
            "halachic": {**BOOLEAN, "description": "A question of religious law: the sources are taught, no ruling."},
            "mode": {"enum": list(MODES)},
            "citations": {"type": "array", "items": ref("Citation")},
            "invalid_citations": {"type": "array", "items": {"type": "integer"},
                                  "description": "Markers that named no passage (removed)."},
            "removed_claims": {"type": "array", "items": TEXT,
                               "description": "Sentences dropped because no citation supported them."},
            "flagged_claims": {"type": "array", "items": TEXT,
                               "description": "Instructions resting only on uploads no tier vouches for."},
            "passages": {"type": "array", "items": ref("Passage")},
            "generator": {**TEXT, "description": "The writer that wrote it."},
            "model": NULLABLE_TEXT,
            "degraded": {**BOOLEAN, "description": "Written offline because the chosen provider failed."},
            "degraded_reason": {**TEXT, "description": "Why; only when degraded."},
            "reranked": BOOLEAN,
            "followup_retrieval": nullable(ref("FollowUp")),
            "searches": {"type": "array", "items": ref("Search")},
            "second_look": {"type": "array", "items": {"type": "integer", "minimum": 1},
                            "description": "The numbers of the passages that a second look, further down the ranking "
                                           "when the passages shown held no answer, found and the answer cites."},
            "from_library": {**BOOLEAN, "description": "False: a model writer replied without searching (a greeting); "
                                                       "the reply cites nothing and says so."},
            "timings_ms": ref("Timings"),
            "reviewed": {"type": "array", "items": ref("ReviewedAnswer"), "description": "To like questions, before."},
        },
    },
}

def json_data(schema: dict) -> dict:
    """An event's data: JSON of this schema."""
    return {"type": "string", "contentMediaType": "application/json", "contentSchema": schema}


def event_stream(events: dict) -> dict:
    """A text/event-stream whose events, by name, carry JSON data of the given schemas (each event's schema)."""
    return {"type": "object", "required": ["event", "data"],
            "properties": {"event": {"enum": list(events)}, "data": TEXT},
            "allOf": [{"if": {"properties": {"event": {"const": name}}},
                       "then": {"properties": {"data": json_data(schema)}}} for name, schema in events.items()]}


STREAM = {
    "description": "Server-sent events, in order: meta (the Question), sources, delta as the answer is written, "
                   "answer (the Answer, logged) and done; a failure once the stream has begun is an error event.",
    "headers": {"Cache-Control": {"schema": {"const": "no-cache"}}},
    "content": {"text/event-stream": {"schema": event_stream({
        "meta": ref("Question"), "sources": ref("Sources"),
        "delta": {"type": "object", "required": ["text"], "properties": {"text": TEXT}},
        "answer": ref("Answer"),
        "done": {"type": "object", "required": ["id", "timings_ms"],
                 "properties": {"id": NULLABLE_TEXT, "timings_ms": ref("Timings")}},
        "error": ref("Error")})}},
}
QUERY_ERRORS = (413, 429)
BAD_TOKEN = (401,)  # an open operation still refuses a bearer token that is not valid (web/auth.py identify)

PATHS = {
    "/": {"get": operation("The chat page", {200: {"description": "The page.",
                                                    "content": {"text/html": {"schema": TEXT}}}},
                           BAD_TOKEN, tags=TAGS, public=True)},
    "/api/query": {"post": operation("Answer a question with cited, checked evidence", {200: ok(ref("Answer"))},
                                     QUERY_ERRORS, request=body(ref("QueryRequest")), tags=TAGS)},
    "/api/query/stream": {"post": operation("The answer as server-sent events", {200: STREAM}, QUERY_ERRORS,
                                            request=body(ref("QueryRequest")), tags=TAGS)},
}
