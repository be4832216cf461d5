"""An answer checked: the one call the generator makes once a writer has drafted.

Every [n] of a draft is checked against the passages given: one that names no passage is removed from the text
and reported, never shown as a source; a claim no cited passage supports is removed (verify.py). When nothing
supported is left, the answer is the decline in the answer's language, naming what was searched. A model's
answer that no claim of answers the question is declined by the judge (judge.py), keeping what the sources do
say, or, when they say nothing near it, naming the nearest passages, cited; claims that rest only on an upload's
orders are flagged (instructions.py); a question of religious law gets no ruling in the writer's own voice, and an
answer to one that cites its sources (not a decline) ends with the line that a rabbi decides.
Does not: choose or call a writer (generator.py does).
"""
import logging
from dataclasses import replace

from checks.agreement import agree, first_sentence
from checks.declines import (DECLINE, FOUND, SOURCES_SEARCHED, decline_text, found_text, is_decline, missing_text,
                             nearest_text, passage_label, without_opening)
from checks.instructions import flagged
from checks.judge import pair_text
from checks.sentences import about, anchors, fits
from checks.verify import Check, claims_of, keep_valid_markers, marker_numbers, render, split_claims
from models import Answer, Citation, Draft, Hit, WriteRequest
from question.asks import parts, read
from question.halacha import rabbi_line, rules

log = logging.getLogger(__name__)


def parse_citations(text: str, hits: list[Hit]) -> tuple[str, list[Citation], list[int]]:
    """Resolve the [n] markers of text; returns (text without invalid markers, citations, invalid numbers)."""
    numbers = list(dict.fromkeys(marker_numbers(text)))
    citations = [Citation(n, hits[n - 1].chunk.id, hits[n - 1].chunk.title, passage_label(hits[n - 1]))
                 for n in numbers if 1 <= n <= len(hits)]
    invalid = [n for n in numbers if not 1 <= n <= len(hits)]
    return keep_valid_markers(text, len(hits)).strip(), citations, invalid


class AnswerCheck:
    """What a draft must pass to be shown: its citations, its support, and whether it answers the question."""

    def __init__(self, verifier=None, judge=None):
        self.verifier = verifier  # checks quotes and support of every citation (verify.py), when given
        self.judge = judge  # does a model's answer answer the question (judge.py), when given

    def __call__(self, draft: Draft, request: WriteRequest) -> Answer:
        """The checked Answer of a draft to request: the decline when no passage was given; the reserve's passages
        the draft took on a second look numbered after the others."""
        if not request.hits:
            return Answer(decline_text(request.language), declined=True, model=draft.model)
        if draft.more:
            request = second_look(request, draft.more)
        answer = self.check(draft, request)
        answer.added = list(draft.more)
        return answer

    def check(self, draft: Draft, request: WriteRequest) -> Answer:
        """The draft's claims checked (see checked), claims that rest only on an unvouched upload's orders flagged;
        an answer to a question of religious law that cites its sources ends with the line that a rabbi decides
        practical questions (a decline rules on nothing, and needs none)."""
        answer = self.checked(draft, request)
        answer.flagged_claims = flagged(answer.text, request.untrusted)
        if request.halachic and not answer.declined and answer.citations:
            answer.text = f"{answer.text}\n\n{rabbi_line(request.language)}"
        return answer

    def checked(self, draft: Draft, request: WriteRequest) -> Answer:
        """The draft's claims checked against the passages: invalid markers and unsupported claims removed (and, for
        a question of religious law, rulings in the writer's own voice), and the answer declined, keeping what the
        sources do say, when no claim answers the question."""
        hits, language = request.hits, request.language
        text = draft.text.strip()
        declined = draft.declined or (is_decline(text) and not draft.statements)
        if declined:  # the decline sentence is fixed; what follows it is checked like any claim
            text = without_opening(without_opening(text, DECLINE), FOUND)
        claims = claims_of(draft.statements) if draft.statements is not None and not declined else split_claims(text)
        invalid = list(dict.fromkeys(n for c in claims for n in c.cited if not 1 <= n <= len(hits)))
        if invalid:
            log.warning("the writer cited passages that were not given: %s", invalid)
        # the sources teach; Evidenz never rules in its own voice (a quoted passage's sentence is the source's voice)
        ruling = [c.plain for c in claims if request.halachic and not draft.quoted and not c.structural and rules(c.plain)]
        claims = [c for c in claims if c.plain not in ruling]
        if self.verifier is None:  # no checks configured: only the numbers are resolved
            text, citations, _ = parse_citations(render(claims), hits)
            if declined or not text:
                return self.decline(request, text, citations, invalid, [], draft)
            return Answer(text, citations, invalid, model=draft.model, answerability=draft.answerability)
        kept, checks, removed = self.verifier.verify(claims, hits, request.question)
        if removed:
            log.info("removed %d claim(s) that no cited passage supports", len(removed))
        removed = ruling + removed
        for claim in kept:  # markers that name no passage are taken out of the text
            claim.text = keep_valid_markers(claim.text, len(hits))
        statements = [c for c in kept if not c.structural]
        if declined:
            return self.decline(request, render(kept) if statements else "", citations_of(checks, hits), invalid,
                                removed, draft)
        if not statements:  # nothing the passages support is left: say so, and what was searched
            searched = "; ".join(dict.fromkeys(passage_label(h) for h in hits))
            text = f"{decline_text(language)} {SOURCES_SEARCHED.get(language, SOURCES_SEARCHED['en'])} {searched}."
            return Answer(text, [], invalid, declined=True, removed_claims=removed, model=draft.model,
                          answerability=draft.answerability)
        answerability = draft.answerability
        computed = any(c.derived for c in kept)  # a checked computation answers a calculation by itself
        if answerability is None and self.judge is not None and not computed:  # a model wrote it: does it answer?
            answerability = self.addresses(request, statements)
            if answerability < self.judge.threshold:
                log.info("no claim answers the question (judge %.2f): declined", answerability)
                return self.decline(request, render(kept), citations_of(checks, hits), invalid, removed, draft,
                                    answerability)
        return Answer(render(kept), citations_of(checks, hits), invalid, removed_claims=removed, model=draft.model,
                      answerability=answerability)

    def addresses(self, request: WriteRequest, claims: list) -> float:
        """The judge's best probability that one of the claims answers the question, or one of the questions it
        joins (question/asks.parts), each claim under its passage's heading. Only claims that can answer count, as the
        offline writer's sentences can: citing a passage about what the part names, holding a number when it asks
        for one (checks/sentences.py), about its subject and holding what it asks for (checks/agreement.py)."""
        hits = request.hits
        cited = [hits[c.cited[0] - 1] if c.cited and 1 <= c.cited[0] <= len(hits) else None for c in claims]
        texts = [pair_text(hit.chunk.heading if hit else "", c.plain) for c, hit in zip(claims, cited)]
        best = 0.0
        for part in parts(request.question):
            asked, asks = anchors(part), read(part)
            can = [bool(hit) and about(asked, hit) and fits(part, c.plain)
                   and agree(asks, c.plain, hit.chunk.heading, first_sentence(hit.chunk.text)).can_answer(asks)
                   for c, hit in zip(claims, cited)]
            if any(can):
                best = max(best, float((self.judge.score(part, texts) * can).max()))
        return best

    @staticmethod
    def decline(request: WriteRequest, found: str, citations: list[Citation], invalid: list[int], removed: list[str],
                draft: Draft, answerability: float | None = None) -> Answer:
        """The decline in the answer's language, the figures a calculation lacks, then what the sources do say
        (checked), or, when they say nothing, the nearest passages by reference, cited."""
        language = request.language
        nearest = "" if found else nearest_text(request.hits, language)
        parts = [decline_text(language), missing_text(language, draft.missing) if draft.missing else "",
                 f"{found_text(language)} {found}" if found else nearest]
        citations = citations if found else parse_citations(nearest, request.hits)[1]
        return Answer(" ".join(p for p in parts if p), citations, invalid, declined=True,
                      removed_claims=removed, model=draft.model,
                      answerability=draft.answerability if answerability is None else answerability)


def second_look(request: WriteRequest, more: list[Hit]) -> WriteRequest:
    """The request with the reserve's passages the writer took numbered after the others, each still marked as
    an unvouched upload when it is one (request.untrusted numbers the hits, then the reserve)."""
    shown = len(request.hits)
    reserve = {h.chunk.id: n for n, h in enumerate(request.reserve, start=shown + 1)}
    untrusted = {n for n in request.untrusted if n <= shown}
    untrusted |= {n for n, h in enumerate(more, start=shown + 1) if reserve.get(h.chunk.id) in request.untrusted}
    return replace(request, hits=[*request.hits, *more], untrusted=frozenset(untrusted))


def citations_of(checks: list[Check], hits: list[Hit]) -> list[Citation]:
    """One Citation per passage number cited by a kept claim, with what its checks found."""
    citations = []
    for n in sorted({c.n for c in checks if c.valid}):
        mine = [c for c in checks if c.n == n]
        holding = [c for c in mine if c.supported] or mine
        quotes = [c.quote_verified for c in mine if c.quote_verified is not None]
        spans = tuple(dict.fromkeys(c.span for c in holding if c.span))
        chunk = hits[n - 1].chunk
        marks = tuple(c.span for c in sorted(mine, key=lambda c: c.claim))  # claims are rendered in their order
        citations.append(Citation(n, chunk.id, chunk.title, chunk.ref or chunk.title, True,
                                  all(quotes) if quotes else None, max(c.support for c in mine),
                                  any(c.supported for c in mine), spans, marks))
    return citations
