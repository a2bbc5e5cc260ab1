"""A per-socket token bucket. Litestar's rate limiter covers HTTP requests, not websocket frames."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """`burst` frames at once, refilled at `rate` frames a second."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self._clock = clock
        self._last = clock()

    def take(self) -> bool:
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
