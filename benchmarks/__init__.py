"""Benchmarks: speed, memory and load, each a command that prints its figures.

commands.py        flask --app app bench | bench-ingest | bench-servers | load
benchmark.py       per-stage latency and memory on synthetic corpora; BM25 against rank_bm25
bench_ingest.py    PDF pages per minute, parsing alone and whole ingest; a book's passages per minute in book order
                   and longest first; a no-space text's peak memory
load.py            flask --app app load: N clients against a running server on this machine
bench_postgres.py  bench --backend postgres: PostgreSQL beside the embedded backend
bench_servers.py   bench-servers: one and two app servers on one PostgreSQL, with each question's CPU
"""
