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


class QuestionsError(ValueError):
    """A questions file that cannot be read as the module says; the message names the line and what to fix."""


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


def targets(chunks, refs: set[str], document: str | None) -> dict[str, set[str]]:
    """The documents questions go to, each with the refs of its own that they name: the one named, or else every
    canonical document holding any of the refs."""
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
    held = set().union(*reached.values()) if reached else set()
    known = {(doc_id, ref, text) for doc_id, ref, text, _ in library.store.asked_rows()} if hasattr(
        library.store, "asked_rows") else set()
    placed = [q for q in questions if q["ref"] in held]
    kept = [q for q in placed if any((d, q["ref"], q["text"]) not in known for d, refs in reached.items()
                                     if q["ref"] in refs)]  # a question kept before is not embedded again
    vectors = []
    for start in range(0, len(kept), BATCH):
        vectors.append(library.embedder.embed_queries([q["text"] for q in kept[start:start + BATCH]]))
        if progress:
            progress(min(start + BATCH, len(kept)), len(kept))
    vectors = [v for block in vectors for v in block]
    added = 0
    for doc_id, refs in reached.items():
        mine = [(q, v) for q, v in zip(kept, vectors) if q["ref"] in refs]
        added += library.add_questions(doc_id, [(q["ref"], q["language"], q["text"]) for q, _ in mine],
                                       [v for _, v in mine])
    return {"questions": len(questions), "documents": len(reached), "added": added,
            "unplaced": len(questions) - len(placed)}
