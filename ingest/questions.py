"""Questions written beside a book's passages: read from a file, embedded, and kept with the document they belong to.

A questions file is JSON Lines, one question a line: {"id", "ref", "language": "he" | "en", "text"}, where ref is a
passage's canonical ref ("Shulchan Arukh, Orach Chayim 318:1", or "..., Rema" for the gloss). The questions go to
one document named by the caller, or else to every canonical document of the library that holds those refs: the
tier is what vouches for them, so an upload that reuses a book's refs never borrows its questions. search/asked.py
searches them; nothing shows them.
Does not: search (search/asked.py), or write questions (data/seif-questions/README.md says how they were written).
"""
import json
from pathlib import Path

LANGUAGES = ("he", "en")
BATCH = 256
GLOSS = ", Rema"  # how ingest/json_reader.py names the passage of a seif's gloss
SEIF_QUESTIONS = Path("data/seif-questions/questions.jsonl")  # written beside the Shulchan Arukh's seifim (issue 46)


class QuestionsError(ValueError):
    """A questions file that cannot be read as the module says; the message names the line and what to fix."""


def seif_questions() -> Path | None:
    """The questions written beside the Shulchan Arukh's seifim, when the checkout has them: a book is searched with
    them when it is measured or its looks recorded, as the library `make shulchan-arukh` builds is."""
    return SEIF_QUESTIONS if SEIF_QUESTIONS.exists() else None


def read_questions(path: Path) -> list[dict]:
    """The questions of a file, each checked to have a ref, a language (he or en) and a text."""
    out = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise QuestionsError(f"{path}:{number} is not JSON ({exc.msg}); write one question object a line") from None
            if not isinstance(row, dict) or not all(isinstance(row.get(k), str) and row[k].strip()
                                                    for k in ("ref", "language", "text")):
                raise QuestionsError(f"{path}:{number} needs the strings ref, language and text")
            if row["language"] not in LANGUAGES:
                raise QuestionsError(f"{path}:{number}: language is {row['language']!r}; write one of {', '.join(LANGUAGES)}")
            out.append(row)
    return out


def placed(ref: str, held: set[str]) -> str | None:
    """The ref a question is kept under in a document holding the refs held: its own, or, for a seif that is all the
    Rema's gloss (ingest/json_reader.py reads it as its gloss alone), the gloss's; None when neither is there."""
    return ref if ref in held else f"{ref}{GLOSS}" if f"{ref}{GLOSS}" in held else None


def targets(chunks, refs: set[str], document: str | None) -> dict[str, set[str]]:
    """The documents questions go to, each with the refs of its own that they name: the one named, or else every
    canonical document holding any of the refs."""
    refs = refs | {f"{ref}{GLOSS}" for ref in refs}
    found: dict[str, set[str]] = {}
    for chunk in chunks:
        if chunk.ref in refs and (chunk.doc_id == document if document else chunk.tier == "canonical"):
            found.setdefault(chunk.doc_id, set()).add(chunk.ref)
    return found


def attach(library, path: Path, document: str | None = None, progress=None) -> dict:
    """Embed the questions of the file at path and keep them beside the passages they name; returns counts:
    questions read, documents reached, questions kept (new ones), and those whose ref no target holds."""
    questions = read_questions(Path(path))
    reached = targets(library.current().chunks, {q["ref"] for q in questions}, document)
    if document and not reached:
        raise QuestionsError(f"document {document!r} holds none of the refs in {path}; name the document the "
                             "questions were written for")
    known = {(doc_id, ref, text) for doc_id, ref, text, _ in library.store.asked_rows()} if hasattr(
        library.store, "asked_rows") else set()
    where = {doc_id: [placed(q["ref"], refs) for q in questions] for doc_id, refs in reached.items()}
    reaching = [i for i in range(len(questions)) if any(w[i] for w in where.values())]
    kept = [i for i in reaching if any(w[i] and (d, w[i], questions[i]["text"]) not in known
                                       for d, w in where.items())]  # a question kept before is not embedded again
    vectors = []
    for start in range(0, len(kept), BATCH):
        vectors.append(library.embedder.embed_queries([questions[i]["text"] for i in kept[start:start + BATCH]]))
        if progress:
            progress(min(start + BATCH, len(kept)), len(kept))
    vectors = [v for block in vectors for v in block]
    added = 0
    for doc_id, w in where.items():
        mine = [(i, v) for i, v in zip(kept, vectors) if w[i]]
        added += library.add_questions(doc_id, [(w[i], questions[i]["language"], questions[i]["text"]) for i, _ in mine],
                                       [v for _, v in mine])
    return {"questions": len(questions), "documents": len(reached), "added": added,
            "unplaced": len(questions) - len(reaching)}
