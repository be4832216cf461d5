"""The process's torch: how many threads one model call uses, and whether model calls take turns.

A server answers several questions at once, and each question calls models (the classifier, the embedder, the
judge). Two ways to share a machine's cores between them:
- one thread per call (TORCH_THREADS=1): calls run side by side, one core each, and one question is no faster
  than one core;
- every core per call (TORCH_THREADS=0 in torch, or the number of cores): calls take turns (`turn`), each on all
  the cores, so a question alone gets the whole machine, and under load questions queue for the models instead of
  every call spreading over all cores and fighting the others' threads.
With MODEL_RUNTIME=onnx (the default), TORCH_THREADS=0 means one thread a call: ONNX Runtime ran a question as fast
on one thread as on two, so calls run side by side, a core each.
Does not: load models (embedding.py, checks/judge.py, question/classifier.py do) or choose the web server's threads.
"""
import contextlib
import os
import threading

_lock = threading.Lock()
_taking_turns = False


def configure(threads: int, runtime: str = "torch") -> int:
    """Set torch (and the ONNX Runtime sessions made after it) to threads per call, taking turns when that is more
    than one; returns the count. 0 chooses by runtime: in torch every core (a lone question is faster on both), in
    ONNX Runtime one (a second thread saved no time and cost 40% more CPU: docs/hardening.md), calls side by side."""
    import torch

    global _taking_turns
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    count = int(threads) if int(threads) > 0 else (1 if runtime == "onnx" else cores)
    torch.set_num_threads(count)
    _taking_turns = count > 1
    return count


def turn():
    """Held around one model call: the lock when calls take turns, else nothing."""
    return _lock if _taking_turns else contextlib.nullcontext()
