"""Hebrew-letter numerals, read and written: ט"ו = 15, קכ"ח = 128, and 128 -> קכ"ח (in a label: "סימן קכ״ח").

One table of letter values serves both directions; final letters read as their plain forms (ך = 20).
Does not: read numbers above 999 written with a thousands geresh, or gematria of words.
"""
from hebrew.normal import TO_PLAIN

ONES, TENS, HUNDREDS = "אבגדהוזחט", "יכלמנסעפצ", "קרשת"
VALUES = {letter: (i + 1) * scale for digits, scale in ((ONES, 1), (TENS, 10), (HUNDREDS, 100))
          for i, letter in enumerate(digits)}
GERESH = "׳״'\"`"


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


def numbered(word: str, n: int) -> str:
    """A Hebrew label written from its number as the texts write it, with gershayim or a geresh: "סימן תר״ע",
    "סימן א׳"; outside 1-999 the number in digits."""
    if not 0 < n < 1000:
        return f"{word} {n}"
    letters = hebrew_number(n).replace('"', "״")
    return f"{word} {letters if '״' in letters else letters + '׳'}"


def hebrew_numeral(s: str) -> int | None:
    """The value of a Hebrew-letter numeral (ט"ו = 15, קכ"ח = 128), or None if s is not one."""
    letters = [ch for ch in s.strip().translate(TO_PLAIN) if ch not in GERESH]
    if not letters or any(ch not in VALUES for ch in letters):
        return None
    values = [VALUES[ch] for ch in letters]
    # Numerals are written largest first: any number of ת (800 = תת), one of ק-ש, one tens letter,
    # one units letter. Holding to that keeps words such as "זה" or "שני" after "פרק" from reading as
    # numbers. 15 and 16 are printed ט"ו / ט"ז, out of order; some digital texts write יה / יו.
    i = 0
    while i < len(values) and values[i] == 400:
        i += 1
    if i < len(values) and 100 <= values[i] < 400:
        i += 1
    rest = values[i:]
    if rest in ([9, 6], [9, 7]):
        return sum(values)
    tens, units = [v for v in rest if 10 <= v < 100], [v for v in rest if v < 10]
    if len(tens) > 1 or len(units) > 1 or rest != tens + units:
        return None
    return sum(values)
