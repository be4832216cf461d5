"""Benchmarks: speed, memory and load, each a command that prints its figures.

commands.py        flask --app app bench | bench-ingest | bench-warm | bench-question | bench-servers | load
benchmark.py       per-stage latency and memory on synthetic corpora; BM25 against rank_bm25
bench_ingest.py    PDF pages per minute, parsing alone and whole ingest; a book's passages per minute in book order
                   and longest first; a no-space text's peak memory
load.py            flask --app app load: N clients against running servers on this machine
bench_postgres.py  bench --backend postgres: PostgreSQL beside the embedded backend
bench_pg_scale.py  bench --backend postgres --scale N: a library of N chunks in PostgreSQL, searched and measured
pg_scale_build.py  loading such a library in bulk into Evidenz's schema, timed step by step
bench_warm.py      bench-warm: a library's sentence vectors warmed as a build does and as the background repair does
real_vectors.py    real vectors of real text (and real questions) for the benchmarks at size
bench_question.py  bench-question: a question's CPU by model call, the judge in torch and in ONNX Runtime, and
                   how their answers agree
bench_servers.py   bench-servers: one and two app servers on one PostgreSQL, with each question's CPU
"""
