"""The editor's reference: an answering sentence that refers back opens the answer anyway, its reference supplied in
square brackets, as an editor would: "It orbits the Sun at 5.20 AU" -> "[Jupiter] orbits the Sun at 5.20 AU".

The bracketed words are the editor's, not the source's: the citation check reads them so (checks/verify.EDITOR: a
quote is verified around them), and the rest of the sentence is the passage's own. Only a sentence that opens with
a personal or possessive pronoun (after an opening phrase too: "In 1928, [Alexander Fleming's] discovery ..."), or
with "This city" where the first sentence calls it a city, is opened so, and only when its passage's first sentence
names the passage's title (or opens with a fuller form of it: "Giuseppe Fortunino Francesco Verdi" for "Giuseppe
Verdi", "Sir Edward William Elgar" for "Edward Elgar"), so that the title is what "it" refers to; otherwise the
writer shows that first sentence before it, as before.
Does not: choose sentences (writers/offline.py) or check citations (checks/verify.py).
"""
import re

SUBJECTS, POSSESSIVES = "he|she|it|they", "its|his|her|their"
SUBJECT = re.compile(rf"({SUBJECTS})\b", re.I)
POSSESSIVE = re.compile(rf"({POSSESSIVES})\b", re.I)
OPENING_WORDS = ("In|On|At|As|After|Before|During|Since|Until|When|While|Although|Though|Despite|By|From|With|Without|"
                 "Following|Later|Today|Initially|Eventually|However|Meanwhile|Upon|Under|Throughout|Among|Unlike|"
                 "Finally|Originally|Historically|Traditionally|Born|Together")
INTRODUCED = re.compile(rf"((?:(?:{OPENING_WORDS})\b[^,;:()\[\]]{{0,60}},\s+"
                        rf"(?=(?:{SUBJECTS}|{POSSESSIVES})\b(?!\s+seems)))?)(.*)", re.S)
HONORIFICS = {"Sir", "Dame", "Saint", "St.", "Lord", "Lady", "Dr.", "General", "Admiral", "Captain"}
DEMONSTRATIVE = re.compile(  # "This city", "These birds"; not "This is", "This led to"
    r"(?:This|These)\s+(?!(?:is|was|are|were|has|had|have|can|could|may|might|will|would|should|must|does|did|do|"
    r"also|means|meant|became|becomes|includes|included|led|made|makes|gave|gives|allows|allowed)\b)([a-z]+)(?=\s)")


def bracketed(sentence: str, title: str, first: str) -> str | None:
    """sentence opening with its reference in brackets, or None when it does not open with a pronoun whose reference
    is title (the passage's first sentence, first, names it). "This city" refers to the title too when the first
    sentence says what the title is with that noun ("Meroë was an ancient city ...": "This city [Meroë] was ...")."""
    title = title.split(" (")[0].strip()  # "Lawrence of Arabia (film)" is named "Lawrence of Arabia"
    if not title or len(title) > 80:
        return None
    if named := re.search(re.escape(title) + r"\w*", first, re.I):
        name = named[0][0].upper() + named[0][1:]  # as the passage names it: "Giraffes are ..." -> [Giraffes]
    elif full_name(title, first):
        name = title  # "Giuseppe Fortunino Francesco Verdi was ...": [Giuseppe Verdi]
    else:
        return None
    lead, sentence = INTRODUCED.match(sentence).group(1, 2)  # "As a film producer, he holds ...": the pronoun after it
    if match := SUBJECT.match(sentence):
        return f"{lead}[{name}]{sentence[match.end():]}"
    if match := POSSESSIVE.match(sentence):
        return f"{lead}[{name}'s]{sentence[match.end():]}"
    if lead:
        return None
    if (match := DEMONSTRATIVE.match(sentence)) and re.search(rf"\b{match[1]}\b", first):
        return f"{match[0]} [{name}]{sentence[match.end():]}"
    return None


def full_name(title: str, first: str) -> bool:
    """Whether the first sentence opens with a longer form of a name of two words or more: each of the title's words,
    in order, in its subject before the verb ("Michael Fred Phelps II is ..." for "Michael Phelps"), the first one
    perhaps in full ("Walter Elias Disney was ..." for "Walt Disney")."""
    wanted = title.split()
    subject = re.split(r",|\s(?:is|was|are|were|has|had)\s", first, maxsplit=1)[0].split()
    if subject and subject[0] in HONORIFICS:
        subject = subject[1:]  # "Sir Edward William Elgar" for "Edward Elgar"
    if len(wanted) < 2 or not subject or not subject[0].startswith(wanted[0]) or len(wanted[0]) < 3 \
            or len(subject) > len(wanted) + 4 or "and" in subject:
        return False  # one name, not two joined ("Michael Jordan and Fred Phelps")
    rest = iter(subject[1:])
    return all(word in rest for word in wanted[1:])  # "Walter Elias Disney" for "Walt Disney" too
