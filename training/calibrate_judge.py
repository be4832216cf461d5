"""The answerability judge's threshold, chosen on the calibrate split of the dev sets, through the real pipeline.

Each question of the split is retrieved twice, with its gold documents and without them, and the offline writer's
judge reads the passages as it would to answer; its best probability is recorded with whether the question named
something no passage mentions (the writer declines those anyway). Only questions whose gold passage is retrieved
count as answerable. `record` writes one set's outcomes to a file, since each set is run with its own embedder;
`choose` picks the threshold with the best balanced accuracy (answered with the gold, declined without it),
averaged over the sets, so that neither language decides alone.
"""
import json
from pathlib import Path

import numpy as np

from training.calibrate import with_and_without_gold
from measuring.datasets import in_judge_split, read_qrels, read_queries, sample
from checks.sentences import all_named


def record(pipeline, folder: Path, split: str = "calibrate", limit: int | None = None, seed: int = 0) -> list[dict]:
    """For each question of the judge's split: the writer's best judge probability with and without the gold."""
    writer = pipeline.generator.writers["offline"]
    qrels = read_qrels(folder)
    queries = sample(in_judge_split(read_queries(folder), qrels, folder / "corpus.jsonl", split), qrels, limit, seed)
    outcomes = []
    for query, answerable, hits in with_and_without_gold(pipeline.retriever, queries, qrels, "judge calibration"):
        query_type, _ = pipeline.classifier.classify(query["text"])
        choice = writer.choose(query["text"], query_type, hits)
        outcomes.append({"set": folder.name, "id": query["id"], "gold": answerable,
                         "p": choice.answerability or 0.0, "named": all_named(query["text"], hits)})
    return outcomes


def rates(outcomes: list[dict], threshold: float) -> tuple[float, float]:
    """(share answered with the gold present, share declined without it) at threshold."""
    answered = [o["named"] and o["p"] >= threshold for o in outcomes if o["gold"]]
    declined = [not o["named"] or o["p"] < threshold for o in outcomes if not o["gold"]]
    return float(np.mean(answered)) if answered else 0.0, float(np.mean(declined)) if declined else 0.0


def choose(files: list[Path]) -> dict:
    """The threshold with the best balanced accuracy averaged over the recorded sets, and each set's rates there."""
    sets: dict[str, list[dict]] = {}
    for path in files:
        for outcome in json.loads(Path(path).read_text()):
            sets.setdefault(outcome["set"], []).append(outcome)
    if not sets:
        raise ValueError("no recorded outcomes: the sets' calibrate splits held no question whose gold was retrieved")
    grid = np.round(np.arange(0.02, 0.99, 0.01), 2)
    mean = lambda t: float(np.mean([sum(rates(o, t)) / 2 for o in sets.values()]))  # noqa: E731
    best = max(grid, key=mean)
    return {"threshold": float(best), "balanced_accuracy": round(mean(best), 4),
            "sets": {name: {"questions": sum(o["gold"] for o in outcomes),
                            "answered_with_gold": round(rates(outcomes, best)[0], 4),
                            "declined_without_gold": round(rates(outcomes, best)[1], 4)}
                     for name, outcomes in sets.items()}}
