"""Measurement: eval, metrics, benchmarks, calibration and training, with their commands.

commands.py          flask --app app eval | bench | bench-ingest | calibrate-support | calibrate-decline | calibrate-judge
training_commands.py flask --app app train-classifier | train-reranker | train-judge | train-embedder
datasets.py          BEIR queries and qrels, sampling, what qrels name a passage by
libraries.py         cached dev-set libraries, and the retriever only evaluation uses (gold left out, plain baseline)
evaluate.py          retrieval metrics per mode, answer quality, abstention without the gold
calibrate.py         the support and decline thresholds chosen on dev sets; BM25 hard negatives
metrics.py           nDCG, recall, MRR, SQuAD normalisation, answer F1, percentiles
benchmark.py         per-stage latency and memory on synthetic corpora; BM25 against rank_bm25
bench_ingest.py      PDF pages per minute, parsing alone and whole ingest; a book's passages per minute in book order
                     and longest first; a no-space text's peak memory
load.py              flask --app app load: N clients against a running server on this machine
train_classifier.py  the query classifier's head on data/query_types.jsonl
train_reranker.py    a cross-encoder from a shipped encoder, with BM25 hard negatives
train_embedder.py    e5's upper layers fitted to the Shulchan Arukh, contrastively
embedder_pairs.py    its pairs: siman topics, glosses and glossary phrases against seifim; heq-dev's train split
judge_data.py        the judge's training and calibration pairs from QA sets (squad-dev, heq-dev)
judge_mining.py      negatives like the offline writer's mistakes, mined with our own search
train_judge.py       the answerability judge on those pairs
calibrate_judge.py   the judge's threshold, on the calibrate split, through the real pipeline
train_decision.py    the decision to answer or decline, fitted on recorded looks
agreement_check.py   how often the written subject and slot rules turn away a true answer (check-agreement)
pointed_set.py       the pointed development set: pointed verses searched with unpointed words
bench_postgres.py    bench --backend postgres: PostgreSQL beside the embedded backend
bench_servers.py     bench-servers: one and two app servers on one PostgreSQL, with each question's CPU
"""
