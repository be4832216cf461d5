"""Relations between passages over HTTP: read those beside a passage; record, change and remove them.

GET /api/relations?passage=KEY&limit=&offset= lists the relations touching a passage, to any reader who may ask
(without passage, every relation, to those who may edit them); GET /api/relations/<id> gives one.
POST /api/relations takes {"source", "target", "kind", "confidence"?, "notes"?}: 201 with a new relation, 200
when that (source, target, kind) was there and is updated. PATCH /api/relations/<id> takes {"kind"?, "confidence"?,
"notes"?}; DELETE /api/relations/<id> removes one. Changing needs the relations permission (posek, reviewer, admin).
A reader sees a relation only when both of its passages are in documents they see: one whose passage is hidden
from them, or not in the library yet, is as absent as one never recorded (a 404), so it tells nothing of a hidden
document. The owner of a personal server sees every relation. Passage keys and values are checked by the store
(storage/relation_store.py), whose messages are written for the client.
Does not: bring related passages into answers (search/related.py), or import files (ingest/relation_import.py).
"""
from flask import Blueprint, current_app, request, url_for

from accounts.roles import ASK, RELATIONS
from models import Relation
from storage.relation_store import DuplicateRelation, RelationError, check_key
from web.auth import require
from web.errors import ApiError
from web.services import hidden_from, services
from web.shaping import relation_json
from web.validation import MAX_OFFSET, json_body, whole_number

bp = Blueprint("relations", __name__)

LIST_PARAMS = ("passage", "limit", "offset")
FIELDS = ("source", "target", "kind", "confidence", "notes")
CHANGES = ("kind", "confidence", "notes")
EXAMPLE = ('{"source": "Shulchan Arukh, Orach Chayim 318:5, Rema", "target": "Shulchan Arukh, Orach Chayim 318:5", '
           '"kind": "argues_with", "confidence": 0.9, "notes": "the Rema records the custom to be strict"}')
DEFAULT_PAGE, PAGE_MAX = 50, 500
MAX_SCAN = 100_000  # relations read to list them all (they are recorded by hand: far fewer)


def store():
    """The library's relations, or a 409 when the server searches a fixed library."""
    library = services().library
    if library is None:
        raise ApiError("This server's library is fixed (an evaluation build); it keeps no relations.", 409)
    return library.relations


def visible(relations, items: list[Relation], who) -> list[tuple[Relation, dict[str, bool]]]:
    """The relations both of whose passages who sees, each with whether its passages are in the library. A passage
    is its first holder's: a document uploaded later under the same work and ref does not take over its relations
    (nor show another reader's hidden note), whoever may see the later one."""
    held = relations.holders([k for r in items for k in (r.source, r.target)])
    if who.everything:
        return [(r, {k: k in held for k in (r.source, r.target)}) for r in items]
    hidden = hidden_from(who)
    seen = {key for key, documents in held.items() if first_holder(documents) not in hidden}
    return [(r, {r.source: True, r.target: True}) for r in items if r.source in seen and r.target in seen]


def first_holder(documents: set[str]) -> str:
    """Of the documents holding one passage key, the one that held it first (the earliest added; ties by id)."""
    store = services().store

    def added(doc_id: str) -> tuple[float, str]:
        document = store.document(doc_id) if store is not None else None
        return (document.created_at if document is not None else 0.0), doc_id

    return min(documents, key=added)


def found(relation_id: int, who) -> Relation:
    """The relation with this id if who sees it; else a 404 (as for one that was never recorded)."""
    relations = store()
    relation = relations.get(relation_id)
    if relation is None or not visible(relations, [relation], who):
        raise ApiError(f"No relation {relation_id}. GET /api/relations?passage=... lists a passage's relations.", 404)
    return relation


def passage_key(value, name: str) -> str:
    """A passage key as the store keeps it, or a 400 saying what to send."""
    try:
        return check_key(value, name)
    except RelationError as exc:
        raise ApiError(str(exc)) from None


@bp.get("/api/relations")
def list_relations():
    """A page of the relations touching ?passage= (every relation, for those who may edit them), oldest first."""
    who = require(ASK)
    unknown = sorted(set(request.args) - set(LIST_PARAMS))
    if unknown:
        raise ApiError(f"Unknown parameter(s): {', '.join(unknown)}. Allowed: {', '.join(LIST_PARAMS)}.")
    limit = whole_number("limit", DEFAULT_PAGE, 1, PAGE_MAX)
    offset = whole_number("offset", 0, 0, MAX_OFFSET)
    passage = request.args.get("passage")
    if passage is None:
        require(RELATIONS)  # the whole list is for those who keep it; a reader asks beside a passage
    relations = store()
    items = relations.of([passage_key(passage, "passage")]) if passage is not None else relations.list(MAX_SCAN)[0]
    shown = visible(relations, items, who)
    return {"relations": [relation_json(r, held) for r, held in shown[offset:offset + limit]],
            "total": len(shown), "limit": limit, "offset": offset}


@bp.get("/api/relations/<id:relation_id>")
def one(relation_id: int):
    """One relation."""
    return relation_json(found(relation_id, require(ASK)))


@bp.post("/api/relations")
def add():
    """Record a relation between two passages of the library (201), or update the same one (200)."""
    who = require(RELATIONS)
    body = json_body(FIELDS, EXAMPLE)
    missing = [name for name in ("source", "target", "kind") if name not in body]
    if missing:
        raise ApiError(f"Missing {', '.join(missing)}: send {EXAMPLE}.")
    relations = store()
    keys = [passage_key(body["source"], "source"), passage_key(body["target"], "target")]
    if not who.everything:
        held, hidden = relations.holders(keys), hidden_from(who)
        for key in keys:
            if not held.get(key, set()) - hidden:
                raise ApiError(f"No passage {key!r} in the documents you see. A passage is named by its reference "
                               "(the \"ref\" of a passage of /api/query), or by its id when it has none.", 404)
    try:
        relation, created = relations.add(*keys, body["kind"], body.get("confidence", 1.0), body.get("notes"),
                                          created_by=who.id)
    except RelationError as exc:
        raise ApiError(str(exc)) from None
    current_app.logger.info("relation %s %s: %s %s %s", relation.id, "added" if created else "updated",
                            relation.source, relation.kind, relation.target)
    if not created:
        return relation_json(relation), 200
    return relation_json(relation), 201, {"Location": url_for("relations.one", relation_id=relation.id)}


@bp.patch("/api/relations/<id:relation_id>")
def change(relation_id: int):
    """Change a relation's kind, confidence or notes."""
    who = require(RELATIONS)
    found(relation_id, who)
    body = json_body(CHANGES, '{"confidence": 0.7, "notes": "only for a dish with liquid"}')
    try:
        relation = store().update(relation_id, body)
    except DuplicateRelation as exc:
        raise ApiError(str(exc), 409) from None
    except RelationError as exc:
        raise ApiError(str(exc)) from None
    if relation is None:  # removed in the meantime
        raise ApiError(f"No relation {relation_id}.", 404)
    return relation_json(relation)


@bp.delete("/api/relations/<id:relation_id>")
def remove(relation_id: int):
    """Remove a relation."""
    found(relation_id, require(RELATIONS))
    store().delete(relation_id)
    current_app.logger.info("relation %s deleted", relation_id)
    return {"deleted": relation_id}
