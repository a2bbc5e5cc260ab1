"""The gateway's link to sharded pub/sub on a Redis Cluster: SSUBSCRIBE, SUNSUBSCRIBE, SPUBLISH and PUBSUB
SHARDNUMSUB, with the same methods as PubSubLink (the Fanout cannot tell them apart).

Why sharded: classic pub/sub on a cluster is broadcast, every PUBLISH is copied to every node, so fan-out
traffic grows with the cluster instead of spreading over it. A shard channel lives in its slot, like a key:
`updates_channel` and `board_channel` carry the game's (or challenge's) hash tag, so a game's updates travel
through the node that holds its log, and a cluster of N masters carries 1/N of them on each.

One subscriber connection per master that owns a watched channel (a `NodeListener`), each read by its own
task into one queue that `receive` drains: a quiet node never delays another node's messages.

Failures: a listener whose connection fails (or that Redis answers with an error, e.g. MOVED after a
failover or a resharding) is dropped whole, and its channels are "orphans": a task refreshes the cluster's
map of slots and subscribes them on their current owner until every one has a home again. Their
confirmations come back through `receive` as they do for the Fanout's own SUBSCRIBEs, and the error itself
is raised from `receive` once, so the Fanout fails the confirmations in flight and asks again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisClusterException, RedisError

from ...redis.client import as_text
from ...redis.lean_link import LeanLink
from .pubsub_link import MESSAGE, SUBSCRIBED, Received, counts_of, lean_replies

log = logging.getLogger("arena.gateway")

LINK_ERRORS = (RedisError, RedisClusterException, OSError)
KINDS = {"ssubscribe": SUBSCRIBED, "smessage": MESSAGE}


def node_url(plain_url: str, node: ClusterNode) -> str:
    """`plain_url` (scheme, credentials, options) pointed at one node."""
    parts = urlsplit(plain_url)
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@{node.host}:{node.port}" if credentials else f"{node.host}:{node.port}"
    return urlunsplit((parts.scheme, netloc, "", parts.query, parts.fragment))


class NodeListener:
    """One master's subscriber connection. It never reconnects by itself (redis-py would subscribe every
    channel again in one SSUBSCRIBE, which a node owning several slots refuses): a failed one is replaced."""

    read_timeout = 1.0  # seconds a read waits before looking again

    def __init__(self, url: str) -> None:
        # No retries: the first error is ours to see, and the listener is replaced.
        self.client = aioredis.Redis.from_url(url, retry=Retry(NoBackoff(), 0))
        self.pubsub = self.client.pubsub()
        self.reader: asyncio.Task | None = None
        self._connecting = asyncio.Lock()

    async def connect(self) -> None:
        """Take the subscriber connection once: two SSUBSCRIBEs racing to connect would take two."""
        async with self._connecting:
            if self.pubsub.connection is None:
                await self.pubsub.connect()

    async def aclose(self) -> None:
        if self.reader is not None and self.reader is not asyncio.current_task():
            self.reader.cancel()
            await asyncio.gather(self.reader, return_exceptions=True)
        try:
            await self.pubsub.aclose()
            await self.client.aclose()
        except LINK_ERRORS:
            pass  # a dead connection has nothing left to close


class ShardedPubSubLink:
    retry_seconds = 0.5  # between two tries to find the orphans a home

    def __init__(self, cluster: RedisCluster, plain_url: str, lean: LeanLink | None = None) -> None:
        self.cluster = cluster  # publishes, counts and the map of slots (pooled: never the subscribed connections)
        self.lean = lean if lean is not None and lean.usable else None  # as PubSubLink's (pubsub_link.py)
        self.plain_url = plain_url
        self.received: asyncio.Queue[Received | BaseException] = asyncio.Queue()
        self.by_node: dict[str, NodeListener] = {}  # node name -> its listener
        self.homes: dict[str, NodeListener] = {}  # channel -> the listener it is subscribed on
        self.orphans: set[str] = set()  # subscribed channels whose listener failed, waiting for a new one
        self._rehoming: asyncio.Task | None = None
        self._closing: set[asyncio.Task] = set()

    async def connect(self) -> None:
        """Learn the cluster's map of slots (a subscription needs to know its node)."""
        await self.cluster.initialize()

    def _master_of(self, channel: str) -> ClusterNode:
        node = self.cluster.get_node_from_key(channel)
        assert node is not None, "the slot map is read in connect(): every slot has its master"
        return node

    async def subscribe(self, channels: Sequence[str]) -> None:
        """SSUBSCRIBE each channel on the master owning its slot; confirmations come through `receive`."""
        await self.connect()
        for channel in channels:
            listener = self._listener_of(self._master_of(channel))
            moved_from = self.homes.get(channel)
            self.homes[channel] = listener
            self.orphans.discard(channel)
            if moved_from is not None and moved_from is not listener:
                await self._forget_on(moved_from, channel)
            try:
                await listener.connect()
                if listener.reader is None:
                    listener.reader = asyncio.get_running_loop().create_task(self._read(listener))
                await listener.pubsub.ssubscribe(channel)
            except LINK_ERRORS as exc:
                self._lost(listener, exc)
                raise

    async def unsubscribe(self, channels: Sequence[str]) -> None:
        for channel in channels:
            self.orphans.discard(channel)
            listener = self.homes.pop(channel, None)
            if listener is not None:
                await self._forget_on(listener, channel)

    def subscribed(self) -> set[str]:
        """The channels this link holds (or, for orphans, is subscribing again) on some master."""
        return set(self.homes) | self.orphans

    async def _forget_on(self, listener: NodeListener, channel: str) -> None:
        if _name_of(listener, self.by_node) is not None:  # else dropped: the connection is gone already
            try:
                await listener.pubsub.sunsubscribe(channel)
            except LINK_ERRORS as exc:
                self._lost(listener, exc)

    async def receive(self, timeout: float) -> Received | None:
        """The next message or confirmation from any node; None after `timeout` s of silence. A node's
        failure is raised here once (its channels are being subscribed again elsewhere meanwhile)."""
        try:
            item = await asyncio.wait_for(self.received.get(), timeout)
        except TimeoutError:
            return None
        if isinstance(item, BaseException):
            raise item
        return item

    async def listeners(self, channels: Sequence[str]) -> dict[str, int]:
        """Subscribers per channel, asked of each channel's own master (one SHARDNUMSUB per master)."""
        await self.connect()
        per_node: dict[str, tuple[ClusterNode, list[str]]] = {}
        for channel in channels:
            node = self._master_of(channel)
            per_node.setdefault(node.name, (node, []))[1].append(channel)
        answers = await asyncio.gather(*(self._count(node, names) for node, names in per_node.values()))
        return {name: count for answer in answers for name, count in answer.items()}

    async def _count(self, node: ClusterNode, names: list[str]) -> dict[str, int]:
        lean = await lean_replies(self.lean, node, [["PUBSUB", "SHARDNUMSUB", *names]])
        if lean is not None:
            return counts_of(lean[0])
        return {as_text(name): count for name, count in await self.cluster.pubsub_shardnumsub(*names, target_nodes=node)}

    async def publish(self, messages: Sequence[tuple[str, bytes]]) -> list[int]:
        """SPUBLISH each (channel, data), each to its slot's master, in one pipeline; subscribers reached each."""
        if self.lean is not None:
            per_node: dict[str, tuple[ClusterNode, list[int]]] = {}
            for index, (channel, _) in enumerate(messages):
                node = self._master_of(channel)
                per_node.setdefault(node.name, (node, []))[1].append(index)
            replies = await asyncio.gather(*(
                lean_replies(self.lean, node, [["SPUBLISH", *messages[i]] for i in indexes])
                for node, indexes in per_node.values()))
            if all(reply is not None for reply in replies):  # else all through redis-py (a copy is skipped)
                counts = [0] * len(messages)
                for (_, indexes), reply in zip(per_node.values(), replies):
                    for index, count in zip(indexes, reply or []):  # (none is None: checked above)
                        counts[index] = count
                return counts
        pipe = self.cluster.pipeline(transaction=False)
        for channel, data in messages:
            pipe.spublish(channel, data)
        return await pipe.execute()

    # Listeners and their failures -------------------------------------------------------------

    def _listener_of(self, node: ClusterNode) -> NodeListener:
        listener = self.by_node.get(node.name)
        if listener is None:
            listener = self.by_node[node.name] = NodeListener(node_url(self.plain_url, node))
        return listener

    async def _read(self, listener: NodeListener) -> None:
        while True:
            try:
                message = await listener.pubsub.get_message(timeout=listener.read_timeout)
            except LINK_ERRORS as exc:
                self._lost(listener, exc)
                return
            if message is None or message["channel"] is None:
                continue
            kind = KINDS.get(message["type"], message["type"])
            data = message["data"]
            self.received.put_nowait(Received(kind, message["channel"].decode(), data if isinstance(data, bytes) else b""))

    def _lost(self, listener: NodeListener, exc: BaseException) -> None:
        """Drop a failed listener; its channels wait for a new home (found by `_rehome`). The error is
        raised from `receive`: the Fanout fails the confirmations in flight (they were on this connection)."""
        name = _name_of(listener, self.by_node)
        if name is None:
            return  # dropped already
        del self.by_node[name]
        for channel in [channel for channel, home in self.homes.items() if home is listener]:
            del self.homes[channel]
            self.orphans.add(channel)
        self.received.put_nowait(exc)
        closing = asyncio.get_running_loop().create_task(listener.aclose())
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)
        if self.orphans and (self._rehoming is None or self._rehoming.done()):
            self._rehoming = asyncio.get_running_loop().create_task(self._rehome(name))

    async def _rehome(self, failed_node: str) -> None:
        while self.orphans:
            await asyncio.sleep(self.retry_seconds)
            try:
                # The map of slots as the cluster has it now (after a failover: the promoted replica).
                await self.cluster.nodes_manager.initialize(last_failed_node_name=failed_node)
                for channel in sorted(self.orphans):
                    await self.subscribe([channel])
            except LINK_ERRORS as exc:
                log.info("shard channels waiting for their node: %s (%s)", len(self.orphans), exc)

    async def aclose(self) -> None:
        if self._rehoming is not None:
            self._rehoming.cancel()
            await asyncio.gather(self._rehoming, return_exceptions=True)
        for listener in list(self.by_node.values()):
            await listener.aclose()
        self.by_node.clear()
        await asyncio.gather(*self._closing, return_exceptions=True)
        if self.lean is not None:
            await self.lean.aclose()
        await self.cluster.aclose()


def _name_of(listener: NodeListener, listeners: dict[str, NodeListener]) -> str | None:
    return next((name for name, held in listeners.items() if held is listener), None)
