"""The offline answerer: an answer made only of sentences from the retrieved passages, each cited.

It needs no network and no generative model. Each sentence of the passages is scored against
the question (cosine of embeddings of the sentence with its passage's heading, plus the share of the
question's content words it contains); the best few, as many as the query type asks for, are
returned in reading order, each ending with its passage's [n]. A chosen sentence that opens with
a pronoun brings its passage's first sentence along, so the answer says who "he" is. When even the best sentence is too far from the question,
it declines with the fixed decline sentence (in the answer's language) instead of guessing, and also when
the question names something (a capitalised name, a number) that no passage mentions at all. When the
sentences come from several units with canonical references (a ruling and its gloss, two authorities),
each is listed under its own reference (its Hebrew label in a Hebrew answer), so opinions are never merged.
Does not: paraphrase, translate (its sentences keep the passages' language), compute (a calculation question
gets the figures it would need) or merge facts.
"""
import re
import time
from collections.abc import Iterator

import numpy as np
import regex

from hebrew.refs import hebrew_label
from hebrew.words import STOP_WORDS, content_words, tokenize
from ingest import structure
from ingest.chunking import split_sentences
from models import Draft, Hit, WriteRequest
from search.embedders import settings
from writers.prompt import decline_text, passage_label

SENTENCES_PER_TYPE = {"factual_lookup": 2, "explanation": 4, "reasoning": 4, "calculation": 3}
PRONOUN_START = re.compile(r"(he|she|it|its|his|her|they|their|this|these|those)\b", re.I)
KEEP_WITHIN = 0.15  # further sentences must score within this of the best one
HEADING_WORDS = 10  # a first line this short without closing punctuation is a heading ("Chapter 3: Varroa Mites")
CLOSING = re.compile(r"[.!?:;׃\"'”)\]]\s*$")


def is_heading(line: str, first_of_several: bool) -> bool:
    """Whether a line of a passage is a heading rather than prose: a marker ingest/structure.py knows, or a short
    first line without closing punctuation (a PDF's "The Hive" above its text)."""
    if structure.is_heading(line):
        return True
    return first_of_several and len(line.split()) <= HEADING_WORDS and not CLOSING.search(line)


def prose(text: str) -> list[str]:
    """The paragraphs of a passage without their heading lines, each paragraph's lines joined.

    Uploaded books keep headings and the line breaks of the page; a heading is not part of the sentence
    after it, and a wrapped line is.
    """
    paragraphs = []
    for block in re.split(r"\n\s*\n", text):
        lines = [line.strip() for line in block.split("\n") if line.strip()]
        lines = [line for i, line in enumerate(lines) if not is_heading(line, i == 0 and len(lines) > 1)]
        if lines:
            paragraphs.append(" ".join(lines))
    return paragraphs


def anchors(question: str) -> set[str]:
    """Names and numbers of the question: capitalised words after the first, and words with digits."""
    words = regex.findall(r"[\p{L}\p{N}][\p{L}\p{N}\p{M}]*", question)
    named = {w for w in words[1:] if w[0].isupper()} | {w for w in words if any(c.isdigit() for c in w)}
    return {w.casefold() for w in named} - STOP_WORDS


def cite(sentence: str, n: int) -> str:
    """The sentence with [n] placed before its final punctuation."""
    body, punct = re.match(r"(.*?)([.!?;:]*)$", sentence.strip(), re.S).groups()
    return f"{body} [{n}]{punct or '.'}"


def glosses(a: Hit, b: Hit) -> bool:
    """Whether b's unit comments on a's: its reference extends a's ("...87:3" and "...87:3, Rema")."""
    x, y = a.chunk.ref, b.chunk.ref
    return bool(x and y and y != x and y.startswith(x) and not y[len(x)].isdigit())


def opinions(chosen: list[tuple[int, str]], hits: list[Hit]) -> bool:
    """Whether the answer draws on more than one unit with a canonical reference (a ruling and its gloss, two
    seifim, two works): then each is presented under its own reference instead of being run together."""
    return len({hits[n - 1].chunk.ref for n, _ in chosen if hits[n - 1].chunk.ref}) > 1


class ExtractiveWriter:
    """Answers by choosing and citing sentences of the passages; the default when no model is configured."""

    name = "offline"
    model = None

    def __init__(self, embedder, thresholds: tuple[float, float] | None = None):
        self.embedder = embedder
        # (least cosine, least combined score) of the best sentence; below either the writer declines
        self.min_similarity, self.min_score = thresholds or settings(embedder.name).decline
        self.last_call: dict | None = None

    def candidates(self, hits: list[Hit]) -> list[tuple[int, int, str]]:
        """(passage number, position, sentence) for every distinct sentence of the passages."""
        seen, out = set(), []
        for n, hit in enumerate(hits, start=1):
            for pos, sentence in enumerate(s for paragraph in prose(hit.chunk.text) for s in split_sentences(paragraph)):
                key = " ".join(tokenize(sentence))
                if key and key not in seen:  # overlapping chunks repeat sentences
                    seen.add(key)
                    out.append((n, pos, sentence.strip()))
        return out

    def write(self, request: WriteRequest) -> Draft:
        """A cited answer of the passages' own sentences, or the decline in the answer's language."""
        return Draft("".join(self.pieces(request)))

    def stream(self, request: WriteRequest) -> Iterator[str | Draft]:
        """The answer sentence by sentence as it is composed, then the Draft."""
        pieces = []
        for piece in self.pieces(request):
            pieces.append(piece)
            yield piece
        yield Draft("".join(pieces))

    def status(self) -> dict:
        """Always available: it runs in this process."""
        return {"name": self.name, "model": None, "configured": True, "circuit": "closed", "last_call": self.last_call}

    def pieces(self, request: WriteRequest) -> list[str]:
        """The answer's parts in order: cited sentences (under their refs when passages disagree), or the decline."""
        started = time.time()
        chosen = self.choose(request.question, request.query_type, request.hits)
        self.last_call = {"ok": True, "at": started, "error": None, "ms": round((time.time() - started) * 1000, 1)}
        if not chosen:
            return [decline_text(request.language)]
        if not opinions(chosen, request.hits):
            return [("" if i == 0 else " ") + cite(sentence, n) for i, (n, sentence) in enumerate(chosen)]
        # each opinion under its own reference, never merged into one statement
        pieces, current = [], None
        for n, sentence in chosen:
            hit = request.hits[n - 1]  # a Hebrew answer names its sources in Hebrew, so it reads right to left
            label = (request.language == "he" and hebrew_label(hit.chunk.ref)) or passage_label(hit)
            if label != current:
                pieces.append(f"{'' if not pieces else chr(10) * 2}{label}:\n")
                current = label
            else:
                pieces.append("\n")
            pieces.append(f"- {cite(sentence, n)}")
        return pieces

    def scores(self, question: str, query_type: str, hits: list[Hit]) -> tuple[list[tuple[int, int, str]], np.ndarray, np.ndarray]:
        """The candidate sentences, each one's cosine with the question, and its combined score."""
        sentences = self.candidates(hits)
        if not sentences:
            return [], np.zeros(0), np.zeros(0)
        # a sentence is scored with its passage's heading, so "His discovery in 1928..." is known to be Fleming's,
        # and a seif's ruling is read under its siman's topic ("דין המבשל בשבת")
        headings = [hit.chunk.heading for hit in hits]  # passage n's is headings[n - 1]
        asked_vector = self.embedder.embed_queries([question])[0]
        similarity = self.embedder.embed([f"{headings[n - 1]}: {s}" for n, _, s in sentences]) @ asked_vector
        asked = content_words(question)
        titles = {n: content_words(text) for n, text in enumerate(headings, start=1)}
        overlap = np.array([len(asked & (content_words(s) | titles[n])) / max(1, len(asked)) for n, _, s in sentences])
        score = 0.7 * similarity + 0.3 * overlap
        if query_type == "calculation":
            score += 0.05 * np.array([bool(re.search(r"\d", s)) for _, _, s in sentences])
        return sentences, similarity, score

    def choose(self, question: str, query_type: str, hits: list[Hit]) -> list[tuple[int, str]]:
        """(passage number, sentence) of the sentences that answer the question, in reading order; [] to decline."""
        mentioned = set().union(*(tokenize(h.chunk.passage_text) for h in hits)) if hits else set()
        if not anchors(question) <= mentioned:
            return []  # the question names something (Evidenz, 2030) that no passage mentions
        sentences, similarity, score = self.scores(question, query_type, hits)
        if not sentences:
            return []
        best = int(score.argmax())
        if similarity.max() < self.min_similarity or score[best] < self.min_score:
            return []
        ranked = [i for i in np.argsort(-score) if score[i] >= score[best] - KEEP_WITHIN]
        chosen = set(ranked[: SENTENCES_PER_TYPE[query_type]])
        for i in list(chosen):  # a ruling's gloss (or the ruling a gloss is on) is the other opinion: show it too
            n = sentences[i][0]
            for j in np.argsort(-score):
                m = sentences[j][0]
                if similarity[j] >= self.min_similarity and (glosses(hits[n - 1], hits[m - 1]) or glosses(hits[m - 1], hits[n - 1])):
                    chosen.add(int(j))
                    break
        for i in list(chosen):  # "He shared the prize" needs the passage's opening sentence to say who "he" is
            n, pos, sentence = sentences[i]
            if pos > 0 and PRONOUN_START.match(sentence):
                chosen.update(j for j, (m, p, _) in enumerate(sentences) if m == n and p == 0)
        return [(sentences[i][0], sentences[i][2]) for i in sorted(chosen, key=lambda i: sentences[i][:2])]
