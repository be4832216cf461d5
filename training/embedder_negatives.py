"""Hard negatives for the embedder, mined by our own hybrid search: for a lay question, the seif the search ranks
highest that does not answer it (the Rema's gloss counts as its seif), searched in the Shulchan Arukh's library as
`eval --corpus` ingests it (cached like any evaluation library).

A batch's question then has to rank its own seif above the one that fooled the search, not only above the other
questions' seifim, which are mostly about other things. With other_siman (the default), the negative comes from
another siman than any gold seif: a neighbouring seif of the same siman often answers the question as well, though
it was written from one seif only, and training it away taught the first run to push answers apart (issue 35:
own test split 0.3725 -> 0.368 nDCG@10 with same-siman negatives).
Does not: build the pairs (embedder_pairs.py) or train (train_embedder.py).
"""
import re
from pathlib import Path

from training.embedder_pairs import Pair, siman_of

SEIF = re.compile(r"^(.+? \d+:\d+)")  # "Shulchan Arukh, Orach Chayim 511:2, Rema" -> its seif
SEARCHED = 30  # passages searched per question (enough to reach another siman)


def seif_ref(ref: str | None) -> str | None:
    """A passage's seif: its ref without the ", Rema" of a gloss; None without a ref."""
    found = SEIF.match(ref or "")
    return found.group(1) if found else None


def hard_negatives(pairs: list[Pair], search, texts: dict[str, str], gold: dict[str, set[str]],
                   other_siman: bool = True) -> list[Pair]:
    """pairs with each lay pair's negative filled: the best-ranked seif search(question) gives outside the
    question's gold refs (gold: question text -> refs), and with other_siman outside their simanim. Other pairs are
    returned as they are."""
    found: dict[str, str] = {}
    out = []
    for pair in pairs:
        if pair.source != "lay":
            out.append(pair)
            continue
        if pair.query not in found:
            refs = (seif_ref(hit.chunk.ref) for hit in search(pair.query))
            taken = {siman_of(r) for r in gold[pair.query]} if other_siman else gold[pair.query]
            found[pair.query] = next((texts[r] for r in refs
                                      if r and r in texts and (siman_of(r) if other_siman else r) not in taken), "")
        out.append(pair._replace(negative=found[pair.query]))
    return out


def searcher(settings, book: Path, cache: Path = Path("data/cache/eval")):
    """search(question) -> the hits of our hybrid search over book's library, built with the configured embedder."""
    from measuring.libraries import eval_pipeline, ingested_library
    from search.embedding import Embedder

    embedder = Embedder.load(settings.models.embedding_model)
    retriever = eval_pipeline(settings, ingested_library(Path(book), embedder, cache), embedder).retriever
    return lambda question: retriever.search(question, top_k=SEARCHED)
