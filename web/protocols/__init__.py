"""The protocols other tools speak, beside our own API: the Model Context Protocol and OpenAI's chat completions.

mcp_server.py  search, fetch and ask over the Model Context Protocol; `flask --app app mcp` serves them on stdio
mcp_http.py    /mcp: the same tools over MCP's Streamable HTTP, for the signed-in reader
openai_api.py  /v1/chat/completions and /v1/models: Evidenz as a model for OpenAI-compatible chat apps
"""
