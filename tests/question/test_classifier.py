"""The query classifier: loading from both weight formats, and the shipped model on held-out questions."""
import json

import pytest
import torch

from training.train_classifier import accuracy, read_questions
from question.classifier import LABELS, QueryClassifier


@pytest.mark.parametrize("fmt, filename", [("safetensors", "model.safetensors"), ("bin", "pytorch_model.bin")])
@pytest.mark.parametrize("frozen", [True, False])
def test_saved_classifier_loads_from_either_weight_format(tmp_path, tiny_bert, fmt, filename, frozen):
    torch.manual_seed(0)
    model = QueryClassifier.from_encoder(tiny_bert, pooling="first_token")
    torch.nn.init.normal_(model.classifier.weight)
    if not frozen:
        torch.nn.init.normal_(model.encoder.embeddings.word_embeddings.weight)  # a fine-tuned encoder is saved too
    model.save(tmp_path, frozen_encoder=frozen, fmt=fmt)
    assert (tmp_path / filename).exists()
    loaded = QueryClassifier.load(tmp_path)
    model.eval()
    questions = ["Who wrote Hamlet?", "What is 2 + 2?"]
    with torch.no_grad():
        torch.testing.assert_close(loaded(questions), model(questions))
    assert loaded.pooling == "first_token" and loaded.labels == LABELS
    label, confidence = loaded.classify("Who wrote Hamlet?")
    assert label in LABELS and 0.25 <= confidence <= 1.0


def test_missing_weights_say_how_to_train(tmp_path, tiny_bert):
    QueryClassifier.from_encoder(tiny_bert).save(tmp_path)
    (tmp_path / "model.safetensors").unlink()
    with pytest.raises(FileNotFoundError, match="train-classifier"):
        QueryClassifier.load(tmp_path)
    with pytest.raises(FileNotFoundError, match="train-classifier"):
        QueryClassifier.load(tmp_path / "nowhere")


def test_weights_of_another_model_are_refused(tmp_path, tiny_bert):
    from safetensors.torch import save_file

    QueryClassifier.from_encoder(tiny_bert).save(tmp_path)
    save_file({"something.else": torch.zeros(2)}, str(tmp_path / "model.safetensors"))
    with pytest.raises(ValueError, match="does not hold weights"):
        QueryClassifier.load(tmp_path)


def test_shipped_classifier_is_accurate_on_held_out_questions(real_classifier):
    held_out = read_questions("data/query_types.jsonl")["test"]
    assert len(held_out) >= 100
    with torch.no_grad():
        features = torch.cat([real_classifier.features([q for q, _ in held_out[i:i + 32]]) for i in range(0, len(held_out), 32)])
    result = accuracy(real_classifier, features, [label for _, label in held_out])
    shipped = json.loads(open("query_classifier_model/metrics.json").read())
    assert result["accuracy"] == pytest.approx(shipped["test"]["accuracy"], abs=0.01)  # the card tells the truth
    assert result["accuracy"] >= 0.85


@pytest.mark.parametrize(
    "question, label",
    [
        ("Who discovered penicillin?", "factual_lookup"),
        ("How does photosynthesis work?", "explanation"),
        ("Would Rome have lasted longer without splitting the empire?", "reasoning"),
        ("What is 15% of 240?", "calculation"),
    ],
)
def test_shipped_classifier_on_clear_questions(real_classifier, question, label):
    assert real_classifier.classify(question)[0] == label


def test_labelled_set_is_large_and_balanced():
    splits = read_questions("data/query_types.jsonl")
    every = splits["train"] + splits["test"]
    assert len(every) >= 400 and len({q for q, _ in every}) == len(every)
    assert {label: sum(1 for _, l in every if l == label) for label in LABELS} == {label: 130 for label in LABELS}
    assert not {q for q, _ in splits["train"]} & {q for q, _ in splits["test"]}
