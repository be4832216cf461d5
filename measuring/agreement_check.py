"""How often the written rules (checks/agreement.py, with sentences.about and sentences.fits) turn away a sentence
that answers: `flask --app app check-agreement FOLDER`.

For each question of a BEIR QA folder, its gold passage's first sentence that holds a gold answer is read as the
offline writer reads it (under the passage's title, with its first sentence) and the rules say whether it may
answer; the share they turn away is their cost, by the question's slot and the rule that refused. Where a set
marks questions written to be unanswerable with a plausible answer (squad2-train-head), the sentence holding
the plausible answer is checked too: the share turned away there is what the rules catch of such traps.
A set without a corpus of its own (wiki-asked) is read against the corpus given.
"""
import json
from collections import Counter
from pathlib import Path

from measuring.datasets import read_qrels
from checks.splitting import split_sentences
from ingest.corpus import read_corpus
from models import Chunk, Hit
from question.asks import read
from checks.agreement import agree
from checks.sentences import about, anchors, fits


def refusal(question: str, title: str, sentences: list[str], sentence: str) -> str | None:
    """Why the rules turn sentence away as an answer to question, or None when they let it answer."""
    asks = read(question)
    agreement = agree(asks, sentence, title, sentences[0])
    text = " ".join(sentences)
    if not about(anchors(question), Hit(Chunk(title, title, title, text, 0, len(text)), 1.0, 1.0, 1.0)):
        return "about"
    if not fits(question, sentence) or not agreement.slot:
        return "slot"
    return None if agreement.can_answer(asks) else f"subject:{agreement.subject}"


def check(folder: Path, corpus: Path | None = None) -> dict:
    """The shares of answering (and, where marked, plausible) sentences the rules turn away, with the reasons."""
    docs = {d.id: d for d in read_corpus(corpus or folder / "corpus.jsonl")}
    qrels = read_qrels(folder)
    counts = {"answers": Counter(), "plausible": Counter()}
    totals = Counter()
    with open(folder / "queries.jsonl", encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            metadata = row.get("metadata") or {}
            kind = "plausible" if metadata.get("unanswerable") else "answers"
            strings = metadata.get("plausible_answers" if kind == "plausible" else "answers") or []
            doc_id = metadata.get("paragraph") if kind == "plausible" else next(iter(qrels.get(row["_id"], {})), None)
            doc = docs.get(doc_id)
            if not strings or doc is None:
                continue
            sentences = split_sentences(doc.text)
            holding = [s for s in sentences if any(a.strip() and a.strip().casefold() in s.casefold() for a in strings)]
            if not holding:
                continue
            totals[kind] += 1
            why = refusal(row["text"], doc.title, sentences, holding[0])
            if why:
                counts[kind][(read(row["text"]).slot or "none", why)] += 1
    return {kind: {"sentences": totals[kind], "turned_away": round(sum(c.values()) / totals[kind], 4),
                   "reasons": {f"{slot}/{why}": n for (slot, why), n in c.most_common(12)}}
            for kind, c in counts.items() if totals[kind]}
