"""The offline writer: an answer made only of sentences from the retrieved passages, each cited, or an honest decline.

It needs no network and no generative model. Each sentence of the passages is first scored cheaply against the
question (cosine of embeddings of the sentence under its passage's heading, plus the share of the question's
content words it holds). With the answerability judge (checks/judge.py), the best of them are then read together with
the question, and the one most likely to answer it comes first, followed by at most the context the query type
asks for (in their passage's order when all come from one passage and the question asks what or who something is); when
no sentence answers, the writer declines and says what the passages do say, cited. Without a judge
the best few by the cheap score are returned in reading order, and it declines only when even the best is far
from the question. Which candidates may answer, and the decision, are answering.py's: a sentence must be about the
question's subject and hold what it asks for (checks/agreement.py). When the passages shown hold no answer, a second look
judges the passages the search ranked after them (the request's reserve), and the one that answers is cited with a
number after the shown ones (Draft.more), to be shown with them. Either way it declines when the question names something (a capitalised name, a number)
that no passage mentions. A chosen sentence that opens with a pronoun brings its passage's first sentence along,
so the answer says who "he" is. When the sentences come from several units with canonical references (a ruling
and its gloss, two authorities), each is listed under its own reference (its Hebrew label in a Hebrew answer), so
opinions are never merged, and a gloss's sentences follow those of the ruling it glosses. When a relation opposes
two passages of the evidence (a gloss that argues with its ruling: search/related.py), the answer ends with both
opinions, each passage's sentence under its own reference, after the lead-in "The sources disagree:". A
calculation question goes to calculation.py first.
Does not: paraphrase, translate (its sentences keep the passages' language) or merge facts.
"""
import re
import time
from collections.abc import Iterator

import numpy as np

from hebrew.refs import hebrew_label
from hebrew.words import content_words
from models import Draft, Hit, WriteRequest
from question.asks import read
from search.embedders import settings
from search.related import glossed
from checks.agreement import defines
from writers.answering import KEEP_WITHIN, SENTENCES_PER_TYPE, Choice, decide, further
from writers.calculation import calculate
from checks.declines import decline_text, found_text, passage_label
from writers.prompt import OPINIONS, opposing_pairs
from writers.reference import bracketed
from checks.sentences import all_named, candidates, cite, scored_text
from writers.writer import Writer

PRONOUN_START = re.compile(r"(he|she|it|its|his|her|they|their|this|these|those)\b", re.I)


def reads_in_order(question: str, chosen: list[tuple[int, int, str]], title: str) -> bool:
    """Whether an answer's sentences are given in their passage's order: they all come from one passage (of this
    title), and the question asks what or who that passage's subject is, so no one fact must open it. A who-was
    question then opens with who Rosalind Franklin was, not with what was thought of her work. A why, a how, a which,
    or what a Taikō was in Hideyoshi's passage, opens with the sentence that answers it (issue 45: the fact first),
    its reference bracketed when it refers back."""
    asks = read(question)
    return len(chosen) > 1 and len({n for n, _, _ in chosen}) == 1 and asks.slot == "definition" and \
        defines(asks, title)


def glosses(a: Hit, b: Hit) -> bool:
    """Whether b's unit comments on a's: its reference extends a's ("...87:3" and "...87:3, Rema")."""
    x, y = a.chunk.ref, b.chunk.ref
    return bool(x and y and y != x and y.startswith(x) and not y[len(x)].isdigit())


def opinions(chosen: list[tuple[int, str]], hits: list[Hit]) -> bool:
    """Whether the answer draws on more than one unit with a canonical reference (a ruling and its gloss, two
    seifim, two works): then each is presented under its own reference instead of being run together."""
    return len({hits[n - 1].chunk.ref for n, _ in chosen if hits[n - 1].chunk.ref}) > 1


def rulings_first(said: list[tuple[int, str]], hits: list[Hit]) -> list[tuple[int, str]]:
    """said with each gloss's sentences right after those of the ruling it glosses, when that ruling is said too:
    a gloss is read after what it glosses, whichever the judge found first."""
    refs = {hits[n - 1].chunk.ref for n, _ in said}

    def ruling(n: int) -> str | None:
        """The ref of the said ruling passage n glosses, or None."""
        return glossed(hits[n - 1]) if glossed(hits[n - 1]) in refs else None

    ordered = [item for item in said if ruling(item[0]) is None]
    for item in (item for item in said if ruling(item[0])):
        at = max(k for k, (m, _) in enumerate(ordered) if ruling(item[0]) in (hits[m - 1].chunk.ref, ruling(m)))
        ordered.insert(at + 1, item)
    return ordered


def listed(said: list[tuple[int, str]], hits: list[Hit], language: str) -> list[str]:
    """Cited sentences each under its passage's reference (its Hebrew label in a Hebrew answer, which reads right
    to left), a reference said once for the sentences that follow it: never merged into one statement."""
    pieces, current = [], None
    for n, sentence in said:
        hit = hits[n - 1]
        label = (language == "he" and hebrew_label(hit.chunk.ref)) or passage_label(hit)
        if label != current:
            pieces.append(f"{'' if not pieces else chr(10) * 2}{label}:\n")
            current = label
        else:
            pieces.append("\n")
        pieces.append(f"- {cite(sentence, n)}")
    return pieces


def opposed(choice: Choice, hits: list[Hit]) -> list[tuple[int, str]]:
    """The opinions of passages a relation opposes (prompt.opposing_pairs), in the pairs' order: each passage's
    chosen sentences, else its best one; a pair counts when both of its passages have one."""
    said: list[tuple[int, str]] = []
    for pair in opposing_pairs(hits):
        own = {n: [(m, s) for m, s in choice.answer if m == n] or ([(n, choice.best[n])] if n in choice.best else [])
               for n in pair}
        if all(own.values()):
            said += [item for n in pair for item in own[n] if item not in said]
    return said


class ExtractiveWriter(Writer):
    """Answers by choosing and citing sentences of the passages; the default when no model is configured."""

    name = "offline"
    streams = True

    def __init__(self, embedder, thresholds: tuple[float, float] | None = None, judge=None):
        self.embedder = embedder
        # (least cosine, least combined score) of the best sentence; below either the passages are not about
        # the question: without a judge the writer declines, with one it has nothing related to report
        self.min_similarity, self.min_score = thresholds or settings(embedder.name).decline
        self.judge = judge  # judge.AnswerabilityJudge, or None
        self.last_call: dict | None = None

    def write(self, request: WriteRequest) -> Draft:
        """A cited answer of the passages' own sentences, or the decline in the answer's language."""
        pieces, choice = self.compose(request)
        return self.draft(pieces, choice)

    def stream(self, request: WriteRequest) -> Iterator[str | Draft]:
        """The answer as it is composed, then the Draft."""
        pieces, choice = self.compose(request)
        yield from pieces
        yield self.draft(pieces, choice)

    @staticmethod
    def draft(pieces: list[str], choice: Choice) -> Draft:
        """The Draft of composed pieces."""
        return Draft("".join(pieces), declined=not (choice.answer or choice.computation),
                     answerability=choice.answerability, missing=choice.missing, quoted=True, more=choice.more)

    def status(self) -> dict:
        """Always available: it runs in this process."""
        return {"name": self.name, "model": None, "configured": True, "circuit": "closed", "last_call": self.last_call}

    def compose(self, request: WriteRequest) -> tuple[list[str], Choice]:
        """The answer's parts in order (cited sentences, under their refs when passages disagree; or the decline
        and what the passages do say), and the choice they come from."""
        started = time.time()
        apart = self.compose_parts(request) if request.parts else None
        choice = apart[1] if apart else self.choose(request.question, request.query_type, request.hits)
        if not apart and not (choice.answer or choice.computation) and request.reserve:
            choice = self.second_look(request, choice)
        self.last_call = {"ok": True, "at": started, "error": None, "ms": round((time.time() - started) * 1000, 1)}
        if apart:
            return apart
        hits = [*request.hits, *choice.more]
        if choice.computation:  # each figure's sentence cited, then the arithmetic on a line of its own
            return [*[("" if i == 0 else " ") + cite(s, n) for i, (n, s) in enumerate(choice.answer)],
                    "\n" if choice.answer else "", choice.computation], choice
        if not choice.answer:
            found = [f" {found_text(request.language)} "] if choice.found else []
            return [decline_text(request.language), *found,
                    " ".join(cite(s, n) for n, s in choice.found)], choice
        said = opposed(choice, hits)  # two passages a relation opposes: both opinions, each under its ref
        answer = [(n, s) for n, s in choice.answer if n not in {m for m, _ in said}] if said else choice.answer
        if not (opinions(answer, hits) or request.halachic):
            pieces = [("" if i == 0 else " ") + cite(s, n) for i, (n, s) in enumerate(answer)]
        else:
            pieces = listed(rulings_first(answer, hits), hits, request.language)
        if said:
            lead = OPINIONS.get(request.language, OPINIONS["en"])
            pieces += [f"{chr(10) * 2 if pieces else ''}{lead}\n\n", *listed(said, hits, request.language)]
        return pieces, choice

    def second_look(self, request: WriteRequest, first: Choice) -> Choice:
        """When the passages shown hold no answer: the passages ranked after them (the request's reserve) judged
        the same way. Their answer's passages are numbered after the shown ones (Choice.more), to be shown too;
        with none, the first choice stands."""
        reserve = further(request.question, request.reserve)
        second = self.choose(request.question, request.query_type, reserve, second=True) if reserve else Choice()
        if not second.answer:
            return first
        used = list(dict.fromkeys(n for n, _ in second.answer))
        number = {m: len(request.hits) + k for k, m in enumerate(used, start=1)}
        return Choice([(number[n], s) for n, s in second.answer], answerability=second.answerability,
                      best=first.best, more=tuple(reserve[m - 1] for m in used))

    def compose_parts(self, request: WriteRequest) -> tuple[list[str], Choice] | None:
        """A two-subject question answered apart: under each subject's name, the sentences its own passages give
        for its own search; None when neither subject's passages answer (the whole question is then composed)."""
        pieces, total = [], Choice()
        for label, query, numbers in request.parts:
            choice = self.choose(query, request.query_type, [request.hits[n - 1] for n in numbers])
            if not choice.answer:
                continue
            pieces.append(f"{chr(10) * 2 if pieces else ''}{label[:1].upper()}{label[1:]}:\n")  # "The Umayyad ..."
            pieces += [("" if i == 0 else "\n") + f"- {cite(s, numbers[k - 1])}" for i, (k, s) in enumerate(choice.answer)]
            total.answer += [(numbers[k - 1], s) for k, s in choice.answer]
            if choice.answerability is not None:
                total.answerability = max(total.answerability or 0.0, choice.answerability)
        return (pieces, total) if total.answer else None

    def scores(self, question: str, query_type: str, hits: list[Hit]) -> tuple[list[tuple[int, int, str]], np.ndarray, np.ndarray]:
        """The candidate sentences, each one's cosine with the question, and its combined score."""
        sentences = candidates(hits)
        if not sentences:
            return [], np.zeros(0), np.zeros(0)
        # a sentence is scored with its passage's heading, so "His discovery in 1928..." is known to be Fleming's,
        # and a seif's ruling is read under its siman's topic ("דין המבשל בשבת")
        headings = [hit.chunk.heading for hit in hits]  # passage n's is headings[n - 1]
        asked_vector = self.embedder.embed_queries([question])[0]
        similarity = self.embedder.embed([scored_text(headings[n - 1], s) for n, _, s in sentences]) @ asked_vector
        asked = content_words(question)
        titles = {n: content_words(text) for n, text in enumerate(headings, start=1)}
        overlap = np.array([len(asked & (content_words(s) | titles[n])) / max(1, len(asked)) for n, _, s in sentences])
        score = 0.7 * similarity + 0.3 * overlap
        if query_type == "calculation":
            score += 0.05 * np.array([bool(re.search(r"\d", s)) for _, _, s in sentences])
        return sentences, similarity, score

    def choose(self, question: str, query_type: str, hits: list[Hit], second: bool = False) -> Choice:
        """The sentences that answer the question (the answering one first with a judge, else in reading order),
        or, when none does, the one most about it as what the passages do say; and each passage's best sentence.
        second: these are the passages of a second look."""
        sentences, similarity, score = self.scores(question, query_type, hits)
        choice = self.pick(question, query_type, hits, sentences, similarity, score, second)
        for i in np.argsort(-score, kind="stable"):
            choice.best.setdefault(sentences[i][0], sentences[i][2])
        return choice

    def pick(self, question: str, query_type: str, hits: list[Hit], sentences: list, similarity: np.ndarray,
             score: np.ndarray, second: bool = False) -> Choice:
        """choose's choice of the scored sentences."""
        if not sentences:
            return Choice()
        calculated = calculate(
            question, sentences, {n: h.chunk.heading for n, h in enumerate(hits, start=1)})
        if calculated:
            figures, line = calculated
            sources = list(dict.fromkeys(f.source for f in figures if f.source))
            if line:
                return Choice(sources, answerability=1.0, computation=line)
            return Choice(found=sources, missing=tuple(f.words for f in figures if f.value is None))
        named = all_named(question, hits)
        related = similarity.max() >= self.min_similarity and score.max() >= self.min_score
        if self.judge is None:
            if not (named and related):
                return Choice()
            ranked = [int(i) for i in np.argsort(-score) if score[i] >= score.max() - KEEP_WITHIN]
            chosen = self.with_companions(ranked[:SENTENCES_PER_TYPE[query_type]], sentences, similarity, score, hits)
            return Choice([(sentences[i][0], sentences[i][2]) for i in sorted(chosen, key=lambda i: sentences[i][:2])])
        verdict = decide(self.judge, question, query_type, hits, sentences, score, named, second)
        listed = [(sentences[i][0], sentences[i][2], described) for i, described in verdict.candidates]
        if not verdict.answer:
            found = [(sentences[verdict.found][0], sentences[verdict.found][2])] if related else []
            return Choice(found=found, answerability=verdict.answerability, signals=verdict.signals, candidates=listed)
        best = verdict.answer[0]
        chosen = self.with_companions(verdict.answer, sentences, similarity, score, hits)
        if reads_in_order(question, [sentences[i] for i in chosen], hits[sentences[best][0] - 1].chunk.title):
            return Choice([(sentences[i][0], sentences[i][2]) for i in sorted(chosen, key=lambda i: sentences[i][:2])],
                          answerability=verdict.answerability, signals=verdict.signals, candidates=listed)
        leads = self.leads(best, sentences, chosen)
        rest = sorted(chosen - {best} - leads, key=lambda i: sentences[i][:2])
        n, position, told = sentences[best]
        first = next((s for m, p, s in sentences if m == n and p == 0), None)  # names what "he" or "his" refers to
        if position > 0 and first and (opened := bracketed(told, hits[n - 1].chunk.title, first)):
            told, leads = opened, set()  # the fact first, its reference the editor's (writers/reference.py)
        ordered = [*sorted(leads), best, *rest]
        return Choice([(sentences[i][0], told if i == best else sentences[i][2]) for i in ordered],
                      answerability=verdict.answerability, signals=verdict.signals, candidates=listed)

    def with_companions(self, chosen: list[int], sentences: list, similarity: np.ndarray, score: np.ndarray,
                        hits: list[Hit]) -> set[int]:
        """chosen, with each sentence's other opinion (a ruling's gloss, or the ruling a gloss is on) and, for one
        that opens with a pronoun, its passage's first sentence, which says who "he" is."""
        chosen = set(chosen)
        for i in list(chosen):
            n = sentences[i][0]
            for j in np.argsort(-score):
                m = sentences[j][0]
                if similarity[j] >= self.min_similarity and (glosses(hits[n - 1], hits[m - 1]) or glosses(hits[m - 1], hits[n - 1])):
                    chosen.add(int(j))
                    break
        for i in list(chosen):
            n, pos, sentence = sentences[i]
            if pos > 0 and PRONOUN_START.match(sentence):
                chosen.update(j for j, (m, p, _) in enumerate(sentences) if m == n and p == 0)
        return chosen

    @staticmethod
    def leads(best: int, sentences: list, chosen: set[int]) -> set[int]:
        """The chosen opening sentence of the answering sentence's passage, when the answer opens with a pronoun."""
        n, pos, sentence = sentences[best]
        if pos == 0 or not PRONOUN_START.match(sentence):
            return set()
        return {j for j in chosen if sentences[j][0] == n and sentences[j][1] == 0}
