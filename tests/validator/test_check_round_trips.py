"""A win's re-check over the lean link: the log's read, the verdict's read and write-once, and the
acknowledgement go over the store's lean connection, none through redis-py (counted here), and the
verdict is what it always was."""

from __future__ import annotations

import pytest

from services.store import EventStore
from services.store.keys import submissions_key
from services.games.service import GameService
from services.validator.queue import GROUP, ValidatorQueue
from services.validator.submitter import Submitter
from tests.fixtures.redis import unique_id
from tests.support.play import won_wish
from tests.support.round_trips import RoundTrips

pytestmark = pytest.mark.integration


async def test_a_wins_check_goes_over_the_lean_link(private_redis_client, clock):
    trips = RoundTrips(private_redis_client)
    store = EventStore(trips, clock=clock, lean_appends=True)
    assert store.link is not None
    queue = ValidatorQueue(trips, store)
    service = GameService(store, trips, results=Submitter(queue, store))
    await queue.ensure_group()
    game = await won_wish(service, "g_checked")
    consumer = unique_id("w-")
    delivered = await private_redis_client.xreadgroup(GROUP, consumer, {submissions_key(): ">"}, count=10)
    entries = [entry for _, stream in delivered for entry in stream]
    assert len(entries) == 1
    entry_id, fields = entries[0]
    before, link_before = trips.count, store.link.round_trips
    stored = await queue.handle(entry_id, fields, now_ms=clock())
    assert stored is not None and stored.verdict.verified and stored.verdict.game_id == game.id
    assert trips.count == before, "a check sent something through redis-py"
    assert store.link.round_trips >= link_before + 4  # the verdict, the log, the write-once, the ack
    assert (await queue.verdict_of(game.id)) == stored
    pending = await private_redis_client.xpending(submissions_key(), GROUP)
    assert pending["pending"] == 0  # acknowledged
    await store.link.aclose()
