"""What one question costs in CPU, and where it goes: the real pipeline over the configured library, in this
process, one question at a time, with the models' layers (the classifier's, the embedder's, the judge's) in torch
and then in ONNX Runtime (search/runtime.py), as MODEL_RUNTIME=onnx runs them, each on the threads a server gives it.

Per runtime: the process's CPU per question (every thread's, read by time.process_time) and its wall p50, and the
CPU of each model call (the classifier, the embedder, the judge) and of the rest. Then how the two runtimes' answers
agree: the same decision (answer or decline) and the same text (so the same sentences chosen). Each runtime first
asks a few warm-up questions, so that neither pays for pages read from disk or a first call's set-up.
Does not: serve HTTP (`load` measures a server) or change the library (the ingest worker stays off).
"""
import statistics
import time

from search.compute import configure
from search.runtime import switch


class Timed:
    """A callable that adds the process CPU seconds its calls take to a total."""

    def __init__(self, function, totals: dict, name: str):
        self.function, self.totals, self.name = function, totals, name

    def __call__(self, *args, **kwargs):
        started = time.process_time()
        try:
            return self.function(*args, **kwargs)
        finally:
            self.totals[self.name] = self.totals.get(self.name, 0.0) + time.process_time() - started


def judge_of(pipeline):
    """The offline writer's judge (the answer check holds the same one), or None."""
    return getattr(pipeline.generator.writers["offline"], "judge", None)


def timing(pipeline, totals: dict) -> list[tuple]:
    """Put Timed wrappers around the pipeline's model calls (on the instances: nothing else changes); returns
    (instance, method) of each, for taking them off."""
    calls = [(pipeline.classifier, "classify", "classifier"), (pipeline.retriever.embedder, "embed", "embedder"),
             (judge_of(pipeline), "score", "judge")]
    wrapped = [(owner, method) for owner, method, _ in calls if owner is not None]
    for owner, method, part in calls:
        if owner is not None:
            setattr(owner, method, Timed(getattr(owner, method), totals, part))
    return wrapped


def asked(pipeline, questions: list[str]) -> tuple[dict, list]:
    """Ask every question once; the figures and each answer's (declined, text)."""
    totals, walls, answers = {}, [], []
    wrapped = timing(pipeline, totals)
    started = time.process_time()
    for question in questions:
        wall = time.perf_counter()
        answer = pipeline.ask(question).answer
        walls.append(1000 * (time.perf_counter() - wall))
        answers.append((answer.declined, answer.text))
    cpu = time.process_time() - started
    n = len(questions)
    parts = {name: round(1000 * seconds / n, 1) for name, seconds in sorted(totals.items())}
    parts["rest"] = round(1000 * cpu / n - sum(parts.values()), 1)
    for owner, method in wrapped:  # the wrappers go: the next runtime times its own calls
        delattr(owner, method)
    return {"questions": n, "cpu_ms_per_question": round(1000 * cpu / n, 1),
            "wall_p50_ms": round(statistics.median(walls), 1), "cpu_ms_by_part": parts}, answers


def encoders(pipeline) -> list:
    """The Hugging Face encoders under the classifier and the embedder."""
    return [pipeline.classifier.encoder, pipeline.retriever.embedder.model[0].auto_model]


def compare(pipeline, questions: list[str], warm_up: int = 5, threads: int = 0) -> dict:
    """Each runtime's figures over the questions, and how their answers agree; threads: TORCH_THREADS, which each
    runtime reads as a server does (search/compute.py: 0 is every core in torch, one in ONNX Runtime)."""
    judge = judge_of(pipeline)
    exported = judge.exported if judge is not None else None
    accelerated = exported is not None or any(hasattr(e, "onnx_forward") for e in encoders(pipeline))
    figures, answers = {}, {}
    for runtime in ("torch", "onnx") if accelerated else ("torch",):  # onnx: only what MODEL_RUNTIME made so
        used = configure(threads, runtime)  # before the first onnx call, which makes the sessions on these threads
        if judge is not None:
            judge.exported = exported if runtime == "onnx" else None
        for encoder in encoders(pipeline):
            switch(encoder, runtime)
        for question in questions[:warm_up]:
            pipeline.ask(question)
        pipeline.retriever.embedder.forget()  # each runtime embeds the questions itself
        figures[runtime], answers[runtime] = asked(pipeline, questions)
        figures[runtime]["threads_a_call"] = used
    if len(answers) == 2:
        pairs = list(zip(answers["torch"], answers["onnx"]))
        figures["agreement"] = {"decisions": round(sum(a[0] == b[0] for a, b in pairs) / len(pairs), 4),
                                "answers": round(sum(a == b for a, b in pairs) / len(pairs), 4)}
    return figures
