"""The checks an answer passes before it is shown, whichever writer drafted it; the generator calls answer.py once.

answer.py        AnswerCheck: invalid markers and unsupported claims removed, the judge's decline, the rabbi line
verify.py        claims checked: valid number, verbatim quotes, support; uncited and unsupported removed
judge.py         the answerability judge, a cross-encoder trained here
judge_network.py its network: frozen and trained layers, the head, and the span head of a try
decision.py      answer or decline, from all a look's signals
ranking.py       which candidate fits best, from all a look knows of each
agreement.py     whether a sentence agrees with the question's subject and slot
superlatives.py  whether a sentence holds the superlative asked, not narrowed to another place
sentences.py     the passages' sentences as they are read and checked, and what a question names
instructions.py  instructions planted in uploads: claims that tell the reader to act, resting only on them
markup.py        markup planted in uploads made inert where an answer leaves the page (/v1, MCP)
arithmetic.py    an answer's arithmetic lines checked, and the numbers a text states
splitting.py     the sentence splitter (Punkt)
declines.py      the fixed sentences of a decline in each language, and how a passage is named
"""
