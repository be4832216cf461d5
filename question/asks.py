"""What a question asks for and what it is about, read by written rules: its slot and its subject.

The slot is the kind of answer the question wants, which the answering sentence must hold:
  person      who (discovered, wrote, leads ...) / מי
  date        when, what year, what century / מתי, באיזו שנה
  place       where, in which city or country / איפה, היכן, באיזו עיר
  number      how many, how much / כמה
  measure     how far, tall, long, deep, heavy, fast, old, big (unit: distance, height, mass, ...) / כמה זמן ...
  population  the population of X, how many people live in X / אוכלוסיית X
  definition  what is X, who was X, tell me about X / מהו X, מי היה X
  superlative the largest X, which X is the oldest / הגדול ביותר
  noun        what or which NOUN (languages, capital, river): the sentence must name the noun
  None        why, how, yes-or-no: any sentence of the subject may answer
The subject is what the question is about: its names (capitalised words and words with digits, joined with
"of", "the", "de"), else its content words outside the slot's own. For "Who discovered penicillin?" the subject
is penicillin and the slot a person: the doer stands in another sentence's subject (agent).
Hebrew has no capitals: its subject is every content word outside question, slot and function words.
Does not: look at passages (checks/agreement.py matches sentences against this), or rewrite the question.
"""
import re
import unicodedata
from dataclasses import dataclass

import regex

from hebrew.analyzer import HEBREW, analyze_query

SLOTS = ("person", "date", "place", "number", "measure", "population", "definition", "superlative", "noun")
MEASURES = {"far": "distance", "distant": "distance", "away": "distance", "tall": "height", "high": "height",
            "long": "extent", "deep": "depth", "heavy": "mass", "fast": "speed", "quick": "speed", "old": "age",
            "big": "size", "large": "size", "wide": "length", "hot": "temperature", "cold": "temperature",
            "warm": "temperature", "often": "frequency", "much": "amount"}
MEASURE_NOUNS = {"distance": "distance", "height": "height", "length": "length", "depth": "depth", "weight": "mass",
                 "mass": "mass", "speed": "speed", "age": "age", "area": "size", "size": "size", "diameter": "length",
                 "radius": "length", "width": "length", "temperature": "temperature", "elevation": "height",
                 "altitude": "height", "volume": "size", "duration": "duration", "lifespan": "duration"}
SUPERLATIVE = re.compile(r"\b(?:the\s+)?((?:most|least)\s+\w+(?:ous|ful|al|ive|ic|able|ible|ant|ent|ed|ing)|\w+est|"
                         r"best|worst)\b\s*(\w+)?", re.I)
NOT_SUPERLATIVE = {"west", "east", "rest", "test", "forest", "interest", "contest", "honest", "earnest", "modest",
                   "harvest", "protest", "request", "quest", "guest", "chest", "nest", "best-known", "suggest",
                   "digest", "manifest", "pest", "vest", "arrest", "invest", "crest", "priest", "latest", "est"}
UNCHANGED = {"species", "series", "news", "physics", "mathematics", "politics", "economics", "means", "lens", "gas",
             "bus", "its", "this", "his", "was", "has", "does", "is", "us", "as", "less", "class", "glass", "grass"}
DEMONYM = re.compile(r"(?:an|ese|ish)$")
DEEDS = {"invented", "discovered", "designed", "founded", "wrote", "composed", "painted", "built", "created",
         "developed", "sculpted", "proposed", "formulated", "coined", "established", "devised", "patented"}
IRREGULAR = {"wrote": ["writ", "wrote", "author", "novel", "poem", "play"], "built": ["buil", "construct", "design"],
             "founded": ["found", "establish"], "discovered": ["discover", "isolat", "first described"],
             "invented": ["invent", "devis", "creat", "patent"], "designed": ["design", "architect", "plann"]}
MAX_NAME_WORDS = 8  # a longer run of capitalised words is a heading or a shout, not a name
JOINERS = {"of", "the", "de", "da", "del", "von", "van", "and", "la", "le", "du", "al", "bin", "ibn", "y"}
AGENT_VERBS = re.compile(r"^(?:who|which\s+\w+|what\s+(?:company|person|team|group|country|band|organi[sz]ation))\s+"
                         r"(?!is\b|was\b|are\b|were\b)(\w+)\b", re.I)
FUNCTION = frozenset(
    "a an the of in on at to for from by with about into over under and or is are was were be been being do does did "
    "has have had what which who whom whose when where why how many much long far tall high deep old big large "
    "there their its it his her this that these those than as can could would should will may might must "
    "called named known located situated found use used make made happen happened take took get got difference between "
    "differ name".split())
EN_WORD = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}\p{M}'’\-.]*")
# "Tell me about X", "What do you know about X?": asked as "What is X?" (an overview is X's own definition)
OVERVIEW = re.compile(r"^(?:and\s+)?(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?(?:describe|tell\s+me\s+"
                      r"(?:something\s+|a\s+(?:little\s+)?bit\s+|more\s+|all\s+)?about|what\s+(?:do\s+you\s+know|"
                      r"can\s+you\s+tell\s+me)\s+"
                      r"about|give\s+me\s+an?\s+(?:overview|summary|introduction)\s+of|i\s+(?:want|would\s+like|'d\s+like)"
                      r"\s+to\s+know\s+about)\s+(?:please\s+)?", re.I)

HE_SLOTS = [  # (pattern at the start of the question, slot, unit)
    (r"(?:ו)?(?:מתי|באיזו שנה|באיזה תאריך|באיזה יום|באיזו תקופה|באיזה עשור|באיזו מאה|באיזה חודש|בת כמה שנים|מאיזו שנה|עד מתי|ממתי)", "date", None),
    (r"(?:ו)?(?:כמה זמן|במשך כמה|לכמה זמן)", "measure", "duration"),
    (r"(?:ו)?(?:כמה אנשים|כמה תושבים|מה מספר התושבים|מהי אוכלוסיית|מה אוכלוסיית|כמה חיים)", "population", None),
    (r"(?:ו)?(?:מה גובה|מה גובהו|מה גובהה|מה אורך|מה אורכו|מה אורכה|מה המרחק|מה משקל|מה עומק|מה רוחב|מה שטח|כמה גבוה|כמה ארוך|כמה רחוק|כמה שוקל|כמה עמוק)", "measure", "size"),
    (r"(?:ו)?(?:כמה|מה מספר|מהו מספר|מה היה מספר)", "number", None),
    (r"(?:ו)?(?:איפה|היכן|באיזו עיר|באיזו מדינה|באיזה מקום|באיזה אזור|לאן|מאין|מהיכן|מאיפה|באיזו ארץ)", "place", None),
    (r"(?:ו)?(?:מיהו|מיהי|מי היה|מי הייתה|מי היתה|מי הוא|מי היא|מי הם)(?=\s+\S+\s*\S*\s*[?.!]*$)", "definition", None),
    (r"(?:ו)?(?:מי)", "person", None),
    (r"(?:ו)?(?:מהו|מהי|מה זה|מה זו|מה היא|מה הוא|מהם|מהן)(?=\s+\S+\s*\S*\s*\S*\s*[?.!]*$)", "definition", None),
]
HE_SUPERLATIVE = re.compile(r"(\S+)\s+ביותר|\b(?:הראשון|הראשונה|האחרון|האחרונה|היחיד|היחידה)\b")
HE_FUNCTION = frozenset(
    "מה מי מתי איפה היכן למה מדוע איך כיצד כמה האם איזה איזו אילו מהו מהי מיהו מיהי זה זו זאת הוא היא הם הן היה "
    "הייתה היתה היו את של על עם אל לא כן יש אין גם רק כל או אם כי אשר ביותר מספר שנה תאריך עיר מקום מדינה זמן "
    "לפי בין אחרי לפני בזמן במשך עד מאז".split())


@dataclass(frozen=True)
class Asks:
    """What a question wants (slot) and what it is about (subject: normalised words, each a tuple of its forms)."""

    slot: str | None
    subject: tuple[tuple[str, ...], ...] = ()  # each word of the subject with its alternative forms
    names: bool = False  # the subject is made of names (capitalised), not common words
    noun: str | None = None  # the asked noun: "population", "language", "capital", "animal" (superlatives)
    unit: str | None = None  # a measure's kind: distance, height, mass, duration ...
    superlative: str | None = None  # "largest", "tallest", "most populous", Hebrew "הגדול"
    agent: bool = False  # the doer is asked ("who discovered X"): X may stand anywhere in the answering sentence
    hebrew: bool = False
    runs: tuple[tuple[str, ...], ...] = ()  # the names of an English subject, each its words' stems ("marie", "curie")
    words: frozenset[str] = frozenset()  # the stems of every content word of an English question
    verb: str | None = None  # "Who discovered X?": a pattern of the deed's words (discover, discovery, by ...)
    # what X is and nothing more ("What is the Colosseum?", "Tell me about the Roman Colosseum"; not "What is ketchup
    # made from?"): X's own opening sentence answers it, whatever the judge makes of a definition
    overview: bool = False


def stem(word: str) -> str:
    """A case-folded English word without accents and its plural or possessive ending (languages -> language,
    León -> leon)."""
    word = unicodedata.normalize("NFKD", word.casefold().replace("’", "'").removesuffix("'s").strip("'.-"))
    word = "".join(c for c in word if not unicodedata.combining(c))
    if word in UNCHANGED:
        return word
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


PART = re.compile(r"[,;]?\s+(?:and|but|also)\s+(?=(?:who|what|when|where|which|how|why)\b)|[,;]\s+(?=(?:who|what|"
                  r"when|where|which|how|why)\b)|\?\s+(?=\S)", re.I)
HE_PART = re.compile(r"[,;]?\s+(?=ו(?:מי|מה|מתי|איפה|היכן|כמה|איך|למה)\b)|\?\s+(?=\S)")


def parts(question: str) -> list[str]:
    """The questions a question joins: "Who discovered penicillin, and what is the highest mountain?" is two, each
    read on its own; any other question is one."""
    text = " ".join(question.split())
    pieces = [p.strip(" ,;") for p in (HE_PART if HEBREW.search(text) else PART).split(text)]
    return pieces if len(pieces) > 1 and all(len(p.split()) >= 2 for p in pieces) else [text]


def read(question: str) -> Asks:
    """The slot and subject of a question, English or Hebrew."""
    text = question.strip()
    return read_hebrew(text) if HEBREW.search(text) else read_english(text)


def names_of(text: str) -> list[list[str]]:
    """The names of an English question: runs of capitalised words (after its first word) and words with digits,
    joined across "of", "the", "de" ... inside a run ("Leaning Tower of Pisa", "Apollo 11"), of eight words at most."""
    found = list(EN_WORD.finditer(text))
    words = [m.group(0).rstrip(".") for m in found]
    runs, current = [], []
    for i, word in enumerate(words):
        named = (i > 0 and word[:1].isupper() and word.casefold() != "i") or any(c.isdigit() for c in word)
        if named and DEMONYM.search(word) and i + 1 < len(words) and words[i + 1][:1].islower():
            named = False  # "Asian rice", "German chemist": an adjective, not a name
        if current and "," in text[found[i - 1].end():found[i].start()]:  # "Roosevelt, Churchill and Stalin"
            runs.append(current)
            current = []
        if named:
            current.append(word)
        elif current and word.casefold() in JOINERS and i + 1 < len(words) and words[i + 1][:1].isupper():
            current.append(word)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    runs = [[w for w in run if w.casefold() not in {"the", "of", "and"}] for run in runs]
    return [run for run in runs if 0 < len(run) <= MAX_NAME_WORDS]


# not what or who X is but something of X: "the god of?" (a preposition left at the end), what X is called, and for
# who, "Su Shi's father" (what "Occam's razor" is stays a definition)
STRANDED = re.compile(r"\s(?:of|for|from|about|with|to|in|on|by|at)$|\b(?:called|named|termed)\b")  # or a name asked
OWNED = re.compile(r"\w's\s+\w+")
HEDGE = re.compile(r"^(?:roughly|approximately|about|around|exactly|precisely)\s+(?=(?:how|when|where)\b)")


def english_slot(lower: str) -> tuple[str | None, str | None, str | None, bool]:
    """(slot, asked noun, unit, agent) of a lower-case English question."""
    lower = HEDGE.sub("", lower)  # "roughly how many ...": what is asked follows the hedge
    measure = re.match(r"^(?:and\s+)?how\s+(\w+)", lower)
    if re.search(r"\b(?:population of|how populous|how many (?:people|inhabitants|residents) (?:live|lived|are there|"
                 r"were there)|how many (?:inhabitants|residents)|what is the population|people live in)\b", lower):
        return "population", "population", None, False
    if measure and measure.group(1) in ("many", "much"):
        noun = re.match(r"^(?:and\s+)?how\s+(?:many|much)\s+(\w+)", lower)
        unit = MEASURE_NOUNS.get(stem(noun.group(1))) if noun else None
        if noun and noun.group(1) in ("time", "years", "days", "hours", "months", "weeks", "minutes", "seconds"):
            unit = "duration"
        return ("measure" if unit else "number"), stem(noun.group(1)) if noun else None, unit, False
    if measure and measure.group(1) in MEASURES:
        return "measure", None, MEASURES[measure.group(1)], False
    if re.match(r"^(?:and\s+)?(?:when\s+(?:did|was|were|is|are|does|do|will|would|had|has|have|can|could)|what year|"
                r"which year|in what year|in which year|what date|on what date|what century|in what century|"
                r"which century|since when|until when|what decade)\b", lower):
        return "date", None, None, False
    if re.match(r"^(?:and\s+)?(?:where|in what (?:city|country|town|state|region|place|continent)|"
                r"in which (?:city|country|town|state|region|place|continent)|from where|what (?:city|country|town)"
                r" (?:is|was|are|were)\b.*\b(?:in|located|born|based))", lower):
        return "place", None, None, False
    noun_measure = re.match(r"^(?:and\s+)?what\s+(?:is|was|are|were)\s+(?:the\s+)?(?:\w+\s+)?(\w+)\s+of\b", lower)
    if noun_measure and stem(noun_measure.group(1)) in MEASURE_NOUNS:
        return "measure", stem(noun_measure.group(1)), MEASURE_NOUNS[stem(noun_measure.group(1))], False
    superlative = next((m for m in SUPERLATIVE.finditer(lower) if m.group(1) not in NOT_SUPERLATIVE), None)
    if superlative and re.match(r"^(?:and\s+)?(?:(?:what|which|who|where)\s+(?:is|was|are|were)\s+the\s+"
                                r"|which\s+\w+\s+(?:is|was|are|were|has|had)\s+the\s+)" + re.escape(superlative.group(1)),
                                lower):  # "What is the tallest animal?", "Which planet is the hottest?"
        return "superlative", stem(superlative.group(2) or ""), None, True
    if re.match(r"^(?:and\s+)?(?:who|whom|whose)\b", lower):
        definition = re.match(r"^(?:and\s+)?who\s+(?:is|was|were|are)\s+(?!the\s+\w+\s+(?:of|in|who|that)\b)", lower) \
            and not OWNED.search(lower) and not STRANDED.search(lower)
        role = re.match(r"^(?:and\s+)?who\s+(?:is|was|were|are)\s+the\s+(\w+)", lower)
        if definition and not role:
            return "definition", None, None, False
        return "person", stem(role.group(1)) if role else None, None, True
    if re.match(r"^(?:in|during|from|by)\s+(?:what|which)\s+(?:years?|century|centuries|decades?)\b", lower):
        return "date", None, None, False  # "in what years", "during which century"
    if lower.startswith("at what age"):
        return "measure", "age", "age", False
    noun = re.match(r"^(?:and\s+)?(?:what|which)\s+"
                    r"(?!is\b|was\b|are\b|were\b|do\b|does\b|did\b|has\b|have\b|had\b|"
                    r"can\b|could\b|would\b|will\b|should\b|kind\b|type\b|sort\b)(\w+)", lower)
    of_noun = re.match(r"^(?:and\s+)?what\s+(?:is|was|are|were)\s+(?:the\s+)?(?:main\s+|official\s+|"
                       r"national\s+)?(\w+)\s+(?:of|in|for)\b", lower)
    if noun or of_noun:
        asked = stem((noun or of_noun).group(1))
        if asked in MEASURE_NOUNS and (of_noun or asked not in ("area", "size", "age", "volume")):  # "what height"
            return "measure", asked, MEASURE_NOUNS[asked], False
        return "noun", asked, None, bool(noun)  # "which river ...": the answer is the thing itself, a name
    if re.match(r"^(?:and\s+)?(?:what|who)\s+(?:is|was|are|were)\s+(?:an?\s+|the\s+)?[\w\s'\-.]+$", lower) and \
            not STRANDED.search(lower) or \
            re.match(r"^(?:define|describe|explain what)\b", lower):
        return "definition", None, None, False
    return None, None, None, False


def read_english(text: str) -> Asks:
    """The Asks of an English question."""
    text = " ".join(text.split())
    preamble = OVERVIEW.match(text)
    if preamble and preamble.end() < len(text.rstrip("?.! ")):
        text = "What is " + text[preamble.end():]
    lower = " ".join(text.casefold().split()).rstrip("?.! ")
    slot, noun, unit, agent = english_slot(lower)
    runs = names_of(text.rstrip("?.! "))
    if runs:
        words = [w for run in runs for w in run]
    else:
        skip = FUNCTION | ({noun} if noun else set())
        words = [w for w in EN_WORD.findall(lower) if stem(w) not in skip and w not in skip
                 and not (len(w) > 4 and w.endswith("ed"))]  # not "discovered", "invented": the doer is asked
        if agent and words and lower.startswith(("who ", "and who ")):
            words = [w for w in words if w != EN_WORD.findall(lower.removeprefix("and "))[1]]
        if slot == "superlative":
            words = [w for w in words if not w.endswith("est") and w not in ("most", "least")]
    subject = tuple(dict.fromkeys((stem(w),) for w in words if stem(w)))
    named = tuple(tuple(stem(w) for w in run) for run in runs if run)
    superlative = None
    if slot == "superlative":
        found = next((m for m in SUPERLATIVE.finditer(lower) if m.group(1) not in NOT_SUPERLATIVE), None)
        superlative = found.group(1) if found else None
    every = frozenset(stem(w) for w in EN_WORD.findall(lower) if w not in FUNCTION)
    whole = re.match(r"^(?:and\s+)?(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(.+)$", lower)
    said = {f for forms in subject for f in forms} | {w for run in named for w in run}
    overview = slot == "definition" and bool(whole) and len(named) <= 1 and all(
        stem(w) in said or w in JOINERS for w in EN_WORD.findall(whole.group(1)))
    return Asks(slot, subject, bool(named), noun, unit, superlative, agent, runs=named, words=every,
                verb=deed(lower) if slot == "person" and agent else None, overview=overview)


def deed(lower: str) -> str | None:
    """For "who VERB ...?": a pattern of the words a sentence that names the doer holds (the verb's forms, its noun,
    or "by" before a name)."""
    found = re.match(r"^(?:and\s+)?who\s+(?!is\b|was\b|are\b|were\b|did\b|does\b|do\b|has\b|had\b|have\b)(\w+)", lower)
    if not found:
        return None
    verb = found.group(1)
    if verb not in DEEDS:  # only deeds whose doer a neighbouring sentence is mistaken for: an inventor "known for work on"
        return None
    forms = IRREGULAR.get(verb, [verb[:-2] if verb.endswith("ed") else verb])
    return r"\b(?:" + "|".join(forms) + r")\w*|\bby\s+\p{Lu}"


def read_hebrew(text: str) -> Asks:
    """The Asks of a Hebrew question: the slot from its opening words, the subject its other content words."""
    plain = " ".join(text.split()).rstrip("?.!؟ ")
    slot, unit, opening = None, None, ""
    for pattern, name, kind in HE_SLOTS:
        found = re.match(pattern + r"\b", plain)
        if found:
            slot, unit, opening = name, kind, found.group(0)
            break
    superlative = HE_SUPERLATIVE.search(plain)
    if superlative and slot in (None, "noun", "person", "place", "definition"):
        slot = "superlative"
    rest = plain[len(opening):]
    forms = [tuple(f) for f in analyze_query(rest)]
    subject = tuple(f for f in forms if f and f[0] not in HE_FUNCTION and not any(x in HE_FUNCTION for x in f)
                    and not f[0].isdigit())
    word = superlative.group(1) if superlative and superlative.group(1) else None
    return Asks(slot, subject, False, None, unit, word or (superlative.group(0) if superlative else None),
                slot in ("person", "superlative"), True)
