"""The fixed sentences an answer may consist of, in each language the library is used in, and how a passage is
named: the writers write them (writers/prompt.py asks models for them), and the checks write them when they decline.
A decline that has nothing the sources do say names the nearest passages instead, each by its reference (its Hebrew
label in a Hebrew answer) and cited, so the reader sees what was found even when the question's language is not the
texts' (an English question over the Shulchan Arukh).
"""
from hebrew.refs import hebrew_label
from hebrew.script import detect_language
from models import Hit

CANNOT_ANSWER = "The provided sources do not answer this question."
# The fixed sentences an answer may consist of, in the languages the library is used in; others get English.
DECLINE = {"en": CANNOT_ANSWER, "he": "המקורות שסופקו אינם עונים על שאלה זו."}
SOURCES_SEARCHED = {"en": "Sources searched:", "he": "המקורות שנבדקו:"}
# After a decline, what the sources do say that is closest to the question.
FOUND = {"en": "What they do say:", "he": "מה שהם כן אומרים:"}
# After a decline with nothing the sources do say: the passages found nearest to the question, cited.
NEAREST = {"en": "The nearest passages found:", "he": "הקטעים הקרובים ביותר שנמצאו:"}
NEAREST_MOST = 3  # passages a decline names
# Declining a calculation: the figures no source gives.
MISSING = {"en": "They do not give the figure for: {}.", "he": "אין בהם נתון עבור: {}."}


# A decline to a question in a language no text of the library is written in: what the texts are written in, and
# that the question may be asked in it.
NO_TEXTS_IN = {"en": "The library's texts are in {texts}, not in {asked}; ask the question in {first} to search them.",
               "he": "הטקסטים בספרייה כתובים ב{texts}, לא ב{asked}; אפשר לשאול את השאלה ב{first} כדי לחפש בהם."}
# Languages by name, in English (what a model is told to write in) and in Hebrew
LANGUAGE_NAMES = {"en": "English", "he": "Hebrew", "arc": "Aramaic", "yi": "Yiddish", "de": "German", "fr": "French",
                  "es": "Spanish", "ru": "Russian", "ar": "Arabic"}
HEBREW_NAMES = {"he": "עברית", "en": "אנגלית", "arc": "ארמית", "yi": "יידיש"}


def no_texts_in(question_language: str, answer_language: str, texts: list[str]) -> str:
    """The sentence saying that the library's texts are in other languages (texts: their codes, the first offered to
    ask in) than the question's, and that it may be asked in theirs, in the answer's language."""
    words = HEBREW_NAMES if answer_language == "he" else LANGUAGE_NAMES
    name = lambda code: words.get(code, code)  # noqa: E731
    joiner = " ו" if answer_language == "he" else " and "
    return NO_TEXTS_IN.get(answer_language, NO_TEXTS_IN["en"]).format(
        texts=joiner.join(name(code) for code in texts), asked=name(question_language), first=name(texts[0]))


def in_other_languages(answer, question: str, language: str, texts_in) -> None:
    """A declined answer to a question in a language no text of the library is in (a Hebrew question over an
    English library) made to say so plainly, in the answer's language: the sources may be silent because of the
    language, not the subject, and the question may be asked in theirs. It cites nothing: what was found for words
    the texts do not use is not about the question: the nearest passages are dropped, while what the sources do say
    that is near it (the writer's "What they do say:") stays, cited. texts_in: the library's languages, read only
    when needed (search/catalog.Languages; its askable(): those the questions beside its passages add, a language
    the library answers in though no text is written in it)."""
    asked = detect_language(question)
    texts = texts_in() if asked else set()
    if not (asked and texts and asked not in texts) or asked in getattr(texts_in, "askable", set)():
        return  # asked in a language of its texts, or of the questions kept beside them (searched as well)
    said = no_texts_in(asked, language, sorted(texts))
    if found_text(language) in answer.text:
        answer.text = f"{answer.text} {said}"
    else:
        answer.text = f"{decline_text(language)} {said}"
        answer.citations = []


def decline_text(language: str) -> str:
    """CANNOT_ANSWER in the answer's language."""
    return DECLINE.get(language, CANNOT_ANSWER)


def found_text(language: str) -> str:
    """The lead-in of what the sources do say, after a decline, in the answer's language."""
    return FOUND.get(language, FOUND["en"])


def missing_text(language: str, figures: tuple[str, ...]) -> str:
    """The sentence naming the figures no source gives, in the answer's language."""
    return MISSING.get(language, MISSING["en"]).format("; ".join(f"“{f}”" for f in figures))


def without_opening(text: str, openings: dict[str, str]) -> str:
    """text without the fixed sentence (one of openings, in any language) it opens with."""
    return next((text[len(o):].strip() for o in openings.values() if text.startswith(o)), text)


def is_decline(text: str) -> bool:
    """Whether text is (or opens with) the fixed decline sentence of any language."""
    return any(text.startswith(d) for d in DECLINE.values())


def passage_label(hit: Hit) -> str:
    """How a passage is named to the model and the reader: its canonical reference, else its title."""
    return hit.chunk.ref or hit.chunk.title


def nearest_text(hits: list[Hit], language: str, most: int = NEAREST_MOST) -> str:
    """The lead-in and the first `most` passages of hits (the search's nearest), each named once and cited [n]:
    "The nearest passages found: Shulchan Arukh, Orach Chayim 671:2 [1]; ... 671:5 [2]."; "" without hits."""
    named: dict[str, int] = {}
    for n, hit in enumerate(hits, start=1):
        label = (language == "he" and hebrew_label(hit.chunk.ref)) or passage_label(hit)
        named.setdefault(label, n)
        if len(named) == most:
            break
    said = "; ".join(f"{label} [{n}]" for label, n in named.items())
    return f"{NEAREST.get(language, NEAREST['en'])} {said}." if named else ""
