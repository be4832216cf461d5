"""Related passages join the evidence: a ruling found brings in the gloss that argues with it, and the reverse.

After retrieval, the relations (storage/relation_store.py) that touch a passage found are read; for each of the kinds
asked for (OPPOSING in practical and deep answers, every kind for the posek), the other passage joins the hits
right after the one it relates to, unless it is there already or its document is outside the search's scope (a
document hidden from the reader, or filtered out). Both passages are marked with the relation (Hit.relation), so
the writers present the two opinions under their own references. When the reader has a community, of two opinions
the one of the reader's community (Chunk.community) comes first, except that a gloss never comes before the ruling
it glosses: with_rulings, last, puts each gloss (a passage whose ref is its ruling's and a name, "...511:2, Rema")
right after its ruling, bringing the ruling in before it when only the gloss was found (from the passages the
search ranked after those shown when it is among them), so the numbers [n] read ruling, then gloss.
Does not: score the passages it adds from the library (they were not searched for: their scores are 0), or follow
relations of the passages it added.
"""
import re
from collections.abc import Callable

from models import OPPOSING, Hit
from search.reach import allowed, around, passage
from search.view import Scope

MAX_RELATED = 4  # passages that relations may add to one answer's evidence
GLOSSATORS = ("Rema",)  # whose glosses are passages of their own, named "<ruling's ref>, <glossator>"
GLOSS_REF = re.compile(rf"^(?P<ruling>.+\d), (?:{'|'.join(GLOSSATORS)})$")  # "...511:2, Rema"


def mark(relation, other: str, direction: str) -> dict:
    """What a hit carries of a relation: its kind, the other passage's key, and which way it points."""
    return {"id": relation.id, "kind": relation.kind, "passage": other, "direction": direction,
            "confidence": relation.confidence, "notes": relation.notes}


def first(a: Hit, b: Hit, community: str | None) -> bool:
    """Whether opinion a comes before opinion b: a is of the reader's community and b is not, and a is no gloss
    on b (a gloss is read after what it glosses)."""
    return (bool(community) and a.chunk.community == community and b.chunk.community != community
            and glossed(a) != b.chunk.ref)


def glossed(hit: Hit) -> str | None:
    """The ref of the ruling a passage glosses ("...87:4" of "...87:4, Rema", whose parent it is), or None when it
    is no gloss."""
    found = GLOSS_REF.match(hit.chunk.ref or "")
    parent = hit.chunk.parent_ref  # a book's gloss names its ruling as its parent: another parent, no gloss
    return found["ruling"] if found and parent in (None, found["ruling"]) else None


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


def with_rulings(hits: list[Hit], fetch: Callable[[list[str]], dict[str, Hit]], reserve=(),
                 most: int = MAX_RELATED) -> list[Hit]:
    """The hits with each gloss right after the ruling it glosses: moved there when both were found; when only the
    gloss was, its ruling (from reserve when the search ranked it there, else fetch(refs): the library's passages
    by key, as `joining` gives them within the search's scope; at most `most` of them) is brought in at the gloss's
    place, the gloss after it."""
    present = {h.chunk.ref for h in hits if h.chunk.ref}
    wanted = list(dict.fromkeys(r for h in hits if (r := glossed(h)) and r not in present))[:most]
    spare = {h.chunk.ref: h for h in reserve if h.chunk.ref in wanted}
    missing = [r for r in wanted if r not in spare]
    rulings = {**(fetch(missing) if missing else {}), **spare}
    after: dict[str, list[Hit]] = {}  # a ruling's glosses, in the order found
    for hit in hits:
        if (ruling := glossed(hit)) and (ruling in present or ruling in rulings):
            after.setdefault(ruling, []).append(hit)
    order: list[Hit] = []
    for hit in hits:
        ruling = glossed(hit)
        if ruling in rulings and rulings[ruling] not in order:  # the gloss's place: its ruling, then its glosses
            order += [rulings[ruling], *after[ruling]]
        elif not (ruling in after and hit in after[ruling]) and hit not in order:
            order += [hit, *[g for g in after.get(hit.chunk.ref, ()) if g not in order]]
    return order
