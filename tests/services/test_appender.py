"""The appender's group commit on the real store: every append answered with its own result, batches
gathered while others are in flight, and never more than `max_in_flight` pipelines at once."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from services.games.appender import Appender
from services.store import EventStore, NewEvent, VersionConflict

pytestmark = pytest.mark.integration


class GatedStore(EventStore):
    """The real store, whose round trips wait at a gate (so the test knows what is in flight) and are counted."""

    def __init__(self, client) -> None:
        super().__init__(client)
        self.gate = asyncio.Event()
        self.in_flight = self.most_in_flight = 0
        self.sizes: list[int] = []

    async def append_many(self, batch):
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        self.sizes.append(len(batch))
        try:
            await self.gate.wait()
            return await super().append_many(batch)
        finally:
            self.in_flight -= 1


async def _until(condition) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("never happened")


def _append(appender: Appender, game: str) -> asyncio.Task:
    return asyncio.ensure_future(appender.append(game, 0, [NewEvent("made", b"x")], f"m-{game}"))


async def test_a_second_batch_leaves_while_the_first_is_in_flight_and_later_ones_gather(redis_client):
    store = GatedStore(redis_client)
    appender = Appender(store, max_in_flight=2)
    games = [f"appender-{uuid.uuid4().hex[:12]}" for _ in range(60)]
    first = [_append(appender, games[0])]
    await _until(lambda: store.in_flight == 1)
    second = [_append(appender, g) for g in games[1:30]]  # arrive while the first batch is in flight
    await _until(lambda: store.in_flight == 2)
    third = [_append(appender, g) for g in games[30:]]  # two in flight: these wait and gather
    for _ in range(20):
        await asyncio.sleep(0)
    assert store.in_flight == 2 and store.sizes == [1, 29]
    store.gate.set()
    results = await asyncio.gather(*first, *second, *third)
    assert [r.version for r in results] == [1] * len(games) and not any(r.duplicate for r in results)
    assert store.most_in_flight == 2 and store.sizes == [1, 29, 30]  # never a third in flight
    for game in games:
        assert [e.type for e in await store.read(game)] == ["made"]  # stored, once


async def test_by_default_a_batch_never_waits_for_an_earlier_one_to_be_answered(redis_client):
    """Redis covers whatever it read during an fsync with the next one: a batch held back until an earlier
    one's reply would wait a whole fsync more. Ten batches in flight at once, each sent as it came."""
    store = GatedStore(redis_client)
    appender = Appender(store)
    games = [f"appender-{uuid.uuid4().hex[:12]}" for _ in range(10)]
    waiting = []
    for number, game in enumerate(games, start=1):
        waiting.append(_append(appender, game))
        await _until(lambda: store.in_flight == number)
    assert store.sizes == [1] * 10
    store.gate.set()
    results = await asyncio.gather(*waiting)
    assert [r.version for r in results] == [1] * 10


async def test_a_stale_append_fails_alone_and_a_retried_move_id_is_answered(redis_client):
    store = EventStore(redis_client)
    appender = Appender(store, max_in_flight=2)
    game, other = (f"appender-{uuid.uuid4().hex[:12]}" for _ in range(2))
    await appender.append(game, 0, [NewEvent("made", b"x")], "first")
    stale, fine, again = await asyncio.gather(
        appender.append(game, 0, [NewEvent("made", b"y")], "second"),
        appender.append(other, 0, [NewEvent("made", b"z")], "third"),
        appender.append(game, 0, [NewEvent("made", b"x")], "first"),
        return_exceptions=True,
    )
    assert isinstance(stale, VersionConflict)
    assert fine.version == 1 and not fine.duplicate
    assert again.version == 1 and again.duplicate
    assert await store.version(game) == 1


async def test_appends_queued_behind_a_lone_one_leave_when_it_is_answered(redis_client):
    """A lone append is sent from its caller's own task and counts as the batch in flight: with one batch
    allowed, those arriving meanwhile wait, then leave together once it is answered (none is stranded)."""
    store = GatedStore(redis_client)
    appender = Appender(store, max_in_flight=1)
    games = [f"appender-{uuid.uuid4().hex[:12]}" for _ in range(6)]
    lone = _append(appender, games[0])
    await _until(lambda: store.in_flight == 1)
    queued = [_append(appender, game) for game in games[1:]]
    for _ in range(20):
        await asyncio.sleep(0)
    assert store.sizes == [1]  # the others wait for the one slot
    store.gate.set()
    results = await asyncio.wait_for(asyncio.gather(lone, *queued), timeout=10)
    assert [r.version for r in results] == [1] * 6 and store.sizes == [1, 5]
    assert (appender.batches, appender.appends) == (2, 6)


async def test_a_lone_append_that_fails_tells_its_caller(redis_client):
    store = EventStore(redis_client)
    appender = Appender(store)
    game = f"appender-{uuid.uuid4().hex[:12]}"
    await appender.append(game, 0, [NewEvent("made", b"x")], "first")
    with pytest.raises(VersionConflict):
        await appender.append(game, 0, [NewEvent("made", b"y")], "second")
    assert appender._in_flight == 0  # nothing left counted in flight
