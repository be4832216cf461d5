"""Query expansion learned from our lay questions: a word people ask with, mapped to the words its seifim use.

For every question of the lay questions' train split and the seifim that answer it, each word of the question
(as the glossary matches words: hebrew/glossary.py) is counted against each search term of those seifim (as BM25
indexes them: hebrew/analyzer.py). A term is a word's expansion when the word's questions find it in their
seifim far more often than seifim hold it at all (lift), in at least min_count questions and share of them, and
the term is rare in the book (a word that half the seifim hold finds nothing). Words most questions hold ("מותר",
"can") are never keys. Each key keeps its best max_terms terms, by count times log lift.
The result is a table like data/glossary.tsv, written to data/glossary-learned.tsv with a header saying how it was
made; hebrew/glossary.py adds its words to BM25's query words, after the hand-written lines, for the keys the
hand-written glossary does not hold.
Does not: read a test split (refused), or change dense search's text.
"""
import math
from collections import Counter
from pathlib import Path

from hebrew.analyzer import HEBREW, analyze, strip_prefixes
from hebrew.glossary import _tokens, load
from hebrew.words import STOP_WORDS
from measuring.datasets import read_qrels, read_queries
from training.embedder_pairs import seif_texts

COMMON = 0.06  # a word in more of the questions than this is no key
RARE = 0.02  # a term in more of the seifim than this is no expansion


def keys_of(question: str) -> set[str]:
    """The words of a question the glossary would match (a Hebrew word also without its prefix letters)."""
    words = set()
    for token in _tokens(question):
        words.add(token)
        if HEBREW.search(token):
            words.update(strip_prefixes(token))
    return {w for w in words if len(w) > 2 and w not in STOP_WORDS}


def base_word(term: str, written: set[str]) -> bool:
    """Whether a term is a word the text writes, and not one of its words with a prefix letter (whose base form is
    its own candidate) or a cut-off remainder ("וס" of כוס)."""
    return len(term) > 2 and term in written and not any(form in written for form in strip_prefixes(term))


def learn(folder: Path, book: Path, split: str = "train", min_count: int = 3, min_share: float = 0.25,
          min_lift: float = 5.0, max_terms: int = 2, common: float = COMMON, rare: float = RARE) -> dict[str, list[tuple[str, int, float]]]:
    """word -> [(term, questions, lift)] learned from the split's questions and their seifim."""
    if "test" in split:
        raise ValueError(f"the lay questions' {split} split is for measurement only; learn from a train split")
    texts = seif_texts(book)
    terms_of = {ref: set(analyze(text)) for ref, text in texts.items()}
    written = {token for text in texts.values() for token in _tokens(text)}  # words as the text writes them
    in_seifim = Counter(term for terms in terms_of.values() for term in terms)
    questions = {q["id"]: q["text"] for q in read_queries(Path(folder))}
    qrels = read_qrels(Path(folder), split)
    asked, together = Counter(), Counter()
    for qid, judged in qrels.items():
        gold = set().union(*(terms_of.get(ref, set()) for ref, g in judged.items() if g > 0))
        words = keys_of(questions[qid])
        asked.update(words)
        together.update((w, t) for w in words for t in gold)
    hand = {key[0] for key in load() if len(key) == 1}
    learned: dict[str, list[tuple[str, int, float]]] = {}
    for (word, term), count in together.items():
        share, p = count / asked[word], in_seifim[term] / len(terms_of)
        if (count < min_count or share < min_share or p > rare or asked[word] > common * len(qrels) or word in hand
                or term == word or term in strip_prefixes(word) or not base_word(term, written)):
            continue
        lift = share / p
        if lift >= min_lift:
            learned.setdefault(word, []).append((term, count, round(lift, 1)))
    return {w: sorted(found, key=lambda f: (-f[1] * math.log(f[2]), f[0]))[:max_terms] for w, found in sorted(learned.items())}


def write(learned: dict, path: Path, how: str) -> Path:
    """The learned table as glossary lines (one slot of alternatives per word), under a header."""
    lines = [f"# {line}" for line in how.splitlines()]
    lines += [f"{word}\t{'/'.join(term for term, _, _ in found)}" for word, found in learned.items()]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Path(path)
