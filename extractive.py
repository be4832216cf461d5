"""The offline answerer: an answer made only of sentences from the retrieved passages, each cited.

It needs no network and no generative model. Each sentence of the passages is scored against
the question (cosine of embeddings of the sentence with its passage's title, plus the share of the
question's content words it contains); the best few, as many as the query type asks for, are
returned in reading order, each ending with its passage's [n]. A chosen sentence that opens with
a pronoun brings its passage's first sentence along, so the answer says who "he" is. When even the best sentence is too far from the question,
it declines with the fixed CANNOT_ANSWER sentence instead of guessing, and also when the question
names something (a capitalised name, a number) that no passage mentions at all.
Does not: paraphrase, compute (a calculation question gets the figures it would need) or merge facts.
"""
import re

import numpy as np
import regex

import structure
from bm25 import tokenize
from chunking import split_sentences
from generator import CANNOT_ANSWER
from models import Hit

STOP_WORDS = frozenset(
    "a an and are as at be by did do does for from had has have how i in is it its of on or so than that the "
    "their them then there these they this to was were what when where which who whom whose why will with "
    "would you your about after before can could should tell me explain describe many much".split()
)
SENTENCES_PER_TYPE = {"factual_lookup": 2, "explanation": 4, "reasoning": 4, "calculation": 3}
PRONOUN_START = re.compile(r"(he|she|it|its|his|her|they|their|this|these|those)\b", re.I)
MIN_SIMILARITY = 0.35  # below this cosine for every sentence, the passages are not about the question
MIN_SCORE = 0.40  # below this combined score, the best sentence does not answer it
KEEP_WITHIN = 0.15  # further sentences must score within this of the best one
HEADING_WORDS = 10  # a first line this short without closing punctuation is a heading ("Chapter 3: Varroa Mites")
CLOSING = re.compile(r"[.!?:;׃\"'”)\]]\s*$")


def is_heading(line: str, first_of_several: bool) -> bool:
    """Whether a line of a passage is a heading rather than prose: a marker structure.py knows, or a short
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


def content_words(text: str) -> set[str]:
    """The words of text that carry meaning (no stop words)."""
    return {w for w in tokenize(text) if w not in STOP_WORDS}


def anchors(question: str) -> set[str]:
    """Names and numbers of the question: capitalised words after the first, and words with digits."""
    words = regex.findall(r"[\p{L}\p{N}][\p{L}\p{N}\p{M}]*", question)
    named = {w for w in words[1:] if w[0].isupper()} | {w for w in words if any(c.isdigit() for c in w)}
    return {w.casefold() for w in named} - STOP_WORDS


def cite(sentence: str, n: int) -> str:
    """The sentence with [n] placed before its final punctuation."""
    body, punct = re.match(r"(.*?)([.!?;:]*)$", sentence.strip(), re.S).groups()
    return f"{body} [{n}]{punct or '.'}"


class ExtractiveWriter:
    """Answers by choosing and citing sentences of the passages; the default when no model is configured."""

    name = "offline"

    def __init__(self, embedder):
        self.embedder = embedder

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

    def write(self, question: str, query_type: str, hits: list[Hit]) -> str:
        """A cited answer of the passages' own sentences, or CANNOT_ANSWER."""
        sentences = self.candidates(hits)
        mentioned = set().union(*(tokenize(f"{h.chunk.title} {h.chunk.text}") for h in hits))
        if not sentences or not anchors(question) <= mentioned:
            return CANNOT_ANSWER  # the question names something (Evidenz, 2030) that no passage mentions
        # a sentence is scored with its passage's title, so "His discovery in 1928..." is known to be Fleming's
        vectors = self.embedder.embed([question] + [f"{hits[n - 1].chunk.title}: {s}" for n, _, s in sentences])
        similarity = vectors[1:] @ vectors[0]
        asked = content_words(question)
        titles = {n: content_words(hits[n - 1].chunk.title) for n in range(1, len(hits) + 1)}
        overlap = np.array([len(asked & (content_words(s) | titles[n])) / max(1, len(asked)) for n, _, s in sentences])
        score = 0.7 * similarity + 0.3 * overlap
        if query_type == "calculation":
            score += 0.05 * np.array([bool(re.search(r"\d", s)) for _, _, s in sentences])
        best = int(score.argmax())
        if similarity.max() < MIN_SIMILARITY or score[best] < MIN_SCORE:
            return CANNOT_ANSWER
        ranked = [i for i in np.argsort(-score) if score[i] >= score[best] - KEEP_WITHIN]
        chosen = set(ranked[: SENTENCES_PER_TYPE[query_type]])
        for i in list(chosen):  # "He shared the prize" needs the passage's opening sentence to say who "he" is
            n, pos, sentence = sentences[i]
            if pos > 0 and PRONOUN_START.match(sentence):
                chosen.update(j for j, (m, p, _) in enumerate(sentences) if m == n and p == 0)
        return " ".join(cite(sentences[i][2], sentences[i][0]) for i in sorted(chosen, key=lambda i: sentences[i][:2]))
