"""The query classifier: a transformer encoder with a dropout and a linear head on its pooled state.

`query_classifier_model/` holds config.json (encoder id or path, labels, whether the encoder was
frozen) and the weights as model.safetensors or pytorch_model.bin. When the encoder was frozen in
training, the weights file holds only the head and the encoder is loaded from its own package;
otherwise it holds the whole model. Training lives in training/train_classifier.py.
"""
import json
import logging
from pathlib import Path

import torch
from torch import nn

from search.compute import turn
from search.runtime import accelerate

log = logging.getLogger(__name__)

LABELS = ["factual_lookup", "explanation", "reasoning", "calculation"]
MAX_LENGTH = 64  # questions are short; longer ones are cut


POOLINGS = ("first_token", "mean")


class QueryClassifier(nn.Module):
    """Encoder -> pooled state -> dropout(0.2) -> linear layer over the labels.

    The design pools the first token, which suits an encoder fine-tuned with the head (DeBERTa).
    A frozen sentence-embedding encoder such as MiniLM was trained with mean pooling: on our
    held-out questions a head on its first token scored 0.72-0.76, on its mean 0.91. So pooling
    is part of the saved config, and training/train_classifier.py picks mean for frozen encoders.
    """

    def __init__(self, encoder, tokenizer, labels=LABELS, dropout: float = 0.2, encoder_name: str = "",
                 pooling: str = "first_token"):
        super().__init__()
        if pooling not in POOLINGS:
            raise ValueError(f"pooling must be one of {POOLINGS}, not {pooling!r}")
        self.encoder = encoder
        self.tokenizer = tokenizer
        self.labels = list(labels)
        self.encoder_name = encoder_name
        self.pooling = pooling
        self.dropout = nn.Dropout(dropout)
        self.classifier = nn.Linear(encoder.config.hidden_size, len(self.labels))

    @classmethod
    def from_encoder(cls, encoder_name: str, labels=LABELS, pooling: str = "first_token") -> "QueryClassifier":
        """A classifier with an untrained head on the encoder `encoder_name` (id or path)."""
        from transformers import AutoModel, AutoTokenizer

        from search.embedding import resolve_model

        path = resolve_model(encoder_name)
        encoder, tokenizer = AutoModel.from_pretrained(path), AutoTokenizer.from_pretrained(path)
        return cls(encoder, tokenizer, labels, encoder_name=encoder_name, pooling=pooling)

    def features(self, questions: list[str]) -> torch.Tensor:
        """The encoder's pooled state for each question."""
        batch = self.tokenizer(questions, padding=True, truncation=True, max_length=MAX_LENGTH, return_tensors="pt")
        states = self.encoder(**batch).last_hidden_state
        if self.pooling == "first_token":
            return states[:, 0]
        mask = batch["attention_mask"].unsqueeze(-1).to(states.dtype)
        return (states * mask).sum(dim=1) / mask.sum(dim=1)

    def forward(self, questions: list[str]) -> torch.Tensor:
        """Label logits, one row per question."""
        return self.classifier(self.dropout(self.features(questions)))

    @torch.inference_mode()
    def classify(self, question: str) -> tuple[str, float]:
        """The most likely label of question and its probability."""
        self.eval()
        with turn():  # search/compute.py
            probs = torch.softmax(self([question])[0], dim=-1)
        best = int(probs.argmax())
        return self.labels[best], float(probs[best])

    def save(self, folder: Path, frozen_encoder: bool = True, fmt: str = "safetensors") -> None:
        """Write config.json and the weights (head only when the encoder was frozen)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        state = self.classifier.state_dict() if frozen_encoder else self.state_dict()
        state = {(k if not frozen_encoder else f"classifier.{k}"): v.contiguous() for k, v in state.items()}
        config = {"encoder": self.encoder_name, "labels": self.labels, "frozen_encoder": frozen_encoder,
                  "dropout": self.dropout.p, "pooling": self.pooling}
        (folder / "config.json").write_text(json.dumps(config, indent=2) + "\n")
        if fmt == "safetensors":
            from safetensors.torch import save_file

            save_file(state, str(folder / "model.safetensors"))
        else:
            torch.save(state, folder / "pytorch_model.bin")

    @classmethod
    def load(cls, folder: Path, encoder: str | None = None, runtime: str = "torch") -> "QueryClassifier":
        """Load from folder: model.safetensors if present, else pytorch_model.bin; runtime "onnx": the encoder's
        layers run in ONNX Runtime (search/runtime.py)."""
        folder = Path(folder)
        config_path = folder / "config.json"
        if not config_path.exists():
            raise FileNotFoundError(f"{folder}/config.json not found; train one with `flask --app app train-classifier`")
        config = json.loads(config_path.read_text())
        if (folder / "model.safetensors").exists():
            from safetensors.torch import load_file

            state = load_file(str(folder / "model.safetensors"))
        elif (folder / "pytorch_model.bin").exists():
            state = torch.load(folder / "pytorch_model.bin", map_location="cpu", weights_only=True)
        else:
            raise FileNotFoundError(
                f"no model.safetensors or pytorch_model.bin in {folder}/; train one with `flask --app app train-classifier`"
            )
        model = cls.from_encoder(encoder or config["encoder"], config["labels"], config.get("pooling", "first_token"))
        model.dropout.p = config.get("dropout", 0.2)
        # a head-only file must match the head exactly; a full file must match the whole model
        missing, unexpected = model.load_state_dict(state, strict=False)
        if unexpected or any(k.startswith("classifier.") for k in missing) or (missing and not config["frozen_encoder"]):
            raise ValueError(f"{folder}/ does not hold weights for this classifier (missing {missing[:3]}, unexpected {unexpected[:3]})")
        model.eval()
        accelerate(model.encoder, runtime)
        log.info("loaded query classifier from %s (encoder %s)", folder, model.encoder_name)
        return model
