"""The lean append link (services/store/append_link.py): batches carried in one round trip per node, and
whatever it cannot carry (a lost connection, a redirect, a refused login) carried by redis-py instead,
never written twice. Real servers throughout; a TCP proxy in front of one cuts connections on purpose."""

from __future__ import annotations

import asyncio

import pytest

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.redis.client import open_redis
from services.store import EventStore, NewEvent
from services.store.append_script import APPEND_LUA
from services.store.envelope import AppendRequest, log_key
from services.store.errors import VersionConflict
from tests.fixtures.redis import unique_id

EVENT = NewEvent("moved", b"{}", 1)


def requests(streams: list[str], version: int = 0, tag: str = "m") -> list[AppendRequest]:
    return [AppendRequest(stream, version, [EVENT], f"{tag}-{stream}") for stream in streams]


class CuttingProxy:
    """Forwards to a Redis server; after `cut_after` replies have come back from the server it closes
    both sides before passing the next one on (the commands reached the server, their replies are lost)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.cut_after: int | None = None
        self.replies = 0
        self.server: asyncio.base_events.Server | None = None

    async def start(self) -> tuple[str, int]:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[:2]

    async def _serve(self, client_reader, client_writer) -> None:
        server_reader, server_writer = await asyncio.open_connection(*self.target)

        async def upstream() -> None:
            while data := await client_reader.read(65536):
                server_writer.write(data)
            server_writer.close()

        async def downstream() -> None:
            while data := await server_reader.read(65536):
                if self.cut_after is not None and self.replies >= self.cut_after:
                    break
                self.replies += 1
                client_writer.write(data)
            client_writer.close()
            server_writer.close()

        await asyncio.gather(upstream(), downstream(), return_exceptions=True)

    async def stop(self) -> None:
        self.server.close()


async def test_a_batch_goes_in_one_round_trip_per_node(redis_cluster, embedded_redis) -> None:
    for url in (embedded_redis.url, redis_cluster.url):
        client = await open_redis(url)
        store = EventStore(client, lean_appends=True)
        await client.script_load(APPEND_LUA)  # a fresh server answers NOSCRIPT first: one more round trip
        streams = [unique_id("link") for _ in range(12)]
        results = await store.append_many(requests(streams))
        assert [result.version for result in results] == [1] * 12
        nodes = {str(client.get_node_from_key(log_key(s))) for s in streams} if store.link.cluster else {""}
        assert store.link.round_trips == len(nodes)
        again = await store.append_many(requests(streams, 1, "n") + requests(streams[:2], 0, "late"))
        assert [r.version for r in again[:12]] == [2] * 12
        assert all(isinstance(r, VersionConflict) for r in again[12:])
        for stream in streams:
            assert len(await store.read(stream)) == 2
        await store.aclose()
        await client.aclose()


async def test_replies_lost_with_the_connection_are_answered_through_redis_py_and_written_once(embedded_redis) -> None:
    proxy = CuttingProxy(embedded_redis.host, embedded_redis.port)
    address = await proxy.start()
    client = await open_redis(embedded_redis.url)
    store = EventStore(client, lean_appends=True)
    store.link = type(store.link)(client, address=address)  # the link through the proxy, redis-py direct
    streams = [unique_id("cut") for _ in range(5)]
    assert [r.version for r in await store.append_many(requests(streams))] == [1] * 5
    proxy.cut_after = proxy.replies  # the next batch reaches the server; its replies never come back
    results = await store.append_many(requests(streams, 1, "second"))
    assert [(r.version, r.duplicate) for r in results] == [(2, True)] * 5  # stored by the link, found by redis-py
    for stream in streams:
        assert len(await store.read(stream)) == 2  # written once
    proxy.cut_after = None
    assert [r.version for r in await store.append_many(requests(streams, 2, "third"))] == [3] * 5
    assert store.link.round_trips == 3  # the link connected again for the third batch
    await store.aclose()
    await client.aclose()
    await proxy.stop()


async def test_a_cluster_redirect_is_followed_by_redis_py(redis_cluster) -> None:
    client = await open_redis(redis_cluster.url)
    store = EventStore(client, lean_appends=True)
    streams = [unique_id("moved") for _ in range(8)]
    owners = {client.get_node_from_key(log_key(s)).name for s in streams}
    assert len(owners) > 1
    wrong = client.get_node_from_key(log_key(streams[0]))
    store.link.address_of = lambda node: (wrong.host, wrong.port)  # every call to one master: MOVED for the rest
    results = await store.append_many(requests(streams))
    assert [r.version for r in results] == [1] * 8
    for stream in streams:
        assert len(await store.read(stream)) == 1
    await store.aclose()
    await client.aclose()


@pytest.fixture
async def user_on_db_2(private_redis):
    admin = await open_redis(private_redis.url)
    name = unique_id("user")
    await admin.execute_command("ACL", "SETUSER", name, "on", ">secret-pass", "~*", "+@all")
    yield f"redis://{name}:secret-pass@{private_redis.host}:{private_redis.port}/2", name
    await admin.execute_command("ACL", "DELUSER", name)
    await admin.aclose()


async def test_the_link_logs_in_and_selects_the_urls_database(user_on_db_2, private_redis) -> None:
    url, name = user_on_db_2
    client = await open_redis(url)
    store = EventStore(client, lean_appends=True)
    await client.script_load(APPEND_LUA)
    stream = unique_id("db2")
    assert (await store.append_many(requests([stream])))[0].version == 1
    assert store.link.round_trips == 1
    assert await client.exists(log_key(stream)) == 1  # in database 2, where redis-py reads
    db0 = await open_redis(private_redis.url)
    assert await db0.exists(log_key(stream)) == 0
    await db0.aclose()
    await store.aclose()
    await client.aclose()


async def test_a_refused_login_leaves_the_batch_to_redis_py(user_on_db_2, private_redis) -> None:
    url, name = user_on_db_2
    client = await open_redis(url)
    store = EventStore(client, lean_appends=True)
    store.link._login = [["AUTH", name, "not-the-password"]]  # the link alone is refused
    stream = unique_id("refused")
    assert (await store.append_many(requests([stream])))[0].version == 1
    assert len(await store.read(stream)) == 1
    await store.aclose()
    await client.aclose()


async def link_connection_id(store: EventStore) -> int:
    return (await store.link.execute(store.link.address_of(None), [["CLIENT", "ID"]]))[0]


async def test_a_stalled_server_past_the_reply_timeout_is_asked_again_through_redis_py(private_redis) -> None:
    """The link's batch waits `link_timeout`, then its connection is dropped and redis-py carries the batch
    (with its pool exhausted it would answer unavailable); the next batch takes a new link connection."""
    client = await open_redis(private_redis.url)
    store = EventStore(client, lean_appends=True, link_timeout=0.3)
    await client.script_load(APPEND_LUA)
    stream = unique_id("stall")
    assert (await store.append_many(requests([stream])))[0].version == 1
    first_connection = await link_connection_id(store)
    await client.execute_command("CLIENT", "PAUSE", 1500, "ALL")
    result = (await store.append_many(requests([stream], 1, "during")))[0]
    assert result.version == 2  # redis-py's copy (and the link's too, if the server ran it: a duplicate)
    assert len(await store.read(stream)) == 2  # stored once
    assert await link_connection_id(store) != first_connection  # the stalled connection was dropped
    after = (await store.append_many(requests([stream], 2, "after")))[0]
    assert after.version == 3
    await store.aclose()
    await client.aclose()


async def test_a_server_that_does_not_speak_resp_loses_the_link_not_the_append(embedded_redis) -> None:
    """Something that is not Redis answers where the link points: its connection is dropped and the batch
    goes through redis-py (to the real server)."""
    async def garbage(reader, writer):
        await reader.read(100)
        writer.write(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        await writer.drain()

    impostor = await asyncio.start_server(garbage, "127.0.0.1", 0)
    client = await open_redis(embedded_redis.url)
    store = EventStore(client, lean_appends=True)
    # No reply timeout: only dropping the connection at the first byte that is not RESP ends the wait.
    store.link = type(store.link)(client, reply_timeout=None, address=impostor.sockets[0].getsockname()[:2])
    stream = unique_id("impostor")
    assert (await asyncio.wait_for(store.append_many(requests([stream])), 30))[0].version == 1
    assert len(await store.read(stream)) == 1
    await store.aclose()
    await client.aclose()
    impostor.close()


async def test_each_batch_waits_its_own_reply_timeout_under_one_watchdog(private_redis) -> None:
    """The link keeps one timer per connection, not one per batch: a batch sent after an earlier one was
    answered still waits its whole timeout (the watchdog looks again when the oldest waiting batch is due),
    a stalled batch fails within about its timeout, and every later batch on that connection fails with it."""
    client = await open_redis(private_redis.url)
    store = EventStore(client, lean_appends=True, link_timeout=0.6)
    link, address = store.link, store.link.address_of(None)
    loop = asyncio.get_running_loop()
    assert await link.execute(address, [["PING"]]) == [b"PONG"]  # the watchdog armed for 0.6 s from here
    await asyncio.sleep(0.4)
    await client.execute_command("CLIENT", "PAUSE", 3000, "ALL")
    started = loop.time()
    late = asyncio.ensure_future(link.execute(address, [["SET", unique_id("k"), "v"]]))
    await asyncio.sleep(0.1)
    later = asyncio.ensure_future(link.execute(address, [["SET", unique_id("k"), "v"]]))
    with pytest.raises(RedisTimeoutError, match="within 0.6 s"):
        await late
    waited = loop.time() - started
    # Its own 0.6 s, not the first batch's time left (0.2 s); and before the pause ended (the SET would then
    # have been answered instead): which timer fired is the point, not how fast.
    assert 0.55 <= waited < 3.0, waited
    with pytest.raises(RedisConnectionError, match="lost"):  # the dropped connection takes the later batch with it
        await later
    await client.execute_command("CLIENT", "UNPAUSE")
    assert await link.execute(address, [["PING"]]) == [b"PONG"]  # a new connection
    await store.aclose()
    await client.aclose()


async def test_a_batch_its_caller_gave_up_on_is_not_timed(private_redis) -> None:
    """A caller that cancels its wait (its own deadline came first) leaves the batch's replies to be read and
    dropped in order: the watchdog times only batches somebody still waits for, so the connection stays."""
    client = await open_redis(private_redis.url)
    store = EventStore(client, lean_appends=True, link_timeout=0.3)
    link, address = store.link, store.link.address_of(None)
    first = await link_connection_id(store)
    await client.execute_command("CLIENT", "PAUSE", 800, "ALL")
    abandoned = asyncio.ensure_future(link.execute(address, [["PING"]]))
    await asyncio.sleep(0.05)
    abandoned.cancel()
    await asyncio.sleep(1.2)  # past the batch's 0.3 s and the pause: its reply came and was read
    assert await link_connection_id(store) == first
    await store.aclose()
    await client.aclose()
