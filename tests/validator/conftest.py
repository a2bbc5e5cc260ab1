"""Fixtures for the validator: a game service whose wins are submitted, a queue, a worker, on real Redis."""

from __future__ import annotations

import msgspec
import pytest

from services.games import codec
from services.games.service import GameService
from services.store import EventStore, StoredEvent
from services.store.envelope import ENTRY_FIELD, decode_event, encode_event
from services.store.keys import log_key
from services.validator.queue import ValidatorQueue
from services.validator.submitter import Submitter
from services.validator.worker import ValidatorWorker
from tests.fixtures.redis import unique_id
from tests.services.conftest import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def stack(private_redis_client, clock):
    redis_client = private_redis_client
    """(service, queue, worker): wins go to the queue through the submitter, as in `arena serve`."""
    store = EventStore(redis_client, clock=clock)
    queue = ValidatorQueue(redis_client, store)  # no review: the tests move at their own pace
    submitter = Submitter(queue, store)
    service = GameService(store, redis_client, results=submitter)
    await queue.ensure_group()
    worker = ValidatorWorker(queue, submitter, consumer=unique_id("w-"), block_ms=10, clock=clock)
    return service, queue, worker


async def drain(worker: ValidatorWorker) -> None:
    """Run the worker until nothing is left for it (other tests' entries included)."""
    while await worker.run_once(block=False):
        pass


async def read_stored(redis, game_id: str) -> list[StoredEvent]:
    return [decode_event(fields[ENTRY_FIELD]) for _, fields in await redis.xrange(log_key(game_id))]


async def write_log(redis, entries: list[StoredEvent]) -> str:
    """A new game stream holding exactly `entries` (renumbered 1..n): a log as a forger would write it."""
    game_id = unique_id("t")
    for version, stored in enumerate(entries, start=1):
        stored = msgspec.structs.replace(stored, version=version)
        await redis.xadd(log_key(game_id), {ENTRY_FIELD: encode_event(stored)}, id=f"0-{version}")
    return game_id


def with_entry(stored: StoredEvent, entry) -> StoredEvent:
    """`stored` carrying another payload (same type and schema rules as the codec writes)."""
    new = codec.new_entry(entry)
    return msgspec.structs.replace(stored, type=new.type, schema=new.schema, data=new.data)
