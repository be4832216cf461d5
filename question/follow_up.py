"""Follow-up questions told apart and rewritten into standalone ones by written rules, without a model.

rewrite.py uses these rules when no model is configured, or when the model's rewrite is unusable.
Words are compared normalised: NFKC, Hebrew vowel points removed, lower case, punctuation dropped.
A question is a follow-up (is_follow_up) when any of these holds:
  1. Connective: it opens with one of OPENERS: "and", "but", "also", "what about", "how about", "what if",
     "what else", "as for", "tell me more"; Hebrew "ומה", "ומה לגבי", "ומה עם", "ואם", "וגם", "ואילו", "ולמה",
     "ומי", "ומתי", "ואיך", "וכמה", "והאם", "מה לגבי", "מה עם", "גם", "אבל".
  2. Back-reference: it holds a pronoun of PRONOUNS (it, its, they, them, their, this, that, these, those, he,
     she, him, his, her, there; זה, זאת, הזה, הזאת, הוא, היא, הם, הן, אותו, אותה, אותם, שלו, שלה, שלהם) and names
     nothing: no capitalised word after the first (except "I"), no digit, no quoted text. Not counted: "it" in
     "is it ADJ to/that/for/if…" and "it is ADJ to…" ("Is it permitted to…"); "that" after a content word (a
     relative clause); "there" after is/are/was/were ("are there…"); הוא/היא/הם/הן/זה/זאת as a copula: right after
     מה or מי with more words following ("מה היא מלאכה?"), or between two content words ("ויקרא רבה הוא מדרש…").
  3. Fragment: at most 3 content words (words outside FUNCTION_WORDS) and not a complete question. Complete means
     it opens with a question word, auxiliary or imperative of QUESTION_WORDS followed by at least two more words,
     or one for fused forms and imperatives (what's, מהו, מיהו, explain, define, הסבר), or a wh-word (WH_WORDS)
     anywhere is followed by at least two words. "What is photosynthesis?", "Who discovered penicillin?", "Explain
     photosynthesis" and "Butter or margarine, which has more fat?" are complete; "In what year?", "On Yom Tov?"
     and "Why not?" are fragments.
Rewriting (rewrite_offline) takes P, the previous turn's standalone question, and Q, the follow-up:
  - Q minus its openers is X (ו + a preposition, as in "וביום", loses its ו).
    X replaces P's last prepositional phrase when
    (a) X is a prepositional phrase of at most 6 words (a preposition first: English PREPOSITIONS, Hebrew
        לפני/אחרי/בזמן/…, or ב + a time or place word of TIME_PLACE; no question word in it) and P's last
        preposition within its last 6 words (not its first word) is the same one or both are of time or place:
        "Is it permitted to heat water on Shabbat?" + "and what about on Yom Tov?" → "…heat water on Yom Tov?",
        "האם מותר לחמם מים בשבת?" + "ומה ביום טוב?" → "האם מותר לחמם מים ביום טוב?"; or
    (b) X is a bare time word of TIME_PLACE (≤ 4 words) and P's last phrase is a time preposition with a time word:
        X takes P's preposition ("what about Yom Tov?" → "…on Yom Tov?", "ומה לגבי יום טוב?" → "…ביום טוב?"); or
    (c) X names a subject of its own: at most 6 words, at least one content word, no question word, not opening
        with a preposition or a time or place word. When X holds a preposition of its own (it says how its
        subjects relate) and shares a content word with P's last phrase (ignoring Hebrew prefix letters), X
        replaces that whole phrase: "How long must one wait between meat and milk?" + "and what about milk after
        meat?" → "How long must one wait milk after meat?", "כמה זמן צריך לחכות בין בשר לחלב?" + "ומה לגבי חלב
        אחרי בשר?" → "כמה זמן צריך לחכות חלב אחרי בשר?". Otherwise X replaces the object of P's last phrase, its
        preposition kept, unless that object is a time or place word or holds a number (a day stands only for a
        day, (b)), one of them names something by a capitalised word and the other does not ("the capital of
        France" + "the population?" is joined), or the preposition is "between"/בין and X names one thing:
        "What is the capital of France?" + "and Germany?" → "…of Germany?", "איזו ברכה מברכים על הלחם?" + "ומה
        לגבי פירות?" → "איזו ברכה מברכים על פירות?".
  - A condition (Q opens with "what if", "and if", "ואם", "ומה אם"; X with a content word and no wh-word) is
    added to P, its pronouns kept: "האם מותר לחמם מים בשבת?" + "ואם אין מים חמים?" → "האם מותר לחמם מים בשבת
    אם אין מים חמים?", "Is it permitted to heat water on Shabbat?" + "What if it is cold?" → "… on Shabbat if
    it is cold?".
  - Otherwise the standalone question is "P Q" (P cut to fit MAX_STANDALONE_CHARS): both reach the search engine,
    and every word of the follow-up with them ("what about cooking?" after a question about Shabbat: which of
    P's words cooking stands for, the rules cannot tell).
  - Before (a)-(c) and the join, a pronoun that refers back is replaced by what it refers to (referents.py):
    "And when was he born?" after "Who was Albert Einstein?" is "When was Albert Einstein born?".
Does not: catch every back-reference ("Who wrote that book?", "מה הוא עשה?" pass as standalone), or know
which of P's nouns X stands for beyond its last phrase ("carry keys in the street?" + "and a coin?" puts the
coin in place of the street).
"""
import re

from hebrew.analyzer import strip_prefixes
from hebrew.normal import normalise
from question.referents import antecedent, resolve

MAX_STANDALONE_CHARS = 1000
MAX_PHRASE_WORDS = 6
OPENERS = sorted((tuple(o.split()) for o in (
    "and", "but", "also", "what about", "how about", "what if", "what else", "as for", "tell me more",
    "ומה", "ומה לגבי", "ומה עם", "ואם", "וגם", "ואילו", "ולמה", "ומדוע", "ומי", "ומתי", "ואיך", "וכמה", "והאם",
    "ואיפה", "והיכן", "מה לגבי", "מה עם", "גם", "אבל",
)), key=len, reverse=True)
PRONOUNS = {"it", "its", "they", "them", "their", "this", "that", "these", "those", "he", "she", "him", "his", "her",
            "there", "זה", "זאת", "הזה", "הזאת", "הוא", "היא", "הם", "הן", "אותו", "אותה", "אותם", "שלו", "שלה", "שלהם"}
HEBREW_COPULAS = {"הוא", "היא", "הם", "הן", "זה", "זאת"}
HEBREW_COPULA_AFTER = {"מה", "מי"}
AUXILIARIES = {"is", "was", "isnt", "wasnt", "would", "will", "wouldnt", "are", "were"}
EXPLETIVE_TAIL = {"to", "that", "for", "if", "whether", "when"}
QUESTION_WORDS = {
    "what", "who", "whom", "whose", "which", "when", "where", "why", "how", "is", "are", "was", "were", "do", "does",
    "did", "can", "could", "should", "would", "will", "may", "must", "shall", "has", "have", "had", "isnt", "arent",
    "doesnt", "dont", "didnt", "cant",
    "מה", "מי", "מתי", "איפה", "היכן", "למה", "מדוע", "איך", "כיצד", "כמה", "האם", "איזה", "איזו", "אילו", "אלו", "מאין",
    "לאן",
}
WH_WORDS = {"what", "who", "whom", "whose", "which", "when", "where", "why", "how",
            "מה", "מי", "מתי", "איפה", "היכן", "למה", "מדוע", "איך", "כיצד", "כמה", "האם", "איזה", "איזו", "אילו"}
# Openers that make a complete question with one more word: fused question words and imperatives.
FUSED = {"whats", "whos", "wheres", "hows", "whens", "מהו", "מהי", "מיהו", "מיהי", "מהם", "מהן",
         "explain", "describe", "define", "list", "summarize", "summarise", "compare", "name", "find", "show",
         "הסבר", "תאר", "הגדר", "פרט", "השווה"}
QUESTION_WORDS |= FUSED
PLACE_TIME = {"on", "in", "at", "during", "before", "after", "since", "until", "till", "from", "near", "inside",
              "outside", "within", "under", "over", "around", "throughout", "ב", "לפני", "אחרי", "בזמן", "במהלך", "ליד",
              "אצל", "מול", "בתוך", "מחוץ", "תחת", "בין", "עד", "מאז"}
PREPOSITIONS = PLACE_TIME | {"of", "for", "to", "with", "without", "about", "by", "into", "onto", "among", "between",
                             "through", "across", "against", "toward", "towards", "per", "like", "על", "עם", "בלי", "ללא"}
PAIRED = {"between", "among", "בין"}  # prepositions whose object names two things or more
TIME_PREPOSITIONS = {"on", "during", "before", "after", "ב", "לפני", "אחרי", "בזמן", "במהלך"}
# Days and seasons of the calendar that follow "on"/"during" (English) or ב (Hebrew); ב + one of these is a phrase.
TIME_PLACE = {
    "shabbat", "shabbos", "sabbath", "yom", "rosh", "chol", "passover", "pesach", "sukkot", "succot", "shavuot",
    "purim", "chanukah", "hanukkah", "festival", "festivals", "holiday", "holidays", "weekday", "weekdays", "monday",
    "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "christmas", "easter",
    "שבת", "שבתות", "יום", "ימי", "ימים", "חג", "חגים", "חול", "ערב", "ליל", "לילה", "בוקר", "פסח", "סוכות", "שבועות",
    "ראש", "פורים", "חנוכה", "תענית", "צום", "מועד", "בית", "ארץ", "חוץ", "ירושלים", "עיר", "שדה", "מקום", "זמן",
}
ARTICLES = {"a", "an", "the"}
FUNCTION_WORDS = QUESTION_WORDS | PRONOUNS | PREPOSITIONS | ARTICLES | {w for o in OPENERS for w in o} | {
    "and", "or", "but", "if", "so", "then", "also", "as", "than", "not", "no", "yes", "be", "been", "being", "am",
    "doing", "i", "me", "my", "we", "us", "our", "you", "your", "here", "else", "more", "any", "some", "all", "one",
    "ones", "exactly", "really", "just", "only", "very", "too", "please", "s", "t", "about", "again",
    "את", "של", "אם", "כי", "לא", "כן", "יש", "אין", "אני", "אתה", "אנחנו", "או", "אז", "עוד", "כל", "רק", "כמו",
    "לגבי", "גם", "אבל", "ו", "ה", "ל", "מ", "אל", "לו", "לה", "בו", "בה", "אותן", "שם", "כאן", "בדיוק", "בבקשה",
}
# Quoted text opens with a quote mark at the start of a word; Hebrew abbreviations (רמב"ם) have theirs inside.
QUOTED = re.compile(r"(?:^|\s)[\"“«„'‘][^\"”»'’]{2,}[\"”»'’]")
END_PUNCTUATION = re.compile(r"[?.!؟]+$")
CONDITIONS = {"if", "אם", "ואם"}  # an opener or first word that makes X a condition on P


def norm(word: str) -> str:
    """A word as the rules compare it: normalised (hebrew/normal.py) and without punctuation."""
    return normalise(word).replace(" ", "")


def words_of(text: str) -> list[tuple[str, str]]:
    """(as written, normalised) for each whitespace-separated word that has letters or digits."""
    return [(t, n) for t in text.split() if (n := norm(t))]


def _opener_length(words: list[str]) -> int:
    """How many words of OPENERS the words begin with (the longest match), or 0."""
    return next((len(o) for o in OPENERS if tuple(words[:len(o)]) == o), 0)


def _names_something(question: str) -> bool:
    """A capitalised word after the first (other than "I"), a digit or quoted text."""
    words = question.split()[1:]
    capitalised = any(w[:1].isupper() and norm(w) != "i" for w in words)
    return capitalised or any(c.isdigit() for c in question) or bool(QUOTED.search(question))


def _refers_back(question: str, words: list[str]) -> bool:
    """A pronoun that points at something earlier, in a question that names nothing itself."""
    if _names_something(question):
        return False
    for i, word in enumerate(words):
        if word not in PRONOUNS:
            continue
        before = words[i - 1] if i else ""
        after = words[i + 1:]
        if word in ("it", "its") and (
                (before in AUXILIARIES and after[1:2] and after[1] in EXPLETIVE_TAIL)
                or (word == "it" and after[:1] and after[0] in ("is", "was") and after[2:3] and after[2] in EXPLETIVE_TAIL)
                or (word == "its" and after[1:2] and after[1] in EXPLETIVE_TAIL)):  # "it's permitted to"
            continue
        if word == "that" and before and before not in FUNCTION_WORDS:
            continue
        if word == "there" and before in ("is", "are", "was", "were", "isnt", "arent"):
            continue
        if word in HEBREW_COPULAS and after and (before in HEBREW_COPULA_AFTER or (
                before and before not in FUNCTION_WORDS and after[0] not in FUNCTION_WORDS)):
            continue
        return True
    return False


def _is_fragment(words: list[str]) -> bool:
    """At most 3 content words and not a complete question."""
    if sum(w not in FUNCTION_WORDS for w in words) > 3:
        return False
    if words[0] in QUESTION_WORDS and len(words) - 1 >= (1 if words[0] in FUSED else 2):
        return False
    return not any(w in WH_WORDS and len(words) - 1 - i >= 2 for i, w in enumerate(words))


def is_follow_up(question: str) -> bool:
    """Whether question continues a conversation (rules 1-3 of the module docstring)."""
    words = [n for _, n in words_of(question)]
    if not words:
        return False
    return bool(_opener_length(words)) or _refers_back(question, words) or _is_fragment(words)


def _preposition(word: str) -> str | None:
    """The preposition a word is or begins a phrase with: itself, or ב for ב + a time or place word; else None."""
    if word in PREPOSITIONS:
        return word
    if word.startswith("ב") and word[1:] in TIME_PLACE:
        return "ב"
    return None


def _last_phrase(words: list[str]) -> int | None:
    """Where P's last prepositional phrase begins: within its last MAX_PHRASE_WORDS words, never its first word."""
    for i in range(len(words) - 1, max(0, len(words) - MAX_PHRASE_WORDS) - 1, -1):
        if i > 0 and _preposition(words[i]):
            return i
    return None


def _stems(words: list[str]) -> set[str]:
    """The content words among words, each also without its Hebrew prefix letters (לחלב is חלב)."""
    return {form for w in words if w not in FUNCTION_WORDS for form in (w, *strip_prefixes(w))}


def _alike(p_object: list[str], x: list[str]) -> bool:
    """Whether X can stand for P's object: both name something (a capitalised word: France and Germany) or neither
    does (Hebrew has no capitals), and the object holds no number (a year is a time: "in 2020")."""
    def names(words: list[str]) -> bool:
        return any(w[:1].isupper() for w in words)
    return names(p_object) == names(x) and not any(c.isdigit() for w in p_object for c in w)


def _rest(follow_up: str) -> tuple[list[tuple[str, str]], bool]:
    """X, the follow-up's words after its openers (as written, normalised), and whether it is a condition."""
    tokens, opened = words_of(follow_up), []
    while tokens and (n := _opener_length([w for _, w in tokens])):
        opened += [w for _, w in tokens[:n]]
        tokens = tokens[n:]
    conditional = bool(CONDITIONS & set(opened))
    if tokens and tokens[0][1] in CONDITIONS:  # "and if ...", "ומה אם ..."
        tokens, conditional = tokens[1:], True
    if tokens and (first := tokens[0][1]).startswith("ו") and _preposition(first[1:]):  # "וביום טוב?": "on Yom Tov?"
        tokens[0] = (re.sub(r"^ו[\u0591-\u05C7]*", "", tokens[0][0]), first[1:])
    return tokens, conditional


def _substitute(previous: str, follow_up: str) -> str | None:
    """P with the follow-up's phrase, subject or condition in its place (rules (a)-(c) and the condition), or None."""
    tokens, conditional = _rest(follow_up)
    if not tokens:
        return None
    x_raw, x_words = [t for t, _ in tokens], [w for _, w in tokens]
    x_raw[-1] = END_PUNCTUATION.sub("", x_raw[-1])
    if not x_raw[-1]:
        x_raw.pop()
    ending = END_PUNCTUATION.search(previous.strip())
    p_raw = END_PUNCTUATION.sub("", previous.strip()).split()
    p_words = [norm(t) for t in p_raw]
    end = ending.group() if ending else "?"
    if not x_raw or any(w in (WH_WORDS if conditional else QUESTION_WORDS) for w in x_words):
        return None
    if conditional:  # "is" and "are" are a condition's verbs, not a question's
        joiner = "אם" if any("\u05d0" <= c <= "\u05ea" for c in " ".join(x_words)) else "if"
        return f"{' '.join(p_raw)} {joiner} {' '.join(x_raw)}{end}" if _stems(x_words) else None
    start = _last_phrase(p_words)
    if start is None:
        return None
    p_prep, x_prep = _preposition(p_words[start]), _preposition(x_words[0])
    p_object = [w for w in p_words[start + 1:] if w not in ARTICLES] if p_prep != "ב" else [p_words[start][1:]]
    if x_prep and len(x_words) <= MAX_PHRASE_WORDS:  # rule (a)
        if x_prep != p_prep and not (x_prep in PLACE_TIME and p_prep in PLACE_TIME):
            return None
        phrase = x_raw
    elif x_words[0] in TIME_PLACE and len(x_words) <= 4 and p_prep in TIME_PREPOSITIONS:  # rule (b)
        if not p_object or p_object[0] not in TIME_PLACE:
            return None
        phrase = ["ב" + x_raw[0], *x_raw[1:]] if p_prep == "ב" else [p_raw[start], *x_raw]
    elif x_words[0] not in TIME_PLACE and len(x_words) <= MAX_PHRASE_WORDS and _stems(x_words):  # rule (c)
        if any(_preposition(w) for w in x_words[1:]) and _stems(x_words) & _stems(p_words[start:]):
            phrase = x_raw  # X relates its subjects its own way: it stands for P's whole phrase
        elif (p_prep != "ב" and p_object and not set(p_object) & TIME_PLACE and _alike(p_raw[start + 1:], x_raw)
              and (p_prep not in PAIRED or len(_stems(x_words)) > 1)):  # "between" wants two
            phrase = [p_raw[start], *x_raw]
        else:
            return None
    else:
        return None
    return " ".join(p_raw[:start] + phrase) + end


def rewrite_offline(turns: list[dict], question: str) -> str:
    """The standalone form of question after turns (oldest first), by the rules of the module docstring."""
    question = question.strip()
    if not turns or not is_follow_up(question):
        return question
    previous = (turns[-1].get("standalone_question") or turns[-1].get("question") or "").strip()
    if not previous:
        return question
    if _rest(question)[1] and (conditioned := _substitute(previous, question)):  # "it" of a condition stays
        return conditioned
    resolved = resolve(question, antecedent(previous, turns[-1].get("answer") or ""))
    if resolved:
        return resolved
    substituted = _substitute(previous, question)
    if substituted:
        return substituted
    room = MAX_STANDALONE_CHARS - len(question) - 1
    if len(previous) > room:
        previous = previous[:max(room, 0)].rsplit(" ", 1)[0]
    return f"{previous} {question}".strip()
