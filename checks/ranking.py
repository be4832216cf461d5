"""Which candidate fits the question best: a conditional logit over what the writer knows of each sentence that may
answer, in place of the judge's probability alone.

The judge reads a sentence with its heading and nothing else. Over the Shulchan Arukh it rates neighbouring seifim
alike, while search ranked the seif that answers first more often than the judge chose it (on our lay train
split, the judge's first candidate was the right seif in 46% of the looks that held one, the ranking's in 74%).
FEATURES are the judge's log-odds, the cheap score and its gap to the best, the passage's rank
and its hybrid score's gap to the first, whether the sentence opens its passage, is about the question's subject
(own, mentioned, aside), and the share of the question's content words it and its heading hold. Each of these is
also read again for a Hebrew question and for a passage of a work of halacha (a seif: question/halacha.py), so
the weights for a ruling may differ from those for an encyclopaedia's lead; a feature the same for every
candidate of one look changes nothing within it, so none is kept alone.
`flask --app app train-ranking` fits it (training/train_ranking.py) on candidates recorded on the tuning halves,
calibrate splits and our lay questions' train split, and writes ranking.json beside the judge; without that file
the judge's probability orders the candidates, as before.
Does not: decide whether the best candidate answers (decision.py), or say which sentences may answer
(writers/answering.py).
"""
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

BASE = ("judge", "cheap", "cheap_gap", "inverse_rank", "hybrid_gap", "opening", "own", "mentioned", "aside", "overlap")
FEATURES = BASE + tuple(f"{name}_he" for name in BASE) + tuple(f"{name}_ruling" for name in BASE)
FILE = "ranking.json"


def features(judge: float, cheap: float, best_cheap: float, rank: int, hybrid: float, top_hybrid: float,
             position: int, subject: str, mentioned: bool, aside: bool, overlap: float, hebrew: bool,
             ruling: bool) -> dict[str, float]:
    """One candidate's FEATURES: judge, its probability; cheap, its cheap score (best_cheap, the look's best);
    rank, its passage's (from 1); hybrid, its passage's hybrid score (top_hybrid, the look's best); position, its
    place in the passage (0 opens it); subject, mentioned, aside, its agreement (checks/agreement.py); overlap, the
    share of the question's content words it and its heading hold; hebrew, the question is; ruling, its passage is
    a unit of a work of halacha."""
    p = min(max(judge, 1e-4), 1 - 1e-4)
    base = {"judge": math.log(p / (1 - p)), "cheap": cheap, "cheap_gap": cheap - best_cheap,
            "inverse_rank": 1.0 / max(1, rank), "hybrid_gap": hybrid - top_hybrid, "opening": float(position == 0),
            "own": float(subject == "own"), "mentioned": float(mentioned), "aside": float(aside), "overlap": overlap}
    out = dict(base)
    for suffix, on in (("he", hebrew), ("ruling", ruling)):
        out.update({f"{name}_{suffix}": value if on else 0.0 for name, value in base.items()})
    return out


@dataclass(frozen=True)
class Ranking:
    """A linear score over FEATURES (standardised by means and scales): within one look, the higher fits better."""

    weights: tuple[float, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    card: dict

    @classmethod
    def load(cls, folder: Path) -> "Ranking | None":
        """The ranking saved in folder, or None when it has none."""
        path = Path(folder) / FILE
        if not path.exists():
            return None
        card = json.loads(path.read_text())
        if tuple(card["features"]) != FEATURES:
            raise ValueError(f"{path} was fitted on other features; fit it again with `flask --app app train-ranking`")
        return cls(tuple(card["weights"]), tuple(card["means"]), tuple(card["scales"]), card)

    def scores(self, rows: list[dict[str, float]]) -> np.ndarray:
        """Each candidate's score (rows: features of one look's candidates)."""
        if not rows:
            return np.zeros(0)
        x = np.array([[row[name] for name in FEATURES] for row in rows])
        return ((x - np.array(self.means)) / np.array(self.scales)) @ np.array(self.weights)
