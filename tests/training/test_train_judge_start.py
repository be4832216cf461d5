"""train-judge --start: a judge taught more begins from another judge's trained layers and head, not from e5's."""
import json

import pytest
from safetensors.torch import load_file

from checks.judge import DEFAULT_FOLDER
from training.judge_data import Pair
from training.train_judge import train

PAIRS = [Pair("q1", "Who discovered penicillin?", "Alexander Fleming: He discovered penicillin in 1928.", 1.0, "train"),
         Pair("q1", "Who discovered penicillin?", "Alexander Fleming: He was a Scottish physician.", 0.0, "train"),
         Pair("q2", "How high is Everest?", "Mount Everest: It is 8,849 metres high.", 1.0, "train"),
         Pair("q2", "How high is Everest?", "Mount Everest: It lies in the Himalayas.", 0.0, "train")]


@pytest.mark.skipif(not (DEFAULT_FOLDER / "model.safetensors").exists(), reason="no shipped judge to start from")
def test_a_judge_taught_more_starts_from_the_given_judge(tmp_path):
    shipped = load_file(str(DEFAULT_FOLDER / "model.safetensors"))
    head = max((k for k in shipped if k.startswith("head.")), key=lambda k: shipped[k].numel())  # a weight matrix
    card = train([], tmp_path / "more", epochs=1, extra=PAIRS, start=DEFAULT_FOLDER, lr=1e-9, head_lr=1e-9)
    taught = load_file(str(tmp_path / "more" / "model.safetensors"))
    assert card["started_from"] == str(DEFAULT_FOLDER) and card["written_pairs"] == len(PAIRS)
    assert (taught[head].float() - shipped[head].float()).abs().max() < 1e-3  # the shipped head, barely moved
    fresh = load_file(str(train([], tmp_path / "fresh", epochs=1, extra=PAIRS, lr=1e-9, head_lr=1e-9) and
                          tmp_path / "fresh" / "model.safetensors"))
    assert (fresh[head].float() - shipped[head].float()).abs().max() > 0.05  # a head of its own otherwise
    assert f"Started from {DEFAULT_FOLDER} and taught 1 more epoch" in (tmp_path / "more" / "README.md").read_text()
    assert json.loads((tmp_path / "more" / "judge.json").read_text())["started_from"] == str(DEFAULT_FOLDER)
