"""Read JSON and JSONL uploads of two shapes: a Sefaria text export, or a list of records.

Sefaria: {"title", "language", "text": lists nested 1 to 3 deep holding segment strings, "sectionNames"}.
Each non-empty segment becomes a Unit whose path is its 1-based position (siman 2, seif 3 -> (2, 3));
empty segments (and nulls) keep their number but add no text. Segment markup (<b>, <br>, <small>) is
stripped and entities unescaped.
Records: a JSON array, or JSONL lines, of objects with a "text" string and optional "title" or "_id";
record i becomes a Unit with path (i,) and its title as heading. A lone object with a "text" string is
read as one record.
Referenced segments: records with their own canonical "ref" and Hebrew text "he" (optionally "part_he",
"siman", "seif", "siman_label"), one per seif as ../shared/data/shulchan-arukh gives the Shulchan Arukh. A
siman's label is written from its number ("סימן תר״ע") when the record gives one; "siman_label" only otherwise.
Each keeps its ref; the gloss of the Rema becomes a unit of its own ("Shulchan Arukh, Orach Chayim 1:1, Rema") so it
can be cited apart from the ruling, wherever the source marks it: from the word הגה to the colon after which the
ruling's words resume (not its sources' brackets, nor another הגה), else to the end of the seif; and a gloss written
in parentheses, followed by its source's ("(ואין לקדש אלא עד ...) (תשובת מהרי"ל)"). A seif's glosses make one unit, its
ruling's words (before and after them) another. The gloss is Ashkenazi, and in the Shulchan Arukh the ruling is
the Mechaber's, Sephardi; both are of the Acharonim.
The heading a siman's first seif opens with ("דין השכמת הבוקר. ובו ט סעיפים:") becomes a label of every
seif of that siman, so a question about its topic finds seifim that never name it.
Does not: read Sefaria's complex texts ("text" as an object of named parts), links or commentary, or find a gloss
the source marks neither way.
"""
import html
import json
import re
from collections.abc import Iterator

from hebrew.numerals import hebrew_number, numbered
from ingest.records import Parsed, RejectedFile, Unit, display_name

MAX_DEPTH = 3  # Sefaria's deepest simple texts: e.g. chapter, verse, comment
SHAPES = ('send a Sefaria text export (an object with "title" and "text" as nested lists of strings) '
          'or a list of records, each an object with a "text" string')
BREAK = re.compile(r"<br\s*/?>", re.I)
TAG = re.compile(r"</?[A-Za-z][^<>]*>")
GLOSS = re.compile(r"(?<![\u05D0-\u05EA])הגה(?![\u05D0-\u05EA])")  # the word that opens the Rema's gloss
# A gloss in parentheses: it opens as the Rema's words do ("ו...", "אבל", "מיהו") and its source follows it in
# parentheses or brackets; a source alone ("(טור)") is never one
BRACKETED_GLOSS = re.compile(r"\((?:ו|אבל |מיהו |ודוקא )[^()]{20,}\)\s*(?:\([^()]*\)|\[[^\[\]]*\])\s*:?")
# Who speaks in a referenced seif: the Rema's gloss is Ashkenazi custom; the ruling is the Mechaber's (R. Yosef Karo,
# Sephardi) only in the Shulchan Arukh, whose refs start with its name. Other records say nothing of it.
GLOSS_AUTHOR = {"community": "Ashkenazi", "era": "Acharonim"}
RULING_AUTHORS = {"Shulchan Arukh,": {"community": "Sephardi", "era": "Acharonim"}}
# A siman's first seif opens with its topic and size: "דין השכמת הבוקר. ובו ט סעיפים:" or "... ובו סעיף אחד:"
SIMAN_HEADING = re.compile(r"^(?P<topic>[^:]{0,300}?)[\s.]*ובו\s+(?:סעיף\s+אחד|[^\s:]{1,6}\s+סעיפים)\s*:\s*")


def seif_parts(segment: str) -> tuple[str | None, str, str]:
    """A referenced seif's text, cleaned: its siman's topic (a siman's first seif opens with it; else None), its
    ruling's words, and the Rema's glosses ("" when it has none), each in reading order (voices)."""
    text, topic = _clean(segment), None
    if heading := SIMAN_HEADING.match(text):
        topic, text = heading["topic"].strip(), text[heading.end():]
    said = {"ruling": [], "gloss": []}
    for speaker, words in voices(text):
        said[speaker].append(words)
    return topic, " ".join(said["ruling"]), " ".join(said["gloss"])


def voices(text: str) -> list[tuple[str, str]]:
    """A seif's text cut where the source marks who speaks: ("ruling" or "gloss", its words) in reading order."""
    out, at = [], 0
    while at < len(text):
        opened = GLOSS.search(text, at)
        end = gloss_end(text, opened.end()) if opened else len(text)
        out += [(speaker, words) for speaker, words in bracketed_glosses(text[at:opened.start() if opened else end])]
        if opened:
            out.append(("gloss", text[opened.start():end].strip()))
        at = end
    return [(speaker, words) for speaker, words in out if words]


def gloss_end(text: str, start: int) -> int:
    """Where a gloss opened before start ends: after the colon the ruling's words resume at (not its source's
    brackets, nor another gloss), else at the end of the seif."""
    for colon in re.finditer(":", text[start:]):
        if not re.search(r"[\u05D0-\u05EA]", text[start:start + colon.start()]):
            continue  # "הגה:" itself: the gloss has not begun
        after = text[start + colon.end():].lstrip()
        if after and after[0] not in "[(" and not GLOSS.match(after):
            return start + colon.end()
    return len(text)


def bracketed_glosses(text: str) -> list[tuple[str, str]]:
    """The ruling's words, with the glosses written in parentheses (BRACKETED_GLOSS) apart."""
    out, at = [], 0
    for gloss in BRACKETED_GLOSS.finditer(text):
        out += [("ruling", text[at:gloss.start()].strip()), ("gloss", gloss.group().strip())]
        at = gloss.end()
    return out + [("ruling", text[at:].strip())]


def _clean(segment: str) -> str:
    """A Sefaria segment as plain text: tags dropped, <br> kept as a line break, spaces collapsed."""
    text = html.unescape(TAG.sub("", BREAK.sub("\n", segment)))
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def _where(path: tuple[int, ...]) -> str:
    """A position in "text" for messages, e.g. "text[2][3]"."""
    return "text" + "".join(f"[{n}]" for n in path)


def _segments(node: object, path: tuple[int, ...], name: str) -> Iterator[tuple[tuple[int, ...], str]]:
    """(1-based path, cleaned text) for every segment under node, empty ones included."""
    if node is None or isinstance(node, str):
        yield path, _clean(node or "")
    elif isinstance(node, list):
        if len(path) == MAX_DEPTH:
            raise RejectedFile(f"{name}: {_where(path)} is nested deeper than {MAX_DEPTH} levels of lists; "
                               "a Sefaria text has at most three (e.g. chapter, verse, comment)")
        for number, child in enumerate(node, 1):
            yield from _segments(child, path + (number,), name)
    else:
        raise RejectedFile(f"{name}: {_where(path)} is a {type(node).__name__}, not a string; "
                           "every segment of a Sefaria text must be a string")


def _join(pieces: list[tuple[tuple[int, ...], str, dict]]) -> tuple[str, list[Unit]]:
    """Join non-empty (path, text, more Unit fields) pieces with a blank line; one Unit per piece, at its text."""
    parts, units, offset = [], [], 0
    for path, text, fields in pieces:
        if not text:
            continue
        offset += 2 if parts else 0
        units.append(Unit(path, offset, offset + len(text), **fields))
        parts.append(text)
        offset += len(text)
    return "\n\n".join(parts), units


def _sefaria(data: dict, name: str) -> Parsed:
    """A Sefaria text export: one Unit per non-empty segment."""
    text, units = _join([(path, segment, {}) for path, segment in _segments(data["text"], (), name)])
    names = data.get("sectionNames")
    names = names if isinstance(names, list) and all(isinstance(n, str) for n in names) else None
    title = next((t for t in (data.get("title"), data.get("heTitle")) if isinstance(t, str)), None)
    language = data.get("language") if isinstance(data.get("language"), str) else None
    return Parsed(text, "json", title=title, language=language, units=units, section_names=names)


def _records(items: list, fmt: str, name: str) -> Parsed:
    """A list of records: one Unit per record with a non-empty "text"."""
    pieces = []
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise RejectedFile(f'{name}: record {number} is not an object with a "text" string; {SHAPES}')
        heading = next((str(h) for h in (item.get("title"), item.get("_id"))
                        if isinstance(h, (str, int)) and str(h).strip()), None)
        pieces.append(((number,), item["text"].strip(), {"heading": heading}))
    text, units = _join(pieces)
    return Parsed(text, fmt, units=units)


def _is_referenced(item: object) -> bool:
    """Whether a record is a segment with its own canonical ref and Hebrew text."""
    return isinstance(item, dict) and isinstance(item.get("ref"), str) and isinstance(item.get("he"), str)


def _referenced(items: list, fmt: str, name: str) -> Parsed:
    """Segments with their own refs: one unit per ruling, and one per gloss of the Rema."""
    pieces, topics = [], {}
    for number, item in enumerate(items, 1):
        if not _is_referenced(item):
            raise RejectedFile(f'{name}: record {number} has no "ref" and "he" strings like the records before it')
        ref = item["ref"].strip()
        parent = ref.rsplit(":", 1)[0] if ":" in ref else None
        topic, ruling, rema = seif_parts(item["he"])
        if topic is not None:
            topics[parent] = topic
        siman = item.get("siman") if isinstance(item.get("siman"), int) and 0 < item["siman"] < 1000 else None
        siman_label = numbered("סימן", siman) if siman else item.get("siman_label")  # an exporter's slip cannot break it
        labels = [label for label in (item.get("part_he"), siman_label) if isinstance(label, str)]
        labels += [topics[parent]] if topics.get(parent) else []
        if isinstance(item.get("seif"), int) and 0 < item["seif"] < 1000:
            labels.append(f"סעיף {hebrew_number(item['seif'])}")
        author = next((who for stem, who in RULING_AUTHORS.items() if ref.startswith(stem)), {})
        pieces.append(((number, 0), ruling, {"ref": ref, "parent_ref": parent, "labels": tuple(labels), **author}))
        pieces.append(((number, 1), rema, {"ref": f"{ref}, Rema", "parent_ref": ref, "labels": (*labels, "הגה"),
                                           **GLOSS_AUTHOR}))
    text, units = _join(pieces)
    stems = {ref.split(",")[0] for ref in (item["ref"] for item in items)}
    return Parsed(text, fmt, title=stems.pop() if len(stems) == 1 else None, language="he", units=units)


def _load(text: str, fmt: str, name: str) -> object:
    """The JSON value of a .json file, or the list of values on a .jsonl file's non-blank lines."""
    lines = [(1, text)] if fmt == "json" else [(n, line) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    values = []
    for number, line in lines:
        try:
            values.append(json.loads(line))
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno}, column {exc.colno}" if fmt == "json" else f"line {number}"
            raise RejectedFile(f"{name} is not valid JSON ({exc.msg} at {where})") from None
        except RecursionError:
            raise RejectedFile(f"{name} is nested too deeply to read; {SHAPES}") from None
    return values[0] if fmt == "json" else values


def read_json(text: str, fmt: str, filename: str) -> Parsed:
    """A Sefaria export or a list of records; any other shape is refused with the shapes that work."""
    name = display_name(filename)
    data = _load(text, fmt, name)
    if isinstance(data, dict) and isinstance(data.get("text"), dict):
        raise RejectedFile(f'{name} is a Sefaria text with named parts ("text" is an object); '
                           "export each part as its own simple text and upload those")
    if isinstance(data, dict) and isinstance(data.get("text"), list):
        return _sefaria(data, name)
    if isinstance(data, dict) and isinstance(data.get("text"), str):
        return _records([data], fmt, name)
    if isinstance(data, list) and data and _is_referenced(data[0]):
        return _referenced(data, fmt, name)
    if isinstance(data, list) and data:
        return _records(data, fmt, name)
    raise RejectedFile(f"{name} is JSON but not in a shape Evidenz reads: {SHAPES}")
