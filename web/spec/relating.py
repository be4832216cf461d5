"""The relations part of the API description (web/spec/__init__.py): relations between passages (web/relations.py).

A relation joins two passage keys (a canonical reference, else a passage id) with a kind, a confidence and notes;
the store checks the values (storage/relation_store.py), and web/shaping.relation_json shapes them. A reader sees a
relation only when both its passages are in documents they see: any other is a 404, as one never recorded.
Changing relations needs the relations permission (posek, reviewer, admin); listing every relation too.
"""
import json

from models import RELATION_KINDS
from storage.relation_store import MAX_KEY_CHARS, MAX_NOTES_CHARS
from web.relations import EXAMPLE, PAGE_MAX
from web.spec.common import body, json_content, ok, operation, path_param, query_param, ref
from web.validation import MAX_ID, MAX_OFFSET

TAGS = ("relations",)
NULLABLE_TEXT = {"type": ["string", "null"]}
TIME = {"type": "number", "description": "Seconds since the epoch."}
# One line with something besides blank space; blank space around it is dropped (storage/relation_store.check_key).
ONE_LINE = r"[^\x00-\x1f\x7f]*"
KEY = {"type": "string", "minLength": 1, "maxLength": MAX_KEY_CHARS,
       "pattern": rf"^{ONE_LINE}[^\s\x00-\x1f\x7f]{ONE_LINE}$",
       "description": 'A passage key: a canonical reference such as "Shulchan Arukh, Orach Chayim 318:5, Rema", or a '
                      "passage id."}
KIND = {"enum": list(RELATION_KINDS), "description": "source {kind} target."}
CONFIDENCE = {"type": "number", "minimum": 0, "maximum": 1, "description": "How sure: 1 certain."}
NOTES = {"type": ["string", "null"], "maxLength": MAX_NOTES_CHARS, "description": "Blank notes are none."}
ONE = "#/paths/~1api~1relations~1{relation_id}/"
LINKS = {name: {"operationRef": ONE + method, "parameters": {"relation_id": "$response.body#/id"}}
         for name, method in (("read", "get"), ("change", "patch"), ("remove", "delete"))}
RELATION_ID = path_param("relation_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID},
                         'The relation\'s "id".')


def not_found_or_fixed(*more: int) -> tuple[int, ...]:
    """404 for a relation the reader does not see; 409 when the server searches a fixed library; and more."""
    return (404, 409, *more)


RELATION = {
    "id": {"type": "integer", "minimum": 1}, "source": {"type": "string"}, "target": {"type": "string"},
    "kind": KIND, "confidence": {"type": "number", "minimum": 0, "maximum": 1}, "notes": NULLABLE_TEXT,
    "created_by": {"type": ["integer", "null"], "description": "The user; null: imported, or the owner."},
    "created_at": TIME, "updated_at": TIME,
    "source_he": {**NULLABLE_TEXT, "description": "The source's Hebrew label, when its names are known."},
    "target_he": NULLABLE_TEXT,
}

SCHEMAS = {
    "Relation": {
        "type": "object", "description": "source {kind} target.", "required": list(RELATION),
        "properties": RELATION, "additionalProperties": False,
    },
    "ListedRelation": {
        "type": "object", "description": "A relation in a list, with whether each of its passages is in the library.",
        "required": [*RELATION, "in_library"], "additionalProperties": False,
        "properties": {**RELATION, "in_library": {
            "type": "object", "required": ["source", "target"], "additionalProperties": False,
            "properties": {"source": {"type": "boolean"}, "target": {"type": "boolean"}}}},
    },
    "RelationPage": {
        "type": "object", "description": "A page of relations, oldest first.",
        "required": ["relations", "total", "limit", "offset"],
        "properties": {"relations": {"type": "array", "items": ref("ListedRelation"), "maxItems": PAGE_MAX},
                       "total": {"type": "integer", "minimum": 0, "description": "How many in all."},
                       "limit": {"type": "integer", "minimum": 1, "maximum": PAGE_MAX},
                       "offset": {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}},
        "additionalProperties": False,
    },
    "NewRelation": {
        "type": "object", "required": ["source", "target", "kind"], "additionalProperties": False,
        "description": "Two different passages of the library (any passage, on a personal server).",
        "properties": {"source": KEY, "target": KEY, "kind": KIND, "confidence": {**CONFIDENCE, "default": 1},
                       "notes": NOTES},
        "examples": [json.loads(EXAMPLE)],
    },
    "RelationChanges": {
        "type": "object", "minProperties": 1, "additionalProperties": False,
        "properties": {"kind": KIND, "confidence": CONFIDENCE, "notes": NOTES},
        "examples": [{"confidence": 0.7, "notes": "only for a dish with liquid"}],
    },
    "RelationDeleted": {
        "type": "object", "required": ["deleted"], "properties": {"deleted": {"type": "integer"}},
        "additionalProperties": False,
    },
}

PATHS = {
    "/api/relations": {
        "get": operation(
            "A page of the relations touching a passage, oldest first; without passage every relation, for those "
            "who may change them. Other query parameters are refused.",
            {200: ok(ref("RelationPage"))}, (409,), tags=TAGS, parameters=[
                query_param("passage", KEY, "The passage whose relations to list."),
                query_param("limit", {"type": "integer", "minimum": 1, "maximum": PAGE_MAX, "default": 50},
                            "Relations per page."),
                query_param("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET, "default": 0},
                            "Relations to skip."),
            ]),
        "post": operation(
            "Record a relation between two passages (201), or update the one with the same source, target and kind "
            "(200). 404 for a passage not in the documents the reader sees.",
            {201: {"description": "Recorded.", "content": json_content(ref("Relation")), "links": LINKS,
                   "headers": {"Location": {"required": True, "schema": {"type": "string"},
                                            "description": "The relation's URL."}}},
             200: ok(ref("Relation"), "Updated.")},
            not_found_or_fixed(413), tags=TAGS, request=body(ref("NewRelation"))),
    },
    "/api/relations/{relation_id}": {
        "get": operation("One relation.", {200: ok(ref("Relation"))}, not_found_or_fixed(), tags=TAGS,
                         parameters=[RELATION_ID]),
        "patch": operation("Change a relation's kind, confidence or notes; 409 when another relation of the same "
                           "passages has that kind.", {200: ok(ref("Relation"))}, not_found_or_fixed(413), tags=TAGS,
                           parameters=[RELATION_ID], request=body(ref("RelationChanges"))),
        "delete": operation("Remove a relation.", {200: ok(ref("RelationDeleted"))}, not_found_or_fixed(), tags=TAGS,
                            parameters=[RELATION_ID]),
    },
}
