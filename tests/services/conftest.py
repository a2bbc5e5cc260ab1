"""Fixtures for the game service tests: a real Redis (the shared fixture when it exists), a service."""

from __future__ import annotations

import pytest

from services.game_service import GameService
from services.store import EventStore

try:  # the shared Redis fixtures (tests/fixtures/redis.py) once they land
    from tests.fixtures.redis import redis_server, redis_url  # noqa: F401
except ImportError:
    from tests.services.embedded import redis_server, redis_url  # noqa: F401


@pytest.fixture
async def redis(redis_url):  # noqa: F811
    from services.redis_client import open_redis

    client = await open_redis(redis_url)
    yield client
    await client.aclose()


class Clock:
    """A server clock the test moves by hand (ms)."""

    def __init__(self, start: int = 1_700_000_000_000) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(redis, clock) -> GameService:
    return GameService(EventStore(redis), redis, clock=clock)
