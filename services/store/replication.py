"""Appends acknowledged by replicas: WAIT after the append script, on the connection that wrote.

With `appendfsync always` an acknowledged move is on the master's disk. A replica gets it a moment later,
asynchronously: if the master's machine is lost in that moment and the replica is promoted, the move is
gone though the player saw it accepted. WAIT closes that window: the answer goes out only once `replicas`
replicas have the write, or the append fails with ReplicaTimeout (the move IS on the master; the client
sends it again with the same move_id and is answered once a replica has it).

WAIT counts the writes of the connection it runs on, so it goes in the same pipeline as the appends, one
per node that took some (on a cluster each master has its own replicas). A retried move id writes
nothing, so WAIT would prove nothing for it: the store re-sets its move record (the same value, which is
replicated like any write) and waits for that, which a replica can only have after the original move.

The price: a replica round trip on every batch of appends, and while a master has fewer replicas up than
asked, its games answer moves `unavailable`. ARENA_REPLICA_ACKS=0 prefers availability instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis

from .errors import StoreError
from ..redis.client import is_cluster, node_of  # noqa: F401  (re-exported: the store routes by them)

AUTO = "auto"


@dataclass(frozen=True)
class ReplicaAck:
    replicas: int
    timeout_ms: int

    def __post_init__(self) -> None:
        if self.replicas < 1 or self.timeout_ms < 1:
            raise ValueError(f"a replica ack needs replicas >= 1 and timeout_ms >= 1, not {self}")


class ReplicaTimeout(StoreError):
    """The append is on the master, but fewer replicas than asked confirmed it in time."""

    def __init__(self, stream_id: str, confirmed: int, wanted: int, timeout_ms: int) -> None:
        super().__init__(
            f"append to {stream_id!r} is on the master but {confirmed} of {wanted} replicas confirmed it "
            f"within {timeout_ms} ms: send it again with the same move id"
        )
        self.stream_id, self.confirmed, self.wanted = stream_id, confirmed, wanted


def node_name(node: Any) -> str:  # Any: a redis-py cluster node (untyped there)
    """The name a node's WAIT reply is kept under ("" for a single server)."""
    return "" if node is None else node.name


def add_wait(pipe: Any, ack: ReplicaAck, node: Any) -> None:  # Any: a redis-py cluster node (untyped there)
    if node is None:
        pipe.execute_command("WAIT", ack.replicas, ack.timeout_ms)
    else:
        pipe.execute_command("WAIT", ack.replicas, ack.timeout_ms, target_nodes=node)


async def fewest_replicas(client: Any) -> int:  # Any: a redis-py client, one server's or a cluster's (they share no type)
    """The replicas connected to the master that has the fewest (0 when any master has none)."""
    if is_cluster(client):
        infos = await client.info("replication", target_nodes=aioredis.RedisCluster.PRIMARIES)
        counts = [int(info.get("connected_slaves", 0)) for info in infos.values()]
    else:
        counts = [int((await client.info("replication")).get("connected_slaves", 0))]
    return min(counts, default=0)


async def resolve_replica_ack(setting: str, timeout_ms: int, client: Any) -> ReplicaAck | None:  # Any: a redis-py client
    """From ARENA_REPLICA_ACKS: `auto` waits for one replica where every master has one (asked once, at
    start-up), a number waits for that many, 0 never waits."""
    text = setting.strip().lower()
    if text == AUTO:
        return ReplicaAck(1, timeout_ms) if await fewest_replicas(client) >= 1 else None
    try:
        wanted = int(text)
    except ValueError:
        raise ValueError(f"ARENA_REPLICA_ACKS is auto or a number of replicas, not {setting!r}") from None
    if wanted < 0:
        raise ValueError(f"ARENA_REPLICA_ACKS cannot be negative ({setting!r})")
    return ReplicaAck(wanted, timeout_ms) if wanted else None
