"""Training and calibration pairs for the answerability judge, from QA sets in BEIR layout (squad-dev, heq-dev).

For each question, its paragraph is split into sentences as the offline writer splits passages. A sentence
holding a gold answer is a positive; the other sentences of the paragraph, and the sentences of the paragraphs
BM25 ranks highest for the question that are not gold (what retrieval returns when the gold is missing), are
hard negatives; a sentence elsewhere that holds a gold answer is never a negative. A question whose answer
stands in more than one sentence of its paragraph is left out of training (which one answers is unclear).
Every question belongs to a split by its article's title, so no article is split between training and
measurement: train (the first 60% of titles in hash order), calibrate (the next 20%: thresholds) and test (the last 20%:
figures).
SciFact is refused: it is an unseen domain, for measurement only.
With a Miner (judge_mining.py), each question also gets the sentences the project's own search finds for it in a
large pool, its gold left out, ranked as the writer would be fooled by them: negatives that look like our mistakes.
A set written to be unanswerable in part (squad2-train-head: its questions marked `unanswerable` carry the
`plausible_answers` a careless reader would give) adds those questions with no positive: the sentence holding the
plausible answer, and the mined sentences, are negatives. Such a set is a training set whole: every question is
in the train split.
"""
import json
import random
from dataclasses import dataclass
from pathlib import Path

from training.calibrate import corpus_bm25, hard_negatives
from measuring.datasets import read_qrels, splits
from hebrew.words import content_words
from checks.splitting import split_sentences
from checks.judge import pair_text

FORBIDDEN = ("scifact", "wiki-trust", "wiki-asked", "heq-asked", "halacha-he", "sealed")
SPLITS = ("train", "calibrate", "test")
TRAINING_ONLY = ("squad2-train-head",)  # no article in common with any measurement set: train on all of it


@dataclass(frozen=True)
class Pair:
    """One (question, sentence) pair with its label and where it comes from."""

    query_id: str
    question: str
    text: str  # the sentence under its heading, as the judge reads it (judge.pair_text)
    label: float
    split: str
    answer: str = ""  # a positive's gold answer as its sentence holds it, where known (the span head's target)


def holds_answer(sentence: str, answers: list[str]) -> bool:
    """Whether the sentence holds one of the gold answers (case-insensitively)."""
    folded = sentence.casefold()
    return any(a.strip() and a.strip().casefold() in folded for a in answers)


def hardest(question: str, sentences: list[str], n: int) -> list[str]:
    """The n sentences sharing the most content words with the question."""
    asked = content_words(question)
    return sorted(sentences, key=lambda s: -len(asked & content_words(s)))[:n]


def raw_queries(folder: Path) -> list[dict]:
    """queries.jsonl's rows as they are (metadata and all)."""
    with open(folder / "queries.jsonl", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def pairs(folder: Path, same: int = 2, other: int = 2, other_docs: int = 3, seed: int = 0, miner=None,
          mined: int = 2) -> list[Pair]:
    """The labelled pairs of one BEIR QA folder, every split; with a miner, mined negatives too."""
    folder = Path(folder)
    if any(name in str(folder).lower() for name in FORBIDDEN):
        raise ValueError(f"{folder.name} is for measurement only; never train on it")
    docs, _, bm25, index_of = corpus_bm25(folder)
    qrels = read_qrels(folder)
    rng = random.Random(seed)
    whole = folder.name in TRAINING_ONLY
    split_of = splits(d.title for d in docs)
    out = []
    for row in raw_queries(folder):
        query = {"id": str(row["_id"]), "text": row["text"], **(row.get("metadata") or {})}
        trap = query.get("unanswerable") and query.get("paragraph") in index_of
        gold = [index_of[d] for d, g in qrels.get(query["id"], {}).items() if g > 0 and d in index_of]
        if trap:
            gold = [index_of[query["paragraph"]]]
        if not gold or not (query.get("answers") or trap):
            continue
        doc = docs[gold[0]]
        sentences = split_sentences(doc.text)
        answers = query.get("answers") or query.get("plausible_answers") or []
        positives = [s for s in sentences if holds_answer(s, answers)]
        if len(positives) != 1:
            continue
        split = "train" if whole else split_of[doc.title]

        def pair(title: str, sentence: str, label: float, answer: str = "") -> Pair:
            return Pair(query["id"], query["text"], pair_text(title, sentence), label, split, answer)

        held = "" if trap else next(a.strip() for a in answers if a.strip() and holds_answer(positives[0], [a]))
        out.append(pair(doc.title, positives[0], 0.0 if trap else 1.0, held))
        out += [pair(doc.title, s, 0.0) for s in hardest(query["text"], [s for s in sentences if s not in positives], same)]
        if miner is not None and split == "train":  # measured splits keep the pairs they always had
            leave_out = {f"{folder.name}/{docs[i].id}" for i in gold}
            out += [pair(title, s, 0.0) for title, s in miner.negatives(query["text"], leave_out, answers, mined)]
            continue
        elsewhere = {s: docs[i].title for i in hard_negatives(bm25, query["text"], set(gold), other_docs)
                     if split_of[docs[i].title] == split  # no sentence of another split's articles
                     for s in split_sentences(docs[i].text) if not holds_answer(s, answers)}
        out += [pair(elsewhere[s], s, 0.0) for s in hardest(query["text"], list(elsewhere), other)]
    rng.shuffle(out)
    return out
