"""The API described in OpenAPI 3.1, served at /api/openapi.json; one module per part of the API.

common.py     the error body and responses every operation shares, sign-in, helpers
asking.py     /, /api/query, /api/query/stream
health.py     /api/health
library.py    /api/documents, /api/jobs, /api/stats
history.py    /api/history
accounts.py   /api/session, /api/me, /api/users
providers.py  /api/admin/providers: the model providers' keys and default models
relating.py   /api/relations
protocols.py  /v1/chat/completions, /v1/models, /mcp, /metrics, /api/openapi.json, /static
tests/web/test_openapi.py holds it true: every route of the app is described, and schemathesis, run against a
live server, finds no 5xx, no status the document does not give, and no response that breaks its schema.
"""
from functools import cache

from web.spec import accounts, asking, health, history, library, protocols, providers, relating
from web.spec.common import ERROR, OPENAI_ERROR, SECURITY, SECURITY_SCHEMES

PARTS = (asking, health, library, history, accounts, providers, relating, protocols)


@cache
def document() -> dict:
    """The whole OpenAPI document."""
    paths, schemas = {}, {"Error": ERROR, "OpenAIError": OPENAI_ERROR}
    for part in PARTS:
        for path, operations in part.PATHS.items():
            paths.setdefault(path, {}).update(operations)
        schemas.update(part.SCHEMAS)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Evidenz", "version": "1",
                 "description": "Evidence-grounded answers: every claim cites a passage checked to support it. "
                                "A personal server needs no sign-in; a shared one takes a bearer token or the "
                                "page's session cookie."},
        "paths": paths,
        "components": {"schemas": schemas, "securitySchemes": SECURITY_SCHEMES},
        "security": SECURITY,
    }
