"""A follow-up's pronoun replaced by what it refers to, so that the standalone question asks one thing.

"And when was he born?" after "Who was Albert Einstein?" becomes "When was Albert Einstein born?", not the two
questions joined. What a pronoun refers to (antecedent) is, in order:
  1. for he/she/his/her after a question that asked for a person ("Who discovered penicillin?"), the first name in
     the previous answer's first sentence that the question did not name, of two words or more when there is one
     ("Sir Alexander Fleming was ...", "War and Peace is a novel by ... Leo Tolstoy");
  2. the first name of the previous question ("Albert Einstein", "the Eiffel Tower");
  3. what the previous question asked about: X of "What is X?", "Who was X?", "מהו X?", "מי היה X?".
Subject pronouns (he, she, it, they, him, them; הוא, היא, הם, הן, אותו, אותה, אותם) become the antecedent;
possessives (his, her + noun, its, their) its possessive ("Albert Einstein's"; שלו/שלה/שלהם become "של X").
An opener ("and", "but", ו) is dropped. With no antecedent, or a pronoun of the wrong kind (it for a person),
nothing is replaced and follow_up.py's other rules apply.
Does not: resolve more than one pronoun, or a pronoun of an earlier turn than the last.
"""
import re

from question.asks import names_of, read

SUBJECT = {"he": "person", "she": "person", "him": "person", "it": "thing", "they": "any", "them": "any"}
POSSESSIVE = {"his": "person", "her": "person", "its": "thing", "their": "any"}
HE_SUBJECT = {"הוא", "היא", "הם", "הן", "אותו", "אותה", "אותם", "אותן"}
HE_POSSESSIVE = {"שלו", "שלה", "שלהם", "שלהן"}
OPENER = re.compile(r"^(?:and|but|also|so|ok|okay)\s+|^ו(?=[\u05D0-\u05EA])", re.I)
QUESTION_WORDS = {"Who", "What", "When", "Where", "Which", "Why", "How", "Whom", "Whose", "An", "A", "The", "In", "On"}
WHAT_IS = re.compile(r"^(?:what|who)\s+(?:is|was|are|were)\s+(?P<x>.+?)[?.!]*$", re.I)
HE_WHAT_IS = re.compile(r"^(?:מהו|מהי|מה זה|מה היא|מה הוא|מיהו|מיהי|מי היה|מי הייתה|מי היתה|מי הוא|מי היא)\s+"
                        r"(?P<x>.+?)[?.!]*$")
CITATION = re.compile(r"\s*\[\d+\]")


def antecedent(previous: str, answer: str) -> tuple[str, str] | None:
    """(what a pronoun of the next question refers to, its kind: "person" or "thing"), or None."""
    asked = read(previous)
    if asked.slot == "person" and asked.agent:
        words = CITATION.sub("", answer).split(". ")[0]
        asked_words = {w.casefold() for w in re.findall(r"\w+", previous)}
        runs = [run for run in names_of(f"x {words}") if run[0] not in QUESTION_WORDS
                and not {w.casefold() for w in run} & asked_words]  # not the work or thing asked about
        runs = [run for run in runs if len(run) > 1] or runs  # a person's name is mostly two words or more
        if runs:
            return " ".join(runs[0]), "person"
    runs = names_of(previous)
    if runs and not asked.hebrew:
        return named_phrase(previous, runs[0]), "person" if asked.slot == "definition" and previous.lower().startswith(
            "who") else "any"
    found = (HE_WHAT_IS if asked.hebrew else WHAT_IS).match(previous.strip())
    if found:
        return found.group("x").strip(), "person" if previous.lower().startswith(("who", "מי")) else "thing"
    return None


def named_phrase(question: str, run: list[str]) -> str:
    """The name as the question writes it, with "the" before it when it has one ("the Eiffel Tower")."""
    pattern = r"\b(?:the\s+)?" + r"\W+(?:\w+\W+)?".join(re.escape(w) for w in run)
    found = re.search(pattern, question)
    return found.group(0) if found else " ".join(run)


def resolve(question: str, referent: tuple[str, str] | None) -> str | None:
    """The question with its first back-referring pronoun replaced by referent, or None when there is none to
    replace (or it does not fit: "it" for a person)."""
    if referent is None:
        return None
    name, kind = referent
    text = OPENER.sub("", question.strip())
    tokens = re.findall(r"\S+", text)
    for i, token in enumerate(tokens):
        word = re.sub(r"[^\w\u05D0-\u05EA]", "", token)
        lower = word.lower()
        punctuation = token[len(token.rstrip("?.!,;")):]
        if lower in SUBJECT and fits(SUBJECT[lower], kind):
            replaced = name
        elif lower in POSSESSIVE and fits(POSSESSIVE[lower], kind) and i + 1 < len(tokens):
            replaced = name + "'s"
        elif word in HE_SUBJECT:
            replaced = name
        elif word in HE_POSSESSIVE:
            replaced = f"של {name}"
        else:
            continue
        tokens[i] = replaced + punctuation
        out = " ".join(tokens)
        return out[0].upper() + out[1:] if out[:1].isalpha() and out[:1].isascii() else out
    return None


def fits(pronoun: str, kind: str) -> bool:
    """Whether a pronoun of this kind can refer to an antecedent of that kind."""
    return pronoun == "any" or kind == "any" or pronoun == kind
