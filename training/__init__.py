"""Training: the models trained here and the thresholds chosen on dev sets, with their commands.

commands.py          flask --app app train-classifier | train-reranker | train-judge | train-embedder |
                     record-decisions | train-decision | calibrate-support | calibrate-decline | calibrate-judge |
                     calibrate-similar
lay_commands.py      flask --app app calibrate-across | learn-glossary | train-lay-reranker (they read our lay questions)
ranking_commands.py  flask --app app record-rankings | train-ranking
looks.py             what record-decisions and record-rankings share: the library searched, the looks written
calibrate.py         the support and decline thresholds chosen on dev sets; BM25 hard negatives
calibrate_judge.py   the judge's threshold, on the calibrate split, through the real pipeline
calibrate_across.py  the decision's threshold for a question asked across languages, on our lay questions
learn_glossary.py    everyday words mapped to the text's words, learned from the lay questions
lay_reranker.py      a Hebrew-reading cross-encoder's pairs: lay questions, hard negatives from our own search
calibrate_similar.py the cosine from which a question is one asked before, on hand-written pairs
train_classifier.py  the query classifier's head on data/query_types.jsonl
train_reranker.py    a cross-encoder from a shipped encoder, with BM25 hard negatives
train_embedder.py    e5's upper layers fitted to the Shulchan Arukh, contrastively
embedder_pairs.py    its pairs: siman topics, glosses, glossary phrases, lay questions and commentary against seifim;
                     heq-dev's train split
embedder_negatives.py  hard negatives for its lay questions, mined with our own hybrid search
judge_data.py        the judge's training and calibration pairs from QA sets (squad-dev, heq-dev)
judge_mining.py      negatives like the offline writer's mistakes, mined with our own search
judge_lessons.py     pairs from the lessons the team wrote (data/judge-lessons/) and the questions beside every seif
train_judge.py       the answerability judge on those pairs
judge_span.py        a span head beside the judge's yes/no one (a try): its targets, loss and held-out scores
train_decision.py    the decision to answer or decline, fitted on recorded looks
train_ranking.py     the ranking of the candidates that may answer, fitted on recorded candidates
"""
