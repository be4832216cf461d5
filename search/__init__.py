"""What search reads: BM25, the embedders, and the library's indexes derived from its store."""
