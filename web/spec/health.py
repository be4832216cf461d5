"""The health part of the API description (web/spec/__init__.py): whether the server is loaded and what is live
(web/query.py health): the library, the models, the writers and their circuits, the database.
"""
from web.spec.asking import BOOLEAN, COUNT, NULLABLE_TEXT, NUMBER, TAGS, TEXT, nullable, with_response
from web.spec.common import json_content, ok, operation, ref

BAD_TOKEN = (401,)  # an open operation still refuses a bearer token that is not valid (web/auth.py identify)

SCHEMAS = {
    "ProviderStatus": {
        "type": "object", "required": ["name", "model", "configured", "circuit", "last_call"],
        "properties": {
            "name": NULLABLE_TEXT, "model": NULLABLE_TEXT,
            "models": {"type": "array", "items": TEXT, "description": "The models it offers (a hosted writer)."},
            "configured": BOOLEAN,
            "circuit": {"enum": ["closed", "open", "half_open"]},
            "retry_at": {**NUMBER, "description": "While open: when (Unix time) a trial call is let through."},
            "last_call": nullable({"type": "object", "required": ["ok", "at", "error", "ms"],
                                   "properties": {"ok": BOOLEAN, "at": NUMBER, "error": NULLABLE_TEXT,
                                                  "ms": NUMBER}}),
        },
    },
    "DatabaseState": {
        "type": "object", "required": ["status"], "description": "PostgreSQL: reachable, and its versions.",
        "properties": {"status": {"enum": ["ok", "unavailable"]}, "error": TEXT, "schema": TEXT,
                       "schema_version": {"type": "integer"}, "server_version": TEXT, "pgvector": NULLABLE_TEXT},
    },
    "Health": {
        "type": "object", "description": "What is live.",
        "required": ["status", "access", "library", "reranker", "rerank_note", "generator", "providers",
                     "languages", "religious_law", "built_in_library"],
        "properties": {
            "status": {"const": "ok"},
            "access": {"enum": ["personal", "shared"], "description": "shared: sign-in is needed."},
            "religious_law": {"type": "boolean", "description": "The asker sees a work of religious law (the page "
                                                                "shows its words, such as Posek view, only then)."},
            "built_in_library": {"type": "boolean", "description": "The asker sees the built-in library's texts "
                                                                    "(the default Wikipedia leads; the page credits "
                                                                    "them only then)."},
            "library": {
                "type": "object",
                "description": "The library's size and where it is; on a shared server only admins see more "
                               "than its backend.",
                "properties": {"backend": {"enum": ["embedded", "postgres", None]}, "path": TEXT, "schema": TEXT,
                               "chunks": COUNT, "documents": COUNT, "generation": {"type": "integer"},
                               "reembed": {
                                   "type": "object", "required": ["state"],
                                   "description": "Present while the library's pointed passages wait to be, or are "
                                                  "being, embedded again (its vectors were made from text with "
                                                  "points); searches use the old vectors until all are done. "
                                                  "Others than admins of a shared server see only the state.",
                                   "properties": {"state": {"enum": ["pending", "running"]}, "passages": COUNT,
                                                  "done": COUNT, "reason": TEXT}},
                               "sentences": {
                                   "type": "object", "required": ["state", "warmed"],
                                   "description": "The passages' sentence vectors, kept with the library: a build "
                                                  "and every job compute them before they are done, so the "
                                                  "worker's background pass only repairs a library built before "
                                                  "that (state repairing, with a note), after checking (a walk "
                                                  "that finds nothing cold).",
                                   "properties": {"state": {"enum": ["warm", "checking", "repairing"]},
                                                  "warmed": COUNT, "note": TEXT}}},
            },
            "classifier": {"type": "object", "properties": {"path": TEXT, "encoder": NULLABLE_TEXT}},
            "embedder": TEXT,
            "judge": {"type": ["object", "null"]},
            "reranker": NULLABLE_TEXT,
            "rerank_note": NULLABLE_TEXT,
            "generator": {**TEXT, "description": "The default writer."},
            "providers": {"type": "object", "additionalProperties": ref("ProviderStatus")},
            "languages": {"type": "array", "items": TEXT, "description": "Languages the writers decline in."},
            "load_seconds": NUMBER,
            "database": ref("DatabaseState"),
        },
    },
    "HealthSignedOut": {
        "type": "object", "required": ["status", "access", "signed_in"],
        "description": "A shared server to a reader not signed in: ready, and nothing of what runs it.",
        "properties": {"status": {"const": "ok"}, "access": {"const": "shared"}, "signed_in": {"const": False}},
        "additionalProperties": False,
    },
    "HealthDown": {
        "type": "object", "required": ["status"], "description": "Still loading, loading failed, or no database.",
        "properties": {"status": {"enum": ["loading", "error"]}, "error": TEXT, "database": ref("DatabaseState")},
    },
}

PATHS = {
    "/api/health": {"get": with_response(
        operation("Whether the server is loaded, and what is live (signed out of a shared server: only whether it "
                  "is ready)", {200: ok({"anyOf": [ref("Health"), ref("HealthSignedOut")]})}, BAD_TOKEN, tags=TAGS,
                  public=True),
        503, {"description": "Loading, loading failed, or the database cannot be reached.",
              "content": json_content({"anyOf": [ref("HealthDown"), ref("Error")]})})},
}
