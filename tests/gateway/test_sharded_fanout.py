"""Sharded pub/sub on a real local cluster: a game's updates travel through its own slot's master (SSUBSCRIBE,
SPUBLISH there; no classic PUBLISH anywhere), a lost subscriber connection is replaced, and two `arena serve`
processes on a cluster URL show a spectator on one the moves made through the other."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import redis
import redis.cluster

from services.gateway.links.fanout import Fanout
from services.gateway.plugin import pubsub_link
from services.gateway.links.sharded_link import ShardedPubSubLink
from services.redis.client import open_redis, parse_redis_url
from services.store.keys import (
    board_channel, daily_board_key, log_key, race_channel, race_presence_key, racer_channel, updates_channel,
)
from tests.fixtures.redis import unique_id
from tests.gateway.fanout_sinks import Sink, eventually
from tests.gateway.client import Audit, Client
from tests.gateway.conftest import SECRET
from tests.support.processes import ServeProcess

pytestmark = pytest.mark.integration


def publish_calls(cluster_url: str) -> dict[str, tuple[int, int]]:
    """Per master (host:port): how many SPUBLISH and classic PUBLISH it has run."""
    plain_url, _ = parse_redis_url(cluster_url)
    client = redis.cluster.RedisCluster.from_url(plain_url)
    try:
        calls = {}
        for node in client.get_primaries():
            stats = client.info("commandstats", target_nodes=node)
            calls[node.name] = tuple(stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in ("spublish", "publish"))
        return calls
    finally:
        client.close()


def test_channels_share_their_owners_slot(redis_cluster):
    game, challenge = unique_id("game"), "2026-12-01/spider/suits=2"
    client = redis.cluster.RedisCluster.from_url(parse_redis_url(redis_cluster.url)[0])
    try:
        assert client.keyslot(updates_channel(game)) == client.keyslot(log_key(game))
        assert client.keyslot(board_channel(challenge)) == client.keyslot(daily_board_key(challenge))
        race = unique_id("race")
        assert client.keyslot(race_channel(race)) == client.keyslot(racer_channel(race, "p1")) \
            == client.keyslot(race_presence_key(race)) == client.keyslot(log_key(race, "race"))
    finally:
        client.close()


@pytest.mark.parametrize("lean", [False, True], ids=["redis-py", "lean link"])
async def test_updates_go_through_the_games_own_master(redis_cluster, lean):
    assert isinstance(pubsub_link(redis_cluster.url, 10, 5), ShardedPubSubLink)
    games = [unique_id("game") for _ in range(6)]  # over several slots, so over several masters
    channels = [updates_channel(game) for game in games]
    before = publish_calls(redis_cluster.url)
    here, there = (Fanout(pubsub_link(redis_cluster.url, 10, 5, lean=lean), confirm_timeout=5) for _ in range(2))
    counter = await open_redis(redis_cluster.url)
    try:
        await here.start()
        await there.start()
        sinks = {channel: Sink() for channel in channels}
        for channel in channels:
            there.watch(channel, sinks[channel])
            await there.ready(channel)
        alone = updates_channel(unique_id("game"))  # nobody else watches it: not published at all
        here.watch(alone, Sink())
        await here.ready(alone)
        sent = await here.publish_batch([(channel, here.tagged(b"1\nmove")) for channel in [*channels, alone]])
        assert sent == [1] * len(channels) + [0]
        assert await eventually(lambda: all(sink.got for sink in sinks.values()))
        assert all(sink.got == [(1, b"move")] for sink in sinks.values())
        assert (here.link.lean.round_trips > 0) if lean else here.link.lean is None
        owners = [counter.get_node_from_key(channel).name for channel in channels]
        for channel, owner in zip(channels, owners):  # the subscription sits on the owner, and only there
            for node in counter.get_primaries():
                count = dict(await counter.pubsub_shardnumsub(channel, target_nodes=node))[channel.encode()]
                assert count == (1 if node.name == owner else 0)
    finally:
        await here.aclose()
        await there.aclose()
        await counter.aclose()
    after = publish_calls(redis_cluster.url)
    for name, (spublish, publish) in after.items():
        assert publish == before[name][1], "a classic PUBLISH was sent"
        assert spublish - before[name][0] == owners.count(name)


async def test_a_lost_subscriber_connection_is_replaced(redis_cluster):
    """Redis closes this process's subscriber connection on one master: the link subscribes its channels
    again on a new connection, and updates reach the sockets again."""
    channel = updates_channel(unique_id("game"))
    here, there = (Fanout(pubsub_link(redis_cluster.url, 10, 5), confirm_timeout=5) for _ in range(2))
    there.retry_seconds = 0.05
    admin = await open_redis(redis_cluster.url)
    try:
        await here.start()
        await there.start()
        sink = Sink()
        there.watch(channel, sink)
        await there.ready(channel)
        owner = admin.get_node_from_key(channel)
        assert await admin.execute_command("CLIENT KILL", "TYPE", "pubsub", target_nodes=owner) >= 1
        version = 0
        while not sink.got and version < 100:  # until the new subscription is in place
            version += 1
            await here.publish_batch([(channel, here.tagged(f"{version}\nagain".encode()))])
            await asyncio.sleep(0.05)
        assert sink.got and sink.got[-1][1] == b"again"
    finally:
        await here.aclose()
        await there.aclose()
        await admin.aclose()


@pytest.fixture
def cluster_audit(redis_cluster):
    client = redis.cluster.RedisCluster.from_url(parse_redis_url(redis_cluster.url)[0])
    yield Audit(client)
    client.close()


def test_two_gateways_on_a_cluster_spectator_sees_moves_made_through_the_other(redis_cluster, cluster_audit, tmp_path):
    env = {"REDIS_URL": redis_cluster.url, "ARENA_SECRET": SECRET, "ARENA_SCHEDULER": "0"}
    a = ServeProcess(tmp_path / "a", **env).start()
    b = ServeProcess(tmp_path / "b", **env).start()
    try:
        with httpx.Client(base_url=a.url, timeout=10) as http_a, httpx.Client(base_url=b.url, timeout=10) as http_b:
            player = Client.guest(a.url, http_a, cluster_audit)
            watcher = Client.guest(b.url, http_b, cluster_audit)
            game_id = player.create("wish", {"mode": "open"}, 77)["id"]
            before = publish_calls(redis_cluster.url)
            sock, spectator = player.open(game_id, a.url), watcher.open(game_id, b.url)
            view = sock.recv()["snapshot"]["view"]
            assert spectator.recv()["role"] == "spectator"
            for version in range(3):
                accepted = sock.move(version, view["legal"][0])
                assert accepted["type"] == "s2c.accepted"
                view = accepted["snapshot"]["view"]
                seen = spectator.recv_until("s2c.update")["snapshot"]
                assert seen["version"] == version + 1 and seen["view"] == view
            sock.close()
            spectator.close()
        after = publish_calls(redis_cluster.url)
        plain_url, _ = parse_redis_url(redis_cluster.url)
        client = redis.cluster.RedisCluster.from_url(plain_url)
        owner = client.get_node_from_key(updates_channel(game_id)).name
        client.close()
        published = {name: (after[name][0] - before[name][0], after[name][1] - before[name][1]) for name in after}
        assert published.pop(owner) == (3, 0)  # every move's update, through the game's own master
        assert set(published.values()) == {(0, 0)}
    finally:
        for server in (a, b):
            assert server.stop() == 0
