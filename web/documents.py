"""The book manager's HTTP API: upload, list, remove and re-index documents; follow ingest jobs.

POST /api/documents takes one multipart file plus metadata fields and answers 202 with a job;
GET /api/jobs/<id> gives its stage and progress. Uploads are checked before anything is stored: a file
name without control characters, allowed extension, content matching it (parsers.sniff_format), and the
limits (`check_room`): its size (413 above MAX_UPLOAD_BYTES), the library's uploaded files together (413
above MAX_LIBRARY_BYTES) and the jobs waiting (429 from MAX_QUEUED_JOBS on, re-indexing too).
Files are stored under names the server makes; the user's file name is kept for display only.
A document is its owner's (and the admins'): only they replace it by uploading to its id, re-index or remove it.
The built-in library (a corpus build's documents, such as the default Wikipedia library) is read-only unless
BUILTIN_REMOVABLE: a remove is a 403 and an upload to its id is kept apart under a new one.
To anyone else its id is answered as an id that does not exist: a 404. On a shared server an upload's id carries
its uploader's mark unless it names a document they may change (placed_id), so the reply is the same whether the
id is free or hidden. A tier must be one of accounts/roles.TIERS.
"""
import hashlib
import re
import threading
import uuid

from flask import Blueprint, request, url_for

from configuration.settings import current
from accounts.limits import check_user_upload
from accounts.roles import DEFAULT_TIER, REINDEX, REMOVE, REVIEW, TIERS, UPLOAD, USERS
from ingest.jobs import METADATA_FIELDS as DOCUMENT_FIELDS
from ingest.jobs import Ingestor, document_id
from ingest.parsers import check_upload
from ingest.records import CONTROL, display_name
from storage.store import Store
from web.auth import accounts, reader, require
from web.errors import ApiError
from web.services import hidden_from, services
from web.shaping import built_in, document_json, job_json, read_only
from web.validation import MAX_OFFSET, whole_number

bp = Blueprint("documents", __name__)

METADATA_FIELDS = (*DOCUMENT_FIELDS, "document_id")
MAX_FIELD_CHARS = 300
DOCUMENT_ID = re.compile(r"^[\w-]{1,80}$")
MAX_FILENAME_CHARS = 255  # what file systems allow
ROOM = threading.Lock()  # held while the limits are checked and a job is queued (one process; see README)
DEFAULT_PAGE, PAGE_MAX = 100, 500
QUEUE_RETRY_SECONDS = 30  # the Retry-After of a 429 for a full queue: about what a few jobs take
FIXED = "This server's library is fixed (an evaluation build); it cannot add documents."


def ingestor() -> Ingestor:
    """The running ingest worker of the library, or a 409 when the library cannot change."""
    worker = services().ingestor
    if worker is None:
        raise ApiError(FIXED, 409)
    worker.start()
    return worker


def check_room(worker: Ingestor, upload_bytes: int = 0, name: str = "") -> None:
    """Refuse work the limits do not leave room for: 429 when too many jobs wait, 413 for a file too large."""
    settings = current()
    queued, most = worker.store.job_counts().get("queued", 0), settings.library.max_queued_jobs
    if queued >= most:
        raise ApiError(f"{queued} ingest jobs are already waiting, the most this server queues (MAX_QUEUED_JOBS "
                       f"is {most}). Wait for them to finish, then send this again; an operator can raise "
                       "FLASK_MAX_QUEUED_JOBS.", 429, {"Retry-After": str(QUEUE_RETRY_SECONDS)})
    if upload_bytes > settings.library.max_upload_bytes:
        most = settings.library.max_upload_bytes
        raise ApiError(f"{name} is {_mb(upload_bytes)}; an upload may be at most {_mb(most)} "
                       "(MAX_UPLOAD_BYTES). Split the file and upload the parts, or raise FLASK_MAX_UPLOAD_BYTES.", 413)
    stored, room = worker.stored_bytes(), settings.library.max_library_bytes
    if upload_bytes and stored + upload_bytes > room:
        raise ApiError(f"The library's uploaded files take {_mb(stored)}; {name} ({_mb(upload_bytes)}) would pass "
                       f"the library's limit of {_mb(room)} (MAX_LIBRARY_BYTES). Delete documents you no longer "
                       "need, or raise FLASK_MAX_LIBRARY_BYTES.", 413)


def _mb(size: int) -> str:
    """A byte count in megabytes, for messages."""
    return f"{size / 2**20:,.1f} MB"


def store() -> Store:
    """The library's store, or a 409 when the server searches a fixed library."""
    found = services().store
    if found is None:
        raise ApiError(FIXED, 409)
    return found


@bp.post("/api/documents")
def upload():
    """Queue a file for ingestion: 202 with the job, or a 4xx that says what is wrong with the upload."""
    request.max_content_length = current().library.max_upload_bytes
    who = require(UPLOAD)
    worker = ingestor()
    files = request.files.getlist("file")
    if len(files) != 1 or not files[0].filename:
        raise ApiError('Send exactly one file as multipart form data in the field "file".')
    upload = files[0]
    if CONTROL.search(upload.filename):
        raise ApiError("The file name contains control characters (such as a NUL byte); "
                       "rename the file and upload it again.")
    if len(upload.filename) > MAX_FILENAME_CHARS:
        raise ApiError(f"The file name has {len(upload.filename):,} characters; the limit is {MAX_FILENAME_CHARS}. "
                       "Rename the file and upload it again.")
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
        raise ApiError(f"{display_name(upload.filename)} is empty.")
    if options.get("tier", DEFAULT_TIER) not in TIERS:
        raise ApiError(f'"tier" must be one of {", ".join(TIERS)} (unknown: {options["tier"][:40]!r}).')
    if who.id is not None:
        options["owner"] = who.id
    if vouches(who):  # a reviewer's or admin's upload: its tier is theirs to vouch for (checks/instructions.py)
        options["vouched_by"] = who.id if who.id is not None else "owner"
    wanted = options.get("document_id") or document_id(upload.filename)
    same = worker.store.same_file(hashlib.sha256(data).hexdigest(), who)
    if same is not None and (same.id != wanted or not who.owns(same.owner)):  # the same bytes: stored once
        raise ApiError(f"{display_name(upload.filename)} is the same file as {same.title!r} (id {same.id!r}), which "
                       "the library holds already; it was not added again. Upload it under that id to replace it.",
                       409, {"X-Duplicate-Of": same.id})
    placed = placed_id(worker.store, wanted, who)
    target = worker.store.document(placed)
    if target is not None and who.owns(target.owner) and not read_only(target):  # a new version: its owner's still
        options.pop("owner", None)
        options.update({"owner": target.owner} if target.owner is not None else {})
    elif target is not None:  # another's (or the built-in library's): as for a new id, kept apart under a new one
        placed = fresh_id(worker.store, wanted)
    options["document_id"] = placed
    with ROOM:  # the checks and the queueing together, so two uploads at once cannot both take the last room
        check_room(worker, len(data), display_name(upload.filename))
        if who.id is not None:
            check_user_upload(accounts(), current(), who.id, len(data), worker.store.queued_jobs(who.id))
        check_upload(data, upload.filename, worker.limits)  # a RejectedFile is a 415 (errors.py)
        job = worker.submit_file(data, upload.filename, options)
    return job_json(job), 202, {"Location": url_for("documents.job", job_id=job.id)}


def vouches(who) -> bool:
    """Whether who vouches for the tier of what they upload or confirm: a reviewer, an admin, a personal server's
    owner; never an editor, who chooses a tier but is not who vouches for the text."""
    return who.everything or who.may(REVIEW) or who.may(USERS)


@bp.post("/api/documents/<doc_id>/vouch")
def vouch(doc_id: str):
    """A reviewer or admin confirms an upload's tier: its instructions are no longer flagged as unvouched."""
    who = require(REVIEW)
    doc = store().document(doc_id)
    if doc is None or doc_id in hidden_from(who):
        raise ApiError(f"No document {doc_id!r}. GET /api/documents lists those you see.", 404)
    if built_in(doc):
        raise ApiError(f"{doc_id!r} is the built-in library's, which vouches for itself; nothing to confirm.", 409)
    store().vouch(doc_id, who.id)
    return document_json(store().document(doc_id), who)


@bp.get("/api/jobs/<job_id>")
def job(job_id: str):
    """An ingest job's stage and progress: to the user who submitted it, and to admins."""
    found, who = store().job(job_id), reader()
    if found is None or not (who.everything or who.may(USERS) or found.options.get("owner") == who.id):
        raise ApiError(f"No job {job_id}.", 404)
    return job_json(found)


@bp.get("/api/documents")
def list_documents():
    """A page of documents: ?limit (1-500), ?offset, ?q (title contains)."""
    limit = whole_number("limit", DEFAULT_PAGE, 1, PAGE_MAX)
    offset = whole_number("offset", 0, 0, MAX_OFFSET)
    who = reader()
    docs, total = store().documents(limit, offset, request.args.get("q", "").strip(), reader=who)
    return {"documents": [document_json(d, who) for d in docs], "total": total, "limit": limit, "offset": offset}


@bp.delete("/api/documents/<doc_id>")
def delete_document(doc_id: str):
    """Remove a document, its passages and its stored file."""
    require(REMOVE)
    owned(doc_id)
    if read_only(store().document(doc_id)):
        raise ApiError(f"{doc_id!r} belongs to the built-in library (made by a corpus build, not uploaded), which is "
                       "read-only; start the server with BUILTIN_REMOVABLE=1 to remove its documents.", 403)
    removed = ingestor().delete(doc_id)
    if removed is None:
        raise ApiError(f"No document {doc_id}.", 404)
    return {"deleted": doc_id, "chunks_removed": removed}


@bp.post("/api/documents/<doc_id>/reindex")
def reindex(doc_id: str):
    """Queue a re-index of a document from its stored file: 202 with the job."""
    require(REINDEX)
    owned(doc_id)
    worker = ingestor()
    try:
        with ROOM:
            check_room(worker)
            job = worker.submit_reindex(doc_id)
    except ValueError as exc:
        raise ApiError(str(exc), 409) from None
    if job is None:
        raise ApiError(f"No document {doc_id}.", 404)
    return job_json(job), 202, {"Location": url_for("documents.job", job_id=job.id)}


@bp.get("/api/stats")
def stats():
    """The documents and chunks the reader sees and the largest of them; for those who may upload, jobs by status
    and the bytes of the uploaded files kept."""
    found, who = store(), reader()
    body = {**found.stats(who), "per_document": found.largest_documents(reader=who)}
    if who.may(UPLOAD):
        body.update(jobs=found.job_counts(), uploaded_bytes=services().ingestor.stored_bytes())
    return body


def owned(doc_id: str) -> None:
    """A 404 for a document that is not the reader's (or an admin's) to change, as for one that does not exist."""
    doc = store().document(doc_id)
    if doc is not None and not reader().owns(doc.owner):
        raise ApiError(f"No document {doc_id}.", 404)


def placed_id(documents: Store, wanted: str, who) -> str:
    """The id an upload to wanted goes to. The personal server's owner, who sees every document, gets wanted. On a
    shared server a signed-in uploader gets wanted when it is a document they may change already (a new version),
    and otherwise wanted marked as theirs ("kettles-3fa2c1"): the same whether wanted is free, another's that they
    see, or hidden from them, so the reply tells nothing of documents they may not see. The same file name again is
    the same id again, so a new version replaces their own."""
    if who.id is None:
        return wanted
    target = documents.document(wanted)
    if target is not None and who.owns(target.owner) and not read_only(target):
        return wanted
    mark = uploader_mark(who.id)
    return wanted if wanted.endswith(f"-{mark}") else f"{wanted[:80 - len(mark) - 1]}-{mark}"


def uploader_mark(user_id) -> str:
    """The six hex digits that mark an uploader's ids on a shared server."""
    return hashlib.sha256(f"evidenz-uploader:{user_id}".encode()).hexdigest()[:6]


def fresh_id(documents: Store, wanted: str) -> str:
    """An id like wanted that no document has ("probe-codex-3fa2c1d0")."""
    while True:
        candidate = f"{wanted[:71]}-{uuid.uuid4().hex[:8]}"
        if documents.document(candidate) is None:
            return candidate
