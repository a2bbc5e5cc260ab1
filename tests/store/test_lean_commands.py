"""The lifecycle's small commands over the lean link (services/redis/lean_commands.py): carried in one
round trip per node, and whatever the link cannot carry (a lost reply, a redirect, an error reply, a
script the server lacks) sent again through redis-py, which answers and raises as it always did. Real
servers throughout; the TCP proxy of the append link's tests cuts connections on purpose."""

from __future__ import annotations

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, ResponseError

from services.redis.client import open_redis
from services.redis.lean_commands import LeanCommands
from services.redis.lean_link import LeanLink
from tests.fixtures.redis import unique_id
from tests.store.test_append_link import CuttingProxy


def keys(tag: str) -> tuple[str, str, str]:
    """A hash, a sorted set and a string key; with `tag` as a hash tag all three share one slot."""
    return f"lean:{{{tag}}}:hash", f"lean:{{{tag}}}:set", f"lean:{{{tag}}}:ticket"


def lifecycle_batch(lean: LeanCommands, tag: str):
    hash_key, set_key, ticket_key = keys(tag)
    pipe = lean.pipeline()
    pipe.delete(hash_key)
    pipe.hset(hash_key, mapping={"status": "in_progress", "created_at_ms": 5})
    pipe.zadd(set_key, {"game-a": 1, "game-b": 2})
    pipe.zrem(set_key, "game-a")
    pipe.set(ticket_key, b"player 0", px=30_000)
    pipe.hmget(hash_key, ["status", "missing"])
    pipe.zscore(set_key, "game-b")
    return pipe


def redis_py_refused(monkeypatch: pytest.MonkeyPatch, client) -> None:
    """Any command through redis-py fails the test: the link alone must carry what follows."""
    def refused(*args, **kwargs):
        raise AssertionError("sent through redis-py, not the lean link")
    monkeypatch.setattr(client, "execute_command", refused)
    monkeypatch.setattr(client, "pipeline", refused)


async def check_written(client, tag: str) -> None:
    hash_key, set_key, ticket_key = keys(tag)
    assert await client.hgetall(hash_key) == {b"status": b"in_progress", b"created_at_ms": b"5"}
    assert await client.zrange(set_key, 0, -1, withscores=True) == [(b"game-b", 2.0)]
    assert await client.get(ticket_key) == b"player 0"
    assert 0 < await client.pttl(ticket_key) <= 30_000


async def test_a_batch_goes_over_the_link_in_one_round_trip_per_node(embedded_redis, redis_cluster, monkeypatch) -> None:
    for url in (embedded_redis.url, redis_cluster.url):
        client = await open_redis(url)
        link = LeanLink(client, reply_timeout=5)
        lean = LeanCommands(client, link)
        tags = [unique_id("batch") for _ in range(6)]  # six slots: on the cluster, more than one node
        with monkeypatch.context() as patched:
            redis_py_refused(patched, client)
            pipe = lean.pipeline()
            for tag in tags:
                pipe.commands += lifecycle_batch(lean, tag).commands
            replies = await pipe.execute()
            assert await lean.get(keys(tags[0])[2]) == b"player 0"
        assert replies[5::7] == [[b"in_progress", None]] * 6  # each batch's HMGET
        assert replies[6::7] == [b"2"] * 6  # and its ZSCORE, as RESP has it
        for tag in tags:
            await check_written(client, tag)
        nodes = {client.get_node_from_key(keys(tag)[0]).name for tag in tags} if link.cluster else {""}
        assert link.round_trips == len(nodes) + 1  # the batch, one per node; then the GET
        await link.aclose()
        await client.aclose()


async def test_without_a_link_redis_py_sends_the_same(embedded_redis) -> None:
    client = await open_redis(embedded_redis.url)
    tag = unique_id("plain")
    replies = await lifecycle_batch(LeanCommands(client, None), tag).execute()
    assert replies[5:] == [[b"in_progress", None], 2.0]  # (redis-py makes a score a float)
    await check_written(client, tag)
    await client.aclose()


async def test_replies_lost_with_the_connection_are_sent_again_through_redis_py(embedded_redis) -> None:
    proxy = CuttingProxy(embedded_redis.host, embedded_redis.port)
    address = await proxy.start()
    client = await open_redis(embedded_redis.url)
    link = LeanLink(client, reply_timeout=5, address=address)
    lean = LeanCommands(client, link)
    await lean.set(unique_id("warm"), 1)  # the link's connection is made and answers
    proxy.cut_after = proxy.replies  # the next batch reaches the server; its replies never come back
    tag = unique_id("cut")
    replies = await lifecycle_batch(lean, tag).execute()
    assert replies[5:] == [[b"in_progress", None], 2.0]  # redis-py's answers to the batch sent again
    await check_written(client, tag)  # sent twice, the same state
    await link.aclose()
    await client.aclose()
    await proxy.stop()


async def test_a_cluster_redirect_is_followed_by_redis_py(redis_cluster) -> None:
    client = await open_redis(redis_cluster.url)
    link = LeanLink(client, reply_timeout=5)
    lean = LeanCommands(client, link)
    tags = [unique_id("moved") for _ in range(8)]
    assert len({client.get_node_from_key(keys(tag)[0]).name for tag in tags}) > 1
    wrong = client.get_node_from_key(keys(tags[0])[0])
    link.address_of = lambda node: (wrong.host, wrong.port)  # every batch to one master: MOVED for the rest
    for tag in tags:
        await lifecycle_batch(lean, tag).execute()
        await check_written(client, tag)
        assert await lean.getdel(keys(tag)[2]) == b"player 0"  # a redirected GETDEL ran nothing: redis-py sends it
    await link.aclose()
    await client.aclose()


async def test_an_error_reply_raises_as_redis_py_raises_it(embedded_redis) -> None:
    client = await open_redis(embedded_redis.url)
    link = LeanLink(client, reply_timeout=5)
    lean = LeanCommands(client, link)
    tag = unique_id("wrong")
    hash_key, set_key, ticket_key = keys(tag)
    await client.set(hash_key, "a string, not a hash")
    pipe = lean.pipeline().zadd(set_key, {"game-b": 2}).hset(hash_key, "status", "won")
    with pytest.raises(ResponseError, match="WRONGTYPE"):
        await pipe.execute()
    assert await client.zscore(set_key, "game-b") == 2.0  # the batch's other writes are done, once
    assert await client.get(hash_key) == b"a string, not a hash"
    with pytest.raises(ValueError, match="hset needs"):
        lean.pipeline().hset(hash_key)
    for bad in (None, True):  # refused as redis-py refuses them, not sent as the text "None" or "True"
        with pytest.raises(DataError):
            lean.pipeline().hset(hash_key, mapping={"status": bad})
        with pytest.raises(DataError):
            await client.hset(hash_key + ":py", mapping={"status": bad})
    await link.aclose()
    await client.aclose()


async def test_a_script_the_server_lacks_is_loaded_through_redis_py(embedded_redis) -> None:
    client = await open_redis(embedded_redis.url)
    link = LeanLink(client, reply_timeout=5)
    lean = LeanCommands(client, link)
    script = client.register_script("redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])")
    key = unique_id("script")
    await client.script_flush()
    assert await lean.script(script, [key], ["two"]) == b"two"  # NOSCRIPT on the link; redis-py loads and runs it
    trips = link.round_trips
    assert await lean.script(script, [key], ["three"]) == b"three"  # loaded now: the link carries it
    assert link.round_trips == trips + 1
    await link.aclose()
    await client.aclose()


async def test_a_getdel_whose_reply_is_lost_is_not_sent_again(embedded_redis) -> None:
    """Sent again it would find nothing, and a ticket only late would be refused as unknown: the link's
    error is raised instead (the gateway answers unavailable), the command sent once."""
    proxy = CuttingProxy(embedded_redis.host, embedded_redis.port)
    address = await proxy.start()
    client = await open_redis(embedded_redis.url)
    link = LeanLink(client, reply_timeout=5, address=address)
    lean = LeanCommands(client, link)
    key = unique_id("ticket")
    await lean.set(key, b"player 0")
    assert await lean.getdel(key) == b"player 0"
    await lean.set(key, b"player 1")
    proxy.cut_after = proxy.replies  # the GETDEL reaches the server; its reply never comes back
    with pytest.raises(RedisConnectionError):
        await lean.getdel(key)
    assert await client.get(key) is None  # it ran once, and was not sent again to find nothing
    await link.aclose()
    await client.aclose()
    await proxy.stop()

