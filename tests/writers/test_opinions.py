"""Two passages a relation opposes, as the writers present them: the offline writer ends its answer with both
opinions, each sentence under its own reference (Hebrew labels in a Hebrew answer) and cited to its own passage,
so the citation checks keep them; a model is told in its prompt which passage argues with which; a ruling is said
before its gloss whichever the judge found first."""
import numpy as np

from builders import GLOSS, OTHER, RULINGS, SEIF
from conftest import FakeEmbedder
from generator import Generator
from models import Chunk, Hit, WriteRequest
from writers.offline import ExtractiveWriter, rulings_first
from writers.prompt import OPINIONS, build_prompt, opposing_pairs, task_text
from checks.verify import Verifier

HE_SEIF = "יש מי שאומר שפת שנאפה יש בו משום בישול בכלי שני. ויש מתירין ליתן פת בכלי שני."
HE_GLOSS = "הגה ונהגו ליזהר לכתחילה שלא ליתן פת אפילו בכלי שני כל זמן שהיד סולדת בו."


def hit(ref: str, text: str, relation: dict | None = None) -> Hit:
    return Hit(Chunk(ref, "sa", "Shulchan Arukh", text, 0, len(text), (), ref), 1.0, 0.5, 0.8, relation=relation)


def argued(seif_text=RULINGS[0][3], gloss_text=RULINGS[1][3], kind="argues_with") -> list[Hit]:
    """A seif found, the gloss that argues with it brought in beside it, and an unrelated seif."""
    return [hit(SEIF, seif_text, {"kind": kind, "passage": GLOSS, "direction": "from", "confidence": 0.9}),
            hit(GLOSS, gloss_text, {"kind": kind, "passage": SEIF, "direction": "to", "confidence": 0.9}),
            hit(OTHER, RULINGS[2][3])]


def offline_answer(hits, question, language="en"):
    generator = Generator({"offline": ExtractiveWriter(FakeEmbedder())}, "offline", verifier=Verifier(FakeEmbedder()))
    return generator.answer(WriteRequest(question, "explanation", hits, language))


def test_the_pairs_are_the_opposed_passages_in_their_order():
    assert opposing_pairs(argued()) == [(1, 2)]
    assert opposing_pairs(argued(kind="contextualizes")) == []
    assert opposing_pairs(argued()[:1]) == []  # the other passage is not in the evidence


def test_the_offline_answer_gives_both_opinions_under_their_refs():
    answer = offline_answer(argued(), "May baked bread be put into a second vessel while it scalds?")
    opinions = answer.text.split(OPINIONS["en"], 1)[1].strip().splitlines()
    assert opinions[0] == f"{SEIF}:" and opinions[1].startswith("- ") and opinions[1].endswith("[1].")
    assert opinions[3] == f"{GLOSS}:" and opinions[4].endswith("[2].")
    assert {c.n: c.verified for c in answer.citations if c.n in (1, 2)} == {1: True, 2: True}
    assert not answer.removed_claims


def test_a_hebrew_answer_names_each_opinion_by_its_hebrew_label():
    answer = offline_answer(argued(HE_SEIF, HE_GLOSS), "האם מותר ליתן פת בכלי שני בשבת?", "he")
    assert OPINIONS["he"] in answer.text
    lines = answer.text.split(OPINIONS["he"], 1)[1].strip().splitlines()
    assert lines[0] == 'שו"ע או"ח שי"ח:ה:' and lines[1].endswith("[1].")
    assert lines[3] == 'שו"ע או"ח שי"ח:ה רמ"א:' and lines[4].endswith("[2].")


def test_a_model_is_told_which_passage_argues_with_which():
    request = WriteRequest("May bread go into a second vessel?", "explanation", argued(kind="minhag_override"))
    said = task_text(request)
    assert (f"Opinions: [2] ({GLOSS}) records a custom that overrides [1] ({SEIF}). Give each of these opinions in "
            "its own sentence under its own reference") in said
    assert said.endswith("\nQuestion: May bread go into a second vessel?")
    _, user = build_prompt(request)
    assert f"Opinions: [2] ({GLOSS})" in user and user.index("Opinions:") < user.rindex("<evidence>")  # before it
    assert "Opinions:" not in task_text(WriteRequest("q?", "explanation", argued(kind="quotes")))


class GlossFirstJudge:
    """A judge surest of the gloss's custom, so the answer's best sentence is the gloss's."""

    threshold = 0.5
    decision = None

    def score(self, question, texts):
        return np.array([0.95 if "custom" in t else 0.3 for t in texts])


def test_a_ruling_is_said_before_its_gloss_though_the_judge_found_the_gloss_first():
    hits = [hit(SEIF, RULINGS[0][3]), hit(GLOSS, RULINGS[1][3])]
    writer = ExtractiveWriter(FakeEmbedder(), thresholds=(0.0, 0.0), judge=GlossFirstJudge())
    question = "Is the custom to take care with bread in a second vessel while it scalds?"
    chosen = writer.choose(question, "explanation", hits).answer
    assert [n for n, _ in chosen][:2] == [2, 1]  # the judge's order: the gloss, then its ruling as companion
    assert rulings_first(chosen, hits)[:2] == [chosen[1], chosen[0]]
    said = writer.write(WriteRequest(question, "explanation", hits, halachic=True)).text.splitlines()
    assert said[0] == f"{SEIF}:" and said[1].endswith("[1].") and said[3] == f"{GLOSS}:" and said[4].endswith("[2].")
    hebrew = writer.write(WriteRequest(question, "explanation", hits, "he", halachic=True)).text
    assert hebrew.index('שו"ע או"ח שי"ח:ה:') < hebrew.index('שו"ע או"ח שי"ח:ה רמ"א:')  # each under its own, in order
