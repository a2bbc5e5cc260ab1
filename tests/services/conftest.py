"""Fixtures for the game service tests: a service on the session's real Redis (tests/fixtures/redis.py)."""

from __future__ import annotations

import pytest

from services.games.service import GameService
from services.store import EventStore


@pytest.fixture
def redis(redis_client):
    """The service's plain Redis client (the shared `redis_client`)."""
    return redis_client


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
    return GameService(EventStore(redis, clock=clock), redis)
