"""Files become passages: parsing and the readers, structure, sizing and chunking, jobs, corpora, the default library.

parsers.py         one upload -> text and metadata, or a refusal: allowlist against content, size, the readers
records.py         Parsed, Unit, Limits and RejectedFile, shared by parsing and the readers
pdf_reader.py      PDF text from a sandboxed child (pdf_worker.py) with memory, CPU and time limits
docx_reader.py     DOCX after zip-bomb checks; headings kept
html_reader.py     HTML without scripts and page furniture; headings kept
json_reader.py     Sefaria exports, per-seif records with refs (the Rema's gloss its own unit), record lists
notebook_reader.py Jupyter notebooks: markdown and code cells under their headings, outputs left out
table_reader.py    CSV and TSV: each row a passage of column: value lines, named by its first cell
structure.py       structure-aware pieces: סימן/סעיף/הלכה/פרק, chapters, lessons, headings -> refs
sizing.py          size rules inside a section: paragraphs to 300-600 tokens, windows of 800, overlap 50
chunking.py        sentence-aware chunks of short articles (sentences from checks/splitting.py)
jobs.py            ingest and re-index jobs: parse, chunk, embed, commit in one transaction; resume after a kill
corpus.py          BEIR-style corpora (the default library, dev sets) as library passages
default_library.py fetches and converts the default Wikipedia library
commands.py        flask --app app ingest-default | ingest-corpus | ingest [--questions] | add-questions
questions.py       questions written beside a book's passages: read, embedded and kept with the documents they fit
relation_import.py flask --app app relations import | list: relations between passages from JSONL
course.py          course scripts: the course's title, link and instructor, each lesson's number, title and link
warming.py         each passage's sentence vectors, kept at a build and by each job; the worker's repair between jobs
apart.py           every upload read on a clock in a spawned child (a file under 64 KB in the worker)
"""
