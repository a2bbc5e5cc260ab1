"""When Redis cannot answer: which errors mean "unavailable", and a warning that says so without a flood.

A full connection pool, a Redis that is away or a store error all mean the same to whoever met them: not
now, try again. Each is logged as a warning naming the cause, at most once a second per place: an outage
met by thousands of requests, sockets or race timers at once is one line and a count, not thousands of
lines (the gateway's and the races' warnings both come from here).
"""

from __future__ import annotations

import logging
import time

from redis.exceptions import RedisClusterException, RedisError

from ..store import StoreError

# RedisClusterException is not a RedisError (e.g. "no targets were found" while a cluster re-forms).
UNAVAILABLE_ERRORS: tuple[type[Exception], ...] = (RedisError, RedisClusterException, StoreError)


def cause_of(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class Warnings:
    """A warning per place and per second at most; the ones held back are counted in the next line."""

    def __init__(self, log: logging.Logger, every_seconds: float = 1.0) -> None:
        self.log, self.every = log, every_seconds
        self.last: dict[str, float] = {}
        self.held: dict[str, int] = {}

    def warn(self, where: str, exc: BaseException) -> None:
        now = time.monotonic()
        if now - self.last.get(where, -self.every) < self.every:
            self.held[where] = self.held.get(where, 0) + 1
            return
        self.last[where] = now
        held = self.held.pop(where, 0)
        more = f" ({held} more since the last warning)" if held else ""
        self.log.warning("redis unavailable for %s: %s%s", where, cause_of(exc), more)
