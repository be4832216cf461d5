"""The README is a front door of at most 150 lines, and every relative link of it and of the manual (docs/) leads
to a file that is there, and to a heading of that file when it names one."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, spaces to hyphens, punctuation dropped."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150
    assert any(line.startswith("make run") for line in lines) and any(line.startswith("make test") for line in lines)


def test_every_relative_link_resolves():
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):  # http:, mailto: ...
                continue
            path, _, anchor = target.partition("#")
            found = (page.parent / path).resolve() if path else page
            if not found.exists() or (anchor and anchor not in anchors(found)):
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert broken == []
    assert len(PAGES) > 5 and all(LINK.search(p.read_text(encoding="utf-8")) for p in PAGES)  # each page links
