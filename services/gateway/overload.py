"""When Redis cannot keep up: which errors mean "unavailable", and the warning that says so.

A full connection pool (no connection free within ARENA_REDIS_POOL_TIMEOUT), a Redis that is away or a store
error all mean the same to a client: not now, try again. Sockets answer `s2c.error unavailable`, HTTP answers
503 with Retry-After; neither is a crash. Each is logged as a warning naming the cause, at most once a second
per place (a burst of thousands of refusals is one line and a count, not thousands of lines).
"""

from __future__ import annotations

import logging
import time

from redis.exceptions import RedisClusterException, RedisError

from ..store import StoreError

log = logging.getLogger("arena.gateway")

# RedisClusterException is not a RedisError (e.g. "no targets were found" while a cluster re-forms).
UNAVAILABLE_ERRORS: tuple[type[BaseException], ...] = (RedisError, RedisClusterException, StoreError)
RETRY_AFTER_SECONDS = 1


def cause_of(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class Warnings:
    """A warning per place and per second at most; the ones held back are counted in the next line."""

    def __init__(self, every_seconds: float = 1.0) -> None:
        self.every = every_seconds
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
        log.warning("redis unavailable for %s: %s%s", where, cause_of(exc), more)


warnings = Warnings()
