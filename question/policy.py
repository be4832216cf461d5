"""How much a question searches: passages and candidates by its query type, and by the mode a reader asks in.

The query type is not decoration: it picks how many candidates retrieval takes and how many passages it shows
(and the answer style the writer is asked for, writers/prompt.py).
"""

# Per query type: candidates from each retriever, passages shown and given to the writer.
QUERY_POLICIES = {
    "factual_lookup": {"candidates": 100, "top_k": 4},  # one fact: a shallow, precise search
    "explanation": {"candidates": 200, "top_k": 5},
    "reasoning": {"candidates": 200, "top_k": 6},  # weighs several facts: more evidence
    "calculation": {"candidates": 200, "top_k": 5},
}
SECOND_LOOK = 20  # the search's depth: passages after those shown are the offline writer's second look
# How a reader wants the sources taught (the seeds' modes): practical as the query type asks; deep research
# takes twice the passages (at most DEEP_MAX) and searches once more for what any question's passages miss.
MODES = ("practical", "deep", "posek")
DEEP_MAX = 10
