"""The channels backend: Litestar's Redis pub/sub backend, made cheap for the move path.

- Publishes are queued and a flusher sends everything queued as one pipeline (one Redis round
  trip for many moves, not one per move).
- Local sockets get updates straight from the process that made the move (`LocalSockets`), so
  pub/sub is only for OTHER gateway processes. Each publish runs a small script that publishes
  only when the channel has a subscriber besides this process; when it does, the message comes
  back to us too and is dropped by its origin tag before anything else looks at it.
- Subscribing is the base class's.

Why "no other subscriber, no publish" is safe: a socket subscribes before it reads its snapshot.
A subscriber that the script does not count subscribed after the move was stored, so its
snapshot already shows the move.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable
from typing import Protocol

from litestar.channels.backends.redis import RedisChannelsPubSubBackend
from redis.exceptions import NoScriptError

# ARGV: channel, message, subscribers that are this process (0 or 1). Channel as ARGV, not KEYS:
# a channel is no key, and on a cluster node a key in KEYS must belong to that node's slots.
PUBLISH_IF_OTHERS_LISTEN = """
local listening = redis.call('PUBSUB', 'NUMSUB', ARGV[1])[2]
if listening > tonumber(ARGV[3]) then
  return redis.call('PUBLISH', ARGV[1], ARGV[2])
end
return 0
"""


class UpdateSink(Protocol):
    def push(self, version: int, frame: bytes) -> None: ...


class LocalSockets:
    """The sockets of this process, by channel: an update made here reaches them without Redis."""

    def __init__(self) -> None:
        self._by_channel: dict[str, set[UpdateSink]] = {}

    def add(self, channel: str, sink: UpdateSink) -> None:
        self._by_channel.setdefault(channel, set()).add(sink)

    def discard(self, channel: str, sink: UpdateSink) -> None:
        sinks = self._by_channel.get(channel)
        if sinks is not None:
            sinks.discard(sink)
            if not sinks:
                del self._by_channel[channel]

    def watching(self, channel: str) -> bool:
        return channel in self._by_channel

    def deliver(self, channel: str, version: int, frame: bytes, skip: UpdateSink | None = None) -> None:
        for sink in tuple(self._by_channel.get(channel, ())):
            if sink is not skip:
                sink.push(version, frame)


class BatchingPubSubBackend(RedisChannelsPubSubBackend):
    max_batch = 512

    def __init__(self, *, redis, **kwargs) -> None:
        super().__init__(redis=redis, **kwargs)
        self._publisher = redis
        self._queue: list[tuple[bytes, list[str]]] = []
        self._flushing: asyncio.Task | None = None
        self._publish_if_others = redis.register_script(PUBLISH_IF_OTHERS_LISTEN)
        self.origin = secrets.token_hex(6).encode() + b" "  # this process's tag on what it publishes
        self.local = LocalSockets()

    def tagged(self, data: bytes) -> bytes:
        return self.origin + data

    def is_own(self, data: bytes) -> bool:
        return data.startswith(self.origin)

    async def publish(self, data: bytes, channels: Iterable[str]) -> None:
        self.queue_publish(data, channels)

    def queue_publish(self, data: bytes, channels: Iterable[str]) -> None:
        """Queue without awaiting anything (the move path calls this directly, no plugin task hop)."""
        self._queue.append((data, list(set(channels))))
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
                commands = [
                    (channel, data, 1 if self.local.watching(channel) else 0)
                    for data, channels in batch
                    for channel in channels
                ]
                try:
                    await self._run_publishes(commands)
                except Exception:  # noqa: BLE001  an update lost in fan-out is recovered by the client's resync
                    pass
        finally:
            self._flushing = None

    async def _run_publishes(self, commands: list[tuple[str, bytes, int]]) -> list:
        """One pipeline of EVALSHA; the script is loaded once, and again if Redis lost it (a restart).

        Returns, per command, how many subscribers got it (0: nobody else listened, not published)."""
        sha = self._publish_if_others.sha
        pipe = self._publisher.pipeline(transaction=False)
        for channel, data, mine in commands:
            pipe.evalsha(sha, 0, channel, data, mine)
        results = await pipe.execute(raise_on_error=False)
        missing = [cmd for cmd, result in zip(commands, results) if isinstance(result, NoScriptError)]
        if missing:
            await self._publisher.script_load(PUBLISH_IF_OTHERS_LISTEN)
            pipe = self._publisher.pipeline(transaction=False)
            for channel, data, mine in missing:
                pipe.evalsha(sha, 0, channel, data, mine)
            again = iter(await pipe.execute())
            results = [next(again) if isinstance(result, NoScriptError) else result for result in results]
        return results

    async def stream_events(self):
        """As the base class's, minus a set difference over every subscribed channel per message
        (O(subscribed games) each: it dominated fan-out with a thousand games open), and minus
        this process's own publishes (its sockets had them directly)."""
        pubsub = self._pub_sub
        origin = self.origin
        while True:
            await self._has_subscribed.wait()
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
            if message is None:
                continue
            data = message["data"]
            if data.startswith(origin):
                continue
            channel = message["channel"]
            # Unsubscribing is queued: a message may still arrive for a channel we are leaving.
            if channel in pubsub.channels and channel not in pubsub.pending_unsubscribe_channels:
                yield channel.decode(), data

    async def on_shutdown(self) -> None:
        if self._flushing is not None:
            await asyncio.shield(self._flushing)
        await super().on_shutdown()
