"""The archiver's Prometheus metrics (on the default registry, so `/metrics` serves them with the rest)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

ARCHIVE_GAMES = Counter(
    "arena_archive_games",
    "Games the archiver looked at, by outcome (archived; later: not yet eligible; moved_on: played again; "
    "gone: no log; failed: the store failed or the read-back did not match)",
    ["outcome"],
)
ARCHIVE_BYTES = Counter("arena_archive_bytes", "Compressed bytes of the objects this process archived")
ARCHIVE_SECONDS = Histogram(
    "arena_archive_seconds", "Time to archive one game: read, pack, put, read back, check, swap",
    buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0),
)
ARCHIVE_BACKOFF = Gauge(
    "arena_archive_backoff_seconds", "The archiver's pause before its next try after a failure (0: none)",
    multiprocess_mode="max",
)
ARCHIVE_READS = Counter(
    "arena_archive_reads", "Archived logs read through from the object store, by outcome (ok, missing, unreachable, corrupt)",
    ["outcome"],
)


def looked_at(outcome: str) -> None:
    ARCHIVE_GAMES.labels(outcome).inc()


def archived(size: int, seconds: float) -> None:
    ARCHIVE_GAMES.labels("archived").inc()
    ARCHIVE_BYTES.inc(size)
    ARCHIVE_SECONDS.observe(seconds)


def backoff(seconds: float) -> None:
    ARCHIVE_BACKOFF.set(seconds)


def read_through() -> None:
    ARCHIVE_READS.labels("ok").inc()


def read_failed(code: str) -> None:
    ARCHIVE_READS.labels(code).inc()
