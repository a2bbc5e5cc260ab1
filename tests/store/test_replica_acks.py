"""Appends that wait for a replica (WAIT): on a master with a replica and on a cluster with one replica per
master. A replica that stops answering (SIGSTOP) makes the append fail with ReplicaTimeout though the
event is on the master; sent again with the same move id once the replica is back, it is confirmed.
"""

from __future__ import annotations

import os
import signal

import pytest
import redis

from services.redis.client import open_redis
from services.store import EventStore, NewEvent
from services.store.envelope import AppendRequest, log_key
from services.store.replication import ReplicaAck, ReplicaTimeout, fewest_replicas, resolve_replica_ack
from tests.fixtures.redis import unique_id
from tests.support.redis_cluster import LocalRedisCluster

pytestmark = pytest.mark.integration
ACK = ReplicaAck(1, 300)  # where the wait is meant to run out
# Where the replica is meant to confirm: room for a loaded machine (a replica still in its first sync).
CONFIRM = ReplicaAck(1, 5_000)


def on_replica(server, stream: str) -> int:
    client = redis.Redis(host=server.host, port=server.port)
    try:
        return client.xlen(log_key(stream))
    finally:
        client.close()


class Stopped:
    """A server process held with SIGSTOP (it answers nothing, its connections stay up), then let go."""

    def __init__(self, server) -> None:
        self.pid = server.process.pid

    def __enter__(self) -> Stopped:
        os.kill(self.pid, signal.SIGSTOP)
        return self

    def __exit__(self, *exc) -> None:
        os.kill(self.pid, signal.SIGCONT)


@pytest.fixture
def replicated(replicated_redis):
    return replicated_redis


@pytest.fixture(scope="module")
def replicated_cluster(tmp_path_factory):
    with LocalRedisCluster(tmp_path_factory.mktemp("replicated-cluster"), masters=3, replicas=1) as cluster:
        yield cluster


async def test_auto_waits_only_where_replicas_exist(replicated, embedded_redis):
    for url, expected in ((replicated.url, ACK.replicas), (embedded_redis.url, 0)):
        client = await open_redis(url)
        try:
            assert await fewest_replicas(client) == expected
            resolved = await resolve_replica_ack("auto", ACK.timeout_ms, client)
            assert resolved == (ACK if expected else None)
            assert await resolve_replica_ack("0", 100, client) is None
            assert await resolve_replica_ack("2", 100, client) == ReplicaAck(2, 100)
            with pytest.raises(ValueError, match="ARENA_REPLICA_ACKS"):
                await resolve_replica_ack("some", 100, client)
        finally:
            await client.aclose()


async def test_an_acknowledged_append_is_on_the_replica(replicated):
    client = await open_redis(replicated.url)
    try:
        store, stream = EventStore(client, replica_ack=CONFIRM), unique_id("game")
        for version in range(3):
            await store.append(stream, version, [NewEvent("moved", b"%d" % version)], move_id=f"m{version}")
            assert on_replica(replicated.replicas[0], stream) == version + 1  # there when the answer came
    finally:
        await client.aclose()


async def test_a_silent_replica_fails_the_append_and_the_retry_is_confirmed_later(replicated):
    client = await open_redis(replicated.url)
    try:
        store, stream = EventStore(client, replica_ack=ACK), unique_id("game")
        with Stopped(replicated.replicas[0]):
            with pytest.raises(ReplicaTimeout, match="0 of 1 replicas"):
                await store.append(stream, 0, [NewEvent("moved", b"x")], move_id="m0")
            assert await store.version(stream) == 1  # on the master all the same
            with pytest.raises(ReplicaTimeout):  # the retry is not confirmed while the replica is away
                await store.append(stream, 0, [NewEvent("moved", b"x")], move_id="m0")
        retried = await store.append(stream, 0, [NewEvent("moved", b"x")], move_id="m0")
        assert retried.duplicate and retried.version == 1
        assert on_replica(replicated.replicas[0], stream) == 1
        unconfirmed = EventStore(client)  # no replica ack: the master's answer alone, as before
        with Stopped(replicated.replicas[0]):
            assert (await unconfirmed.append(stream, 1, [NewEvent("moved", b"y")])).version == 2
    finally:
        await client.aclose()


async def test_asking_for_more_replicas_than_there_are_fails_every_append(embedded_redis):
    client = await open_redis(embedded_redis.url)
    try:
        store, stream = EventStore(client, replica_ack=ReplicaAck(1, 50)), unique_id("game")
        with pytest.raises(ReplicaTimeout):
            await store.append(stream, 0, [NewEvent("moved", b"x")])
    finally:
        await client.aclose()


async def test_on_a_cluster_each_master_waits_for_its_own_replica(replicated_cluster):
    client = await open_redis(replicated_cluster.url)
    try:
        assert await fewest_replicas(client) == 1
        store = EventStore(client, replica_ack=await resolve_replica_ack("auto", CONFIRM.timeout_ms, client))
        silenced = EventStore(client, replica_ack=await resolve_replica_ack("auto", ACK.timeout_ms, client))
        streams = [unique_id("game") for _ in range(30)]  # spread over the three masters' slots
        results = await store.append_many([AppendRequest(s, 0, [NewEvent("moved", b"x")], f"m-{s}") for s in streams])
        assert all(r.version == 1 and not r.duplicate for r in results)
        # Replica i follows master i: silence replica 0, and only master 0's games fail to confirm.
        master0 = replicated_cluster.nodes[0]
        on_master0 = {s for s in streams if client.get_node_from_key(log_key(s)).port == master0.port}
        assert on_master0 and on_master0 != set(streams)
        with Stopped(replicated_cluster.replica_nodes[0]):
            results = await silenced.append_many([AppendRequest(s, 1, [NewEvent("moved", b"y")]) for s in streams])
        for stream, result in zip(streams, results):
            if stream in on_master0:
                assert isinstance(result, ReplicaTimeout), result
            else:
                assert result.version == 2, result
        assert [await store.version(s) for s in streams] == [2] * len(streams)  # stored on every master
    finally:
        await client.aclose()


async def test_a_link_sent_to_a_replica_leaves_the_batch_and_its_wait_to_redis_py(replicated_cluster):
    """After a failover the slot map can still name the old master, now a replica: it redirects the appends
    and refuses WAIT. Nothing was written there, so that WAIT proves nothing: the appends redis-py then
    stores (and waits for) are answered as stored, not as 'waiting for replicas failed'."""
    client = await open_redis(replicated_cluster.url)
    store = EventStore(client, replica_ack=CONFIRM, lean_appends=True)
    try:
        master0, replica0 = replicated_cluster.nodes[0], replicated_cluster.replica_nodes[0]
        streams = [s for s in (unique_id("game") for _ in range(60))
                   if client.get_node_from_key(log_key(s)).port == master0.port][:5]
        assert streams
        store.link.address_of = lambda node: (replica0.host, replica0.port)  # a stale map: the replica
        results = await store.append_many([AppendRequest(s, 0, [NewEvent("moved", b"x")], f"m-{s}") for s in streams])
        assert [(r.version, r.duplicate) for r in results] == [(1, False)] * len(streams), results
    finally:
        await store.aclose()
        await client.aclose()
