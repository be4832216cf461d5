"""A model's layers run by ONNX Runtime: the same weights as torch's, at less than half the CPU on this machine.

Torch runs a small encoder op by op; ONNX Runtime fuses attention, GELU and layer norm and plans the graph once.
A model is exported when it loads, in memory (under a second for the judge's six layers), and a session made at
its first call runs it on the threads torch was given (search/compute.py), without spinning between calls: an idle
thread would burn a core another question needs. The scores agree with torch's to about 1e-6
(tests/search/test_runtime.py).
MODEL_RUNTIME=torch keeps torch; so does a machine without onnxruntime, with a warning.
`accelerate` puts the same in place inside a Hugging Face encoder (the embedder's, the classifier's): its forward
looks up the embeddings in torch and runs its layers in a session, so whatever calls it (sentence-transformers'
tokenizing, prompts, pooling and normalizing) is unchanged.
Does not: tokenize, look up embeddings (a gather: torch does it) or take turns (callers hold compute.turn()).
"""
import io
import logging
import threading
import warnings

import numpy as np

log = logging.getLogger(__name__)

RUNTIMES = ("onnx", "torch")


def chosen(runtime: str) -> str:
    """The runtime that will run: onnx when asked for and installed, else torch."""
    if runtime not in RUNTIMES:
        raise ValueError(f"the setting MODEL_RUNTIME is one of {', '.join(RUNTIMES)}, not {runtime!r}")
    if runtime == "onnx":
        try:
            import onnxruntime  # noqa: F401
        except ImportError:
            log.warning("onnxruntime is not installed; the models run in torch (pip install -r requirements.txt)")
            return "torch"
    return runtime


class Exported:
    """A torch module exported to ONNX and run by an ONNX Runtime session; called with numpy arrays by name."""

    def __init__(self, module, inputs: dict, dynamic: dict[str, dict[int, str]]):
        import torch

        graph = io.BytesIO()
        with warnings.catch_warnings(), torch.inference_mode(False), torch.no_grad():
            warnings.simplefilter("ignore")  # the exporter's notes on its own future
            torch.onnx.export(module.eval(), tuple(inputs.values()), graph, input_names=list(inputs),
                              output_names=["out"], dynamic_axes={**dynamic, "out": {0: "batch"}}, opset_version=17,
                              dynamo=False)
        self.graph = graph.getvalue()
        self.names = list(inputs)
        self.session = None  # made at the first call: by then the server has set torch's threads (compute.configure)
        self.lock = threading.Lock()

    def __call__(self, **arrays: np.ndarray) -> np.ndarray:
        return self.started().run(None, {name: arrays[name] for name in self.names})[0]

    def started(self):
        """The session, made once, on as many threads as torch's."""
        import onnxruntime
        import torch

        with self.lock:
            if self.session is None:
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = torch.get_num_threads()
                options.inter_op_num_threads = 1
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
                self.session = onnxruntime.InferenceSession(self.graph, options, providers=["CPUExecutionProvider"])
                self.graph = None
            return self.session


def additive(mask):
    """An attention mask as BERT's layers add it: 0 where a token is, the lowest float where padding is."""
    import torch

    return (1.0 - mask[:, None, None, :].to(torch.float32)) * torch.finfo(torch.float32).min


def bert_shaped(encoder) -> bool:
    """Whether an encoder is embeddings then a stack of layers that take an additive mask (BERT, XLM-R), in
    float32 (an int8 one keeps torch: its quantized layers do not export)."""
    import torch

    layers = getattr(getattr(encoder, "encoder", None), "layer", None)
    return (hasattr(encoder, "embeddings") and layers is not None and len(layers) > 0
            and all(type(m) is not torch.nn.Linear or m.weight.dtype == torch.float32 for m in encoder.modules())
            and not any("quantized" in type(m).__module__ for m in encoder.modules()))


def accelerate(encoder, runtime: str = "onnx") -> bool:
    """Run a BERT-shaped Hugging Face encoder's layers in ONNX Runtime from now on (its forward replaced on this
    instance); whether it was. Anything else, or runtime "torch", keeps torch."""
    import torch
    from transformers.modeling_outputs import BaseModelOutput

    if chosen(runtime) != "onnx" or not bert_shaped(encoder):
        return False

    class Layers(torch.nn.Module):
        def __init__(self, layers):
            super().__init__()
            self.layers = layers

        def forward(self, states, mask):
            added = additive(mask)
            for layer in self.layers:
                states = layer(states, attention_mask=added)
                states = states[0] if isinstance(states, tuple) else states
            return states

    def embedded(input_ids, token_type_ids=None):
        with torch.no_grad():
            return encoder.embeddings(input_ids=input_ids, token_type_ids=token_type_ids)

    ids = torch.tensor([[0, 5, 6, 7, 2], [0, 5, 2, 1, 1]])
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
    axes = {0: "batch", 1: "tokens"}
    exported = Exported(Layers(encoder.encoder.layer).eval(), {"states": embedded(ids), "mask": mask},
                        {"states": axes, "mask": axes})

    def forward(input_ids=None, attention_mask=None, token_type_ids=None, **_):
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        states = embedded(input_ids, token_type_ids).numpy()
        out = exported(states=states, mask=attention_mask.to(torch.int64).numpy())
        return BaseModelOutput(last_hidden_state=torch.from_numpy(out))

    encoder.forward = encoder.onnx_forward = forward  # onnx_forward: kept, so a benchmark can switch back and forth
    encoder.runtime = "onnx"
    return True


def switch(encoder, runtime: str) -> None:
    """Run an accelerated encoder in runtime from now on ("torch": its own forward again); others are left."""
    fast = getattr(encoder, "onnx_forward", None)
    if fast is None:
        return
    if runtime == "onnx":
        encoder.forward = fast
    else:
        vars(encoder).pop("forward", None)
    encoder.runtime = runtime
