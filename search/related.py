"""Related passages join the evidence: a ruling found brings in the gloss that argues with it, and the reverse.

After retrieval, the relations (storage/relation_store.py) that touch a passage found are read; for each of the kinds
asked for (OPPOSING in practical and deep answers, every kind for the posek), the other passage joins the hits
right after the one it relates to, unless it is there already or its document is outside the search's scope (a
document hidden from the reader, or filtered out). Both passages are marked with the relation (Hit.relation), so
the writers present the two opinions under their own references. When the reader has a community, of two opinions
the one of the reader's community (Chunk.community) comes first.
Does not: score the passages it adds (they were not searched for: their scores are 0), or follow relations
of the passages it added.
"""
from models import OPPOSING, Hit
from search.reach import allowed, around, passage
from search.view import Scope

MAX_RELATED = 4  # passages that relations may add to one answer's evidence


def mark(relation, other: str, direction: str) -> dict:
    """What a hit carries of a relation: its kind, the other passage's key, and which way it points."""
    return {"id": relation.id, "kind": relation.kind, "passage": other, "direction": direction,
            "confidence": relation.confidence, "notes": relation.notes}


def first(a: Hit, b: Hit, community: str | None) -> bool:
    """Whether opinion a comes before opinion b: a is of the reader's community and b is not."""
    return bool(community) and a.chunk.community == community and b.chunk.community != community


def joining(view, keys: list[str], scope: Scope) -> dict[str, Hit]:
    """A hit for each passage key the view holds in a document scope allows (its first chunk), with its context."""
    found = view.by_keys(keys)
    chunks = view.chunks_of([p for p, _ in found]) if found else []
    hits: dict[str, Hit] = {}
    for (position, key), chunk in zip(found, chunks):
        if chunk is None or key in hits or not allowed(scope, chunk.doc_id, view.key_of(position)):
            continue
        hit = Hit(chunk.bounded(), 0.0, 0.0, 0.0, position=int(position))
        before, after = view.neighbours(position)
        hit.context_before = before.bounded().text if before else None
        hit.context_after = after.bounded().text if after else None
        hits[key] = hit
    return hits


def passage_hit(view, ident: str, scope: Scope) -> Hit | None:
    """The passage a chunk id or a passage key (canonical reference) names, in a document scope allows (its first
    chunk, with the chunks around the passage as context); None when there is none (search/reach.py)."""
    chunks = passage(view, ident, scope)
    if not chunks:
        return None
    position, chunk = chunks[0]
    hit = Hit(chunk.bounded(), 0.0, 0.0, 0.0, position=int(position))
    before, after = around(view, chunks)
    hit.context_before = before.bounded().text if before else None
    hit.context_after = after.bounded().text if after else None
    return hit


def with_related(hits: list[Hit], view, relations, scope: Scope = Scope(), kinds=OPPOSING,
                 community: str | None = None, most: int = MAX_RELATED) -> list[Hit]:
    """The hits with the passages related to them by relations of kinds, each beside the passage it relates to.

    Args:
        hits: the evidence found, in order.
        view: the library view the hits came from (by_keys, chunks_of, neighbours).
        relations: the library's relations (of(keys, kinds)).
        scope: the documents the search was allowed (hidden ones excluded); no passage outside it joins.
        kinds: the relation kinds that bring a passage in.
        community: the reader's; of two opposing opinions, the one of this community comes first.
        most: how many passages may join.
    """
    present: dict[str, Hit] = {}
    for hit in hits:
        present.setdefault(hit.chunk.key, hit)
    if not present:
        return hits
    pairs = []  # (hit, the other passage's key, relation, direction from the hit)
    for relation in sorted(relations.of(list(present), kinds), key=lambda r: (-r.confidence, r.id)):
        for mine, other, direction in ((relation.source, relation.target, "to"),
                                       (relation.target, relation.source, "from")):
            if mine in present:
                pairs.append((present[mine], other, relation, direction))
    wanted = list(dict.fromkeys(other for _, other, _, _ in pairs if other not in present))[:most]
    joined = joining(view, wanted, scope) if wanted else {}
    order, placed = list(hits), set()
    for hit, other, relation, direction in pairs:
        partner = present.get(other) or joined.get(other)
        if partner is None:
            continue
        if hit.relation is None:
            hit.relation = mark(relation, other, direction)
        if partner.relation is None:
            partner.relation = mark(relation, hit.chunk.key, "from" if direction == "to" else "to")
        at = next(i for i, h in enumerate(order) if h is hit)
        ahead = relation.kind in OPPOSING and first(partner, hit, community)
        if other in joined and other not in placed:
            order.insert(at if ahead else at + 1, partner)
            placed.add(other)
        elif ahead and (partner_at := next(i for i, h in enumerate(order) if h is partner)) > at:
            order.insert(at, order.pop(partner_at))  # both were found: the reader's community's opinion first
    return order
