"""GET /api/openapi.json: the API described in OpenAPI 3.1 (web/spec/), open to anyone who can reach the server."""
from flask import Blueprint

from web.spec import document

bp = Blueprint("openapi", __name__)


@bp.get("/api/openapi.json")
def spec():
    """The OpenAPI document."""
    return document()
