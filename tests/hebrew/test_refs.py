"""Canonical references in Hebrew, and the Shulchan Arukh's seifim read with the Rema's gloss as its own unit."""
import json
from pathlib import Path

import pytest

from hebrew.numerals import hebrew_number
from hebrew.refs import hebrew_label
from ingest.json_reader import read_json
from ingest.records import RejectedFile
from ingest.structure import split

SHARED_SA = Path(__file__).resolve().parents[3] / "shared" / "data" / "shulchan-arukh" / "shulchan_arukh_he.jsonl"


@pytest.mark.parametrize("n, letters", [(1, "א"), (2, "ב"), (10, "י"), (11, 'י"א'), (15, 'ט"ו'), (16, 'ט"ז'),
                                        (17, 'י"ז'), (100, "ק"), (128, 'קכ"ח'), (300, "ש"), (400, "ת"), (515, 'תקט"ו'),
                                        (696, 'תרצ"ו')])
def test_hebrew_numbers(n, letters):
    assert hebrew_number(n) == letters


@pytest.mark.parametrize("ref, label", [
    ("Shulchan Arukh, Orach Chayim 2:3", 'שו"ע או"ח ב:ג'),
    ("Shulchan Arukh, Yoreh De'ah 87:3, Rema", 'שו"ע יו"ד פ"ז:ג רמ"א'),
    ("Shulchan Arukh, Choshen Mishpat 262:11", 'שו"ע חו"מ רס"ב:י"א'),
    ("Alexander Fleming", None),
    ("Beekeeping, Chapter 3", None),
    (None, None),
])
def test_hebrew_labels(ref, label):
    assert hebrew_label(ref) == label


SEIFIM = [
    {"ref": "Shulchan Arukh, Orach Chayim 2:5", "part_he": "אורח חיים", "siman": 2, "seif": 5,
     "siman_label": "סימן ב׳", "he": "לא ילבש שני בגדים ביחד משום דאתי לידי שכחה:"},
    {"ref": "Shulchan Arukh, Orach Chayim 2:6", "part_he": "אורח חיים", "siman": 2, "seif": 6,
     "siman_label": "סימן ב׳", "he": "אסור לילך בקומה זקופה: הגה ויכסה כל גופו ולא ילך יחף (א\"ז):"},
]


def test_seifim_keep_their_refs_and_the_gloss_is_its_own_unit():
    parsed = read_json("\n".join(json.dumps(s, ensure_ascii=False) for s in SEIFIM), "jsonl", "sa.jsonl")
    assert parsed.title == "Shulchan Arukh" and parsed.language == "he"
    pieces = split(parsed.text, parsed.title, parsed.units)
    assert [(p.ref, p.text) for p in pieces] == [
        ("Shulchan Arukh, Orach Chayim 2:5", "לא ילבש שני בגדים ביחד משום דאתי לידי שכחה:"),
        ("Shulchan Arukh, Orach Chayim 2:6", "אסור לילך בקומה זקופה:"),
        ("Shulchan Arukh, Orach Chayim 2:6, Rema", 'הגה ויכסה כל גופו ולא ילך יחף (א"ז):'),
    ]
    assert pieces[1].parent_ref == "Shulchan Arukh, Orach Chayim 2" and pieces[2].parent_ref == pieces[1].ref
    assert pieces[2].section_path == ["אורח חיים", "סימן ב׳", "סעיף ו", "הגה"]


def test_the_gloss_is_ashkenazi_and_the_shulchan_arukhs_ruling_sephardi():
    parsed = read_json("\n".join(json.dumps(s, ensure_ascii=False) for s in SEIFIM), "jsonl", "sa.jsonl")
    assert [(u.ref, u.community, u.era) for u in parsed.units] == [
        ("Shulchan Arukh, Orach Chayim 2:5", "Sephardi", "Acharonim"),  # the Mechaber
        ("Shulchan Arukh, Orach Chayim 2:6", "Sephardi", "Acharonim"),
        ("Shulchan Arukh, Orach Chayim 2:6, Rema", "Ashkenazi", "Acharonim"),
    ]
    pieces = split(parsed.text, parsed.title, parsed.units)
    assert [(p.community, p.era) for p in pieces] == [(u.community, u.era) for u in parsed.units]
    other = [{**s, "ref": s["ref"].replace("Shulchan Arukh", "Kitzur Shulchan Arukh")} for s in SEIFIM]
    parsed = read_json(json.dumps(other, ensure_ascii=False), "json", "kitzur.json")  # another work's ruling: unknown
    assert [u.community for u in parsed.units] == [None, None, "Ashkenazi"]
    sefaria = read_json(json.dumps({"title": "Shulchan Arukh", "text": [["הגה ויכסה"]]}), "json", "sa.json")
    assert sefaria.units[0].community is None  # a Sefaria export does not say who wrote a segment


def test_a_simans_heading_labels_each_of_its_seifim_and_leaves_the_first_seifs_text():
    seifim = [{"ref": "Shulchan Arukh, Orach Chayim 318:1", "siman_label": "סימן שי״ח",
               "he": "דין המבשל בשבת. ובו ב סעיפים:המבשל בשבת במזיד אסור לו לעולם:"},
              {"ref": "Shulchan Arukh, Orach Chayim 318:2", "siman_label": "סימן שי״ח", "he": "מים שהוחמו מערב שבת מותר:"},
              {"ref": "Shulchan Arukh, Orach Chayim 319:1", "siman_label": "סימן שי״ט", "he": "הבורר אוכל מתוך פסולת חייב:"}]
    parsed = read_json(json.dumps(seifim, ensure_ascii=False), "json", "sa.json")
    pieces = split(parsed.text, parsed.title, parsed.units)
    assert [p.text for p in pieces][:2] == ["המבשל בשבת במזיד אסור לו לעולם:", "מים שהוחמו מערב שבת מותר:"]
    assert [p.section_path for p in pieces] == [
        ["סימן שי״ח", "דין המבשל בשבת"], ["סימן שי״ח", "דין המבשל בשבת"], ["סימן שי״ט"]]  # no heading: no topic


def test_a_record_without_a_ref_among_referenced_ones_is_refused():
    with pytest.raises(RejectedFile, match='record 2 has no "ref" and "he"'):
        read_json(json.dumps([SEIFIM[0], {"text": "x"}], ensure_ascii=False), "json", "sa.json")


@pytest.mark.skipif(not SHARED_SA.exists(), reason="../shared/data/shulchan-arukh is not beside the project")
def test_the_whole_shulchan_arukh_reads_into_rulings_and_glosses():
    parsed = read_json(SHARED_SA.read_text(encoding="utf-8"), "jsonl", SHARED_SA.name)
    refs = [u.ref for u in parsed.units]
    rulings = [r for r in refs if not r.endswith(", Rema")]
    # every seif is there; three hold only a gloss once their siman's heading is taken off (Orach Chayim 48:1), the
    # other five of eight the Mechaber's words resuming after it (issue 47)
    assert len({r.removesuffix(", Rema") for r in refs}) == 13_396 and len(set(rulings)) == len(rulings) == 13_393
    assert 4_300 < len(refs) - len(rulings) < 4_500  # seifim with a gloss of the Rema, in parentheses too (4,407)
    assert all(hebrew_label(r) for r in refs[:: 97])
