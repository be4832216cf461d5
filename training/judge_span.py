"""The judge's span head (a try of issue 45): where in the sentence the answer stands, SQuAD 2.0 style.

A positive whose gold answer its sentence holds is taught the answer's first and last token; a negative is taught
the first token ([CLS]), which says "no answer here"; a positive whose answer is unknown (a lesson the team wrote)
teaches the yes/no head alone. A pair's span score is its best answer span's logits less the no-answer ones.
Does not: decide anything at answer time (the decision reads the yes/no score; checks/decision.py).
"""
IGNORE = -100
LONGEST = 30  # tokens an answer span may run


def targets(encoded, batch) -> tuple[list[int], list[int]]:
    """Each pair's (first, last) answer token: [CLS] for a negative, IGNORE where unknown or cut off."""
    starts, ends = [], []
    for i, pair in enumerate(batch):
        first = last = IGNORE
        if pair.label == 0:
            first = last = 0
        elif pair.answer and (at := pair.text.casefold().find(pair.answer.casefold())) >= 0:
            end = at + len(pair.answer)
            ids = encoded.sequence_ids(i)
            offsets = encoded["offset_mapping"][i].tolist()
            inside = [t for t, (a, b) in enumerate(offsets) if ids[t] == 1 and a < end and b > at]
            if inside:
                first, last = inside[0], inside[-1]
        starts.append(first)
        ends.append(last)
    return starts, ends


def allowed(encoded, size: int):
    """Where a span may start or end: [CLS] and the sentence's tokens (not the question's, nor padding)."""
    import torch

    mask = torch.zeros(len(encoded["input_ids"]), size, dtype=torch.bool)
    for i in range(len(mask)):
        ids = encoded.sequence_ids(i)
        mask[i, 0] = True
        for t, sequence in enumerate(ids[:size]):
            mask[i, t] |= sequence == 1
    return mask


def logits(model, states, allowed_mask):
    """(start, end) logits of the top token states, the positions not allowed at the lowest float."""
    import torch

    start, end = model.span(states).unbind(-1)
    lowest = torch.finfo(start.dtype).min
    return start.masked_fill(~allowed_mask, lowest), end.masked_fill(~allowed_mask, lowest)


def loss(model, states, allowed_mask, starts, ends):
    """The span head's cross-entropy over first and last tokens (pairs whose target is unknown left out)."""
    import torch

    start, end = logits(model, states, allowed_mask)
    ce = torch.nn.CrossEntropyLoss(ignore_index=IGNORE)
    if bool((starts == IGNORE).all()):
        return start.sum() * 0.0
    return (ce(start, starts) + ce(end, ends)) / 2


def scores(model, states, allowed_mask):
    """Each pair's best answer span's start+end logits less the no-answer ones ([CLS] at both ends)."""
    import torch

    start, end = logits(model, states, allowed_mask)
    null = start[:, 0] + end[:, 0]
    start, end = start.clone(), end.clone()
    start[:, 0] = end[:, 0] = torch.finfo(start.dtype).min  # the best span is within the sentence
    grid = start[:, :, None] + end[:, None, :]
    size = grid.shape[-1]
    band = torch.ones(size, size, dtype=torch.bool).triu().logical_and(
        torch.ones(size, size, dtype=torch.bool).tril(LONGEST - 1))
    best = grid.masked_fill(~band, torch.finfo(grid.dtype).min).flatten(1).max(dim=1).values
    return best - null
