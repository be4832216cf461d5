"""/metrics: the server's numbers in Prometheus's text format; on a shared server for admins only (`metrics`).

Each app keeps its own CollectorRegistry in app.extensions["metrics"], made when this blueprint is registered
(tests build many apps, and the global registry would mix them). Counted as answers are logged (shaping.logged):
- evidenz_answer_stage_seconds{stage}: histograms of classify, retrieve, generate and total, from the timings;
- evidenz_answers_total{generator, declined}: answers by the writer that wrote them, declined or not;
- evidenz_degraded_answers_total: answers written offline because the chosen provider failed.
Read at each scrape, from the loaded services:
- evidenz_loaded: 1 once the pipeline and library are loaded (nothing below is given before);
- evidenz_provider_circuit{provider, state}: 1 for the state each writer's circuit breaker is in, in this process;
- evidenz_ingest_jobs{state}: ingest and re-index jobs by status (a library that can change only);
- evidenz_library_chunks and evidenz_library_documents (documents: a library that can change only).
Does not: count requests or statuses (the request log, logs.py, has each), or push anywhere.
"""
from dataclasses import dataclass

from flask import Blueprint, Response, current_app
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

from accounts.roles import METRICS
from web.auth import require

bp = Blueprint("metrics", __name__)

STAGES = ("classify", "retrieve", "generate", "total")
# seconds; a hosted writer may take up to LLM_TIMEOUT (30 s) a try, with retries
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
CIRCUIT_STATES = ("closed", "open", "half_open")
JOB_STATES = ("queued", "running", "done", "failed")


class LiveState:
    """A collector read at each scrape: whether the server is loaded, its providers' circuits, jobs and library."""

    def __init__(self, app):
        self.app = app

    def collect(self):
        """The gauges, as they are now."""
        services = self.app.extensions["rag"].services
        yield GaugeMetricFamily("evidenz_loaded", "1 once the pipeline and library are loaded",
                                value=int(services is not None))
        if services is None:
            return
        described = services.pipeline.describe()
        circuit = GaugeMetricFamily("evidenz_provider_circuit", "1 for the state of each provider's circuit breaker",
                                    labels=["provider", "state"])
        for name, status in described["providers"].items():
            for state in CIRCUIT_STATES:
                circuit.add_metric([name, state], int(status.get("circuit") == state))
        yield circuit
        stats = services.store.stats() if services.store is not None else {}
        yield GaugeMetricFamily("evidenz_library_chunks", "passages in the library",
                                value=stats.get("chunks", described["library"]["chunks"]))
        if services.store is None:
            return
        yield GaugeMetricFamily("evidenz_library_documents", "documents in the library", value=stats["documents"])
        jobs = GaugeMetricFamily("evidenz_ingest_jobs", "ingest and re-index jobs by status", labels=["state"])
        counts = services.store.job_counts()
        for state in dict.fromkeys((*JOB_STATES, *counts)):
            jobs.add_metric([state], counts.get(state, 0))
        yield jobs


@dataclass
class Metrics:
    """One app's registry and the counters its answers feed."""

    registry: CollectorRegistry
    stages: Histogram
    answers: Counter
    degraded: Counter

    @classmethod
    def build(cls, app) -> "Metrics":
        """A fresh registry with the answer counters and the live-state collector of app."""
        registry = CollectorRegistry()
        registry.register(LiveState(app))
        stages = Histogram("evidenz_answer_stage_seconds", "seconds each stage of answering took", ["stage"],
                           buckets=BUCKETS, registry=registry)
        for stage in STAGES:  # shown, at zero, before the first answer
            stages.labels(stage)
        return cls(
            registry,
            stages,
            Counter("evidenz_answers", "answers by writer, declined or not", ["generator", "declined"],
                    registry=registry),
            Counter("evidenz_degraded_answers", "answers written offline because the chosen provider failed",
                    registry=registry),
        )


@bp.record_once
def setup(state) -> None:
    """Give the app its registry when the blueprint is registered."""
    state.app.extensions["metrics"] = Metrics.build(state.app)


def observe(body: dict) -> None:
    """Count an answer (its /api/query JSON) in the app's metrics, when it keeps them."""
    metrics = current_app.extensions.get("metrics")
    if metrics is None:
        return
    timings = body.get("timings_ms") or {}
    for stage in STAGES:
        if isinstance(timings.get(stage), (int, float)):
            metrics.stages.labels(stage).observe(timings[stage] / 1000)
    metrics.answers.labels(body.get("generator") or "", "true" if body.get("declined") else "false").inc()
    if body.get("degraded"):
        metrics.degraded.inc()


@bp.get("/metrics")
def scrape():
    """The metrics in Prometheus's text format; needs the `metrics` permission (every personal server has it)."""
    require(METRICS)
    return Response(generate_latest(current_app.extensions["metrics"].registry), content_type=CONTENT_TYPE_LATEST)
