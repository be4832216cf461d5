"""Answer or decline: a small logistic model over the signals of one look at the passages, in place of one threshold
on the judge's score.

The signals (SIGNALS) are what the offline writer knows when it has judged the candidates: the judge's best
probability among the sentences that may answer and its margin over the next, the best probability of any sentence,
whether the best candidate opens with the question's subject or only mentions it, whether its slot is one a rule
checks (a date, a number, a measure), whether it is the opening sentence of the subject's own passage, its passage's
rank and hybrid score, how many candidates may answer, the question's language, whether this is the second look,
the best candidate's cheap score (the writer's cosine and word overlap), the share of the question's content
words it and its heading hold, whether it is about another named subject, naming the question's only in passing,
and whether it is a seif ("ruling": a unit of a work of halacha, question/halacha.py). Each signal is read again
for a ruling (INPUTS), so a look over the Shulchan Arukh, where the judge rates neighbouring seifim alike, is
weighed as such; our lay questions' Hebrew train split ("lay-he") is among the looks fitted. Search's scores are
the passages' own (Hit.own_score): the questions written beside seifim would raise them to about 3, and a library
without them (a user's own import of the Shulchan Arukh) scores to 1. How well those questions match is a signal of
its own ("asked", 0 without them), beside whether the library has any ("written"); the lay looks are fitted both
over the book with its questions ("lay-he") and without them ("lay-he-bare"), so the decision holds for both.
A question asked across languages (an English one answered by a Hebrew sentence, signal "across") reads lower
judge and cosine scores for the same answer, so it has a threshold of its own ("across" in decision.json), chosen by
`flask --app app calibrate-across` on our own lay questions over the Shulchan Arukh (training/calibrate_across.py).
`flask --app app train-decision` fits it on outcomes recorded on the dev sets' calibration splits and our own tuning
halves (training/train_decision.py) and writes decision.json beside the judge; without that file the judge's
threshold decides alone.
Does not: score sentences (judge.py), or choose which sentence answers (writers/answering.py).
"""
import json
import math
from dataclasses import dataclass
from pathlib import Path

SIGNALS = ("judge", "margin", "judge_any", "own", "mentioned", "checked", "defining", "rank", "hybrid", "top_hybrid",
           "candidates", "hebrew", "reserve", "cheap", "overlap", "aside", "ruling", "asked", "written")
# read only for a seif: the questions written beside passages (search/asked.py) are a book's, and a lead's look in
# a library that also holds such a book must not read them
RULING_ONLY = ("asked", "written")
# what the model reads: every signal, and each other one again for a look whose best candidate is a seif ("ruling")
INPUTS = tuple(name for name in SIGNALS if name not in RULING_ONLY) + tuple(
    f"{name}_ruling" for name in SIGNALS if name != "ruling")
FILE = "decision.json"


def inputs(signals: dict[str, float]) -> list[float]:
    """The model's INPUTS of one look's signals."""
    ruling = float(signals["ruling"])
    return [float(signals[name]) for name in SIGNALS if name not in RULING_ONLY] + [
        float(signals[name]) * ruling for name in SIGNALS if name != "ruling"]


@dataclass(frozen=True)
class Decision:
    """A logistic model over INPUTS (standardised by means and scales) and the probability from which it answers."""

    weights: tuple[float, ...]
    bias: float
    means: tuple[float, ...]
    scales: tuple[float, ...]
    threshold: float
    card: dict

    @classmethod
    def load(cls, folder: Path) -> "Decision | None":
        """The decision saved in folder, or None when it has none."""
        path = Path(folder) / FILE
        if not path.exists():
            return None
        card = json.loads(path.read_text())
        if tuple(card["signals"]) != SIGNALS or tuple(card.get("inputs", INPUTS)) != INPUTS:
            raise ValueError(f"{path} was fitted on other signals; fit it again with `flask --app app train-decision`")
        return cls(tuple(card["weights"]), card["bias"], tuple(card["means"]), tuple(card["scales"]),
                   card["threshold"], card)

    def probability(self, signals: dict[str, float]) -> float:
        """The model's probability that the look holds an answer."""
        z = self.bias + sum(w * (value - m) / s
                            for value, w, m, s in zip(inputs(signals), self.weights, self.means, self.scales))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def answers(self, signals: dict[str, float]) -> bool:
        """Whether to answer: at the threshold of a question asked across languages when it is one."""
        across = self.card.get("across") if signals.get("across") else None
        return self.probability(signals) >= (across["threshold"] if across else self.threshold)
