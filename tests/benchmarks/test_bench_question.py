"""bench-question on the real models over the sample library: each runtime's CPU by model call, and the two
runtimes' answers compared; the pipeline is left as it was."""
import pytest
import torch

from app import create_app
from benchmarks.bench_question import compare, judge_of
from search import compute

QUESTIONS = ["Who painted the Mona Lisa?", "When did the Berlin Wall fall?", "Who first walked on the Moon?"]


@pytest.fixture
def restore_threads(monkeypatch):
    monkeypatch.setattr(compute, "_taking_turns", compute._taking_turns)
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


def test_each_runtime_is_timed_by_model_call_and_their_answers_agree(real_library, restore_threads):
    app = create_app({"TESTING": True, "LIBRARY_DIR": str(real_library), "LOAD_ON_START": True,
                      "GEMINI_API_KEY": "", "ANTHROPIC_API_KEY": ""})
    pipeline = app.extensions["rag"].services.pipeline
    figures = compare(pipeline, QUESTIONS, warm_up=1)
    assert figures["agreement"] == {"decisions": 1.0, "answers": 1.0}
    assert figures["onnx"]["threads_a_call"] == 1 and figures["torch"]["threads_a_call"] >= 1
    for run in (figures["torch"], figures["onnx"]):
        parts = run["cpu_ms_by_part"]
        assert run["questions"] == 3 and parts["judge"] > 0 and parts["classifier"] > 0 and parts["embedder"] > 0
        assert abs(sum(parts.values()) - run["cpu_ms_per_question"]) < 0.5
    judge = judge_of(pipeline)
    assert "score" not in vars(judge) and judge.exported is not None  # unwrapped, and left in ONNX Runtime
    assert pipeline.classifier.encoder.runtime == "onnx"
