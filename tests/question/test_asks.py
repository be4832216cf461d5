"""What a question asks for (its slot) and what it is about (its subject), in English and Hebrew."""
import pytest

from question.asks import read, stem


@pytest.mark.parametrize("question, slot, names", [
    ("What is the population of Switzerland?", "population", [("switzerland",)]),
    ("How many people live in Lagos?", "population", [("lago",)]),
    ("How far is the Moon from the Earth?", "measure", [("moon",), ("earth",)]),
    ("How tall is the Eiffel Tower?", "measure", [("eiffel", "tower")]),
    ("When was Albert Einstein born?", "date", [("albert", "einstein")]),
    ("In what year did the Titanic sink?", "date", [("titanic",)]),
    ("Where was Juan Ponce de León born?", "place", [("juan", "ponce", "de", "leon")]),
    ("Who was Marie Curie?", "definition", [("marie", "curie")]),
    ("Who is the president of France?", "person", [("france",)]),
    ("How many moons does Neptune have?", "number", [("neptune",)]),
    ("What is the largest city in Canada?", "superlative", [("canada",)]),
    ("Where did Roosevelt, Churchill and Stalin meet?", "place", [("roosevelt",), ("churchill", "stalin")]),
])
def test_the_slot_and_the_names_of_english_questions(question, slot, names):
    asks = read(question)
    assert asks.slot == slot and list(asks.runs) == names and not asks.hebrew


def test_a_question_for_a_doer_has_the_thing_done_as_its_subject():
    asks = read("Who discovered penicillin?")
    assert asks.slot == "person" and asks.agent and [f[0] for f in asks.subject] == ["penicillin"]
    asks = read("Which river flows through Cairo?")
    assert asks.slot == "noun" and asks.noun == "river" and asks.agent  # the answer is the river itself


@pytest.mark.parametrize("question, slot, noun", [
    ("Roughly how many species belong to the genus Aloe?", "number", "species"),
    ("About how many Muslims are there worldwide?", "number", "muslim"),
    ("During which years did England's Gin Craze happen?", "date", None),
    ("At what age does puberty start?", "measure", "age"),
    ("Roughly when was barley domesticated?", "date", None),
    ("What is Thor the god of?", None, None),
    ("What are protons and neutrons together called?", None, None),
    ("Who was Su Shi's father?", "person", None),
    ("What is Occam's razor?", "definition", None),
])
def test_a_hedge_keeps_its_slot_and_an_attribute_is_no_definition(question, slot, noun):
    asks = read(question)
    assert (asks.slot, asks.noun) == (slot, noun)


def test_measure_units_and_superlatives_are_read():
    assert read("How long did the siege last?").unit == "extent"  # a length or a time
    assert read("How heavy is an ostrich egg?").unit == "mass"
    assert read("What is the area of the Achaemenid Empire?").slot == "measure"
    assert read("What area did the Westwood One broadcast cover?").slot == "noun"  # a region, not a measure
    asks = read("What is the tallest animal?")
    assert (asks.slot, asks.superlative, asks.noun, asks.subject) == ("superlative", "tallest", "animal", ())
    assert read("What distinguishes the Second Industrial Revolution from the first one?").slot != "superlative"


def test_a_definition_asks_about_the_whole_rest():
    asks = read("What is photosynthesis?")
    assert asks.slot == "definition" and [f[0] for f in asks.subject] == ["photosynthesis"]


@pytest.mark.parametrize("question, overview", [
    ("Tell me about the Roman Colosseum", True), ("What do you know about Jupiter?", True),
    ("Can you tell me about penicillin?", True), ("Describe the Eiffel Tower.", True), ("What is the Colosseum?", True),
    ("Tell me about the history of the Colosseum", False),  # its history, not what it is
    ("What is Nepal's population?", False), ("What is the Hillary Step on Mount Everest?", False),
    ("When was the Colosseum built?", False), ("What is ketchup made from?", False), ("What is photosynthesis?", True),
    ("What is the difference between a black rhinoceros and a white rhinoceros?", False),
])
def test_an_overview_asks_what_its_subject_is_and_nothing_more(question, overview):
    asks = read(question)
    assert asks.overview == overview
    assert not {"tell", "me", "know", "describe"} & asks.words


@pytest.mark.parametrize("question, slot", [
    ("מתי נולד אלברט איינשטיין?", "date"), ("באיזו שנה נוסדה הדת הבהאית?", "date"),
    ("כמה חברים יש בקהילה?", "number"), ("כמה זמן שהו במערה?", "measure"), ("מהי אוכלוסיית שווייץ?", "population"),
    ("איפה הסתתר רשב\"י?", "place"), ("מי גילה את הפניצילין?", "person"), ("מי היה הרמב\"ם?", "definition"),
    ("מהי העיר הגדולה ביותר בישראל?", "superlative"), ("למה ירדו ההכנסות?", None),
])
def test_the_slot_of_hebrew_questions(question, slot):
    asks = read(question)
    assert asks.hebrew and asks.slot == slot


def test_a_hebrew_subject_is_its_content_words_with_their_prefix_forms():
    subject = read("מהי אוכלוסיית שווייץ?").subject
    assert any("שווייצ" in forms for forms in subject)  # final letters unified, as the analyzer does
    assert not any("מהי" in forms for forms in subject)


def test_stems_drop_plurals_and_accents_but_keep_words_that_end_in_s():
    assert [stem(w) for w in ("languages", "Zürich", "species", "berries", "Bengali's")] == [
        "language", "zurich", "species", "berry", "bengali"]
