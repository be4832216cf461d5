"""The embedder fitted to the Shulchan Arukh: generated from e5's package and the shipped layers, loaded offline."""
import hashlib
import json

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

from search import e5, tuned
from search.embedders import E5, E5_SA
from search.embedding import Embedder, resolve_model, weights_revision


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")


def test_the_shipped_layers_and_card_are_in_the_repository():
    card = json.loads((tuned.SHIPPED / "embedder.json").read_text())
    assert card["base"] == E5 and 0 < card["trained_layers"] < card["layers"]
    assert "halacha-he" not in json.dumps(card["sources"]) and card["qa_sets"] == ["heq-dev"]
    names = set(load_file(str(tuned.SHIPPED / "layers.safetensors")))
    top = {f"encoder.layer.{i}." for i in range(card["layers"] - card["trained_layers"], card["layers"])}
    assert names and all(any(n.startswith(t) for t in top) for n in names)  # only the trained layers ship
    assert "Never trained on" in (tuned.SHIPPED / "README.md").read_text()


def test_the_folder_is_e5_with_the_trained_layers_put_in(tmp_path):
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    base = e5.model_folder()
    weights = load_file(str(base / "model.safetensors"))
    name = "encoder.layer.11.output.dense.bias"
    save_file({name: np.full_like(weights[name], 0.5, dtype=np.float16)}, str(shipped / "layers.safetensors"))
    folder = tuned.model_folder(shipped, cache_dir=tmp_path / "cache")
    made = load_file(str(folder / "model.safetensors"))
    assert np.all(made[name] == 0.5) and made[name].dtype == np.float32
    other = "encoder.layer.3.attention.self.query.weight"
    assert np.array_equal(made[other], weights[other])
    assert (folder / "tokenizer.json").exists() and (folder / "1_Pooling" / "config.json").exists()
    again = tuned.model_folder(shipped, cache_dir=tmp_path / "cache")  # the stamp matches: not written again
    assert again == folder and (folder / "model.safetensors").stat().st_mtime == (again / "model.safetensors").stat().st_mtime
    first = weights_revision(str(folder))
    assert first == hashlib.sha256((shipped / "layers.safetensors").read_bytes()).hexdigest()[:12]
    save_file({name: np.full_like(weights[name], 0.25, dtype=np.float16)}, str(shipped / "layers.safetensors"))
    assert np.all(load_file(str(tuned.model_folder(shipped, cache_dir=tmp_path / "cache") / "model.safetensors"))[name] == 0.25)
    assert weights_revision(str(folder)) not in (first, None)  # a library embedded by the first is refused
    assert weights_revision(str(base)) is None  # e5 itself is no training of ours


def test_layers_e5_does_not_have_are_refused(tmp_path):
    (tmp_path / "layers.safetensors").write_bytes(b"")
    save_file({"encoder.layer.99.output.dense.bias": np.zeros(3, np.float16)}, str(tmp_path / "layers.safetensors"))
    with pytest.raises(ValueError, match="train it again"):
        tuned.model_folder(tmp_path, cache_dir=tmp_path / "cache")
    with pytest.raises(FileNotFoundError, match="train-embedder"):
        tuned.model_folder(tmp_path / "nothing", cache_dir=tmp_path / "cache")


def test_the_real_fitted_embedder_loads_by_its_id_and_reads_hebrew():
    embedder = Embedder.load(E5_SA)
    assert resolve_model(E5_SA).endswith(tuned.FOLDER_NAME)
    passages = embedder.embed_passages(["מותר לתת מים על גבי הכירה כדי שיפשירו בשבת",
                                        "המוכר שדה בפני שנים הרי זה קנוי ללוקח"])
    question = embedder.embed_queries(["אפשר לחמם מים על הפלטה בשבת?"])[0]
    assert passages.shape == (2, 384) and np.allclose(np.linalg.norm(passages, axis=1), 1, atol=1e-5)
    assert passages[0] @ question > passages[1] @ question
    base = Embedder.load(E5).embed_passages(["מותר לתת מים על גבי הכירה כדי שיפשירו בשבת"])[0]
    assert 0.5 < base @ passages[0] < 0.9999  # trained: not e5's vector, but not far from it
