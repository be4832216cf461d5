"""The (question, passage) pairs the library's embedder is fitted on, built without any evaluation question.

From the Shulchan Arukh (its jsonl, as ../shared/data/shulchan-arukh gives it):
  - heading: a siman's topic ("דין השכמת הבוקר") against the text of one of its seifim, without the heading;
  - gloss: a gloss of the Rema against the ruling it glosses;
  - glossary: an everyday or English phrase of data/glossary.tsv against a seif that holds the words the
    glossary gives for it (every slot's first word).
From heq-dev: a question of the train split (the answerability judge's split by article) against its paragraph.
From data/lay-questions (issue 35): a lay question of its train split against each seif that answers it; its test
split is refused. From ../shared/data/shulchan-arukh-commentary-pairs: a commentary passage (Ba'er Hetev, Biur
Halacha, the Kitzur) against the seif it comments on.
Each pair has a group (a siman, a paragraph): a batch never holds two pairs of one group, since their passages
would count against each other. halacha-he, wiki-trust and sealed sets are refused (judge_data.FORBIDDEN).
"""
import json
import random
import re
from pathlib import Path
from typing import NamedTuple

from measuring.datasets import read_qrels, read_queries, splits
from training.judge_data import FORBIDDEN
from hebrew.glossary import GLOSSARY
from ingest.corpus import read_corpus
from ingest.json_reader import seif_parts

WORD = re.compile(r"[\u05D0-\u05EA\"'״׳]+")
GLOSS_WORD = "הגה"  # what a gloss of the Rema opens with
PREFIXES = "ובהל"  # not מ, ש or כ: "מכירה" (a sale) is not "כירה" (a stove)


class Pair(NamedTuple):
    """A question-like text, the passage it should find, where the pair comes from and its group; negative: a
    passage our own search ranks high for the query that does not answer it (embedder_negatives.py), or ""."""

    query: str
    passage: str
    source: str
    group: str
    negative: str = ""


def seif_texts(path: Path) -> dict[str, str]:
    """Each seif's text by ref, as the pairs read it: the ruling and its gloss, without the siman's topic."""
    texts = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        _, ruling, gloss = seif_parts(item["he"])
        gloss = gloss.removeprefix(GLOSS_WORD).strip(" :")
        texts[item["ref"]] = ruling.strip() + (" " + gloss if gloss else "")
    return texts


def siman_of(ref: str) -> str:
    """"Shulchan Arukh, Orach Chayim 318:3" -> "Shulchan Arukh, Orach Chayim 318"."""
    return ref.rsplit(":", 1)[0]


def lay_questions(folder: Path, texts: dict[str, str], split: str = "train") -> list[Pair]:
    """Each lay question of the split against each seif that answers it (grouped by siman)."""
    if split != "train":
        raise ValueError(f"the lay questions' {split} split is for measurement only; train on its train split")
    questions = {q["id"]: q["text"] for q in read_queries(Path(folder))}
    qrels = read_qrels(Path(folder), split)
    return [Pair(questions[qid], texts[ref], "lay", siman_of(ref))
            for qid, refs in qrels.items() for ref, grade in refs.items() if grade > 0 and ref in texts]


def commentary(path: Path, texts: dict[str, str], rng: random.Random, limit: int | None = None,
               max_chars: int = 600) -> list[Pair]:
    """Commentary passages against the seif each comments on (a sample of limit; each cut to max_chars)."""
    pairs = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if item["ref"] in texts and len(item["text"].split()) >= 4:
            pairs.append(Pair(item["text"][:max_chars], texts[item["ref"]], "commentary", siman_of(item["ref"])))
    return rng.sample(pairs, min(limit, len(pairs))) if limit else pairs


def shulchan_arukh(path: Path, rng: random.Random, per_siman: int = 2, glosses: int = 1500,
                   glossary: Path = GLOSSARY, per_phrase: int = 2) -> list[Pair]:
    """Heading, gloss and glossary pairs of the Shulchan Arukh's jsonl."""
    seifim, topics = [], {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        siman = item["ref"].rsplit(":", 1)[0]
        topic, ruling, gloss = seif_parts(item["he"])  # as ingest reads it (ingest/json_reader.py)
        if topic is not None:
            topics[siman] = topic
        seifim.append((siman, ruling.strip(), gloss.removeprefix(GLOSS_WORD).strip(" :")))
    out = []
    by_siman: dict[str, list[str]] = {}
    for siman, ruling, rema in seifim:
        by_siman.setdefault(siman, []).append(ruling + (" " + rema if rema else ""))
    for siman, texts in by_siman.items():
        if topics.get(siman):
            out += [Pair(topics[siman], t, "heading", siman) for t in rng.sample(texts, min(per_siman, len(texts)))]
    glossed = [(s, r, g) for s, r, g in seifim if g and len(r.split()) >= 4 and len(g.split()) >= 4]
    out += [Pair(g, r, "gloss", s) for s, r, g in rng.sample(glossed, min(glosses, len(glossed)))]
    whole = [(s, r + " " + g, set(WORD.findall(r + " " + g))) for s, r, g in seifim]
    for phrase, words in glossary_entries(glossary):
        holding = [(s, t) for s, t, held in whole if all(held & with_prefixes(w) for w in words)]
        out += [Pair(phrase, t, "glossary", s) for s, t in rng.sample(holding, min(per_phrase, len(holding)))]
    return out


def with_prefixes(word: str) -> set[str]:
    """word as it may stand in the text: alone or after one or two of the letters ו ב ה ל."""
    return {word} | {p + word for p in PREFIXES} | {p + q + word for p in PREFIXES for q in PREFIXES}


def glossary_entries(path: Path) -> list[tuple[str, list[str]]]:
    """(phrase, the first word of each slot) of every glossary line."""
    entries = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        phrase, slots = line.split("\t", 1)
        entries.append((phrase.strip(), [slot.split("/")[0] for slot in slots.split()]))
    return entries


def qa_set(folder: Path) -> list[Pair]:
    """A BEIR QA folder's questions of the judge's train split against their paragraphs."""
    folder = Path(folder)
    if any(name in folder.name.lower() for name in FORBIDDEN):
        raise ValueError(f"{folder.name} is for measurement only; never train on it")
    docs = {d.id: d for d in read_corpus(folder / "corpus.jsonl")}
    split_of = splits(d.title for d in docs.values())
    qrels = read_qrels(folder)
    out = []
    for query in read_queries(folder):
        gold = [d for d, g in qrels.get(query["id"], {}).items() if g > 0 and d in docs]
        if gold and split_of[docs[gold[0]].title] == "train":
            out.append(Pair(query["text"], docs[gold[0]].text, folder.name, gold[0]))
    return out


def batches(pairs: list[Pair], size: int, rng: random.Random) -> list[list[Pair]]:
    """pairs shuffled into batches of size in which no group appears twice (the last may be smaller)."""
    pending = rng.sample(pairs, len(pairs))
    out = []
    while pending:
        batch, groups, left = [], set(), []
        for pair in pending:
            if len(batch) < size and pair.group not in groups:
                batch.append(pair)
                groups.add(pair.group)
            else:
                left.append(pair)
        out.append(batch)
        pending = left
    return out
