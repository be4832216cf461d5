"""Sentences as a reader is quoted them end where the text ends a sentence, never inside brackets or a quotation:
what the offline writer quotes, the claims checked and the span the page marks read through the bracket they open,
as Shulchan Arukh, Orach Chayim 58:1 does."""
import json
from pathlib import Path

import pytest

from checks.sentences import candidates
from checks.verify import Verifier, split_claims
from conftest import FakeEmbedder
from generator import Generator
from checks.splitting import MAX_HELD, split_sentences, unclosed, whole_sentences, whole_spans
from models import Chunk, Hit, WriteRequest
from writers.offline import ExtractiveWriter

SHARED_SA = Path(__file__).resolve().parents[3] / "shared" / "data" / "shulchan-arukh" / "shulchan_arukh_he.jsonl"
# the ruling of 58:1 as the library holds it (ingest/json_reader.py): its gloss apart
VATIKIN = ("זמן קריאת שמע של שחרית משיראה את חבירו ומצוה מן המובחר לקרותה כוותיקים (פי' תלמידים. ורש\"י פי' אנשים "
           "ענוים ומחבבים המצות) שהיו מכוונים לקרותה מעט קודם הנץ החמה (פי' יציאת החמה כמו הנצו הרמונים) כדי שיסיים "
           "ק\"ש וברכותיה עם הנץ החמה:")


@pytest.mark.parametrize("text, sentences", [
    (VATIKIN, [VATIKIN]),  # Punkt alone breaks after "(פי' תלמידים."
    ('He said "Go home. Now." Then he left.', ['He said "Go home. Now."', "Then he left."]),
    ("The rule (see ch. 3. Also ch. 4) holds. Next one.", ["The rule (see ch. 3. Also ch. 4) holds.", "Next one."]),
    ("It is “so. Very so.” Done.", ["It is “so. Very so.”", "Done."]),
    ("Fleming was born in 1881. He died in 1955.", ["Fleming was born in 1881.", "He died in 1955."]),  # as Punkt
    ('רש"י כתב כך. ורמב"ם חולק.', ['רש"י כתב כך.', 'ורמב"ם חולק.']),  # gershayim open no quotation
    ('כתב ה"שולחן ערוך" כך. ובסימן כ"ב חולק. וזה שלישי.',  # a quotation after a prefix letter closes; כ"ב is a number
     ['כתב ה"שולחן ערוך" כך.', 'ובסימן כ"ב חולק.', 'וזה שלישי.']),
])
def test_no_sentence_ends_inside_brackets_or_quotation_marks(text, sentences):
    assert whole_sentences(text) == sentences


def test_punkt_alone_cuts_the_quote_mid_bracket_and_stays_what_books_are_cut_at():
    assert VATIKIN[:VATIKIN.index("תלמידים.") + 8] in split_sentences(VATIKIN)


@pytest.mark.parametrize("text, open_", [("(a. b", True), ("(a) b.", False), ('he said "a.', True),
                                         ('רש"י.', False), ("[x (y) z", True), ("“a” b.", False), ("«a.", True)])
def test_what_leaves_a_bracket_or_quotation_open(text, open_):
    assert unclosed(text) is open_


def test_a_stray_bracket_holds_a_sentence_open_only_so_far():
    text = "A stray ( opens here. " + " ".join(f"Sentence number {i} goes on." for i in range(80))
    spans = whole_spans(text)
    assert len(spans) > 2 and all(end - start <= MAX_HELD for start, end in spans)


@pytest.mark.skipif(not SHARED_SA.exists(), reason="../shared/data/shulchan-arukh is not beside the project")
def test_the_writers_sentence_of_58_1_closes_every_bracket_it_opens():
    seif = next(s for s in map(json.loads, SHARED_SA.open(encoding="utf-8"))
                if s["ref"] == "Shulchan Arukh, Orach Chayim 58:1")
    text = seif["he"].split("הגה")[0]
    said = [s for _, _, s in candidates([Hit(Chunk("58:1", "sa", "Shulchan Arukh", text, 0, len(text)), 1, 1, 1)])]
    assert any("כוותיקים" in s for s in said)
    assert all(s.count("(") == s.count(")") for s in said) and not any(s.endswith("(פי' תלמידים.") for s in said)


def test_the_offline_answer_quotes_the_whole_sentence_and_the_check_keeps_it_whole():
    ruling = Hit(Chunk("58:1", "sa", "Shulchan Arukh", VATIKIN, 0, len(VATIKIN), (), "Shulchan Arukh, Orach Chayim 58:1"),
                 1.0, 1.0, 1.0)
    assert [c.cited for c in split_claims(f"{VATIKIN[:-1]} [1]:")] == [[1]]  # one claim, not one per Punkt sentence
    generator = Generator({"offline": ExtractiveWriter(FakeEmbedder(), thresholds=(0.0, 0.0))}, "offline",
                          verifier=Verifier(FakeEmbedder(), 0.0))
    answer = generator.answer(WriteRequest("מתי קוראים קריאת שמע כוותיקים?", "explanation", [ruling], "he"))
    assert not answer.declined and "המצות) שהיו מכוונים" in answer.text and not answer.removed_claims
    assert answer.citations[0].verified and answer.citations[0].spans == ((0, len(VATIKIN)),)  # the page marks it all
