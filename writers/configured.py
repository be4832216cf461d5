"""The model writers the settings name: Claude, Gemini and an OpenAI-compatible server, each when its key or server
is set, with the settings' timeout, retries and offered models; and the settings with what an admin stored over them.

Each hosted provider is a row of HOSTED: its label, the setting that makes it usable, how its writer is built.
A key or model an admin stored (storage/provider_settings.py) replaces the environment's, field by field
(`with_stored`); the base URL is the environment's only, so a stored key is never sent to an address the
environment did not name, and an environment key never to one an admin named.
Does not: choose among the writers (the generator does), build the offline writer (the pipeline does), or read
the table again when it changes (live.py does).
"""
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from configuration.settings import ProviderSettings, WriterSettings
from writers.claude import ClaudeWriter
from writers.gemini import GeminiWriter
from writers.openai_compatible import OpenAIWriter
from writers.writer import Writer


def openai_writer(p: ProviderSettings, timeout: float, retries: int) -> OpenAIWriter:
    """An OpenAI-compatible server's writer; it needs the model the server runs."""
    if not p.model:
        raise ValueError("OPENAI_BASE_URL is set but OPENAI_MODEL is not; name the model the server runs "
                         "(FLASK_OPENAI_MODEL=llama3.1:8b, for example, or set it among the providers)")
    return OpenAIWriter(p.base_url, p.model, p.api_key, timeout, retries, models=p.models)


@dataclass(frozen=True)
class Hosted:
    """A hosted provider: its label, which of its settings makes it usable, and its writer's builder."""

    label: str
    needs: str  # "api_key" or "base_url": the field that, set, makes the provider usable
    needs_setting: str  # that field's flat name, for what the page says is missing
    build: Callable[[ProviderSettings, float, int], Writer]


HOSTED = {
    "claude": Hosted("Claude", "api_key", "ANTHROPIC_API_KEY", lambda p, timeout, retries: ClaudeWriter(
        p.api_key, p.model, p.base_url, timeout, retries, models=p.models)),
    "gemini": Hosted("Gemini", "api_key", "GEMINI_API_KEY", lambda p, timeout, retries: GeminiWriter(
        p.api_key, p.model, p.base_url, timeout, retries, models=p.models)),
    "openai": Hosted("OpenAI-compatible server", "base_url", "OPENAI_BASE_URL", openai_writer),
}


def usable(name: str, provider: ProviderSettings) -> bool:
    """Whether a hosted provider's settings make a writer: its key (Claude, Gemini) or server (OpenAI) is set."""
    return bool(getattr(provider, HOSTED[name].needs))


def hosted_writer(name: str, provider: ProviderSettings, settings: WriterSettings) -> Writer | None:
    """The named provider's writer, or None when its settings do not make one; ValueError when they are wrong."""
    if not usable(name, provider):
        return None
    return HOSTED[name].build(provider, settings.llm_timeout, settings.llm_retries)


def hosted_writers(settings: WriterSettings) -> dict:
    """The model writers whose keys or servers the settings name, by provider name."""
    built = {name: hosted_writer(name, getattr(settings, name), settings) for name in HOSTED}
    return {name: writer for name, writer in built.items() if writer is not None}


def with_stored(settings: WriterSettings, stored: dict[str, dict]) -> WriterSettings:
    """The settings with each provider's stored key and model in place of the environment's, where one is set."""
    changes = {}
    for name, row in stored.items():
        if name in HOSTED:
            given = getattr(settings, name)
            changes[name] = dataclasses.replace(given, api_key=row.get("api_key") or given.api_key,
                                                model=row.get("model") or given.model)
    return dataclasses.replace(settings, **changes)
