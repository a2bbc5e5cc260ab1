"""The bounded, waiting Redis pools of services/redis/client.py on real servers (one Redis and a cluster):
a burst beyond the pool waits for its turn and succeeds, a wait past the pool timeout fails with the
ConnectionError the gateway answers as unavailable; and the settings that size them."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import MaxConnectionsError

from services.redis.client import open_redis, parse_redis_url
from services.runtime.settings import settings_from_environment
from tests.fixtures.redis import unique_id

pytestmark = pytest.mark.integration


async def burst(client, n: int = 50) -> list:
    key = unique_id("pool")

    async def one(i: int):
        pipe = client.pipeline(transaction=False)
        pipe.set(f"{key}:{i}", i)
        pipe.get(f"{key}:{i}")
        return (await pipe.execute())[1], await client.get(f"{key}:{i}")

    return await asyncio.gather(*(one(i) for i in range(n)))


@pytest.fixture(params=["server", "cluster"])
def url(request) -> str:
    if request.param == "server":
        return request.getfixturevalue("redis_url")
    return request.getfixturevalue("redis_cluster").url


async def test_a_burst_beyond_the_pool_waits_for_its_turn(url):
    client = await open_redis(url, pool_size=2, pool_timeout=10)
    try:
        assert await burst(client) == [(str(i).encode(), str(i).encode()) for i in range(50)]
    finally:
        await client.aclose()


async def test_redis_pys_own_cluster_client_refuses_the_same_burst(redis_cluster):
    """Why WaitingRedisCluster exists: with a full node pool redis-py's asyncio cluster client fails at once."""
    plain_url, _ = parse_redis_url(redis_cluster.url)
    client = aioredis.RedisCluster.from_url(plain_url, max_connections=2)
    try:
        with pytest.raises(MaxConnectionsError):
            await burst(client)
    finally:
        await client.aclose()


async def test_a_wait_past_the_pool_timeout_is_a_connection_error(url):
    client = await open_redis(url, pool_size=1, pool_timeout=0.2)
    key = unique_id("pool")
    try:
        holding = asyncio.ensure_future(client.blpop([key], timeout=2))  # the only connection, for 2 s
        await asyncio.sleep(0.05)
        with pytest.raises(RedisConnectionError, match="No connection available"):
            await client.get(key)
        assert await holding is None
        assert await client.get(key) is None  # free again: served
    finally:
        await client.aclose()


def test_pool_settings_come_from_the_environment():
    settings = settings_from_environment({"ARENA_REDIS_POOL_SIZE": "7", "ARENA_REDIS_POOL_TIMEOUT": "0.5",
                                          "ARENA_APPEND_IN_FLIGHT": "3"})
    assert (settings.redis_pool_size, settings.redis_pool_timeout, settings.append_in_flight) == (7, 0.5, 3)
    assert settings_from_environment({}).append_in_flight == 16
    for bad in ({"ARENA_REDIS_POOL_SIZE": "0"}, {"ARENA_REDIS_POOL_TIMEOUT": "-1"}, {"ARENA_REDIS_POOL_SIZE": "x"},
                {"ARENA_APPEND_IN_FLIGHT": "0"}):
        with pytest.raises(SystemExit):
            settings_from_environment(bad)
