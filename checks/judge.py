"""The answerability judge: does this sentence answer this question? A cross-encoder trained here.

It reads the question and a candidate sentence (under its passage's heading) together, through the first
layers of the multilingual-e5-small encoder, and gives the probability that the sentence states what the
question asks, not merely that it is about the same subject. The lower layers are e5's own (from its package,
search/e5.py); the folder `data/models/answerability/` holds what training changed: the upper layers it uses
and the head, with `judge.json` (how it was trained, its threshold) and a data card. `flask --app app train-judge`
makes it (training/train_judge.py).
Does not: look at passages other than the one a sentence comes from, or decide what to do with a score (the
offline writer and the generator do).
"""
import json
import logging
from pathlib import Path

import numpy as np

from hebrew.normal import for_models
from search.compute import turn
from search.runtime import Exported, chosen
from search.embedding import resolve_model
from checks.decision import Decision
from checks.ranking import Ranking

log = logging.getLogger(__name__)

DEFAULT_FOLDER = Path(__file__).resolve().parents[1] / "data" / "models" / "answerability"
GROUP = 4  # pairs read in one call, of like length (8: 86 ms of judge CPU a question, 4: 75; docs/hardening.md)


def pair_text(heading: str, sentence: str) -> str:
    """A candidate sentence as the judge reads it: under its passage's heading."""
    return f"{heading}: {sentence}" if heading else sentence


def build_model(base: str, layers: int, trained_layers: int, span: bool = False):
    """The judge: the base's embeddings and first `layers` layers, the top `trained_layers` of them trainable,
    the rest frozen, and a head on the mean of the pair's token states; span: also a head that marks the answer's
    first and last token in the sentence, SQuAD 2.0 style (the first token, where none answers)."""
    import torch
    from transformers import AutoModel

    from checks.judge_network import Judge  # torch is imported with the judge, not with the app

    encoder = AutoModel.from_pretrained(resolve_model(base), dtype=torch.float32, attn_implementation="eager")
    model = Judge(encoder, layers, trained_layers, span)
    for name, parameter in model.named_parameters():
        parameter.requires_grad = name.startswith(("head.", "span.")) or (
            name.startswith("layers.") and int(name.split(".")[1]) >= model.frozen)
    return model


def trained_state(model) -> dict:
    """The weights training changed (the upper layers and the head): what the folder ships."""
    return {name: value.detach().contiguous() for name, value in model.named_parameters() if value.requires_grad}


class AnswerabilityJudge:
    """Scores (question, sentence) pairs: the probability that the sentence answers the question."""

    def __init__(self, model, tokenizer, card: dict, folder: Path, runtime: str = "torch"):
        self.model = model
        self.tokenizer = tokenizer
        self.card = card
        self.folder = Path(folder)
        self.threshold = float(card["threshold"])  # from this probability up, a sentence answers
        self.max_length = int(card["max_length"])
        self.decision = Decision.load(self.folder)  # answer or decline from all a look's signals, when fitted
        self.ranking = Ranking.load(self.folder)  # which candidate fits best, when fitted
        self.runtime = chosen(runtime)
        self.exported = self._export() if self.runtime == "onnx" else None  # the layers, run by ONNX Runtime

    def _export(self):
        """The judge's layers, pooling and head, from the embeddings' output, as an ONNX Runtime session."""
        import torch

        class Through(torch.nn.Module):
            def __init__(self, judge):
                super().__init__()
                self.judge = judge

            def forward(self, states, mask):
                return self.judge.through(states, mask)

        sample = self.tokenizer(["a question"] * 2, ["a sentence that answers it", "another"], padding=True,
                                return_tensors="pt")
        with torch.no_grad():
            states = self.model.embeddings(input_ids=sample["input_ids"])
        axes = {0: "batch", 1: "tokens"}
        return Exported(Through(self.model), {"states": states, "mask": sample["attention_mask"]},
                        {"states": axes, "mask": axes})

    @classmethod
    def load(cls, folder: Path = DEFAULT_FOLDER, runtime: str = "torch") -> "AnswerabilityJudge":
        """Load the judge saved in folder: its base encoder from the base's package, then the trained weights;
        runtime "onnx": its layers run by ONNX Runtime (search/runtime.py)."""
        import torch
        from safetensors.torch import load_file
        from transformers import AutoTokenizer

        folder = Path(folder)
        card_path = folder / "judge.json"
        if not card_path.exists():
            raise FileNotFoundError(f"{folder}/judge.json not found; train the judge with `flask --app app train-judge`")
        card = json.loads(card_path.read_text())
        model = build_model(card["base"], card["layers"], card["trained_layers"], span=bool(card.get("span")))
        state = load_file(str(folder / "model.safetensors"))
        missing = set(trained_state(model)) - set(state)
        if missing:
            raise ValueError(f"{folder}/model.safetensors lacks {sorted(missing)[:3]}; train the judge again")
        model.load_state_dict({k: v.to(torch.float32) for k, v in state.items()}, strict=False)
        model.eval()
        log.info("loaded the answerability judge from %s (base %s)", folder, card["base"])
        return cls(model, AutoTokenizer.from_pretrained(resolve_model(card["base"])), card, folder, runtime)

    def describe(self) -> dict:
        """What /api/health says of the judge."""
        return {"path": str(self.folder), "base": self.card["base"], "threshold": self.threshold,
                "runtime": self.runtime, "trained_on": self.card.get("training_sets"),
                "decision": {"threshold": self.decision.threshold} if self.decision else None}

    def score(self, question: str, texts: list[str]) -> np.ndarray:
        """For each text (a sentence under its heading, see pair_text), the probability that it answers question.

        The pairs are read shortest first, GROUP at a time, each group padded only to its own longest: a look's
        eight pairs run from about 20 tokens to the judge's 128, and padding them all to the longest was a third of
        what the judge read."""
        import torch

        if not texts:
            return np.zeros(0)
        encoded = self.tokenizer([for_models(question)] * len(texts), [for_models(t) for t in texts],
                                 truncation="longest_first", max_length=self.max_length)
        order = sorted(range(len(texts)), key=lambda i: len(encoded["input_ids"][i]))
        out = np.zeros(len(texts))
        with torch.inference_mode():
            for start in range(0, len(order), GROUP):
                group = order[start:start + GROUP]
                batch = self.tokenizer.pad({"input_ids": [encoded["input_ids"][i] for i in group],
                                            "attention_mask": [encoded["attention_mask"][i] for i in group]},
                                           return_tensors="pt")
                with turn():  # search/compute.py
                    if self.exported is None:
                        logits = self.model(batch["input_ids"], batch["attention_mask"]).numpy()
                    else:
                        states = self.model.embeddings(input_ids=batch["input_ids"]).numpy()
                        logits = self.exported(states=states, mask=batch["attention_mask"].numpy())
                out[group] = 1.0 / (1.0 + np.exp(-logits.astype(np.float64)))
        return out
