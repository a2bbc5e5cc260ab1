"""A validator worker: one consumer of the `validators` group, plus the sweep that finds lost wins.

Any number run side by side (`arena validate`, or the task inside `arena serve`): the group hands
each new submission to one of them; entries a dead worker left pending are claimed by a live one
after `claim_idle_ms` (XAUTOCLAIM); every failure is counted per entry in Redis, so a poison entry
reaches the dead-letter stream after the same number of attempts whichever workers tried it.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import os
import time
from typing import Any

from redis.exceptions import RedisError

from ..store import StoreError
from ..store.keys import submissions_key, validator_attempts_key
from ..metrics import redis_error
from .queue import GROUP, ValidatorQueue
from .submitter import Submitter

log = logging.getLogger("arena.validator")


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


def consumer_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


class ValidatorWorker:
    def __init__(
        self,
        queue: ValidatorQueue,
        submitter: Submitter | None = None,
        *,
        consumer: str | None = None,
        batch: int = 32,
        block_ms: int = 1000,
        claim_idle_ms: int = 15_000,
        sweep_every_s: float = 10.0,
        clock: Any = wall_ms,  # Any: a function giving ms (tests pass their own)
    ) -> None:
        self.queue = queue
        self.submitter = submitter
        self.consumer = consumer or consumer_name()
        self.batch, self.block_ms, self.claim_idle_ms = batch, block_ms, claim_idle_ms
        self.sweep_every_s = sweep_every_s
        self.clock = clock
        self.handled = 0

    async def run_once(self, *, block: bool = True) -> int:
        """Claim what dead workers left, read what is new, check it all; the entries handled."""
        redis = self.queue.redis
        _, claimed, *_ = await redis.xautoclaim(
            submissions_key(), GROUP, self.consumer, self.claim_idle_ms, "0-0", count=self.batch
        )
        fresh = await redis.xreadgroup(
            GROUP, self.consumer, {submissions_key(): ">"}, count=self.batch,
            block=self.block_ms if block and not claimed else None,
        )
        entries = list(claimed) + [entry for _, stream_entries in (fresh or []) for entry in stream_entries]
        for entry_id, fields in entries:
            if fields is None:  # claimed, but trimmed meanwhile: nothing to check
                await redis.xack(submissions_key(), GROUP, entry_id)
                continue
            await self._handle_one(entry_id, fields)
        return len(entries)

    async def _handle_one(self, entry_id: Any, fields: dict) -> None:  # Any: a stream entry id, bytes or str
        redis = self.queue.redis
        try:
            await self.queue.handle(entry_id, fields, now_ms=self.clock())
            self.handled += 1
        except Exception as exc:  # noqa: BLE001  counted, retried by whoever claims it, dead-lettered at the limit
            attempts = await redis.hincrby(validator_attempts_key(), entry_id, 1)
            log.warning("validator: submission %s failed (attempt %d): %s", entry_id, attempts, exc)
            if attempts >= self.queue.max_attempts:
                await self.queue.dead_letter(entry_id, fields, f"{type(exc).__name__}: {exc}")
                await redis.hdel(validator_attempts_key(), entry_id)

    async def run(self, stop: asyncio.Event) -> None:
        """Until `stop` is set: check submissions; sweep for lost wins now and then; ride out Redis outages."""
        await self._retrying(self.queue.ensure_group, stop)
        next_sweep = 0.0
        while not stop.is_set():
            try:
                if self.submitter is not None and time.monotonic() >= next_sweep:
                    await self.submitter.sweep(now_ms=self.clock())
                    next_sweep = time.monotonic() + self.sweep_every_s
                await self.run_once()
            except (RedisError, StoreError, OSError) as exc:
                redis_error("validator")
                log.warning("validator: redis unavailable, retrying: %s", exc)
                await _sleep_or_stop(stop, 1.0)
                if "NOGROUP" in str(exc):  # Redis came back without the group (a fresh server)
                    await self._retrying(self.queue.ensure_group, stop)

    async def _retrying(self, step: Any, stop: asyncio.Event) -> None:  # Any: a coroutine function of the worker's
        while not stop.is_set():
            try:
                return await step()
            except (RedisError, OSError) as exc:
                log.warning("validator: redis unavailable, retrying: %s", exc)
                await _sleep_or_stop(stop, 1.0)


async def _sleep_or_stop(stop: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass
