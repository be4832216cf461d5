"""The Hebrew analyzer: every rule on real Hebrew examples, mixed text, and English left exactly as it was."""
import pytest

from hebrew import analyzer
from hebrew.analyzer import analyze, analyze_query, folded, load_abbreviations, strip_prefixes
from hebrew.normal import TO_PLAIN
from hebrew.words import tokenize


@pytest.mark.parametrize(
    "pointed, plain",
    [
        ("בְּרֵאשִׁית בָּרָא אֱלֹהִים", "בראשית ברא אלהים"),  # vowel points, dagesh, shin dot
        ("וַיֹּ֥אמֶר אֱלֹהִ֖ים", "ויאמר אלהים"),  # cantillation marks
        ("שָׁלוֹם", "שלום"),  # holam
        ("\ufb2a\ufb31\ufb4b", "שבו"),  # precomposed presentation forms (שׁ בּ וֹ)
    ],
)
def test_vowel_points_and_cantillation_are_removed(pointed, plain):
    assert folded(pointed) == plain
    assert analyze(pointed) == analyze(plain)


@pytest.mark.parametrize(
    "text, words",
    [
        ("מִן־הָאָרֶץ", ["מנ", "הארצ"]),  # maqaf separates words
        ("הָאָרֶץ׃ וַיְהִי", ["הארצ", "ויהי"]),  # sof pasuq is punctuation
        ("עַד׀ עוֹלָם", ["עד", "עולמ"]),  # paseq
    ],
)
def test_maqaf_sof_pasuq_and_paseq_separate_words(text, words):
    assert [forms[0] for forms in analyze_query(text)] == words


@pytest.mark.parametrize(
    "final, medial",
    [("מלך", "מלכ"), ("שלום", "שלומ"), ("אמן", "אמנ"), ("כסף", "כספ"), ("ארץ", "ארצ")],
)
def test_final_letters_are_unified(final, medial):
    assert analyze(final)[0] == medial
    assert analyze(final) == analyze(medial)


@pytest.mark.parametrize(
    "variant",
    ['שו"ע', "שו״ע", "שו''ע", "שו“ע", "שו”ע", "שו„ע", "שו″ע"],
)
def test_gershayim_in_every_quote_style_is_one_word(variant):
    assert analyze(variant) == analyze('שו"ע')
    assert analyze(variant)[0] == "שוע"


@pytest.mark.parametrize("variant", ["וכו'", "וכו׳", "וכו’", "וכו‘", "וכו`", "וכו′"])
def test_geresh_in_every_quote_style_is_one_word(variant):
    assert analyze(variant) == analyze("וכו'")
    assert "וכולי" in analyze(variant)


@pytest.mark.parametrize(
    "word, forms",
    [
        ("והבית", ["הבית", "בית"]),  # ו + ה
        ("בשבת", ["שבת"]),  # one prefix letter
        ("שבשבת", ["בשבת", "שבת"]),  # ש + ב
        ("לכשיבוא", ["כשיבוא", "שיבוא"]),  # ל + כ
        ("כשהגיע", ["שהגיע", "הגיע"]),  # כש
        ("מהבית", ["הבית", "בית"]),  # מ + ה
        ("הבשר", ["בשר"]),  # בש is not a pair after ה: only one letter goes
        ("בית", ["ית"]),  # two letters remain: allowed
        ("בן", []),  # one letter would remain
        ("לב", []),
        ("ומה", ["מה"]),  # ומ + one letter is too short for the pair
        ("תורה", []),  # ת is no prefix
    ],
)
def test_prefix_forms_keep_at_least_two_letters(word, forms):
    assert strip_prefixes(word) == forms
    assert analyze(word) == [word.translate(TO_PLAIN), *forms]


def test_a_query_word_with_a_prefix_is_one_word_of_alternatives():
    assert analyze_query("והבית הגדול") == [["והבית", "הבית", "בית"], ["הגדול", "גדול"]]


@pytest.mark.parametrize(
    "text, expansion",
    [
        ('שו"ע', ["שולחנ", "ערוכ"]),
        ("רמב״ם", ["רבי", "משה", "בנ", "מימונ"]),
        ('מ"ב', ["משנה", "ברורה"]),
        ("או״ח", ["אורח", "חיימ"]),
        ('יו"ד', ["יורה", "דעה"]),
        ("אה״ע", ["אבנ", "העזר"]),
        ('חו"מ', ["חושנ", "משפט"]),
        ("ס״ק", ["סעיפ", "קטנ"]),
        ('ר"ת', ["רבנו", "תמ"]),
        ("הקב״ה", ["הקדוש", "ברוכ", "הוא"]),
        ('ב"ה', ["ברוכ", "השמ"]),
        ("ע״פ", ["על", "פי"]),
        ("ביהכ''נ", ["בית", "הכנסת"]),
    ],
)
def test_abbreviations_expand_to_their_words(text, expansion):
    words = [forms[0] for forms in analyze_query(text)]
    assert words[1:] == expansion
    assert words[0] == text.translate(TO_PLAIN).replace('"', "").replace("״", "").replace("'", "")


@pytest.mark.parametrize("text", ['ובשו"ע', "והרמב״ם", 'כשו"ע', "ובמ״ב"])
def test_abbreviations_behind_prefixes_expand_too(text):
    terms = analyze(text)
    assert ("שולחנ" in terms) or ("מימונ" in terms) or ("ברורה" in terms)


def test_abbreviation_and_its_written_out_form_share_terms():
    short, full = set(analyze('לפי השו"ע')), set(analyze("לפי השולחן ערוך"))
    assert {"שולחנ", "ערוכ"} <= short & full


def test_word_without_quotes_is_not_taken_for_an_abbreviation():
    assert analyze("שוע") == ["שוע", "וע"]  # a word (a cry), not שו"ע: no שולחן ערוך


def test_unknown_abbreviation_still_matches_letter_for_letter():
    assert analyze('רשב"ץ') == analyze("רשב״ץ") == ["רשבצ"]


def test_dictionary_has_the_entries_it_promises():
    table = load_abbreviations()
    assert len(table) >= 60
    for short in ('שו"ע', 'רמב"ם', 'מ"ב', 'או"ח', 'יו"ד', 'אה"ע', 'חו"מ', 'ס"ק', 'ר"ת', 'הקב"ה', 'ב"ה', 'ע"פ', "וכו'"):
        assert folded(short).translate(TO_PLAIN) in table, short


@pytest.mark.parametrize(
    "text",
    [
        "Who discovered Penicillin?",
        "Müller's café, 1928!",
        "The U.S.A.'s GDP — “quoted” ‘text’ don't",
        "Москва и 東京",
        "naïve coöperate résumé cafe\u0301",
    ],
)
def test_words_of_other_scripts_are_analysed_exactly_as_tokenize_does(text):
    assert analyze(text) == tokenize(text)
    assert analyze_query(text) == [[t] for t in tokenize(text)]
    assert analyze(f"שלום {text}") == ["שלומ", "לומ", "ומ", *tokenize(text)]  # also beside Hebrew


def test_mixed_text_analyses_each_word_by_its_script():
    terms = analyze("Shulchan Arukh, בשבת 2:3 Rabbi's ס״ק")
    assert terms[:2] == ["shulchan", "arukh"]  # English as before
    assert terms[2:4] == ["בשבת", "שבת"]
    assert terms[4:8] == ["2", "3", "rabbi", "s"]
    assert terms[8:] == ["סק", "סעיפ", "קטנ"]


def test_hebrew_glued_to_latin_or_digits_is_split_at_the_script():
    assert analyze("לCORALOGIX 12שנים") == ["ל", "coralogix", "12", "שנימ", "נימ"]


@pytest.mark.parametrize("question", ["מה", "מי", "איזה", "באיזו", "וכמה", "האם", "מתי", "לאילו"])
def test_hebrew_question_words_are_left_out_of_queries(question):
    assert analyze_query(f"{question} שנה") == [["שנה", "נה"]]
    assert analyze(f"{question} שנה")[0] != "שנה"  # but passages keep them


def test_a_word_that_only_ends_like_a_question_word_stays():
    assert analyze_query("שמה")[0][0] == "שמה"  # ש + מה is a word (her name, there), not "what"


def test_version_names_the_dictionary(tmp_path, monkeypatch):
    before = analyzer.version()
    other = tmp_path / "abbreviations.tsv"
    other.write_text('שו"ע\tשולחן ערוך\n', encoding="utf-8")
    monkeypatch.setattr(analyzer, "ABBREVIATIONS", other)
    analyzer.version.cache_clear()
    try:
        assert analyzer.version() != before and analyzer.version().startswith(analyzer.VERSION)
    finally:
        monkeypatch.undo()
        analyzer.version.cache_clear()
    assert analyzer.version() == before
