"""The contract suite's backend parameter: every contract test runs on each Redis deployment."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from services.redis.client import open_redis
from services.store import EventStore
from services.store.replication import ReplicaAck

BACKENDS = {
    "embedded": "embedded_redis",  # always
    "container": "container_redis",  # skips without a Docker engine
    "cluster": "redis_cluster",  # 3 local masters
    "replicated": "replicated_redis",  # a master and a replica; every append waits for the replica (WAIT)
}
REPLICA_ACK = ReplicaAck(1, 5_000)
FIXED_TS_MS = 1_700_000_000_123


@dataclass
class Backend:
    name: str
    client: object  # redis.asyncio.Redis or RedisCluster
    store: EventStore


# Each backend with redis-py carrying every append, and with batches on the lean append link
# (services/store/append_link.py) that the gateway uses; the container is not run twice.
PARAMS = [(name, False) for name in BACKENDS] + [(name, True) for name in BACKENDS if name != "container"]


@pytest.fixture(params=PARAMS, ids=[name + ("+lean" if lean else "") for name, lean in PARAMS])
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """An EventStore (with a fixed clock) on one backend, plus its raw client for inspection."""
    name, lean = request.param
    server = request.getfixturevalue(BACKENDS[name])
    client = await open_redis(server.url)
    ack = REPLICA_ACK if name == "replicated" else None
    store = EventStore(client, clock=lambda: FIXED_TS_MS, replica_ack=ack, lean_appends=lean)
    assert (store.link is not None) == lean  # every backend here is one the link can carry
    yield Backend(name, client, store)
    await store.aclose()
    await client.aclose()
