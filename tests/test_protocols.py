"""Both backends implement the declared interfaces (storage/protocols.py): every method, with the same parameters.

The classes are compared by signature, so a method added to one backend and not the other fails here; real
instances of both backends (an embedded library and history, and PostgreSQL's) pass isinstance().
"""
import inspect

import pytest

from models import Document

from postgres.accounts import PgAccounts
from postgres.history import PgHistory
from postgres.library import PgLibrary
from postgres.provider_settings import PgStoredProviders
from postgres.relation_store import PgRelations
from postgres.store import PgStore
from search.library import Library
from storage import protocols
from storage.accounts import Accounts
from storage.history import History
from storage.provider_settings import StoredProviders
from storage.relation_store import Relations
from storage.store import Store

IMPLEMENTATIONS = {
    protocols.Store: (Store, PgStore),
    protocols.History: (History, PgHistory),
    protocols.Accounts: (Accounts, PgAccounts),
    protocols.StoredProviders: (StoredProviders, PgStoredProviders),
    protocols.Relations: (Relations, PgRelations),
    protocols.Library: (Library, PgLibrary),
}


def members(protocol) -> dict[str, object]:
    """The methods and properties a protocol declares."""
    return {name: value for name, value in vars(protocol).items()
            if not name.startswith("_") and (callable(value) or isinstance(value, property))}


def parameters(member) -> list[tuple[str, object]]:
    """A method's parameter names and defaults (a property's: none)."""
    if isinstance(member, property):
        return []
    return [(p.name, p.default) for p in inspect.signature(member).parameters.values()]


@pytest.mark.parametrize("protocol", IMPLEMENTATIONS, ids=lambda p: p.__name__)
def test_each_backend_has_every_method_of_the_protocol_with_its_parameters(protocol):
    declared = members(protocol)
    assert declared, f"{protocol.__name__} declares nothing"
    for cls in IMPLEMENTATIONS[protocol]:
        for name, member in declared.items():
            assert hasattr(cls, name), f"{cls.__name__} lacks {name}"
            mine = inspect.getattr_static(cls, name)
            assert isinstance(mine, property) == isinstance(member, property), f"{cls.__name__}.{name}"
            assert parameters(mine) == parameters(member), f"{cls.__name__}.{name} differs from {protocol.__name__}'s"


def test_a_method_one_backend_lacks_is_found():
    class Partial:
        def get(self, relation_id: int):
            return None

    assert "of" in members(protocols.Relations) and not hasattr(Partial, "of")
    assert not isinstance(Partial(), protocols.Relations)


def test_real_instances_of_both_backends_pass_isinstance(backend, tmp_path):
    library = backend.build([Document("a", "A", "Alexander Fleming discovered penicillin.")])
    history = History(tmp_path / "h.sqlite3") if backend.db is None else PgHistory(backend.db)
    for instance, protocol in ((library, protocols.Library), (library.store, protocols.Store),
                               (library.relations, protocols.Relations), (history, protocols.History),
                               (history.accounts, protocols.Accounts),
                               (history.provider_settings, protocols.StoredProviders)):
        assert isinstance(instance, protocol), f"{type(instance).__name__} is not a {protocol.__name__}"
