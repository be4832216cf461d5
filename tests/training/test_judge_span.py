"""The judge's span head (issue 45's try): its targets mark the answer's tokens in the sentence, and a judge trained
with it reports the span head's held-out figures and loads as any judge does."""
import json

from transformers import AutoTokenizer

from checks.judge import AnswerabilityJudge
from search.embedders import E5
from search.embedding import resolve_model
from training import judge_span
from training.judge_data import Pair
from training.train_judge import encode, train

QUESTION = "When did Fleming discover penicillin?"
PAIRS = [Pair("q1", QUESTION, "Alexander Fleming: He discovered penicillin in 1928.", 1.0, "train", "1928"),
         Pair("q1", QUESTION, "Alexander Fleming: He was a Scottish physician.", 0.0, "train"),
         Pair("q2", "Who wrote War and Peace?", "War and Peace: A novel by Leo Tolstoy.", 1.0, "train")]


def test_targets_mark_the_answers_tokens_no_answer_and_unknown():
    tokenizer = AutoTokenizer.from_pretrained(resolve_model(E5))
    encoded = encode(tokenizer, PAIRS, 128)
    starts, ends = judge_span.targets(encoded, PAIRS)
    marked = tokenizer.decode(encoded["input_ids"][0][starts[0]:ends[0] + 1])
    assert marked.strip() == "1928" and encoded.sequence_ids(0)[starts[0]] == 1
    assert (starts[1], ends[1]) == (0, 0)  # a negative: [CLS]
    assert (starts[2], ends[2]) == (judge_span.IGNORE, judge_span.IGNORE)  # a lesson's positive: no span known
    allowed = judge_span.allowed(encoded, encoded["input_ids"].shape[1])
    assert allowed[0, 0] and allowed[0, starts[0]] and not allowed[0, 1]  # the question's tokens are not a span


def test_a_judge_trained_with_a_span_head_reports_it_and_loads(tmp_path):
    held = {"held": [PAIRS[0], PAIRS[1]]}
    card = train([], tmp_path / "span", layers=2, trained_layers=1, epochs=1, extra=PAIRS, extra_held=held,
                 span_weight=1.0)
    assert card["span"] is True and {"span_auc", "both_auc"} <= set(card["held_out"]["held"])
    assert json.loads((tmp_path / "span" / "judge.json").read_text())["span_weight"] == 1.0
    judge = AnswerabilityJudge.load(tmp_path / "span")
    assert judge.model.span is not None and judge.score(QUESTION, [PAIRS[0].text]).shape == (1,)
