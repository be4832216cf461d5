"""The decision layer (checks/decision.py), fitted on looks recorded through the real pipeline.

`record` asks each question of a set as the pipeline would: classified, searched to SECOND_LOOK passages, the
first look at the passages shown and the second at those after them, each a choice of the offline writer with the
signals it read. A QA dev set (squad-dev, heq-dev) is asked with each question's gold and again with it left out,
on the judge's calibrate split; a set written with answerable flags and halves (wiki-asked, heq-asked) is asked
once, on its tuning half. A look is labelled 1 when its passages hold a gold document, else 0.
`fit` standardises the signals and fits a logistic regression (gradient descent, L2) in which every set weighs the
same and, within a set, both labels weigh the same. Its threshold is the one whose answers, simulated as the writer
gives them (the first look answers, else the second), have the best balanced accuracy averaged over the sets:
answered when the question has an answer in the library, declined when it has not. The same is done for one
threshold on the judge's score alone (`judge_alone`): the judge's own threshold, and the decision's yardstick.
Never recorded: SciFact, the test halves and splits, wiki-trust, halacha-he, sealed data.
"""
import json
from pathlib import Path

import numpy as np

from measuring.datasets import in_judge_split, judged_id, read_qrels, read_queries, sample
from question.policy import QUERY_POLICIES, SECOND_LOOK
from writers.answering import further
from checks.decision import INPUTS, SIGNALS, inputs
from checks.sentences import all_named

FORBIDDEN = ("scifact", "wiki-trust", "halacha-he", "sealed")


def looks(pipeline, question: str, leave_out: frozenset = frozenset()) -> list[tuple[list, object]]:
    """(passages, the writer's choice) of the first look and the second, as the pipeline searches for question."""
    writer = pipeline.generator.writers["offline"]
    query_type, _ = pipeline.classifier.classify(question)
    policy = QUERY_POLICIES[query_type]
    with pipeline.retriever.excluding(leave_out):
        hits = pipeline.retriever.search(question, max(policy["top_k"], SECOND_LOOK), policy["candidates"])
    shown, reserve = hits[:policy["top_k"]], further(question, hits[policy["top_k"]:])
    out = [(shown, writer.choose(question, query_type, shown))]
    if reserve:
        out.append((reserve, writer.choose(question, query_type, reserve, second=True)))
    return out


def record(pipeline, folder: Path, split: str | None = "calibrate", half: str | None = None, limit: int | None = None,
           seed: int = 0, corpus: Path | None = None) -> list[dict]:
    """The looks of one set's questions, labelled (see the module docstring)."""
    if for_measurement(folder, split, half):
        raise ValueError(f"{folder} ({half or split}) is for measurement only; the decision is never fitted on it")
    qrels = read_qrels(folder)
    rows = []
    for query in sample(questions(folder, qrels, split, half, corpus), qrels, limit, seed):
        gold = frozenset(d for d, g in qrels.get(query["id"], {}).items() if g > 0)
        presents = (True, False) if query["answerable"] and not half else (query["answerable"],)
        rows.extend(question_rows(pipeline, folder.name, query, gold, presents, leave_out_absent=not half))
    return rows


def for_measurement(folder: Path, split: str | None, half: str | None) -> bool:
    """Whether a set, or its split or half, is kept for measurement: never recorded to fit on."""
    return any(name in str(folder).lower() for name in FORBIDDEN) or half == "test" or split == "test"


def questions(folder: Path, qrels: dict, split: str | None, half: str | None, corpus: Path | None) -> list[dict]:
    """A set's questions to record: those of its half, else those whose article is in the judge's split, else all
    (sample keeps those its qrels judge, and those marked unanswerable)."""
    queries = read_queries(folder)
    if half:
        return [q for q in queries if q["half"] == half]
    if split:
        return in_judge_split(queries, qrels, corpus or folder / "corpus.jsonl", split)
    return queries


def question_rows(pipeline, name: str, query: dict, gold: frozenset, presents: tuple[bool, ...],
                  leave_out_absent: bool = True) -> list[dict]:
    """Each look at one question, for each of presents (its passages present or, with leave_out_absent, left out):
    label 1 when the look holds a gold passage with them present; right 1 when the best candidate's passage is
    gold; across, the signal of a question asked in another language than its best sentence."""
    rows = []
    for present in presents:
        leave_out = gold if leave_out_absent and not present else frozenset()
        for look, (hits, choice) in enumerate(looks(pipeline, query["text"], leave_out), start=1):
            found = [judged_id(h.chunk.doc_id, h.chunk.ref) for h in hits]
            rank = int(choice.signals.get("rank", 0))  # the best candidate's passage, from 1; 0: none
            rows.append({"set": name, "id": query["id"], "present": present, "look": look,
                         "label": int(present and any(f in gold for f in found)),
                         "right": int(present and 0 < rank <= len(found) and found[rank - 1] in gold),
                         "named": all_named(query["text"], hits), "across": choice.signals.get("across", 0.0),
                         "signals": {k: choice.signals.get(k, 0.0) for k in SIGNALS}})
    return rows


def matrix(rows: list[dict]) -> np.ndarray:
    """The decision's inputs of rows as a matrix, columns in INPUTS order."""
    return np.array([inputs(r["signals"]) for r in rows])


def weights_of(rows: list[dict]) -> np.ndarray:
    """Each row's weight: every set weighs the same, and within a set each label."""
    out = np.zeros(len(rows))
    sets = {r["set"] for r in rows}
    for name in sets:
        for label in (0, 1):
            members = [i for i, r in enumerate(rows) if r["set"] == name and r["label"] == label]
            out[members] = 1.0 / (len(sets) * 2 * max(1, len(members)))
    return out / out.sum() * len(rows)


# the penalty: 0.001 lets the seif-only inputs (the written questions' share) weigh what they tell; cross-validated by
# question in two folds on the six sets' looks, lay-he 0.589 -> 0.637 balanced, the others within 0.01 or better
L2 = 0.001


def logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = L2, steps: int = 3000,
             rate: float = 0.5) -> tuple[np.ndarray, float]:
    """Weights and bias of a weighted logistic regression by gradient descent."""
    coef, bias = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ coef + bias)))
        g = w * (p - y) / w.sum()
        coef -= rate * (x.T @ g + l2 * coef)
        bias -= rate * g.sum()
    return coef, bias


def outcomes(rows: list[dict], probability: np.ndarray, threshold: float) -> dict[str, tuple[float, float]]:
    """Per set, (share answered where the library holds an answer, share declined where it does not), when the
    writer answers at the first look that is sure enough and names all the question names."""
    answered: dict[tuple, bool] = {}
    for r, p in zip(rows, probability):
        key = (r["set"], r["id"], r["present"])
        can = r["signals"]["candidates"] > 0 and r["named"]
        answered[key] = answered.get(key, False) or bool(can and p >= threshold)
    rates = {}
    for name in {r["set"] for r in rows}:
        yes = [a for (s, _, present), a in answered.items() if s == name and present]
        no = [not a for (s, _, present), a in answered.items() if s == name and not present]
        rates[name] = (float(np.mean(yes)) if yes else 0.0, float(np.mean(no)) if no else 0.0)
    return rates


def fit(rows: list[dict]) -> dict:
    """The decision's card: signals, weights, standardisation, threshold, and each set's figures there."""
    if not rows:
        raise ValueError("no recorded looks: record some with `flask --app app record-decisions`")
    x, y = matrix(rows), np.array([r["label"] for r in rows], dtype=float)
    means, scales = x.mean(axis=0), x.std(axis=0)
    scales[scales == 0] = 1.0
    coef, bias = logistic((x - means) / scales, y, weights_of(rows))
    probability = 1.0 / (1.0 + np.exp(-(((x - means) / scales) @ coef + bias)))
    grid = np.round(np.arange(0.05, 0.96, 0.01), 2)
    score = lambda t: float(np.mean([sum(v) / 2 for v in outcomes(rows, probability, t).values()]))  # noqa: E731
    threshold = float(max(grid, key=score))
    # the one threshold on the judge's score, for comparison, over the sets with no seif among their looks: over
    # seifim the judge alone tells nothing (a balanced accuracy near 0.5 at any threshold), and its threshold also
    # gates the context sentences that follow an answer (writers/answering.py)
    ruled = {r["set"] for r in rows if r["signals"].get("ruling")}
    plain = [i for i, r in enumerate(rows) if r["set"] not in ruled] or list(range(len(rows)))
    kept, judge = [rows[i] for i in plain], x[plain, INPUTS.index("judge")]
    alone = lambda t: float(np.mean([sum(v) / 2 for v in outcomes(kept, judge, t).values()]))  # noqa: E731
    judge_threshold = float(max(grid, key=alone))
    return {"signals": list(SIGNALS), "inputs": list(INPUTS), "weights": [round(float(c), 6) for c in coef],
            "bias": round(float(bias), 6),
            "means": [round(float(m), 6) for m in means], "scales": [round(float(s), 6) for s in scales],
            "threshold": threshold, "balanced_accuracy": round(score(threshold), 4),
            "fitted_on": figures_at(rows, probability, threshold), "looks": len(rows),
            "judge_alone": {"threshold": judge_threshold, "balanced_accuracy": round(alone(judge_threshold), 4),
                            "fitted_on": figures_at(kept, judge, judge_threshold)}}


def figures_at(rows: list[dict], probability, threshold: float) -> dict:
    """Each set's shares answered and declined, and their mean, at threshold."""
    return {name: {"answered": round(a, 4), "declined": round(d, 4), "balanced": round((a + d) / 2, 4)}
            for name, (a, d) in sorted(outcomes(rows, probability, threshold).items())}


def save(card: dict, folder: Path) -> Path:
    """decision.json in the judge's folder; the threshold across languages of the decision it replaces is kept,
    marked as chosen before (calibrate-across chooses it again on the new decision)."""
    path = Path(folder) / "decision.json"
    if "across" not in card and path.exists() and (before := json.loads(path.read_text()).get("across")):
        card["across"] = {**before, "chosen_for": "the decision before this one; run calibrate-across again"}
    path.write_text(json.dumps(card, indent=2) + "\n")
    return path
