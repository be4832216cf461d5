"""Fitting e5 to a book: a short real run trains only the top layers and writes what search/tuned.py loads."""
import json

import numpy as np
import pytest
from safetensors.numpy import load_file

from search import e5, tuned
from search.embedding import Embedder

SEIFIM = [
    ("Orach Chayim 318:1", "דיני בישול בשבת. ובו יט סעיפים: המבשל בשבת במזיד אסור לו לעולם הגה: ויש אומרים שמותר לאחרים"),
    ("Orach Chayim 318:2", "מותר לתת מים על גבי הכירה כדי שיפשירו ולא יגיעו לחום שהיד סולדת בו"),
    ("Choshen Mishpat 5:1", "דין מכירה בפני עדים. ובו ג סעיפים: המוכר שדה בפני שנים הרי זה קנוי ללוקח"),
    ("Choshen Mishpat 5:2", "המוכר בית לחבירו צריך לכתוב לו שטר מכירה בפני עדים"),
]


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")


def test_a_short_run_trains_the_top_layers_and_the_folder_loads_as_an_embedder(tmp_path):
    from training.train_embedder import train

    book = tmp_path / "sa.jsonl"
    book.write_text("\n".join(json.dumps({"ref": f"Shulchan Arukh, {ref}", "he": he}, ensure_ascii=False)
                              for ref, he in SEIFIM), encoding="utf-8")
    out = tmp_path / "embedder"
    card = train(book, [], out, trained_layers=1, batch_size=4, lr=1e-3, max_length=32)
    assert card["trained_layers"] == 1 and card["pairs"] == sum(card["sources"].values()) > 0
    layers = load_file(str(out / "layers.safetensors"))
    assert layers and all(name.startswith("encoder.layer.11.") for name in layers)
    base = load_file(str(e5.model_folder() / "model.safetensors"))
    name = "encoder.layer.11.output.dense.weight"
    assert not np.allclose(layers[name].astype(np.float32), base[name], atol=1e-4)  # it learned something
    assert json.loads((out / "embedder.json").read_text())["book"] == "sa.jsonl" and (out / "README.md").exists()
    folder = tuned.model_folder(out, cache_dir=tmp_path / "cache")
    vectors = Embedder.load(str(folder)).embed_passages([he for _, he in SEIFIM])
    assert vectors.shape == (4, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
