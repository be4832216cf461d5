"""Fit multilingual-e5-small to the library: contrastive training of its upper layers on embedder_pairs.py's pairs.

Each question of a batch should find its own passage among the batch's passages (in-batch negatives, cross
entropy over cosines times SCALE). The embeddings and lower layers stay e5's own, frozen; only the top
`trained_layers` layers learn, so the folder ships those layers (fp16, a few MB) and search/tuned.py rebuilds the
whole model from e5's package and them. Questions and passages are read as the embedder reads them: the
one normal form (hebrew.normal.for_models) after E5's "query: " and "passage: " prompts.
The folder gets layers.safetensors, embedder.json (how it was trained) and a data card (README.md).
"""
import json
import logging
import random
import time
from collections import Counter
from pathlib import Path

from training.embedder_negatives import hard_negatives
from training.embedder_pairs import batches, commentary, lay_questions, qa_set, seif_texts, shulchan_arukh
from hebrew.normal import for_models
from search.embedders import E5, EMBEDDERS

log = logging.getLogger(__name__)

SCALE = 20.0  # cosines times this are the logits (a temperature of 0.05)
CARD = """# multilingual-e5-small fitted to the Shulchan Arukh

A sentence embedder for search: multilingual-e5-small (MIT) with its top {trained} of {layers} layers trained here
(`flask --app app train-embedder`, {minutes} minutes on {threads} CPU threads). The embeddings and lower layers
are e5's own, loaded from its package (search/e5.py); this folder holds the trained layers (fp16).

- Training data, {pairs:,} pairs ({sources}), {epochs} epoch(s), batches of {batch_size} with in-batch negatives:
  - heading: a siman's topic against one of its seifim (without the heading), up to {per_siman} seifim per siman;
  - gloss: a gloss of the Rema against the ruling it glosses;
  - glossary: a phrase of data/glossary.tsv (English or everyday Hebrew) against a seif holding the text's words
    the glossary gives for it;
  - heq-dev: the questions of the answerability judge's train split (articles split by title) against their
    paragraphs;
  - lay: the train split of data/lay-questions (questions written for this project the way people ask, Hebrew and
    English) against each seif that answers it{negatives};
  - commentary: passages of Ba'er Hetev, Biur Halacha and the Kitzur against the seif each comments on
    (../shared/data/shulchan-arukh-commentary-pairs).
- Never trained on: data/eval/halacha-he, data/eval/wiki-trust, data/eval/pointed-tanakh, SciFact,
  ../shared/sealed, heq-dev's calibrate and test splits, data/lay-questions' test split.
- Source texts: the Shulchan Arukh from ../shared/data/shulchan-arukh (public domain Hebrew text); heq-dev
  CC BY 4.0; the weights derive from multilingual-e5-small (MIT).
- Figures: see the README, "Hebrew and Aramaic" (`flask --app app eval` with this embedder).
"""


def training_pairs(book: Path, qa_sets: list[Path], rng: random.Random, lay: Path | None = None,
                   comments: Path | None = None, comment_limit: int | None = None, base_limit: int | None = None,
                   search=None) -> list:
    """The pairs to train on: the book's and the QA sets' (a sample of base_limit), the lay questions' train split
    (with their hard negatives when search is given) and the commentary pairs (a sample of comment_limit)."""
    base = shulchan_arukh(book, rng) + [p for folder in qa_sets for p in qa_set(folder)]
    pairs = rng.sample(base, min(base_limit, len(base))) if base_limit else base
    texts = seif_texts(book) if lay or comments else {}
    if lay:
        asked = lay_questions(lay, texts)
        if search is not None:
            gold: dict[str, set[str]] = {}
            for pair, ref in zip(asked, lay_refs(lay, texts), strict=True):
                gold.setdefault(pair.query, set()).add(ref)
            asked = hard_negatives(asked, search, texts, gold)
        pairs += asked
    if comments:
        pairs += commentary(comments, texts, rng, comment_limit)
    return pairs


def lay_refs(folder: Path, texts: dict[str, str]) -> list[str]:
    """The refs of lay_questions' pairs, in their order (the same filter: a ref the book holds)."""
    from measuring.datasets import read_qrels

    return [ref for refs in read_qrels(Path(folder), "train").values() for ref, grade in refs.items()
            if grade > 0 and ref in texts]


def train(book: Path, qa_sets: list[Path], out: Path, trained_layers: int = 2, epochs: int = 1,
          batch_size: int = 32, lr: float = 3e-5, max_length: int = 128, seed: int = 0,
          limit: int | None = None, **sources) -> dict:
    """Train on training_pairs (sources: its lay, comments, comment_limit, base_limit, search), save the layers to
    out, return the card."""
    import torch
    import torch.nn.functional as F
    from safetensors.torch import save_file
    from transformers import AutoModel, AutoTokenizer

    from search.embedding import resolve_model

    rng = random.Random(seed)
    torch.manual_seed(seed)
    pairs = training_pairs(book, qa_sets, rng, **sources)
    pairs = rng.sample(pairs, min(limit, len(pairs))) if limit else pairs
    folder = resolve_model(E5)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder, dtype=torch.float32)
    layers = model.config.num_hidden_layers
    trained = {f"encoder.layer.{i}." for i in range(layers - trained_layers, layers)}
    for name, parameter in model.named_parameters():
        parameter.requires_grad = any(name.startswith(prefix) for prefix in trained)
    prompts = EMBEDDERS[E5].prompts

    def embed(texts: list[str], prompt: str):
        encoded = tokenizer([prompt + for_models(t) for t in texts], padding=True, truncation=True,
                            max_length=max_length, return_tensors="pt")
        states = model(**encoded).last_hidden_state
        mask = encoded["attention_mask"].unsqueeze(-1).to(states.dtype)
        return F.normalize((states * mask).sum(1) / mask.sum(1), dim=-1)

    parameters = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(parameters, lr=lr, weight_decay=0.01)
    plan = [batches(pairs, batch_size, rng) for _ in range(epochs)]  # each epoch's batches, so steps is exact
    steps = sum(len(epoch) for epoch in plan)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, (s + 1) / (0.1 * steps)) * max(0.0, 1 - s / steps))
    started, step = time.perf_counter(), 0
    model.train()
    for epoch, epoch_batches in enumerate(plan):
        for batch in epoch_batches:
            queries = embed([p.query for p in batch], prompts["query"])
            passages = embed(columns(batch), prompts["document"])
            loss = F.cross_entropy(queries @ passages.T * SCALE, torch.arange(len(batch)))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(parameters, 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            if step % 20 == 0:
                log.info("epoch %d step %d/%d loss %.4f (%.0f s)", epoch, step, steps, loss.item(),
                         time.perf_counter() - started)
            step += 1
    out.mkdir(parents=True, exist_ok=True)
    state = {name: p.detach().half().contiguous() for name, p in model.named_parameters() if p.requires_grad}
    save_file(state, str(out / "layers.safetensors"))
    card = {"base": E5, "layers": layers, "trained_layers": trained_layers, "epochs": epochs, "lr": lr,
            "batch_size": batch_size, "max_length": max_length, "scale": SCALE, "seed": seed, "pairs": len(pairs),
            "sources": dict(Counter(p.source for p in pairs)), "book": Path(book).name,
            "hard_negatives": sum(1 for p in pairs if p.negative),
            "qa_sets": [Path(f).name for f in qa_sets], "train_minutes": round((time.perf_counter() - started) / 60, 1),
            "threads": torch.get_num_threads()}
    (out / "embedder.json").write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")
    (out / "README.md").write_text(CARD.format(
        trained=trained_layers, layers=layers, minutes=card["train_minutes"], threads=card["threads"],
        pairs=len(pairs), sources=", ".join(f"{k} {v:,}" for k, v in card["sources"].items()), epochs=epochs,
        batch_size=batch_size, per_siman=2,
        negatives=(f", with {card['hard_negatives']:,} hard negatives mined by our own hybrid search (the best-ranked "
                   "seif that does not answer)") if card["hard_negatives"] else ""))
    return card


def columns(batch: list) -> list[str]:
    """The passages a batch's questions are scored against: each pair's own, in order, then the hard negatives
    that are no pair's own passage (one that is would count a right answer against its question)."""
    own = [p.passage for p in batch]
    kept = set(own)
    return own + [n for n in dict.fromkeys(p.negative for p in batch) if n and n not in kept]
