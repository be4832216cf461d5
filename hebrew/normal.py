"""The one place Hebrew text is normalised: which marks are points, which separate words, and the final letters.

`without_points` is the form every reader of the words shares: vowel points and cantillation removed,
precomposed letters (שׁ, בּ) taken apart first, and maqaf, paseq, sof pasuq and nun hafukha as spaces, since
they stand between words. `normalise` is the form texts are compared in (quotes in citations, history search,
the follow-up rules): NFKC, without points, punctuation and symbols as spaces, case-folded, one space.
The analyzer (analyzer.py) builds its BM25 form on `without_points` and keeps quotes, which mark abbreviations.
`for_models` is what every model reads of a text (the embedder's passages and questions, and so the offline
writer's sentence scores and the citation check's support; the answerability judge; a cross-encoder): the text
`without_points`, since points and cantillation split a pointed word into pieces an embedder barely reads (dense
search over a pointed Tanakh, README "Pointed Hebrew"). Stored and shown text keeps them; quotes are checked
against it. MODEL_FORM names this form: a library records it beside its vectors, and re-embeds when it changes.
Does not: stem, expand abbreviations (analyzer.py) or detect languages (script.py).
"""
import re
import unicodedata

FINAL_LETTERS, PLAIN_LETTERS = "ךםןףץ", "כמנפצ"
TO_PLAIN = str.maketrans(FINAL_LETTERS, PLAIN_LETTERS)  # final letters as their plain forms
POINTS = re.compile(r"[\u0591-\u05BD\u05BF\u05C1\u05C2\u05C4\u05C5\u05C7]")  # vowel points and cantillation
SEPARATORS = re.compile(r"[\u05BE\u05C0\u05C3\u05C6]")  # maqaf, paseq, sof pasuq, nun hafukha
PRESENTATION = re.compile(r"[\uFB1D-\uFB4F\u05F0-\u05F2]")  # precomposed letters (שׁ, בּ) and Yiddish ligatures
MARKS_BETWEEN_LETTERS = re.compile(r"[\u05C0\u05C6]")  # paseq, nun hafukha: compared texts drop them (history rows keep them so)


def without_points(text: str) -> str:
    """text without vowel points or cantillation, and with the marks that separate words as spaces."""
    text = PRESENTATION.sub(lambda m: unicodedata.normalize("NFKD", m[0]), text)
    return SEPARATORS.sub(" ", POINTS.sub("", text))


MODEL_FORM = "unpointed-1"  # change it whenever for_models changes: libraries then re-embed what it changes


def for_models(text: str) -> str:
    """What a model reads of text: without points or cantillation, maqaf and the other word separators as spaces.

    Text without Hebrew marks comes back unchanged, so only pointed passages need new vectors when a library
    made with the text as written is opened."""
    return without_points(text)


def normalise(text: str) -> str:
    """Text as it is compared: NFKC, without points, punctuation and symbols as spaces, case-folded, one space."""
    text = without_points(MARKS_BETWEEN_LETTERS.sub("", unicodedata.normalize("NFKC", text)))
    text = "".join(" " if unicodedata.category(c).startswith(("P", "S")) else c for c in text)
    return " ".join(text.casefold().split())
