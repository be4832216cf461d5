"""The HTTP layer: the API's endpoints, their validation, one JSON error shape, and the page's headers.

query.py       /, /api/health, /api/query and /api/query/stream (server-sent events)
documents.py   /api/documents, /api/jobs, /api/stats: the book manager
catalog.py     /api/catalog: the works, with their sections or lessons
history.py     /api/history: search, one answer, feedback, review
similar.py     reviewed answers to similar questions: beside a new answer, and /api/history/similar
relations.py   /api/relations: relations between passages, read beside a passage, recorded by reviewers
validation.py  request bodies and parameters checked with named limits
shaping.py     the pipeline's records as the API's JSON, and the answer logged with its id
errors.py      ApiError and the one way an error becomes a response; CSP and security headers
services.py    what views read from the app: the loaded services and the history
guard.py       the Host check and the refusal of cross-site writes
auth.py        who is asking: personal owner, bearer token or session cookie (with CSRF); 401 and 403
accounts.py    /api/session, /api/me, /api/users
providers.py   /api/admin/providers: the model providers' API keys and default models, set by admins
openapi.py     /api/openapi.json: the API described in OpenAPI 3.1 (the document is built in spec/)
protocols/     the other protocols Evidenz speaks: MCP (stdio and HTTP) and the OpenAI-compatible /v1
spec/          the OpenAPI document, one module per part of the API
server.py      `flask --app app serve`: waitress, which holds slow clients without a thread
shutdown.py    SIGTERM: stop accepting, finish the requests and streams in flight, then exit
logs.py        the request log: one JSON line per request, with its id, route, status, time and the answer's timings
metrics.py     /metrics in Prometheus's text format: stage latencies, answers, circuits, jobs, library size
bodies.py      who may send a large body: only an upload, and on a shared server only a signed-in one
"""
