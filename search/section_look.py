"""A second look over a book with canonical refs: a passage counts with the best passages of its section.

A lay question names a situation; the siman that rules on it has several seifim that speak of it, while a
stray seif elsewhere may share the question's words by chance (a Yom Tov gloss on heating water, for "may I heat
water on Shabbat"). So each candidate's fused score gets WEIGHT times the mean of the best DEPTH fused scores of
its section's candidates (missing ones count 0): the siman is found by its seifim together, and the seif within
it by its own score. A passage's section is its ref without the last number ("Shulchan Arukh, Orach Chayim 318:12,
Rema" -> "Shulchan Arukh, Orach Chayim 318"); passages without such a ref are left as they are.
Measured in the README ("Hebrew and Aramaic", the second look). Does not: read passages outside the candidates.
"""
import re

import numpy as np

SECTIONED = re.compile(r"^(?P<section>.+ \d+(?::\d+)*):\d+(?:, [^,\d]+)?$")  # "<work> 318:12" or "... 318:12, Rema"
WEIGHT, DEPTH = 0.5, 3


def section_of(ref: str | None) -> str | None:
    """The section of a canonical ref (its numbers but the last), or None when it has none."""
    match = SECTIONED.match(ref or "")
    return match["section"] if match else None


def with_sections(fused: np.ndarray, refs: list[str | None], weight: float = WEIGHT, depth: int = DEPTH) -> np.ndarray:
    """fused plus weight times the mean of the best depth fused scores of each candidate's section."""
    sections = [section_of(ref) for ref in refs]
    best: dict[str, list[float]] = {}
    for section, score in zip(sections, fused):
        if section is not None:
            best.setdefault(section, []).append(float(score))
    support = {s: sum(sorted(scores, reverse=True)[:depth]) / depth for s, scores in best.items()}
    return fused + weight * np.array([support.get(s, 0.0) if s is not None else 0.0 for s in sections])
