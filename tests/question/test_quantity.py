"""A measure a rule sets is a lookup; a question with figures to compute with stays a calculation."""
import json
from pathlib import Path

from question.quantity import settled


def test_a_measure_one_must_keep_is_looked_up_not_calculated():
    assert settled("How much matzah must one eat at the Seder?", "calculation") == "factual_lookup"
    assert settled("כמה מצה צריך לאכול בליל הסדר?", "calculation") == "factual_lookup"
    assert settled("How much matzah must one eat at the Seder?", "explanation") == "explanation"  # only calculations


def test_figures_or_counting_words_keep_a_calculation():
    assert settled("If one must eat 27 grams of matzah twice, how much is that?", "calculation") == "calculation"
    assert settled("A family of five needs two matzot each. How many must they buy in all?", "calculation") == "calculation"
    assert settled("How many hours are in a leap year?", "calculation") == "calculation"  # no rule asked of


def test_no_labelled_calculation_of_the_classifiers_data_is_changed():
    rows = [json.loads(line) for line in Path("data/query_types.jsonl").read_text().splitlines() if line.strip()]
    calculations = [r["question"] for r in rows if r["label"] == "calculation"]
    assert len(calculations) > 100
    assert [q for q in calculations if settled(q, "calculation") != "calculation"] == []
