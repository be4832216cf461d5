"""The dev sets as evaluation reads them: BEIR-layout queries and qrels, sampled, and what qrels name a passage by.

A question marked `"answerable": false` in its metadata has no qrels: the library holds no answer to it, and the
honest reply is a decline (data/eval/wiki-trust). A set written to be tuned on in one half and measured on the other
marks each question's `"half"` ("tune" or "test"; data/eval/wiki-asked).

A BEIR folder holds corpus.jsonl (`_id`, `title`, `text`), queries.jsonl (`_id`, `text`, `metadata.answers`) and
qrels/<split>.tsv. Queries written against a book (the Shulchan Arukh's jsonl, say) have qrels that name refs:
a passage counts as its ref, a gloss ("..., Rema") as the seif it glosses.
"""
import hashlib
import json
import random
from pathlib import Path

from ingest.corpus import read_corpus


def read_queries(folder: Path, text_field: str | None = None) -> list[dict]:
    """Queries of queries.jsonl as {"id", "text", "answers"}; with text_field, each asked as its metadata[text_field]
    instead (halacha-he's questions in English: "en"), and those without one left out."""
    queries = []
    with open(folder / "queries.jsonl", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                row = json.loads(line)
                metadata = row.get("metadata") or {}
                text = metadata.get(text_field) if text_field else row["text"]
                if isinstance(text, str) and text.strip():
                    queries.append({"id": str(row["_id"]), "text": text, "answers": metadata.get("answers", []),
                                    "answerable": metadata.get("answerable", True) is not False,
                                    "half": metadata.get("half")})
    return queries


def read_qrels(folder: Path, split: str = "test") -> dict[str, dict[str, int]]:
    """query id -> {document id: relevance} from qrels/<split>.tsv (header line first)."""
    path = folder / "qrels" / f"{split}.tsv"
    if not path.exists():
        raise FileNotFoundError(f"{path} not found; choose a split that {folder}/qrels/ has with --split")
    qrels: dict[str, dict[str, int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            query, doc, score = line.split("\t")
            qrels.setdefault(query, {})[doc] = int(score)
    return qrels


def is_beir_corpus(path: Path) -> bool:
    """Whether path is a BEIR corpus.jsonl (records with "_id" and "text"), not a book to ingest."""
    with open(path, encoding="utf-8") as lines:
        first = next((line for line in lines if line.strip()), "{}")
    try:
        record = json.loads(first)
    except json.JSONDecodeError:
        return False
    return path.suffix == ".jsonl" and isinstance(record, dict) and {"_id", "text"} <= record.keys()


def judged_id(doc_id: str, ref: str | None) -> str:
    """What qrels name a passage by: its document, or in an ingested book its ref (a gloss by its seif's)."""
    return ref.removesuffix(", Rema") if ref else doc_id


def names_refs(judged) -> bool:
    """Whether qrels name a book's refs ("Shulchan Arukh, Orach Chayim 318:1"), not documents."""
    return all(":" in d for d in judged)


def doc_ranking(hits) -> list[str]:
    """Judged ids in the order of their best chunk."""
    seen: dict[str, None] = {}
    for hit in hits:
        seen.setdefault(judged_id(hit.chunk.doc_id, hit.chunk.ref), None)
    return list(seen)


def sample(queries: list[dict], qrels: dict, limit: int | None, seed: int) -> list[dict]:
    """The judged queries and those marked unanswerable, or a seeded random sample of limit of them."""
    judged = [q for q in queries if not q["answerable"] or any(g > 0 for g in qrels.get(q["id"], {}).values())]
    if limit and limit < len(judged):
        judged = random.Random(seed).sample(judged, limit)
    return judged


def in_judge_split(queries: list[dict], qrels: dict, corpus: Path, split: str) -> list[dict]:
    """The queries whose gold document's article is in the answerability judge's split (splits below)."""
    titles = {d.id: d.title for d in read_corpus(corpus)}
    split_of = splits(titles.values())
    return [q for q in queries if any(g > 0 and split_of.get(titles.get(d)) == split for d, g in qrels.get(q["id"], {}).items())]


def splits(titles) -> dict[str, str]:
    """Each article's split: the titles in the order of their hash, the first 60% train, 20% calibrate, 20% test."""
    ordered = sorted(set(titles), key=lambda t: hashlib.sha1(t.encode()).hexdigest())
    return {t: "train" if i < 0.6 * len(ordered) else "calibrate" if i < 0.8 * len(ordered) else "test"
            for i, t in enumerate(ordered)}
