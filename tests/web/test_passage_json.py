"""A passage as the API shows it says whose ruling or custom it records, its era, authority and tier."""
from models import Chunk, Hit
from web.shaping import passage_json

GLOSS = Chunk("sa#2", "sa", "Shulchan Arukh", "הגה ויכסה כל גופו:", 40, 58, ("סעיף ו", "הגה"),
              "Shulchan Arukh, Orach Chayim 2:6, Rema", "Shulchan Arukh, Orach Chayim 2:6", "Ashkenazi", "Acharonim",
              1.0, "canonical")


def test_a_passage_shows_its_community_era_authority_and_tier(app):
    with app.app_context():
        shown = passage_json(1, Hit(GLOSS, 3.2, 0.81, 0.9))
        plain = passage_json(2, Hit(Chunk("fleming#0", "fleming", "Alexander Fleming", "He discovered penicillin.", 0, 25),
                                    1.0, 0.5, 0.6))
    assert {k: shown[k] for k in ("community", "era", "authority_weight", "tier")} == {
        "community": "Ashkenazi", "era": "Acharonim", "authority_weight": 1.0, "tier": "canonical"}
    assert shown["ref_he"] == 'שו"ע או"ח ב:ו רמ"א'
    assert {k: plain[k] for k in ("community", "era", "authority_weight", "tier")} == {
        "community": None, "era": None, "authority_weight": 0.0, "tier": None}  # nothing known: the page shows nothing


def test_the_api_sends_them_for_every_passage(client):
    passages = client.post("/api/query", json={"question": "Who discovered penicillin?"}).json["passages"]
    assert all({"community", "era", "authority_weight", "tier"} <= set(p) for p in passages)
