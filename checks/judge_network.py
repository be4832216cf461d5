"""The judge's network (checks/judge.py builds and loads it): a base encoder's embeddings and first layers, the lower
ones frozen and the upper ones trained, and a head on the mean of the pair's token states; a span head beside it,
when trained with one (training/judge_span.py).

Its parts are separate steps, so training computes the frozen layers' states once (`lower`), then runs only the
trained ones (`upper`), and ONNX Runtime runs everything after the embeddings (`through`; search/runtime.py).
Does not: tokenize, load weights or score (checks/judge.py does).
"""
import torch

from search.runtime import additive


class Judge(torch.nn.Module):
    """Embeddings -> frozen lower layers -> trained upper layers -> mean of token states -> one logit."""

    def __init__(self, encoder, layers: int, trained_layers: int, span: bool = False):
        super().__init__()
        self.embeddings = encoder.embeddings
        self.layers = torch.nn.ModuleList(encoder.encoder.layer[:layers])
        self.frozen = layers - trained_layers
        self.dropout = torch.nn.Dropout(0.1)
        self.head = torch.nn.Linear(encoder.config.hidden_size, 1)
        self.span = torch.nn.Linear(encoder.config.hidden_size, 2) if span else None

    def lower(self, input_ids, attention_mask):
        """The token states after the frozen layers (what training computes once per pair)."""
        return self.frozen_layers(self.embeddings(input_ids=input_ids), attention_mask)

    def frozen_layers(self, states, attention_mask):
        """The token states after the frozen layers, from the embeddings' output."""
        mask = additive(attention_mask)
        for layer in self.layers[:self.frozen]:
            states = layer(states, attention_mask=mask)
        return states

    def through(self, states, attention_mask):
        """The logit from the embeddings' output: every layer, pooling and the head (what a runtime runs)."""
        return self.upper(self.frozen_layers(states, attention_mask), attention_mask)

    def top(self, states, attention_mask):
        """The token states after the trained layers, from the frozen layers' states."""
        mask = additive(attention_mask)
        for layer in self.layers[self.frozen:]:
            states = layer(states, attention_mask=mask)
        return states

    def pooled_logit(self, states, attention_mask):
        """The logit from the top token states: mean pooling and the head."""
        weights = attention_mask.unsqueeze(-1).to(states.dtype)
        pooled = (states * weights).sum(dim=1) / weights.sum(dim=1)
        return self.head(self.dropout(pooled)).squeeze(-1)

    def upper(self, states, attention_mask):
        """The logit from the frozen layers' states: the trained layers, mean pooling and the head."""
        return self.pooled_logit(self.top(states, attention_mask), attention_mask)

    def forward(self, input_ids, attention_mask, **_):
        return self.upper(self.lower(input_ids, attention_mask), attention_mask)
