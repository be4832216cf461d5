"""Relations between passages on each backend (the library's SQLite store, and PostgreSQL): add and upsert, update,
delete, read by passage in either direction, list, which documents hold a passage, the rules on every field, and
the chunks of a passage in the current view."""
import pytest

from builders import GLOSS, OTHER, SEIF, ruled_entry, ruled_library
from models import Relation
from storage.relation_store import DuplicateRelation, RelationError


@pytest.fixture
def library(backend):
    unreferenced = ruled_entry("notes", [(None, None, None, "A note without a reference.")])
    return ruled_library(backend, [ruled_entry(), unreferenced])


def test_add_upserts_and_get_update_delete(library):
    relations = library.relations
    made, created = relations.add(GLOSS, SEIF, "argues_with", 0.85, "the custom is strict", created_by=7)
    assert created and isinstance(made, Relation) and made.id > 0
    assert (made.source, made.target, made.kind, made.confidence, made.notes, made.created_by) == (
        GLOSS, SEIF, "argues_with", 0.85, "the custom is strict", 7)
    again, created = relations.add(f"  {GLOSS} ", SEIF, "argues_with", 0.6)  # the same three: updated, keys trimmed
    assert not created and again.id == made.id and again.confidence == 0.6 and again.notes is None
    assert again.created_at == made.created_at and again.updated_at >= made.updated_at
    other, created = relations.add(GLOSS, SEIF, "contextualizes")  # another kind is another relation
    assert created and other.id != made.id and other.confidence == 1.0

    changed = relations.update(made.id, {"kind": "minhag_override", "notes": "Ashkenazi custom"})
    assert (changed.kind, changed.notes, changed.confidence) == ("minhag_override", "Ashkenazi custom", 0.6)
    with pytest.raises(DuplicateRelation, match="already has a relation contextualizes"):
        relations.update(made.id, {"kind": "contextualizes"})
    assert relations.update(999_999, {"confidence": 0.5}) is None
    assert relations.get(made.id) == changed
    assert relations.delete(made.id) and not relations.delete(made.id) and relations.get(made.id) is None


def test_of_finds_relations_in_either_direction_and_by_kind(library):
    relations = library.relations
    argues, _ = relations.add(GLOSS, SEIF, "argues_with", 0.9)
    quotes, _ = relations.add(OTHER, SEIF, "quotes")
    unrelated, _ = relations.add(OTHER, "Tur, Orach Chayim 318", "based_on")
    assert [r.id for r in relations.of([SEIF])] == [argues.id, quotes.id]  # SEIF is the target of both
    assert [r.id for r in relations.of([GLOSS])] == [argues.id]  # and GLOSS the source
    assert [r.id for r in relations.of([SEIF, OTHER], kinds=("argues_with", "minhag_override"))] == [argues.id]
    assert [r.id for r in relations.of([OTHER, OTHER])] == [quotes.id, unrelated.id]
    assert relations.of(["nothing"]) == [] and relations.of([]) == []

    page, total = relations.list(limit=2)
    assert total == 3 and [r.id for r in page] == [argues.id, quotes.id]
    assert [r.id for r in relations.list(limit=2, offset=2)[0]] == [unrelated.id]
    assert relations.list(passage=OTHER)[1] == 2


def test_holders_name_the_documents_of_a_passage_by_ref_or_by_id(library):
    held = library.relations.holders([SEIF, GLOSS, "notes#0", "Tur, Orach Chayim 318", "sa#0"])
    # a passage with a reference is named by it, not by its id; one without is named by its id
    assert held == {SEIF: {"sa"}, GLOSS: {"sa"}, "notes#0": {"notes"}}


def test_the_view_finds_a_passage_s_chunks_by_key(library):
    view = library.current()
    found = view.by_keys([GLOSS, "notes#0", "absent"])
    assert sorted(key for _, key in found) == sorted([GLOSS, "notes#0"])
    chunks = view.chunks_of([position for position, _ in found])
    assert {c.key for c in chunks} == {GLOSS, "notes#0"} and {c.community for c in chunks} == {"Ashkenazi", None}
    assert view.by_keys([]) == []


@pytest.mark.parametrize("fields, message", [
    ((GLOSS, GLOSS, "argues_with"), "the same passage"),
    (("", SEIF, "argues_with"), '"source" must be a passage key'),
    ((GLOSS, None, "argues_with"), '"target" must be a passage key'),
    ((GLOSS, "x" * 301, "argues_with"), "at most 300"),
    ((GLOSS, "two\nlines", "argues_with"), "one line"),
    ((GLOSS, SEIF, "disputes"), '"kind" must be one of argues_with, minhag_override'),
    ((GLOSS, SEIF, "argues_with", 1.5), '"confidence" must be a number from 0 to 1'),
    ((GLOSS, SEIF, "argues_with", True), '"confidence"'),
    ((GLOSS, SEIF, "argues_with", "high"), '"confidence"'),
    ((GLOSS, SEIF, "argues_with", 1, 42), '"notes" must be text'),
])
def test_bad_relations_are_refused_with_what_to_send(library, fields, message):
    with pytest.raises(RelationError, match=message):
        library.relations.add(*fields)
    assert library.relations.list()[1] == 0


def test_updates_are_checked_too(library):
    made, _ = library.relations.add(GLOSS, SEIF, "argues_with")
    for changes, message in (({}, "Send one or more of kind"), ({"source": "x"}, "source cannot be changed"),
                             ({"confidence": -0.1}, "from 0 to 1"), ({"kind": "overrides"}, "must be one of")):
        with pytest.raises(RelationError, match=message):
            library.relations.update(made.id, changes)
    assert library.relations.get(made.id) == made
