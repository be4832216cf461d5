"""Structure-aware chunking: Hebrew numerals, markers and units to refs, size rules, exact covering slices."""
import json
from pathlib import Path

import pytest

from hebrew.numerals import hebrew_numeral
from ingest.chunking import MAX_PASSAGE_CHARS
from ingest.records import Unit
from ingest.structure import split
from search.headings import course_title

SA = "Shulchan Arukh, Orach Chayim"
DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


def to_hebrew(n: int) -> str:
    """n in Hebrew letters with geresh/gershayim, as printed: 15 -> ט״ו, 128 -> קכ״ח."""
    letters = "ת" * (n // 400)
    n %= 400
    for value, letter in [(300, "ש"), (200, "ר"), (100, "ק")]:
        if n >= value:
            letters, n = letters + letter, n - value
    if n in (15, 16):
        letters, n = letters + "ט" + "וז"[n - 15], 0
    letters += "_יכלמנסעפצ"[n // 10] if n >= 10 else ""
    letters += "_אבגדהוזחט"[n % 10] if n % 10 else ""
    return letters[:-1] + "״" + letters[-1] if len(letters) > 1 else letters + "׳"


def words(n: int, stem: str = "w") -> str:
    """n distinct words without punctuation."""
    return " ".join(f"{stem}{i}" for i in range(n))


def assert_exact_cover(text: str, pieces) -> None:
    """Every piece is a trimmed exact slice, and together they cover every non-space character."""
    covered = set()
    for piece in pieces:
        assert piece.text == text[piece.start : piece.end] == piece.text.strip()
        covered.update(range(piece.start, piece.end))
    assert all(i in covered for i, ch in enumerate(text) if not ch.isspace())


@pytest.mark.parametrize(
    "numeral, value",
    [("א", 1), ("י", 10), ('ט"ו', 15), ("ט״ז", 16), ("כ", 20), ('קכ"ח', 128), ("ת", 400), ('תקפ"ה', 585),
     ("רמ״ה", 245), ("א׳", 1), ("תת", 800), ("ך", 20), ("מ״ם", None), ("זה", None), ("שני", None), ("יה", 15), ("קי״ו", 116),
     ("abc", None), ("", None), ("12", None)],
)
def test_hebrew_numeral(numeral, value):
    assert hebrew_numeral(numeral) == value


def test_hebrew_numeral_reads_every_printed_number():
    assert [hebrew_numeral(to_hebrew(n)) for n in range(1, 1300)] == list(range(1, 1300))


HEBREW = (
    "הקדמה קצרה לספר.\n\n"
    "סימן א\nסעיף א. יתגבר כארי לעמוד בבוקר.\nסעיף ב. המשכים להתחנן.\n"
    "סימן ב\nסעיף א ילבש חלוקו.\nסעיף ט\"ו: לא ילך בקומה זקופה.\nסעיף ט״ז) ואל יאמר.\n"
)


def test_hebrew_markers_give_numeric_refs_and_hebrew_labels():
    pieces = split(HEBREW, SA)
    assert [(p.ref, p.parent_ref) for p in pieces] == [
        (SA, None), (f"{SA} 1:1", f"{SA} 1"), (f"{SA} 1:2", f"{SA} 1"), (f"{SA} 2:1", f"{SA} 2"),
        (f"{SA} 2:15", f"{SA} 2"), (f"{SA} 2:16", f"{SA} 2"),
    ]
    assert pieces[0].text == "הקדמה קצרה לספר." and pieces[0].section_path == []
    assert pieces[1].section_path == ["סימן א", "סעיף א"]
    assert pieces[1].text.startswith("סימן א\nסעיף א.")  # the bare siman line rides with its first seif
    assert pieces[4].section_path == ["סימן ב", 'סעיף ט"ו']
    assert_exact_cover(HEBREW, pieces)


def test_perek_halakha_and_seif_katan():
    text = "פרק ה\nהלכה א המדליק נר.\nהלכה ב׳ ועוד.\nפרק זה מדבר על דבר אחר.\n"
    assert [p.ref for p in split(text, "Mishneh Torah, Sabbath")] == ["Mishneh Torah, Sabbath 5:1", "Mishneh Torah, Sabbath 5:2"]
    assert "פרק זה" in split(text, "MT")[-1].text  # "זה" is a word, not a numeral
    titled = "סימן א׳ דין השכמת הבוקר\nסעיף א׳ יתגבר כארי.\n"  # a siman title with words is text of its own
    assert [p.ref for p in split(titled, SA)] == [f"{SA} 1", f"{SA} 1:1"]
    commentary = "סימן א\nס\"ק א דבר.\nס״ק ב דבר אחר.\n"
    assert [p.ref for p in split(commentary, "Mishnah Berurah")] == ["Mishnah Berurah 1:1", "Mishnah Berurah 1:2"]


def test_markdown_parts_enclose_numbered_markers():
    text = "# Orach Chayim\n\nסימן א\nסעיף א דבר.\n\n# Yoreh De'ah\n\nסימן א\nסעיף א דבר אחר.\n## הערה\nהערה קצרה.\n"
    pieces = split(text, "Shulchan Arukh")
    assert [(p.ref, p.parent_ref) for p in pieces] == [
        ("Shulchan Arukh, Orach Chayim 1:1", "Shulchan Arukh, Orach Chayim 1"),
        ("Shulchan Arukh, Yoreh De'ah 1:1", "Shulchan Arukh, Yoreh De'ah 1"),
        ("Shulchan Arukh § הערה", "Shulchan Arukh, Yoreh De'ah 1:1"),
    ]
    assert pieces[0].section_path == ["Orach Chayim", "סימן א", "סעיף א"]
    assert_exact_cover(text, pieces)


def _orach_chayim(simanim: int) -> list[dict]:
    path = DATA / "shulchan-arukh" / "shulchan_arukh_he.jsonl"
    if not path.exists():
        pytest.skip(f"../shared/data/shulchan-arukh is absent: {path} holds the Shulchan Arukh records")
    with path.open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    return [r for r in records if r["part"] == "Orach Chayim" and r["siman"] <= simanim]


def _assert_one_piece_per_seif(pieces, records, spans):
    assert list(dict.fromkeys(p.ref for p in pieces)) == [r["ref"] for r in records]
    for piece in pieces:  # no piece reaches past its own seif
        start, end = spans[piece.ref]
        assert start <= piece.start and piece.end <= end


def test_real_shulchan_arukh_units_keep_every_seif_with_its_ref():
    records = _orach_chayim(simanim=5)
    text, units, spans = "", [], {}
    for record in records:
        text += "\n\n" if text else ""
        units.append(Unit((record["siman"], record["seif"]), len(text), len(text) + len(record["he"])))
        spans[record["ref"]] = (len(text), len(text) + len(record["he"]))
        text += record["he"]
    pieces = split(text, SA, units, ["Siman", "Seif"])
    _assert_one_piece_per_seif(pieces, records, spans)
    assert pieces[0].section_path == ["Siman 1", "Seif 1"] and pieces[0].parent_ref == f"{SA} 1"
    assert_exact_cover(text, pieces)


def test_real_shulchan_arukh_marked_text_gives_the_same_refs():
    records = _orach_chayim(simanim=5)
    text, spans, siman = "", {}, None
    for record in records:
        if record["siman"] != siman:
            text, siman = text + record["siman_label"] + "\n", record["siman"]
        start = len(text)
        text += f"סעיף {to_hebrew(record['seif'])} {record['he']}\n"
        spans[record["ref"]] = (text.rfind("\n", 0, start - 1) + 1 if record["seif"] == 1 else start, len(text))
    pieces = split(text, SA)
    _assert_one_piece_per_seif(pieces, records, spans)
    assert pieces[0].section_path == ["סימן א׳", "סעיף א׳"]
    assert_exact_cover(text, pieces)


BOOK = (
    "My Book\n\nCHAPTER I\n\nIt was a dark night.\n\nSection 1\n\nThe rain fell.\n\n"
    "Section 2: Rain\n\nSection 3 of the contract is prose, not a heading.\n\nChapter 2. The Morning\n\nThe sun rose.\n"
)


def test_english_chapters_and_sections():
    pieces = split(BOOK, "My Book")
    assert [(p.ref, p.parent_ref, p.section_path) for p in pieces] == [
        ("My Book", None, []),
        ("My Book, Chapter 1", None, ["Chapter 1"]),
        ("My Book, Chapter 1, Section 1", "My Book, Chapter 1", ["Chapter 1", "Section 1"]),
        ("My Book, Chapter 1, Section 2", "My Book, Chapter 1", ["Chapter 1", "Section 2: Rain"]),
        ("My Book, Chapter 2", None, ["Chapter 2: The Morning"]),
    ]
    assert_exact_cover(BOOK, pieces)


MARKDOWN = "# Guide\n\n## Install\n\nRun the installer.\n\n### Linux\n\nUse apt.\n\n## Use\n\nAsk a question.\n"


def test_markdown_headings_cite_the_innermost_heading():
    pieces = split(MARKDOWN, "Manual")
    assert [(p.ref, p.parent_ref, p.section_path) for p in pieces] == [
        ("Manual § Install", "Manual § Guide", ["Guide", "Install"]),
        ("Manual § Linux", "Manual § Install", ["Guide", "Install", "Linux"]),
        ("Manual § Use", "Manual § Guide", ["Guide", "Use"]),
    ]
    assert pieces[0].text.startswith("# Guide")
    assert_exact_cover(MARKDOWN, pieces)


COURSE = "Course Title: Jewish Prayer 101\n\nLesson 1: Introduction\n\nWhy we pray.\n\nLesson 2: Prayer\n\nHow we pray.\n"


def test_course_script_takes_its_title_and_lessons():
    assert course_title(COURSE) == "Jewish Prayer 101"
    assert course_title("Just prose.") is None
    pieces = split(COURSE, None)
    assert [(p.ref, p.section_path) for p in pieces] == [
        ("Jewish Prayer 101, Lesson 1", ["Lesson 1: Introduction"]),
        ("Jewish Prayer 101, Lesson 2", ["Lesson 2: Prayer"]),
    ]
    assert pieces[0].start == 0  # the title line rides with the first lesson
    assert_exact_cover(COURSE, pieces)


def test_units_with_section_names_and_record_headings():
    text = "המדליק נר.\n\nועוד דבר.\n\nfirst record\n\nsecond record"
    units = [Unit((5, 1), 0, 10), Unit((5, 2), 12, 21)]
    pieces = split(text[:21], "Mishneh Torah, Sabbath", units, ["Chapter", "Halakhah"])
    assert [(p.ref, p.section_path) for p in pieces] == [
        ("Mishneh Torah, Sabbath 5:1", ["Chapter 5", "Halakhah 1"]),
        ("Mishneh Torah, Sabbath 5:2", ["Chapter 5", "Halakhah 2"]),
    ]
    records = [Unit((1,), 0, 10), Unit((2,), 12, 21, heading="Intro"), Unit((3,), 23, 35)]
    pieces = split(text, "Notes", records)
    assert [(p.ref, p.parent_ref, p.section_path) for p in pieces] == [
        ("Notes 1", None, ["1"]), ("Notes § Intro", None, ["Intro"]), ("Notes 3", None, ["3"]), ("Notes", None, []),
    ]
    assert_exact_cover(text, pieces)


def test_long_section_splits_at_paragraphs_within_sizes():
    text = "Chapter 1\n\n" + "\n\n".join(words(120, f"p{i}w") for i in range(17))
    pieces = split(text, "Book")
    sizes = [len(p.text.split()) for p in pieces]
    assert all(size <= 800 for size in sizes) and sum(300 <= s <= 600 for s in sizes) >= len(sizes) - 1
    assert all(p.ref == "Book, Chapter 1" for p in pieces)
    assert all(p.text.endswith("w119") for p in pieces)  # cut at paragraph ends
    assert_exact_cover(text, pieces)


def test_overlong_paragraph_is_windowed_with_overlap():
    text = words(2000)
    pieces = split(text, "Book")
    assert len(pieces) == 4 and all(len(p.text.split()) <= 800 for p in pieces)
    for first, second in zip(pieces, pieces[1:]):
        assert first.text.split()[-50:] == second.text.split()[:50]
    assert [p.ref for p in pieces] == [f"Book (part {n})" for n in range(1, 5)]
    assert_exact_cover(text, pieces)


def test_windows_prefer_sentence_ends():
    text = " ".join(f"{words(19, f's{i}w')} end{i}." for i in range(100))  # 100 sentences of 20 words
    pieces = split(text, "Book")
    assert len(pieces) > 2 and all(p.text.endswith(".") for p in pieces)
    assert_exact_cover(text, pieces)


def test_short_paragraphs_merge_but_short_seifim_do_not():
    paragraphs = "Section 1\n\n" + "\n\n".join(words(20, f"p{i}w") for i in range(6))
    assert len(split(paragraphs, "Book")) == 1
    seifim = "סימן א\n" + "".join(f"סעיף {to_hebrew(n)} {words(5)}\n" for n in range(1, 6))
    assert [p.ref for p in split(seifim, SA)] == [f"{SA} 1:{n}" for n in range(1, 6)]


@pytest.mark.parametrize("text", [HEBREW, BOOK, MARKDOWN, COURSE, "", "   \n\n ", "one line", words(1700) + "\n\n# H\n\n" + words(900)])
def test_pieces_are_exact_slices_covering_all_text(text):
    assert_exact_cover(text, split(text, "W"))


def test_text_without_breaks_is_cut_by_characters():
    text = "Chapter 1\n\n" + "x" * 50_000 + "\n\n" + words(100) + " " + "y" * 9_000
    pieces = split(text, "Book")
    # the heading, the x's in 11 pieces (10 full), the words with the y's in 2
    assert [len(p.text) for p in pieces] == [9, *[MAX_PASSAGE_CHARS] * 10, 2000, MAX_PASSAGE_CHARS, 4590]
    assert {p.ref for p in pieces} == {"Book, Chapter 1"}
    assert_exact_cover(text, pieces)
    small = split("z" * 1000, "Book", max_chars=300)
    assert [len(p.text) for p in small] == [300, 300, 300, 100]


def test_a_giant_line_is_no_heading_and_labels_are_short():
    text = "# " + "h" * 5000 + "\n\nsome text"
    pieces = split(text, "W" * 1000)
    assert all(p.section_path == [] for p in pieces)
    assert all(len(p.ref) < 320 for p in pieces)
    units = [Unit((1,), 0, len("body"), heading="H" * 5000)]
    assert len(split("body", "Work", units)[0].section_path[0]) == 300
