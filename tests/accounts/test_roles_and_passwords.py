"""Roles, tiers, visibility, passwords and tokens: the rules every endpoint applies."""
import pytest

from accounts.passwords import check_new_password, check_password, digest, hash_password, new_token
from accounts.roles import OWNER, ROLES, TIERS, Reader, check_tiers, default_tiers


def reader(role, user_id=7, tiers=None):
    return Reader(user_id, role, role, frozenset(tiers or default_tiers(role)))


def test_a_document_is_seen_by_its_owner_or_through_its_tier():
    learner, admin = reader("learner"), reader("admin")
    assert learner.sees(None, "canonical") and learner.sees(None, None)  # no tier: public
    assert not learner.sees(None, "private") and not learner.sees(3, "academic")
    assert learner.sees(7, "private")  # their own upload
    assert admin.sees(3, "private") and OWNER.sees(3, "restricted")


def test_each_role_has_the_permissions_the_issue_names():
    assert reader("learner").permissions == {"ask", "history", "feedback"}
    assert reader("posek").may("review") and reader("reviewer").may("relations")
    assert not reader("posek").may("upload") and reader("editor").may("remove") and not reader("editor").may("users")
    assert set(default_tiers("researcher")) > set(default_tiers("learner"))
    assert set(default_tiers("advanced")) > set(default_tiers("learner"))
    assert reader("admin").may("users") and set(default_tiers("admin")) == set(TIERS)
    assert all(not reader(r).sees_all_history() for r in ("learner", "advanced", "researcher", "editor"))
    assert all(reader(r).sees_all_history() for r in ("posek", "reviewer", "admin")) and OWNER.sees_all_history()
    assert set(ROLES) == {"learner", "advanced", "researcher", "posek", "reviewer", "editor", "admin"}


def test_tiers_are_checked_and_ordered():
    assert check_tiers(["private", "canonical", "canonical"]) == ("canonical", "private")
    with pytest.raises(ValueError, match="secret"):
        check_tiers(["secret"])


def test_passwords_are_salted_scrypt_and_checked_in_constant_time():
    first, second = hash_password("correct horse battery"), hash_password("correct horse battery")
    assert first != second and first.startswith("scrypt$16384$8$1$")
    assert check_password("correct horse battery", first) and not check_password("correct horse batterY", first)
    assert not check_password("x", None) and not check_password("x", "md5$abc") and not check_password("x", "garbage")
    with pytest.raises(ValueError):
        check_new_password("short")


def test_tokens_are_random_and_stored_as_digests():
    a, b = new_token(), new_token()
    assert a != b and a.startswith("evz_") and len(a) > 40
    assert digest(a) == digest(a) != digest(b) and a not in digest(a) and len(digest(a)) == 64
