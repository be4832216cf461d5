"""Authoring: what the team writes by hand for search and the judge, gathered from the writers and checked by script.

seif_questions.py    the lay questions written beside every seif (data/seif-questions/): gathered, checked, kept apart
                     from data/lay-questions' test split
lessons.py           the judge's lessons (data/judge-lessons/): questions over passages with the sentence that answers
                     them, or none; their twins; the split that keeps a third of the leads unseen
commands.py          flask --app app seif-questions | judge-lessons (gather the writers' shares, check, report)
"""
