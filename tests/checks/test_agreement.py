"""Whether a sentence is about the question's subject and holds what it asks for: a faithful sentence about a
neighbouring subject (Zurich's population for Switzerland's, Callisto's size for the Moon's distance) cannot answer."""
from question.asks import read
from checks.agreement import agree, defines

ZURICH = ["Zurich is the largest city in Switzerland and the capital of the canton of Zurich.",
          "As of the end of 2024, the municipality had a population of 436,551, while the urban area was home to "
          "1.45 million people (2020)."]
SWITZERLAND = ["Switzerland, officially the Swiss Confederation, is a landlocked country in Europe.",
               "Switzerland is divided among the Alps, the Plateau and the Jura; the majority of its 9 million people "
               "are concentrated on the plateau."]
CALLISTO = ["Callisto is the second-largest moon of Jupiter, after Ganymede.",
            "With a diameter of 4,821 km, Callisto is roughly a third larger than Earth's Moon."]
MOON = ["The Moon is the only natural satellite of Earth.",
        "It orbits around Earth at an average distance of 384,399 kilometers (238,854 mi)."]


def can(question, heading, sentences, i):
    asks = read(question)
    return agree(asks, sentences[i], heading, sentences[0]).can_answer(asks)


def test_a_neighbouring_subjects_fact_of_the_right_type_cannot_answer():
    question = "What is the population of Switzerland?"
    assert not can(question, "Zurich", ZURICH, 1)  # "the municipality" refers back to Zurich
    assert not can(question, "Zurich", ZURICH, 0)
    assert can(question, "Switzerland", SWITZERLAND, 1)
    assert not can(question, "Switzerland", SWITZERLAND, 0)  # its subject, but no number of people
    question = "How far is the Moon from the Earth?"
    assert not can(question, "Callisto (moon)", CALLISTO, 0)  # about Callisto, and no distance
    callisto = agree(read(question), CALLISTO[1], "Callisto (moon)", CALLISTO[0])
    assert callisto.subject == "mentions" and callisto.aside  # about Callisto, naming the Moon in passing
    moon = agree(read(question), MOON[1], "Moon", MOON[0])
    assert moon.subject == "own" and moon.can_answer(read(question))  # "It" refers back to the Moon's own passage
    assert not can(question, "Moon", MOON, 0)  # no distance


def test_one_name_is_not_another_that_shares_a_word():
    asks = read("When was Marie Curie born?")
    pierre = "Pierre Curie was a French physicist born in 1859."
    assert agree(asks, pierre, "Pierre Curie", pierre).subject == "other"
    marie = "Marie Curie was born in Warsaw in 1867."
    assert agree(asks, marie, "Marie Curie", marie).subject == "own"


def test_an_acronym_and_its_words_are_one_name():
    asks = read("How many telescopes make up ALMA?")
    sentence = "The Atacama Large Millimeter Array (ALMA) is an interferometer of 66 radio telescopes."
    assert agree(asks, sentence, "Atacama Large Millimeter Array", sentence).can_answer(asks)


def test_a_doer_may_open_the_sentence_that_answers_who():
    asks = read("Who discovered penicillin?")
    fleming = ["Sir Alexander Fleming was a Scottish physician.",
               "He shared the 1945 Nobel Prize with Howard Florey for the discovery of penicillin."]
    assert agree(asks, fleming[1], "Alexander Fleming", fleming[0]).can_answer(asks)
    natural = "A number of natural penicillins have been discovered."
    assert not agree(asks, natural, "Penicillin", natural).can_answer(asks)  # no one named


def test_a_superlative_must_be_of_the_noun_asked_and_not_narrowed_to_a_place():
    asks = read("What is the tallest animal?")
    giraffe = "They are the tallest living terrestrial animals and the largest ruminants on Earth."
    moose = "It is also the tallest, and the second-largest, land animal in North America."
    deer = "The moose is the world's tallest, largest and heaviest extant species of deer."
    assert agree(asks, giraffe, "Giraffe", giraffe).can_answer(asks)
    assert not agree(asks, moose, "Moose", deer).can_answer(asks)
    assert not agree(asks, deer, "Moose", deer).can_answer(asks)


def test_a_superlative_narrowed_to_a_named_sea_does_not_answer_one_over_the_whole_ocean():
    asks = read("What is the deepest point in the ocean?")
    sunda = "The Sunda Trench marks the deepest point of the Timor Sea with a depth of more than 3300 metres."
    mariana = "The Mariana Trench is the deepest oceanic trench on Earth, located in the western Pacific Ocean."
    assert not agree(asks, sunda, "Timor Sea", "The Timor Sea is a relatively shallow sea.").slot
    assert agree(asks, mariana, "Mariana Trench", mariana).slot  # "point" is any place; Earth narrows nothing
    assert agree(read("What is the longest river?"), "The Nile is the longest river in the world.", "Nile", "").slot
    assert not agree(read("What is the longest river?"), "The Nile is the longest river in Africa.", "Nile", "").slot


def test_dates_numbers_and_measures_are_checked():
    def holds(question, sentence):
        return agree(read(question), sentence, "", sentence).slot
    assert holds("When did it open?", "It opened in 1889.") and not holds("When did it open?", "It opened to acclaim.")
    assert holds("When was the Colosseum built?", "Construction was completed in AD 80 under Titus.")
    assert holds("How long is the blade?", "The blade is typically 30 to 66 centimetres long.")
    assert not holds("How far away is it?", "It weighs 40 tonnes.")
    assert holds("How many people follow Buddhism?", "It has about 320 million followers.")


def test_hebrew_dates_and_numbers_are_checked_and_the_subject_matched_without_prefixes():
    asks = read("באיזו שנה נוסדה הדת הבהאית?")
    founded = "הדת הבהאית נוסדה בשנת 1844 באיראן."
    assert agree(asks, founded, "הדת הבהאית", founded).can_answer(asks)
    spread = "הדת הבהאית התפשטה ברחבי העולם."
    assert not agree(asks, spread, "הדת הבהאית", spread).can_answer(asks)


def test_a_passage_defines_the_subject_it_is_named_for():
    assert defines(read("Who was Marie Curie?"), "Marie Curie")
    assert not defines(read("Who was Marie Curie?"), "Pierre Curie")
    assert defines(read("What is a virus?"), "Virus") and not defines(read("What is a virus?"), "Tobacco mosaic virus")


def test_a_sentence_about_another_named_thing_of_the_kind_asked_cannot_answer():
    asks = read("How tall is Victoria Falls?")
    angel = "Angel Falls is the world's tallest uninterrupted waterfall, with a height of 979 metres."
    assert agree(asks, angel, "Angel Falls", angel).subject == "other" and not agree(asks, angel, "Angel Falls", angel).can_answer(asks)


def test_a_name_is_the_same_name_only_when_one_ends_the_other():
    asks = read("Where does the Jordan River rise?")
    dead_sea = "The Dead Sea is a salt lake bordered by Jordan to the east."
    assert agree(asks, dead_sea, "Dead Sea", dead_sea).subject == "other"  # Jordan the country, not the river
    asks = read("When was Einstein born?")
    albert = "Albert Einstein was born in Ulm in 1879."
    assert agree(asks, albert, "Albert Einstein", albert).subject == "own"


def test_a_name_the_first_sentence_gives_its_subject_is_the_subjects_own():
    galileo = ("Galileo di Vincenzo Bonaiuti de' Galilei, commonly referred to as Galileo Galilei or mononymously "
               "as Galileo, was an Italian astronomer.")
    born = "He was born in Pisa, then part of the Duchy of Florence."
    assert can("Where was Galileo born?", "Galileo Galilei", [galileo, born], 1)
    plain = "Galileo di Vincenzo Bonaiuti de' Galilei was an Italian astronomer."  # no other name given
    assert agree(read("Where was Galileo born?"), born, "Galileo Galilei", plain).subject == "other"


def test_who_did_a_deed_needs_a_sentence_that_tells_the_deed():
    asks = read("Who invented the combine harvester?")
    crops = "Among the crops harvested with a combine are wheat, rice and oats."
    assert not agree(asks, crops, "Combine harvester", crops).can_answer(asks)
    inventor = "The first combine was invented by Hiram Moore in 1834."
    assert agree(asks, inventor, "Combine harvester", inventor).can_answer(asks)
