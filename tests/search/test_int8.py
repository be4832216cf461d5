"""An embedder run in int8 ("<name>@int8"): its own name, the same thresholds, and nearly the same vectors."""
import pytest
import torch

from search.embedders import E5, INT8, MINILM, settings
from search.embedding import Embedder, resolve_model

SENTENCES = ["Sir Alexander Fleming discovered penicillin in 1928.",
             "The Nile is a major river in northeastern Africa.",
             "מדליקים נרות שבת בערב שבת לפני שקיעת החמה.",
             "Who discovered penicillin?"]


def test_the_int8_name_keeps_the_rows_thresholds_and_folder():
    for name in (E5, MINILM):
        row, quantised = settings(name), settings(name + INT8)
        assert quantised.int8 and not row.int8
        assert (quantised.support, quantised.decline, quantised.alpha_he, quantised.prompts) == (
            row.support, row.decline, row.alpha_he, row.prompts)
    assert resolve_model(MINILM + INT8) == resolve_model(MINILM)
    assert not settings("some/unknown-model" + INT8).package


@pytest.fixture(scope="module")
def both():
    with pytest.MonkeyPatch.context() as env:
        env.setenv("HF_HUB_OFFLINE", "1")
        return Embedder.load(MINILM), Embedder.load(MINILM + INT8)


def test_the_int8_model_runs_quantised_linear_layers(both):
    full, quantised = both
    assert quantised.name == MINILM + INT8  # a library records this name, so it is never mixed with full's vectors
    kinds = {type(m).__module__ for m in quantised.model.modules()}
    assert any("quantized" in kind for kind in kinds)
    assert not any(isinstance(m, torch.nn.Linear) and type(m) is torch.nn.Linear for m in quantised.model.modules())
    assert any(type(m) is torch.nn.Linear for m in full.model.modules())


def test_int8_vectors_stay_close_to_the_full_models_and_rank_alike(both):
    full, quantised = both
    a, b = full.embed_passages(SENTENCES[:3]), quantised.embed_passages(SENTENCES[:3])
    assert (a * b).sum(axis=1).min() > 0.9  # MiniLM: 0.92 on the Hebrew line it reads poorly, 0.98 on English
    question = quantised.embed_queries(SENTENCES[3:])[0]
    assert int((b @ question).argmax()) == int((a @ full.embed_queries(SENTENCES[3:])[0]).argmax()) == 0
