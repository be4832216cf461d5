"""The offline answerer: an answer made only of sentences from the retrieved passages, each cited.

It needs no network and no generative model. Each sentence of the passages is scored against
the question (cosine of sentence embeddings, plus the share of the question's content words it
contains); the best few, as many as the query type asks for, are returned in reading order,
each ending with its passage's [n]. When even the best sentence is too far from the question,
it declines with the fixed CANNOT_ANSWER sentence instead of guessing.
Does not: paraphrase, compute (a calculation question gets the figures it would need) or merge facts.
"""
import re

import numpy as np

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
MIN_SIMILARITY = 0.35  # below this cosine for every sentence, the passages are not about the question
MIN_SCORE = 0.40  # below this combined score, the best sentence does not answer it
KEEP_WITHIN = 0.15  # further sentences must score within this of the best one


def content_words(text: str) -> set[str]:
    """The words of text that carry meaning (no stop words)."""
    return {w for w in tokenize(text) if w not in STOP_WORDS}


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
            for pos, sentence in enumerate(split_sentences(hit.chunk.text)):
                key = " ".join(tokenize(sentence))
                if key and key not in seen:  # overlapping chunks repeat sentences
                    seen.add(key)
                    out.append((n, pos, sentence.strip()))
        return out

    def write(self, question: str, query_type: str, hits: list[Hit]) -> str:
        """A cited answer of the passages' own sentences, or CANNOT_ANSWER."""
        sentences = self.candidates(hits)
        if not sentences:
            return CANNOT_ANSWER
        vectors = self.embedder.embed([question] + [s for _, _, s in sentences])
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
        chosen = sorted(ranked[: SENTENCES_PER_TYPE[query_type]], key=lambda i: sentences[i][:2])
        return " ".join(cite(sentences[i][2], sentences[i][0]) for i in chosen)
