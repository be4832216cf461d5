"""Canonical references in Hebrew: "Shulchan Arukh, Orach Chayim 2:3" -> שו"ע או"ח ב:ג.

Works and parts the library knows by name get their customary Hebrew abbreviation, numbers become
Hebrew-letter numerals (ט"ו, not י"ה), and a gloss of the Rema is named by its author, רמ"א (as the English
"..., Rema"; its text opens with the word הגה). Does not: parse Hebrew references back into English ones, or name
works it has no entry for (those get no label).
"""
import re

from hebrew.numerals import hebrew_number

HEBREW_NAMES = {
    "Shulchan Arukh": 'שו"ע',
    "Orach Chayim": 'או"ח',
    "Yoreh De'ah": 'יו"ד',
    "Even HaEzer": 'אה"ע',
    "Choshen Mishpat": 'חו"מ',
    "Mishneh Torah": 'רמב"ם',
    "Mishnah Berurah": 'מ"ב',
    "Kitzur Shulchan Arukh": 'קיצור שו"ע',
    "Rema": 'רמ"א',
}
REF = re.compile(r"^(?P<work>[^,\d]+(?:, [^,\d]+)*) (?P<numbers>\d+(?::\d+)*)(?:, (?P<gloss>[^,\d]+))?$")


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
