"""ONNX Runtime runs the shipped judge's layers (search/runtime.py): the same scores as torch's, at every batch
size and length, and the setting chooses it."""
import numpy as np
import pytest

from checks.judge import DEFAULT_FOLDER, AnswerabilityJudge
from configuration.settings import ModelSettings

QUESTION = "What is the deepest point in the ocean?"
SENTENCES = [
    "Mariana Trench: The greatest ocean depth measured is in the Challenger Deep of the Mariana Trench, at a depth "
    "of 10,994 m below sea level.",
    "Timor Sea: The Sunda Trench marks the deepest point of the Timor Sea.",
    "Ocean: It covers about 71% of the Earth's surface.",
    "אוקיינוס: הנקודה העמוקה ביותר באוקיינוס היא מעמקי צ'לנג'ר.",
] * 10  # 40: more than one batch of the judge's, each padded to its own longest


@pytest.fixture(scope="module")
def judges():
    if not (DEFAULT_FOLDER / "judge.json").exists():
        pytest.skip("no shipped judge in data/models/answerability")
    return AnswerabilityJudge.load(DEFAULT_FOLDER, "torch"), AnswerabilityJudge.load(DEFAULT_FOLDER, "onnx")


def test_onnx_scores_as_torch_does_at_every_size(judges):
    torch_judge, onnx_judge = judges
    assert (torch_judge.runtime, onnx_judge.runtime) == ("torch", "onnx") and onnx_judge.describe()["runtime"] == "onnx"
    for chosen in (SENTENCES[:1], SENTENCES[1:4], SENTENCES):
        expected, got = torch_judge.score(QUESTION, chosen), onnx_judge.score(QUESTION, chosen)
        assert got.shape == expected.shape and np.abs(got - expected).max() < 1e-4
    long = ["Ocean: " + "the trench runs deep and far " * 60]  # cut at the judge's max length
    assert abs(onnx_judge.score(QUESTION, long)[0] - torch_judge.score(QUESTION, long)[0]) < 1e-4
    assert onnx_judge.score(QUESTION, []).shape == (0,)
    alone = [onnx_judge.score(QUESTION, [s])[0] for s in SENTENCES[:4]]  # read shortest first: the order is kept
    assert np.abs(onnx_judge.score(QUESTION, SENTENCES[:4]) - alone).max() < 1e-4


def test_the_setting_is_onnx_or_torch():
    assert ModelSettings().runtime == "onnx"
    with pytest.raises(ValueError, match="MODEL_RUNTIME"):
        ModelSettings(runtime="tensorrt")


def test_the_embedder_and_the_classifier_run_in_onnx_with_the_same_outputs():
    from question.classifier import QueryClassifier
    from search.embedding import Embedder
    from search.runtime import switch

    questions = ["Who discovered penicillin?", "How deep is the Mariana Trench, and who first reached its floor?"]
    embedder = Embedder.load("sentence-transformers/all-MiniLM-L6-v2", "onnx")
    encoder = embedder.model[0].auto_model
    assert embedder.runtime == encoder.runtime == "onnx"
    fast = embedder.embed(questions + SENTENCES[:3])
    switch(encoder, "torch")
    slow = embedder.embed(questions + SENTENCES[:3])
    assert encoder.runtime == "torch" and np.abs(fast - slow).max() < 1e-5

    classifier = QueryClassifier.load("query_classifier_model", runtime="onnx")
    assert classifier.encoder.runtime == "onnx"
    labels = [classifier.classify(q) for q in questions]
    switch(classifier.encoder, "torch")
    assert [classifier.classify(q)[0] for q in questions] == [label for label, _ in labels]
    assert all(abs(p - classifier.classify(q)[1]) < 1e-4 for q, (_, p) in zip(questions, labels))


def test_an_int8_embedder_stays_in_torch():
    from search.embedding import Embedder

    embedder = Embedder.load("sentence-transformers/all-MiniLM-L6-v2@int8", "onnx")
    assert embedder.runtime == "torch" and not hasattr(embedder.model[0].auto_model, "onnx_forward")
    assert embedder.embed(["Who discovered penicillin?"]).shape == (1, embedder.dim)
