"""The game socket: parse, rate-limit, hand moves to the service, fan updates out. It decides no rule.

One connection watches one game. The owner plays; anyone else authenticated watches read-only.
An update is encoded once per version and the same bytes go to every socket of the game: sockets
of this process get it directly (fanout.LocalSockets), other gateway processes through the
channels plugin (Redis pub/sub), which drops this process's own publishes when they come back.
"""

from __future__ import annotations

import asyncio
from collections import deque

from litestar import WebSocket
from litestar.channels import ChannelsPlugin
from redis.exceptions import RedisError

from ..games.service import GameService, Refusal, Snapshot
from ..metrics import observe_move, redis_error, socket_shown
from ..settings import Settings
from ..store import StoreError
from ..store.keys import updates_channel as channel_of
from .fanout import BatchingPubSubBackend
from .messages import (
    AcceptedS2C,
    ErrorS2C,
    MoveC2S,
    PingC2S,
    PongS2C,
    RejectedS2C,
    SnapshotS2C,
    UpdateS2C,
    decode_c2s,
    encode_s2c,
)
from .rate_limit import TokenBucket

CLOSE_UNAUTHORIZED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
OUTBOX_LIMIT = 256  # updates waiting for a slow socket; older ones are dropped (each view is whole)


def update_frame(snapshot: Snapshot) -> bytes:
    s = snapshot
    return encode_s2c(UpdateS2C(s.game_id, s.version, s.view, s.elapsed_ms, s.seed, s.deal))


def frame_bytes_over(data: str | bytes, limit: int) -> bool:
    """Whether a frame is over `limit` bytes. A text frame counts its UTF-8 bytes, not its characters
    (up to 4 bytes each); only one that might be over is encoded to count."""
    if len(data) > limit:
        return True
    return isinstance(data, str) and len(data) * 4 > limit and len(data.encode()) > limit


def forget_if_unwatched(channels: ChannelsPlugin, channel: str) -> None:
    """Litestar's plugin keeps an entry for every channel ever subscribed, and each unsubscribe scans
    them all: without this, a process's memory and its cost per disconnect would grow with every game
    ever watched (or every random id a client opened). A later subscribe makes the entry again."""
    watchers = channels._channels.get(channel)
    if watchers is not None and not watchers:
        del channels._channels[channel]


def published(version: int, frame: bytes) -> bytes:
    """What goes on the channel (after the origin tag): the version first, so a socket can skip
    what it already sent."""
    return b"%d\n" % version + frame


class GameSocket:
    def __init__(
        self,
        socket: WebSocket,
        service: GameService,
        channels: ChannelsPlugin,
        fanout: BatchingPubSubBackend,
        settings: Settings,
        game_id: str,
        viewer_id: str,
    ) -> None:
        self.socket = socket
        self.service = service
        self.channels = channels
        self.fanout = fanout
        self.settings = settings
        self.game_id = game_id
        self.viewer_id = viewer_id
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
        self.sent_version = -1  # the newest version this socket has shown
        self.flooding = False
        self.outbox: deque[bytes] | None = None  # made on the first pushed update (idle sockets: none)
        self.draining: asyncio.Task | None = None

    async def send(self, frame: bytes) -> None:
        # The ASGI event itself: send_text's checks and copies are per frame, twice per move.
        await self.socket.send({"type": "websocket.send", "text": frame.decode()})

    async def run(self) -> None:
        channel = channel_of(self.game_id)
        # Listen (locally and on Redis) before the snapshot so no update can fall between them.
        self.fanout.local.add(channel, self)
        try:
            async with self.channels.start_subscription(channel):  # Redis, for other processes' moves
                if not await self.send_snapshot():
                    return
                while True:
                    message = await self.socket.receive()
                    if message["type"] == "websocket.disconnect":
                        return
                    await self.on_frame(message.get("text") or message.get("bytes") or b"")
        finally:
            self.fanout.local.discard(channel, self)
            forget_if_unwatched(self.channels, channel)
            if self.draining is not None:
                self.draining.cancel()

    async def send_snapshot(self) -> bool:
        opened = await self.service.open_for(self.game_id, self.viewer_id)
        if opened is None:
            await self.send(encode_s2c(ErrorS2C("no_such_game", f"there is no game {self.game_id!r}")))
            await self.socket.close(CLOSE_NOT_FOUND, "no such game")
            return False
        if isinstance(opened, Refusal):
            await self.send(encode_s2c(ErrorS2C(opened.code, opened.message)))
            await self.socket.close(CLOSE_FORBIDDEN, opened.code)
            return False
        snapshot, is_player = opened
        role = "player" if is_player else "spectator"
        socket_shown(self, role)
        s = snapshot
        frame = SnapshotS2C(s.game_id, role, s.version, s.view, s.elapsed_ms, s.seed, s.deal)
        self.sent_version = snapshot.version
        await self.send(encode_s2c(frame))
        return True

    def push(self, version: int, frame: bytes) -> None:
        """Queue an update for this socket unless it already showed that version; sends keep order."""
        if version <= self.sent_version:
            return  # this socket already showed it (its own move, or a newer snapshot)
        self.sent_version = version
        if self.outbox is None:
            self.outbox = deque(maxlen=OUTBOX_LIMIT)
        self.outbox.append(frame)
        if self.draining is None:
            self.draining = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self.outbox:
                await self.send(self.outbox.popleft())
        except Exception:  # noqa: BLE001  the socket closed under us; the receive loop ends the connection
            self.outbox.clear()
        finally:
            self.draining = None

    async def on_frame(self, data: str | bytes) -> None:
        if not self.bucket.take():
            if not self.flooding:  # one error per flood, not one per dropped frame
                self.flooding = True
                await self.send(encode_s2c(ErrorS2C("rate_limited", "too many frames; this one was dropped")))
            return
        self.flooding = False
        limit = self.settings.max_frame_bytes
        if frame_bytes_over(data, limit):
            await self.send(encode_s2c(ErrorS2C("frame_too_big", f"frames are limited to {limit} bytes")))
            return
        frame = decode_c2s(data)
        if isinstance(frame, ErrorS2C):
            await self.send(encode_s2c(frame))
        elif isinstance(frame, PingC2S):
            await self.send(encode_s2c(PongS2C()))
        else:  # a move or a sync: both need Redis
            try:
                await (self.on_move(frame) if isinstance(frame, MoveC2S) else self.send_snapshot())
            except (StoreError, RedisError) as exc:
                redis_error("socket")
                # Redis is away: the socket lives on. A move may or may not be stored: the same move_id may be
                # sent again safely.
                await self.send(encode_s2c(ErrorS2C("unavailable", f"the game store did not answer: {exc}")))

    async def on_move(self, frame: MoveC2S) -> None:
        result = await observe_move(self.service.submit(self.viewer_id, self.game_id, frame.move_id, frame.version, frame.move))
        answer = result.answer
        if not answer.accepted:
            await self.send(encode_s2c(RejectedS2C(answer.move_id, answer.version, answer.code, answer.message)))
            return
        await self.send(encode_s2c(AcceptedS2C(answer.move_id, answer.version)))
        snapshot = result.snapshot
        if snapshot is None or snapshot.version <= self.sent_version:
            return  # a retry of a move this socket already showed
        update = update_frame(snapshot)
        channel = channel_of(self.game_id)
        self.fanout.queue_publish(self.fanout.tagged(published(snapshot.version, update)), [channel])
        self.fanout.local.deliver(channel, snapshot.version, update, skip=self)
        self.sent_version = snapshot.version
        await self.send(update)
