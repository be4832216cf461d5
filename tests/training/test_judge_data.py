"""The judge's training pairs: one positive per question (the sentence holding its answer), hard negatives, and
no text crossing the splits, which are by article title."""
from measuring.datasets import splits
from training.judge_data import pairs
from ingest.corpus import read_corpus


def test_each_question_has_one_positive_and_only_sentences_of_its_own_splits_articles(beir):
    made = pairs(beir, other_docs=10)
    titles = sorted({d.title for d in read_corpus(beir / "corpus.jsonl")}, key=len, reverse=True)
    split_of = splits(titles)
    questions = {p.query_id for p in made}
    assert questions and all(sum(p.label for p in made if p.query_id == q) == 1 for q in questions)
    assert any(p.label == 0 for p in made)
    for p in made:  # the text is "title: sentence"; its article is in the question's split
        title = next(t for t in titles if p.text.startswith(f"{t}: "))
        assert split_of[title] == p.split, (p.query_id, title)
