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


async def test_an_outage_met_by_many_timers_is_one_warning_with_a_count(redis_client, monkeypatch, caplog):
    """Every race's timer meets an outage at once and tries again each RETRY_MS: a line per throttle period
    for all of them, each counting the ones held back, not a line per race and try."""
    monkeypatch.setattr(timers_module, "RETRY_MS", 50, raising=False)
    monkeypatch.setattr(timers_module, "warnings", timers_module.Warnings(timers_module.log, every_seconds=0.5))
    clock = lambda: time.time_ns() // 1_000_000  # noqa: E731
    looks: list[str] = []

    async def advance(race_id: str) -> None:
        looks.append(race_id)
        raise RedisConnectionError("Redis is away")

    async def until(count: int) -> None:
        deadline = time.monotonic() + 20
        while len(looks) < count and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    timers = RaceTimers(RaceStore(redis_client, clock=clock), clock, advance)
    timers.start()
    started = time.monotonic()
    try:
        with caplog.at_level("WARNING", logger="arena.races"):
            for n in range(40):
                timers._timer(unique_id(f"race-{n}"), clock())
            await until(40 * 3)
            await asyncio.sleep(0.5)  # past the throttle: the next try's line counts those held back
            await until(40 * 13)
    finally:
        await timers.stop()
    elapsed = time.monotonic() - started
    lines = [record.getMessage() for record in caplog.records if "race timers" in record.getMessage()]
    assert len(looks) >= 40 * 13, "the timers did not keep trying"
    assert 2 <= len(lines) <= 2 + elapsed / 0.5, lines  # hundreds of failed looks
    assert "Redis is away" in lines[0] and "more since the last warning" in lines[1]
