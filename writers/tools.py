"""The library as tools a model writer calls for itself: search_library, get_passage and list_works.

Every passage a call returns joins the question's evidence, numbered in the order first seen, and the writer cites
those numbers as [n]; the generator checks every claim against them as it checks any answer. A call with bad
arguments (an unknown work, a section that names none, an empty query) is answered with an error the model can
act on, never raised. A question may search at most `max_searches` times; a search past that is answered with an
error that says to answer from the passages found. Each search is recorded with the filters it ran with and the
numbers of what it found, for the response's `searches`.
Does not: talk to a provider (each writer turns TOOLS into its own wire format) or run the loop (research.py).
"""
import json
from dataclasses import dataclass, field

from search.catalog import find_works
from search.section_filters import EXAMPLE, SectionFilterError, read_sections
from writers.prompt import LANGUAGE_CODE

MAX_SEARCHES = 3
MAX_CALLS_PER_TURN = 6  # calls of one turn past this are answered with an error
MAX_EVIDENCE = 30  # passages the calls of one question may gather
MAX_QUERY_CHARS = 2000  # as a question may be (web/validation.py)
MAX_LISTED_WORKS = 20
MAX_LISTED_SECTIONS = 40
ANSWER_RULE = "Cite a passage by its number n as [n] after each sentence it supports."

TOOLS = [
    {"name": "search_library",
     "description": "Search the library for passages that answer a query (hybrid keyword and meaning search). "
                    "Narrow it to a work (its name, even loosely: 'the MCP course') and to sections of it (a lesson, "
                    "siman or chapter number, or a range such as '253-254'). Returns numbered passages. "
                    + ANSWER_RULE,
     "parameters": {"type": "object", "properties": {
         "query": {"type": "string", "description": "What to look for, in the words the texts would use."},
         "work": {"type": "string", "description": "A work's name, as list_works gives it or loosely."},
         "section": {"type": "string", "description": f"Section numbers: {EXAMPLE}."},
         "language": {"type": "string", "description": "Only texts in this language: 'en', 'he' ..."}},
         "required": ["query"]}},
    {"name": "get_passage",
     "description": "One passage in full by the id or canonical reference a search gave ('Shulchan Arukh, "
                    "Orach Chayim 318:5'). Returns it numbered. " + ANSWER_RULE,
     "parameters": {"type": "object", "properties": {
         "id": {"type": "string", "description": "The passage's id or canonical reference."}}, "required": ["id"]}},
    {"name": "list_works",
     "description": "The works in the library (books, courses, codes) with their sections or lessons. Give a "
                    "query to find a work by a loose name.",
     "parameters": {"type": "object", "properties": {
         "query": {"type": "string", "description": "A loose name of a work, course or author."}}}},
]


@dataclass
class ToolCall:
    """A tool call as a provider gave it: its id, the tool's name and the arguments (a dict, or text to parse)."""

    id: str
    name: str
    arguments: object


@dataclass
class ToolReply:
    """What a tool call returns to the model: JSON text, and whether it is an error."""

    content: str
    error: bool = False


class ToolArgumentError(ValueError):
    """A tool call the library cannot run; its message tells the model what to send."""


@dataclass
class Toolbox:
    """One question's tools: search(query, filters) -> hits, passage(id) -> hit or None, works() -> the catalog."""

    search: object
    passage: object
    works: object
    max_searches: int = MAX_SEARCHES
    hits: list = field(default_factory=list)  # the evidence: every passage any call returned, numbered from 1
    searches: list = field(default_factory=list)  # {"query", "filters", "results", "error"} of each search
    listed: bool = False  # list_works was called: the writer read the catalog

    def run_all(self, calls: list[ToolCall]) -> list[ToolReply]:
        """The replies to one turn's calls; those past MAX_CALLS_PER_TURN are refused."""
        refused = ToolReply(json.dumps({"error": f"At most {MAX_CALLS_PER_TURN} tool calls a turn; this one was not "
                                                 "run."}), error=True)
        return [self.run(call) if i < MAX_CALLS_PER_TURN else refused for i, call in enumerate(calls)]

    def run(self, call: ToolCall) -> ToolReply:
        """Run one call; bad arguments and limits come back as an error reply."""
        tool = {"search_library": self.search_library, "get_passage": self.get_passage,
                "list_works": self.list_works}.get(call.name)
        searches = len(self.searches)
        try:
            if tool is None:
                raise ToolArgumentError(f"There is no tool {str(call.name)[:60]!r}; the tools are "
                                        f"{', '.join(t['name'] for t in TOOLS)}.")
            return ToolReply(json.dumps(tool(**arguments_of(call, tool)), ensure_ascii=False))
        except ToolArgumentError as e:
            if call.name == "search_library" and len(self.searches) == searches:  # its arguments were unreadable
                self.searches.append({"query": None, "filters": {}, "results": [], "error": str(e)})
            return ToolReply(json.dumps({"error": str(e)}, ensure_ascii=False), error=True)

    @property
    def searched(self) -> bool:
        """Whether the writer looked in the library at all (a search, even a refused one, or a passage)."""
        return bool(self.searches or self.hits)

    def search_library(self, query, work=None, section=None, language=None) -> dict:
        record = {"query": query if isinstance(query, str) else None,
                  "filters": {"work": work, "section": section, "language": language}, "results": [], "error": None}
        self.searches.append(record)
        try:
            self.room()
            if len([s for s in self.searches if s["error"] is None]) > self.max_searches:
                raise ToolArgumentError(f"The limit of {self.max_searches} searches for this question is reached. "
                                        f"Answer from the passages found. {ANSWER_RULE}")
            filters = self.filters(work, section, language)
            if not isinstance(query, str) or not 0 < len(query.strip()) <= MAX_QUERY_CHARS:
                raise ToolArgumentError(f"query must be a text of 1 to {MAX_QUERY_CHARS:,} characters.")
        except ToolArgumentError as e:
            record["error"] = str(e)
            raise
        record["filters"] = {k: v for k, v in record["filters"].items() if v is not None}
        if filters.get("work"):
            record["filters"]["work"] = filters.pop("work")
        hits = self.search(query.strip(), filters)
        record["results"] = [self.number(hit) for hit in hits]
        return {"passages": [self.shown(n) for n in record["results"]],
                "note": ANSWER_RULE if hits else "Nothing found; try other words, or no work or section."}

    def filters(self, work, section, language) -> dict:
        """The search filters of a call's arguments, the work resolved to its documents."""
        filters = {}
        if work is not None:
            if not isinstance(work, str) or not work.strip():
                raise ToolArgumentError("work must be a work's name; list_works gives them.")
            found = find_works(self.works(), work)
            if not found:
                raise ToolArgumentError(f"No work in the library matches {work[:100]!r}; list_works gives them.")
            filters["document_ids"] = [w["document_id"] for w in found]
            filters["work"] = found[0]["work"]
        if section is not None:
            if isinstance(section, str) and "," in section:
                section = [part.strip() for part in section.split(",")]
            try:
                read_sections(section)
            except SectionFilterError as e:
                raise ToolArgumentError(str(e).replace('"filters.section"', "section")) from None
            filters["section"] = section
        if language is not None:
            if not isinstance(language, str) or not LANGUAGE_CODE.fullmatch(language):
                raise ToolArgumentError("language must be a language code such as 'en' or 'he'.")
            filters["language"] = language
        return filters

    def get_passage(self, id) -> dict:
        if not isinstance(id, str) or not id.strip():
            raise ToolArgumentError("id must be a passage's id or canonical reference, as search_library gives it.")
        self.room()
        hit = self.passage(id.strip())
        if hit is None:
            raise ToolArgumentError(f"No passage {id[:100]!r} in the library; ids come from search_library.")
        return {"passages": [self.shown(self.number(hit))], "note": ANSWER_RULE}

    def list_works(self, query=None) -> dict:
        if query is not None and not isinstance(query, str):
            raise ToolArgumentError("query must be a text: a loose name of a work, course or author.")
        self.listed = True
        works = find_works(self.works(), query) if query and query.strip() else self.works()
        return {"works": [listed(w) for w in works[:MAX_LISTED_WORKS]], "total": len(works)}

    def room(self) -> None:
        """A ToolArgumentError once the evidence holds MAX_EVIDENCE passages."""
        if len(self.hits) >= MAX_EVIDENCE:
            raise ToolArgumentError(f"The evidence holds {len(self.hits)} passages, as many as one question may. "
                                    f"Answer from them. {ANSWER_RULE}")

    def number(self, hit) -> int:
        """The evidence number of a hit's passage, numbering it when it is new."""
        for n, known in enumerate(self.hits, start=1):
            if known.chunk.id == hit.chunk.id:
                return n
        self.hits.append(hit)
        return len(self.hits)

    def shown(self, n: int) -> dict:
        """Passage n as a tool result shows it."""
        chunk = self.hits[n - 1].chunk
        return {"n": n, "id": chunk.id, "ref": chunk.ref, "title": chunk.title,
                "section": " › ".join(chunk.section_path) or None, "text": chunk.text}


def within(filters: dict | None, more: dict | None) -> dict | None:
    """The reader's filters with a writer's search's own added; the reader's win, and both document lists hold."""
    if not more:
        return filters
    merged = {**more, **(filters or {})}
    if filters and filters.get("document_ids") is not None and more.get("document_ids") is not None:
        merged["document_ids"] = [d for d in filters["document_ids"] if d in set(more["document_ids"])]
    return merged


def arguments_of(call: ToolCall, tool) -> dict:
    """A call's arguments as keyword arguments of tool; ToolArgumentError when they are not an object of its
    parameters."""
    arguments = call.arguments
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except ValueError:
            raise ToolArgumentError("The arguments must be a JSON object.") from None
    if not isinstance(arguments, dict):
        raise ToolArgumentError("The arguments must be a JSON object.")
    spec = next(t for t in TOOLS if t["name"] == call.name)["parameters"]
    unknown = sorted(set(arguments) - set(spec["properties"]))
    missing = [name for name in spec.get("required", ()) if name not in arguments]
    if unknown or missing:
        raise ToolArgumentError(f"{call.name} takes {', '.join(spec['properties'])}"
                                + (f"; {', '.join(missing)} is required" if missing else "")
                                + (f"; not {', '.join(u[:40] for u in unknown)}" if unknown else "") + ".")
    return arguments


def arguments_text(call: ToolCall) -> str:
    """A call's arguments as the JSON text a provider sent them in."""
    return call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments, ensure_ascii=False)


def listed(work: dict) -> dict:
    """A catalog entry as list_works shows it."""
    sections = work["sections"]
    return {"work": work["work"], "author": work["author"], "language": work["language"],
            "course": work["course"], "passages": work["passages"],
            "sections": [{"number": s["number"], "title": s["title"], "heading": s["heading"],
                          "part": " › ".join(s["within"]) or None} for s in sections[:MAX_LISTED_SECTIONS]],
            "sections_total": len(sections)}
