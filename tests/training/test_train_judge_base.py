"""train-judge --base: an English judge on all-MiniLM-L6-v2 with every layer trained (issue 45's capacity try)."""
import json

from safetensors.torch import load_file

from checks.judge import AnswerabilityJudge
from training.judge_data import Pair
from training.train_judge import train

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
PAIRS = [Pair("q1", "Who discovered penicillin?", "Alexander Fleming: He discovered penicillin in 1928.", 1.0, "train"),
         Pair("q1", "Who discovered penicillin?", "Alexander Fleming: He was a Scottish physician.", 0.0, "train")]


def test_a_judge_on_minilm_trains_every_layer_and_loads_as_the_shipped_one_does(tmp_path):
    card = train([], tmp_path / "minilm", layers=6, trained_layers=6, epochs=1, extra=PAIRS, base=MINILM)
    state = load_file(str(tmp_path / "minilm" / "model.safetensors"))
    assert card["base"] == MINILM and {int(k.split(".")[1]) for k in state if k.startswith("layers.")} == set(range(6))
    assert json.loads((tmp_path / "minilm" / "judge.json").read_text())["trained_layers"] == 6
    readme = (tmp_path / "minilm" / "README.md").read_text()
    assert MINILM in readme and "holds all 6 layers and the head" in readme and "lower 0 layers" not in readme
    judge = AnswerabilityJudge.load(tmp_path / "minilm")
    scores = judge.score("Who discovered penicillin?", ["Alexander Fleming: He discovered penicillin in 1928."])
    assert scores.shape == (1,) and 0.0 < scores[0] < 1.0
