"""Citations checked at answer time, claim by claim, in three layers.

(1) valid: the [n] names a passage that was given to the writer; (2) quote_verified: every quoted
span of the claim appears verbatim in that passage, after normalising case, whitespace, punctuation
and Hebrew vowel points and cantillation (an editor's bracketed words, "[Jupiter] orbits", are not the source's:
the words around them are verified); (3) support: the best cosine between the claim and a
sentence of the passage (the library's embedder), supported from a threshold chosen for that embedder
by `flask --app app calibrate-support` (search/embedders.py). A claim none of whose citations holds is
dropped, and so is a claim that cites nothing: nothing is shown as sourced that is not. Headings and
lead-in lines ("There are two opinions:") are structure, not claims; they stay while a claim under them stays.
Each check also records the span of the passage the claim rests on (its best sentence, or the sentence
holding its quote), so the page can highlight it.
Does not: check facts outside the passages, or judge whether a supported claim answers the question.
"""
import re
from dataclasses import dataclass, field

import numpy as np

from hebrew.normal import normalise
from checks.splitting import whole_spans
from models import Hit, Statement
from search.embedders import settings
from search.sentence_vectors import passage_vectors
from checks.arithmetic import holds as arithmetic_holds
from checks.arithmetic import is_arithmetic
from checks.sentences import checked_spans

MARKERS = re.compile(r"([ \t]?)\[(\d+(?:\s*,\s*\d+)*)\]")  # [1] or [1, 3], with the space before it, to remove both
QUOTE = re.compile(r"[\"“”«»״]([^\"“”«»״]{3,})[\"“”«»״]")
LINE_PREFIX = re.compile(r"^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+|>\s*)?")  # a list bullet, number or quote mark
LEADING_MARKERS = re.compile(r"^(\s*\[\d+(?:\s*,\s*\d+)*\])+")
STRUCTURE = re.compile(r"^(#{1,6}\s.*|[^.!?]{0,120}:)$")  # a markdown heading, or a lead-in line ending in ":"
# an editor's bracketed words ("[Jupiter] orbits ..."), not a [1] marker: not the source's, so not verified as a quote
EDITOR = re.compile(r"\[(?!\d)[^\[\]]{1,120}\]")


@dataclass
class Claim:
    """One sentence of an answer with the passage numbers it cites, and where it stands in the answer."""

    text: str  # as written, markers included
    plain: str  # without its markers
    cited: list[int]
    quotes: list[str] = field(default_factory=list)
    line: int = 0  # the line of the answer it stands on (lists and paragraphs are kept)
    prefix: str = ""  # the line's bullet or number, on its first claim
    structural: bool = False  # a heading or lead-in, not a statement of fact
    derived: bool = False  # a computation from cited figures (arithmetic.py), which cites nothing itself


def marker_numbers(text: str) -> list[int]:
    """The passage numbers of the [n] markers in text, in order."""
    return [int(n) for match in MARKERS.finditer(text) for n in match.group(2).split(",")]


def keep_valid_markers(text: str, count: int) -> str:
    """text with only the marker numbers that name one of count passages; a marker naming none goes entirely."""
    def valid(match: re.Match) -> str:
        numbers = [n for n in (int(x) for x in match.group(2).split(",")) if 1 <= n <= count]
        return match.group(1) + "".join(f"[{n}]" for n in numbers) if numbers else ""

    return MARKERS.sub(valid, text)


def _claim(sentence: str, line: int = 0, prefix: str = "", quotes: list[str] | None = None) -> Claim:
    """A claim from a sentence with its markers."""
    numbers = marker_numbers(sentence)
    plain = MARKERS.sub("", sentence).strip()
    derived = not numbers and is_arithmetic(plain)
    structural = not numbers and not derived and bool(STRUCTURE.match(plain))
    return Claim(sentence.strip(), plain, list(dict.fromkeys(numbers)),
                 quotes if quotes is not None else QUOTE.findall(plain), line, prefix, structural, derived)


def split_claims(answer: str) -> list[Claim]:
    """The sentences of an answer, line by line, each with the [n] markers that follow it."""
    claims = []
    for number, line in enumerate(answer.split("\n")):
        prefix = LINE_PREFIX.match(line).group()
        body = line[len(prefix):]
        spans = whole_spans(body)
        sentences = [body[start:(spans[i + 1][0] if i + 1 < len(spans) else len(body))]
                     for i, (start, _) in enumerate(spans)]
        for i in range(1, len(sentences)):  # "... in 1928. [1] It was ..." : a leading marker ends the sentence before
            leading = LEADING_MARKERS.match(sentences[i])
            if leading:
                sentences[i - 1] = f"{sentences[i - 1].rstrip()} {leading.group().strip()} "
                sentences[i] = sentences[i][leading.end():]
        claims += [_claim(text, number, prefix.strip() if i == 0 else "")
                   for i, text in enumerate(sentences) if text.strip()]
    return claims


def claims_of(statements: list[Statement]) -> list[Claim]:
    """Claims from a provider's native statements, markers placed before the final punctuation."""
    claims = []
    for s in statements:
        body, punct = re.match(r"(.*?)([.!?;:]*)$", s.text.strip(), re.S).groups()
        markers = "".join(f"[{n}]" for n in dict.fromkeys(s.cited))
        text = f"{body} {markers}{punct or '.'}" if markers else s.text.strip()
        derived = not s.cited and is_arithmetic(s.text.strip())
        claims.append(Claim(text, s.text.strip(), list(dict.fromkeys(s.cited)), list(s.quotes), 0, "",
                            not s.cited and not derived and bool(STRUCTURE.match(s.text.strip())), derived))
    return claims


def render(claims: list[Claim]) -> str:
    """The answer text of claims, keeping their lines, bullets and paragraph breaks."""
    lines: dict[int, list[Claim]] = {}
    for claim in claims:
        lines.setdefault(claim.line, []).append(claim)
    out, previous = [], None
    for number in sorted(lines):
        first = lines[number][0]
        text = " ".join(c.text for c in lines[number])
        if first.prefix:
            text = f"{first.prefix} {text}"
        if previous is not None:
            out.append("\n\n" if number - previous > 1 else "\n")
        out.append(text)
        previous = number
    return "".join(out).strip()


@dataclass
class Check:
    """One citation of one claim, checked against its passage."""

    claim: int  # index of the claim
    n: int
    valid: bool
    quote_verified: bool | None
    support: float
    supported: bool
    span: tuple[int, int] | None  # character range of the passage the claim rests on


class Verifier:
    """Checks every citation of an answer against the passages it names."""

    def __init__(self, embedder, threshold: float | None = None):
        """threshold: the least support cosine; by default the one chosen for the embedder (search/embedders.py)."""
        self.embedder = embedder
        self.threshold = threshold if threshold is not None else settings(embedder.name).support

    def support(self, claims: list[str], passage: str) -> np.ndarray:
        """For each claim, its best cosine with a sentence of the passage."""
        return self._best(claims, passage)[0]

    def _best(self, claims: list[str], passage: str) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """For each claim, its best cosine with a sentence of the passage and that sentence's span."""
        spans = checked_spans(passage)
        vectors = self.embedder.embed(claims + [passage[s:e] for s, e in spans])
        similarity = vectors[: len(claims)] @ vectors[len(claims):].T
        return similarity.max(axis=1), [spans[i] for i in similarity.argmax(axis=1)]

    def check(self, claims: list[Claim], hits: list[Hit]) -> list[Check]:
        """Every (claim, cited passage) pair checked: validity, quotes, support and the span it rests on."""
        cited = sorted({n for c in claims for n in c.cited if 1 <= n <= len(hits)})
        spans = {n: checked_spans(hits[n - 1].chunk.text) for n in cited}
        sentences = [hits[n - 1].chunk.text[a:b] for n in cited for a, b in spans[n]]
        # the passages' sentences are kept with the library; a claim is looked up (an offline answer's are passage
        # sentences) but not kept
        vectors = np.concatenate([passage_vectors(self.embedder, [c.plain for c in claims], keep=False),
                                  passage_vectors(self.embedder, sentences)]) if cited else None
        best: dict[tuple[int, int], tuple[float, tuple[int, int]]] = {}
        offset = len(claims)
        for n in cited:
            block = vectors[offset: offset + len(spans[n])]
            offset += len(spans[n])
            for i, claim in enumerate(claims):
                if n in claim.cited:
                    similarity = block @ vectors[i]
                    best[i, n] = (float(similarity.max()), spans[n][int(similarity.argmax())])
        checks = []
        for i, claim in enumerate(claims):
            for n in claim.cited:
                if not 1 <= n <= len(hits):
                    checks.append(Check(i, n, False, False, 0.0, False, None))
                    continue
                passage = hits[n - 1].chunk.text
                quote_ok, quote_span = self._quotes(claim.quotes, passage)
                support, span = best[i, n]
                supported = quote_ok is not False and support >= self.threshold
                checks.append(Check(i, n, True, quote_ok, round(support, 4), supported, quote_span or span))
        return checks

    @staticmethod
    def _quotes(quotes: list[str], passage: str) -> tuple[bool | None, tuple[int, int] | None]:
        """Whether every quote is in the passage (None when nothing is quoted), and the sentence holding the first."""
        if not quotes:
            return None, None
        whole = normalise(passage)
        pieces = [[p for p in EDITOR.split(q) if normalise(p)] for q in quotes]  # around the editor's words
        if not all(normalise(p) in whole for ps in pieces for p in ps):
            return False, None
        wanted = normalise(max(pieces[0], key=len, default=""))
        for start, end in whole_spans(passage):
            if wanted in normalise(passage[start:end]):
                return True, (start, end)
        return True, None  # the quote crosses a sentence boundary: verified, no single sentence to mark

    def verify(self, claims: list[Claim], hits: list[Hit], question: str = "") -> tuple[list[Claim], list[Check], list[str]]:
        """(the claims that stand, the checks of their citations, the removed claims' text).

        A claim stands when one of its citations is valid, quoted truly and supporting; a computation stands when
        it is right and its figures are in the claims that stand or in the question (arithmetic.py); a structural
        line stands when a claim after it (before the next structural line, past those right after it) stands.
        """
        checks = self.check(claims, hits)
        holds = [any(c.supported for c in checks if c.claim == i) for i in range(len(claims))]
        given = " ".join([question, *(c.plain for c, h in zip(claims, holds) if h)])
        holds = [h or (c.derived and arithmetic_holds(c.plain, given)) for c, h in zip(claims, holds)]
        keep = list(holds)
        for i in reversed(range(len(claims))):
            if claims[i].structural:  # a run of them ("## Two opinions" above "The ruling:") leads what its last does
                under = next((j for j in range(i + 1, len(claims)) if not claims[j].structural), len(claims))
                following = next((j for j in range(under, len(claims)) if claims[j].structural), len(claims))
                keep[i] = any(holds[under:following])
        kept = [c for c, k in zip(claims, keep) if k]
        removed = [c.plain for c, k in zip(claims, keep) if not k and not c.structural and c.plain]
        index = {id(c): j for j, c in enumerate(kept)}
        renumbered = [Check(index[id(claims[c.claim])], c.n, c.valid, c.quote_verified, c.support, c.supported, c.span)
                      for c in checks if keep[c.claim]]
        return kept, renumbered, removed
