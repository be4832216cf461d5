"""What follows the answering sentence (issue 47): context that speaks of what was asked, never another subject of
the same upload; and an answer from one passage to a what, why or how question in the passage's own order."""
import numpy as np
from conftest import FakeEmbedder

from models import Chunk, Hit, WriteRequest
from writers.offline import ExtractiveWriter, reads_in_order


class SureJudge:
    """A judge sure of every sentence: only the writer's own rules choose what follows the answer."""

    threshold = 0.5
    decision = None

    def score(self, question, texts):
        return np.array([0.9 - 0.01 * i for i in range(len(texts))])


def hit(title, text):
    return Hit(Chunk(f"{title}#0", title, title, text, 0, len(text)), 1.0, 0.5, 0.5)


def test_a_sentence_of_the_same_upload_that_shares_no_word_with_the_question_is_not_added():
    # the heading holds the question's words, so every sentence of the page scores near the answer by them
    notes = hit("Kettle care", "Descale the kettle with vinegar once a month. Wipe the kettle dry after use. "
                               "Coffee filters are rinsed weekly.")
    writer = ExtractiveWriter(FakeEmbedder(), thresholds=(0.0, 0.0), judge=SureJudge())
    draft = writer.write(WriteRequest("How should I care for my kettle?", "explanation", [notes]))
    assert "Descale the kettle" in draft.text and "Wipe the kettle dry" in draft.text
    assert "filters" not in draft.text


def test_one_passages_sentences_keep_its_order_for_a_what_why_or_how_question():
    chosen = [(1, 2, "Although her works on coal were praised, ..."), (1, 0, "Rosalind Franklin was a chemist.")]
    assert reads_in_order("Who was Rosalind Franklin?", chosen)  # a definition
    assert reads_in_order("Why did Franklin study coal?", chosen)  # no slot: why
    assert not reads_in_order("When was Rosalind Franklin born?", chosen)  # a date: the fact first
    assert not reads_in_order("Who was Rosalind Franklin?", [(1, 2, "a"), (2, 0, "b")])  # two passages
    assert not reads_in_order("Who was Rosalind Franklin?", chosen[:1])  # one sentence: nothing to order
