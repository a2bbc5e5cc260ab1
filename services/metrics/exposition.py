"""Metrics out: the registry to expose (one process, or every process sharing PROMETHEUS_MULTIPROC_DIR),
the figures only Redis knows, read at scrape time, and the HTTP listener of `arena validate`."""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess, start_http_server

from . import FANOUT_PENDING, VALIDATOR_LAG, VALIDATOR_PENDING, VALIDATOR_VERDICTS, redis_error

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
log = logging.getLogger("arena.metrics")


def multiprocess_mode() -> bool:
    return bool(os.environ.get(MULTIPROC_ENV))


def exposed_registry() -> CollectorRegistry:
    """This process's registry; in multiprocess mode a fresh one that reads every process's files."""
    if not multiprocess_mode():
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


def render() -> bytes:
    return generate_latest(exposed_registry())


class ValidatorFigures(Protocol):
    """What the validator's public status tells (services/validator/public.py): metrics imports nothing
    above itself, so the caller reads the status and this module only sets the gauges."""

    @property
    def pending(self) -> int: ...
    @property
    def lag(self) -> int: ...
    @property
    def verified(self) -> int: ...
    @property
    def rejected(self) -> int: ...
    @property
    def dead(self) -> int: ...


async def read_redis_figures(read_status: Callable[[], Awaitable[ValidatorFigures]]) -> None:
    """The validator's queue and verdict totals (the same for every process, so read from Redis). A
    Redis that does not answer leaves the last reading and counts an error: a scrape never fails for it."""
    try:
        status = await read_status()
    except Exception as exc:  # noqa: BLE001  any failure: the process's own figures are still served
        redis_error("metrics")
        log.warning("metrics: the validator's figures could not be read from Redis: %s", exc)
        return
    VALIDATOR_PENDING.set(status.pending)
    VALIDATOR_LAG.set(status.lag)
    for outcome in ("verified", "rejected", "dead"):
        VALIDATOR_VERDICTS.labels(outcome).set(getattr(status, outcome))


def sample_fanout(fanout: Any) -> None:  # Any: the gateway's Fanout: metrics imports nothing above it
    """Updates not sent yet: queued for Redis pub/sub, and waiting in slow sockets' queues. Read from the
    fan-out's own structures, whatever they hold at scrape time (nothing is counted on the move path)."""
    publishing, waiting = fanout.pending()
    FANOUT_PENDING.labels("publish").set(publishing)
    FANOUT_PENDING.labels("socket").set(waiting)


def forget_this_process() -> None:
    """At a clean exit in multiprocess mode: this process's live gauges (sockets, fan-out) stop counting."""
    if multiprocess_mode():
        multiprocess.mark_process_dead(os.getpid())


def serve_metrics(port: int, host: str) -> None:
    """A /metrics listener in a thread (for processes with no web server: `arena validate`)."""
    start_http_server(port, addr=host, registry=exposed_registry())
