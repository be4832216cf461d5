"""The book manager's HTTP API: upload, list, remove and re-index documents; follow ingest jobs.

POST /api/documents takes one multipart file plus metadata fields and answers 202 with a job;
GET /api/jobs/<id> gives its stage and progress. Uploads are checked before anything is queued:
allowed extension, content matching it (parsers.sniff_format), size (413 above MAX_UPLOAD_BYTES).
Files are stored under names the server makes; the user's file name is kept for display only.
"""
import re

from flask import Blueprint, current_app, request, url_for

from ingest.jobs import METADATA_FIELDS as DOCUMENT_FIELDS
from web.api import ApiError, loaded_pipeline

bp = Blueprint("documents", __name__)

METADATA_FIELDS = (*DOCUMENT_FIELDS, "document_id")
MAX_FIELD_CHARS = 300
DOCUMENT_ID = re.compile(r"^[\w-]{1,80}$")
PAGE_MAX = 500


def ingestor():
    pipeline = loaded_pipeline()
    if pipeline.ingestor is None:
        raise ApiError("This server's library is fixed (an evaluation build); it cannot add documents.", 409)
    pipeline.ingestor.start()
    return pipeline.ingestor


def job_json(job) -> dict:
    return {
        "id": job.id, "kind": job.kind, "document_id": job.document_id, "filename": job.filename,
        "status": job.status, "stage": job.stage, "done": job.done, "total": job.total,
        "error": job.error, "warnings": job.warnings, "created_at": job.created_at, "updated_at": job.updated_at,
        "url": url_for("documents.job", job_id=job.id),
    }


def document_json(doc) -> dict:
    return {k: getattr(doc, k) for k in ("id", "title", "author", "language", "format", "work", "tier", "community",
                                         "filename", "chunk_count", "created_at", "updated_at")}


@bp.post("/api/documents")
def upload():
    """Queue a file for ingestion: 202 with the job, or a 4xx that says what is wrong with the upload."""
    from ingest.parsers import RejectedFile, check_upload

    request.max_content_length = current_app.config["MAX_UPLOAD_BYTES"]
    worker = ingestor()
    files = request.files.getlist("file")
    if len(files) != 1 or not files[0].filename:
        raise ApiError('Send exactly one file as multipart form data in the field "file".')
    upload = files[0]
    options = {}
    for name in METADATA_FIELDS:
        value = request.form.get(name, "").strip()
        if len(value) > MAX_FIELD_CHARS:
            raise ApiError(f'"{name}" is longer than {MAX_FIELD_CHARS} characters.')
        if value:
            options[name] = value
    unknown = sorted(set(request.form) - set(METADATA_FIELDS))
    if unknown:
        raise ApiError(f"Unknown field(s): {', '.join(unknown)}. Allowed: file, {', '.join(METADATA_FIELDS)}.")
    if "document_id" in options and not DOCUMENT_ID.match(options["document_id"]):
        raise ApiError('"document_id" may hold letters, digits, "-" and "_" only (at most 80).')
    data = upload.read()
    if not data:
        raise ApiError(f"{upload.filename} is empty.")
    try:
        check_upload(data, upload.filename)
    except RejectedFile as exc:
        raise ApiError(str(exc), 415) from None
    job = worker.submit_file(data, upload.filename, options)
    return job_json(job), 202, {"Location": url_for("documents.job", job_id=job.id)}


@bp.get("/api/jobs/<job_id>")
def job(job_id: str):
    found = loaded_pipeline().retriever.library.store.job(job_id)
    if found is None:
        raise ApiError(f"No job {job_id}.", 404)
    return job_json(found)


@bp.get("/api/documents")
def list_documents():
    """A page of documents: ?limit (1-500), ?offset, ?q (title contains)."""
    store = loaded_pipeline().retriever.library.store
    try:
        limit = int(request.args.get("limit", 100))
        offset = int(request.args.get("offset", 0))
    except ValueError:
        raise ApiError('"limit" and "offset" must be whole numbers.') from None
    if not 1 <= limit <= PAGE_MAX or offset < 0:
        raise ApiError(f'"limit" must be from 1 to {PAGE_MAX} and "offset" at least 0.')
    docs, total = store.documents(limit, offset, request.args.get("q", "").strip())
    return {"documents": [document_json(d) for d in docs], "total": total, "limit": limit, "offset": offset}


@bp.delete("/api/documents/<doc_id>")
def delete_document(doc_id: str):
    removed = ingestor().delete(doc_id)
    if removed is None:
        raise ApiError(f"No document {doc_id}.", 404)
    return {"deleted": doc_id, "chunks_removed": removed}


@bp.post("/api/documents/<doc_id>/reindex")
def reindex(doc_id: str):
    try:
        job = ingestor().submit_reindex(doc_id)
    except ValueError as exc:
        raise ApiError(str(exc), 409) from None
    if job is None:
        raise ApiError(f"No document {doc_id}.", 404)
    return job_json(job), 202, {"Location": url_for("documents.job", job_id=job.id)}


@bp.get("/api/stats")
def stats():
    """Documents, chunks, and the documents with the most chunks."""
    store = loaded_pipeline().retriever.library.store
    return {**store.stats(), "jobs": store.job_counts(), "per_document": store.largest_documents()}
