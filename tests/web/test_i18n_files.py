"""The page's words (issue 36): every language file has every key English has and no other, with the same
{placeholders} and its plural forms; every language listed has its file; no English is left in index.html outside a
data-i18n key; and every key the page's scripts and markup name has words. Read from the files, no browser."""
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "static"
WORDS = STATIC / "i18n"
LANGUAGES = json.loads((WORDS / "languages.json").read_text(encoding="utf-8"))
CODES = [entry["code"] for entry in LANGUAGES]
ENGLISH = json.loads((WORDS / "en.json").read_text(encoding="utf-8"))
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}
# Text that is the same in every language: the product's name, a licence's, a close button and separators.
UNTRANSLATED = {"Evidenz", "CC BY-SA 4.0", "✕", "·"}
ATTRIBUTES = {"placeholder": "data-i18n-placeholder", "title": "data-i18n-title", "aria-label": "data-i18n-aria-label"}
VARIANTS = (".law", ".general")  # the library's two wordings of a key (wording.js)


def words(code: str) -> dict:
    return json.loads((WORDS / f"{code}.json").read_text(encoding="utf-8"))


def placeholders(value) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {name for text in texts for name in PLACEHOLDER.findall(text)} - {"n"}


def has_words(key: str) -> bool:
    """A key has words in English itself, or in both its wordings."""
    return key in ENGLISH or all(key + variant in ENGLISH for variant in VARIANTS)


def test_every_language_listed_has_its_file_and_every_file_is_listed():
    files = {path.stem for path in WORDS.glob("*.json")} - {"languages"}
    assert set(CODES) == files and CODES[0] == "en"
    assert all(entry["dir"] in ("ltr", "rtl") and entry["name"] for entry in LANGUAGES)


@pytest.mark.parametrize("code", [code for code in CODES if code != "en"])
def test_a_language_has_the_keys_of_english_with_their_placeholders(code):
    other = words(code)
    assert sorted(set(ENGLISH) - set(other)) == [] and sorted(set(other) - set(ENGLISH)) == []
    for key, value in ENGLISH.items():
        assert placeholders(other[key]) == placeholders(value), key
        assert isinstance(other[key], dict) == isinstance(value, dict), key
        assert other[key], key


@pytest.mark.parametrize("code", CODES)
def test_plurals_name_only_plural_forms_and_always_other(code):
    for key, value in words(code).items():
        if isinstance(value, dict):
            assert set(value) <= PLURAL_FORMS and "other" in value, key


class PageText(HTMLParser):
    """The text and attributes of index.html that a reader sees, with whether each is given a key."""

    VOID = {"meta", "link", "input", "br", "img", "hr", "source"}

    def __init__(self):
        super().__init__()
        self.open: list[tuple[str, dict]] = []
        self.unkeyed: list[str] = []
        self.keys: set[str] = set()
        self.keyed_parents: list[str] = []  # elements with data-i18n that hold other elements

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.open and "data-i18n" in self.open[-1][1]:
            self.keyed_parents.append(self.open[-1][1]["data-i18n"])
        for attribute, keyed in ATTRIBUTES.items():
            if attribute in attrs and keyed not in attrs:
                self.unkeyed.append(f'<{tag} {attribute}="{attrs[attribute]}">')
        self.keys |= {value for name, value in attrs.items() if name.startswith("data-i18n")}
        if tag not in self.VOID:
            self.open.append((tag, attrs))

    def handle_endtag(self, tag):
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        text = " ".join(data.split())
        if not text or text in UNTRANSLATED or not self.open or self.open[-1][0] in ("script", "style", "title"):
            return
        if "data-i18n" not in self.open[-1][1]:
            self.unkeyed.append(text)


def read_page() -> PageText:
    parser = PageText()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    return parser


def test_no_english_is_left_in_the_page_outside_a_key():
    page = read_page()
    assert page.unkeyed == []
    assert page.keyed_parents == []  # translating an element replaces its text: it must hold nothing else


def test_every_key_the_page_names_has_words():
    assert sorted(key for key in read_page().keys if not has_words(key)) == []


def test_every_key_the_scripts_name_has_words():
    namespaces = {key.split(".")[0] for key in ENGLISH}
    literal = re.compile(r'"((?:%s)\.[a-z0-9_.]+)"' % "|".join(sorted(namespaces)))
    template = re.compile(r"\bt\(`([a-z_.]+)\$\{")
    missing = []
    for script in sorted(STATIC.glob("*.js")):
        source = script.read_text(encoding="utf-8")
        missing += [f"{script.name}: {key}" for key in literal.findall(source) if not has_words(key)]
        missing += [f"{script.name}: {prefix}…" for prefix in template.findall(source)
                    if not any(key.startswith(prefix) for key in ENGLISH)]
    assert missing == []
