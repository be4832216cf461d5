"""Markup planted in an upload is inert where an answer leaves the page (issue 49)."""
from checks.markup import inert


def test_tags_go_into_code_spans_and_script_links_lose_their_targets():
    planted = 'Boil it <img src=x onerror="alert(1)"> and [click here](javascript:alert(2)) or ![x](data:text/html,hi).'
    assert inert(planted) == ('Boil it `<img src=x onerror="alert(1)">` and click here (a script link, removed) or '
                              'x (a script link, removed).')
    assert inert("see javascript:alert(3)") == "see javascript\u200b:alert(3)"
    assert inert("Water boils at 100 °C [1]. 3 < 4 and 5 > 2.") == "Water boils at 100 °C [1]. 3 < 4 and 5 > 2."
    assert inert(None) is None and inert("") == ""
