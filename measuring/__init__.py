"""Measuring: retrieval and answers scored on dev sets, and the sets themselves, with their commands.

commands.py        flask --app app eval | eval-lessons | check-agreement | build-pointed-set
reports.py         eval --save and eval compare: reports with their configuration and commit, figure by figure
tables.py          eval tables: the docs' measurement tables written from saved reports, and checked against them
datasets.py        BEIR queries and qrels, sampling, what qrels name a passage by
libraries.py       cached dev-set libraries, and the retriever only measuring uses (gold left out, plain baseline)
evaluate.py        retrieval metrics per mode, answer quality, abstention without the gold
metrics.py         nDCG, recall, MRR, SQuAD normalisation, answer F1, percentiles
lessons_eval.py    the English lessons' test part asked end to end over the default library (eval-lessons)
agreement_check.py how often the written subject and slot rules turn away a true answer (check-agreement)
pointed_set.py     the pointed development set: pointed verses searched with unpointed words
"""
