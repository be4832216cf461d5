"""What happens to a question before search: its type, and a follow-up rewritten into a standalone question.

classifier.py  QueryClassifier: encoder + dropout + linear head (factual_lookup, explanation, reasoning, calculation)
quantity.py    a measure a rule sets ("how much matzah must one eat") is looked up, not calculated
rewrite.py     a follow-up rewritten by the configured model, its reply checked, else by the rules
follow_up.py   the written rules: is it a follow-up, and its standalone form
scope.py       a question naming a section ("lesson 2 of that course"): the filters of its search
subjects.py    a question naming two subjects ("compare X and Y"): a search for each, answered apart
asks.py        what a question asks for (its slot) and what it is about (its subject), by written rules
referents.py   a follow-up's pronoun replaced by what it refers to
halacha.py     whether a question is one of religious law
policy.py      how much a question searches: passages and candidates by its type and the reader's mode
work.py        one question on its way through the pipeline, and what the plain path's searches found
"""
