"""The editor's reference: an answering sentence that refers back opens the answer with its reference in brackets,
and the citation check verifies a quote around the editor's words, never them."""
from checks.verify import Verifier, split_claims
from conftest import FakeEmbedder
from models import Chunk, Hit
from writers.reference import bracketed

JUPITER = ("Jupiter is the fifth planet from the Sun and the largest in the Solar System. "
           "It orbits the Sun at a distance of 5.20 AU. Its mass is one-thousandth that of the Sun.")


def test_a_pronoun_gets_the_passages_own_name_of_its_subject():
    first = "Jupiter is the fifth planet from the Sun and the largest in the Solar System."
    assert bracketed("It orbits the Sun at a distance of 5.20 AU.", "Jupiter", first) == \
        "[Jupiter] orbits the Sun at a distance of 5.20 AU."
    assert bracketed("Its mass is one-thousandth that of the Sun.", "Jupiter", first) == \
        "[Jupiter's] mass is one-thousandth that of the Sun."
    assert bracketed("They are the tallest living animals.", "Giraffe", "Giraffes are large African mammals.") == \
        "[Giraffes] are the tallest living animals."
    assert bracketed("It was released in 1962.", "Lawrence of Arabia (film)",
                     "Lawrence of Arabia is a 1962 epic film.") == "[Lawrence of Arabia] was released in 1962."


def test_a_first_sentence_that_opens_with_a_fuller_name_gives_the_title():
    verdi = "Giuseppe Fortunino Francesco Verdi was an Italian composer best known for his operas."
    assert bracketed("He was born near Busseto.", "Giuseppe Verdi", verdi) == "[Giuseppe Verdi] was born near Busseto."
    phelps = "Michael Fred Phelps II is an American former competitive swimmer."
    assert bracketed("His record is 28 medals.", "Michael Phelps", phelps) == "[Michael Phelps's] record is 28 medals."
    assert bracketed("He won.", "Michael Phelps", "Michael Jordan and Fred Phelps met in 1990.") is None  # two names
    assert bracketed("He won.", "Giuseppe Verdi", "Verdi's Requiem was first sung in Milan.") is None


def test_a_demonstrative_the_first_sentence_explains_and_a_title_behind_an_honorific():
    meroe = "Meroë was an ancient city on the east bank of the Nile."
    kush = "This city was the capital of the Kingdom of Kush."
    assert bracketed(kush, "Meroë", meroe) == "This city [Meroë] was the capital of the Kingdom of Kush."
    assert bracketed("This river floods in summer.", "Meroë", meroe) is None  # Meroë is no river: another one
    assert bracketed("This is the capital.", "Meroë", meroe) is None  # no noun: "This is"
    elgar = "Sir Edward William Elgar, 1st Baronet was an English composer."
    assert bracketed("He was appointed Master of the King's Musick in 1924.", "Edward Elgar", elgar) == \
        "[Edward Elgar] was appointed Master of the King's Musick in 1924."


def test_a_pronoun_after_an_opening_phrase_gets_its_reference_in_place():
    fleming = "Sir Alexander Fleming was a Scottish physician and microbiologist."
    assert bracketed("In 1928, his discovery of penicillin began the age of antibiotics.", "Alexander Fleming",
                     fleming) == "In 1928, [Alexander Fleming's] discovery of penicillin began the age of antibiotics."
    assert bracketed("As a film producer, he holds the record.", "Walt Disney", "Walter Elias Disney was an animator.") \
        == "As a film producer, [Walt Disney] holds the record."
    assert bracketed("Items, it seems, are sold here.", "Market", "Market is a place.") is None  # no opening phrase
    assert bracketed("In 1990, it seems, prices fell.", "Market", "Market is a place.") is None


def test_no_bracket_when_the_reference_is_unclear_or_there_is_no_pronoun():
    assert bracketed("It orbits the Sun.", "Chapter 3.pdf", "The planets move in ellipses.") is None
    assert bracketed("Jupiter orbits the Sun.", "Jupiter", "Jupiter is a planet.") is None
    assert bracketed("Items are sold here.", "Market", "Market is a place.") is None  # "Items" is no "It"


def test_a_quote_is_verified_around_the_editors_words():
    hits = [Hit(Chunk("j#0", "j", "Jupiter", JUPITER, 0, len(JUPITER)), 1.0, 1.0, 1.0)]
    verifier = Verifier(FakeEmbedder(), 0.0)
    kept, checks, _ = verifier.verify(split_claims('"[Jupiter] orbits the Sun at a distance of 5.20 AU" [1].'), hits)
    assert kept and checks[0].quote_verified is True
    kept, checks, _ = verifier.verify(split_claims('"[Jupiter] orbits the Moon at a distance of 5.20 AU" [1].'), hits)
    assert not kept  # the words around the insertion are the source's, word for word
    inside = '"Its mass [Jupiter\'s] is one-thousandth that of the Sun" [1].'
    kept, checks, _ = verifier.verify(split_claims(inside), hits)
    assert kept and checks[0].quote_verified is True  # an insertion inside the quote too
