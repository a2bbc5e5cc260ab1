"""The race room socket, /ws/races/{race_id}: a race's versioned frames to its racers and spectators.

One socket watches a whole race, several games at once, and never a card: it listens on the race's
channel (s2c.race, the race's public view, versioned by the race log) and, from the start signal
on, on one channel per racer (s2c.race_progress, counts only, versioned by that racer's game
version). Frames are encoded once by the process that made the change (`RaceFanout`) and the same
bytes go to every socket: this process's directly (fanout.local), other processes' through Redis
pub/sub, like the game socket's updates. A racer plays on the game socket; the race socket counts
their presence (all of a racer's race sockets closed during the race: "disconnected").
"""

from __future__ import annotations

import asyncio
from collections import deque

import msgspec
from litestar import WebSocket, websocket
from litestar.channels import ChannelsPlugin
from litestar.di import NamedDependency
from litestar.params import FromPath
from redis.exceptions import RedisError

from ..identity import Identity
from ..races.core import COUNTDOWN, LOBBY, RaceState
from ..races.progress import RacerProgress
from ..races.service import RaceService
from ..races.view import RaceView, public_view
from ..settings import Settings
from ..store import StoreError
from ..store.keys import race_channel, racer_channel
from .fanout import BatchingPubSubBackend
from .game_socket import CLOSE_NOT_FOUND, CLOSE_UNAUTHORIZED, OUTBOX_LIMIT, frame_bytes_over, published
from .messages import S2C, ErrorS2C, MoveC2S, PingC2S, PongS2C, decode_c2s, encode_s2c
from .rate_limit import TokenBucket


class RaceSnapshotS2C(S2C, tag="s2c.race_snapshot"):
    """The first frame: who you are in this race and the race as it is (then s2c.race_progress per racer)."""

    race_id: str
    role: str  # racer | spectator
    version: int
    race: RaceView


class RaceS2C(S2C, tag="s2c.race"):
    """The race changed: its whole public view at the race log's version."""

    race_id: str
    version: int
    race: RaceView


class RaceProgressS2C(S2C, tag="s2c.race_progress"):
    """One racer's progress at their game's version: counts and a status, never a card."""

    race_id: str
    player: str
    version: int
    status: str  # in_play, won, stuck, resigned
    moves: int
    cards_left: int
    cards_home: int
    elapsed_ms: int | None


def progress_frame(race_id: str, p: RacerProgress) -> bytes:
    return encode_s2c(
        RaceProgressS2C(race_id, p.player, p.version, p.status, p.moves, p.cards_left, p.cards_home, p.elapsed_ms)
    )


class RaceFanout:
    """The race service's feed: each change encoded once, to this process's sockets and to the others."""

    def __init__(self, fanout: BatchingPubSubBackend) -> None:
        self.fanout = fanout

    def _send(self, channel: str, version: int, frame: bytes) -> None:
        self.fanout.queue_publish(self.fanout.tagged(published(version, frame)), [channel])
        self.fanout.local.deliver(channel, version, frame)

    def race_changed(self, view: RaceView) -> None:
        self._send(race_channel(view.race_id), view.version, encode_s2c(RaceS2C(view.race_id, view.version, view)))

    def progress(self, race_id: str, progress: RacerProgress) -> None:
        self._send(racer_channel(race_id, progress.player), progress.version, progress_frame(race_id, progress))


class _Feed:
    """One channel's frames into the socket, each version once and in order (LocalSockets' sink)."""

    def __init__(self, room: RaceSocket, on_frame=None) -> None:
        self.room, self.sent_version, self.on_frame = room, -1, on_frame

    def push(self, version: int, frame: bytes) -> None:
        if version <= self.sent_version:
            return
        self.sent_version = version
        self.room.queue(frame)
        if self.on_frame is not None:
            self.on_frame()


class RaceSocket:
    def __init__(self, socket: WebSocket, races: RaceService, channels: ChannelsPlugin,
                 fanout: BatchingPubSubBackend, settings: Settings, race_id: str, viewer_id: str) -> None:
        self.socket, self.races, self.channels, self.fanout = socket, races, channels, fanout
        self.settings, self.race_id, self.viewer_id = settings, race_id, viewer_id
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
        self.outbox: deque[bytes] = deque(maxlen=OUTBOX_LIMIT)
        self.draining: asyncio.Task | None = None
        self.race_feed = _Feed(self, self._race_moved)
        self.racer_feeds: dict[str, _Feed] = {}
        self.subscribers: list = []
        self.watching: list[tuple[str, _Feed]] = []
        self.checking: asyncio.Task | None = None

    async def send(self, frame: bytes) -> None:
        await self.socket.send({"type": "websocket.send", "text": frame.decode()})

    def queue(self, frame: bytes) -> None:
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

    async def _listen(self, channel: str, feed: _Feed) -> None:
        """Listen locally and on Redis before reading what to send first, so nothing falls between."""
        self.fanout.local.add(channel, feed)
        self.watching.append((channel, feed))
        self.subscribers.append((await self.channels.subscribe([channel]), channel))

    async def run(self) -> None:
        racer = False
        try:
            await self._listen(race_channel(self.race_id), self.race_feed)
            state = await self.races.advance(self.race_id)
            if state is None:
                await self.send(encode_s2c(ErrorS2C("no_such_race", f"there is no race {self.race_id!r}")))
                await self.socket.close(CLOSE_NOT_FOUND, "no such race")
                return
            racer = self.viewer_id in state.seated
            await self._send_snapshot(state, "racer" if racer else "spectator")
            if racer:
                await self.races.presence(self.race_id, self.viewer_id, True)
            await self._watch_racers(state)
            while True:
                message = await self.socket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                await self.on_frame(message.get("text") or message.get("bytes") or b"")
        finally:
            await self._close(racer)

    async def _close(self, racer: bool) -> None:
        for task in (self.draining, self.checking):
            if task is not None:
                task.cancel()
        for channel, feed in self.watching:
            self.fanout.local.discard(channel, feed)
        for subscriber, channel in self.subscribers:
            try:
                await self.channels.unsubscribe(subscriber, [channel])  # named: no scan of every channel
            except Exception:  # noqa: BLE001  Redis away: the plugin's own shutdown unsubscribes
                pass
        for channel, _ in self.watching:
            watchers = self.channels._channels.get(channel)
            if watchers is not None and not watchers:  # as game_socket.forget_if_unwatched
                del self.channels._channels[channel]
        if racer:
            try:
                await asyncio.shield(self.races.presence(self.race_id, self.viewer_id, False))
            except (StoreError, RedisError, asyncio.CancelledError):
                pass

    async def _send_snapshot(self, state: RaceState, role: str) -> None:
        view = public_view(state)
        self.race_feed.sent_version = max(self.race_feed.sent_version, view.version)
        await self.send(encode_s2c(RaceSnapshotS2C(self.race_id, role, view.version, view)))

    async def _watch_racers(self, state: RaceState) -> None:
        """From the start signal on: every racer's progress channel, then their progress now."""
        if self.racer_feeds or state.status in (LOBBY, COUNTDOWN) or not state.games:
            return
        for player in state.games:
            feed = self.racer_feeds[player] = _Feed(self)
            await self._listen(racer_channel(self.race_id, player), feed)
        for progress in await self.races.progress_now(state):
            feed = self.racer_feeds[progress.player]
            feed.push(progress.version, progress_frame(self.race_id, progress))

    def _race_moved(self) -> None:
        """An s2c.race went out: once the race has started, start watching the racers."""
        if not self.racer_feeds and self.checking is None:
            self.checking = asyncio.get_running_loop().create_task(self._check_started())

    async def _check_started(self) -> None:
        try:
            state = await self.races.load(self.race_id)
            if state is not None:
                await self._watch_racers(state)
        except (StoreError, RedisError):
            pass
        finally:
            self.checking = None

    async def on_frame(self, data: str | bytes) -> None:
        if not self.bucket.take():
            return
        if frame_bytes_over(data, self.settings.max_frame_bytes):
            await self.send(encode_s2c(ErrorS2C("frame_too_big", "frame too big")))
            return
        frame = decode_c2s(data)
        if isinstance(frame, ErrorS2C):
            await self.send(encode_s2c(frame))
        elif isinstance(frame, PingC2S):
            await self.send(encode_s2c(PongS2C()))
        elif isinstance(frame, MoveC2S):
            await self.send(encode_s2c(ErrorS2C("not_a_game", "a race socket takes no moves: play on /ws/games/{id}")))
        else:  # c2s.sync: the race as it is now
            try:
                state = await self.races.advance(self.race_id)
            except (StoreError, RedisError) as exc:
                await self.send(encode_s2c(ErrorS2C("unavailable", f"the race store did not answer: {exc}")))
                return
            if state is not None:
                await self._send_snapshot(state, "racer" if self.viewer_id in state.seated else "spectator")
                await self._watch_racers(state)


@websocket("/ws/races/{race_id:str}")
async def race_socket(
    socket: WebSocket,
    race_id: FromPath[str],
    races: NamedDependency[RaceService],
    channels: NamedDependency[ChannelsPlugin],
    fanout: NamedDependency[BatchingPubSubBackend],
    settings: NamedDependency[Settings],
    identity: NamedDependency[Identity],
) -> None:
    await socket.accept()
    viewer_id = identity.player_of(socket.query_params.get("token"))
    if viewer_id is None:
        await socket.send_text(encode_s2c(ErrorS2C("unauthorized", "connect with ?token=<token>")).decode())
        await socket.close(CLOSE_UNAUTHORIZED, "unauthorized")
        return
    await RaceSocket(socket, races, channels, fanout, settings, race_id, viewer_id).run()


race_s2c_decoder = msgspec.json.Decoder(RaceSnapshotS2C | RaceS2C | RaceProgressS2C | ErrorS2C | PongS2C)
__all__ = ["RaceFanout", "RaceS2C", "RaceProgressS2C", "RaceSnapshotS2C", "race_socket"]
