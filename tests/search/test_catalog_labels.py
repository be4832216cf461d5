"""A siman's label in the catalog is written from its number (the passage's ref, else its label), so a label an
exporter broke ("סימן undefined״ע" for Orach Chayim 670 in an older copy of the shared data) cannot break the catalog,
the section filters or a library read from the source; on each backend through GET /api/catalog."""
import json

import pytest

from builders import library_app, upload, wait_for
from hebrew.numerals import numbered
from ingest.json_reader import read_json
from models import DocumentInfo
from search.catalog import catalog, section_of
from search.section_filters import section_keys

OC = "Shulchan Arukh, Orach Chayim"
EXPECTED = ["סימן תר״ע", "סימן תרע״א", "סימן תרע״ב", "סימן תרע״ג", "סימן תרע״ד", "סימן תרע״ה", "סימן תרע״ו",
            "סימן תרע״ז", "סימן תרע״ח", "סימן תרע״ט", "סימן תר״פ"]
BROKEN = ["סימן undefined״ע", "סימן undefinedע״א", "סימן undefined", "סימן undefinedע״ג", "סימן ", "סימן ע״ה",
          "סימן undefinedע״ו", "סימן undefined״ז", "סימן undefinedע״ח", "סימן ?", "סימן undefined״פ"]


def rows(labels=BROKEN, first=670):
    """Catalog rows of one seif a siman, from first on, each with a label as the source gave it and its ref."""
    return [("sa", ["אורח חיים", label, "סעיף א"], f"{OC} {first + i}:1") for i, label in enumerate(labels)]


def test_orach_chayim_670_to_680_are_labelled_from_their_numbers_whatever_the_source_said():
    [work] = catalog([DocumentInfo("sa", "Shulchan Arukh", "json", "h", chunk_count=11)], rows())
    assert [(s["title"], s["number"]) for s in work["sections"]] == list(zip(EXPECTED, range(670, 681)))
    assert all(s["within"] == ["אורח חיים"] and s["passages"] == 1 for s in work["sections"])


@pytest.mark.parametrize("path, ref, label, number", [
    (["סימן י״ה"], None, "סימן ט״ו", 15),  # the label's own number, written as the texts write it: ט״ו, not י״ה
    (["סימן undefinedנ״ד"], f"{OC} 554:3, Rema", "סימן תקנ״ד", 554),  # the ref knows the hundreds the label lost
    (["סימן א׳", "סעיף ב"], f"{OC} 1:2", "סימן א׳", 1),
    (["פרק 3", "הלכה א"], "Mishneh Torah, Shabbat 3:1", "פרק ג׳", 3),
    (["Lesson 2: Brewing"], "Kettles and Tea, Lesson 2", "Lesson 2: Brewing", 2),  # English labels stay as written
])
def test_a_hebrew_section_label_is_written_from_its_number(path, ref, label, number):
    assert section_of(path, ref)[1:3] == (label, number)


def test_the_section_filter_reads_the_same_numbers():
    found = rows(["סימן undefinedנ״ד", "סימן נ״ד"], first=554)  # 554 as broken, then a true 555 mislabelled 54
    keyed = [(key, path, ref) for key, (_, path, ref) in enumerate(found)]
    assert section_keys(keyed, {"section": 554}) == [0] and section_keys(keyed, {"section": 54}) == []
    assert section_keys([(key, path) for key, path, _ in keyed], {"section": 54}) == [0, 1]  # without refs: labels


def test_a_source_record_s_siman_label_is_written_from_its_number():
    records = [{"ref": f"{OC} {n}:1", "siman": n, "seif": 1, "part_he": "אורח חיים", "siman_label": label,
                "he": "מדליקין נר חנוכה:"} for n, label in zip(range(670, 681), BROKEN)]
    parsed = read_json("\n".join(json.dumps(r, ensure_ascii=False) for r in records), "jsonl", "sa.jsonl")
    assert [u.labels[:2] for u in parsed.units] == [("אורח חיים", label) for label in EXPECTED]
    assert numbered("סימן", 1000) == "סימן 1000"  # no Hebrew numeral past 999: the digits


@pytest.fixture
def app(tmp_path, backend):
    return library_app({"TESTING": True, "MAX_UPLOAD_BYTES": 200_000}, tmp_path / "lib", backend=backend)


def test_the_catalog_api_shows_labels_from_the_numbers_of_a_source_without_them(app):
    records = [{"ref": f"{OC} {n}:1", "part_he": "אורח חיים", "siman_label": label, "he": f"דין {n}:"}
               for n, label in zip(range(670, 681), BROKEN)]  # no "siman": the broken labels are stored as given
    client = app.test_client()
    job = upload(client, "sa.jsonl", "\n".join(json.dumps(r, ensure_ascii=False) for r in records).encode())
    assert wait_for(client, job.get_json())["status"] == "done"
    work = next(w for w in client.get("/api/catalog").get_json()["works"] if w["work"] == "Shulchan Arukh")
    assert [(s["title"], s["number"]) for s in work["sections"]] == list(zip(EXPECTED, range(670, 681)))
    body = client.post("/api/query", json={"question": "דין", "filters": {"section": 675}}).get_json()
    assert body["passages"] and {p["ref"] for p in body["passages"]} == {f"{OC} 675:1"}
