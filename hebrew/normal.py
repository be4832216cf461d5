"""The one place Hebrew text is normalised: which marks are points, which separate words, and the final letters.

`without_points` is the form every reader of the words shares: vowel points and cantillation removed,
precomposed letters (שׁ, בּ) taken apart first, and maqaf, paseq, sof pasuq and nun hafukha as spaces, since
they stand between words. `normalise` is the form texts are compared in (quotes in citations, history search,
the follow-up rules): NFKC, without points, punctuation and symbols as spaces, case-folded, one space.
The analyzer (analyzer.py) builds its BM25 form on `without_points` and keeps quotes, which mark abbreviations.
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


def normalise(text: str) -> str:
    """Text as it is compared: NFKC, without points, punctuation and symbols as spaces, case-folded, one space."""
    text = without_points(MARKS_BETWEEN_LETTERS.sub("", unicodedata.normalize("NFKC", text)))
    text = "".join(" " if unicodedata.category(c).startswith(("P", "S")) else c for c in text)
    return " ".join(text.casefold().split())
