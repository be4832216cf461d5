"""What the views read from the app: the loaded services (a 503 while they load) and the answer history.

app.py keeps a Loader of the Services (pipeline, library, ingest worker) in app.extensions["rag"] and the
History in app.extensions["history"]; views reach them only through these functions.
"""
from flask import current_app

from storage.history import History
from web.errors import ApiError


def services():
    """The loaded Services, or a 503 saying why there are none yet."""
    loading = loader()
    if loading.services is None:
        if loading.error:
            raise ApiError(f"Evidenz could not load: {loading.error}", 503)
        raise ApiError("Evidenz is still loading its models and library; try again in a few seconds.", 503)
    return loading.services


def kept_history() -> History | None:
    """The app's History, or None when it keeps none."""
    return current_app.extensions.get("history")


def loader():
    """The app's Loader of the services, for health, which answers while they load."""
    return current_app.extensions["rag"]


def history() -> History:
    """The app's History, or a 503 saying it is not set up."""
    store = kept_history()
    if store is None:
        raise ApiError("This server keeps no answer history (no History configured).", 503)
    return store


def hidden_from(reader) -> frozenset[str]:
    """The documents reader may not see; a 503 while the library loads, so nothing is shown that should not be."""
    hidden = hidden_documents(reader)
    if hidden is None:
        services()  # the 503 that says why
    return hidden


def hidden_documents(reader) -> frozenset[str] | None:
    """The library's documents reader may not see (none for a fixed library); None while the library is not
    loaded, when which documents are hidden cannot be known."""
    loading = loader()
    if loading.services is None:
        return None
    store = loading.services.store
    return store.hidden_documents(reader) if store is not None else frozenset()
