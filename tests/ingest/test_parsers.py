"""parsers.py on real files built in tmp_path: what each format yields, and what is refused."""
import json
import re
import zipfile
from pathlib import Path

import pytest

from builders import english_pdf
from hebrew.script import detect_language, fix_reversed_hebrew
from ingest.parsers import MAX_TITLE_CHARS, parse_file, sniff_format
from ingest.records import Limits, RejectedFile, display_name, extension

HEBREW_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
# Shulchan Arukh, Orach Chayim 1:1 and 1:2
SEIF_1 = "יתגבר כארי לעמוד בבוקר לעבודת בוראו, שיהא הוא מעורר השחר."
SEIF_2 = ("המשכים להתחנן לפני בוראו, יכוין לשעות שמשתנות המשמרות, שהן בשליש הלילה ובסוף שני שלישי הלילה "
          "ובסוף הלילה, שהתפלה שיתפלל באותן השעות על החרבן ועל הגלות רצויה.")


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    """A file in tmp_path holding content (text is written as UTF-8)."""
    path = tmp_path / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return path


def test_pdf_pages_title_author(tmp_path):
    pages = ["The first page speaks of dawn.", "The second page speaks of noon.", "The third page speaks of dusk."]
    parsed = parse_file(english_pdf(tmp_path / "stored.pdf", pages), "My Book.pdf")
    assert (parsed.format, parsed.pages, parsed.title, parsed.author, parsed.language) == (
        "pdf", 3, "The Test Book", "Ada Writer", "en")
    assert parsed.text == "\n\n".join(pages)
    assert parsed.warnings == []


@pytest.mark.skipif(not HEBREW_FONT.exists(), reason="needs the DejaVu font for Hebrew glyphs")
def test_pdf_with_reversed_hebrew_is_fixed(tmp_path):
    from fpdf import FPDF

    # Without text shaping fpdf2 stores Hebrew in reading order, left to right; PDFium then reads each line
    # as visual order and hands it back reversed, which is what real "backwards" Hebrew PDFs look like.
    pdf = FPDF()
    pdf.add_page()
    pdf.add_font("dejavu", fname=str(HEBREW_FONT))
    pdf.set_font("dejavu", size=12)
    for seif in (SEIF_1, "(טור) " + SEIF_2):
        pdf.multi_cell(0, 8, text=seif, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(tmp_path / "he.pdf"))
    parsed = parse_file(tmp_path / "he.pdf", "he.pdf")
    assert parsed.warnings == ["Hebrew words were reversed in this PDF; fixed"]
    assert parsed.language == "he"
    assert " ".join(parsed.text.split()) == " ".join([SEIF_1, "(טור)", SEIF_2])


def test_docx_headings_paragraphs_tables_and_properties(tmp_path):
    import docx

    document = docx.Document()
    document.add_heading("Chapter One", level=1)
    document.add_paragraph("First paragraph.")
    document.add_paragraph("")
    document.add_paragraph("Second   paragraph.")
    document.add_heading("A Section", level=2)
    table = document.add_table(rows=2, cols=2)
    for row, cells in zip(table.rows, [("Name", "Value"), ("a", "1")]):
        row.cells[0].text, row.cells[1].text = cells
    document.core_properties.title = "My Word Book"
    document.core_properties.author = "Ben Author"
    document.core_properties.language = "en-US"
    document.save(tmp_path / "stored.docx")
    parsed = parse_file(tmp_path / "stored.docx", "book.docx")
    assert parsed.text == ("# Chapter One\n\nFirst paragraph.\n\nSecond paragraph.\n\n## A Section\n\n"
                           "Name | Value\na | 1")
    assert (parsed.format, parsed.title, parsed.author, parsed.language) == ("docx", "My Word Book", "Ben Author", "en")


def test_html_drops_scripts_and_furniture(tmp_path):
    page = """<!DOCTYPE html><html lang="en-GB"><head><title>Test &amp; Page</title>
    <meta name="author" content="Cara Coder"><script>var x = "<p>hidden</p>";</script><style>p {color: red}</style>
    </head><body><nav>Home | About</nav><header>Site banner</header>
    <article><header><h2>Section &quot;One&quot;</h2></header><svg><title>icon</title></svg>
    <p>First <b>bold</b> para&shy;graph.</p><div>Second<br>third</div>
    <ul><li>item one</li><li>item two</li></ul></article><footer>&copy; footer</footer></body></html>"""
    parsed = parse_file(write(tmp_path, "page.html", page), "page.html")
    assert parsed.text == ('## Section "One"\n\nFirst bold para\xadgraph.\n\nSecond\n\nthird\n\n'
                           "item one\n\nitem two")
    assert (parsed.format, parsed.title, parsed.author, parsed.language) == ("html", "Test & Page", "Cara Coder", "en")


def test_html_declared_language_yields_to_the_letters(tmp_path):
    page = f"<html lang='en'><body><p>{SEIF_1}</p></body></html>"
    assert parse_file(write(tmp_path, "he.html", page), "he.html").language == "he"


def test_sefaria_export_gives_units_with_paths(tmp_path):
    export = {"title": "Shulchan Arukh, Orach Chayim", "heTitle": "שולחן ערוך, אורח חיים", "language": "he",
              "versionTitle": "Test edition", "sectionNames": ["Siman", "Seif"],
              "text": [["<b>יתגבר</b> כארי לעמוד בבוקר לעבודת בוראו,<br>שיהא הוא מעורר השחר.", "", SEIF_2],
                       [], ["<small>ילבש</small> &amp; יברך"]]}
    parsed = parse_file(write(tmp_path, "oc.json", json.dumps(export, ensure_ascii=False)), "oc.json")
    segments = ["יתגבר כארי לעמוד בבוקר לעבודת בוראו,\nשיהא הוא מעורר השחר.", SEIF_2, "ילבש & יברך"]
    assert parsed.text == "\n\n".join(segments)
    assert [u.path for u in parsed.units] == [(1, 1), (1, 3), (3, 1)]
    assert [parsed.text[u.start:u.end] for u in parsed.units] == segments
    assert (parsed.format, parsed.title, parsed.language, parsed.section_names) == (
        "json", "Shulchan Arukh, Orach Chayim", "he", ["Siman", "Seif"])


def test_jsonl_records_become_units(tmp_path):
    lines = [{"_id": "r1", "title": "Lesson 1", "text": "Shabbat begins at sunset."},
             {"_id": 7, "text": " Candles are lit before it. "}]
    content = "\n".join(json.dumps(line) for line in lines) + "\n\n"
    parsed = parse_file(write(tmp_path, "records.jsonl", content), "records.jsonl")
    assert [(u.path, u.heading, parsed.text[u.start:u.end]) for u in parsed.units] == [
        ((1,), "Lesson 1", "Shabbat begins at sunset."), ((2,), "7", "Candles are lit before it.")]
    assert parsed.format == "jsonl"


def test_json_array_of_records(tmp_path):
    content = json.dumps([{"title": "A", "text": "alpha"}, {"title": "B", "text": ""}, {"text": "gamma"}])
    parsed = parse_file(write(tmp_path, "r.json", content), "r.json")
    assert [(u.path, u.heading) for u in parsed.units] == [((1,), "A"), ((3,), None)]
    assert parsed.text == "alpha\n\ngamma"


def test_markdown_title_is_first_heading(tmp_path):
    content = "Intro line.\n\n# Laws of Blessings\n\nSome text.\n\n## Part Two\n\nMore."
    parsed = parse_file(write(tmp_path, "notes.md", content), "notes.md")
    assert (parsed.format, parsed.title, parsed.text) == ("markdown", "Laws of Blessings", content)


def test_course_script_title_and_newlines(tmp_path):
    content = "\ufeffCourse Title: Intro to Halakha\r\nLesson 1: Blessings\r\nWe begin.\r\n"
    parsed = parse_file(write(tmp_path, "course.txt", content), "course.txt")
    assert parsed.title == "Intro to Halakha"
    assert parsed.text == "Course Title: Intro to Halakha\nLesson 1: Blessings\nWe begin.\n"
    assert (parsed.format, parsed.language) == ("txt", "en")


def test_utf16_text_with_bom_is_read(tmp_path):
    parsed = parse_file(write(tmp_path, "u16.txt", SEIF_1.encode("utf-16")), "u16.txt")
    assert (parsed.text, parsed.language) == (SEIF_1, "he")


@pytest.mark.parametrize("filename, head, expected", [
    ("Book.PDF", b"%PDF-1.7\n", "pdf"),
    ("book.docx", b"PK\x03\x04rest", "docx"),
    ("page.htm", b"<!-- c -->\n<HTML><body>", "html"),
    ("notes.txt", "\ufeffשלום".encode(), "txt"),
    ("notes.txt", b"\xff\xfe" + "שלום".encode("utf-16-le"), "txt"),
    ("long.md", ("a" + "א" * 5000).encode()[:8192], "markdown"),  # the head cuts a letter in two
    ("data.jsonl", b'{"text": "x"}\n', "jsonl"),
    ("a-very-long-name-for-a-plain-text-file-about-kettles-and-tea-and-the-water-they-boil.txt", b"text", "txt"),
])
def test_sniff_format_accepts(filename, head, expected):
    assert sniff_format(filename, head) == expected


@pytest.mark.parametrize("filename, head, message", [
    ("report.pdf", b"Hello, I am text", "report.pdf is not a PDF (its content does not start with %PDF-)"),
    ("setup.exe", b"MZ\x90\x00", "files of type .exe are not accepted; send PDF, DOCX, HTML, TXT, Markdown, JSON, a Jupyter notebook, CSV or TSV"),
    ("README", b"text", "files without an extension are not accepted"),
    ("../../etc/book.docx", b"%PDF-1.4", "book.docx is not a DOCX file"),
    ("notes.txt", b"caf\xe9 au lait", "notes.txt is not UTF-8 text"),
    ("notes.txt", b"abc\x00def", "notes.txt contains NUL bytes"),
    ("page.html", b"just some words", "page.html does not look like HTML"),
    ("data.json", b"hello", "data.json does not look like JSON"),
    ("empty.txt", b"", "empty.txt is empty"),
])
def test_sniff_format_refuses(filename, head, message):
    with pytest.raises(RejectedFile, match="^" + re.escape(message)) as caught:
        sniff_format(filename, head)
    assert "/" not in str(caught.value)


def test_a_long_name_is_shortened_for_display_but_keeps_its_extension():
    name = "x" * 200 + ".Markdown"
    assert display_name(name) == "x" * 70 + "…" + ".Markdown" and extension(name) == ".markdown"
    assert display_name("dir/notes\x00.txt") == "notes.txt" and extension("no\x00tes.t\x00xt") == ".txt"


def test_a_title_without_breaks_is_cut(tmp_path):
    parsed = parse_file(write(tmp_path, "course.txt", "Course Title: " + "x" * 10_000 + "\nText."), "course.txt")
    assert parsed.title == "x" * MAX_TITLE_CHARS


def test_renamed_file_is_refused_by_parse_file(tmp_path):
    with pytest.raises(RejectedFile, match="report.pdf is not a PDF"):
        parse_file(write(tmp_path, "upload-1.pdf", b"MZ\x90\x00 not a pdf at all"), "report.pdf")


def test_oversized_file_is_refused(tmp_path):
    with pytest.raises(RejectedFile, match="files may be at most"):
        parse_file(write(tmp_path, "big.txt", "word " * 100), "big.txt", Limits(max_bytes=100))


def test_damaged_pdfs_are_refused(tmp_path):
    whole = english_pdf(tmp_path / "whole.pdf", ["Some text."]).read_bytes()
    with pytest.raises(RejectedFile, match="could not be opened as a PDF"):
        parse_file(write(tmp_path, "junk.pdf", b"%PDF-1.4\n" + bytes(range(256)) * 8), "junk.pdf")
    with pytest.raises(RejectedFile, match="could not be opened as a PDF"):
        parse_file(write(tmp_path, "cut.pdf", whole[:200]), "cut.pdf")


def test_password_protected_pdf_is_refused(tmp_path):
    path = english_pdf(tmp_path / "locked.pdf", ["Secret."], password="hunter2")
    with pytest.raises(RejectedFile, match="locked.pdf is password-protected; remove the password"):
        parse_file(path, "locked.pdf")


def test_pdf_timeout_and_memory_cap_become_refusals(tmp_path):
    path = english_pdf(tmp_path / "ok.pdf", ["Some text."])
    with pytest.raises(RejectedFile, match=r"could not read ok.pdf within 0.001 s"):
        parse_file(path, "ok.pdf", Limits(pdf_timeout_s=0.001))
    with pytest.raises(RejectedFile, match="the PDF reader stopped"):  # too little memory even to start
        parse_file(path, "ok.pdf", Limits(pdf_memory_bytes=16 * 2**20))


def zip_with(path: Path, entries: dict[str, int], chunk: int = 2**20) -> Path:
    """A zip whose entries hold the given number of zero bytes, written in chunks to stay small in memory."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:  # level 1: fast, still ~230:1
        for name, size in entries.items():
            with archive.open(name, "w", force_zip64=size > 2**31) as entry:
                for offset in range(0, size, chunk):
                    entry.write(bytes(min(chunk, size - offset)))
    return path


def test_docx_zip_bomb_is_refused(tmp_path):
    bomb = zip_with(tmp_path / "bomb.docx", {"[Content_Types].xml": 10, "word/document.xml": 300 * 2**20})
    assert bomb.stat().st_size < 2 * 2**20
    with pytest.raises(RejectedFile, match=r"would unpack to 300 MB, more than the 200 MB allowed"):
        parse_file(bomb, "bomb.docx")


def test_docx_compression_ratio_is_refused(tmp_path):
    dense = zip_with(tmp_path / "dense.docx", {"word/document.xml": 20 * 2**20})
    with pytest.raises(RejectedFile, match=r"compressed \d+ to 1, more than the 100 to 1"):
        parse_file(dense, "dense.docx")


def test_zip_with_too_many_entries_or_no_document_is_refused(tmp_path):
    many = zip_with(tmp_path / "many.docx", {f"word/media/{n}.xml": 1 for n in range(2001)})
    with pytest.raises(RejectedFile, match="holds 2001 files inside; a DOCX may hold at most 2000"):
        parse_file(many, "many.docx")
    other = zip_with(tmp_path / "other.docx", {"hello.txt": 5})
    with pytest.raises(RejectedFile, match="not a Word document"):
        parse_file(other, "other.docx")


@pytest.mark.parametrize("content, message", [
    ('{"title": "X", "text": [["a", 5]]}', r"text\[1\]\[2\] is a int, not a string"),
    ('{"text": [[[["too deep"]]]]}', "nested deeper than 3 levels"),
    ('{"text": {"Introduction": ["a"]}}', "named parts"),
    ('{"foo": 1}', "not in a shape Evidenz reads"),
    ('[{"text": "ok"}, {"body": "no text"}]', 'record 2 is not an object with a "text" string'),
    ('{"text": [', "is not valid JSON"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_bad_json_is_refused(tmp_path, content, message):
    with pytest.raises(RejectedFile, match=message):
        parse_file(write(tmp_path, "x.json", content), "x.json")


def test_fix_reversed_hebrew_words_reversed_in_place():
    reversed_words = " ".join(word[::-1] for word in SEIF_1.split())  # "רבגתי יראכ ... ,וארוב ..."
    assert fix_reversed_hebrew(reversed_words) == (SEIF_1, True)


def test_fix_reversed_hebrew_whole_lines_with_niqqud():
    text = "בְּרֵאשִׁית בָּרָא אֱלֹהִים אֵת הַשָּׁמַיִם וְאֵת הָאָרֶץ.\n" + SEIF_2 + "\n"
    backwards = "".join(line[::-1] + "\n" for line in text.splitlines())  # as PDFium reverses a line
    assert fix_reversed_hebrew(backwards) == (text, True)


def test_fix_reversed_hebrew_leaves_normal_text_alone():
    text = f"{SEIF_1}\n\n{SEIF_2}\n\nSiman 1, in English: rise like a lion."
    assert fix_reversed_hebrew(text) == (text, False)
    assert fix_reversed_hebrew("no Hebrew here") == ("no Hebrew here", False)


@pytest.mark.parametrize("text, expected", [
    (SEIF_1, "he"),
    ("He shall rise like a lion in the morning to serve his Creator.", "en"),
    ("Shulchan Arukh, Orach Chayim 1:1 — " + SEIF_1, "he"),  # a Hebrew text with an English reference
    ("The Shulchan Arukh opens with the words יתגבר כארי, 'strengthen yourself like a lion'.", "en"),
    ("1:1 — 2:3", None),
    ("Привет, мир", None),
])
def test_detect_language(text, expected):
    assert detect_language(text) == expected
