"""Instructions planted in uploaded documents: a claim that tells the reader to do something (log in, visit,
call, send, pay ...) and rests only on passages of uploaded documents is flagged in the answer.

An uploaded document (one that came through /api/documents, so it has a file name) vouches for nothing unless
someone other than its uploader's kind does: its tier was set by a reviewer or admin (or the server's operator),
or one confirmed it (POST /api/documents/<id>/vouch, recorded as metadata.vouched_by). An editor who marks an
upload public, academic or canonical has chosen the tier, not vouched for the text, so it is flagged like any
other; the built-in corpora vouch for themselves. A private or unset tier vouches for nothing, whoever set it. A
citation proves that it says the sentence, not that the sentence is safe to follow. The answer keeps the claim (it is what the source says) and carries it in
`flagged_claims`, which every answer route carries in the form its protocol allows: /api/query as the field (the
page shows it above the answer), /v1/chat/completions and MCP ask as the field and the warning (`warning`) at the
head of the answer's text, since a chat client shows only that.
Does not: remove claims, or judge instructions from canonical or curated texts (a ruling tells people what to do).
"""
import re

from checks.verify import split_claims

UNVOUCHED_TIERS = (None, "", "private")
# A request to act, addressed to the reader (or to the assistant, about the reader), or a link to follow.
INSTRUCTION = re.compile(
    r"\b(?:log\s*-?\s*in|sign\s*-?\s*in|sign\s+up|visit|call|phone|dial|text|send|e-?mail|contact|click|tap|"
    r"go\s+to|download|install|pay|transfer|wire|deposit|buy|register|enter\s+your|reply|forward|share\s+your|"
    r"tell\s+the\s+user|report)\b|https?://|www\.",
    re.IGNORECASE)


def instructs(text: str) -> bool:
    """Whether a sentence asks someone to act or points at a link."""
    return bool(INSTRUCTION.search(text))


def unvouched(document) -> bool:
    """Whether a stored document is an upload that no tier vouches for: its tier private or unset, or chosen by
    its uploader and confirmed by no reviewer or admin."""
    if document is None or not document.filename:
        return False
    return document.tier in UNVOUCHED_TIERS or not (document.metadata or {}).get("vouched_by")


def untrusted_passages(hits, store) -> frozenset[int]:
    """The numbers (from 1) of the hits whose documents are unvouched uploads; none without a store."""
    if store is None or not hits:
        return frozenset()
    documents = {doc_id: store.document(doc_id) for doc_id in {h.chunk.doc_id for h in hits}}
    return frozenset(n for n, hit in enumerate(hits, start=1) if unvouched(documents[hit.chunk.doc_id]))


def flagged(answer_text: str, untrusted: frozenset[int]) -> list[str]:
    """The claims of an answer that instruct and cite only passages (by number) of unvouched uploads."""
    if not untrusted:
        return []
    return [c.plain for c in split_claims(answer_text)
            if c.cited and set(c.cited) <= untrusted and instructs(c.plain)]


def warning(claims: list[str]) -> str:
    """The warning put before an answer's text where the client shows nothing else (empty for no claims)."""
    if not claims:
        return ""
    quoted = "; ".join(f"“{c}”" for c in claims)
    return (f"Warning: an instruction found only in an uploaded document that no tier vouches for: {quoted}. "
            "Evidenz does not vouch for it; check it before you act on it.")
