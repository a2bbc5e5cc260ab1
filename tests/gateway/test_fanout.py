"""The fan-out backend on a real Redis: it publishes only when another process listens, and drops
its own publishes when they come back (its local sockets had them directly)."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis

from services.gateway.fanout import BatchingPubSubBackend, LocalSockets
from tests.fixtures.redis import unique_id


class Sink:
    def __init__(self) -> None:
        self.got: list[tuple[int, bytes]] = []

    def push(self, version: int, frame: bytes) -> None:
        self.got.append((version, frame))




async def test_publishes_reach_another_process_and_not_ourselves(redis_url):
    channel = unique_id("arena:updates:")
    ours = aioredis.Redis.from_url(redis_url)
    other = aioredis.Redis.from_url(redis_url)
    backend = BatchingPubSubBackend(redis=ours)
    other_pubsub = other.pubsub()
    try:
        await backend.subscribe([channel])  # this process watches the game too
        sink = Sink()
        backend.local.add(channel, sink)
        dispatching = asyncio.get_running_loop().create_task(anext(backend.stream_events()))
        # No other process listens: nothing is published, so nothing comes back to us either.
        assert await backend._run_publishes([(channel, backend.tagged(b"1\nalone"))]) == [0]
        # Another process subscribes: the next update reaches it; our copy is dropped by its tag,
        # while a foreign message on the same channel still comes through to our sockets.
        await other_pubsub.subscribe(channel)
        assert (await other_pubsub.get_message(timeout=2))["type"] == "subscribe"
        assert await backend._run_publishes([(channel, backend.tagged(b"2\nshared"))]) == [2]
        seen = await other_pubsub.get_message(ignore_subscribe_messages=True, timeout=2)
        assert seen["data"] == backend.tagged(b"2\nshared")
        assert await other_pubsub.get_message(ignore_subscribe_messages=True, timeout=0.2) is None
        await other.publish(channel, b"elsewhere 3\nforeign")
        for _ in range(200):
            if sink.got:
                break
            await asyncio.sleep(0.01)
        assert sink.got == [(3, b"foreign")]  # "alone" never came, "shared" was dropped
        dispatching.cancel()
    finally:
        await other_pubsub.aclose()
        await backend.on_shutdown()
        await ours.aclose()
        await other.aclose()


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
    view = sock.recv()["view"]
    busy, quiet = bob.open(created["id"]), carol.open(created["id"])
    assert busy.recv()["role"] == quiet.recv()["role"] == "spectator"
    for version in range(4):
        busy.send({"type": "c2s.ping"})
        assert sock.move(version, view["legal"][0])["type"] == "s2c.accepted"
        view = sock.recv_until("s2c.update")["view"]
    for watcher in (busy, quiet):
        updates = [watcher.recv_until("s2c.update") for _ in range(4)]
        assert [u["version"] for u in updates] == [1, 2, 3, 4] and updates[-1]["view"] == view
    for s in (sock, busy, quiet):
        s.close()


def test_closed_sockets_leave_no_channel_behind(gateway, alice):
    """Litestar's channels plugin keeps an entry per channel ever subscribed (and scans them all on each
    unsubscribe); a process watching games for weeks, or a client opening random game ids, must not grow it."""
    import time

    from services.gateway.plugin import ArenaPlugin

    channels = gateway.server.config.app.plugins.get(ArenaPlugin).channels
    game_id = alice.create("wish", None, 3)["id"]
    sock = alice.open(game_id)
    sock.recv()
    bogus = [alice.open(f"{n:016x}") for n in range(20)]
    assert all(s.recv()["code"] == "no_such_game" for s in bogus)
    for s in [sock, *bogus]:
        s.close()
    names = {f"arena:updates:{game_id}"} | {f"arena:updates:{n:016x}" for n in range(20)}
    deadline = time.monotonic() + 5
    while names & set(channels._channels) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not names & set(channels._channels)
