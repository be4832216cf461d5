"""One more search for a reasoning question whose passages miss some of its words.
Does not: decide when a question gets it (the pipeline does: reasoning questions and deep research).
"""
from hebrew.words import content_words, tokenize
from models import Hit

FOLLOW_UP_ADDED = 2  # passages a reasoning question's one follow-up retrieval may add


def search_missing_words(question: str, hits: list[Hit], search) -> tuple[list[Hit], dict | None]:
    """One more retrieval, never more, when the evidence for a reasoning question is weak.

    Weak means that content words of the question occur in none of the passages: the search missed a part
    of what the question asks. The missing words are searched alone and up to FOLLOW_UP_ADDED new passages
    are added after the first ones (their scores belong to another query, so they are not merged into one order).
    """
    found = set().union(*(content_words(f"{h.chunk.title} {h.chunk.text}") for h in hits)) if hits else set()
    asked = content_words(question)
    missing = [w for w in dict.fromkeys(tokenize(question)) if w in asked and w not in found]
    if not missing:
        return hits, None
    query = " ".join(missing)
    seen = {h.chunk.id for h in hits}
    added = [h for h in search(query, len(hits) + FOLLOW_UP_ADDED) if h.chunk.id not in seen][:FOLLOW_UP_ADDED]
    return hits + added, {"query": query, "added": len(added)}
