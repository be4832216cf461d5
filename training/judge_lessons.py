"""The judge's pairs from the lessons the team wrote (data/judge-lessons/) and the questions beside every seif
(data/seif-questions/): write once, use twice.

A lesson's answering sentence is a positive, under its passage's heading as the judge reads it; its passage's other
sentences that share the most words with the question are negatives; a twin (a question the passage seems to answer
but does not) is a negative with the sentence its answered question was answered by, and with the passage's other
best-matching sentence. Only lessons of the train split are read: the wiki leads of the unseen third (a title's
SHA-256 is 1 modulo 3) are the lessons' test, never trained on.
A seif's question is a positive with its seif (or the Rema's gloss) when that passage is one sentence, the writer's
questions being about its one ruling, and a negative with the neighbouring seif of its siman. Seifim whose ref's
SHA-256 is 0 modulo 5 are left out: data/lay-questions' test split was written from them.
Does not: train (train_judge.py) or read a measurement set.
"""
import hashlib
import random
from pathlib import Path

from authoring.lessons import passages as lesson_passages
from authoring.lessons import read_rows

from checks.judge import pair_text
from checks.splitting import whole_sentences
from ingest.questions import SEIF_QUESTIONS
from training.judge_data import Pair, hardest

LESSONS = Path("data/judge-lessons")


def lay_test_seif(ref: str) -> bool:
    """Whether data/lay-questions' test split may have been written from this seif (its SHA-256 is 0 modulo 5)."""
    return int(hashlib.sha256(ref.removesuffix(", Rema").encode()).hexdigest(), 16) % 5 == 0


def lesson_pairs(rows: list[dict], passages: dict[str, list[str]], same: int = 1, split: str = "train") -> list[Pair]:
    """Pairs of one split's lessons (the test split's are held-out figures, never trained on); passages maps a
    passage id to its sentences (authoring/lessons.passages), each read under its passage's title."""
    out, answered_by = [], {}
    for row in rows:
        sentences = passages.get(row["passage"])
        if row["split"] != split or sentences is None:
            continue
        chosen = [sentences[i] for i in row["answer"] if 0 <= i < len(sentences)]
        if row["answer"]:
            answered_by[row["id"]] = chosen
        label = 1.0 if row["answer"] else 0.0
        shown = chosen if row["answer"] else answered_by.get(row["twin_of"], [])
        out += [Pair(row["id"], row["question"], pair_text(row["title"], s), label, split) for s in shown]
        others = [s for s in sentences if s not in shown]
        out += [Pair(row["id"], row["question"], pair_text(row["title"], s), 0.0, split)
                for s in hardest(row["question"], others, same)]
    return out


def seif_pairs(questions: list[dict], chunks, limit: int | None = None, seed: int = 0) -> list[Pair]:
    """Pairs of the questions beside the seifim; chunks are the Shulchan Arukh library's (their ref, heading, text)."""
    by_ref = {c.ref: c for c in chunks if c.ref}
    order = [c.ref for c in chunks if c.ref and not c.ref.endswith(", Rema")]
    after = {a: b for a, b in zip(order, order[1:]) if a.rsplit(":", 1)[0] == b.rsplit(":", 1)[0]}
    before = {b: a for a, b in after.items()}
    out = []
    rows = [q for q in questions if not lay_test_seif(q["ref"]) and q["ref"] in by_ref]
    random.Random(seed).shuffle(rows)
    for question in rows[:limit] if limit else rows:
        chunk = by_ref[question["ref"]]
        sentences = whole_sentences(chunk.text)
        if len(sentences) == 1:
            out.append(Pair(question["id"], question["text"], pair_text(chunk.heading, sentences[0]), 1.0, "train"))
        seif = question["ref"].removesuffix(", Rema")
        neighbour = after.get(seif) or before.get(seif)
        if neighbour:
            other = by_ref[neighbour]
            first = (whole_sentences(other.text) or [other.text])[0]
            out.append(Pair(question["id"], question["text"], pair_text(other.heading, first), 0.0, "train"))
    return out


def written(seif_questions: int = 0, same: int = 1, seed: int = 0,
            languages: tuple[str, ...] = ("en", "he")) -> tuple[list[Pair], dict[str, list[Pair]]]:
    """What the team wrote, as the judge's pairs: (training pairs, held-out pairs by name). The lessons' train split
    and, when seif_questions, that many of the questions beside the seifim (read against the Shulchan Arukh library
    evaluation builds with the fitted embedder); held out: the English lessons of the unseen third. languages: the
    lessons' files read (en, he)."""

    known = lesson_passages()
    lessons = [row for name in languages if (LESSONS / f"{name}.jsonl").exists()
               for row in read_rows(LESSONS / f"{name}.jsonl")]
    training = lesson_pairs(lessons, known, same)
    if seif_questions and SEIF_QUESTIONS.exists():
        training += seif_pairs(read_rows(SEIF_QUESTIONS), book_chunks(), seif_questions, seed)
    return training, {"wiki-lessons/test": lesson_pairs(lessons, known, same, split="test")}


def book_chunks(path: Path = Path("../shared/data/shulchan-arukh/shulchan_arukh_he.jsonl")):
    """The Shulchan Arukh's passages as `flask ingest` cuts them (its headings and glosses apart), read and split
    only: a judge's pairs need their text and headings, not their vectors."""
    from ingest.structure import split
    from ingest.parsers import parse_file
    from models import Chunk

    parsed = parse_file(path, path.name)
    title = parsed.title or path.stem
    return [Chunk(f"sa#{n}", "sa", title, p.text, p.start, p.end, tuple(p.section_path), p.ref, p.parent_ref,
                  p.community, p.era)
            for n, p in enumerate(split(parsed.text, title, parsed.units, parsed.section_names))]
