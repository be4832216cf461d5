"""The library part of the API description (web/spec/__init__.py): uploading, listing, removing and re-indexing
documents, following their ingest jobs, and the library's counts (web/documents.py).

Documents and jobs are shaped by web/shaping.py (document_json, job_json). An upload is checked before anything
is stored: its form fields (400), the file against its extension (415, ingest/parsers.py), its size and the
library's room (413), and the jobs waiting, the server's and the user's, and the bytes a user may upload a day
(429, web/documents.check_room and accounts/limits.py). A library searched as a fixed build cannot change (409).
"""
from ingest.parsers import ALLOWED
from web.documents import DOCUMENT_FIELDS, MAX_FIELD_CHARS, MAX_FILENAME_CHARS, PAGE_MAX
from web.spec.common import json_content, ok, operation, page, path_param, query_param, ref
from web.validation import MAX_OFFSET

TAGS = ("library",)
TEXT = {"type": "string"}
NULLABLE_TEXT = {"type": ["string", "null"]}
COUNT = {"type": "integer", "minimum": 0}
BOOLEAN = {"type": "boolean"}
TIME = {"type": "number", "description": "Seconds since the epoch."}
LOCATION = {"Location": {"required": True, "schema": {"type": "string"}, "description": "The job's URL."}}
DOC_ID = path_param("doc_id", {"type": "string", "minLength": 1}, 'The document\'s "id".')
JOB_ID = path_param("job_id", {"type": "string", "minLength": 1}, 'The job\'s "id" (from the upload\'s answer).')

STATUSES = ("queued", "running", "done", "failed")
STAGES = ("queued", "parsing", "chunking", "embedding", "indexing", "warming", "done", "unchanged", "failed")


def link(path: str, method: str, **parameters: str) -> dict:
    """An OpenAPI link to the operation at path and method, its parameters taken from the response."""
    return {"operationRef": f"#/paths/{path.replace('/', '~1')}/{method}", "parameters": parameters}


def queued(description: str) -> dict:
    """The 202 of an operation that queues a job: the job, its URL in Location, and what may follow."""
    return {"description": description, "headers": LOCATION, "content": json_content(ref("Job")), "links": {
        "job": link("/api/jobs/{job_id}", "get", job_id="$response.body#/id"),
        "reindex": link("/api/documents/{doc_id}/reindex", "post", doc_id="$response.body#/document_id"),
        "delete": link("/api/documents/{doc_id}", "delete", doc_id="$response.body#/document_id"),
    }}


LINK = {"type": ["string", "null"], "pattern": "^https?://", "description": "An http(s) link the document gives."}

SCHEMAS = {
    "Catalog": {"type": "object", "required": ["works"], "additionalProperties": False,
                "properties": {"works": {"type": "array", "items": ref("Work")}}},
    "Work": {
        "type": "object", "description": "One document of the library as a work: a course, a book, a part.",
        "required": ["document_id", "work", "title", "author", "language", "tier", "community", "course", "link",
                     "instructor", "passages", "sections"],
        "properties": {
            "document_id": TEXT, "work": TEXT, "title": TEXT, "author": NULLABLE_TEXT, "language": NULLABLE_TEXT,
            "tier": NULLABLE_TEXT, "community": NULLABLE_TEXT,
            "course": {"type": "boolean", "description": "A course script (Course Title:, Lesson N: ...)."}, "link": LINK,
            "instructor": {**NULLABLE_TEXT, "description": "A course script's instructor."},
            "passages": COUNT, "sections": {"type": "array", "items": ref("Section")},
        },
        "additionalProperties": False,
    },
    "Section": {
        "type": "object", "description": "A lesson, siman or chapter: its label, number, heading, link and passages.",
        "required": ["title", "number", "heading", "within", "link", "passages"],
        "properties": {"title": TEXT, "number": {"type": ["integer", "null"], "minimum": 0},
                       "within": {"type": "array", "items": TEXT, "description": "The labels above: the part."},
                       "heading": NULLABLE_TEXT, "link": LINK, "passages": {"type": "integer", "minimum": 1}},
        "additionalProperties": False,
    },
    "Upload": {
        "type": "object", "required": ["file"], "additionalProperties": False,
        "description": "One file and its metadata; blank fields are as if left out.",
        "properties": {
            "file": {"type": "string", "contentMediaType": "application/octet-stream", "minLength": 1,
                     "description": f"The file: {', '.join(sorted(ALLOWED))}, its content matching its extension; "
                                    f"its name at most {MAX_FILENAME_CHARS} characters, without control characters."},
            **{name: {"type": "string", "maxLength": MAX_FIELD_CHARS} for name in DOCUMENT_FIELDS},
            "document_id": {"type": "string", "pattern": r"^[\w-]{0,80}$",
                            "description": "The id to keep it under (the same id replaces that document, when it "
                                           "is yours to change); blank or left out: from the file name. On a shared "
                                           "server a new document's id carries your mark (kettles-3fa2c1): the "
                                           "job's document_id says which."},
        },
    },
    "Job": {
        "type": "object", "description": "An ingest or re-index of one document, run in the background.",
        "required": ["id", "kind", "document_id", "filename", "status", "stage", "done", "total", "error", "warnings",
                     "created_at", "updated_at", "url"],
        "properties": {
            "id": TEXT, "kind": {"enum": ["ingest", "reindex"]},
            "document_id": NULLABLE_TEXT, "filename": {**NULLABLE_TEXT, "description": "The user's, for display."},
            "status": {"enum": list(STATUSES)},
            "stage": {"enum": list(STAGES), "description": '"unchanged": the same file was there already.'},
            "done": {**COUNT, "description": "Passages embedded so far."},
            "total": {**COUNT, "description": "Passages."},
            "error": {**NULLABLE_TEXT, "description": "Why it failed."},
            "warnings": {"type": "array", "items": TEXT, "description": "What the parser noticed, for the user."},
            "created_at": TIME, "updated_at": TIME,
            "url": {**TEXT, "description": "Where to follow it (GET /api/jobs/{job_id})."},
        },
        "additionalProperties": False,
    },
    "Document": {
        "type": "object", "description": "A document's metadata, without its text.",
        "required": ["id", "title", "author", "language", "format", "work", "tier", "community", "filename",
                     "chunk_count", "created_at", "updated_at", "built_in", "read_only", "yours"],
        "properties": {
            "id": TEXT, "title": TEXT, "author": NULLABLE_TEXT, "language": NULLABLE_TEXT,
            "format": TEXT, "work": NULLABLE_TEXT,
            "tier": {**NULLABLE_TEXT, "description": 'null: "public".'}, "community": NULLABLE_TEXT,
            "filename": {**NULLABLE_TEXT, "description": "The uploaded file's name; null for a corpus build."},
            "chunk_count": COUNT, "created_at": TIME, "updated_at": TIME,
            "built_in": {**BOOLEAN, "description": "Made by a corpus build (the default library), not uploaded."},
            "read_only": {**BOOLEAN, "description": "The built-in library's, which may not be removed or replaced "
                                                   "unless the server sets BUILTIN_REMOVABLE."},
            "yours": {**BOOLEAN, "description": "Uploaded by the reader who asks (on a personal server, every "
                                               "upload): the page shows its Remove and Re-index in the reader's view."},
        },
        "additionalProperties": False,
    },
    "DocumentPage": page("documents", ref("Document"), PAGE_MAX, "A page of the documents the reader sees: their own uploads first, then other uploads, "
                                                       "then the built-in library; newest first within each."),
    "DocumentDeleted": {
        "type": "object", "required": ["deleted", "chunks_removed"],
        "properties": {"deleted": {**TEXT, "description": "The document's id."}, "chunks_removed": COUNT},
        "additionalProperties": False,
    },
    "Stats": {
        "type": "object", "description": "What the reader sees of the library; jobs and uploaded_bytes only for "
                                         "those who may upload.",
        "required": ["documents", "chunks", "generation", "per_document"],
        "properties": {
            "documents": COUNT, "chunks": COUNT,
            "generation": {**COUNT, "description": "Bumped by every change to the documents."},
            "per_document": {
                "type": "array", "maxItems": 50, "description": "The documents with the most passages.",
                "items": {"type": "object", "required": ["id", "title", "chunks"], "additionalProperties": False,
                          "properties": {"id": TEXT, "title": TEXT, "chunks": COUNT}}},
            "jobs": {"type": "object", "description": "Jobs by status.",
                     "propertyNames": {"enum": list(STATUSES)}, "additionalProperties": COUNT},
            "uploaded_bytes": {**COUNT, "description": "The uploaded files kept, for MAX_LIBRARY_BYTES."},
        },
        "additionalProperties": False,
    },
}

PATHS = {
    "/api/documents": {
        "post": operation(
            "Upload a file to be indexed: 202 with its job. 409 when the same file (the same bytes) is in the "
            "library already under another id, named in the message and X-Duplicate-Of, 413 when it is too large for an upload or the library, 415 for a file whose content is "
            "not what its name says, 429 when too many jobs wait or the user's day of uploads is spent.",
            {202: queued("Queued.")}, (409, 413, 415, 429), tags=TAGS,
            request={"required": True, "content": {"multipart/form-data": {
                "schema": ref("Upload"),
                "encoding": {"file": {
                    "contentType": "application/octet-stream",
                    "headers": {"Content-Disposition": {"schema": {
                        "type": "string", "example": 'form-data; name="file"; filename="notes.txt"'}}}}},
                "example": {"file": "Course Title: Notes\n\nThe first lesson.", "title": "Notes", "language": "en"},
            }}}),
        "get": operation(
            "A page of the documents the reader sees, newest first.", {200: ok(ref("DocumentPage"))}, (409,),
            tags=TAGS, parameters=[
                query_param("limit", {"type": "integer", "minimum": 1, "maximum": PAGE_MAX, "default": 100},
                            "Documents per page."),
                query_param("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0},
                            "Documents to skip."),
                query_param("q", TEXT, "Only those whose title contains this."),
            ]),
    },
    "/api/documents/{doc_id}": {
        "delete": operation("Remove a document, its passages and its stored file (403 for the built-in library's, "
                            "read-only unless BUILTIN_REMOVABLE).", {200: ok(ref("DocumentDeleted"))},
                            (404, 409), tags=TAGS, parameters=[DOC_ID]),
    },
    "/api/documents/{doc_id}/reindex": {
        "post": operation("Re-index an uploaded document from its stored file: 202 with the job. 409 for a document "
                          "built from a corpus (it has no file), 429 when too many jobs wait.",
                          {202: queued("Queued.")}, (404, 409, 429), tags=TAGS, parameters=[DOC_ID]),
    },
    "/api/documents/{doc_id}/vouch": {
        "post": operation("A reviewer or admin confirms an upload's tier: its instructions are no longer flagged as "
                          "resting on an unvouched upload (an editor's tier is the editor's choice, not a voucher). "
                          "404 for a document the reviewer does not see, 409 for the built-in library's.",
                          {200: ok(ref("Document"))}, (404, 409), tags=TAGS, parameters=[DOC_ID]),
    },
    "/api/jobs/{job_id}": {
        "get": operation("An ingest job's stage and progress, to whoever submitted it and to admins.",
                         {200: ok(ref("Job"))}, (404, 409), tags=TAGS, parameters=[JOB_ID]),
    },
    "/api/stats": {
        "get": operation("How many documents and passages the reader sees, and the largest.", {200: ok(ref("Stats"))},
                         (409,), tags=TAGS),
    },
    "/api/catalog": {
        "get": operation("The works the reader sees, by name, each with its sections or lessons.",
                         {200: ok(ref("Catalog"))}, (409,), tags=TAGS),
    },
}
