"""GET /api/catalog: the works the reader sees, each with its sections or lessons and their passage counts.

A course script's entry has its link and instructor, and each lesson its link (ingest/course.py); the sections
come from the passages' labels (search/catalog.py). The page's Library panel shows it as a tree.
Does not: list documents page by page (documents.py does) or filter a search (validation.py reads the filters).
"""
from flask import Blueprint

from search.catalog import catalog
from web.auth import reader
from web.documents import store

bp = Blueprint("catalog", __name__)


@bp.get("/api/catalog")
def works():
    """{"works": [...]}: every work the reader sees, by name."""
    docs, rows = store().catalog_rows(reader())
    return {"works": catalog(docs, rows)}
