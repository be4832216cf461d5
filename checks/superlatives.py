"""Whether an English sentence holds the superlative a question asks for: the same one or a like one (largest,
biggest) of the noun asked, not narrowed to a place the question does not name ("the tallest land animal in North
America" does not answer "the tallest animal"; "the deepest point of the Timor Sea" not "the deepest point in the
ocean"). A scope of the whole world ("on Earth", "in the Solar System") narrows nothing.
Does not: read the question (question/asks.py) or tell what a sentence is about (agreement.py).
"""
from question.asks import EN_WORD, Asks, stem

SUPERLATIVE_ALIKE = {"largest": {"biggest", "largest", "greatest"}, "biggest": {"biggest", "largest", "greatest"},
                     "tallest": {"tallest", "highest"}, "highest": {"tallest", "highest"},
                     "longest": {"longest"}, "oldest": {"oldest", "earliest"}, "first": {"first", "earliest"}}
GENERIC = {None, "", "one", "time", "thing", "way", "kind", "type", "part", "point", "place", "spot", "location"}
WHOLE = frozenset("earth world universe solar galaxy milky cosmos".split())  # a superlative's scope that narrows nothing


def superlative_of(asks: Asks, sentence: str, heading: str) -> bool:
    """Whether the sentence holds the question's superlative (or a like one: largest, biggest) of its noun, the
    noun within a few words after it or in the heading, and not narrowed to a place the question does not name
    ("the tallest land animal in North America" does not answer "the tallest animal")."""
    wanted = asks.superlative.casefold().split()[-1]
    alike = SUPERLATIVE_ALIKE.get(wanted, {wanted})
    tokens = EN_WORD.findall(sentence.replace("-", " "))  # "longest-reigning"
    noun = asks.noun if asks.noun not in GENERIC else None
    for i, token in enumerate(tokens):
        if token.casefold() not in alike:
            continue
        window = tokens[i + 1:i + 8]
        nouns = [j for j, w in enumerate(window) if stem(w) == noun]
        if noun and not nouns and noun not in {stem(w) for w in EN_WORD.findall(heading)}:
            continue
        after = tokens[i + 1 + (nouns[0] + 1 if nouns else 0):][:5]
        if asks.names or not narrowed(after):  # an unrestricted superlative is not answered by one of a place
            return True
    return False


def narrowed(after: list[str]) -> bool:
    """Whether the words after a superlative narrow it to a named place ("in North America", "of the Timor Sea"),
    not to the whole world ("on Earth", "in the Solar System")."""
    for k, word in enumerate(after[:3]):
        if word.casefold() not in ("in", "of"):
            continue
        scope = after[k + 1:]
        if scope and scope[0] == "the":
            scope = scope[1:]
        if scope and scope[0][:1].isupper() and scope[0].casefold() not in WHOLE:
            return True
    return False
