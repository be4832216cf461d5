"""Markup a document planted, made inert where an answer leaves the page: a client of /v1 or MCP may render
Markdown and HTML as it gets them, so an answer quoting an upload's `<img src=x onerror=...>` or
`[click](javascript:...)` would run there, though the page shows both as text (static/markdown.js).

An HTML tag is put in a code span, where Markdown shows it as the characters it is; a Markdown link or image to a
script (javascript:, vbscript:, data:) keeps its words and loses its target; a bare script scheme is broken with a
zero-width space so that no client links it.
Does not: touch text without markup, or change what /api/query gives the page (which renders it inertly).
"""
import re

TAG = re.compile(r"<\s*/?\s*[A-Za-z!][^<>]*>")
SCRIPT_LINK = re.compile(r"(!?)\[([^\]]*)\]\(\s*<?\s*(?:javascript|vbscript|data)\s*:(?:[^()]|\([^()]*\))*\)", re.I)
SCRIPT_SCHEME = re.compile(r"\b(javascript|vbscript)(\s*):", re.I)


def inert(text: str | None) -> str | None:
    """text with its HTML tags in code spans and its script links' targets removed."""
    if not text:
        return text
    text = SCRIPT_LINK.sub(lambda m: f"{m.group(2)} (a script link, removed)", text)
    text = TAG.sub(lambda m: "`" + m.group(0).replace("`", "'") + "`", text)
    return SCRIPT_SCHEME.sub(lambda m: f"{m.group(1)}\u200b{m.group(2)}:", text)
