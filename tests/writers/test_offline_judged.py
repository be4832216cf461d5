"""The offline writer with the shipped answerability judge and the real MiniLM embedder, over leads of the default
library as they are (Wikipedia, CC BY-SA): the answering sentence comes first; without one it declines and says
what the passages do say, cited; a calculation shows its figures and arithmetic."""
import pytest

from models import Chunk, Hit, WriteRequest
from checks.judge import AnswerabilityJudge
from writers.offline import ExtractiveWriter
from checks.declines import CANNOT_ANSWER, found_text

WAR_AND_PEACE = ("War and Peace is an epic novel by the Russian author Leo Tolstoy. Set during the Napoleonic Wars, "
                 "the work comprises both a fictional narrative and chapters in which Tolstoy discusses history and "
                 "philosophy. An early version was published serially beginning in 1865, after which the entire book "
                 "was rewritten and published in 1869. The novel has claims to be the greatest novel written.")
BULB = ("An incandescent light bulb, also known as an incandescent lamp or incandescent light globe, is an electric "
        "light that produces illumination by Joule heating a filament until it glows. The filament is enclosed in a "
        "glass bulb that is either evacuated or filled with inert gas to protect the filament from oxidation. A bulb "
        "socket provides mechanical support and electrical connections.")
MOOSE = ("The moose or elk is the world's tallest, largest and heaviest extant species of deer and the only extant "
         "species in the genus Alces. Most adult male moose have broad, palmate antlers.")
GIRAFFE = ("Giraffes are large African hoofed mammals. They are the tallest living terrestrial animals and the largest "
           "ruminants on Earth. They are classified under the family Giraffidae, along with their closest extant "
           "relative, the okapi.")
COLOSSEUM = ("The Colosseum is an elliptical amphitheatre in the centre of the city of Rome, Italy, just east of the "
             "Roman Forum. It is the largest ancient amphitheatre ever built, and is the largest standing amphitheatre "
             "in the world. Construction began under the Emperor Vespasian in 72 and was completed in AD 80 under his "
             "successor and heir, Titus. Further modifications were made during the reign of Domitian.")
ROME = "The Western Roman Empire fell in 476, when Odoacer deposed Romulus Augustulus."
CONSTANTINOPLE = "Constantinople, founded in 330, fell to the Ottomans in 1453."


def hits(*passages):
    return [Hit(Chunk(f"{title}#0", title, title, text, 0, len(text)), 1.0, 0.5, 0.8) for title, text in passages]


@pytest.fixture(scope="module")
def judge():
    return AnswerabilityJudge.load()


@pytest.fixture
def writer(real_embedder, judge):
    return ExtractiveWriter(real_embedder, judge=judge)


def write(writer, question, query_type, found):
    return writer.write(WriteRequest(question, query_type, found))


def test_the_sentence_that_answers_comes_first(writer):
    draft = write(writer, "Who wrote War and Peace?", "factual_lookup", hits(("War and Peace", WAR_AND_PEACE)))
    # The judge trained on mined negatives rates this sentence 0.35, so the decision declines it (a known miss:
    # README, issue 31); either way the sentence that answers is the one given, first.
    told = draft.text.removeprefix(f"{CANNOT_ANSWER} {found_text('en')} ") if draft.declined else draft.text
    assert told.startswith("War and Peace is an epic novel by the Russian author Leo Tolstoy [1].")
    draft = write(writer, "What is the tallest animal?", "factual_lookup", hits(("Moose", MOOSE), ("Giraffe", GIRAFFE)))
    # the fact first, its reference the editor's (writers/reference.py), or the sentence that says who "they" are
    assert draft.text.startswith("[Giraffes] are the tallest living terrestrial animals") or "Giraffes" in draft.text.split("[")[0]


def test_tell_me_about_x_is_answered_by_x_own_opening_sentence(writer):
    # The judge, taught on answers that are spans, rates this opening 0.24 (issue 45's example): a question that asks
    # what X is and nothing more is answered by the opening of X's own passage whatever the judge makes of it
    for question in ("Tell me about the Roman Colosseum", "What is the Colosseum?"):
        draft = write(writer, question, "factual_lookup", hits(("Colosseum", COLOSSEUM)))
        assert not draft.declined and draft.text.startswith("The Colosseum is an elliptical amphitheatre")
        # and reads on as the passage is written: the sentences after its opening, not the one the judge liked
        assert "It is the largest ancient amphitheatre ever built" in draft.text
        assert draft.text.index("It is the largest") < draft.text.index("Construction began")
        assert "Further modifications" not in draft.text
    draft = write(writer, "Tell me about the Roman Colosseum", "explanation", hits(("Giraffe", GIRAFFE)))
    assert draft.declined  # no passage of its own: nothing to say what it is
    draft = write(writer, "When was the Colosseum built?", "factual_lookup", hits(("Colosseum", COLOSSEUM)))
    assert not draft.declined and draft.text.startswith("Construction began under the Emperor Vespasian in 72 and was "
                                                         "completed in AD 80")  # "AD 80" is a date


def test_without_an_answering_sentence_it_declines_and_says_what_the_passages_do_say(writer):
    draft = write(writer, "Who invented the light bulb?", "factual_lookup", hits(("Incandescent light bulb", BULB)))
    assert draft.declined and draft.text.startswith(f"{CANNOT_ANSWER} {found_text('en')} ")
    assert "[1]" in draft.text and draft.answerability < writer.judge.threshold
    draft = write(writer, "When did the Western Roman Empire fall?", "factual_lookup", hits(("Giraffe", GIRAFFE)))
    assert draft.declined and draft.text == CANNOT_ANSWER  # nothing related to report


def test_a_calculation_cites_each_figure_and_shows_the_arithmetic(writer):
    question = ("How many years passed between the fall of the Western Roman Empire and the fall of Constantinople?")
    draft = write(writer, question, "calculation",
                  hits(("Western Roman Empire", ROME), ("Constantinople", CONSTANTINOPLE)))
    assert "Romulus Augustulus [1]." in draft.text and "fell to the Ottomans in 1453 [2]." in draft.text
    assert draft.text.endswith("1453 − 476 = 977 years.") and not draft.declined
    draft = write(writer, question, "calculation", hits(("Western Roman Empire", ROME)))
    assert draft.declined and draft.missing == ("the fall of Constantinople",)
