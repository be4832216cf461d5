"""What follows the answering sentence (issue 47): context that speaks of what was asked, never another subject of
the same upload; and an answer from one passage to a what-is or who-was question in the passage's own order, while
a why opens with its reason (issue 45: the fact first)."""
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


def test_one_passages_sentences_keep_its_order_for_a_what_is_or_who_was_question():
    chosen = [(1, 2, "Although her works on coal were praised, ..."), (1, 0, "Rosalind Franklin was a chemist.")]
    title = "Rosalind Franklin"
    assert reads_in_order("Who was Rosalind Franklin?", chosen, title)  # a definition, from her own passage
    assert not reads_in_order("Why did Franklin study coal?", chosen, title)  # a why: its reason first
    assert not reads_in_order("When was Rosalind Franklin born?", chosen, title)  # a date: the fact first
    assert not reads_in_order("What is X-ray crystallography?", chosen, title)  # another subject's definition
    assert not reads_in_order("Who was Rosalind Franklin?", [(1, 2, "a"), (2, 0, "b")], title)  # two passages
    assert not reads_in_order("Who was Rosalind Franklin?", chosen[:1], title)  # one sentence: nothing to order


class ReasonJudge:
    """A judge sure only of the sentence that gives the reason."""

    threshold = 0.5
    decision = None

    def score(self, question, texts):
        return np.array([0.95 if "foundation" in text else 0.6 for text in texts])


def test_a_why_opens_with_its_reason_and_the_reference_in_brackets():
    tower = hit("Leaning Tower of Pisa", "The Leaning Tower of Pisa is the bell tower of Pisa Cathedral. "
                                         "It is known for its lean, the result of an unstable foundation.")
    writer = ExtractiveWriter(FakeEmbedder(), thresholds=(0.0, 0.0), judge=ReasonJudge())
    draft = writer.write(WriteRequest("Why does the Leaning Tower of Pisa lean?", "explanation", [tower]))
    assert draft.text.startswith("[Leaning Tower of Pisa] is known for its lean, the result of an unstable foundation")
    who = writer.write(WriteRequest("What is the Leaning Tower of Pisa?", "definition", [tower]))
    assert who.text.startswith("The Leaning Tower of Pisa is the bell tower")  # what it is: in the passage's order


def test_each_subject_of_a_comparison_is_headed_as_a_sentence_begins():
    umayyad = hit("Umayyad Caliphate", "The Umayyad Caliphate was ruled from Damascus.")
    abbasid = hit("Abbasid Caliphate", "The Abbasid Caliphate was ruled from Baghdad.")
    writer = ExtractiveWriter(FakeEmbedder(), thresholds=(0.0, 0.0), judge=SureJudge())
    parts = tuple((f"the {name} Caliphate", f"the {name} Caliphate", (n,)) for n, name in ((1, "Umayyad"), (2, "Abbasid")))
    draft = writer.write(WriteRequest("What is the difference between the Umayyad Caliphate and the Abbasid Caliphate?",
                                      "explanation", [umayyad, abbasid], parts=parts))
    assert draft.text.startswith("The Umayyad Caliphate:\n- The Umayyad Caliphate was ruled from Damascus")
    assert "\n\nThe Abbasid Caliphate:\n- " in draft.text
