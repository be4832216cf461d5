"""The decision's threshold for a question asked across languages, chosen on our own lay questions.

The decision (checks/decision.py) was fitted on questions asked in their passages' language. An English question
answered by a Hebrew seif reads lower judge and cosine scores for the same answer, so its decision probability
sits lower, and the decision's one threshold declines it even when the right seif is passage [1]. `record` asks
each lay question of a split (data/lay-questions, qrels/train-en.tsv or train-he.tsv) over the book, with its seifim
and again with them left out, as train-decision's record does; `choose` keeps the decision's weights and picks the
threshold of the looks marked "across" whose answers (the first look, else the second) have the best balanced
accuracy: answered from one of the question's own seifim with them present (an answer whose best sentence is a
neighbouring seif's counts as wrong, not as answered), declined without them. Hebrew questions keep the decision's
threshold; their figures are printed beside it. Only train splits are recorded (the test split measures).
"""
import numpy as np

from measuring.datasets import read_qrels, read_queries, sample
from checks.decision import Decision
from training.train_decision import question_rows

GRID = np.round(np.arange(0.05, 0.96, 0.01), 2)


def record(pipeline, folder, split: str, limit: int | None, seed: int = 0) -> list[dict]:
    """The looks of a split's questions, with and without their seifim, labelled as train-decision's are."""
    if "test" in split or "sealed" in str(folder):
        raise ValueError(f"{folder} ({split}) is for measurement only; the threshold is never chosen on it")
    qrels = read_qrels(folder, split)
    queries = [q for q in read_queries(folder) if q["id"] in qrels]
    rows = []
    for query in sample(queries, qrels, limit, seed):
        gold = frozenset(d for d, g in qrels[query["id"]].items() if g > 0)
        rows.extend(question_rows(pipeline, split, query, gold, (True, False)))
    return rows


def choose(rows: list[dict], decision: Decision) -> dict:
    """The across threshold and each split's figures at it and at the decision's own threshold.

    Only questions whose seifim the first look holds when present count: where search misses them, the writer
    has nothing to answer from, and no threshold helps."""
    found = {(r["set"], r["id"]) for r in rows if r["present"] and r["look"] == 1 and r["label"]}
    kept = [r for r in rows if (r["set"], r["id"]) in found]
    probability = np.array([decision.probability(r["signals"]) for r in kept])
    across = np.array([bool(r["across"]) for r in kept])

    def rates(threshold: float, any_answer: bool = False) -> dict[str, tuple[float, float]]:
        """Per split, (answered from its own seifim with them present, declined without them) when across looks
        use threshold: the first look that answers gives the answer; any_answer: answered at all."""
        answering = probability >= np.where(across, threshold, decision.threshold)
        given: dict[tuple, bool] = {}
        for r, answers in sorted(zip(kept, answering), key=lambda pair: pair[0]["look"]):
            key = (r["set"], r["id"], r["present"])
            if key not in given or given[key] is None:
                can = r["signals"]["candidates"] > 0 and r["named"] and answers
                given[key] = (bool(r["right"]) or any_answer or not r["present"]) if can else None
        out = {}
        for name in {k[0] for k in given}:
            yes = [bool(v) for (s, _, present), v in given.items() if s == name and present]
            no = [v is None for (s, _, present), v in given.items() if s == name and not present]
            out[name] = (float(np.mean(yes)) if yes else 0.0, float(np.mean(no)) if no else 0.0)
        return out

    def balanced(threshold: float, name: str) -> float:
        return sum(rates(threshold).get(name, (0.0, 0.0))) / 2

    english = sorted({r["set"] for r, a in zip(kept, across) if a})
    # ties go to the higher threshold: declining costs less trust than a wrong answer
    best = float(max(GRID[::-1], key=lambda t: np.mean([balanced(t, s) for s in english]))) if english else None
    figures = lambda t: {s: {"answered_right": round(a, 4), "answered": round(rates(t, True)[s][0], 4),  # noqa: E731
                             "declined": round(d, 4), "balanced": round((a + d) / 2, 4)}
                         for s, (a, d) in sorted(rates(t).items())}
    return {"threshold": best, "questions": len(found), "looks": len(kept),
            "across_looks": int(across.sum()), "at_threshold": figures(best) if best is not None else None,
            "at_decision_threshold": figures(decision.threshold)}
