"""The model writers a config names: Claude, Gemini and an OpenAI-compatible server, each when its key or server is
set, with the config's timeout, retries and offered models.
Does not: choose among them (the generator does) or build the offline writer (the pipeline does).
"""
from writers.claude import ClaudeWriter
from writers.gemini import GeminiWriter
from writers.openai_compatible import OpenAIWriter


def hosted_writers(config) -> dict:
    """The model writers whose keys or servers the config names, by provider name."""
    writers, timeout, retries = {}, config["LLM_TIMEOUT"], config["LLM_RETRIES"]
    if config["ANTHROPIC_API_KEY"]:
        writers["claude"] = ClaudeWriter(
            config["ANTHROPIC_API_KEY"], config["CLAUDE_MODEL"], config["ANTHROPIC_BASE_URL"], timeout, retries,
            models=config["CLAUDE_MODELS"],
        )
    if config["GEMINI_API_KEY"]:
        writers["gemini"] = GeminiWriter(
            config["GEMINI_API_KEY"], config["GEMINI_MODEL"], config["GEMINI_BASE_URL"], timeout, retries,
            models=config["GEMINI_MODELS"],
        )
    if config["OPENAI_BASE_URL"]:
        if not config["OPENAI_MODEL"]:
            raise ValueError("OPENAI_BASE_URL is set but OPENAI_MODEL is not; name the model the server runs "
                             "(FLASK_OPENAI_MODEL=llama3.1:8b, for example)")
        writers["openai"] = OpenAIWriter(
            config["OPENAI_BASE_URL"], config["OPENAI_MODEL"], config["OPENAI_API_KEY"], timeout, retries,
            models=config["OPENAI_MODELS"],
        )
    return writers


