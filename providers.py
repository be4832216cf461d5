"""Writers backed by hosted models: Anthropic Claude (`anthropic`) and Google Gemini (`google-genai`).

Each sends the prompt of generator.py with a max_tokens bound and an explicit timeout (Gemini
at temperature 0.1; the current Claude Messages API takes no temperature); retries (with backoff) happen in one layer only, the SDK's own, bounded by `retries`.
Any failure after that becomes a ProviderError, which the Generator answers by falling back to
the offline writer. Base URLs are configurable, which is also how the tests reach local stand-ins.
"""
import logging

from generator import ProviderError, build_prompt
from models import Hit

log = logging.getLogger(__name__)

TEMPERATURE = 0.1
MAX_TOKENS = 1024


class ClaudeWriter:
    """Answers with a Claude model through the Messages API."""

    name = "claude"

    def __init__(self, api_key: str, model: str, base_url: str | None = None, timeout: float = 30.0, retries: int = 2):
        import anthropic

        self.model = model
        self.errors = (anthropic.APIError,)
        self.client = anthropic.Anthropic(api_key=api_key, base_url=base_url or None, timeout=timeout, max_retries=retries)

    def write(self, question: str, query_type: str, hits: list[Hit]) -> str:
        """The model's answer text to the prompt for hits."""
        system, user = build_prompt(question, query_type, hits)
        try:
            message = self.client.messages.create(
                model=self.model,
                max_tokens=MAX_TOKENS,  # no temperature: the current Messages API no longer takes one
                system=system,
                messages=[{"role": "user", "content": user}],
            )
        except self.errors as exc:
            raise ProviderError(f"Claude: {type(exc).__name__}") from exc
        return "".join(block.text for block in message.content if block.type == "text")


class GeminiWriter:
    """Answers with a Gemini model through google-genai's generate_content."""

    name = "gemini"

    def __init__(self, api_key: str, model: str, base_url: str | None = None, timeout: float = 30.0, retries: int = 2):
        import httpx2
        from google import genai
        from google.genai import errors, types

        self.model = model
        self.types = types
        self.errors = (errors.APIError, httpx2.HTTPError)
        options = types.HttpOptions(
            base_url=base_url or None,
            timeout=int(timeout * 1000),  # milliseconds
            retry_options=types.HttpRetryOptions(attempts=retries + 1, initial_delay=0.5, max_delay=8.0),
        )
        self.client = genai.Client(api_key=api_key, http_options=options)

    def write(self, question: str, query_type: str, hits: list[Hit]) -> str:
        """The model's answer text to the prompt for hits."""
        system, user = build_prompt(question, query_type, hits)
        config = self.types.GenerateContentConfig(
            system_instruction=system, temperature=TEMPERATURE, max_output_tokens=MAX_TOKENS
        )
        try:
            response = self.client.models.generate_content(model=self.model, contents=user, config=config)
        except self.errors as exc:
            raise ProviderError(f"Gemini: {type(exc).__name__}") from exc
        return response.text or ""
