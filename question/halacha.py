"""Whether a question is one of religious law, which Evidenz teaches from the sources and never rules on.

A question is halachic when its evidence comes from the works of halacha (the Shulchan Arukh, the Mishneh Torah,
the Mishnah Berurah, the Kitzur): most of the passages do, or any does and the question asks what is permitted,
forbidden or required. Such an answer sets out each source under its own reference, never says "you may" or
"you must" in the writer's own voice (RULING), and, when it cites its sources (a decline does not), ends with the
fixed line of RABBI, in the answer's language (checks/answer.py appends it).
Does not: tell communities or customs apart, or judge a question with no halachic source among its passages.
"""
import regex

from models import Hit

WORKS = ("Shulchan Arukh", "Mishneh Torah", "Mishnah Berurah", "Kitzur Shulchan Arukh", "Arukh HaShulchan", "Tur,")
# The same works as a library names them: a document's work or title, in English or in Hebrew (the page's words
# of religious law, "Posek view" and the like, are shown where the library holds one of them).
WORK_TITLES = (*WORKS, "שולחן ערוך", "שלחן ערוך", "משנה תורה", "משנה ברורה", "קיצור שולחן ערוך", "ערוך השולחן",
               "טור,")  # "Tur," and "טור,": a bare "Tur" would take Turkey, and "טור " a Taylor series, for the Tur
ASKS_THE_LAW = regex.compile(
    r"\b(permitted|allowed|forbidden|prohibited|obligat\w*|required|may (?:i|one|we|a|you)|must (?:i|one|we|you)|"
    r"is it (?:ok|okay|allowed)|halach?k?h?a\w*|kosher)\b"
    r"|(?<!\p{L})(מותר|אסור|חייב\p{L}*|צריך|צריכה|רשאי\p{L}*|הלכה|כשר\p{L}*|מה הדין)(?!\p{L})", regex.I)
# A ruling in the writer's own voice; a quotation of a source is the source's voice, not the writer's.
RULING = regex.compile(
    r"\b(?:you|one) (?:may|must|can|should|need to|have to|are (?:not )?(?:allowed|permitted|required|obligated|"
    r"forbidden))\b|\bit is (?:permitted|forbidden|allowed|prohibited) for you\b"
    r"|(?<!\p{L})(?:מותר לך|אסור לך|מותר לכם|אסור לכם|עליך|עליכם|אתה חייב|אתה רשאי|את חייבת|את רשאית)(?!\p{L})", regex.I)
# A ruling attributed to a source ("the Shulchan Arukh rules that one may not...") is the source's voice.
ATTRIBUTED = regex.compile(
    r"\b(?:according to|in the view of|(?:rules|ruled|writes|wrote|holds|held|says|said|states|stated|teaches|"
    r"taught|permits|forbids|maintains|adds|glosses)\b)"
    r"|(?<!\p{L})(?:לדעת|לפי|כתב|כותב|פוסק|פסק|סובר|אומר|מוסיף)(?!\p{L})", regex.I)
QUOTED = regex.compile(r"[\"“”«»״][^\"“”«»״]*[\"“”«»״]")
RABBI = {"en": "These are what the sources say, not a ruling: for a practical question, ask a rabbi.",
         "he": "אלה דברי המקורות ולא פסק הלכה; לשאלה מעשית יש לפנות לרב."}


def from_halachic_work(hit: Hit) -> bool:
    """Whether the passage is a unit of a work of halacha, by its canonical reference."""
    return bool(hit.chunk.ref) and hit.chunk.ref.startswith(WORKS)


def is_halachic(question: str, hits: list[Hit]) -> bool:
    """Whether the question is one of religious law, by its evidence and its words."""
    halachic = sum(from_halachic_work(h) for h in hits)
    return bool(halachic) and (2 * halachic > len(hits) or bool(ASKS_THE_LAW.search(question)))


def rules(claim: str) -> bool:
    """Whether a claim rules in the writer's own voice: outside any quotation, and attributed to no source."""
    own = QUOTED.sub(" ", claim)
    return bool(RULING.search(own)) and not ATTRIBUTED.search(own)


def rabbi_line(language: str) -> str:
    """The fixed closing line of an answer to a question of religious law, in the answer's language."""
    return RABBI.get(language, RABBI["en"])
