"""Response shaping: the pipeline's records as the JSON the API returns, and the answer logged with its id.

Field names and order are the API's (README); `sse` frames one server-sent event. A passage's text and its
neighbours' are each cut to the longest an upload's passage may be (4 × MAX_CHARS), and "truncated" says whether one was, so neither a
response nor the history holds more than that of any passage, even one stored before uploads were cut to size.
Does not: validate requests (validation.py) or decide anything about the answer.
"""
import json
from dataclasses import asdict

from flask import g, url_for

from configuration.settings import current
from hebrew.refs import hebrew_label
from search.catalog import passage_link
from ingest.chunking import max_passage_chars
from models import Citation, Evidence, Hit, Question, Relation, Result
from web.metrics import observe
from web.services import kept_history, services
from web.similar import question_vector, reviewed


def passage_json(n: int, hit: Hit, link: str | None = None, text_format: str | None = None) -> dict:
    """A hit as the API shows it; ce_score is the hybrid score when no cross-encoder ran; link: its lesson's;
    text_format: its document's format ("markdown": the page renders its text as markdown)."""
    limit = max_passage_chars(current().library.max_chars)  # an upload's passage fits whole
    texts = {"chunk": hit.chunk.text, "context_before": hit.context_before, "context_after": hit.context_after}
    truncated = any(text is not None and len(text) > limit for text in texts.values())
    shown = {name: text[:limit] if text is not None else None for name, text in texts.items()}
    return {
        "n": n,
        "id": hit.chunk.id,
        "doc_id": hit.chunk.doc_id,
        "title": hit.chunk.title,
        "chunk": shown["chunk"],
        "ce_score": round(hit.score, 4),
        "bm25_score": round(hit.bm25_score, 4),
        "dense_score": round(hit.dense_score, 4),
        "hybrid_score": round(hit.hybrid_score, 4),
        "ref": hit.chunk.ref,
        "ref_he": hebrew_label(hit.chunk.ref),
        "parent_ref": hit.chunk.parent_ref,
        "section_path": list(hit.chunk.section_path),
        "community": hit.chunk.community,  # whose ruling or custom the passage records, when known
        "era": hit.chunk.era,
        "authority_weight": hit.chunk.authority_weight,
        "tier": hit.chunk.tier,
        "context_before": shown["context_before"],
        "context_after": shown["context_after"],
        "truncated": truncated,
        "relation": hit.relation,  # that brought it in, or another passage in beside it (search/related.py)
        "link": link,
        "format": text_format,
    }


def documents_of(hits: list[Hit]) -> list[tuple[str | None, str | None]]:
    """Each hit's lesson link, when its document is a course script that gives one (ingest/course.py), and its
    document's format; (None, None) without a store."""
    store = services().store
    if store is None or not hits:
        return [(None, None)] * len(hits)
    documents = {doc_id: store.document(doc_id) for doc_id in {h.chunk.doc_id for h in hits}}
    return [(passage_link(documents[h.chunk.doc_id], h.chunk.section_path),
             getattr(documents[h.chunk.doc_id], "format", None)) for h in hits]


def relation_json(relation: Relation, in_library: dict[str, bool] | None = None) -> dict:
    """A relation between two passages, with their Hebrew labels (and whether each is in the library, when known)."""
    body = {**asdict(relation), "source_he": hebrew_label(relation.source), "target_he": hebrew_label(relation.target)}
    if in_library is not None:
        body["in_library"] = {"source": in_library[relation.source], "target": in_library[relation.target]}
    return body


def citation_json(citation: Citation) -> dict:
    """A checked citation as the API shows it."""
    return {**asdict(citation), "ref_he": hebrew_label(citation.ref), "spans": [list(span) for span in citation.spans],
            "marks": [list(span) if span else None for span in citation.marks]}


def question_json(question: Question) -> dict:
    """The "meta" event: the question as the pipeline understood it."""
    return asdict(question)


def evidence_json(evidence: Evidence) -> dict:
    """The "sources" event: the passages, whether a cross-encoder ordered them, the follow-up search, and every
    search made (by the pipeline, or by a writer that searched for itself) with its filters and what it found."""
    found = documents_of(evidence.hits)
    return {"passages": [passage_json(n, hit, *place) for n, (hit, place) in enumerate(zip(evidence.hits, found), start=1)],
            "reranked": evidence.reranked, "followup_retrieval": evidence.followup, "searches": evidence.searches}


def result_json(result: Result) -> dict:
    """The /api/query body (and the stream's "answer" event), its "id" set once it is logged."""
    answer, sources = result.answer, evidence_json(result.evidence)
    return {
        "id": None,
        **question_json(result.question),
        "answer": answer.text,
        "declined": answer.declined,
        "answerability": None if answer.answerability is None else round(answer.answerability, 4),
        "halachic": result.halachic,
        "mode": result.mode,
        "citations": [citation_json(c) for c in answer.citations],
        "invalid_citations": answer.invalid_citations,
        "removed_claims": answer.removed_claims,
        "flagged_claims": answer.flagged_claims,
        "passages": sources["passages"],
        "generator": answer.generator,
        "model": answer.model,
        "degraded": answer.degraded is not None,
        **({"degraded_reason": answer.degraded} if answer.degraded else {}),
        "reranked": sources["reranked"],
        "followup_retrieval": sources["followup_retrieval"],
        "searches": sources["searches"],
        "second_look": list(range(len(result.evidence.hits) - len(answer.added) + 1, len(result.evidence.hits) + 1)),
        "from_library": answer.from_library,
        "timings_ms": result.timings,
    }


def logged(result: Result, reader=None) -> dict:
    """The result's JSON, logged in the answer history (when the app keeps one) with its new id, and with who
    asked: the user, their community and the tiers searched, and the question's vector; with the reviewed answers
    to like questions reader may read (web/similar.py); counted in /metrics and handed to the request log
    (g.answer, read by logs.py when the request ends)."""
    history = kept_history()
    asked = question_vector(result.question.standalone_question) if history is not None else {}
    body = kept(result_json(result), history, reader, asked)
    body["reviewed"] = reviewed(history, asked, reader, exclude=body["id"]) if history is not None else []
    observe(body)
    g.answer = body
    return body


def kept(body: dict, history, reader=None, asked: dict | None = None) -> dict:
    """An answer's JSON with the id the history logged it under (with who asked, and asked: the question's vector),
    when there is a history."""
    if history is not None:
        asker = {} if reader is None or reader.id is None else {
            "user_id": reader.id, "community": reader.community, "tiers": sorted(reader.tiers)}
        body["id"] = history.log({**body, **asker, **(asked or {})})
    return body


def job_json(job) -> dict:
    """An ingest or re-index job with its progress and its URL."""
    return {
        "id": job.id, "kind": job.kind, "document_id": job.document_id, "filename": job.filename,
        "status": job.status, "stage": job.stage, "done": job.done, "total": job.total,
        "error": job.error, "warnings": job.warnings, "created_at": job.created_at, "updated_at": job.updated_at,
        "url": url_for("documents.job", job_id=job.id),
    }


def document_json(doc, who=None) -> dict:
    """A document's metadata, without its text; yours: whether the reader who asks (who) uploaded it."""
    return {**{k: getattr(doc, k) for k in ("id", "title", "author", "language", "format", "work", "tier", "community",
                                            "filename", "chunk_count", "created_at", "updated_at")},
            "built_in": built_in(doc), "read_only": read_only(doc), "yours": who is not None and yours(doc, who)}


def yours(doc, who) -> bool:
    """Whether the reader uploaded this document: on a shared server, its owner is the reader; on a personal one
    (no accounts: the reader is the server's owner), every upload is."""
    if built_in(doc):
        return False
    return doc.owner == who.id if who.id is not None else who.everything


def built_in(doc) -> bool:
    """Whether a document is the built-in library's: made by a corpus build (the default library), not uploaded."""
    return doc.filename is None


def read_only(doc) -> bool:
    """Whether a document may not be replaced or removed: the built-in library's, unless BUILTIN_REMOVABLE."""
    return doc is not None and built_in(doc) and not current().library.builtin_removable


def sse(event: str, data: dict) -> str:
    """One server-sent event."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def stream_event(name: str, data, reader) -> tuple[str, dict | None]:
    """One event of the answer stream as server-sent text (meta, sources, delta; the answer with done), and the
    answer's logged body for the answer event."""
    if name == "answer":
        body = logged(data, reader)
        return sse("answer", body) + sse("done", {"id": body["id"], "timings_ms": body["timings_ms"]}), body
    shape = {"meta": question_json, "sources": evidence_json, "delta": lambda text: {"text": text}}
    return sse(name, shape[name](data)), None
