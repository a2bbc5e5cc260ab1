"""The fan-out on a real Redis: it publishes only when another process listens, drops its own publishes
when they come back (its local sockets had them directly), and holds one subscription per watched game."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from services.gateway.links.fanout import Fanout, LocalSockets
from services.gateway.links.pubsub_link import PubSubLink
from services.redis.lean_link import LeanLink
from services.store.keys import updates_channel
from tests.fixtures.redis import unique_id
from tests.gateway.fanout_sinks import Sink, eventually


def fanout_on(redis_url: str, *, lean: bool = False) -> Fanout:
    client = aioredis.Redis.from_url(redis_url)
    return Fanout(PubSubLink(client, LeanLink(client, reply_timeout=5) if lean else None), confirm_timeout=5)


class Beside:
    """This process's fan-out watching one game (its subscription confirmed), and another process's
    connection to Redis with a pub/sub of its own, not yet subscribed."""

    def __init__(self, channel: str, fanout: Fanout, sink: Sink, other: aioredis.Redis) -> None:
        self.channel, self.fanout, self.sink, self.other = channel, fanout, sink, other
        self.other_pubsub = other.pubsub()

    async def other_subscribes(self) -> None:
        await self.other_pubsub.subscribe(self.channel)
        assert (await self.other_pubsub.get_message(timeout=2))["type"] == "subscribe"

    async def other_got(self, timeout: float = 2) -> bytes | None:
        seen = await self.other_pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
        return None if seen is None else seen["data"]


@contextlib.asynccontextmanager
async def watching_beside_another(redis_url: str, *, lean: bool) -> AsyncIterator[Beside]:
    beside = Beside(updates_channel(unique_id("game")), fanout_on(redis_url, lean=lean), Sink(),
                    aioredis.Redis.from_url(redis_url))
    try:
        await beside.fanout.start()
        beside.fanout.watch(beside.channel, beside.sink)  # this process watches the game too
        await beside.fanout.ready(beside.channel)
        yield beside
    finally:
        await beside.other_pubsub.aclose()
        await beside.fanout.aclose()
        await beside.other.aclose()


@pytest.mark.parametrize("lean", [False, True], ids=["redis-py", "lean link"])
async def test_publishes_reach_another_process_and_not_ourselves(redis_url, lean):
    """Counts and publishes through redis-py, and through the lean link the gateway uses."""
    async with watching_beside_another(redis_url, lean=lean) as beside:
        fanout, channel = beside.fanout, beside.channel
        # No other process listens: nothing is published, so nothing comes back to us either.
        assert await fanout.publish_batch([(channel, fanout.tagged(b"1\nalone"))]) == [0]
        # Another process subscribes: the next update reaches it; our copy is dropped by its tag,
        # while a foreign message on the same channel still comes through to our sockets.
        await beside.other_subscribes()
        assert await fanout.publish_batch([(channel, fanout.tagged(b"2\nshared"))]) == [2]
        assert await beside.other_got() == fanout.tagged(b"2\nshared")
        assert await beside.other_got(timeout=0.2) is None
        await beside.other.publish(channel, b"elsewhere 3\nforeign")
        assert await eventually(lambda: beside.sink.got)
        assert beside.sink.got == [(3, b"foreign")]  # "alone" never came, "shared" was dropped
        assert (fanout.link.lean.round_trips == 3) if lean else fanout.link.lean is None  # 2 counts, 1 publish


async def test_an_update_its_append_counted_costs_no_count_and_nobody_elses_no_command(redis_url):
    """A move's append counts its channel's subscribers (services/store/append_script.py): an update nobody
    else listened to costs no Redis command at all, one another process listens to goes straight to PUBLISH."""
    async with watching_beside_another(redis_url, lean=True) as beside:
        fanout, channel = beside.fanout, beside.channel
        fanout.queue_publish(channel, b"1\nalone", watchers=1)  # only this process's own subscription
        assert fanout.pending() == (0, 0) and fanout.link.lean.round_trips == 0
        await beside.other_subscribes()
        fanout.queue_publish(channel, b"2\nshared", watchers=2)
        assert await beside.other_got() == fanout.tagged(b"2\nshared")
        assert fanout.link.lean.round_trips == 1  # the PUBLISH, with no NUMSUB before it
        fanout.queue_publish(channel, b"3\nuncounted")  # no count came with it: the flush asks first
        assert await beside.other_got() == fanout.tagged(b"3\nuncounted")
        assert fanout.link.lean.round_trips == 3


async def test_one_subscription_per_channel_however_many_sockets_watch_it(redis_url):
    """Counted per channel: Redis sees one subscriber for this process while any socket watches, none after;
    and once `ready` returns, Redis already counts it (so a publisher's PUBSUB NUMSUB cannot miss it)."""
    channel = updates_channel(unique_id("game"))
    counter = aioredis.Redis.from_url(redis_url)
    fanout = fanout_on(redis_url)

    async def subscribers() -> int:
        return dict(await counter.pubsub_numsub(channel))[channel.encode()]

    try:
        await fanout.start()
        first, second = Sink(), Sink()
        fanout.watch(channel, first)
        fanout.watch(channel, second)
        await fanout.ready(channel)
        assert await subscribers() == 1
        await counter.publish(channel, b"elsewhere 1\nboth")
        assert await eventually(lambda: first.got and second.got)
        fanout.unwatch(channel, first)
        await fanout.ready(channel)
        assert await subscribers() == 1
        fanout.unwatch(channel, second)
        for _ in range(500):
            if not await subscribers():
                break
            await asyncio.sleep(0.01)
        assert await subscribers() == 0 and channel not in fanout.watched()
        fanout.watch(channel, first)  # watched again after the last one left: subscribed again
        await fanout.ready(channel)
        assert await subscribers() == 1
        fanout.unwatch(channel, first)
    finally:
        await fanout.aclose()
        await counter.aclose()


def test_local_sockets_deliver_to_every_socket_of_the_game_but_the_mover():
    local = LocalSockets()
    mover, spectator, elsewhere = Sink(), Sink(), Sink()
    local.add("g1", mover)
    local.add("g1", spectator)
    local.add("g2", elsewhere)
    local.deliver("g1", 4, b"frame", skip=mover)
    assert (mover.got, spectator.got, elsewhere.got) == ([], [(4, b"frame")], [])
    local.discard("g1", mover)
    local.discard("g1", spectator)
    assert not local.watching("g1") and local.watching("g2")


def test_spectators_on_this_process_see_every_update_in_order_while_they_ping(alice, bob, http, audit):
    """Local delivery (no Redis round trip): two watchers, one of them busy sending frames."""
    from tests.gateway.client import Client

    carol = Client.guest(alice.base_url, http, audit)
    created = alice.create("spider", {"suits": 1}, 11)
    sock = alice.open(created["id"])
    view = sock.recv()["snapshot"]["view"]
    busy, quiet = bob.open(created["id"]), carol.open(created["id"])
    assert busy.recv()["role"] == quiet.recv()["role"] == "spectator"
    for version in range(4):
        busy.send({"type": "c2s.ping"})
        accepted = sock.move(version, view["legal"][0])
        assert accepted["type"] == "s2c.accepted"
        view = accepted["snapshot"]["view"]
    for watcher in (busy, quiet):
        updates = [watcher.recv_until("s2c.update")["snapshot"] for _ in range(4)]
        assert [u["version"] for u in updates] == [1, 2, 3, 4] and updates[-1]["view"] == view
    for s in (sock, busy, quiet):
        s.close()


def test_closed_sockets_leave_no_channel_behind(gateway, alice, sync_redis_client):
    """Nothing is kept per game ever watched (nor per random id a client opened): neither in this process
    nor as a subscription on Redis."""
    import time

    from services.gateway.plugin import ArenaPlugin

    fanout = gateway.server.config.app.plugins.get(ArenaPlugin).fanout
    game_id = alice.create("wish", None, 3)["id"]
    sock = alice.open(game_id)
    sock.recv()
    bogus = [alice.open(f"{n:016x}") for n in range(20)]
    assert all(s.recv()["code"] == "no_such_game" for s in bogus)
    names = {updates_channel(game_id)} | {updates_channel(f"{n:016x}") for n in range(20)}
    assert updates_channel(game_id) in fanout.watched()
    for s in [sock, *bogus]:
        s.close()

    def subscribed() -> set[str]:
        return {name.decode() for name, count in sync_redis_client.pubsub_numsub(*names) if count}

    deadline = time.monotonic() + 5
    while (names & fanout.watched() or subscribed()) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not names & fanout.watched() and not subscribed()


async def test_redis_going_away_and_back_leaves_every_watched_channel_subscribed(tmp_path):
    """The one reader lives through the outage; a socket that came during it is told (ready raises), and is
    subscribed once Redis is back; the channels watched before are subscribed again, and one left during the
    outage is not."""
    from redis.exceptions import RedisError

    from services.redis.embedded import EmbeddedRedis

    server = EmbeddedRedis(tmp_path / "redis").start()
    port = server.port
    before, during, left = (updates_channel(unique_id("game")) for _ in range(3))
    fanout = fanout_on(server.url)
    fanout.confirm_timeout, fanout.retry_seconds = 2, 0.05
    publisher = None
    try:
        await fanout.start()
        early, late, leaving = Sink(), Sink(), Sink()
        fanout.watch(before, early)
        fanout.watch(left, leaving)
        await fanout.ready(before)
        await fanout.ready(left)
        server.stop()
        fanout.unwatch(left, leaving)
        fanout.watch(during, late)
        with pytest.raises(RedisError):
            await fanout.ready(during)
        server = EmbeddedRedis(tmp_path / "redis", port=port).start()
        for _ in range(20):
            try:
                await fanout.ready(during)
                break
            except RedisError:
                await asyncio.sleep(0.2)
        publisher = aioredis.Redis.from_url(server.url)
        for _ in range(1500):
            counts = dict(await publisher.pubsub_numsub(before, during, left))
            if counts[before.encode()] and counts[during.encode()] and not counts[left.encode()] \
                    and left not in fanout.watched():
                break
            await asyncio.sleep(0.02)
        assert not counts[left.encode()] and left not in fanout.watched()
        await publisher.publish(before, b"elsewhere 7\nbefore")
        await publisher.publish(during, b"elsewhere 8\nduring")
        assert await eventually(lambda: early.got and late.got)
        assert (early.got, late.got) == ([(7, b"before")], [(8, b"during")])
    finally:
        await fanout.aclose()
        if publisher is not None:
            await publisher.aclose()
        server.stop()


async def test_counts_and_publishes_the_lean_link_cannot_carry_go_through_redis_py(redis_url):
    """A lean link that cannot connect (nothing listens where it points): every count and publish still
    goes out, through redis-py."""
    import socket

    with socket.socket() as spare:  # a port nobody listens on
        spare.bind(("127.0.0.1", 0))
        nowhere = spare.getsockname()
    channel = updates_channel(unique_id("game"))
    client, other = aioredis.Redis.from_url(redis_url), aioredis.Redis.from_url(redis_url)
    fanout = Fanout(PubSubLink(client, LeanLink(client, reply_timeout=5, address=nowhere)), confirm_timeout=5)
    other_pubsub = other.pubsub()
    try:
        await fanout.start()
        await other_pubsub.subscribe(channel)
        assert (await other_pubsub.get_message(timeout=2))["type"] == "subscribe"
        assert await fanout.publish_batch([(channel, fanout.tagged(b"1\nhello"))]) == [1]
        seen = await other_pubsub.get_message(ignore_subscribe_messages=True, timeout=2)
        assert seen["data"] == fanout.tagged(b"1\nhello")
        assert fanout.link.lean.round_trips == 0  # the link never carried anything
    finally:
        await other_pubsub.aclose()
        await fanout.aclose()
        await other.aclose()


async def test_closing_with_redis_away_does_not_wait_for_it(tmp_path):
    """A server stopping while Redis is away: the channels left and the updates queued retry until Redis is
    back, so closing waits at most confirm_timeout for what is queued and not at all for the leaving (the
    link's close ends its subscriptions anyway). It used to wait for Redis forever, and SIGTERM hung."""
    from services.redis.embedded import EmbeddedRedis

    server = EmbeddedRedis(tmp_path / "redis")
    server.start()
    fanout = fanout_on(server.url)
    fanout.confirm_timeout = 0.5
    fanout.retry_seconds = 0.05
    channel = updates_channel(unique_id("game"))
    try:
        await fanout.start()
        sink = Sink()
        fanout.watch(channel, sink)
        await fanout.ready(channel)
        server.kill()
        await asyncio.sleep(0.5)  # the reader has met the outage: the connection is to be made again
        fanout.unwatch(channel, sink)  # a socket leaves during the outage: the unsubscribe retries
        fanout.queue_publish(channel, b"1\nlost")  # and an update waits to be published
        await asyncio.sleep(0.3)
        assert fanout._tasks["leave"] is not None and not fanout._tasks["leave"].done()
        await asyncio.wait_for(fanout.aclose(), 30)  # a hang fails here instead of stalling the suite
    finally:
        server.stop()
