"""data/lay-questions as its card describes it: the questions, their splits by the seif each was written from."""
import hashlib
import json
from pathlib import Path

from measuring.datasets import read_qrels

FOLDER = Path(__file__).resolve().parents[2] / "data" / "lay-questions"


def seif_hash(ref: str) -> int:
    return int(hashlib.sha256(ref.encode()).hexdigest(), 16)


def test_the_splits_follow_the_seif_each_question_was_written_from():
    rows = [json.loads(line) for line in (FOLDER / "queries.jsonl").read_text(encoding="utf-8").splitlines() if line]
    written = {r["_id"]: r["metadata"]["written_from"] for r in rows}
    assert len(rows) >= 1500 and 0.6 < sum(r["metadata"]["language"] == "he" for r in rows) / len(rows) < 0.72
    split = {name: set(read_qrels(FOLDER, name)) for name in ("train", "test", "fit", "dev", "dev-he", "dev-en")}
    assert split["test"] == {q for q, ref in written.items() if seif_hash(ref) % 5 == 0}
    assert split["train"] == set(written) - split["test"]
    assert split["dev"] == {q for q in split["train"] if seif_hash(written[q]) // 5 % 4 == 0}
    assert split["fit"] | split["dev"] == split["train"] and not split["fit"] & split["dev"]
    assert split["dev-he"] | split["dev-en"] == split["dev"]
    assert {r["metadata"]["split"] for r in rows if r["_id"] in split["test"]} == {"test"}
