"""The lay questions written beside every seif (data/seif-questions/): gathered from the writers' shares and checked.

Each writer wrote, for each seif of a share of simanim, a question in everyday Hebrew and one in plain English, and
for a seif with a Rema gloss two more that the gloss answers. `gather` turns their lines into the shipped file, one
question a line: {"id", "ref", "language", "text", "of": "seif" | "gloss", "writer"}, the gloss's questions naming
the gloss's own ref ("..., Rema", as ingest/json_reader.py names that passage). `problems` is the script that checks
them (refs exist, every seif has its questions, no repeats, no four words copied from the seif), and `near_test`
reports how close each comes to a question of data/lay-questions' test split, so that one repeating it is dropped:
the writers never read that split; this script does, and only to keep it unseen.
Does not: search the questions (search/asked.py) or attach them to a library (ingest/questions.py).
"""
import json
import re
from pathlib import Path

from ingest.json_reader import GLOSS, seif_parts

PARTS = {"OC": "Orach Chayim", "YD": "Yoreh De'ah", "EH": "Even HaEzer", "CM": "Choshen Mishpat"}
FIELDS = {"he": ("he", "seif"), "en": ("en", "seif"), "gloss_he": ("he", "gloss"), "gloss_en": ("en", "gloss")}
WORD = re.compile(r"[\u05D0-\u05EAA-Za-z0-9']+")
COPIED = 4  # this many words in a row from the seif is copied wording
NEAR = 0.6  # word-set overlap (Jaccard) from which a question repeats a test question


def canonical(short: str) -> str:
    """A writer's short ref ("OC 318:1") as the corpus names it ("Shulchan Arukh, Orach Chayim 318:1")."""
    part, place = short.split(" ", 1)
    return f"Shulchan Arukh, {PARTS[part]} {place}"


def words(text: str) -> list[str]:
    """Case-folded words without Hebrew points."""
    return [w.lower() for w in WORD.findall(re.sub(r"[\u0591-\u05C7]", "", text))]


def normal(text: str) -> str:
    """A question as compared for repeats: its words, in order."""
    return " ".join(words(text))


def gather(shares: list[Path]) -> list[dict]:
    """The writers' output files (one per share, lines of ref, he, en, gloss_he, gloss_en) as shipped rows."""
    rows = []
    for writer, path in enumerate(shares, 1):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            record = json.loads(line)
            ref = canonical(record["ref"])
            place = record["ref"].replace(" ", "-").replace(":", "-").lower()
            for field, (language, of) in FIELDS.items():
                if record.get(field):
                    rows.append({"id": f"{place}-{field.replace('_', '-')}", "ref": ref + (", Rema" if of == "gloss" else ""),
                                 "language": language, "text": record[field].strip(), "of": of, "writer": writer})
    return rows


def seifim(corpus: Path) -> dict[str, tuple[str, str]]:
    """Each seif's ref with its ruling and its gloss ("" when it has none), as the library reads them."""
    out = {}
    for line in corpus.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        topic, ruling, gloss = seif_parts(record["he"])
        out[record["ref"]] = (f"{topic or ''} {ruling}", gloss)
    return out


def problems(rows: list[dict], corpus: Path) -> list[str]:
    """What breaks the writing rules: a ref the corpus lacks, a seif (or gloss) without its Hebrew and English
    question, a repeated question, and wording copied from the seif."""
    texts, found, seen, out = seifim(corpus), set(), {}, []
    for row in rows:
        seif = row["ref"].removesuffix(", Rema")
        if seif not in texts or (row["of"] == "gloss" and not texts[seif][1]):
            out.append(f"{row['id']}: {row['ref']} is no passage of the Shulchan Arukh")
            continue
        found.add((row["ref"], row["language"]))
        source = words(texts[seif][1] if row["of"] == "gloss" else texts[seif][0])
        runs = {tuple(source[i:i + COPIED]) for i in range(len(source) - COPIED + 1)}
        asked = words(row["text"])
        if any(tuple(asked[i:i + COPIED]) in runs for i in range(len(asked) - COPIED + 1)):
            out.append(f"{row['id']}: copies {COPIED} words in a row from its seif")
        key = normal(row["text"])
        if key in seen:
            out.append(f"{row['id']}: repeats {seen[key]}")
        seen.setdefault(key, row["id"])
    for ref, (_, gloss) in texts.items():
        for language in ("he", "en"):
            if (ref, language) not in found:
                out.append(f"{ref}: no {language} question")
            # glosses opened by הגה were written for; one in parentheses (split since issue 47) has its seif's
            if GLOSS.search(gloss) and (f"{ref}, Rema", language) not in found:
                out.append(f"{ref}, Rema: no {language} question for the gloss")
    return out


def near_test(rows: list[dict], lay_folder: Path, split: str = "test") -> dict[str, tuple[float, str]]:
    """For each row id, its closest question of a split of the lay questions (test; dev, to choose ASKED_WEIGHT as
    the test split is searched) in the same language, and the overlap of their word sets; what `drop_near` reads."""
    test_ids = {line.split("\t")[0] for line in (lay_folder / "qrels" / f"{split}.tsv").read_text().splitlines()[1:]}
    tests: dict[str, list[tuple[set, str]]] = {"he": [], "en": []}
    for line in (lay_folder / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        query = json.loads(line)
        if query["_id"] in test_ids:
            tests[query["metadata"]["language"]].append((set(words(query["text"])), query["_id"]))
    out = {}
    for row in rows:
        mine = set(words(row["text"]))
        best = max(((len(mine & theirs) / max(1, len(mine | theirs)), qid) for theirs, qid in tests[row["language"]]),
                   default=(0.0, ""))
        out[row["id"]] = best
    return out


def drop_near(rows: list[dict], closeness: dict[str, tuple[float, str]], near: float = NEAR) -> list[dict]:
    """The rows that repeat no test question (overlap below near)."""
    return [row for row in rows if closeness[row["id"]][0] < near]
