"""The numbers an operator watches, in Prometheus' text format at ``/metrics`` when
``CARDROOM_METRICS=true`` (app/web/observe.py; README, "Metrics").

The instruments always count (an increment costs well under a microsecond); only the request
timing and the page that shows them depend on the setting. With several uvicorn workers, set
``PROMETHEUS_MULTIPROC_DIR`` to an empty directory before the start: each worker then writes
its numbers to files there and ``/metrics`` adds up every worker's, whichever answers.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

# Seconds: from a cached page (a millisecond) to a Hard search or a slow store (seconds).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Counter(
    "cardroom_http_requests", "Requests answered, by method, route template and status.",
    ("method", "route", "status"),
)
REQUEST_SECONDS = Histogram(
    "cardroom_http_request_duration_seconds",
    "Time to answer a request (an event stream: its whole life), by method and route template.",
    ("method", "route"), buckets=LATENCY_BUCKETS,
)
BOT_DECISION_SECONDS = Histogram(
    "cardroom_bot_decision_seconds", "Time a bot takes to choose a card or a pass, by level.",
    ("level",), buckets=LATENCY_BUCKETS,
)
THINKING_WAIT_SECONDS = Histogram(
    "cardroom_thinking_queue_wait_seconds",
    "Time a bots' turn or a search waits in the queue before a thread or process takes it.",
    buckets=LATENCY_BUCKETS,
)
THINKING_REFUSED = Counter(
    "cardroom_thinking_refused", "Turns and searches refused (503) because the queue was full."
)
OPEN_STREAMS = Gauge(
    "cardroom_table_streams_open", "Table event streams open.", multiprocess_mode="livesum"
)
LIVE_TABLES = Gauge(
    "cardroom_tables_live",
    "Tables with an event stream open (per process: two workers watching one table count it"
    " twice).",
    multiprocess_mode="livesum",
)
STORE_ERRORS = Counter(
    "cardroom_store_errors", "Store calls that failed (unreachable, locked too long), by backend.",
    ("backend",),
)
CAS_RETRIES = Counter(
    "cardroom_cas_retries",
    "Compare-and-set writes lost to another request and tried again, by what was written.",
    ("what",),
)
GAMES_STARTED = Counter("cardroom_games_started", "Games stored for the first time, by game.",
                        ("game",))
GAMES_FINISHED = Counter(
    "cardroom_games_finished",
    "Games that ended (Heart to Heart won, a Hearts match over), by game.", ("game",),
)

MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"


def exposition() -> tuple[bytes, str]:
    """Every metric in the text format, and its content type: this process's, or with
    ``PROMETHEUS_MULTIPROC_DIR`` set, every worker's added up."""
    if os.environ.get(MULTIPROCESS_DIR):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def process_ended() -> None:
    """This worker stops: its live gauges no longer count (multi-process mode)."""
    if os.environ.get(MULTIPROCESS_DIR):
        multiprocess.mark_process_dead(os.getpid())
