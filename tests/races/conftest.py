"""Fixtures for the race service: races, games and the replay validator on a real Redis of the module's own,
with a clock the test moves by hand (no timers: the test calls `advance` as a timer would)."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec
import pytest

import engine
from engine.solver import solve
from services.games.secrecy import DealSecrecy
from services.games.service import AllResults, GameService
from services.races.ratings import Ratings
from services.races.service import RaceService
from services.races.store import RaceStore
from services.races.wiring import verdict_lookup
from services.store import EventStore
from services.validator.queue import ValidatorQueue
from services.validator.submitter import Submitter
from services.validator.worker import ValidatorWorker
from tests.fixtures.redis import unique_id
from tests.services.conftest import Clock


@dataclass
class Feed:
    """Everything the race service sent out, as the frames' JSON would carry it."""

    frames: list[bytes] = field(default_factory=list)

    def race_changed(self, view) -> None:
        self.frames.append(msgspec.json.encode(view))

    def progress(self, race_id, progress) -> None:
        self.frames.append(msgspec.json.encode(progress))


@dataclass
class Stack:
    races: RaceService
    games: GameService
    queue: ValidatorQueue
    worker: ValidatorWorker
    feed: Feed
    clock: Clock

    async def drain(self) -> None:
        while await self.worker.run_once(block=False):
            pass

    async def win(self, player: str, game_id: str) -> None:
        """Play the solver's winning line, one move a second."""
        live = await self.games.refresh(game_id)
        line = solve(live.state).line
        assert line, "the race's deal is proven winnable"
        for version, intent in enumerate(line):
            self.clock.now += 1_000
            result = await self.games.submit(player, game_id, unique_id("m"), version, intent)
            assert result.answer.accepted, result.answer


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def stack(private_redis_client, clock) -> Stack:
    redis_client = private_redis_client  # its own Redis: a session server's validator worker must not take its wins
    store = EventStore(redis_client, clock=clock)
    queue = ValidatorQueue(redis_client, store)  # no review: the tests move at their own pace
    submitter = Submitter(queue, store)
    games = GameService(store, redis_client, results=submitter)
    await queue.ensure_group()
    worker = ValidatorWorker(queue, submitter, consumer=unique_id("w-"), block_ms=10, clock=clock)
    feed = Feed()
    races = RaceService(RaceStore(redis_client, clock=clock), games, countdown_ms=3_000,
                        ratings=Ratings(redis_client), feed=feed)
    # As services/gateway/wiring.py wires a serving process (without the tournaments).
    games.results = AllResults(submitter, races)
    games.move_hook = races
    games.secrecy = DealSecrecy(race_ended=races.has_ended, race_learn=races.learn)
    queue.seeds, queue.sink, races.verdicts = races.seed_of, races.on_verdict, verdict_lookup(queue)
    return Stack(races, games, queue, worker, feed, clock)


def players(n: int) -> list[str]:
    return [unique_id("g") for _ in range(n)]


__all__ = ["Stack", "engine", "players"]
