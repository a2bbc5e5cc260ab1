"""Fixtures for the game service tests: a service on the session's real Redis (tests/fixtures/redis.py)."""

from __future__ import annotations

import pytest

import engine
from services.games.service import GameService
from services.store import EventStore


@pytest.fixture
def redis(redis_client):
    """The service's plain Redis client (the shared `redis_client`)."""
    return redis_client


# A Wish deal still in play as dealt: about 1 deal in 160 is lost before any move (no pair to take),
# and a test that resigns or abandons a server-chosen deal fails on those. Given with the kind named,
# it is still a server's (casual, daily, race) deal, not a chosen one.
IN_PLAY_WISH = next(seed for seed in range(1, 1000)
                    if engine.initial_state("wish", None, seed).status == engine.IN_PROGRESS)


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
