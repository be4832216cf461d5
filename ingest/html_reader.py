"""Read an HTML page into paragraphs and Markdown headings with the standard library's html.parser.

Script, style and page furniture (nav, and header/footer outside an article) are dropped; h1-h6 become
"#" to "######" lines; p, div, li, br and other blocks end a paragraph; entities are unescaped. <title>
gives the title, <html lang> the language and <meta name="author"> the author.
Does not: run scripts, fetch anything, keep tables' layout or read text hidden by CSS.
"""
from html.parser import HTMLParser

from ingest.records import Parsed

SKIPPED = {"script", "style", "nav", "noscript", "template", "svg", "iframe", "object"}
FURNITURE = {"header", "footer"}  # the site's banner and footer; inside an article they hold its title or notes
CONTENT = {"article", "main"}
HEADINGS = {f"h{n}": n for n in range(1, 7)}
BLOCKS = {"p", "div", "li", "br", "tr", "td", "th", "ul", "ol", "dl", "dt", "dd", "table", "section", "article",
          "main", "aside", "blockquote", "pre", "figure", "figcaption", "hr", "address", "form", "body",
          "header", "footer"}


class _PageText(HTMLParser):
    """Collects a page's visible text as paragraphs, plus its title, language and author."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)  # entities arrive unescaped in handle_data
        self.blocks: list[str] = []
        self.words: list[str] = []  # the paragraph being read
        self.skipping: list[str] = []  # open skipped elements; text inside them is dropped
        self.in_content = 0  # how many <article>/<main> elements are open
        self.heading = 0  # level of the heading being read, 0 outside headings
        self.in_title = False
        self.title, self.language, self.author = "", None, None

    def close(self) -> None:
        """Finish the page, keeping the last paragraph even if its tag was never closed."""
        super().close()
        self._end_block()

    def _end_block(self) -> None:
        """Turn the words read since the last block boundary into a paragraph or heading."""
        text = " ".join("".join(self.words).split())
        if text:
            self.blocks.append("#" * self.heading + " " + text if self.heading else text)
        self.words = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        if tag == "html" and values.get("lang"):
            self.language = values["lang"]
        elif tag == "meta" and values.get("name", "").lower() == "author":
            self.author = values.get("content") or None
        elif tag in SKIPPED or (tag in FURNITURE and not self.in_content):
            self.skipping.append(tag)
        elif self.skipping:
            return
        elif tag == "title":
            self.in_title = not self.title  # the first <title> only; an <svg> may carry its own
        elif tag in HEADINGS or tag in BLOCKS:
            self.in_content += tag in CONTENT
            self._end_block()
            self.heading = HEADINGS.get(tag, 0)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.skipping:  # close it and anything left open inside it
            del self.skipping[len(self.skipping) - 1 - self.skipping[::-1].index(tag):]
        elif self.skipping:
            return
        elif tag == "title":
            self.in_title = False
        elif tag in HEADINGS or tag in BLOCKS:
            self.in_content = max(0, self.in_content - (tag in CONTENT))
            self._end_block()
            self.heading = 0

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title += data
        elif not self.skipping:
            self.words.append(data)


def read_html(text: str) -> Parsed:
    """An HTML page's visible text, paragraphs separated by a blank line, headings as Markdown."""
    page = _PageText()
    page.feed(text)
    page.close()
    title = " ".join(page.title.split()) or None
    return Parsed("\n\n".join(page.blocks), "html", title=title, author=page.author, language=page.language)
