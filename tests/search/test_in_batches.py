"""Bulk embedding in batches of like length: rows stay in the texts' order, progress is reported per batch."""
import numpy as np

from search.embedding import in_batches


class Recording:
    """Embeds a text as (its length, its first letter's code), and remembers each batch it was given."""

    dim = 2

    def __init__(self):
        self.batches = []

    def embed(self, texts):
        self.batches.append(list(texts))
        return np.array([[len(t), ord(t[0])] for t in texts], dtype=np.float32)


def test_rows_come_back_in_order_and_batches_hold_texts_of_like_length():
    texts = ["a" * n for n in (3, 40, 7, 1, 25, 9, 33, 2)]
    texts = [chr(ord("a") + i) + t for i, t in enumerate(texts)]
    fake, progress = Recording(), []
    vectors = in_batches(fake, texts, 3, progress.append)
    assert vectors.tolist() == [[len(t), ord(t[0])] for t in texts]
    assert progress == [3, 6, 8]
    assert [len(b) for b in fake.batches] == [3, 3, 2]
    lengths = [sorted(len(t) for t in batch) for batch in fake.batches]
    assert lengths == [[26, 34, 41], [4, 8, 10], [2, 3]]  # longest first, so each batch pads little


def test_no_texts_gives_no_rows_and_no_batches():
    fake = Recording()
    assert in_batches(fake, [], 64).shape == (0, 2)
    assert fake.batches == []
