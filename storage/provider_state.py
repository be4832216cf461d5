"""Each model provider's last state (its circuit and last call), kept in the history file by whichever worker
called the provider last, so that every worker's /api/health says the same. The table is schema 2 of the
history file (storage/history.py migrates it).
Does not: decide anything about a provider (writers/resilience.py does), or keep more than the last state.
"""


def save(history, name: str, state: dict) -> None:
    """Keep a provider's state (circuit, last call) for every worker's health."""
    history.save_provider_state(name, state)


def load(history) -> dict[str, dict]:
    """The providers' last states by name."""
    return history.load_provider_states()
