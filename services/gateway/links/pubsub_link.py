"""The gateway's link to Redis pub/sub on one server: every SUBSCRIBE, UNSUBSCRIBE, PUBLISH and PUBSUB
NUMSUB it sends. On a cluster the gateway uses ShardedPubSubLink (sharded_link.py) instead, with the same
methods (`Link`); nothing else in the gateway names a pub/sub command. Only redis-py's public PubSub API is
used: one connection carries every subscription of this process.

The counts and publishes of the move path go over a lean connection (services/redis/lean_link.py) when one
is given, redis-py carrying them when it cannot: a message published twice that way is skipped by every
receiving socket (each push carries its version and a socket never shows one twice).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import NamedTuple, Protocol

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ...redis.client import as_text
from ...redis.lean_link import LeanLink

SUBSCRIBED, MESSAGE = "subscribed", "message"
LEAN_FAILURES = (RedisConnectionError, RedisTimeoutError)  # the lean link could not carry it: redis-py does


async def lean_replies(lean: LeanLink | None, node: object, commands: list[list]) -> list | None:
    """The replies over the lean link to `node` (None: the one server), or None when there is no link or
    it could not carry every one."""
    if lean is None:
        return None
    try:
        replies = await lean.execute(lean.address_of(node), commands)
    except LEAN_FAILURES:
        return None
    return None if any(isinstance(reply, Exception) for reply in replies) else replies


def counts_of(reply: list) -> dict[str, int]:
    """PUBSUB NUMSUB's (or SHARDNUMSUB's) flat reply [channel, count, ...] as a mapping."""
    return {reply[i].decode(): int(reply[i + 1]) for i in range(0, len(reply), 2)}


class Received(NamedTuple):
    kind: str  # SUBSCRIBED (Redis confirmed a SUBSCRIBE), MESSAGE, or another pub/sub reply type
    channel: str
    data: bytes


class Link(Protocol):
    """What the Fanout needs of pub/sub: PubSubLink on one server, ShardedPubSubLink on a cluster."""

    async def connect(self) -> None: ...
    async def subscribe(self, channels: Sequence[str]) -> None: ...
    async def unsubscribe(self, channels: Sequence[str]) -> None: ...
    def subscribed(self) -> set[str]: ...
    async def receive(self, timeout: float) -> Received | None: ...
    async def listeners(self, channels: Sequence[str]) -> dict[str, int]: ...
    async def publish(self, messages: Sequence[tuple[str, bytes]]) -> list[int]: ...
    async def aclose(self) -> None: ...


class PubSubLink:
    def __init__(self, redis: aioredis.Redis, lean: LeanLink | None = None) -> None:
        self.redis = redis  # publishes and counts (a pooled client: commands, not the subscribed connection)
        self.lean = lean if lean is not None and lean.usable else None
        self.pubsub = redis.pubsub()
        self._reconnecting = asyncio.Lock()

    async def connect(self) -> None:
        """Take the subscriber connection (before the first subscription, so reading works at once)."""
        if self.pubsub.connection is None:
            await self.pubsub.connect()

    async def subscribe(self, channels: Sequence[str]) -> None:
        """Send SUBSCRIBE; Redis's confirmation comes back through `receive` (kind SUBSCRIBED)."""
        await self._reconnect_if_lost()
        await self.pubsub.subscribe(*channels)

    async def unsubscribe(self, channels: Sequence[str]) -> None:
        await self._reconnect_if_lost()
        await self.pubsub.unsubscribe(*channels)

    async def _reconnect_if_lost(self) -> None:
        """Take a lost subscriber connection again, one task at a time: redis-py 8 lets two tasks (a
        subscribe's and the reader's) reconnect one connection at once, and the loser fails inside it
        (AttributeError on a closed writer). redis-py subscribes the new connection to its channels again."""
        connection = self.pubsub.connection
        if connection is None or connection.is_connected:
            return
        async with self._reconnecting:
            if not connection.is_connected:
                await connection.connect()

    def subscribed(self) -> set[str]:
        """The channels redis-py holds subscriptions for (and subscribes a new connection to again)."""
        return {c.decode() if isinstance(c, bytes) else c for c in self.pubsub.channels}

    async def receive(self, timeout: float) -> Received | None:
        """The next message or confirmation on the subscriber connection; None after `timeout` s of silence.
        A lost connection is taken again by redis-py, which subscribes it to its channels again."""
        await self.connect()
        await self._reconnect_if_lost()
        try:
            message = await self.pubsub.get_message(timeout=timeout)
        except (AttributeError, RuntimeError) as exc:  # a reconnect still raced with a send: try again
            raise RedisConnectionError(f"the subscriber connection broke while taken again: {exc!r}") from exc
        if message is None or message["channel"] is None:
            return None
        kind = {"subscribe": SUBSCRIBED, "message": MESSAGE}.get(message["type"], message["type"])
        data = message["data"]
        return Received(kind, message["channel"].decode(), data if isinstance(data, bytes) else b"")

    async def listeners(self, channels: Sequence[str]) -> dict[str, int]:
        """Subscribers per channel, over every client of Redis (this process's own subscription included)."""
        lean = await lean_replies(self.lean, None, [["PUBSUB", "NUMSUB", *channels]])
        if lean is not None:
            return counts_of(lean[0])
        return {as_text(name): count for name, count in await self.redis.pubsub_numsub(*channels)}

    async def publish(self, messages: Sequence[tuple[str, bytes]]) -> list[int]:
        """Publish each (channel, data) in one round trip; how many subscribers got each."""
        lean = await lean_replies(self.lean, None, [["PUBLISH", channel, data] for channel, data in messages])
        if lean is not None:
            return lean
        pipe = self.redis.pipeline(transaction=False)
        for channel, data in messages:
            pipe.publish(channel, data)
        return await pipe.execute()

    async def aclose(self) -> None:
        if self.lean is not None:
            await self.lean.aclose()
        await self.pubsub.aclose()
        await self.redis.aclose()
