"""The race room socket, /ws/races/{race_id}?ticket=...: a race's versioned frames to racers and spectators.

One socket watches a whole race, several games at once, and never a card: it watches the race's
channel (s2c.race, the race's public view, versioned by the race log) and, from the start signal on,
one channel per racer (s2c.race_progress, counts only, versioned by that racer's game version), all
through the process's fan-out (race_frames.RaceFanout encodes each change once). Like the game socket
it connects with a one-use ticket, waits for Redis to confirm its channels before it reads what to send
first (so no change falls between), and answers `unavailable` without closing when Redis cannot serve.
A racer plays on the game socket; the race socket counts their presence (all of a racer's race
sockets closed during the race: "disconnected").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from litestar import WebSocket, websocket
from litestar.di import NamedDependency
from litestar.params import FromPath

from ...runtime.logging import bind_ids
from ...races.core import COUNTDOWN, LOBBY, RaceState
from ...races.service import RaceService
from ...races.view import public_view
from ...identity.sessions import Sessions
from ...runtime.settings import Settings
from ...store.keys import race_channel, racer_channel
from ..guards.auth import socket_player
from ..links.fanout import Fanout
from .frame_admission import FrameAdmission
from .messages import CLOSE_NOT_FOUND, ErrorS2C, MoveC2S, NewGameC2S, encode_s2c
from ..guards.overload import UNAVAILABLE_ERRORS, warnings
from .player_budget import PlayerBudgets
from .pushes import VersionedPushes
from .raw_send import frame_of, text_event
from .race_frames import RaceSnapshotS2C, progress_frame

_CLOSING_ERRORS: tuple[type[BaseException], ...] = (*UNAVAILABLE_ERRORS, asyncio.CancelledError)


class _Feed(VersionedPushes):
    """One channel's frames into the race socket, each version once and in order (the fan-out's sink).
    Each channel has versions of its own (the race log's, a racer's game's), so each has its own outbox."""

    def __init__(self, room: RaceSocket, on_frame: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.room, self.on_frame = room, on_frame

    async def send(self, frame: bytes) -> None:
        await self.room.send(frame)

    def push(self, version: int, frame: bytes) -> None:
        shown = self.sent_version
        super().push(version, frame)
        if self.on_frame is not None and self.sent_version > shown:
            self.on_frame()


class RaceSocket:
    def __init__(self, socket: WebSocket, races: RaceService, fanout: Fanout, settings: Settings,
                 race_id: str, viewer_id: str) -> None:
        self.socket, self.races, self.fanout = socket, races, fanout
        self.settings, self.race_id, self.viewer_id = settings, race_id, viewer_id
        self.admission = FrameAdmission(settings, self.send)
        self.race_feed = _Feed(self, self._race_moved)
        self.racer_feeds: dict[str, _Feed] = {}
        self.watching: list[tuple[str, _Feed]] = []
        self.checking: asyncio.Task | None = None
        self.present = False  # counted in the race's presence (a racer's socket, once its first snapshot went)

    async def send(self, frame: bytes) -> None:
        await self.socket.send(text_event(frame))

    def _watch(self, channel: str, feed: _Feed) -> None:
        self.fanout.watch(channel, feed)
        self.watching.append((channel, feed))

    async def run(self) -> None:
        self._watch(race_channel(self.race_id), self.race_feed)  # before the first read: nothing falls between
        try:
            try:
                if not await self.sync():
                    return
            except UNAVAILABLE_ERRORS as exc:  # the socket stays; the client may c2s.sync
                await self.send_unavailable("a first race snapshot", exc)
            while True:
                message = await self.socket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                await self.on_frame(frame_of(message))
        finally:
            await self._close()

    async def sync(self) -> bool:
        """The race as it is now, then every racer's progress once it has started; False when there is
        no such race (said, and closed)."""
        await self.fanout.ready(race_channel(self.race_id))
        state = await self.races.advance(self.race_id)
        if state is None:
            await self.send(encode_s2c(ErrorS2C("no_such_race", f"there is no race {self.race_id!r}")))
            await self.socket.close(CLOSE_NOT_FOUND, "no such race")
            return False
        racer = self.viewer_id in state.seated
        view = public_view(state)
        self.race_feed.sent_version = max(self.race_feed.sent_version, view.version)
        role = "racer" if racer else "spectator"
        await self.send(encode_s2c(RaceSnapshotS2C(self.race_id, role, view.version, view, self.races.clock())))
        if racer and not self.present:
            await self.races.presence(self.race_id, self.viewer_id, True)
            self.present = True
        await self._watch_racers(state)
        return True

    async def _watch_racers(self, state: RaceState) -> None:
        """From the start signal on: every racer's progress channel (confirmed), then their progress now."""
        if state.status in (LOBBY, COUNTDOWN) or not state.games:
            return
        for player in state.games:
            if player not in self.racer_feeds:
                self.racer_feeds[player] = _Feed(self)
                self._watch(racer_channel(self.race_id, player), self.racer_feeds[player])
        for player in state.games:
            await self.fanout.ready(racer_channel(self.race_id, player))
        for progress in await self.races.progress_now(state):
            self.racer_feeds[progress.player].push(progress.version, progress_frame(self.race_id, progress))

    def _race_moved(self) -> None:
        """An s2c.race went out: once the race has started, start watching the racers."""
        if not self.racer_feeds and self.checking is None:
            self.checking = asyncio.get_running_loop().create_task(self._check_started())

    async def _check_started(self) -> None:
        try:
            state = await self.races.load(self.race_id)
            if state is not None:
                await self._watch_racers(state)
        except UNAVAILABLE_ERRORS as exc:  # the next s2c.race, or the client's c2s.sync, tries again
            warnings.warn("a race's progress channels", exc)
        finally:
            self.checking = None

    async def _close(self) -> None:
        if self.checking is not None:
            self.checking.cancel()
        for channel, feed in self.watching:
            self.fanout.unwatch(channel, feed)
            feed.stop_pushing()
        if self.present:
            try:
                await asyncio.shield(self.races.presence(self.race_id, self.viewer_id, False))
            except _CLOSING_ERRORS:
                pass  # Redis away: the count stays up; the racer's next socket or the race's end settles it

    async def on_frame(self, data: str | bytes) -> None:
        frame = await self.admission.admit(data)
        if frame is None:
            return  # refused (and told why) or a ping answered
        if isinstance(frame, MoveC2S):
            await self.send(encode_s2c(ErrorS2C("not_a_game", "a race socket takes no moves: play on /ws/games/{id}")))
        elif isinstance(frame, NewGameC2S):  # a race's games are the race's to make
            await self.send(encode_s2c(ErrorS2C("not_a_game", "a race socket makes no games: ask on /ws/games/{id}")))
        else:  # c2s.sync: the race as it is now
            try:
                await self.sync()
            except UNAVAILABLE_ERRORS as exc:
                await self.send_unavailable("a race sync", exc)

    async def send_unavailable(self, what: str, exc: BaseException) -> None:
        warnings.warn(what, exc)
        await self.send(encode_s2c(ErrorS2C("unavailable", f"the race store did not answer: {exc}")))


@websocket("/ws/races/{race_id:str}")
async def race_socket(
    socket: WebSocket,
    race_id: FromPath[str],
    races: NamedDependency[RaceService],
    fanout: NamedDependency[Fanout],
    settings: NamedDependency[Settings],
    sessions: NamedDependency[Sessions],
    budgets: NamedDependency[PlayerBudgets],
) -> None:
    await socket.accept()
    viewer_id = await socket_player(socket, sessions)  # ?ticket=, used once; it says why not and closes
    if viewer_id is None:
        return
    bind_ids(player_id=viewer_id, race_id=race_id)  # every log line of this socket names them
    room = RaceSocket(socket, races, fanout, settings, race_id, viewer_id)
    with budgets.hold(viewer_id) as bucket:
        room.admission.bucket = bucket  # one frame budget per player, shared by all of their sockets
        await room.run()


__all__ = ["RaceSocket", "race_socket"]
