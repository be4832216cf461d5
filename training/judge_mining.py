"""Negatives that look like the offline writer's mistakes, mined for the answerability judge (judge_data.py).

The writer's mistakes are not other sentences of the right paragraph: they are sentences that the project's own
hybrid search ranks high, about a related subject, holding a fact of the right type (Zurich's population for
Switzerland's). So each training question is searched, its gold left out, in one pool: every training set's corpus
and the default library, indexed once with the configured embedder (cached like any evaluation library). Of the
sentences of the best passages, those that hold no gold answer are ranked as the writer would be fooled: first
those that agree with the question's slot and at least mention its subject (checks/agreement.py), then by the
share of the question's content words they hold.
Does not: label or split pairs (judge_data.py does), or train (train_judge.py).
"""
from pathlib import Path

from measuring.libraries import cached_library, eval_pipeline
from hebrew.words import content_words
from ingest.corpus import read_corpus
from models import Document
from question.asks import read
from checks.agreement import agreements
from checks.sentences import candidates

WIKI = Path("data/downloads/wiki/corpus.jsonl")  # the default library's corpus, written by `flask ingest-default`
PASSAGES = 8  # passages searched per question
FORBIDDEN = ("scifact", "wiki-trust", "wiki-asked", "heq-asked", "halacha-he", "sealed")


def pool_documents(folders: list[Path], wiki: Path | None = WIKI) -> list[Document]:
    """The documents of every folder's corpus, ids prefixed with the folder's name ("squad-dev/<id>"), and the
    default library's ("wiki/<id>") when its corpus is at hand."""
    docs = []
    for folder in folders:
        if any(name in str(folder).lower() for name in FORBIDDEN):
            raise ValueError(f"{folder} is for measurement only; it never joins the mining pool")
        docs += [Document(f"{folder.name}/{d.id}", d.title, d.text) for d in read_corpus(folder / "corpus.jsonl")]
    if wiki is not None and Path(wiki).exists():
        docs += [Document(f"wiki/{d.id}", d.title, d.text) for d in read_corpus(Path(wiki))]
    return docs


class Miner:
    """Searches the pool for a question and ranks the sentences of what it finds as the writer would be fooled."""

    def __init__(self, retriever):
        self.retriever = retriever  # an EvalRetriever over the pool (libraries.py), which can leave documents out

    @classmethod
    def over(cls, settings, folders: list[Path], cache: Path = Path("data/cache/eval"), wiki: Path | None = WIKI) -> "Miner":
        """A Miner over the pool of folders' corpora and the default library's, indexed once into cache."""
        from search.embedding import Embedder

        embedder = Embedder.load(settings.models.embedding_model)
        searched = cached_library(pool_documents(folders, wiki), embedder, settings.library.max_chars, settings.library.overlap_chars,
                                  cache)
        return cls(eval_pipeline(settings, searched, embedder).retriever)

    def negatives(self, question: str, leave_out: set[str], answers: list[str], n: int) -> list[tuple[str, str]]:
        """Up to n (heading, sentence) of the passages searched for question, without the documents leave_out
        (pool ids) and without any sentence holding one of answers, the most misleading first."""
        with self.retriever.excluding(frozenset(leave_out)):
            hits = self.retriever.search(question, top_k=PASSAGES)
        sentences = candidates(hits)
        folded = [a.strip().casefold() for a in answers if a.strip()]
        kept = {i: s for i, s in enumerate(sentences) if not any(a in s[2].casefold() for a in folded)}
        asks = read(question)
        agreement = agreements(asks, kept, sentences, hits)
        asked = content_words(question)

        def misleading(i: int) -> tuple:
            fit = agreement[i]
            overlap = len(asked & content_words(kept[i][2])) / max(1, len(asked))
            return fit.slot and fit.subject != "none", fit.slot, overlap

        ranked = sorted(kept, key=misleading, reverse=True)[:n]
        return [(hits[kept[i][0] - 1].chunk.heading, kept[i][2]) for i in ranked]
