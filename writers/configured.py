"""The model writers the settings name: Claude, Gemini and an OpenAI-compatible server, each when its key or server
is set, with the settings' timeout, retries and offered models.
Does not: choose among them (the generator does) or build the offline writer (the pipeline does).
"""
from configuration.settings import WriterSettings
from writers.claude import ClaudeWriter
from writers.gemini import GeminiWriter
from writers.openai_compatible import OpenAIWriter


def hosted_writers(settings: WriterSettings) -> dict:
    """The model writers whose keys or servers the settings name, by provider name."""
    writers, timeout, retries = {}, settings.llm_timeout, settings.llm_retries
    claude, gemini, openai = settings.claude, settings.gemini, settings.openai
    if claude.api_key:
        writers["claude"] = ClaudeWriter(claude.api_key, claude.model, claude.base_url, timeout, retries,
                                         models=claude.models)
    if gemini.api_key:
        writers["gemini"] = GeminiWriter(gemini.api_key, gemini.model, gemini.base_url, timeout, retries,
                                         models=gemini.models)
    if openai.base_url:
        if not openai.model:
            raise ValueError("OPENAI_BASE_URL is set but OPENAI_MODEL is not; name the model the server runs "
                             "(FLASK_OPENAI_MODEL=llama3.1:8b, for example)")
        writers["openai"] = OpenAIWriter(openai.base_url, openai.model, openai.api_key, timeout, retries,
                                         models=openai.models)
    return writers
