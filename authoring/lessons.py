"""The judge's lessons (data/judge-lessons/): questions over passages, each with the sentence that answers it or none.

Writers read a passage's numbered sentences (a default library lead, or a heq-dev paragraph of the judge's train
split) and wrote questions that a sentence answers, each followed by one or two twins: questions the passage seems
to answer but does not (a neighbouring subject, another ordinal, another attribute, another time), the mistakes the
judge makes. `gather` turns their lines into the shipped rows: {"id", "language", "set", "passage", "title",
"question", "answer" (the answering sentences' numbers in the passage as checks/splitting.whole_sentences splits it,
[] for a twin), "sentences" (their text for a lead; [] for heq-dev, whose text stays in ../shared), "type", "twin",
"twin_of", "split", "writer"}. The split is by the passage's title: a lead whose title's SHA-256 is 1 modulo 3 is in the unseen third,
never trained on (split "test"); every other lead is "train". `problems` checks what a script can: sentences that
are the passage's own, twins that follow an answered question, no repeats, and no lesson of an unseen lead marked
for training.
Does not: train (training/judge_lessons.py reads the rows) or read any measurement set.
"""
import hashlib
import json
import re
from pathlib import Path

from checks.splitting import whole_sentences

WIKI = Path("data/downloads/wiki/corpus.jsonl")  # the default library's leads, as `make library` converts them
HEQ = Path("../shared/data/heq-dev/corpus.jsonl")

TYPES = {"who", "when", "where", "how-many", "how-far", "how-big", "what-is", "why", "how", "comparison",
         "tell-me-about", "which", "what"}
TWINS = {"subject", "ordinal", "attribute", "time", "other"}


def read_rows(path: Path) -> list[dict]:
    """The rows of a JSON Lines file (the lessons, the seif questions)."""
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def unseen(title: str) -> bool:
    """Whether a lead is in the third kept unseen: its title's SHA-256 (UTF-8, as a number) is 1 modulo 3."""
    return int(hashlib.sha256(title.encode("utf-8")).hexdigest(), 16) % 3 == 1


def normal(text: str) -> str:
    """A question as compared for repeats."""
    return " ".join(re.findall(r"[\w']+", text.casefold()))


def gather(pairs: list[tuple[Path, Path]], language: str, source: str) -> list[dict]:
    """The lessons of (writer's share, writer's output) files: the share gives each passage's numbered sentences."""
    rows = []
    for writer, (share, written) in enumerate(pairs, 1):
        passages = {p["id"]: p for p in map(json.loads, share.read_text(encoding="utf-8").splitlines())}
        last_answered = None
        for number, line in enumerate(written.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            lesson = json.loads(line)
            passage = passages[lesson["id"]]
            chosen = lesson.get("s")
            chosen = [] if chosen is None else chosen if isinstance(chosen, list) else [chosen]
            row_id = f"{source}-{writer}-{number:05d}"
            if chosen:
                last_answered = (lesson["id"], row_id)
            rows.append({
                "id": row_id, "language": language, "set": source, "passage": lesson["id"], "title": passage["title"],
                "question": lesson["q"].strip(), "answer": chosen,
                "sentences": [passage["sentences"][str(i)] for i in chosen] if source == "wiki" else [],
                "type": lesson.get("type"), "twin": lesson.get("twin"),
                "twin_of": last_answered[1] if not chosen and last_answered and last_answered[0] == lesson["id"] else None,
                "split": "test" if source == "wiki" and unseen(passage["title"]) else "train", "writer": writer})
    return rows


def without_repeats(rows: list[dict]) -> list[dict]:
    """The rows less any whose question repeats an earlier one in its language (two writers asked the same of two
    leads), the test split's kept first, so no question is both trained on and measured."""
    seen, kept = set(), set()
    for row in sorted(rows, key=lambda r: r["split"] != "test"):
        key = (row["language"], normal(row["question"]))
        if key not in seen:
            seen.add(key)
            kept.add(row["id"])
    return [row for row in rows if row["id"] in kept]


def problems(rows: list[dict], passages: dict[str, list[str]]) -> list[str]:
    """What breaks the lessons' rules; passages maps a passage id to its sentences."""
    out, seen = [], {}
    for row in rows:
        where = row["id"]
        sentences = passages.get(row["passage"])
        if sentences is None:
            out.append(f"{where}: passage {row['passage']!r} is not in the library")
        elif any(not 0 <= i < len(sentences) for i in row["answer"]) or any(
                s != sentences[i] for s, i in zip(row["sentences"], row["answer"])):
            out.append(f"{where}: an answering sentence is not one of {row['passage']}'s")
        if row["type"] not in TYPES:
            out.append(f"{where}: type {row['type']!r}")
        if not row["answer"] and (row["twin"] not in TWINS or row["twin_of"] is None):
            out.append(f"{where}: a question no sentence answers must be a twin following an answered question")
        if row["split"] == "train" and row["set"] == "wiki" and unseen(row["title"]):
            out.append(f"{where}: {row['title']} is in the unseen third, never trained on")
        key = (row["language"], normal(row["question"]))
        if key in seen:
            out.append(f"{where}: repeats {seen[key]}")
        seen.setdefault(key, where)
    return out


def passages(wiki: Path = WIKI, heq: Path = HEQ) -> dict[str, list[str]]:
    """Every passage a lesson may name, as its sentences: the default library's leads by id (title with
    underscores) and heq-dev's paragraphs by id, each split as the writers read it."""
    out = {}
    for path, key in ((wiki, lambda r: r["title"].replace(" ", "_")), (heq, lambda r: r["_id"])):
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                out[key(record)] = whole_sentences(record["text"])
    return out


def counts(rows: list[dict]) -> dict:
    """Lessons by split, answered or twin, type and twin kind: what the card reports."""
    out: dict = {"lessons": len(rows), "passages": len({r["passage"] for r in rows}), "by_split": {}, "by_type": {},
                 "by_twin": {}}
    for row in rows:
        split = out["by_split"].setdefault(row["split"], {"answered": 0, "twins": 0})
        split["answered" if row["answer"] else "twins"] += 1
        out["by_type"][row["type"]] = out["by_type"].get(row["type"], 0) + 1
        if row["twin"]:
            out["by_twin"][row["twin"]] = out["by_twin"].get(row["twin"], 0) + 1
    return out
