"""Whether a sentence agrees with what a question asks (question/asks.py): is it about the question's subject,
and does it hold what the slot wants?

Subject. A sentence is about what its opening names, up to its main verb ("Zurich is the largest city in
Switzerland" is about Zurich). A sentence that opens with a pronoun or a common noun ("It orbits ...", "The city
has ...") refers back to its passage's subject: its heading and the opening of its first sentence. So each
sentence gets one of four levels for the question's subject:
  own       its opening, or the passage it refers back to, names the subject (one name holds the other's words, or
            is its initials: "Einstein" and "Albert Einstein", WHO; not "Pierre Curie" for "Marie Curie"); or it refers
            back to a passage whose title is made of the question's own words
  other     its opening, or the passage it refers back to, names something else
  mentions  neither, but the subject stands elsewhere in it or in its passage's heading
  none      the subject is nowhere
A question about an attribute of a named subject (its population, distance, date) is answered only by a sentence
of the subject's own or one that merely mentions it; one that asks for a doer, a place, a superlative, a definition
or a named thing ("Who discovered penicillin?", "Which river ...") by any that mentions it, since the answer may
stand in its opening. A question that names nothing (no capitals) needs only its words somewhere.
Slot. A date for when, a number for how many, a number with a unit of the right kind for how far or tall,
a number of people for a population, a name for who, the same superlative for "the largest".
Hebrew has no capitals and puts its verb first: its subject is matched by words (prefixes aside) in the sentence or
the heading, and only dates, numbers and superlatives are checked for the slot.
Does not: judge whether the sentence states the answer (judge.py does), or read the question (asks.py does).
"""
import re
from dataclasses import dataclass

import regex

from hebrew.analyzer import analyze_query
from checks.splitting import split_sentences
from checks.superlatives import superlative_of
from question.asks import EN_WORD, Asks, stem

VERB = frozenset(
    "is are was were has have had will would can could may might shall should must became becomes become remains "
    "remained lies lay contains contained includes included covers covered orbits orbited serves served consists "
    "consisted stands stood refers means meant did does do lived lives died began begins ended ends holds held "
    "ranks ranked comprises comprised forms formed spans spanned runs ran flows flowed rises rose measures "
    "measured reaches reached occupies occupied borders bordered gives gave makes made won wins".split())
PRONOUN = frozenset("it its he his she her they their them this these those there".split())
OPENERS = frozenset("in on at during after before by from since until for as with under over following while "
                    "although though when".split())
SENTENCE_OPENERS = PRONOUN | OPENERS | frozenset(
    "the a an and but or so then also however although when while if as after before since during later this that "
    "these those there here some many most several both each every one such other another".split())
MONTHS = "january february march april may june july august september october november december".split()
DATE = regex.compile(r"\b(?:\d{3,4}|\d{1,4}\s*(?:BC|BCE|AD|CE)|(?:AD|CE)\s+\d{1,4}|\d{2,4}s|'\d\d|(?:"
                     + "|".join(MONTHS) + r")|"
                     r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|centur(?:y|ies)|millenni(?:um|a)|"
                     r"decades?|morning|afternoon|evening|night|spring|summer|autumn|winter|era|ancient|medieval|"
                     r"prehistoric|reign|dynasty)\b", regex.I)
NUMBER = regex.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen|twenty|"
                       r"thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|billions?|"
                       r"dozens?|half|twice|single|both|several|few|no|none|numerous|once)\b", regex.I)
UNITS = {
    "distance": r"km|kilomet(?:re|er)s?|miles?|mi|met(?:re|er)s?|m|light[- ]years?|au|astronomical units?|parsecs?|feet|ft",
    "height": r"met(?:re|er)s?|m|feet|ft|foot|km|kilomet(?:re|er)s?|storeys|stories|floors",
    "length": r"km|kilomet(?:re|er)s?|miles?|mi|met(?:re|er)s?|m|cm|mm|feet|ft|inch(?:es)?|in|nm|nanomet(?:re|er)s?|"
              r"micromet(?:re|er)s?|centimet(?:re|er)s?|millimet(?:re|er)s?|μm|µm|yards?|light[- ]years?",
    "depth": r"met(?:re|er)s?|m|feet|ft|km|kilomet(?:re|er)s?",
    "mass": r"kg|kilograms?|tonnes?|tons?|pounds?|lbs?|grams?|g|ounces?|oz|solar masses|earth masses",
    "speed": r"km/h|kph|mph|m/s|knots?|kilomet(?:re|er)s per hour|miles per hour|met(?:re|er)s per second|"
             r"km/s|kilomet(?:re|er)s per second|mach",
    "age": r"years?|aged|old|centuries|million years|billion years",
    "temperature": r"°|degrees?|kelvin|celsius|fahrenheit|K|C|F",
    "duration": r"years?|months?|weeks?|days?|hours?|minutes?|seconds?|centuries|decades?|millennia",
    "frequency": r"times|per|every|annually|yearly|daily|weekly|monthly|once|twice|annual|biennial",
}
UNITS["extent"] = UNITS["length"] + "|" + UNITS["duration"]  # "how long": a length or a time
UNITS["size"] = "|".join([UNITS["length"], UNITS["mass"], r"km2|km²|sq|square|cubic|hectares?|acres?|litres?|liters?|"
                                                           r"foot"])
UNITS["amount"] = r"\S"
POPULATION = regex.compile(r"\b(?:population|people|inhabitants|residents|citizens|populous|followers|adherents|"
                           r"speakers|members|users|persons|individuals|believers)\b", regex.I)
PEOPLE = regex.compile(r"\b(?:\w+ists?|\w+ians?|people|persons?|citizens|members|government|council|committee|"
                        r"parliament|court|king|queen|emperor|president|minister|authors?|writers?|founders?|leaders?|"
                        r"officials?|students|teachers|priests?|monks?|soldiers|army|company|team|family)\b", regex.I)
CAPITALISED = regex.compile(r"\b\p{Lu}[\p{L}\p{M}'’\-]+")
HE_DATE = regex.compile(r"\d{3,4}|ינואר|פברואר|מרץ|מרס|אפריל|מאי|יוני|יולי|אוגוסט|ספטמבר|אוקטובר|נובמבר|דצמבר|"
                        r"תשרי|חשוון|חשון|כסלו|טבת|שבט|אדר|ניסן|אייר|סיוון|סיון|תמוז|אב|אלול|המאה|מאה|שנות|שנת|"
                        r"[הת]['׳]?[א-ת]{1,2}[\"״][א-ת]|לפני הספירה|לספירה")
HE_NUMBER = regex.compile(r"\d|אחד|אחת|שניים|שתיים|שני|שתי|שלוש|ארבע|חמש|שש|שבע|שמונה|תשע|עשר|עשרים|שלושים|"
                          r"ארבעים|חמישים|מאה|מאות|אלף|אלפים|אלפי|מיליון|מיליארד|עשרות|כמחצית|מחצית|רבע|שליש|פעמיים")
HE_POPULATION = regex.compile(r"תושב|נפש|איש|אוכלוסי|מיליון|אלף")


@dataclass(frozen=True)
class Agreement:
    """How a sentence agrees with the question: its subject level and whether it holds the slot."""

    subject: str  # "own", "mentions", "other" or "none"
    slot: bool
    mentioned: bool = False  # the question's subject stands somewhere in the sentence or its heading
    aside: bool = False  # about its passage's own named subject, naming the question's only in passing

    def can_answer(self, asks: Asks) -> bool:
        """Whether a sentence of this agreement may answer the question (see the module docstring)."""
        if not self.slot:
            return False
        return self.subject != "other"


def words(text: str) -> set[str]:
    """The plain stems of a text's English words and every form of its Hebrew ones."""
    found = {stem(w) for w in EN_WORD.findall(text)}
    return found | {f for forms in analyze_query(text) for f in forms} if regex.search(r"[\u05D0-\u05EA]", text) else found


def opening(sentence: str) -> tuple[list[str], bool]:
    """The words of a sentence before its main verb (a leading phrase such as "In 1928," skipped), and whether they
    refer back to the passage's subject: a pronoun, or an article and common nouns ("The city")."""
    tokens = EN_WORD.findall(re.sub(r"\([^)]*\)", " ", sentence))
    if tokens and tokens[0].casefold() in OPENERS and "," in sentence[:120]:
        rest = sentence.split(",", 1)[1]
        tokens = EN_WORD.findall(re.sub(r"\([^)]*\)", " ", rest))
    lead = []
    for i, token in enumerate(tokens):
        lower = token.casefold()
        if i > 0 and (lower in VERB or (lower.endswith("ed") and len(lower) > 4 and not token[:1].isupper())):
            break
        lead.append(token)
        if len(lead) >= 12:
            break
    if not lead:
        return [], True
    first = lead[0].casefold()
    refers = first in PRONOUN or (first in ("the", "a", "an", "this", "its", "these") and
                                  not any(w[:1].isupper() for w in lead[1:]))
    return lead, refers


def share(subject: tuple[tuple[str, ...], ...], found: set[str]) -> float:
    """The share of the subject's words any of whose forms is among found."""
    if not subject:
        return 0.0
    return sum(any(stem(f) in found or f in found for f in forms) for forms in subject) / len(subject)


def name_runs(text: str) -> list[list[str]]:
    """The names of a text, each its words' plain stems in order: runs of capitalised words (its first word too),
    parentheses left out ("Callisto (moon)" is Callisto)."""
    runs, current = [], []
    for token in EN_WORD.findall(re.sub(r"\([^)]*\)", " ", text)):
        if token[:1].isupper() and token.casefold() not in PRONOUN | OPENERS | {"the", "a", "an"}:
            current.append(stem(token))
        elif current and token.casefold() not in ("of", "de", "von", "van", "da"):
            runs.append(current)
            current = []
    return runs + [current] if current else runs


ALIAS = re.compile(r"\b(?:known|referred to|called|named)\s+(?:simply\s+|mononymously\s+)?as\s+"
                   r"|\b(?:also|commonly|often|simply|usually)\s+called\s+|\bor\s+(?:simply|mononymously)(?:\s+as)?\s+")


def aliases(first_sentence: str) -> list[list[str]]:
    """The other names a passage's first sentence gives its subject: "commonly referred to as Galileo Galilei or
    mononymously as Galileo" names Galileo."""
    return [run for cue in ALIAS.finditer(first_sentence)
            for run in name_runs(first_sentence[cue.end():cue.end() + 60])[:1]]


def same_name(asked: tuple[tuple[str, ...], ...], runs: list[list[str]]) -> bool:
    """Whether a name of the question and one of runs are one name: one ends the other ("Einstein" and "Albert
    Einstein"; not "Marie Curie" and "Pierre Curie", nor "Mongol" and "Mongol Empire"), or is its initials (WHO)."""
    return any(ends(list(name), run) or ends(run, list(name)) or initials(list(name), run) or initials(run, list(name))
               for name in asked for run in runs if run)


def ends(short: list[str], long: list[str]) -> bool:
    """Whether the longer name ends with the shorter ("Einstein", "Albert Einstein"; not "Jordan", "Jordan River")."""
    return 0 < len(short) <= len(long) and long[len(long) - len(short):] == short


def initials(short: list[str], long: list[str]) -> bool:
    """Whether a one-word name of three letters or more is the initials of a longer name's words."""
    return len(short) == 1 and len(long) >= 2 and len(short[0]) >= 3 and short[0] == "".join(w[:1] for w in long)


def passage_subject(heading: str, first_sentence: str) -> set[str]:
    """What a passage is about: its heading's words and its first sentence's opening."""
    lead, _ = opening(first_sentence)
    return words(heading) | {stem(w) for w in lead}


def title_words(heading: str) -> set[str]:
    """The content stems of a heading, a parenthesis left out ("Callisto (moon)" is callisto)."""
    return {stem(w) for w in EN_WORD.findall(re.sub(r"\([^)]*\)", " ", heading))} - {"the", "of", "a", "an", "and"}


def agree(asks: Asks, sentence: str, heading: str, first_sentence: str) -> Agreement:
    """The Agreement of one sentence of a passage (with its heading and first sentence) with the question."""
    if asks.hebrew:
        mentioned = share(asks.subject, words(sentence) | passage_subject(heading, first_sentence))
        level = "own" if share(asks.subject, words(heading)) >= 0.5 or mentioned >= 0.5 else \
            "mentions" if mentioned > 0 else "none"
        return Agreement(level, holds(asks, sentence, heading), mentioned > 0)
    lead, refers = opening(sentence)
    if asks.runs:
        mentioned = same_name(asks.runs, name_runs(sentence) + name_runs(heading))
    else:
        mentioned = share(asks.subject, words(sentence) | passage_subject(heading, first_sentence)) > 0
    titled = name_runs(heading)
    title = tuple(tuple(run) for run in titled)
    led = bool(titled) and same_name(title, name_runs(" ".join(opening(first_sentence)[0])))
    about_title = bool(titled) and (same_name(title, name_runs(" ".join(lead))) or (refers and led))  # its own
    if asks.runs and about_title:  # its title's subject: another one only when the question never names it
        own = same_name(asks.runs, titled + aliases(first_sentence)) or title_words(heading) <= asks.words
        level = "own" if own else "mentions" if mentioned else "other"
        return Agreement(level, holds(asks, sentence, heading), mentioned or own, aside=level == "mentions")
    elif asks.runs:
        level = "own" if same_name(asks.runs, name_runs(" ".join(lead))) else "mentions" if mentioned else "none"
    else:
        own = share(asks.subject, {stem(w) for w in lead}) >= 0.5 or (refers and title_words(heading) <= asks.words)
        level = "own" if own else "mentions" if mentioned else "none"
    return Agreement(level, holds(asks, sentence, heading), mentioned or level == "own")


def holds(asks: Asks, sentence: str, heading: str) -> bool:
    """Whether the sentence holds what the slot asks for (always, for a slot without a check)."""
    if asks.hebrew:
        if asks.slot == "date":
            return bool(HE_DATE.search(sentence))
        if asks.slot in ("number", "measure"):
            return bool(HE_NUMBER.search(sentence))
        if asks.slot == "population":
            return bool(HE_NUMBER.search(sentence)) and bool(HE_POPULATION.search(sentence))
        if asks.slot == "superlative" and asks.superlative and "ביותר" in asks.superlative + " ביותר":
            return "ביותר" in sentence or any(w in sentence for w in ("הראשון", "הראשונה", "האחרון", "היחיד"))
        return True
    if asks.slot == "date":
        return bool(DATE.search(sentence))
    if asks.slot == "number":
        return bool(NUMBER.search(sentence))
    if asks.slot == "measure":
        unit = UNITS.get(asks.unit or "amount", r"\S")
        return bool(regex.search(r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|"
                                 r"million|billion|half))[\d,.\s\u00a0–-]*(?:half\s+)?(?:" + unit + r")\b", sentence,
                                 regex.I)
                    or (asks.unit == "frequency" and bool(regex.search(UNITS["frequency"], sentence, regex.I)))
                    or (asks.unit == "age" and bool(regex.search(r"\bage[d]?\s+(?:of\s+)?\d|\b1\d{3}|\b20\d{2}",
                                                                 sentence)))
                    or (asks.unit in ("duration", "extent") and bool(regex.search(r"\d+:\d\d", sentence))))
    if asks.slot == "population":
        return bool(NUMBER.search(sentence)) and bool(POPULATION.search(sentence))
    if asks.slot == "person":
        someone = bool(named_other(asks, sentence) or PEOPLE.search(sentence)) or bool(
            re.search(r"\b(?:he|she|his|her)\b", sentence, re.I) and heading[:1].isupper())
        return someone and (not asks.verb or bool(regex.search(asks.verb, sentence, regex.I)))
    if asks.slot == "superlative" and asks.superlative:
        return superlative_of(asks, sentence, heading)
    return True


def named_other(asks: Asks, sentence: str) -> list[str]:
    """Capitalised words of the sentence (after its first) that are not the question's subject: a name to give."""
    subject = {stem(f) for forms in asks.subject for f in forms}
    found = list(CAPITALISED.finditer(sentence))
    names = [m.group(0) for k, m in enumerate(found)  # the first word only when it is a name: "CBS", "Cam Newton"
             if m.start() > 0 or m.group(0).isupper() or (k + 1 < len(found) and found[k + 1].start() == m.end() + 1)]
    return [n for n in names if stem(n) not in subject and n.casefold() not in SENTENCE_OPENERS]


def agreements(asks: Asks, chosen: dict[int, tuple[int, int, str]], sentences: list[tuple[int, int, str]],
               hits: list) -> dict[int, Agreement]:
    """The Agreement of each chosen (passage number, position, sentence) by index, read under its passage's heading
    and first sentence (sentences: every candidate of the passages, as sentences.candidates gives them)."""
    first = {}
    for n, position, sentence in sentences:
        if n not in first or position < first[n][0]:
            first[n] = (position, sentence)
    return {i: agree(asks, sentence, hits[n - 1].chunk.heading, first[n][1]) for i, (n, _, sentence) in chosen.items()}


def defines(asks: Asks, title: str) -> bool:
    """Whether a passage of this title is the question's subject's own: the same name, or the same words."""
    if asks.runs:
        return same_name(asks.runs, name_runs(title))
    return bool(asks.subject) and {stem(w) for w in EN_WORD.findall(re.sub(r"\([^)]*\)", " ", title))} == \
        {stem(forms[0]) for forms in asks.subject}


def first_sentence(text: str) -> str:
    """The first sentence of a passage's text, as the offline writer splits it."""
    return next(iter(split_sentences(text.strip())), "")
