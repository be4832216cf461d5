"""Filters that name documents must match one the reader may search: else a 400 that says so, the same for a book
hidden from the reader as for one that does not exist (web/query.matched)."""
from test_readers import app, ask, roles  # noqa: F401 - the readers' library and users, as fixtures

NONE = "No document you can search matches the filters"


def test_a_hidden_book_and_a_missing_one_are_refused_alike(app, roles):  # noqa: F811
    client, learner, editor = app.test_client(), roles["learner"], roles["editor"]
    for hidden, absent in (({"document_ids": [roles["kettles"]]}, {"document_ids": ["no"]}),
                           ({"tier": "private"}, {"tier": "no"})):
        refused = [ask(client, learner, filters=f) for f in (hidden, absent)]
        assert [r.status_code for r in refused] == [400, 400]
        assert {r.json["error"].split(" (")[0] for r in refused} == {NONE}
    assert ask(client, editor, filters={"document_ids": [roles["kettles"]]}).status_code == 200  # its reader may search it
