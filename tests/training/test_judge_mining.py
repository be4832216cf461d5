"""Negatives mined with the project's own search: the pool, and sentences ranked as the writer would be fooled."""
from contextlib import contextmanager
from pathlib import Path

import pytest

from training.judge_data import pairs
from training.judge_mining import Miner, pool_documents
from models import Chunk, Hit


def test_the_pool_prefixes_each_corpus_and_refuses_measurement_sets(beir, tmp_path):
    docs = pool_documents([beir], wiki=None)
    assert docs and all(d.id.startswith(f"{beir.name}/") for d in docs)
    for name in ("wiki-trust", "wiki-asked", "scifact-dev"):
        with pytest.raises(ValueError, match="measurement"):
            pool_documents([tmp_path / name], wiki=None)


class Found:
    """A retriever that finds the same passages for every question and remembers what it was told to leave out."""

    def __init__(self, passages):
        self.passages = passages
        self.left_out = []

    @contextmanager
    def excluding(self, documents):
        self.left_out.append(set(documents))
        yield self

    def search(self, question, top_k=8, *args, **kwargs):
        return [Hit(Chunk(f"{t}#0", t, t, text, 0, len(text)), 1.0, 0.5, 0.5) for t, text in self.passages][:top_k]


def test_sentences_of_the_right_type_about_the_subject_come_first_and_answers_never():
    found = Found([("Zurich", "Zurich is a city on a lake. It had a population of 436,551 in 2024."),
                   ("Switzerland", "Switzerland is a country of 9 million people. Its capital is Bern.")])
    miner = Miner(found)
    got = miner.negatives("What is the population of Switzerland?", {"x/1"}, ["9 million"], 2)
    assert found.left_out == [{"x/1"}]
    assert all("9 million" not in s for _, s in got)  # a sentence holding the answer is never a negative
    assert got[0] == ("Zurich", "It had a population of 436,551 in 2024.")  # a number of people, about Switzerland's neighbour


def test_training_pairs_take_mined_negatives_and_measured_splits_keep_their_own(beir):
    miner = Miner(Found([("Other", "Nothing here holds any answer. Not even a number like 42.")]))
    mined = pairs(Path(beir), miner=miner, mined=1)
    plain = pairs(Path(beir))
    train = [p for p in mined if p.split == "train"]
    assert train and {p.query_id for p in train} == {p.query_id for p in train if p.text.startswith("Other: ")}
    assert all(p.label == 0.0 for p in train if p.text.startswith("Other: "))
    held = lambda ps: sorted((p.query_id, p.text, p.label) for p in ps if p.split != "train")  # noqa: E731
    assert held(mined) == held(plain)
