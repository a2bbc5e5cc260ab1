"""Race timers: a timer that meets Redis away tries again by itself (a due entry written just before a
failover can be lost with the old master, and then no poll of the due set would bring the race back)."""

from __future__ import annotations

import asyncio
import time

from redis.exceptions import ConnectionError as RedisConnectionError

from services.races import timers as timers_module
from services.races.store import RaceStore
from services.races.timers import RaceTimers
from tests.fixtures.redis import unique_id


async def test_a_timer_that_meets_redis_away_fires_again_until_the_race_is_advanced(redis_client, monkeypatch):
    monkeypatch.setattr(timers_module, "RETRY_MS", 50, raising=False)
    clock = lambda: time.time_ns() // 1_000_000  # noqa: E731
    looks: list[str] = []
    advanced = asyncio.Event()

    async def advance(race_id: str) -> None:
        looks.append(race_id)
        if len(looks) < 3:
            raise RedisConnectionError("Redis is away")  # as the store raises it during an outage
        advanced.set()

    timers = RaceTimers(RaceStore(redis_client, clock=clock), clock, advance)
    timers.start()  # timers run in a serving process only; its poll finds nothing due for this race
    try:
        race = unique_id("race")  # not in the due set: only the timer knows it
        timers._timer(race, clock())
        await asyncio.wait_for(advanced.wait(), 10)
        assert looks == [race] * 3
    finally:
        await timers.stop()
