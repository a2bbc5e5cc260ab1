"""The fan-out: every update reaches every socket of its game, on this process and on every other.

- Sockets of this process get an update straight from the process that made the move (`LocalSockets`).
- Other processes get it over Redis pub/sub (a `Link`: PubSubLink on one server, ShardedPubSubLink on a
  cluster; the only places pub/sub commands are spelled).
  A channel is subscribed while any socket of this process watches its game (counted per channel: one
  SUBSCRIBE for the first socket, one UNSUBSCRIBE after the last), on one subscriber connection read by one
  task, which hands each message to this process's sockets of the game.
- Publishes go only to channels with a subscriber besides this process. A move's append counts its
  channel's subscribers in the same atomic step (services/store/append_script.py), so a move nobody else
  watches costs no Redis command here at all; an update with no such count is queued and its flush asks
  Redis (one PUBSUB NUMSUB per batch). Publishes are flushed as one pipeline. What we publish comes back to
  us too and is dropped by its origin tag (our sockets had it directly).

Why "no other subscriber, no publish" is safe: a socket waits for Redis to confirm its channel's
subscription (`ready`) before it reads its snapshot. The count is taken after the move was stored (in the
append itself, or by NUMSUB after it), so a subscriber it does not count subscribed later, and its snapshot
already shows the move.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter

from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError

from .local_sockets import LocalSockets, UpdateSink
from ..guards.overload import UNAVAILABLE_ERRORS, warnings
from .pubsub_link import MESSAGE, SUBSCRIBED, Link

# While the connection comes back (see _read_forever): the link's own errors, and redis-py's half-made states.
_LINK_ERRORS: tuple[type[BaseException], ...] = (*UNAVAILABLE_ERRORS, RuntimeError)
_READ_ERRORS: tuple[type[BaseException], ...] = (*UNAVAILABLE_ERRORS, RuntimeError, AttributeError)

__all__ = ["Fanout", "LocalSockets", "NotSubscribed", "UpdateSink"]

log = logging.getLogger("arena.gateway")


class NotSubscribed(RedisTimeoutError):
    """Redis did not confirm a channel's subscription in time: like any Redis timeout, `unavailable`."""


class Fanout:
    max_batch = 512
    read_timeout = 1.0  # seconds a read of the subscriber connection waits before looking again
    retry_seconds = 0.5  # after a failed read (Redis away), before the next

    def __init__(self, link: Link, *, confirm_timeout: float) -> None:
        self.link = link
        self.confirm_timeout = confirm_timeout
        self.local = LocalSockets()
        self.origin = secrets.token_hex(6).encode() + b" "  # this process's tag on what it publishes
        self._subscribed: dict[str, asyncio.Future[None]] = {}  # per watched channel: done once confirmed
        self._unconfirmed: Counter[str] = Counter()  # SUBSCRIBEs sent, not yet confirmed
        self._leaving: set[str] = set()
        self._queue: list[tuple[str, bytes, bool]] = []  # (channel, tagged data, others known to listen)
        self._tasks: dict[str, asyncio.Task | None] = {"read": None, "flush": None, "leave": None}
        self._subscribing: set[asyncio.Task] = set()

    # Watching ---------------------------------------------------------------------------------

    def watch(self, channel: str, sink: UpdateSink) -> None:
        """Deliver `channel`'s updates to `sink` from now on; subscribes on Redis for the first watcher."""
        self.local.add(channel, sink)
        if channel not in self._subscribed:
            self._start("read", self._read_forever)
            self._send_subscribe(channel)

    async def ready(self, channel: str) -> None:
        """Return once Redis has confirmed this process's subscription to `channel` (subscribing again if
        the last try failed); raise NotSubscribed or a Redis error when it cannot within confirm_timeout."""
        confirmed = self._subscribed[channel]
        if confirmed.done() and confirmed.exception() is not None:
            confirmed = self._send_subscribe(channel)
        try:
            await asyncio.wait_for(asyncio.shield(confirmed), self.confirm_timeout)
        except TimeoutError:
            raise NotSubscribed(f"redis did not confirm the subscription to {channel} in time") from None

    def unwatch(self, channel: str, sink: UpdateSink) -> None:
        self.local.discard(channel, sink)
        if self.local.watching(channel):
            return
        del self._subscribed[channel]
        self._leave(channel)

    def _leave(self, channel: str) -> None:
        self._leaving.add(channel)
        self._start("leave", self._unsubscribe_leaving)

    def watched(self) -> set[str]:
        """Channels this process holds anything for (sockets, a subscription, a pending unsubscribe)."""
        return set(self._subscribed) | set(self.local.channels()) | self._leaving

    def _send_subscribe(self, channel: str) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        confirmed = self._subscribed[channel] = loop.create_future()
        # Read by someone even when no socket waits any more (else asyncio reports it as never retrieved).
        confirmed.add_done_callback(lambda done: done.exception())
        self._unconfirmed[channel] += 1
        task = loop.create_task(self._subscribe(channel, confirmed))
        self._subscribing.add(task)
        task.add_done_callback(self._subscribing.discard)
        return confirmed

    async def _subscribe(self, channel: str, confirmed: asyncio.Future[None]) -> None:
        try:
            try:
                await self.link.subscribe([channel])
            except RuntimeError as exc:  # redis-py reconnecting under the reader's feet: the link is not back yet
                raise RedisConnectionError(f"the pub/sub connection is being restored: {exc}") from exc
        except UNAVAILABLE_ERRORS as exc:
            warnings.warn("subscribing", exc)
            self._confirmed(channel, sent=False)
            if not confirmed.done():
                confirmed.set_exception(exc)

    def _confirmed(self, channel: str, *, sent: bool = True) -> None:
        """Redis answered a SUBSCRIBE (or one was never sent): done once the newest one is answered."""
        if self._unconfirmed[channel] > 1:
            self._unconfirmed[channel] -= 1
            return  # an older SUBSCRIBE's answer: the newest one is still on its way
        self._unconfirmed.pop(channel, None)
        confirmed = self._subscribed.get(channel)
        if sent and confirmed is not None and not confirmed.done():
            confirmed.set_result(None)

    async def _unsubscribe_leaving(self) -> None:
        while self._leaving:
            gone = [channel for channel in self._leaving if channel not in self._subscribed]  # else watched again
            self._leaving.clear()
            if not gone:
                continue  # (an empty UNSUBSCRIBE would leave every channel)
            try:
                await self.link.unsubscribe(gone)
            except _LINK_ERRORS as exc:
                # A lost connection (or one being restored): try again a little later, until it is back.
                warnings.warn("unsubscribing", exc)
                self._leaving.update(gone)
                await asyncio.sleep(self.retry_seconds)

    # Receiving --------------------------------------------------------------------------------

    async def _read_forever(self) -> None:
        """One reader for the process: confirmations, and other processes' updates for our sockets."""
        origin = self.origin
        lost = False
        while True:
            try:
                received = await self.link.receive(self.read_timeout)
            except _READ_ERRORS as exc:
                # RuntimeError, AttributeError: while the connection comes back, redis-py's reconnect (started
                # by a SUBSCRIBE) may read it at the same time as this loop, or find it half made. The one
                # reader must not die of it: it is the connection not back yet.
                if isinstance(exc, (RuntimeError, AttributeError)):  # to waiters: the connection is not back yet
                    exc = RedisConnectionError(f"the pub/sub connection is being restored: {exc}")
                warnings.warn("reading updates", exc)
                self._connection_lost(exc)
                lost = True
                await asyncio.sleep(self.retry_seconds)
                continue
            if lost:  # back: drop what redis-py subscribed the new connection to that nobody watches now
                lost = False
                for channel in self.link.subscribed() - set(self._subscribed):
                    self._leave(channel)
            if received is None:
                continue
            if received.kind == MESSAGE:
                if not received.data.startswith(origin):
                    self.local.deliver_published(received.channel, received.data)
            elif received.kind == SUBSCRIBED:
                if received.channel in self._unconfirmed:
                    self._confirmed(received.channel)
                if received.channel not in self._subscribed:  # left meanwhile, or subscribed again by redis-py
                    self._leave(received.channel)

    def _connection_lost(self, exc: BaseException) -> None:
        """Answers to the SUBSCRIBEs in flight are lost with the connection: fail them, so the next `ready`
        sends them again (redis-py subscribes the new connection to the channels it already confirmed)."""
        self._unconfirmed.clear()
        for confirmed in self._subscribed.values():
            if not confirmed.done():
                confirmed.set_exception(exc)

    def pending(self) -> tuple[int, int]:
        """The fan-out's backlog: updates queued for other processes, and updates waiting in this
        process's socket outboxes (a slow socket's, dropped past its limit). Read by /metrics."""
        return len(self._queue), self.local.waiting()

    # Publishing -------------------------------------------------------------------------------

    def tagged(self, data: bytes) -> bytes:
        return self.origin + data

    def queue_publish(self, channel: str, data: bytes, watchers: int | None = None) -> None:
        """Queue without awaiting anything (the move path calls this; the flusher sends it). `watchers`: the
        channel's subscribers as the move's append counted them (None: not counted, the flush asks)."""
        if watchers is not None and watchers <= self._own_subscriptions(channel):
            return  # nobody else subscribed when the move was stored: a later subscriber's snapshot has it
        self._queue.append((channel, self.tagged(data), watchers is not None))
        self._start("flush", self._flush)

    async def _flush(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
            counted = {channel for channel, _, known in batch if known}
            try:
                await self.publish_batch([(channel, data) for channel, data, _ in batch], counted)
            except UNAVAILABLE_ERRORS as exc:  # an update lost in fan-out is recovered by the client's resync
                warnings.warn("publishing updates", exc)

    async def publish_batch(self, messages: list[tuple[str, bytes]], counted: set[str] | None = None) -> list[int]:
        """Publish on the channels another process listens to (one pipeline): those in `counted` (known
        from the append's count), the others asked of Redis first (one NUMSUB for the batch, none when
        every channel is counted); per message, how many subscribers got it (0: not published)."""
        known = counted or set()
        asked = list(dict.fromkeys(channel for channel, _ in messages if channel not in known))
        counts = await self.link.listeners(asked) if asked else {}
        others = known | {channel for channel in asked if counts.get(channel, 0) > self._own_subscriptions(channel)}
        wanted = [(channel, data) for channel, data in messages if channel in others]
        receivers = iter(await self.link.publish(wanted) if wanted else ())
        return [next(receivers) if channel in others else 0 for channel, _ in messages]

    def _own_subscriptions(self, channel: str) -> int:
        confirmed = self._subscribed.get(channel)
        return 1 if confirmed is not None and confirmed.done() and confirmed.exception() is None else 0

    # Life -------------------------------------------------------------------------------------

    def _start(self, name: str, work) -> None:
        # done(), not a done-callback's None: a task that just left its loop has its callback still to come,
        # and work queued in between would wait for the next call.
        running = self._tasks[name]
        if running is None or running.done():
            task = self._tasks[name] = asyncio.get_running_loop().create_task(work())
            task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:  # a bug: say so; the next use restarts it
            log.error("a fan-out task failed", exc_info=task.exception())

    async def start(self) -> None:
        await self.link.connect()  # before any subscribe: two tasks connecting at once would take two
        self._start("read", self._read_forever)

    async def aclose(self) -> None:
        """Send what is queued (for up to confirm_timeout: Redis may be away, and its tasks retry until it
        is back), stop reading, close the link. Leaving channels is not waited for: closing the link
        ends every subscription of this process anyway."""
        leaving = self._tasks["leave"]
        if leaving is not None:
            leaving.cancel()
        sending = [task for task in [self._tasks["flush"], *self._subscribing] if task is not None]
        if sending:
            _, late = await asyncio.wait(sending, timeout=self.confirm_timeout)
            for task in late:
                task.cancel()
        await asyncio.gather(*[t for t in [leaving, *sending] if t is not None], return_exceptions=True)
        reader = self._tasks["read"]
        if reader is not None:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
        await self.link.aclose()
