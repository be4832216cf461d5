"""The Rema's gloss is split from its seif wherever the source marks it: from הגה to where the ruling resumes, and
a gloss in parentheses followed by its source; a source in brackets alone stays the ruling's."""
import json

from ingest.json_reader import seif_parts
from ingest.parsers import parse_file

# Shulchan Arukh, Orach Chayim 672:2 and 426:3 as ../shared/data/shulchan-arukh gives them
RESUMED = ('שכח או הזיד ולא הדליק עם שקיעת החמה מדליק והולך עד שתכלה רגל מן השוק: הגה יש אומרים שבזמן הזה '
           'שמדליקין בפנים אינו צריך ליזהר [ד"ע וטור בשם תוס\'] ומ"מ טוב ליזהר גם בזמן הזה: ומיהו הני מילי לכתחלה '
           'אבל אם עבר זה הזמן ולא הדליק מדליק והולך כל הלילה: הגה ובלילות האחרות ידליק כמו שאר בני אדם: '
           '[מצא כתוב בשם מהרי"ל ואגודה וד"ע]:')
BRACKETED = ('עד אימתי מברכין עליה עד י"ו מיום המולד ולא י"ו בכלל: (ואין לקדש אלא עד חצי כ"ט י"ב תשצ"ג מן המולד) '
             '(תשובת מהרי"ל):')


def test_the_ruling_resumes_after_its_gloss_and_keeps_its_words():
    _, ruling, gloss = seif_parts(RESUMED)
    assert ruling == ('שכח או הזיד ולא הדליק עם שקיעת החמה מדליק והולך עד שתכלה רגל מן השוק: ומיהו הני מילי '
                      'לכתחלה אבל אם עבר זה הזמן ולא הדליק מדליק והולך כל הלילה:')
    assert gloss.startswith("הגה יש אומרים") and "ומ\"מ טוב ליזהר גם בזמן הזה:" in gloss  # its source's bracket inside
    assert gloss.endswith('[מצא כתוב בשם מהרי"ל ואגודה וד"ע]:') and "ומיהו" not in gloss


def test_a_gloss_in_parentheses_is_the_remas_and_a_source_alone_is_not():
    _, ruling, gloss = seif_parts(BRACKETED)
    assert ruling == 'עד אימתי מברכין עליה עד י"ו מיום המולד ולא י"ו בכלל:'
    assert gloss == '(ואין לקדש אלא עד חצי כ"ט י"ב תשצ"ג מן המולד) (תשובת מהרי"ל):'
    _, ruling, gloss = seif_parts('מברכים עליו בורא פרי האדמה (טור) (מרדכי):')
    assert gloss == "" and ruling == 'מברכים עליו בורא פרי האדמה (טור) (מרדכי):'


def test_each_voice_is_a_unit_of_its_own_with_its_community(tmp_path):
    path = tmp_path / "sa.jsonl"
    path.write_text("\n".join(json.dumps({"ref": f"Shulchan Arukh, Orach Chayim {ref}", "he": he}, ensure_ascii=False)
                              for ref, he in (("672:2", RESUMED), ("426:3", BRACKETED))), encoding="utf-8")
    parsed = parse_file(path, path.name)
    units = {unit.ref: unit for unit in parsed.units}
    text = {ref: parsed.text[unit.start:unit.end] for ref, unit in units.items()}
    assert "ומיהו הני מילי" in text["Shulchan Arukh, Orach Chayim 672:2"]
    assert "ומיהו" not in text["Shulchan Arukh, Orach Chayim 672:2, Rema"]
    rema = units["Shulchan Arukh, Orach Chayim 426:3, Rema"]
    assert text[rema.ref].startswith("(ואין לקדש") and rema.community == "Ashkenazi"
    assert units["Shulchan Arukh, Orach Chayim 426:3"].community == "Sephardi"
