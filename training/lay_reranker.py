"""The pairs a cross-encoder that reads Hebrew learns from (issue 35): our lay questions against the Shulchan Arukh's
passages, as the library gives them to the re-ranker (the seif and, apart, its Rema gloss, each under its heading).

For each question of a train split: every passage of its seifim is a positive (a gloss counts as its seif, as the
evaluation counts it); the passages our own hybrid search ranks highest outside the question's simanim are its hard
negatives (a neighbouring seif of the same siman often answers as well, issue 35's embedder runs); one passage
drawn at random is an easy negative, so that a fresh head has a first signal to learn from.
Does not: train (train_reranker.fit) or measure (`eval --mode rerank`).
"""
import random
from pathlib import Path

from measuring.datasets import read_qrels, read_queries
from training.embedder_negatives import seif_ref
from training.embedder_pairs import siman_of

SEARCHED = 30  # passages searched per question for its hard negatives


def lay_pairs(folder: Path, split: str, passages: list[tuple[str, str]], search, negatives: int = 3,
              seed: int = 0) -> list[tuple[str, str, float]]:
    """(question, passage, label) for each question of the split (fit, train, or their -he/-en parts): passages are
    the library's (ref, passage text); search(question) gives (ref, passage text) best first."""
    if not (split == "fit" or split.startswith("train")):
        raise ValueError(f"the lay questions' {split} split is for measurement; train on train or fit")
    questions = {q["id"]: q["text"] for q in read_queries(Path(folder))}
    by_seif: dict[str, list[str]] = {}
    for ref, text in passages:
        by_seif.setdefault(seif_ref(ref), []).append(text)
    rng = random.Random(seed)
    pairs = []
    for qid, refs in read_qrels(Path(folder), split).items():
        gold = {ref for ref, grade in refs.items() if grade > 0 and ref in by_seif}
        if not gold:
            continue
        question, simanim = questions[qid], {siman_of(r) for r in gold}
        pairs.extend((question, text, 1.0) for ref in sorted(gold) for text in by_seif[ref])
        hard = [text for ref, text in search(question) if siman_of(seif_ref(ref) or "") not in simanim]
        pairs.extend((question, text, 0.0) for text in hard[:negatives])
        ref, text = rng.choice(passages)
        if siman_of(seif_ref(ref) or "") not in simanim:
            pairs.append((question, text, 0.0))
    return pairs


def library_passages(settings, book: Path, cache: Path = Path("data/cache/eval")):
    """The Shulchan Arukh's library as `eval --corpus` builds it: ((ref, passage text) of every passage, and
    search(question) -> the best SEARCHED as (ref, passage text))."""
    from measuring.libraries import eval_pipeline, ingested_library
    from search.embedding import Embedder

    embedder = Embedder.load(settings.models.embedding_model)
    retriever = eval_pipeline(settings, ingested_library(Path(book), embedder, cache), embedder).retriever
    view = retriever.library.current()
    passages = [(c.ref, c.passage_text) for c in view.chunks if c is not None and c.ref]

    def search(question: str) -> list[tuple[str, str]]:
        return [(h.chunk.ref, h.chunk.passage_text) for h in retriever.search(question, top_k=SEARCHED, mode="hybrid")]
    return passages, search
