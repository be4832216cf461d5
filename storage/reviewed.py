"""Reviewed answers to similar questions, for both answer logs (storage/history.py, postgres/history.py): the SQL
each runs, the vector as each keeps it, and an item as the API shows it.

An answer is logged with the vector of its standalone question (its embedder's, embedded as a question) and that
embedder's name. `History.similar` matches a question's vector against the answers a reviewer approved or
corrected, by cosine (the vectors are unit length, so an inner product), and only against vectors of the same
embedder: a history outlives a library rebuilt with another model. SQLite reads the reviewed answers' vectors and
ranks them in numpy (reviewed answers are few); PostgreSQL ranks them with pgvector's inner product (`<#>`, in
every pgvector), without an index. Who may read what is the search's rule: a reader's own answers, or every
answer for reviewers and the owner; an answer that rests on a document hidden from the reader now (their own too,
after their tiers were narrowed) is left out, not shown withheld (its text is all an item is for).
Answers logged before vectors were kept have none and are never matched.
Does not: embed questions (web/similar.py does), or choose the threshold (search/embedders.py, SIMILAR_THRESHOLD).
"""
import json

import numpy as np

from storage.answers import readable_by

REVIEWED = ("approved", "corrected")
MAX_SIMILAR = 20  # items one request may ask for
VECTOR_COLUMNS = ("question_vector", "question_model")  # of an answers row; never in a record
NAMES = ("id", "question", "answer", "corrected_text", "review_status", "reviewer", "reviewed_at")
COLUMNS = ("a.id, a.question, a.answer, a.corrected_text, a.review_status, coalesce(u.display_name, u.name), "
           "a.reviewed_at")
FROM = f"FROM answers a LEFT JOIN users u ON u.id = a.reviewed_by WHERE a.review_status IN {REVIEWED}"

# ? : the embedder's name, the answer left out, the reader whose answers alone are read (NULL: all), whether to
# leave out answers resting on hidden documents, the hidden documents as a JSON list
SQLITE = f"""SELECT {COLUMNS}, a.question_vector {FROM} AND a.question_model = ? AND a.question_vector IS NOT NULL
    AND a.id IS NOT ? AND (? IS NULL OR a.user_id = ?)
    AND (NOT ? OR NOT EXISTS (SELECT 1 FROM json_each(a.passages) p
         WHERE json_extract(p.value, '$.doc_id') IN (SELECT value FROM json_each(?))))"""

POSTGRES = f"""SELECT {COLUMNS}, -(a.question_vector <#> %(vector)s) {FROM}
    AND a.question_model = %(model)s AND a.question_vector IS NOT NULL AND a.id IS DISTINCT FROM %(exclude)s
    AND (%(own)s::integer IS NULL OR a.user_id = %(own)s)
    AND (NOT %(hide)s OR NOT EXISTS (
         SELECT 1 FROM jsonb_array_elements(a.passages) p WHERE p->>'doc_id' = ANY(%(hidden)s)))
    AND -(a.question_vector <#> %(vector)s) >= %(threshold)s
    ORDER BY a.question_vector <#> %(vector)s, a.reviewed_at DESC LIMIT %(limit)s"""


def check_similar(vector, threshold: float, limit: int) -> np.ndarray:
    """The question's vector as float32, after checking the arguments of History.similar (ValueError otherwise)."""
    if not 1 <= limit <= MAX_SIMILAR:
        raise ValueError(f"limit must be 1 to {MAX_SIMILAR}")
    if not -1.0 <= threshold <= 1.0:
        raise ValueError("threshold is a cosine, from -1 to 1")
    return np.asarray(vector, dtype=np.float32).ravel()


def sqlite_args(model: str, reader, hidden: frozenset[str], exclude: str | None) -> tuple:
    """The arguments of SQLITE: an answer resting on a hidden document is left out when there is one."""
    user = readable_by(reader)
    hide = bool(hidden) and reader is not None
    return model, exclude, user, user, hide, json.dumps(sorted(hidden))


def postgres_args(vector: np.ndarray, model: str, threshold: float, limit: int, reader, hidden: frozenset[str],
                  exclude: str | None) -> dict:
    """The arguments of POSTGRES, as sqlite_args."""
    return {"vector": vector, "model": model, "threshold": threshold, "limit": limit, "exclude": exclude,
            "own": readable_by(reader), "hide": bool(hidden) and reader is not None, "hidden": sorted(hidden)}


def blob(vector) -> bytes | None:
    """A question's vector as SQLite keeps it: float32 bytes (None stays None)."""
    return None if vector is None else np.asarray(vector, dtype=np.float32).ravel().tobytes()


def item(row, similarity: float) -> dict:
    """A row of NAMES as the API shows it: the answer as it stands (the correction, when corrected), its review
    and reviewer's name, and the cosine of the two questions."""
    found = dict(zip(NAMES, row))
    corrected = found.pop("corrected_text")
    if found["review_status"] == "corrected" and corrected:
        found["answer"] = corrected
    return {**found, "similarity": round(float(similarity), 4)}


def nearest(rows: list, vector: np.ndarray, threshold: float, limit: int) -> list[dict]:
    """The items of rows (NAMES and the question's vector as bytes) whose cosine with vector reaches threshold,
    nearest first, the most recently reviewed first among equals; at most limit."""
    scored = []
    for row in rows:
        stored = np.frombuffer(row[-1], dtype=np.float32)
        if stored.shape == vector.shape:  # one embedder's vectors have one size; any other is not comparable
            scored.append((float(stored @ vector), row))
    scored = [s for s in scored if s[0] >= threshold]
    scored.sort(key=lambda s: (-s[0], -(s[1][6] or 0.0)))
    return [item(row[:-1], similarity) for similarity, row in scored[:limit]]
