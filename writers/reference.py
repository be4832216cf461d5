"""The editor's reference: an answering sentence that refers back opens the answer anyway, its reference supplied in
square brackets, as an editor would: "It orbits the Sun at 5.20 AU" -> "[Jupiter] orbits the Sun at 5.20 AU".

The bracketed words are the editor's, not the source's: the citation check reads them so (checks/verify.EDITOR: a
quote is verified around them), and the rest of the sentence is the passage's own. Only a sentence that opens with
a personal or possessive pronoun is opened so, and only when its passage's first sentence names the passage's title,
so that the title is what "it" refers to; otherwise the writer shows that first sentence before it, as before.
Does not: choose sentences (writers/offline.py) or check citations (checks/verify.py).
"""
import re

SUBJECT = re.compile(r"(he|she|it|they)\b", re.I)
POSSESSIVE = re.compile(r"(its|his|her|their)\b", re.I)


def bracketed(sentence: str, title: str, first: str) -> str | None:
    """sentence opening with its reference in brackets, or None when it does not open with a pronoun whose reference
    is title (the passage's first sentence, first, names it)."""
    title = title.split(" (")[0].strip()  # "Lawrence of Arabia (film)" is named "Lawrence of Arabia"
    named = re.search(re.escape(title) + r"\w*", first, re.I) if title and len(title) <= 80 else None
    if named is None:
        return None
    name = named[0][0].upper() + named[0][1:]  # as the passage names it: "Giraffes are ..." -> [Giraffes]
    if match := SUBJECT.match(sentence):
        return f"[{name}]{sentence[match.end():]}"
    if match := POSSESSIVE.match(sentence):
        return f"[{name}'s]{sentence[match.end():]}"
    return None

