"""The English lessons' test part (data/judge-lessons/en.jsonl, split "test": leads of the unseen third), asked end
to end over the default library: issue 45's English target beside wiki-asked.

A lesson that a sentence of its lead answers is right when the answer's first sentence is that sentence, cited to
its lead: it holds at least RECALL of the sentence's words (an editor's bracketed insertion and markers aside).
A twin (a question its lead does not answer, though one of its sentences seems to) is right unless the answer's
first sentence cites its lead: the lookalike it was written to catch. Declining is right, and so is an answer from
another lead, which the library may well hold (a twin asks of a neighbouring subject). Balanced accuracy with the
fact first is the mean of the two shares; "declined_quoting_gold" counts answerable lessons declined though what
the decline quotes is their sentence.
"""
import json
import random
import re
import sys
from pathlib import Path

from tqdm import tqdm

from measuring.evaluate import MARKER, first_sentence
from measuring.metrics import normalize_answer

LESSONS = Path("data/judge-lessons/en.jsonl")
RECALL = 0.8
BRACKETED = re.compile(r"\[[^\]\d][^\]]*\]|\[\d+\]")  # "[Jupiter]" and "[3]"


def read_lessons(path: Path = LESSONS, split: str = "test", limit: int | None = None, seed: int = 0) -> list[dict]:
    """The lessons of a split, or a seeded sample of limit of them."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if r["split"] == split and r.get("set", "wiki") == "wiki"]
    return random.Random(seed).sample(rows, limit) if limit and limit < len(rows) else rows


def holds(text: str, sentence: str) -> bool:
    """Whether text holds at least RECALL of sentence's words."""
    said = set(normalize_answer(BRACKETED.sub(" ", text)).split())
    words = normalize_answer(sentence).split()
    return bool(words) and sum(w in said for w in words) / len(words) >= RECALL


def first_cites(answer, first: str, title: str) -> bool:
    """Whether the answer's first sentence (first) cites a passage of the lead titled title."""
    titles = {c.n: c.title for c in answer.citations}
    return any(titles.get(int(n)) == title for n in MARKER.findall(first))


def evaluate_lessons(pipeline, lessons: list[dict]) -> dict:
    """The figures of the module docstring, over lessons asked through pipeline."""
    right = {True: 0, False: 0}
    count = {True: 0, False: 0}
    answered = {True: 0, False: 0}
    quoting = valid = given = 0
    for lesson in tqdm(lessons, desc="lessons", file=sys.stderr):
        answerable = bool(lesson["answer"])
        answer = pipeline.ask(lesson["question"]).answer
        valid += len(answer.citations)
        given += len(answer.citations) + len(answer.invalid_citations)
        count[answerable] += 1
        answered[answerable] += not answer.declined
        first = first_sentence(answer.text)
        own = not answer.declined and first_cites(answer, first, lesson["title"])
        if answerable:
            right[True] += own and any(holds(first, s) for s in lesson["sentences"])
            quoting += answer.declined and any(holds(answer.text, s) for s in lesson["sentences"])
        else:
            right[False] += not own
    share = {k: right[k] / max(1, count[k]) for k in (True, False)}
    return {"lessons": len(lessons), "answerable": count[True], "twins": count[False],
            "answered_rate": round(answered[True] / max(1, count[True]), 4),
            "answered_fact_first": round(share[True], 4),
            "twins_answered_rate": round(answered[False] / max(1, count[False]), 4),
            "twins_not_fooled": round(share[False], 4),
            "declined_quoting_gold": round(quoting / max(1, count[True]), 4),
            "citation_valid": round(valid / given, 4) if given else 1.0,
            "balanced_accuracy_fact_first": round((share[True] + share[False]) / 2, 4)}
