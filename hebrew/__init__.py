"""Hebrew and Aramaic text, and the words of any script: detection, normalising, analysis, glossary, references.

script.py      which language a text is in; Hebrew a PDF gave back reversed, put right
normal.py      the one normaliser: points, cantillation, word separators, final letters; what models read
words.py       the plain tokenizer of every script, and content words
analyzer.py    BM25 terms: points, quotes, final letters, prefixes, abbreviations
glossary.py    a question's everyday or English words -> the texts' own words
refs.py        canonical refs in Hebrew: "Shulchan Arukh, Orach Chayim 2:3" -> שו"ע או"ח ב:ג
numerals.py    Hebrew-letter numerals, read and written
"""
