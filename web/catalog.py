"""GET /api/catalog: the works the reader sees, each with its sections or lessons and their passage counts.

A course script's entry has its link and instructor, and each lesson its link (ingest/course.py); the sections
come from the passages' labels (search/catalog.py). The page's Library panel shows it as a tree. The catalog of a
large library runs to megabytes: it is sent gzipped to a client that takes gzip, with an ETag, so that a page that
has it already gets a 304.
Does not: list documents page by page (documents.py does) or filter a search (validation.py reads the filters).
"""
import gzip
import hashlib
import json

from flask import Blueprint, Response, request

from search.catalog import catalog
from web.auth import reader
from web.documents import store

bp = Blueprint("catalog", __name__)
GZIP_FROM = 1024  # bytes: a smaller catalog is sent as it is


@bp.get("/api/catalog")
def works():
    """{"works": [...]}: every work the reader sees, by name."""
    docs, rows = store().catalog_rows(reader())
    body = json.dumps({"works": catalog(docs, rows)}, ensure_ascii=False, separators=(",", ":")).encode()
    response = Response(body, mimetype="application/json")
    response.set_etag(hashlib.blake2b(body, digest_size=16).hexdigest(), weak=True)  # one for every coding
    response.headers["Cache-Control"] = "no-cache"  # kept, but asked again: the library changes
    response.vary.add("Accept-Encoding")
    response.make_conditional(request)
    if response.status_code == 200 and len(body) >= GZIP_FROM and "gzip" in request.accept_encodings:
        response.set_data(gzip.compress(body, compresslevel=6))
        response.headers["Content-Encoding"] = "gzip"
    return response
