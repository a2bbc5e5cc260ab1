"""The game socket: parse, rate-limit, hand moves to the service, fan updates out. It decides no rule.

One connection watches one game at a time. The owner plays; anyone else authenticated watches read-only.
A `c2s.new_game` makes the socket's player a new game and moves the socket to it (the player's next game
costs no HTTP request, ticket or handshake); from its `s2c.new_game` on, nothing of the game before is sent.
An update is encoded once per version and the same bytes go to every socket of the game: sockets
of this process get it directly, other gateway processes over Redis pub/sub (see fanout.py). It is
a change against the version before (services/games/view_delta.py): every socket of the game showed
that version, and one that did not (a slow socket whose outbox dropped some) resyncs.
"""

from __future__ import annotations


from litestar import WebSocket

from engine import RuleError

from ...games.service import NO_SUCH_GAME, GameService, GameSummary, MoveResult, Refusal
from ...metrics import observe_move, redis_error, socket_closed, socket_shown
from ...runtime.logging import bind_ids
from ...runtime.settings import Settings
from ...store.keys import updates_channel as channel_of
from ..links.fanout import Fanout
from .messages import (
    CLOSE_FORBIDDEN, CLOSE_NOT_FOUND,
    AcceptedS2C,
    ErrorS2C,
    MoveC2S,
    NewGameC2S,
    NewGameS2C,
    RejectedS2C,
    SnapshotS2C,
    UpdateS2C,
    encode_once,
    encode_s2c,
)
from ..guards.json_numbers import whole_numbers
from ..guards.limits import UNIT_WORDS
from ..guards.overload import UNAVAILABLE_ERRORS, warnings
from ..guards.rate_limit import TokenBucket
from .pushes import VersionedPushes
from .raw_send import frame_of, text_sender
from .frame_admission import FrameAdmission

OUTBOX_LIMIT = 256  # updates waiting for a slow socket; older ones are dropped (its client then resyncs)


def accepted_frames(result: MoveResult, mover_version: int) -> tuple[bytes, bytes]:
    """The mover's acceptance carrying the game after the move, and everyone else's update: the delta when
    there is one (encoded once for both), the whole snapshot otherwise. A mover whose socket did not show
    the delta's base (a script moving at a version it was not sent) gets the whole snapshot."""
    answer, snapshot, delta = result.answer, result.snapshot, result.delta
    assert snapshot is not None, "an accepted move's result carries the game after it"
    # Raw values in fields typed Snapshot and SnapshotDelta: msgspec encodes them as the bytes they hold.
    if delta is None:
        whole = encode_once(snapshot)
        return (encode_s2c(AcceptedS2C(answer.move_id, answer.version, snapshot=whole)),  # type: ignore[arg-type]  # Raw (above)
                encode_s2c(UpdateS2C(snapshot=whole)))  # type: ignore[arg-type]  # Raw (above)
    change = encode_once(delta)
    update = encode_s2c(UpdateS2C(delta=change))  # type: ignore[arg-type]  # Raw (above)
    if delta.base != mover_version:
        return encode_s2c(AcceptedS2C(answer.move_id, answer.version, snapshot=snapshot)), update
    return encode_s2c(AcceptedS2C(answer.move_id, answer.version, delta=change)), update  # type: ignore[arg-type]  # Raw (above)


def published(version: int, frame: bytes) -> bytes:
    """What goes on the channel (after the origin tag): the version first, so a socket can skip
    what it already sent."""
    return b"%d\n" % version + frame


class GameSocket(VersionedPushes):
    outbox_limit = OUTBOX_LIMIT

    def __init__(
        self,
        socket: WebSocket,
        service: GameService,
        fanout: Fanout,
        settings: Settings,
        game_id: str,
        viewer_id: str,
    ) -> None:
        super().__init__()
        self.socket = socket
        self.send_text = text_sender(socket)
        self.service = service
        self.fanout = fanout
        self.channel = channel_of(game_id)
        self.settings = settings
        self.game_id = game_id
        self.viewer_id = viewer_id
        self.admission = FrameAdmission(settings, self.send)
        self.games_bucket: TokenBucket | None = None  # the player's new games (player_budget.py); None: no limit
        # The last c2s.new_game's request id, the id reserved for its game, and whether it was answered with it.
        self.made: tuple[str, str, bool] | None = None

    async def send(self, frame: bytes) -> None:
        await self.send_text(frame)  # the ASGI event itself, past the per-message wrappers (raw_send.py)

    async def run(self) -> None:
        # Listen (here and on Redis) before the snapshot so no update can fall between them.
        self.fanout.watch(self.channel, self)
        try:
            try:
                if not await self.send_snapshot():
                    return
            except UNAVAILABLE_ERRORS as exc:  # overloaded or away: the socket stays, the client may c2s.sync
                await self.send_unavailable("a first snapshot", exc)
            while True:
                message = await self.socket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                await self.on_frame(frame_of(message))
        finally:
            self.fanout.unwatch(self.channel, self)
            self.stop_pushing()

    async def send_snapshot(self) -> bool:
        await self.fanout.ready(self.channel)  # other processes' updates reach us from here on
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
        socket_shown(self, "player" if is_player else "spectator")
        self.sent_version = snapshot.version
        await self.send(encode_s2c(SnapshotS2C("player" if is_player else "spectator", snapshot)))
        return True

    async def on_frame(self, data: str | bytes) -> None:
        frame = await self.admission.admit(data)
        if frame is None:
            return  # refused (and told why) or a ping answered
        try:  # a move, a new game or a sync: all need Redis
            if isinstance(frame, MoveC2S):
                await self.on_move(frame)
            elif isinstance(frame, NewGameC2S):
                await self.on_new_game(frame)
            else:
                await self.send_snapshot()
        except UNAVAILABLE_ERRORS as exc:
            # Redis is away or busy: the socket lives on. A move or a new game may or may not be stored: the
            # same move_id or request_id may be sent again safely.
            await self.send_unavailable("a move, a new game or a sync", exc,
                                        frame.request_id if isinstance(frame, NewGameC2S) else None)

    async def send_unavailable(self, what: str, exc: BaseException, request_id: str | None = None) -> None:
        warnings.warn(what, exc)
        redis_error("socket")
        await self.send(encode_s2c(ErrorS2C("unavailable", f"the game store did not answer: {exc}", request_id)))

    async def on_move(self, frame: MoveC2S) -> None:
        result = await observe_move(self.service.submit(self.viewer_id, self.game_id, frame.move_id, frame.version, frame.move))
        answer = result.answer
        if not answer.accepted:
            await self.send(encode_s2c(RejectedS2C(answer.move_id, answer.version, answer.code, answer.message)))
            return
        snapshot = result.snapshot
        if snapshot is None or snapshot.version <= self.sent_version:
            # A retry of a move this socket already showed: the answer alone. (Every other socket got the
            # update when the move was first made; a retry through another process is answered there.)
            await self.send(encode_s2c(AcceptedS2C(answer.move_id, answer.version)))
            return
        accepted, update = accepted_frames(result, self.sent_version)
        self.fanout.queue_publish(self.channel, published(snapshot.version, update), result.watchers)
        self.fanout.local.deliver(self.channel, snapshot.version, update, skip=self)
        self.sent_version = snapshot.version
        await self.send(accepted)  # one frame: the store has the move (durable), and here is the game now

    async def on_new_game(self, frame: NewGameC2S) -> None:
        """Make the player's new game (the service decides it, as for POST /api/games) and move here to it."""
        again = self.made is not None and self.made[0] == frame.request_id
        if self.made is not None and again and self.made[2]:  # sent again once answered: the game it made, as it is
            summary = await self.service.summary(self.made[1])
            if summary is None:  # (its log gone since: retention, say) answered, never left waiting
                await self.send(encode_s2c(ErrorS2C(NO_SUCH_GAME, f"there is no game {self.made[1]!r}", frame.request_id)))
                return
            await self.show_new_game(frame.request_id, summary)
            return
        if not again:
            if self.games_bucket is not None and not self.games_bucket.take():
                count, unit = self.settings.limit_games or (0, "minute")
                await self.send(encode_s2c(ErrorS2C(
                    "rate_limited", f"too many new games (at most {count} {UNIT_WORDS[unit]}); try again in a while",
                    frame.request_id)))
                return
            # Its id is reserved before anything is written: should the store fail part way (`unavailable`), the
            # same request asks for this id again, and the service makes it, or finds it made, never a second game.
            self.made = (frame.request_id, self.service.new_game_id(), False)
        assert self.made is not None
        request_id, game_id, _ = self.made
        created = await self.service.create_game(self.viewer_id, frame.game, whole_numbers(frame.variant), frame.seed,
                                                 game_id=game_id, unasked=not again)
        if isinstance(created, RuleError):  # a game or variant the engine refuses: this socket stays where it was
            self.made = None
            await self.send(encode_s2c(ErrorS2C(created.code, created.message, frame.request_id)))
            return
        self.made = (request_id, game_id, True)
        await self.show_new_game(frame.request_id, created)

    async def show_new_game(self, request_id: str, summary: GameSummary) -> None:
        if summary.id != self.game_id:  # leave the game before: its updates stop here, queued ones too
            self.fanout.unwatch(self.channel, self)
            if self.outbox is not None:
                self.outbox.clear()
            self.sent_version = -1
            self.game_id, self.channel = summary.id, channel_of(summary.id)
            bind_ids(game_id=summary.id)
            self.fanout.watch(self.channel, self)  # before the snapshot, as in run()
        await self.fanout.ready(self.channel)
        opened = await self.service.open_for(self.game_id, self.viewer_id)
        if not isinstance(opened, tuple):  # a player's own new game opens for them; answered all the same
            refusal = opened or Refusal(NO_SUCH_GAME, f"there is no game {self.game_id!r}")
            await self.send(encode_s2c(ErrorS2C(refusal.code, refusal.message, request_id)))
            return
        snapshot, _ = opened
        socket_closed(self)  # counted again under its new role
        socket_shown(self, "player")
        self.sent_version = max(self.sent_version, snapshot.version)
        await self.send(encode_s2c(NewGameS2C(request_id, summary, "player", snapshot)))
