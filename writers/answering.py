"""Which sentence answers the question: the judge's reading of the best candidates, each candidate's agreement
with what the question asks (checks/agreement.py), the decision to answer or decline, and the context that may
follow the answering sentence.

A candidate can answer only when its passage names what the question names (sentences.about), it holds a number
when one is asked (checks/sentences.fits), and it agrees with the question's subject and slot (checks/agreement.py). "What is
X?" puts the opening sentence of X's own passage first when one is given (a judge trained on answers that are spans
reads a definition poorly). The others are ordered by the ranking fitted beside the judge (checks/ranking.py: the
judge's score with search's rank and scores, agreement and overlap), else by the judge's probability. Whether the
first of them answers is decided by the decision layer fitted beside the judge (checks/decision.py) over the look's
signals; without one, by the judge's threshold. Either way, a question that asks what X is and nothing more
(Asks.overview: "Tell me about X") is answered by X's own opening, read on for the sentences after it. Context
sentences follow only when they are about the same subject: of the same passage, or both opening with the
question's subject.
Declining, the sentence nearest to an answer is what the passages do say: one that agrees with the question's
subject when there is one.
Does not: score sentences cheaply or compose the answer (offline.py does), or read the question (question/asks.py).
"""
from dataclasses import dataclass, field

import numpy as np

from hebrew.script import detect_language
from hebrew.words import content_words
from models import Hit
from question.asks import Asks, read
from question.halacha import from_halachic_work
from checks.agreement import agreements, defines
from checks import ranking
from checks.judge import pair_text
from checks.sentences import about, anchors, fits

SENTENCES_PER_TYPE = {"factual_lookup": 2, "explanation": 4, "reasoning": 4, "calculation": 3}
KEEP_WITHIN = 0.15  # further sentences must score within this of the best one
# the judge reads this many of the best sentences by the cheap score: 8 costs half of 16 (the judge is most of a
# question's time) and did as well or better on every tuning set (issue 32: wiki-asked 0.764 -> 0.768 balanced,
# wiki-trust 0.775 both, squad-dev calibrate 0.740 -> 0.748, heq-dev calibrate 0.850 -> 0.865)
JUDGED = 8
CONTEXT_SHARE = 0.5  # a context sentence needs this share of the judge's threshold
OVERVIEW_MORE = 2  # "Tell me about X": the sentences after X's own opening that follow it
OWN_FIRST = 0.2  # how much more likely a sentence of the subject's own must look than one that only mentions it


@dataclass
class Choice:
    """What the writer chose: the answer (answering sentence first), or, declining, what the passages do say."""

    answer: list[tuple[int, str]] = field(default_factory=list)  # (passage number, sentence)
    found: list[tuple[int, str]] = field(default_factory=list)
    answerability: float | None = None  # the judge's best probability; None without a judge
    computation: str = ""  # a calculation's arithmetic line, after the cited figures
    missing: tuple[str, ...] = ()  # a calculation's figures that no passage gives
    best: dict[int, str] = field(default_factory=dict)  # each passage's best sentence by the cheap score
    more: tuple = ()  # a second look's passages the answer cites, numbered after the request's hits
    signals: dict = field(default_factory=dict)  # what the decision to answer or decline read (decision.SIGNALS)
    candidates: list = field(default_factory=list)  # (passage number, sentence, ranking.features) of each that may


@dataclass
class Verdict:
    """The judged decision: the answering sentence and its context (indices of the candidates), or none and the
    sentence nearest to an answer."""

    answer: list[int] = field(default_factory=list)
    found: int | None = None
    answerability: float = 0.0
    signals: dict = field(default_factory=dict)  # what the decision read (decision.SIGNALS)
    candidates: list = field(default_factory=list)  # (index, ranking.features) of each candidate that may answer


def further(question: str, reserve) -> list[Hit]:
    """The passages of a second look: those of the reserve that name what the question names (sentences.about)."""
    asked = anchors(question)
    return [hit for hit in reserve if about(asked, hit)]


def judged(judge, question: str, hits: list[Hit], sentences: list, indices: list[int]) -> dict[int, float]:
    """The judge's probability for each of the candidates at indices."""
    texts = [pair_text(hits[sentences[i][0] - 1].chunk.heading, sentences[i][2]) for i in indices]
    return dict(zip(indices, judge.score(question, texts).tolist()))


def openings(asks: Asks, hits: list[Hit], sentences: list) -> list[int]:
    """For "What is X?": the opening sentence of each passage that is X's own (its title names X)."""
    if asks.slot != "definition":
        return []
    return [i for i, (n, position, _) in enumerate(sentences)
            if position == 0 and defines(asks, hits[n - 1].chunk.title)]


def decide(judge, question: str, query_type: str, hits: list[Hit], sentences: list, score: np.ndarray,
           named: bool, second: bool = False) -> Verdict:
    """The Verdict on the scored candidates (sentences.candidates, with their cheap scores); second: this is the
    second look, at the passages ranked after those shown."""
    asks = read(question)
    defining = openings(asks, hits, sentences)
    top = [int(i) for i in np.argsort(-score)[:JUDGED]]
    probability = judged(judge, question, hits, sentences, list(dict.fromkeys(top + defining)))
    order = sorted(probability, key=lambda i: -probability[i])
    on_topic = {n for n, hit in enumerate(hits, start=1) if about(anchors(question), hit)}
    agreement = agreements(asks, {i: sentences[i] for i in probability}, sentences, hits)
    can = [i for i in order if sentences[i][0] in on_topic and fits(question, sentences[i][2])
           and agreement[i].can_answer(asks)]
    asked, top_hybrid = content_words(question), max(h.hybrid_score for h in hits)
    described = {i: fitting(asks, asked, hits, sentences, score, top_hybrid, probability[i], agreement[i], i)
                 for i in can}
    ranker = getattr(judge, "ranking", None)
    if ranker is not None:  # the candidate that fits best over all a look knows of each (checks/ranking.py)
        fit = dict(zip(can, ranker.scores([described[i] for i in can]).tolist()))
        can.sort(key=lambda i: -fit[i])
    elif asks.runs and not asks.agent:  # an attribute of a named subject: its own sentences before those that mention it
        can.sort(key=lambda i: -(probability[i] + OWN_FIRST * ((agreement[i].subject == "own") - agreement[i].aside)))
    can = [i for i in defining if i in can] + [i for i in can if i not in defining]  # X's own opening defines X
    found = signals(asked, asks, hits, sentences, score, probability, order, can, agreement, defining, second)
    decision = judge.decision if judge is not None else None
    if decision is not None:  # what X is, and nothing more, is answered by X's own opening (Asks.overview)
        answers = bool(can) and named and ((asks.overview and can[0] in defining) or decision.answers(found))
    else:
        answers = bool(can) and named and (can[0] in defining or probability[can[0]] >= judge.threshold)
    if not answers:
        nearest = can or [i for i in order if agreement[i].subject != "none"] or order
        return Verdict(found=nearest[0], answerability=probability[can[0]] if can else 0.0, signals=found,
                       candidates=list(described.items()))
    best = can[0]

    def same(i: int) -> bool:
        """Whether a context sentence is about the answering sentence's subject."""
        return sentences[i][0] == sentences[best][0] or (
            agreement[i].subject == "own" and agreement[best].subject == "own")

    if asks.overview and best in defining:  # what X is: the opening of X's own passage, read on as it is written
        context = sorted((i for i, (n, position, _) in enumerate(sentences)
                          if n == sentences[best][0] and 0 < position <= OVERVIEW_MORE), key=lambda i: sentences[i][1])
    else:  # context speaks of what was asked: a sentence of the same passage that shares no word with the question
        # is another subject of the same document (an upload's next paragraph), not more of the answer
        context = [i for i in order if i != best and probability[i] >= CONTEXT_SHARE * judge.threshold
                   and score[i] >= score.max() - KEEP_WITHIN and sentences[i][0] in on_topic and same(i)
                   and asked & content_words(sentences[i][2])][:SENTENCES_PER_TYPE[query_type] - 1]
    return Verdict([best, *context], answerability=max(probability[best], judge.threshold if best in defining else 0),
                   signals=found, candidates=list(described.items()))


def overlap(asked: set[str], hit: Hit, sentence: str) -> float:
    """The share of the question's content words (asked) that a sentence and its passage's heading hold."""
    return len(asked & content_words(f"{hit.chunk.heading} {sentence}")) / max(1, len(asked))


def fitting(asks: Asks, asked: set[str], hits: list[Hit], sentences: list, score: np.ndarray, top_hybrid: float,
            probability: float, agreement, i: int) -> dict[str, float]:
    """What the ranking (checks/ranking.py) reads of candidate i (asked: the question's content words; top_hybrid:
    the best hybrid score of the look)."""
    n, position, sentence = sentences[i]
    return ranking.features(
        probability, float(score[i]), float(score.max()), n, hits[n - 1].hybrid_score, top_hybrid, position,
        agreement.subject, agreement.mentioned, agreement.aside, overlap(asked, hits[n - 1], sentence), asks.hebrew,
        from_halachic_work(hits[n - 1]))


def signals(asked: set[str], asks: Asks, hits: list[Hit], sentences: list, score: np.ndarray, probability: dict,
            order: list[int], can: list[int], agreement: dict, defining: list[int], second: bool) -> dict[str, float]:
    """What the decision layer (checks/decision.py) reads of one look (asked: the question's content words): see
    SIGNALS there."""
    best = can[0] if can else None
    n = sentences[best][0] if best is not None else 0
    return {
        "judge": probability[best] if best is not None else 0.0,
        "margin": probability[best] - (probability[can[1]] if len(can) > 1 else 0.0) if best is not None else 0.0,
        "judge_any": probability[order[0]] if order else 0.0,
        "own": float(best is not None and agreement[best].subject == "own"),
        "mentioned": float(best is not None and agreement[best].mentioned),
        "checked": float(asks.slot in ("date", "number", "measure", "population")),
        "defining": float(best in defining),
        "rank": float(n),
        # the passages' own scores: the questions written beside seifim (search/asked.py) would put them on a scale
        # of their own, which a library without them (a user's own import) never reaches
        "hybrid": float(hits[n - 1].own_score) if n else 0.0,
        "top_hybrid": float(max(h.own_score for h in hits)) if hits else 0.0,
        # how well the questions written beside the passage match (0 without them), and whether the library has any
        "asked": float(hits[n - 1].asked_score) if n else 0.0,
        "written": float(any(h.passage_score is not None for h in hits)),
        "candidates": float(len(can)),
        "hebrew": float(asks.hebrew),
        # read by the decision's threshold, not its weights: a question asked across languages (checks/decision.py)
        "across": float(not asks.hebrew and n > 0 and detect_language(sentences[best][2]) == "he"),
        "reserve": float(second),
        "aside": float(best is not None and agreement[best].aside),
        "ruling": float(n > 0 and from_halachic_work(hits[n - 1])),
        "cheap": float(score[best]) if best is not None else 0.0,
        "overlap": overlap(asked, hits[n - 1], sentences[best][2]) if best is not None else 0.0,
    }
