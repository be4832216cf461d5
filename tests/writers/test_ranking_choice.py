"""What the offline writer reads of its candidates beyond the judge: the ranking (checks/ranking.py) orders those that
may answer when one is fitted beside the judge, and the decision reads search's scores apart from the questions'."""
import numpy as np
import pytest
from conftest import FakeEmbedder

from checks.ranking import FEATURES, Ranking
from models import Chunk, Hit, WriteRequest
from writers.offline import ExtractiveWriter


class LaterJudge:
    """A judge surer of the second passage's sentence than of the first's."""

    threshold = 0.5
    decision = None

    def __init__(self, ranking=None):
        self.ranking = ranking

    def score(self, question, texts):
        return np.array([0.9 if "1895" in t else 0.7 for t in texts])


def hit(title, text, score):
    return Hit(Chunk(f"{title}#0", title, title, text, 0, len(text)), score, score, score)


def ask(judge):
    passages = [hit("Tower Bridge", "Tower Bridge opened in 1894 after eight years of work.", 3.0),
                hit("Tower Bridge traffic", "Tower Bridge opened to motor traffic in 1895.", 2.0)]
    writer = ExtractiveWriter(FakeEmbedder(), thresholds=(0.0, 0.0), judge=judge)
    return writer.write(WriteRequest("When did Tower Bridge open?", "factual_lookup", passages)).text


def test_without_a_ranking_the_judge_orders_and_with_one_the_fitted_score_does():
    assert ask(LaterJudge()).startswith("Tower Bridge opened to motor traffic in 1895")
    weights = [1.0 if name == "inverse_rank" else 0.0 for name in FEATURES]  # search's first passage fits best
    ranking = Ranking(tuple(weights), tuple([0.0] * len(FEATURES)), tuple([1.0] * len(FEATURES)), {})
    assert ask(LaterJudge(ranking)).startswith("Tower Bridge opened in 1894")


def test_the_decision_reads_a_passages_own_score_and_its_written_questions_share_apart():
    """A library with questions written beside its passages (search/asked.py) raises their hybrid scores by the
    questions' share: the decision reads the passage's own score as "hybrid", the share as "asked", and "written"."""
    writer = ExtractiveWriter(FakeEmbedder(), thresholds=(0.0, 0.0), judge=LaterJudge())
    plain = [hit("Tower Bridge", "Tower Bridge opened in 1894 after eight years of work.", 0.8)]
    found = writer.choose("When did Tower Bridge open?", "factual_lookup", plain).signals
    assert (found["hybrid"], found["asked"], found["written"]) == (0.8, 0.0, 0.0)
    asked = [hit("Tower Bridge", "Tower Bridge opened in 1894 after eight years of work.", 2.3)]
    asked[0].passage_score = 0.8
    found = writer.choose("When did Tower Bridge open?", "factual_lookup", asked).signals
    assert found["hybrid"] == found["top_hybrid"] == 0.8 and found["written"] == 1.0
    assert found["asked"] == pytest.approx(1.5)
