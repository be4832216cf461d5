"""Canonical references in Hebrew: "Shulchan Arukh, Orach Chayim 2:3" -> שו"ע או"ח ב:ג.

Works and parts the library knows by name get their customary Hebrew abbreviation, numbers become
Hebrew-letter numerals (ט"ו, not י"ה), and a gloss of the Rema is labelled הגה. Does not: parse
Hebrew references back into English ones, or name works it has no entry for (those get no label).
"""
import re

HEBREW_NAMES = {
    "Shulchan Arukh": 'שו"ע',
    "Orach Chayim": 'או"ח',
    "Yoreh De'ah": 'יו"ד',
    "Even HaEzer": 'אה"ע',
    "Choshen Mishpat": 'חו"מ',
    "Mishneh Torah": 'רמב"ם',
    "Mishnah Berurah": 'מ"ב',
    "Kitzur Shulchan Arukh": 'קיצור שו"ע',
    "Rema": "הגה",
}
ONES, TENS, HUNDREDS = "אבגדהוזחט", "יכלמנסעפצ", "קרשת"
REF = re.compile(r"^(?P<work>[^,\d]+(?:, [^,\d]+)*) (?P<numbers>\d+(?::\d+)*)(?:, (?P<gloss>[^,\d]+))?$")


def hebrew_number(n: int) -> str:
    """n (1-999) in Hebrew letters, with gershayim before the last letter of a numeral of several: 128 -> קכ"ח."""
    if not 0 < n < 1000:
        raise ValueError(f"{n} is outside 1-999")
    letters = "ת" * (n // 100 // 4) + (HUNDREDS[n // 100 % 4 - 1] if n // 100 % 4 else "")
    rest = n % 100
    if rest in (15, 16):  # never spell the divine name: 15 is ט"ו, 16 is ט"ז
        letters += "ט" + ONES[rest - 10]
    else:
        letters += (TENS[rest // 10 - 1] if rest // 10 else "") + (ONES[rest % 10 - 1] if rest % 10 else "")
    return f'{letters[:-1]}"{letters[-1]}' if len(letters) > 1 else letters


def hebrew_label(ref: str | None) -> str | None:
    """The Hebrew form of a canonical reference whose every name is known, else None."""
    match = REF.match(ref or "")
    if not match:
        return None
    names = match["work"].split(", ") + ([match["gloss"]] if match["gloss"] else [])
    if any(name not in HEBREW_NAMES for name in names):
        return None
    work = " ".join(HEBREW_NAMES[name] for name in match["work"].split(", "))
    numbers = ":".join(hebrew_number(int(n)) for n in match["numbers"].split(":"))
    return f"{work} {numbers}" + (f" {HEBREW_NAMES[match['gloss']]}" if match["gloss"] else "")
