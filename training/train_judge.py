"""Train the answerability judge (checks/judge.py) on the train split of squad-dev and heq-dev pairs (judge_data.py).

The base is multilingual-e5-small, so one judge reads English and Hebrew. It keeps only the first layers of e5
(the cost of every answer grows with them); their embeddings and lower layers stay frozen, and only the upper
layers and a head are trained, so the folder ships a few MB and training takes minutes on a CPU. Pairs are balanced per batch by weighting positives (one positive to about four negatives). The
folder gets model.safetensors (fp16), judge.json (base, layers, length, threshold, figures) and a data card.
Figures: on the calibrate and test splits, the pairs' ROC AUC, and how often a question's best-scored sentence
is the one that answers it.
"""
import json
import logging
import random
import time
from pathlib import Path

import numpy as np

from training.judge_data import Pair, pairs
from search.embedders import E5
from checks.judge import build_model, trained_state
from training import judge_span

log = logging.getLogger(__name__)

CARD = """# Answerability judge

Scores whether a sentence answers a question: a cross-encoder on the first {used} layers of {base_name},
whose {kept} its own, loaded from its package; this folder holds {trained} and the head,
trained here (`flask --app app train-judge`, {minutes} minutes on {threads} CPU threads).

- Training data: the train split of {sets}: {pairs:,} pairs ({positives:,} positives) from {questions:,}
  questions. The sentence holding the gold answer is a positive; {same} other sentence(s) of its paragraph are
  negatives.{mined} Splits are by article title (60% train, 20% calibrate, 20% test), so no article is in two
  splits; squad2-train-head shares no article with any measurement set and is trained on whole.{written}{caveat}
- Never trained on: SciFact, data/eval/halacha-he, data/eval/wiki-trust, data/eval/wiki-asked, data/eval/heq-asked,
  ../shared/sealed.
- Figures (pairs of the held-out splits): {figures}
- Threshold: {threshold} ({threshold_source}).{decision}
- Licences: squad-dev and squad2-train-head CC BY-SA 4.0, heq-dev CC BY 4.0, the default library's leads (mined
  negatives) CC BY-SA 4.0; the weights derive from multilingual-e5-small (MIT).
"""


MINED = """ For a training question, two more negatives are mined by the
  project's own hybrid search, its gold left out, over one pool: the corpora of the sets trained on and the default
  library's 10,033 leads (training/judge_mining.py). Of the sentences of the 8 best passages that hold no gold
  answer, first come those that hold what the question asks for (a date, a number, a name) and mention its subject,
  about a neighbouring subject: the offline writer's own mistakes. A squad2-train-head question written to be
  unanswerable adds its paragraph's sentence holding the plausible answer, as a negative."""
WRITTEN = """
- Lessons the team wrote (data/judge-lessons/, its card): {written_pairs:,} pairs are made from them, and the pairs
  trained on are drawn at random from those and the QA sets' together (with --limit, a sample): the train split of
  the English lessons over the default library's leads (never a lead whose title's SHA-256 is 1 modulo 3) and the
  Hebrew ones over heq-dev's train split, each answered question with its twin that the passage does not answer,
  and the questions beside the seifim of the Shulchan Arukh (data/seif-questions/), each with its seif, the
  neighbouring seif its twin (never a seif the lay test split was written from). Their test part, over leads of the
  unseen third, is the figure "wiki-lessons/test" below."""
DECISION = """
- Decision: decision.json, a logistic model over each look's signals (each read again for a look whose best
  candidate is a seif, with how well the questions written beside it match), decides answer or decline
  (checks/decision.py; `flask --app app train-decision`), its card beside it."""
RANKING = """
- Ranking: ranking.json, a conditional logit over what the writer knows of each candidate (the judge's score among
  it, and search's rank and score of its passage), chooses the sentence that fits best (checks/ranking.py;
  `flask --app app train-ranking`), its card beside it."""


def auc(labels: np.ndarray, scores: np.ndarray) -> float:
    """ROC AUC: the chance that a positive scores above a negative."""
    pos, neg = scores[labels == 1], scores[labels == 0]
    if not len(pos) or not len(neg):
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="stable")
    ranks = np.empty(len(order))
    ranks[order] = np.arange(1, len(order) + 1)
    return float((ranks[:len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def figures(scored: list[tuple[Pair, float]]) -> dict:
    """Pair AUC, and how often the best-scored sentence of a question is its positive."""
    labels = np.array([p.label for p, _ in scored])
    scores = np.array([s for _, s in scored])
    best: dict[str, tuple[float, float]] = {}
    for pair, score in scored:
        if score > best.get(pair.query_id, (-1.0, 0.0))[0]:
            best[pair.query_id] = (score, pair.label)
    return {"pairs": len(scored), "auc": round(auc(labels, scores), 4),
            "best_sentence_answers": round(float(np.mean([label for _, label in best.values()])), 4)}


def encode(tokenizer, batch: list[Pair], max_length: int) -> dict:
    """A batch of pairs as the tokenizer gives them to the judge (with each token's characters, for the span head)."""
    return tokenizer([p.question for p in batch], [p.text for p in batch], padding=True, truncation="longest_first",
                     max_length=max_length, return_tensors="pt", return_offsets_mapping=True)


def train(sets: list[Path], out: Path, layers: int = 6, trained_layers: int = 2, max_length: int = 128,
          epochs: int = 2, batch_size: int = 32, lr: float = 5e-5, head_lr: float = 1e-3, seed: int = 0,
          limit: int | None = None, miner=None, same: int = 2, extra: list[Pair] = (),
          extra_held: dict[str, list[Pair]] | None = None, start: Path | None = None, base: str = E5,
          span_weight: float = 0.0) -> dict:
    """Train the judge on the sets' train splits (and extra pairs: the lessons the team wrote), save it to out, and
    return its card; extra_held are held-out pairs reported beside the sets' (the lessons of the unseen third).

    The frozen lower layers' states of every training pair are computed once and kept (fp16), so each epoch
    runs only the trained upper layers. start: a judge folder of the same shape whose trained layers and head the
    training starts from (a judge taught more, not taught again). base: the encoder under it (a BERT-shaped one:
    multilingual-e5-small, or all-MiniLM-L6-v2 for an English judge). span_weight: above 0, a span head is trained
    beside the yes/no head, its loss weighted so (training/judge_span.py).
    """
    import torch
    from safetensors.torch import save_file
    from transformers import AutoTokenizer

    from search.embedding import resolve_model

    torch.manual_seed(seed)
    data = {folder.name: pairs(folder, same=same, seed=seed, miner=miner) for folder in sets}
    training = [p for ps in data.values() for p in ps if p.split == "train"] + list(extra)
    random.Random(seed).shuffle(training)
    training = training[:limit] if limit else training
    tokenizer = AutoTokenizer.from_pretrained(resolve_model(base))
    model = build_model(base, layers, trained_layers, span=span_weight > 0)
    if start is not None:
        from safetensors.torch import load_file

        model.load_state_dict({k: v.float() for k, v in load_file(str(Path(start) / "model.safetensors")).items()},
                              strict=False)
    started = time.perf_counter()
    batches = []
    model.eval()
    with torch.no_grad():  # not inference mode: the cached states feed training, which tracks gradients above them
        for step in range(0, len(training), batch_size):
            batch = training[step:step + batch_size]
            encoded = encode(tokenizer, batch, max_length)
            span = None  # the span head's targets, only when it is trained
            if span_weight:
                starts, ends = judge_span.targets(encoded, batch)
                span = (judge_span.allowed(encoded, encoded["input_ids"].shape[1]), torch.tensor(starts),
                        torch.tensor(ends))
            batches.append((model.lower(encoded["input_ids"], encoded["attention_mask"]).half(),
                            encoded["attention_mask"], torch.tensor([p.label for p in batch]), span))
    log.info("lower layers of %d pairs in %.0f s", len(training), time.perf_counter() - started)
    head = [p for n, p in model.named_parameters() if n.startswith(("head.", "span."))]
    body = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith(("head.", "span."))]
    optimizer = torch.optim.AdamW([{"params": body, "lr": lr}, {"params": head, "lr": head_lr}], weight_decay=0.01)
    steps = epochs * len(batches)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / (0.06 * steps)) * max(0.0, 1 - s / steps))
    positives = sum(p.label for p in training)
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor((len(training) - positives) / max(positives, 1)))
    model.train()
    rng = random.Random(seed)
    for epoch in range(epochs):
        for step, (states, mask, labels, span) in enumerate(rng.sample(batches, len(batches))):
            top = model.top(states.float(), mask)
            loss = loss_fn(model.pooled_logit(top, mask), labels)
            if span is not None:
                loss = loss + span_weight * judge_span.loss(model, top, *span)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(body + head, 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            if step % 100 == 0:
                log.info("epoch %d step %d/%d loss %.4f (%.0f s)", epoch, step, len(batches), loss.item(),
                         time.perf_counter() - started)
    minutes = round((time.perf_counter() - started) / 60, 1)
    model.eval()
    held_out = held_out_figures(model, tokenizer, {f"{name}/{split}": [p for p in ps if p.split == split]
                                                   for name, ps in data.items() for split in ("calibrate", "test")}
                                | dict(extra_held or {}), max_length)
    out.mkdir(parents=True, exist_ok=True)
    save_file({k: v.half() for k, v in trained_state(model).items()}, str(out / "model.safetensors"))
    card = {
        "base": base, "layers": layers, "trained_layers": trained_layers, "max_length": max_length, "threshold": 0.5,
        "threshold_source": "untuned; run calibrate-judge", "training_sets": [f.name for f in sets],
        "pairs": len(training), "positives": int(positives), "questions": len({p.query_id for p in training}),
        "mined": miner is not None, **({"span": True, "span_weight": span_weight} if span_weight else {}), "same_paragraph_negatives": same, "written_pairs": len(extra), "epochs": epochs, "lr": lr, "head_lr": head_lr, "batch_size": batch_size, "train_minutes": minutes,
        **({"started_from": str(start)} if start is not None else {}),
        "threads": torch.get_num_threads(), "held_out": held_out,
    }
    write_card(out, card)
    return card


def held_out_figures(model, tokenizer, named: dict[str, list[Pair]], max_length: int) -> dict:
    """The figures of each named list of held-out pairs (an empty one is left out: a set trained on whole)."""
    import torch

    out = {}
    with torch.inference_mode():
        for name, chosen in named.items():
            if not chosen:
                continue
            scores, spans = [], []
            for i in range(0, len(chosen), 64):
                encoded = encode(tokenizer, chosen[i:i + 64], max_length)
                top = model.top(model.lower(encoded["input_ids"], encoded["attention_mask"]), encoded["attention_mask"])
                logit = model.pooled_logit(top, encoded["attention_mask"])
                scores += torch.sigmoid(logit).tolist()
                if model.span is not None:
                    span = judge_span.scores(model, top, judge_span.allowed(encoded, top.shape[1]))
                    spans += list(zip(span.tolist(), logit.tolist()))
            out[name] = figures(list(zip(chosen, scores)))
            if spans:  # the span head alone, and its score added to the yes/no logit
                out[name]["span_auc"] = figures([(p, s) for p, (s, _) in zip(chosen, spans)])["auc"]
                out[name]["both_auc"] = figures([(p, s + g) for p, (s, g) in zip(chosen, spans)])["auc"]
    return out


def frozen_words(frozen: int, trained: int) -> dict:
    """How the card names what the base keeps and what the folder holds: every layer trained, or the upper ones."""
    if not frozen:
        return {"kept": "embeddings are", "trained": f"all {trained} layers"}
    return {"kept": f"embeddings and lower {frozen} layers are", "trained": f"the {trained} layers above them"}


def write_card(out: Path, card: dict) -> None:
    """judge.json and the README data card of the folder."""
    (out / "judge.json").write_text(json.dumps(card, indent=2, ensure_ascii=False) + "\n")
    held = "; ".join(f"{k}: AUC {v['auc']}, best sentence answers {v['best_sentence_answers']}"
                     for k, v in card["held_out"].items())
    (out / "README.md").write_text(CARD.format(
        used=card["layers"], **frozen_words(card["layers"] - card["trained_layers"], card["trained_layers"]),
        base_name="multilingual-e5-small (MIT)" if card["base"] == E5 else card["base"],
        minutes=card["train_minutes"],
        threads=card["threads"], sets=" and ".join(card["training_sets"]), pairs=card["pairs"],
        positives=card["positives"], questions=card["questions"], figures=held, threshold=card["threshold"],
        threshold_source=card["threshold_source"], caveat=f"\n- Caveat: {card['caveat']}" if card.get("caveat") else "",
        same=card.get("same_paragraph_negatives", 2), mined=MINED if card.get("mined") else "",
        written=(WRITTEN.format(written_pairs=card["written_pairs"]) if card.get("written_pairs") else "") + (
            f"\n- Started from {card['started_from']} and taught {card['epochs']} more epoch(s) on these pairs, at a "
            f"learning rate of {card['lr']:g}." if card.get("started_from") else ""),
        decision=(DECISION if (out / "decision.json").exists() else "")
        + (RANKING if (out / "ranking.json").exists() else "")))
