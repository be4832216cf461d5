"""Answer writers: the prompt, the hosted providers with their one retry layer, the offline writer.

writer.py            Writer, the interface with its capability flags, and ProviderError
prompt.py            the system prompt, answer styles, the evidence block, CANNOT_ANSWER in each language
hosted.py            what the hosted writers share: the guard around each call, statements
openai_compatible.py any OpenAI-compatible server (Ollama, llama.cpp, vLLM)
claude.py            Claude: passages as search_result blocks, native citations mapped back
gemini.py            Gemini: a JSON answer schema, validated, streamed sentence by sentence
resilience.py        retries with backoff and jitter, Retry-After, the circuit breaker
offline.py           the offline writer: cited sentences of the passages, or an honest decline
configured.py        the hosted writers a config names, and the keys and models an admin stored over it
live.py              the writers a server answers with, rebuilt when an admin changes a provider's key or model
tools.py             the library as tools for a model writer: search_library, get_passage, list_works
research.py          a model writer that searches for itself: the bounded loop of tool calls
answering.py         which sentence answers: the judge's reading of the best candidates and their agreement
reference.py         the editor's reference: an answering sentence that refers back opens with it in brackets
calculation.py       calculation questions answered offline: each figure cited, the arithmetic shown
"""
