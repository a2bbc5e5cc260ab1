"""The channels backend: Litestar's Redis pub/sub backend, made cheap for the move path.

- Publishes are queued and a flusher sends everything queued as one pipeline (one Redis round
  trip for many moves, not one per move).
- Local sockets get updates straight from the process that made the move (`LocalSockets`), so
  pub/sub is only for OTHER gateway processes. Each flush asks Redis (one PUBSUB NUMSUB for the
  batch) which channels have a subscriber besides this process and publishes only on those; the
  message then comes back to us too and is dropped by its origin tag before any dispatch.
- Other processes' updates are parsed once and pushed to this process's sockets of the game; the
  plugin's per-socket subscriber queues stay empty. Subscribing is the base class's.

Why "no other subscriber, no publish" is safe: a socket subscribes before it reads its snapshot.
NUMSUB is asked after the move was stored, so a subscriber it does not count subscribed later,
and its snapshot already shows the move.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable
from typing import Protocol

from litestar.channels.backends.redis import RedisChannelsPubSubBackend


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

    def deliver_published(self, channel: str, data: bytes) -> None:
        """A message from another process: "<origin> <version>\n<frame>"; the same bytes to every socket."""
        header, _, frame = data.partition(b"\n")
        _, _, version = header.rpartition(b" ")
        if version.isdigit():  # else not one of ours: only gateways publish on game channels
            self.deliver(channel, int(version), frame)


class BatchingPubSubBackend(RedisChannelsPubSubBackend):
    max_batch = 512

    def __init__(self, *, redis, **kwargs) -> None:
        super().__init__(redis=redis, **kwargs)
        self._publisher = redis
        self._queue: list[tuple[bytes, list[str]]] = []
        self._flushing: asyncio.Task | None = None
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
                commands = [(channel, data) for data, channels in batch for channel in channels]
                try:
                    await self._run_publishes(commands)
                except Exception:  # noqa: BLE001  an update lost in fan-out is recovered by the client's resync
                    pass
        finally:
            self._flushing = None

    async def _run_publishes(self, commands: list[tuple[str, bytes]]) -> list[int]:
        """Ask once which channels have a subscriber besides this process (one small PUBSUB NUMSUB
        for the whole batch), then publish only on those, as one pipeline.

        Returns, per command, how many subscribers got it (0: nobody else listened, not published)."""
        channels = list(dict.fromkeys(channel for channel, _ in commands))
        counts = dict(await self._publisher.pubsub_numsub(*channels))
        others = {
            channel for channel in channels
            if counts.get(channel.encode(), 0) > (1 if self.local.watching(channel) else 0)
        }
        wanted = [(channel, data) for channel, data in commands if channel in others]
        if not wanted:
            return [0] * len(commands)
        pipe = self._publisher.pipeline(transaction=False)
        for channel, data in wanted:
            pipe.publish(channel, data)
        receivers = iter(await pipe.execute())
        return [next(receivers) if channel in others else 0 for channel, _ in commands]

    async def stream_events(self):
        """Hands the plugin nothing: other processes' updates go straight to this process's sockets
        (`local`), so a socket needs no subscriber queue and no task of its own. The plugin still
        counts subscriptions per channel and (un)subscribes on Redis."""
        await self._dispatch_forever()
        yield  # never reached; makes this the async generator the plugin iterates

    async def _dispatch_forever(self) -> None:
        """As the base class's loop, minus a set difference over every subscribed channel per
        message (O(subscribed games) each: it dominated fan-out with a thousand games open), and
        minus this process's own publishes (its sockets had them directly)."""
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
                self.local.deliver_published(channel.decode(), data)

    async def on_shutdown(self) -> None:
        if self._flushing is not None:
            await asyncio.shield(self._flushing)
        await super().on_shutdown()
