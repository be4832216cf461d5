"""The second look over books with refs: a passage counts with its section's best candidates."""
import numpy as np
import pytest

from search.section_look import section_of, with_sections


@pytest.mark.parametrize("ref, section", [
    ("Shulchan Arukh, Orach Chayim 318:12", "Shulchan Arukh, Orach Chayim 318"),
    ("Shulchan Arukh, Orach Chayim 318:12, Rema", "Shulchan Arukh, Orach Chayim 318"),
    ("Mishneh Torah, Shabbat 3:1:2", "Mishneh Torah, Shabbat 3:1"),
    ("Genesis 1:1", "Genesis 1"),
    ("Shulchan Arukh, Orach Chayim 318", None),  # a siman's own ref has no section above it here
    ("Alexander_Fleming#0", None),
    (None, None),
])
def test_a_refs_section_is_its_numbers_but_the_last(ref, section):
    assert section_of(ref) == section


def test_a_seif_whose_siman_has_other_good_candidates_overtakes_a_stray_one():
    refs = ["Shulchan Arukh, Orach Chayim 511:2, Rema", "Shulchan Arukh, Orach Chayim 318:12",
            "Shulchan Arukh, Orach Chayim 318:13", "Shulchan Arukh, Orach Chayim 318:4", "Alexander_Fleming#0"]
    fused = np.array([0.90, 0.88, 0.87, 0.80, 0.95])
    scored = with_sections(fused, refs, weight=0.5, depth=3)
    assert scored[1] > scored[0]  # 318's three candidates together outweigh 511's one
    assert scored[4] == fused[4]  # a passage without a ref keeps its score
    assert scored[0] == pytest.approx(0.90 + 0.5 * 0.90 / 3)  # missing candidates of a section count 0
    assert scored[1] == pytest.approx(0.88 + 0.5 * (0.88 + 0.87 + 0.80) / 3)
    assert np.argsort(-scored[1:4]).tolist() == [0, 1, 2]  # within the siman, the seifim keep their order


def test_weight_zero_changes_nothing():
    fused = np.array([0.3, 0.2])
    assert with_sections(fused, ["A 1:1", "A 1:2"], weight=0.0).tolist() == fused.tolist()
