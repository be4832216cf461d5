"""The one gate by which a passage is reached by name: a chunk id or a passage key (canonical reference).

A key may be held by several documents (two books titled "Probe Codex" both have "Probe Codex 1:2"), and some of
them may be hidden from the reader. `passage` gives the chunks of the passage in the first document the reader's
scope allows, and `around` the chunks just before and after them, which are of that same document. Every route that
reaches a passage by id or reference (MCP fetch, a writer's get_passage) goes through here; relations join their
partners through search/related.py, which asks the same question of each chunk (`allowed`).
Does not: search, or decide who may read what (the caller's Scope says it: web/auth.py, storage hidden_documents).
"""
from models import Chunk
from search.view import Scope


def allowed(scope: Scope, doc_id: str, key: int | None = None) -> bool:
    """Whether a search over scope may return a passage of this document (with this chunk key, when scope names
    the chunks of sections)."""
    return ((scope.documents is None or doc_id in scope.documents) and doc_id not in scope.excluded
            and (scope.chunks is None or key in scope.chunks))


def passage(view, ident: str, scope: Scope) -> list[tuple[int, Chunk]]:
    """(position, chunk) of each chunk of the passage ident names, in order, all of one document that scope
    allows; [] when there is none. A chunk id names its own document's passage, or nothing when that is hidden."""
    document = None
    position = view.by_id(ident)
    if position is not None:
        chunk = view.chunks_of([position])[0]
        if chunk is None or not allowed(scope, chunk.doc_id, view.key_of(position)):
            return []
        ident, document = chunk.key, chunk.doc_id
    found = view.by_keys([ident])
    chunks = view.chunks_of([p for p, _ in found]) if found else []
    kept = [(p, c) for (p, _), c in zip(found, chunks)
            if c is not None and allowed(scope, c.doc_id, view.key_of(p)) and document in (None, c.doc_id)]
    return [(p, c) for p, c in kept if c.doc_id == kept[0][1].doc_id]


def around(view, chunks: list[tuple[int, Chunk]]) -> tuple[Chunk | None, Chunk | None]:
    """The chunk before a passage's first chunk and after its last, in its own document (None at either end)."""
    before, _ = view.neighbours(chunks[0][0])
    _, after = view.neighbours(chunks[-1][0])
    return before, after
